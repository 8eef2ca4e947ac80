//! NumPy's `einsum` and `tensordot` (`docs/language.md`, "Builtin functions"): their operands
//! (non-bool arrays), the subscripts or axes read by [`crate::einsum`] (the one parser, which the
//! lowering, `passes/src/lower_ast/einsum.rs`, reads too), the sizes of each label, and the result
//! type: the operands' promoted dtype, of the output labels' sizes (a scalar for none).

use super::builtins::Call;
use super::promote::promote;
use super::Checker;
use crate::ast::{DType, ExprKind};
use crate::builtin::Builtin;
use crate::diag::Diagnostic;
use crate::einsum::{self, Einsum};
use crate::types::{Size, Ty};

impl Checker {
    /// Checks `einsum(subscripts, a, ...)` or `tensordot(a, b, axes)` and returns its type
    /// (`Ty::Error` after reporting an error).
    pub(super) fn einsum(&mut self, c: &Call) -> Ty {
        let name = c.b.name();
        let (operands, axes) = match c.b {
            Builtin::Einsum => (&c.args[1..], None),
            _ => (&c.args[..2], c.args.get(2).or_else(|| c.kwarg("axes"))),
        };
        let subscripts = match c.b {
            Builtin::Einsum => match &c.args[0].kind {
                ExprKind::Str(s) => {
                    self.set_ty(c.args[0].id, Ty::Unit);
                    Some(s.clone())
                }
                _ => {
                    self.expr(&c.args[0]);
                    self.err(
                        Diagnostic::error(
                            "E0503",
                            "`einsum`'s subscripts must be a string literal",
                            c.args[0].span.clone(),
                            "not a string literal",
                        )
                        .with_help(
                            "write them first, as a literal: `einsum(\"ij,jk->ik\", a, b)` (NumPy's interleaved \
                             form `einsum(a, [0, 1], b, [1, 2])` is not supported)",
                        ),
                    );
                    None
                }
            },
            _ => None,
        };
        if let Some(a) = axes {
            self.set_ty(a.id, Ty::Unit);
        }
        let mut ops: Vec<(DType, Vec<Size>)> = vec![];
        for a in operands {
            match self.value(a) {
                Ty::Array(DType::Bool, _) => self.err(
                    Diagnostic::error(
                        "E0301",
                        format!("`{name}` of bool arrays is not supported"),
                        a.span.clone(),
                        "a bool array",
                    )
                    .with_help("convert with `i64(...)` or `f64(...)`"),
                ),
                Ty::Array(d, s) => ops.push((d, s)),
                Ty::Error => {}
                t => self.err(
                    Diagnostic::error(
                        "E0503",
                        format!("`{name}` needs arrays, found {t}"),
                        a.span.clone(),
                        "not an array",
                    )
                    .with_help(format!("a scalar factor `s` is a product: `s * {name}(...)`")),
                ),
            }
        }
        if c.bad || ops.len() != operands.len() || (c.b == Builtin::Einsum && subscripts.is_none()) {
            return Ty::Error;
        }
        let ranks: Vec<usize> = ops.iter().map(|(_, s)| s.len()).collect();
        let parsed = match &subscripts {
            Some(s) => einsum::parse(s, &ranks),
            None => einsum::tensordot(axes, ranks[0], ranks[1]),
        };
        let at = if c.b == Builtin::Einsum { &c.args[0] } else { axes.unwrap_or(c.e) };
        let spec: Einsum = match parsed {
            Ok(spec) => spec,
            Err(err) => {
                let code = if err.operand_count { "E0501" } else { "E0503" };
                let what = if c.b == Builtin::Einsum { "subscripts" } else { "axes" };
                self.err(
                    Diagnostic::error(
                        code,
                        format!("`{name}`: {}", err.message),
                        at.span.clone(),
                        format!("these {what}"),
                    )
                    .with_note(format!("{} operand(s) of rank {ranks:?}", ops.len()))
                    .with_help(format!("usage: {}", c.b.row().usage_note())),
                );
                return Ty::Error;
            }
        };
        if let Some(why) = spec.unsupported() {
            self.err(
                Diagnostic::error("E0503", format!("`einsum`: {why}"), at.span.clone(), "not supported")
                    .with_help("take the diagonal of a matrix first (`diagonal(x)`), or write the sum with a loop"),
            );
            return Ty::Error;
        }
        let shapes: Vec<Vec<Size>> = ops.iter().map(|(_, s)| s.clone()).collect();
        let sizes = match spec.label_sizes(&shapes) {
            Ok(sizes) => sizes,
            Err(conflict) => {
                self.err(
                    Diagnostic::error(
                        "E0401",
                        format!("`{name}`: {}", conflict.message()),
                        c.e.span.clone(),
                        "sizes differ",
                    )
                    .with_note("the sizes of one index must be equal (or 1, broadcast, across operands)"),
                );
                return Ty::Error;
            }
        };
        let d = ops.iter().map(|(d, _)| *d).reduce(|a, b| promote(a, None, b, None)).expect("checked: operands");
        let labels = spec.all_labels();
        let out: Vec<Size> = spec
            .output
            .iter()
            .map(|l| sizes[labels.iter().position(|m| m == l).expect("an output label")].clone())
            .map(|z| z.unwrap_or_else(|| self.fresh()))
            .collect();
        if out.is_empty() {
            Ty::Scalar(d)
        } else {
            Ty::Array(d, out)
        }
    }
}

//! NumPy's everyday shape and indexing idioms (`docs/language.md`, "Builtin functions"; issue 31):
//! the views `fliplr`, `flipud`, `rot90` and `transpose(x, axes)`, with NumPy's shapes, dtypes and
//! errors. Their lowering composes views (`passes/src/lower_ast/numpy_shapes.rs`); the reading of
//! their arguments is [`crate::numpy_shapes`].

use super::builtins::{literal_int, Call};
use super::Checker;
use crate::ast::{DType, Expr, ExprKind};
use crate::builtin::Builtin;
use crate::diag::Diagnostic;
use crate::numpy_shapes::{permutation, rot90_args, transpose_axes};
use crate::types::Ty;

impl Checker {
    /// Checks a call of one of the idioms of this file and returns its type (`Ty::Error` after
    /// reporting an error).
    pub(super) fn numpy_shape(&mut self, c: &Call) -> Ty {
        use Builtin as B;
        match c.b {
            B::Fliplr | B::Flipud => {
                let t = self.array_arg(c, &c.args[0]);
                let least = if c.b == B::Fliplr { 2 } else { 1 };
                match t {
                    Ty::Array(_, ref s) if s.len() < least => {
                        self.err(
                            Diagnostic::error(
                                "E0503",
                                format!("`{}` needs an array of at least {least} dimensions, found {t}", c.b.name()),
                                c.args[0].span.clone(),
                                "too few dimensions",
                            )
                            .with_note("NumPy's ValueError: Input must be >= 2-d"),
                        );
                        Ty::Error
                    }
                    t => t,
                }
            }
            B::Rot90 => self.rot90(c),
            B::Transpose => self.transpose_with_axes(c),
            other => unreachable!("`{}` is not an idiom of numpy_shapes", other.name()),
        }
    }

    /// Types the integer literals of axes argument `e` (one, or a tuple or list of them) as `i64`,
    /// the tuple itself as `()` (a form, not a value).
    fn literal_axes(&mut self, e: &Expr) {
        match &e.kind {
            ExprKind::Tuple(items) | ExprKind::List(items) => {
                for it in items {
                    self.expr(it);
                    self.retype_literal(it, Ty::Scalar(DType::I64));
                }
                self.set_ty(e.id, Ty::Unit);
            }
            _ => {
                self.expr(e);
                self.retype_literal(e, Ty::Scalar(DType::I64));
            }
        }
    }

    /// E0503 at `e`: the axes of `c`'s builtin must be integer literals.
    fn not_literal_axes(&mut self, c: &Call, e: &Expr, what: &str) {
        self.err(
            Diagnostic::error(
                "E0503",
                format!("the {what} of `{}` must be integer literals", c.b.name()),
                e.span.clone(),
                "not integer literals",
            )
            .with_help("write them in the program, e.g. `transpose(x, (2, 0, 1))`"),
        );
    }

    /// `transpose(x, axes)` with axes (a tuple, `axes=`, or the method's integers): `x`'s shape
    /// permuted, result axis `i` being `x`'s axis `axes[i]` (NumPy's); E0503 unless the axes are a
    /// permutation of `x`'s (NumPy's ValueError "axes don't match array").
    fn transpose_with_axes(&mut self, c: &Call) -> Ty {
        let t = self.array_arg(c, &c.args[0]);
        let kw = c.kwarg("axes");
        for e in c.args[1..].iter().chain(kw) {
            self.literal_axes(e);
        }
        let axes = match transpose_axes(&c.args[1..], kw) {
            Ok(axes) => axes,
            Err(e) => {
                self.not_literal_axes(c, e, "axes");
                return Ty::Error;
            }
        };
        let Ty::Array(d, s) = t else { return Ty::Error };
        let Some(axes) = axes else { return Ty::Array(d, s.into_iter().rev().collect()) };
        let Some(perm) = permutation(&axes, s.len()) else {
            let at = kw.map_or(c.e.span.clone(), |k| k.span.clone());
            let at = if kw.is_none() && c.args.len() > 1 {
                c.args[1].span.start..c.args[c.args.len() - 1].span.end
            } else {
                at
            };
            let shown: Vec<String> = axes.iter().map(|a| a.to_string()).collect();
            self.err(
                Diagnostic::error(
                    "E0503",
                    format!(
                        "axes ({}) don't match array: `transpose` of a rank-{} array needs a permutation of its {} axes",
                        shown.join(", "),
                        s.len(),
                        s.len()
                    ),
                    at,
                    "not a permutation",
                )
                .with_help(format!(
                    "name each axis once, from -{r} to {}, e.g. `({})`",
                    s.len() as i64 - 1,
                    (0..s.len()).rev().map(|a| a.to_string()).collect::<Vec<_>>().join(", "),
                    r = s.len()
                )),
            );
            return Ty::Error;
        };
        Ty::Array(d, perm.iter().map(|&a| s[a].clone()).collect())
    }

    /// `rot90(x, k=1, axes=(0, 1))`: `x`'s shape, axes `a` and `b` swapped for an odd `k`; `k` an
    /// integer literal, `axes` two distinct axes in range (NumPy's ValueErrors otherwise).
    fn rot90(&mut self, c: &Call) -> Ty {
        let t = self.array_arg(c, &c.args[0]);
        let kwargs = match &c.e.kind {
            ExprKind::Call { kwargs, .. } => kwargs.as_slice(),
            _ => &[],
        };
        let (k, axes) = rot90_args(c.args, kwargs);
        if let Some(k) = c.args.get(1) {
            self.literal_axes(k);
        }
        if let Some(a) = axes {
            self.literal_axes(a);
        }
        let k = match k {
            Some(e) => match literal_int(e) {
                Some(k) => k,
                None => {
                    self.not_literal_axes(c, e, "turns `k`");
                    return Ty::Error;
                }
            },
            None => 1,
        };
        let pair = match axes {
            None => Some(vec![0, 1]),
            Some(e) => match &e.kind {
                ExprKind::Tuple(items) | ExprKind::List(items) => items.iter().map(literal_int).collect(),
                _ => None,
            },
        };
        let Some(pair) = pair.filter(|p| p.len() == 2) else {
            let e = axes.expect("the default is a pair");
            self.error("E0503", "`axes` of `rot90` must be a pair of integer literals", e.span.clone(), "not a pair");
            return Ty::Error;
        };
        let Ty::Array(d, mut s) = t else { return Ty::Error };
        let span = axes.map_or(c.e.span.clone(), |e| e.span.clone());
        if s.len() < 2 {
            self.error(
                "E0503",
                format!("`rot90` needs an array of at least 2 dimensions, found rank {}", s.len()),
                c.args[0].span.clone(),
                "too few dimensions",
            );
            return Ty::Error;
        }
        let Some(a) = self.axis_in_range(pair[0], &s, &span) else { return Ty::Error };
        let Some(b) = self.axis_in_range(pair[1], &s, &span) else { return Ty::Error };
        if a == b {
            self.error("E0503", "the axes of `rot90` must be different", span, "the same axis twice");
            return Ty::Error;
        }
        if k.rem_euclid(2) == 1 {
            s.swap(a, b);
        }
        Ty::Array(d, s)
    }
}

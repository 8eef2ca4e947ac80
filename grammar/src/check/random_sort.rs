//! Random draws, convolution and sorting (`docs/language.md`, "Builtin functions"): `normal` and
//! `integers` (new arrays from `random`'s generator), `convolve` of 1-d arrays, `sort` and `argsort`
//! along an axis, with NumPy's shapes and dtypes. The lowering is `passes/src/lower_ast/random_sort.rs`.

use super::builtins::{literal_int, Call};
use super::promote::promote;
use super::Checker;
use crate::ast::{DType, Expr, ExprKind, Ident};
use crate::builtin::{convolve_mode, Builtin, ConvolveMode};
use crate::diag::Diagnostic;
use crate::types::{Size, Ty};

impl Checker {
    /// `normal(d0, ..., seed=, loc=, scale=)`: `f64` of the sizes; `integers(low, high, d0, ...,
    /// seed=)`: `i64` of the sizes after two integer bounds, `high > low` checked here when both
    /// are literals (NumPy's ValueError `low >= high`), else at run time by the lowering.
    pub(super) fn random_draws(&mut self, c: &Call) -> Ty {
        if c.b == Builtin::Normal {
            let scale = match &c.e.kind {
                crate::ast::ExprKind::Call { kwargs, .. } => {
                    kwargs.iter().find(|(k, _)| k.name == "scale").map(|(_, v)| v)
                }
                _ => None,
            };
            if let Some(v) = scale.and_then(literal_number).filter(|v| *v < 0.0) {
                self.err(
                    crate::diag::Diagnostic::error(
                        "E0503",
                        format!("`normal` needs `scale >= 0`, found {v}"),
                        scale.map_or(c.e.span.clone(), |e| e.span.clone()),
                        "negative scale",
                    )
                    .with_note("NumPy's `normal` raises ValueError: scale < 0"),
                );
                return Ty::Error;
            }
            return match self.dims(c.args) {
                Some(s) => Ty::Array(DType::F64, s),
                None => Ty::Error,
            };
        }
        let low = self.int_operand(&c.args[0], "the `low` bound of `integers`");
        let high = self.int_operand(&c.args[1], "the `high` bound of `integers`");
        let shape = self.dims(&c.args[2..]);
        let (Ok(_), Ok(_), Some(s)) = (low, high, shape) else { return Ty::Error };
        if let (Some(l), Some(h)) = (literal_int(&c.args[0]), literal_int(&c.args[1])) {
            if h <= l {
                self.err(
                    crate::diag::Diagnostic::error(
                        "E0503",
                        format!("`integers` needs `low < high`, found low {l} and high {h}"),
                        c.e.span.clone(),
                        "empty range",
                    )
                    .with_note("NumPy's `Generator.integers` raises ValueError: low >= high"),
                );
                return Ty::Error;
            }
        }
        Ty::Array(DType::I64, s)
    }

    /// `convolve(a, v, mode=)`: two non-empty 1-d numeric arrays, promoted; `n + m - 1` elements
    /// (`full`), `max(n, m)` (`same`) or `max(n, m) - min(n, m) + 1` (`valid`), a fresh size where
    /// it is not affine in the operands' sizes.
    pub(super) fn convolve(&mut self, c: &Call, kwargs: &[(Ident, Expr)]) -> Ty {
        let mode = kwargs.iter().find(|(k, _)| k.name == "mode").and_then(|(_, v)| convolve_mode(v));
        let mut sizes = vec![];
        let mut dtypes = vec![];
        for e in c.args {
            match self.value(e) {
                Ty::Array(d, s) if s.len() == 1 && d != DType::Bool => {
                    if s[0].as_const() == Some(0) {
                        self.err(
                            crate::diag::Diagnostic::error(
                                "E0503",
                                "`convolve` of an empty array",
                                e.span.clone(),
                                "empty",
                            )
                            .with_note("NumPy raises ValueError: a cannot be empty (v cannot be empty)"),
                        );
                        return Ty::Error;
                    }
                    sizes.push(s[0].clone());
                    dtypes.push(d);
                }
                Ty::Error => return Ty::Error,
                other => {
                    self.error(
                        "E0503",
                        format!("`convolve` needs 1-d numeric arrays (f64, f32, i64), found {other}"),
                        e.span.clone(),
                        "not a 1-d numeric array",
                    );
                    return Ty::Error;
                }
            }
        }
        let d = promote(dtypes[0], None, dtypes[1], None);
        let (n, m) = (&sizes[0], &sizes[1]);
        let len = match (mode.unwrap_or(ConvolveMode::Full), n.as_const(), m.as_const()) {
            (ConvolveMode::Full, ..) => n.add(m).sub(&Size::lit(1)),
            (ConvolveMode::Same, Some(a), Some(b)) => Size::lit(a.max(b)),
            (ConvolveMode::Valid, Some(a), Some(b)) => Size::lit(a.max(b) - a.min(b) + 1),
            _ if n == m => match mode {
                Some(ConvolveMode::Same) => n.clone(),
                _ => Size::lit(1),
            },
            _ => self.fresh(),
        };
        Ty::Array(d, vec![len])
    }

    /// `sort(x, axis=k)`, `argsort(x, axis=k)`: an array of rank at least 1 (NumPy's AxisError
    /// otherwise), `k` in range (default `-1`); `x`'s type, or its shape in `i64`.
    pub(super) fn sort(&mut self, c: &Call) -> Ty {
        let t = self.value(&c.args[0]);
        let (d, s) = match t {
            Ty::Array(d, s) if !s.is_empty() => (d, s),
            Ty::Error => return Ty::Error,
            other => {
                self.error(
                    "E0503",
                    format!("`{}` needs an array of rank 1 or more, found {other}", c.b.name()),
                    c.args[0].span.clone(),
                    "not an array of rank 1 or more",
                );
                return Ty::Error;
            }
        };
        let axis = match c.axis {
            Some((a, ae)) => match self.axis_in_range(a, &s, &ae.span) {
                Some(k) => k,
                None => return Ty::Error,
            },
            None => s.len() - 1,
        };
        if matches!(c.b, Builtin::Partition | Builtin::Argpartition) && !self.kth(c, &s[axis]) {
            return Ty::Error;
        }
        Ty::Array(if matches!(c.b, Builtin::Argsort | Builtin::Argpartition) { DType::I64 } else { d }, s)
    }

    /// The `kth` of `partition` or `argpartition` (`c`), along an axis of size `n`: an integer
    /// scalar, in `[-n, n)` where both are known (E0503 else, NumPy's ValueError); whether it is.
    fn kth(&mut self, c: &Call, n: &Size) -> bool {
        let k = &c.args[1];
        if matches!(k.kind, ExprKind::List(_) | ExprKind::Tuple(_)) {
            self.err(
                Diagnostic::error("E0503", format!("`{}` of several `kth`s", c.b.name()), k.span.clone(), "a sequence")
                    .with_note("arrayc partitions at one position")
                    .with_help("a sorted array is partitioned at every position: `np.sort(x)` (or `np.argsort(x)`)"),
            );
            return false;
        }
        let what = format!("the kth of `{}`", c.b.name());
        if self.int_operand(k, &what).is_err() {
            return false;
        }
        if let (Some(v), Some(n)) = (literal_int(k), n.as_const()) {
            if v < -n || v >= n {
                self.err(
                    Diagnostic::error(
                        "E0503",
                        format!("kth(={v}) out of bounds ({n})"),
                        k.span.clone(),
                        "outside the axis",
                    )
                    .with_note(format!("NumPy raises ValueError: kth must be in [-{n}, {n}) for an axis of size {n}")),
                );
                return false;
            }
        }
        true
    }
}

/// The value of a numeric literal, `-` applied or not (`-1.0`, `2`).
fn literal_number(e: &Expr) -> Option<f64> {
    match &e.kind {
        crate::ast::ExprKind::Float(v) => Some(*v),
        crate::ast::ExprKind::Int(v) => Some(*v as f64),
        crate::ast::ExprKind::Unary(crate::ast::UnOp::Neg, a) => literal_number(a).map(|v| -v),
        _ => None,
    }
}

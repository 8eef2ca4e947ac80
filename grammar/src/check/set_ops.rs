//! NumPy's set routines (`docs/language.md`, "Builtin functions"): `isin`, `union1d`,
//! `intersect1d`, `setdiff1d` and `setxor1d`, with NumPy's dtypes, shapes and errors; and `vander` and `polyval`. Their
//! lowering (`passes/src/lower_ast/set_ops.rs`) composes `unique` (a sort and a filter), a fused
//! comparison of every pair and filters.

use super::builtins::Call;
use super::promote::promote;
use super::Checker;
use crate::ast::DType;
use crate::builtin::Builtin;
use crate::diag::Diagnostic;
use crate::types::Ty;

/// The dtype in which a set routine compares `a` and `b` (of dtypes `da` and `db`): the two
/// promoted as NumPy promotes arrays, a Python scalar `b` included (NumPy's set routines call
/// `asarray` first, so no operand is weak). One rule for the checker and the lowering.
pub fn set_dtype(da: DType, db: DType) -> DType {
    promote(da, None, db, None)
}

impl Checker {
    /// Checks a call of a set routine and returns its type: `isin(a, b)` a bool array of `a`'s
    /// shape; `setdiff1d(a, b)` a 1-d array of `a`'s dtype; `union1d`, `intersect1d` and `setxor1d`
    /// a 1-d array of the dtypes promoted ([`set_dtype`]); the 1-d results' sizes are known only
    /// at run time. `a` must be an array (E0503), and `b` too except for `isin`.
    pub(super) fn set_op(&mut self, c: &Call) -> Ty {
        let ta = self.value(&c.args[0]);
        let tb = self.value(&c.args[1]);
        let scalar_ok = [false, c.b == Builtin::Isin];
        for ((t, e), ok) in [&ta, &tb].into_iter().zip(c.args).zip(scalar_ok) {
            if let (Ty::Scalar(_), false) = (t, ok) {
                self.err(
                    Diagnostic::error(
                        "E0503",
                        format!("`{}` needs an array here, found {t}", c.b.name()),
                        e.span.clone(),
                        "not an array",
                    )
                    .with_help("make it a 1-element array, `array([v])`, as NumPy's `asarray` does"),
                );
                return Ty::Error;
            }
        }
        let (Ty::Array(da, sa), Some(db)) = (&ta, tb.dtype()) else { return Ty::Error };
        match c.b {
            Builtin::Isin => Ty::Array(DType::Bool, sa.clone()),
            Builtin::Setdiff1d => Ty::Array(*da, vec![self.fresh()]),
            _ => Ty::Array(set_dtype(*da, db), vec![self.fresh()]),
        }
    }
}

/// `vander`'s dtype for an `x` of dtype `d`: NumPy's `promote_types(x.dtype, int)`. One rule for
/// the checker and the lowering.
pub fn vander_dtype(d: DType) -> DType {
    promote(d, None, DType::I64, None)
}

impl Checker {
    /// `vander(x, N)`: `x` a 1-d array (E0503 otherwise, NumPy's ValueError), `N` an integer
    /// scalar (default `len(x)`; a negative literal is E0503); the `(len(x), N)` array of
    /// [`vander_dtype`].
    pub(super) fn vander(&mut self, c: &Call) -> Ty {
        let t = self.value(&c.args[0]);
        let (d, n) = match &t {
            Ty::Array(d, s) if s.len() == 1 => (*d, s[0].clone()),
            Ty::Error => return Ty::Error,
            other => {
                self.err(
                    Diagnostic::error(
                        "E0503",
                        format!("`vander` needs a 1-d array, found {other} (NumPy's ValueError)"),
                        c.args[0].span.clone(),
                        "not 1-d",
                    )
                    .with_help("flatten it first, `vander(ravel(x))`, or make a scalar an array, `array([v])`"),
                );
                return Ty::Error;
            }
        };
        let m = match c.args.get(1) {
            None => n.clone(),
            Some(a) => {
                let Ok(v) = self.int_operand(a, "the number of columns `N` of `vander`") else { return Ty::Error };
                if let Some(z) = v.as_ref().and_then(|v| v.as_const()).filter(|&z| z < 0) {
                    self.error(
                        "E0503",
                        format!("negative dimensions are not allowed ({z})"),
                        a.span.clone(),
                        "negative",
                    );
                    return Ty::Error;
                }
                v.unwrap_or_else(|| self.fresh())
            }
        };
        if c.bad {
            return Ty::Error;
        }
        Ty::Array(vander_dtype(d), vec![n, m])
    }
}

/// The most coefficients `polyval` takes: its Horner loop is unrolled.
pub const POLYVAL_MAX: i64 = 256;

impl Checker {
    /// `polyval(p, x)`: `p` a 1-d array of a size known when checked (1 to [`POLYVAL_MAX`]; NumPy's
    /// empty `p` gives zeros of `x`'s dtype, not supported),
    /// `x` a numeric value; `x`'s shape, of the dtypes promoted as arrays (NumPy's `asarray` of
    /// both, so no operand is weak).
    pub(super) fn polyval(&mut self, c: &Call) -> Ty {
        let tp = self.value(&c.args[0]);
        let tx = self.value(&c.args[1]);
        let (Some(dp), Some(dx)) = (tp.dtype(), tx.dtype()) else { return Ty::Error };
        // A size known when checked is unrolled (up to POLYVAL_MAX), any other is a loop.
        let one_d = match &tp {
            Ty::Array(_, s) if s.len() == 1 => s[0].as_const().is_none_or(|k| (1..=POLYVAL_MAX).contains(&k)),
            _ => false,
        };
        if !one_d {
            self.err(
                Diagnostic::error(
                    "E0503",
                    format!("`polyval` needs a 1-d array of coefficients (1 to {POLYVAL_MAX} where the size is known when checked), found {tp}"),
                    c.args[0].span.clone(),
                    "not 1-d coefficients",
                )
                .with_help("give the coefficients as a literal, `polyval([3.0, 0.0, 1.0], x)`, or a parameter of a literal size, `p: f64[3]`"),
            );
            return Ty::Error;
        }
        let d = set_dtype(dp, dx);
        match tx {
            Ty::Array(_, s) => Ty::Array(d, s),
            _ => Ty::Scalar(d),
        }
    }
}

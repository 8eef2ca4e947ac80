//! NumPy 2's weak Python integers at run time (NEP 50): a Python `int` other than a literal
//! ([`arrayc_grammar::Checked::weak`]: `len(x)`, a `range` variable, `n - 1`, ...) takes the
//! integer dtype of the NumPy operand beside it, as a literal does (the operation converts it),
//! and NumPy raises `OverflowError` ("Python integer 300 out of bounds for uint8") when its value
//! does not fit that dtype: a run-time error naming the line here, never a silent wrap of the
//! scalar. The arithmetic itself then wraps as NumPy's does (`x_u8 + 255`). Comparisons compare
//! integers exactly (NumPy 2), so they check nothing, and a Python number beside a float operand
//! in the float's dtype (`x_f32 == 0.1` is NumPy's `x_f32 == float32(0.1)`).

use super::Lowerer;
use arrayc_dialect::ir::{BinFn, OpKind, Scalar, Type, ValueId};
use arrayc_grammar::ast::{BinOp, DType, Expr};
use arrayc_grammar::check::promote::{binop_result, promote_op, Weak};

impl Lowerer<'_> {
    /// The operands of `a op b` (values `x` and `y`) as NumPy 2 takes them: each Python int other
    /// than a literal is checked to fit the dtype the operation promotes to (NumPy's
    /// `OverflowError`); in a comparison a Python number (a literal too) beside a float operand is
    /// first converted to the promoted float dtype (NumPy 2: `x_f32 == 0.1` compares in `f32`),
    /// while integers compare exactly.
    pub(crate) fn weak_operands(&mut self, op: BinOp, a: (&Expr, ValueId), b: (&Expr, ValueId)) -> (ValueId, ValueId) {
        let (Some(da), Some(db)) = (self.ty_of(a.0).dtype(), self.ty_of(b.0).dtype()) else { return (a.1, b.1) };
        let (wa, wb) = (self.checked.weak_of(a.0), self.checked.weak_of(b.0));
        let p = promote_op(op, da, wa, db, wb);
        if !matches!(op, BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge) {
            self.check_python_int_in(op, a.0, a.1, p);
            self.check_python_int_in(op, b.0, b.1, p);
            return (a.1, b.1);
        }
        // A Python int constant within the integer dtype `p` is compared in `p`, exactly (beside
        // a `u64` an `i64` would compare in `f64`, their promotion, which rounds above 2^53); one
        // outside it stays an `i64`, compared with the other operand promoted (`x_i16 > 40000`
        // in `i64`, `x_u64 > -1` in `f64`, exact for a negative one), as NumPy 2 compares it.
        let fits = |c: Option<&Scalar>| {
            let range = p.int_range();
            c.zip(range).is_some_and(|(c, (lo, hi))| (lo..=hi).contains(&i128::from(c.as_i64())))
        };
        let as_p = |s: &mut Self, w: Option<Weak>, v: ValueId| match s.f.ty(v) {
            Type::Scalar(_) if w.is_some() && p.is_float() => s.cast_scalar(v, p),
            Type::Scalar(DType::I64) if w == Some(Weak::Int) && fits(s.consts.get(&v)) => s.cast_scalar(v, p),
            _ => v,
        };
        (as_p(self, wa, a.1), as_p(self, wb, b.1))
    }

    /// [`Self::check_python_int`] of operand `e` (value `v`) of `op` promoted to `p`, against the
    /// dtype the operation computes in ([`binop_result`]): `x_u8 / 300` divides in `f64`, no error.
    pub(crate) fn check_python_int_in(&mut self, op: BinOp, e: &Expr, v: ValueId, p: DType) {
        self.check_python_int(e, v, binop_result(op, p).unwrap_or(p));
    }

    /// When `e` (value `v`) is a Python int other than a literal and `d` an integer dtype whose
    /// range does not hold every `i64`: asserts at run time that `v` lies in `d`'s range (NumPy's
    /// `OverflowError` "Python integer .. out of bounds for uint8").
    pub(crate) fn check_python_int(&mut self, e: &Expr, v: ValueId, d: DType) {
        let weak_int = self.checked.weak.contains(&e.id) && self.ty_of(e).dtype() == Some(DType::I64);
        let Some((lo, hi)) = d.int_range().filter(|_| weak_int) else { return };
        let msg = format!("Python integer {{lhs}} out of bounds for {} (NumPy's OverflowError)", d.numpy_name());
        for (bound, f, outside) in
            [(lo, BinFn::Ge, lo > i128::from(i64::MIN)), (hi, BinFn::Le, hi < i128::from(i64::MAX))]
        {
            if outside {
                let c = self.i64_const(bound as i64);
                let cond = self.scalar_binary(f, v, c, DType::I64);
                self.emit(OpKind::Assert { cond, msg: msg.clone() });
            }
        }
    }

    /// `e` (value `v`) as an operand of integer dtype `d` when it is a Python int other than a
    /// literal and `d`'s range does not hold every `i64`: at each end of the range where `clamp`
    /// says so (`[low, high]`) the value is clamped into it (NumPy 2's `clip` takes a bound beyond
    /// the dtype as its end; Python's `min(k, x_u8[0])` never picks a `k` above `255`), at the
    /// other ends it is checked to lie within ([`Self::check_python_int`]'s error: NumPy's result
    /// would be that Python int, which `d` cannot hold). Any other `v` is returned as it is.
    pub(crate) fn fit_python_int(&mut self, e: &Expr, v: ValueId, d: DType, clamp: [bool; 2]) -> ValueId {
        let weak_int = self.checked.weak.contains(&e.id) && self.ty_of(e).dtype() == Some(DType::I64);
        let Some((lo, hi)) = d.int_range().filter(|_| weak_int) else { return v };
        let msg = format!("Python integer {{lhs}} out of bounds for {} (NumPy's OverflowError)", d.numpy_name());
        let mut v = v;
        for ((bound, ok, to, outside), clamp) in [
            (lo, BinFn::Ge, BinFn::Maximum, lo > i128::from(i64::MIN)),
            (hi, BinFn::Le, BinFn::Minimum, hi < i128::from(i64::MAX)),
        ]
        .into_iter()
        .zip(clamp)
        {
            if !outside {
                continue;
            }
            let c = self.i64_const(bound as i64);
            if clamp {
                v = self.scalar_binary(to, v, c, DType::I64);
            } else {
                let cond = self.scalar_binary(ok, v, c, DType::I64);
                self.emit(OpKind::Assert { cond, msg: msg.clone() });
            }
        }
        v
    }
}

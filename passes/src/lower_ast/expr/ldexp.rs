//! NumPy's `ldexp(x, i)` and `frexp(x)`, exact: `x * 2**i` as a product of at most three exact
//! powers of two (each `exp2` of an integer in the normal range), ordered so that only the last
//! product can round (a subnormal or an overflowing result rounds once, as C's `ldexp`);
//! `frexp` finds the exponent by `log2`, corrects it by one where `log2` rounded across a power of
//! two, and scales by it exactly. Both compute in `f64` (an `f32` value and every product of it
//! with a power of two in range are exact there) and convert to the result's dtype once.

use super::retyped;
use crate::lower_ast::{LResult, Lowerer};
use arrayc_dialect::ir::{BinFn, ComputeFn, Scalar, UnFn, ValueId};
use arrayc_grammar::ast::{DType, Expr};
use arrayc_grammar::types::Ty;

/// The largest and the smallest exponent of a normal `f64`.
const MAX_EXP: i64 = 1023;
const MIN_EXP: i64 = -1022;

impl Lowerer<'_> {
    /// `ldexp(x, i)` (values `vals`, expressions `args`) of the checked type `ty`.
    pub(super) fn ldexp(&mut self, vals: &[ValueId], args: &[Expr], ty: &Ty, e: &Expr) -> LResult<ValueId> {
        let dt = ty.dtype().expect("checked: a float");
        let fty = retyped(ty, DType::F64);
        let x = self.as_dtype(vals[0], &self.ty_of(&args[0]).clone(), DType::F64)?;
        let i = self.as_dtype(vals[1], &self.ty_of(&args[1]).clone(), DType::I64)?;
        let v = self.broadcast_operands(&[x, i], &fty);
        let y = self.times_power_of_two(v[0], v[1], &fty, e)?;
        self.as_dtype(y, &fty, dt)
    }

    /// `x * 2**k` exactly rounded, of `f64` values `x` and `i64` exponents `k` of type `fty`
    /// (their shape): upwards by `2**a * 2**b * 2**c` with `a`, `b`, `c` at most 1023 (every
    /// product exact until it overflows to infinity), downwards with the largest step last (the
    /// products before it stay normal, so exact, unless the result is below every subnormal).
    fn times_power_of_two(&mut self, x: ValueId, k: ValueId, fty: &Ty, e: &Expr) -> LResult<ValueId> {
        let (ity, bty) = (retyped(fty, DType::I64), retyped(fty, DType::Bool));
        let [zero, hi, lo] = [0, MAX_EXP, MIN_EXP].map(|c| self.i64_const(c));
        let up = self.binary(BinFn::Ge, k, zero, &bty)?;
        let mut steps = vec![];
        let (mut rest_up, mut rest_down) = (k, k);
        for _ in 0..3 {
            let s_up = self.binary(BinFn::Minimum, rest_up, hi, &ity)?;
            rest_up = self.binary(BinFn::Sub, rest_up, s_up, &ity)?;
            let s_down = self.binary(BinFn::Maximum, rest_down, lo, &ity)?;
            rest_down = self.binary(BinFn::Sub, rest_down, s_down, &ity)?;
            steps.push((s_up, s_down));
        }
        let mut y = x;
        // Upwards the steps in order (1023 first), downwards the largest last.
        for (n, &(s_up, _)) in steps.iter().enumerate() {
            let s_down = steps[2 - n].1;
            let s = self.elementwise(ComputeFn::Where, vec![up, s_up, s_down], &ity, e)?;
            let s = self.as_dtype(s, &ity, DType::F64)?;
            let p = self.elementwise(ComputeFn::Unary(UnFn::Exp2), vec![s], fty, e)?;
            y = self.array_or_scalar(BinFn::Mul, y, p, fty)?;
        }
        Ok(y)
    }

    /// `frexp(x)` (value `x`, expression `arg`) of the checked pair type `ty`: the mantissa in
    /// `[0.5, 1)` with `x`'s sign, in `x`'s float dtype, and the `i32` exponent; `(x, 0)` of a
    /// zero, an infinity or NaN.
    pub(super) fn frexp(&mut self, x: ValueId, arg: &Expr, ty: &Ty, e: &Expr) -> LResult<[ValueId; 2]> {
        let Ty::Tuple(ts) = ty else { unreachable!("checked: a pair") };
        let dt = ts[0].dtype().expect("checked: a float");
        let fty = retyped(&ts[0], DType::F64);
        let (ity, bty) = (retyped(&fty, DType::I64), retyped(&fty, DType::Bool));
        let x = self.as_dtype(x, &self.ty_of(arg).clone(), DType::F64)?;
        let [one, half, two, inf] = [1.0, 0.5, 2.0, f64::INFINITY].map(|c| self.constant(Scalar::F64(c)));
        let ax = self.elementwise(ComputeFn::Unary(UnFn::Abs), vec![x], &fty, e)?;
        // `t`: `|x|`, or 1 where that is 0, infinite or NaN (`ok` false there).
        let finite = self.binary(BinFn::Lt, ax, inf, &bty)?;
        let t = self.elementwise(ComputeFn::Where, vec![finite, ax, one], &fty, e)?;
        let zero = self.constant(Scalar::F64(0.0));
        let nonzero = self.binary(BinFn::Gt, t, zero, &bty)?;
        let t = self.elementwise(ComputeFn::Where, vec![nonzero, t, one], &fty, e)?;
        let ok = self.binary(BinFn::Eq, t, ax, &bty)?;
        let lg = self.elementwise(ComputeFn::Unary(UnFn::Log2), vec![t], &fty, e)?;
        let fl = self.elementwise(ComputeFn::Unary(UnFn::Floor), vec![lg], &fty, e)?;
        let e0 = self.as_dtype(fl, &fty, DType::I64)?;
        let [i_one, i_zero, i_minus_one] = [1, 0, -1].map(|c| self.i64_const(c));
        let e0 = self.binary(BinFn::Add, e0, i_one, &ity)?;
        let minus_e0 = self.binary(BinFn::Sub, i_zero, e0, &ity)?;
        let m0 = self.times_power_of_two(t, minus_e0, &fty, e)?;
        // `log2` rounded across a power of two: one step back.
        let big = self.binary(BinFn::Ge, m0, one, &bty)?;
        let small = self.binary(BinFn::Lt, m0, half, &bty)?;
        let m_big = self.array_or_scalar(BinFn::Mul, m0, half, &fty)?;
        let m_small = self.array_or_scalar(BinFn::Mul, m0, two, &fty)?;
        let m = self.elementwise(ComputeFn::Where, vec![small, m_small, m0], &fty, e)?;
        let m = self.elementwise(ComputeFn::Where, vec![big, m_big, m], &fty, e)?;
        let de = self.elementwise(ComputeFn::Where, vec![small, i_minus_one, i_zero], &ity, e)?;
        let de = self.elementwise(ComputeFn::Where, vec![big, i_one, de], &ity, e)?;
        let e1 = self.binary(BinFn::Add, e0, de, &ity)?;
        let m = self.elementwise(ComputeFn::Binary(BinFn::Copysign), vec![m, x], &fty, e)?;
        let mant = self.elementwise(ComputeFn::Where, vec![ok, m, x], &fty, e)?;
        let exp = self.elementwise(ComputeFn::Where, vec![ok, e1, i_zero], &ity, e)?;
        Ok([self.as_dtype(mant, &fty, dt)?, self.as_dtype(exp, &ity, DType::I32)?])
    }
}

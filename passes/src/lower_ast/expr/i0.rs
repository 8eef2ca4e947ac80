//! NumPy's `i0(x)`, the modified Bessel function of the first kind of order 0, from its published
//! series (Abramowitz and Stegun 9.6.12 and 9.7.1), in `f64`: the power series `sum(q**k /
//! (k!)**2)` of `q = x*x/4` by Horner's rule for `|x| <= 30`, the asymptotic series `e**a /
//! sqrt(2 pi a) * sum(((2k-1)!!)**2 / (k! (8a)**k))` of `a = |x|` above (`e**a` in two halves, so
//! that it overflows only where `i0` does). Both are within 2e-15 of the value there.

use super::retyped;
use crate::lower_ast::{LResult, Lowerer};
use arrayc_dialect::ir::{BinFn, ComputeFn, Scalar, UnFn, ValueId};
use arrayc_grammar::ast::{DType, Expr};
use arrayc_grammar::types::Ty;

/// Where the power series gives way to the asymptotic one.
const SWITCH: f64 = 30.0;
/// The terms of each series.
const POWER_TERMS: u32 = 50;
const ASYMPTOTIC_TERMS: u32 = 15;

impl Lowerer<'_> {
    /// `i0(x)` (value `x`, expression `arg`) of the checked type `ty`.
    pub(super) fn i0(&mut self, x: ValueId, arg: &Expr, ty: &Ty, e: &Expr) -> LResult<ValueId> {
        let dt = ty.dtype().expect("checked: a float");
        let fty = retyped(ty, DType::F64);
        let bty = retyped(ty, DType::Bool);
        let x = self.as_dtype(x, &self.ty_of(arg).clone(), DType::F64)?;
        let c = |l: &mut Self, v: f64| l.constant(Scalar::F64(v));
        let a = self.elementwise(ComputeFn::Unary(UnFn::Abs), vec![x], &fty, e)?;
        // Power series: h = 1 + q/k**2 * h from the last term down.
        let quarter = c(self, 0.25);
        let xx = self.array_or_scalar(BinFn::Mul, a, a, &fty)?;
        let q = self.array_or_scalar(BinFn::Mul, xx, quarter, &fty)?;
        let one = c(self, 1.0);
        let mut h = one;
        for k in (1..=POWER_TERMS).rev() {
            let kk = c(self, f64::from(k * k));
            let t = self.array_or_scalar(BinFn::Div, q, kk, &fty)?;
            let t = self.array_or_scalar(BinFn::Mul, t, h, &fty)?;
            h = self.array_or_scalar(BinFn::Add, one, t, &fty)?;
        }
        // Asymptotic series: s = 1 + t1 + t2 + .., t_k = t_(k-1) * (2k-1)**2 / (8 k a).
        let eight = c(self, 8.0);
        let eight_a = self.array_or_scalar(BinFn::Mul, eight, a, &fty)?;
        let (mut s, mut t) = (one, one);
        for k in 1..=ASYMPTOTIC_TERMS {
            let num = c(self, f64::from((2 * k - 1) * (2 * k - 1)));
            let den = c(self, f64::from(k));
            let den = self.array_or_scalar(BinFn::Mul, den, eight_a, &fty)?;
            let ratio = self.array_or_scalar(BinFn::Div, num, den, &fty)?;
            t = self.array_or_scalar(BinFn::Mul, t, ratio, &fty)?;
            s = self.array_or_scalar(BinFn::Add, s, t, &fty)?;
        }
        let half = c(self, 0.5);
        let half_a = self.array_or_scalar(BinFn::Mul, a, half, &fty)?;
        let grow = self.elementwise(ComputeFn::Unary(UnFn::Exp), vec![half_a], &fty, e)?;
        let two_pi = c(self, 2.0 * std::f64::consts::PI);
        let root = self.array_or_scalar(BinFn::Mul, two_pi, a, &fty)?;
        let root = self.elementwise(ComputeFn::Unary(UnFn::Sqrt), vec![root], &fty, e)?;
        let far = self.array_or_scalar(BinFn::Div, grow, root, &fty)?;
        let far = self.array_or_scalar(BinFn::Mul, far, s, &fty)?;
        let far = self.array_or_scalar(BinFn::Mul, grow, far, &fty)?;
        let switch = c(self, SWITCH);
        let near = self.binary(BinFn::Le, a, switch, &bty)?;
        // NaN: neither `a <= 30` nor a number of the asymptotic series (NumPy's NaN).
        let r = self.elementwise(ComputeFn::Where, vec![near, h, far], &fty, e)?;
        self.as_dtype(r, &fty, dt)
    }
}

//! `exp` and `log` for f64 as straight-line arithmetic that LLVM vectorises (a call to libm's `exp`
//! or `log` does not), within a few ulp of libm; `expm1` and `log1p` from them by Kahan's
//! formulas (MLIR lowers `math.expm1` to `exp(x) - 1`, which loses every digit near 0). The other
//! math functions are `math` dialect ops.

use super::builder::{Gen, TypedValue};
use arrayc_core::DType::{F64, I64};
use melior::dialect::arith::{self, CmpfPredicate as F};

impl<'c> Gen<'c, '_> {
    fn f64c(&self, x: f64) -> TypedValue<'c> {
        self.constf(F64, x)
    }
    fn i64c(&self, x: i64) -> TypedValue<'c> {
        self.consti(I64, x)
    }
    fn fma(&self, a: TypedValue<'c>, b: TypedValue<'c>, c: TypedValue<'c>) -> TypedValue<'c> {
        self.same_type("math.fma", &[a, b, c])
    }
    fn bitcast(&self, v: TypedValue<'c>, to: arrayc_core::DType) -> TypedValue<'c> {
        self.typed(arith::bitcast(v.v, self.ty(to), self.loc), to)
    }

    /// `c0 + z (c1 + z (c2 + ...))` in f64 with fused multiply-adds.
    fn horner_f64(&self, z: TypedValue<'c>, coeffs: &[f64]) -> TypedValue<'c> {
        let mut acc = self.f64c(*coeffs.last().expect("a coefficient"));
        for &c in coeffs.iter().rev().skip(1) {
            acc = self.fma(acc, z, self.f64c(c));
        }
        acc
    }

    /// `exp(x)` for f64: `x = k ln2 + r` with `k = roundeven(x / ln2)` and `ln2` split in two
    /// (Cody-Waite), `exp(r)` by its Taylor polynomial of degree 13 (truncation below 1e-17 for
    /// `|r| <= ln2 / 2`), times `2^k` built from exponent bits in two halves (so subnormal results
    /// come out right). Overflow gives `inf`, underflow `0`, NaN stays NaN.
    pub fn exp_f64(&self, x: TypedValue<'c>) -> TypedValue<'c> {
        let nan = self.cmpf(F::Uno, x, x);
        let zero = self.f64c(0.0);
        let xn = self.select(nan, zero, x);
        let xc = self.same_type("arith.maximumf", &[xn, self.f64c(-746.0)]);
        let xc = self.same_type("arith.minimumf", &[xc, self.f64c(710.0)]);
        let t = self.arith2(arith::mulf, xc, self.f64c(std::f64::consts::LOG2_E));
        let kf = self.same_type("math.roundeven", &[t]);
        let r = self.fma(kf, self.f64c(-6.931_471_803_691_238e-1), xc);
        let r = self.fma(kf, self.f64c(-1.908_214_929_270_587_7e-10), r);
        let mut coeffs = vec![1.0f64];
        for n in 1..=13 {
            let prev = coeffs[n - 1];
            coeffs.push(prev / n as f64);
        }
        let p = self.horner_f64(r, &coeffs);
        let k = self.convert(kf, I64);
        let k1 = self.arith2(arith::shrsi, k, self.i64c(1));
        let k2 = self.arith2(arith::subi, k, k1);
        let scale = |k: TypedValue<'c>| {
            let b = self.arith2(arith::addi, k, self.i64c(1023));
            self.bitcast(self.arith2(arith::shli, b, self.i64c(52)), F64)
        };
        let y = self.arith2(arith::mulf, p, scale(k1));
        let y = self.arith2(arith::mulf, y, scale(k2));
        let over = self.cmpf(F::Ogt, x, self.f64c(709.782_712_893_384));
        let y = self.select(over, self.f64c(f64::INFINITY), y);
        let under = self.cmpf(F::Olt, x, self.f64c(-745.133_219_101_941_2));
        let y = self.select(under, zero, y);
        self.select(nan, x, y)
    }

    /// `log(x)` for f64: `x = m 2^e` from the bits (subnormals scaled by 2^54 first) with `m` in
    /// `[sqrt(1/2), sqrt(2))`, `log(m) = 2 atanh(s)` with `s = (m - 1) / (m + 1)` by its odd series to
    /// `s^23` (`|s| <= 0.172`: truncation below 1e-18), plus `e ln2` in two parts. `log(0) = -inf`,
    /// negative gives NaN, `log(inf) = inf`, NaN stays NaN.
    pub fn log_f64(&self, x: TypedValue<'c>) -> TypedValue<'c> {
        let tiny = self.cmpf(F::Olt, x, self.f64c(f64::MIN_POSITIVE));
        let xs = self.arith2(arith::mulf, x, self.f64c(2f64.powi(54)));
        let xs = self.select(tiny, xs, x);
        let eadj = self.select(tiny, self.i64c(-54), self.i64c(0));
        let bits = self.bitcast(xs, I64);
        let e = self.arith2(arith::shrui, bits, self.i64c(52));
        let e = self.arith2(arith::andi, e, self.i64c(0x7ff));
        let e = self.arith2(arith::subi, e, self.i64c(1023));
        let e = self.arith2(arith::addi, e, eadj);
        let mb = self.arith2(arith::andi, bits, self.i64c(0x000f_ffff_ffff_ffff));
        let mb = self.arith2(arith::ori, mb, self.i64c(0x3ff0_0000_0000_0000));
        let m = self.bitcast(mb, F64);
        let big = self.cmpf(F::Ogt, m, self.f64c(std::f64::consts::SQRT_2));
        let mh = self.arith2(arith::mulf, m, self.f64c(0.5));
        let m = self.select(big, mh, m);
        let e1 = self.arith2(arith::addi, e, self.i64c(1));
        let e = self.select(big, e1, e);
        let f = self.arith2(arith::subf, m, self.f64c(1.0));
        let den = self.arith2(arith::addf, f, self.f64c(2.0));
        let s = self.arith2(arith::divf, f, den);
        let z = self.arith2(arith::mulf, s, s);
        let coeffs: Vec<f64> = (0..12).map(|k| 1.0 / (2 * k + 1) as f64).collect();
        let p = self.horner_f64(z, &coeffs);
        let s2 = self.arith2(arith::addf, s, s);
        let lm = self.arith2(arith::mulf, s2, p);
        let ef = self.convert(e, F64);
        let y = self.fma(ef, self.f64c(1.908_214_929_270_587_7e-10), lm);
        let y = self.fma(ef, self.f64c(6.931_471_803_691_238e-1), y);
        let zero = self.f64c(0.0);
        let y = self.select(self.cmpf(F::Oeq, x, zero), self.f64c(f64::NEG_INFINITY), y);
        let y = self.select(self.cmpf(F::Olt, x, zero), self.f64c(f64::NAN), y);
        let inf = self.f64c(f64::INFINITY);
        let y = self.select(self.cmpf(F::Oeq, x, inf), inf, y);
        self.select(self.cmpf(F::Uno, x, x), x, y)
    }

    /// `expm1(x) = exp(x) - 1` without the cancellation near 0 (Kahan: with `u = exp(x)`,
    /// `(u - 1) * (x / log(u))`, exact where `u` rounds to 1; Goldberg 1991, Sec. 4.1), in f64
    /// (an f32 operand is computed in f64 and rounded). `u = 0` gives -1, `u = inf` gives inf.
    pub fn expm1(&self, x: TypedValue<'c>) -> TypedValue<'c> {
        let d = x.d;
        let x = self.convert(x, F64);
        let u = self.exp_f64(x);
        let um1 = self.arith2(arith::subf, u, self.f64c(1.0));
        let general = self.arith2(arith::mulf, um1, self.arith2(arith::divf, x, self.log_f64(u)));
        let y = self.select(self.cmpf(F::Oeq, u, self.f64c(f64::INFINITY)), u, general);
        let y = self.select(self.cmpf(F::Oeq, u, self.f64c(0.0)), self.f64c(-1.0), y);
        let y = self.select(self.cmpf(F::Oeq, u, self.f64c(1.0)), x, y);
        self.convert(y, d)
    }

    /// `log1p(x) = log(1 + x)` without the rounding of `1 + x` near 0 (Kahan: with `u = 1 + x`,
    /// `log(u) * (x / (u - 1))`, exact where `u` rounds to 1; Goldberg 1991, Theorem 4), in f64
    /// (an f32 operand is computed in f64 and rounded). `u = inf` gives inf.
    pub fn log1p(&self, x: TypedValue<'c>) -> TypedValue<'c> {
        let d = x.d;
        let x = self.convert(x, F64);
        let u = self.arith2(arith::addf, x, self.f64c(1.0));
        let um1 = self.arith2(arith::subf, u, self.f64c(1.0));
        let general = self.arith2(arith::mulf, self.log_f64(u), self.arith2(arith::divf, x, um1));
        let y = self.select(self.cmpf(F::Oeq, u, self.f64c(f64::INFINITY)), u, general);
        let y = self.select(self.cmpf(F::Oeq, u, self.f64c(1.0)), x, y);
        self.convert(y, d)
    }
}

//! Elementwise math: NumPy's ufuncs that map to one `arr.compute` function, and those composed of
//! several (`fmod`, `hypot`, `round` with decimals, ...) so that they still fuse.

use super::retyped;
use crate::lower_ast::{LResult, Lowerer};
use arrayc_dialect::ir::{BinFn, ComputeFn, OpKind, Scalar, Type, UnFn, ValueId};
use arrayc_grammar::ast::{DType, Expr};
use arrayc_grammar::builtin::Builtin;
use arrayc_grammar::types::Ty;

/// The elementwise computation of a builtin that is one (`abs`, ..., `minimum`, `maximum`,
/// `where`); `None` for the other builtins.
pub(super) fn elementwise_fn(b: Builtin) -> Option<ComputeFn> {
    use Builtin as B;
    Some(match b {
        B::Abs => ComputeFn::Unary(UnFn::Abs),
        B::Sqrt => ComputeFn::Unary(UnFn::Sqrt),
        B::Exp => ComputeFn::Unary(UnFn::Exp),
        B::Log => ComputeFn::Unary(UnFn::Log),
        B::Sin => ComputeFn::Unary(UnFn::Sin),
        B::Cos => ComputeFn::Unary(UnFn::Cos),
        B::Tanh => ComputeFn::Unary(UnFn::Tanh),
        B::Tan => ComputeFn::Unary(UnFn::Tan),
        B::Arcsin => ComputeFn::Unary(UnFn::Arcsin),
        B::Arccos => ComputeFn::Unary(UnFn::Arccos),
        B::Arctan => ComputeFn::Unary(UnFn::Arctan),
        B::Sinh => ComputeFn::Unary(UnFn::Sinh),
        B::Cosh => ComputeFn::Unary(UnFn::Cosh),
        B::Arcsinh => ComputeFn::Unary(UnFn::Arcsinh),
        B::Arccosh => ComputeFn::Unary(UnFn::Arccosh),
        B::Arctanh => ComputeFn::Unary(UnFn::Arctanh),
        B::Exp2 => ComputeFn::Unary(UnFn::Exp2),
        B::Expm1 => ComputeFn::Unary(UnFn::Expm1),
        B::Log2 => ComputeFn::Unary(UnFn::Log2),
        B::Log10 => ComputeFn::Unary(UnFn::Log10),
        B::Log1p => ComputeFn::Unary(UnFn::Log1p),
        B::Floor => ComputeFn::Unary(UnFn::Floor),
        B::Ceil => ComputeFn::Unary(UnFn::Ceil),
        B::Trunc => ComputeFn::Unary(UnFn::Trunc),
        B::Rint => ComputeFn::Unary(UnFn::Rint),
        B::Minimum => ComputeFn::Binary(BinFn::Minimum),
        B::Maximum => ComputeFn::Binary(BinFn::Maximum),
        B::Arctan2 => ComputeFn::Binary(BinFn::Arctan2),
        B::Copysign => ComputeFn::Binary(BinFn::Copysign),
        B::Where => ComputeFn::Where,
        _ => return None,
    })
}

/// `10**n` as NumPy's `round` computes it (`power_of_ten` in `multiarray/calculation.c`): exact
/// below `10**9`, then `1e9` times 10, rounding at each step (infinite from `n = 309`).
pub(super) fn numpy_power_of_ten(n: u64) -> f64 {
    if n < 9 {
        return 10f64.powi(n as i32);
    }
    let mut r = 1e9;
    for _ in 9..n.min(400) {
        r *= 10.0;
    }
    r
}

impl Lowerer<'_> {
    /// Python's `round(s)` of scalar `x` ([`arrayc_grammar::builtin::python_round`]): an `i64`, the
    /// float rounded half to even (`rint`, as NumPy's `round`) and converted; an integer or bool
    /// converted. A NaN, an infinity or a result of magnitude `2**63` or more is a run-time error
    /// naming the line (Python's ValueError / OverflowError; Python's int has no bound, `i64` has).
    pub(super) fn python_round(&mut self, x: &Expr) -> LResult<ValueId> {
        let v = self.expr(x)?;
        let d = self.f.ty(v).dtype();
        if !d.is_float() {
            return Ok(self.cast_scalar(v, DType::I64));
        }
        let r = self.scalar_unary(UnFn::Rint, v);
        // False for a NaN and for the infinities too.
        let magnitude = self.scalar_unary(UnFn::Abs, r);
        let limit = self.constant(Scalar::F64(9_223_372_036_854_775_808.0).cast(d));
        let fits = self.scalar_binary(BinFn::Lt, magnitude, limit, d);
        let msg = "round: cannot convert float NaN or infinity, or a value beyond i64, to an integer".into();
        self.emit(OpKind::Assert { cond: fits, msg });
        Ok(self.cast_scalar(r, DType::I64))
    }

    /// An elementwise builtin (`f`: `abs`, ..., `minimum`, `maximum`, `where`): an array operation
    /// when its result is an array, else host arithmetic.
    pub(crate) fn elementwise(&mut self, f: ComputeFn, vals: Vec<ValueId>, ty: &Ty, e: &Expr) -> LResult<ValueId> {
        if ty.is_array() {
            if ty.rank() == Some(0) || vals.iter().any(|&v| self.f.ty(v).is_array()) {
                return self.array_op(f, vals, ty);
            }
            // A step of a composition whose operands are all scalars (`|2.0|` of `fmod(v, 2.0)`):
            // computed once on the host, broadcast by the array operation that meets it; an array
            // operation over scalars alone would iterate over a one-element array (a 0-d result
            // keeps its array operation).
            let dt = ty.dtype().expect("checked: an array has a dtype");
            return self.elementwise(f, vals, &Ty::Scalar(dt), e);
        }
        let dt = ty.dtype().unwrap();
        Ok(match f {
            ComputeFn::Where => {
                let (a, b) = (self.cast_scalar(vals[1], dt), self.cast_scalar(vals[2], dt));
                let c = self.cast_scalar(vals[0], DType::Bool);
                let r = self.value(Type::Scalar(dt), None);
                self.emit(OpKind::Select { res: r, cond: c, lhs: a, rhs: b });
                r
            }
            ComputeFn::Binary(b) => self.scalar_bin_promoted(b, vals[0], vals[1], dt),
            ComputeFn::Unary(u) => {
                let x = self.cast_scalar(vals[0], dt);
                self.scalar_unary(u, x)
            }
            other => {
                let msg = format!("internal error: `{}` is not elementwise; please report it", other.name());
                return Err(self.error("E0912", &e.span, &msg, ""));
            }
        })
    }

    /// NumPy's elementwise ufuncs that are compositions of the op table's functions, not
    /// functions of their own (fused like any elementwise operation; on the host, scalar
    /// arithmetic): `power` (`**`), `square` (`x * x`), `reciprocal` (`1 / x`), `round` (`rint`),
    /// `sign` (selections), `logical_*` (comparisons with 0, then `&`, `|`, `!=`, or `x == 0`),
    /// `clip` (`minimum(maximum(x, lo), hi)`), `fmod` and `hypot` (see below). `vals`: the
    /// arguments' values, `args` their expressions, `decimals` `round`'s `decimals=`, `ty` the
    /// checked result type.
    pub(super) fn composed_ufunc(
        &mut self,
        b: Builtin,
        vals: &[ValueId],
        args: &[Expr],
        decimals: Option<i64>,
        ty: &Ty,
        e: &Expr,
    ) -> LResult<ValueId> {
        use Builtin as B;
        let dt = ty.dtype().expect("checked: a value");
        let bty = retyped(ty, DType::Bool);
        let zero_of = |l: &mut Self, v: ValueId| {
            let d = l.f.ty(v).dtype();
            l.constant(Scalar::I64(0).cast(d))
        };
        Ok(match b {
            B::Power => self.binary(BinFn::Pow, vals[0], vals[1], ty)?,
            B::Square => self.binary(BinFn::Mul, vals[0], vals[0], ty)?,
            B::Reciprocal => {
                let one = self.constant(Scalar::F64(1.0).cast(dt));
                self.binary(BinFn::Div, one, vals[0], ty)?
            }
            B::Round if !dt.is_float() => vals[0],
            B::Round => match decimals.filter(|&d| d != 0) {
                None => self.elementwise(ComputeFn::Unary(UnFn::Rint), vals.to_vec(), ty, e)?,
                Some(d) => {
                    // NumPy's `round`: scale by its `power_of_ten`, `rint`, scale back.
                    let f = self.constant(Scalar::F64(numpy_power_of_ten(d.unsigned_abs())).cast(dt));
                    let (there, back) = if d > 0 { (BinFn::Mul, BinFn::Div) } else { (BinFn::Div, BinFn::Mul) };
                    let y = self.array_or_scalar(there, vals[0], f, ty)?;
                    let y = self.elementwise(ComputeFn::Unary(UnFn::Rint), vec![y], ty, e)?;
                    self.array_or_scalar(back, y, f, ty)?
                }
            },
            B::Sign => {
                // NumPy: 1 above 0, -1 below, else 0 (`sign(-0.0)` is `+0.0`), NaN stays NaN.
                let x = vals[0];
                let [zero, one, minus_one] = [0.0, 1.0, -1.0].map(|c| self.constant(Scalar::F64(c).cast(dt)));
                let pos = self.binary(BinFn::Gt, x, zero, &bty)?;
                let neg = self.binary(BinFn::Lt, x, zero, &bty)?;
                let r = self.elementwise(ComputeFn::Where, vec![neg, minus_one, zero], ty, e)?;
                let r = self.elementwise(ComputeFn::Where, vec![pos, one, r], ty, e)?;
                if !dt.is_float() {
                    return Ok(r);
                }
                let nan = self.binary(BinFn::Ne, x, x, &bty)?;
                self.elementwise(ComputeFn::Where, vec![nan, x, r], ty, e)?
            }
            B::LogicalNot => {
                let zero = zero_of(self, vals[0]);
                self.binary(BinFn::Eq, vals[0], zero, ty)?
            }
            B::LogicalAnd | B::LogicalOr | B::LogicalXor => {
                let mut truth = vec![];
                for (v, a) in vals.iter().zip(args) {
                    let zero = zero_of(self, *v);
                    let aty = retyped(self.ty_of(a), DType::Bool);
                    truth.push(self.binary(BinFn::Ne, *v, zero, &aty)?);
                }
                let f = match b {
                    B::LogicalAnd => BinFn::And,
                    B::LogicalOr => BinFn::Or,
                    _ => BinFn::Ne,
                };
                self.binary(f, truth[0], truth[1], ty)?
            }
            B::Clip => {
                let v = self.broadcast_operands(vals, ty);
                let m = self.binary(BinFn::Maximum, v[0], v[1], ty)?;
                self.binary(BinFn::Minimum, m, v[2], ty)?
            }
            B::Fmax | B::Fmin => {
                // NumPy's `fmax`/`fmin`: `maximum`/`minimum`, but the other operand where one is
                // NaN (so NaN only where both are).
                let v = self.broadcast_operands(vals, ty);
                let f = if b == B::Fmax { BinFn::Maximum } else { BinFn::Minimum };
                let m = self.binary(f, v[0], v[1], ty)?;
                if !dt.is_float() {
                    m
                } else {
                    let a_nan = self.binary(BinFn::Ne, v[0], v[0], &bty)?;
                    let b_nan = self.binary(BinFn::Ne, v[1], v[1], &bty)?;
                    let r = self.elementwise(ComputeFn::Where, vec![b_nan, v[0], m], ty, e)?;
                    self.elementwise(ComputeFn::Where, vec![a_nan, v[1], r], ty, e)?
                }
            }
            B::Fmod => {
                let v = self.broadcast_operands(vals, ty);
                self.fmod(v[0], v[1], ty, e)?
            }
            B::Hypot => {
                let v = self.broadcast_operands(vals, ty);
                self.hypot(v[0], v[1], ty, e)?
            }
            B::Gcd | B::Lcm => {
                let v = self.broadcast_operands(vals, ty);
                self.gcd_lcm(b == B::Lcm, v[0], v[1], ty, e)?
            }
            B::Fabs => {
                let x = self.as_dtype(vals[0], &self.ty_of(&args[0]).clone(), dt)?;
                self.elementwise(ComputeFn::Unary(UnFn::Abs), vec![x], ty, e)?
            }
            B::Positive => match ty {
                Ty::Array(..) => self.array_op(ComputeFn::Copy, vals.to_vec(), ty)?,
                _ => vals[0],
            },
            B::Signbit => {
                // The sign bit: `copysign(1, x) < 0` of a float (true for -0.0 and a negative NaN);
                // `x < 0` of an integer.
                let x = vals[0];
                let xd = self.f.ty(x).dtype();
                let zero = self.constant(Scalar::I64(0).cast(xd));
                if xd.is_float() {
                    let one = self.constant(Scalar::F64(1.0).cast(xd));
                    let xty = retyped(ty, xd);
                    let s = self.elementwise(ComputeFn::Binary(BinFn::Copysign), vec![one, x], &xty, e)?;
                    self.binary(BinFn::Lt, s, zero, ty)?
                } else {
                    self.binary(BinFn::Lt, x, zero, ty)?
                }
            }
            B::Deg2rad | B::Radians | B::Rad2deg | B::Degrees => {
                // NumPy's `x * (pi / 180)` and `x * (180 / pi)`.
                let x = self.as_dtype(vals[0], &self.ty_of(&args[0]).clone(), dt)?;
                let k = if matches!(b, B::Deg2rad | B::Radians) {
                    std::f64::consts::PI / 180.0
                } else {
                    180.0 / std::f64::consts::PI
                };
                let k = self.constant(Scalar::F64(k).cast(dt));
                self.array_or_scalar(BinFn::Mul, x, k, ty)?
            }
            B::Sinc => {
                // NumPy's `sinc`: `y = pi * where(x == 0, 1e-20, x)`, then `sin(y) / y`.
                let x = self.as_dtype(vals[0], &self.ty_of(&args[0]).clone(), dt)?;
                let [zero, tiny, pi] =
                    [0.0, 1.0e-20, std::f64::consts::PI].map(|c| self.constant(Scalar::F64(c).cast(dt)));
                let is_zero = self.binary(BinFn::Eq, x, zero, &bty)?;
                let x = self.elementwise(ComputeFn::Where, vec![is_zero, tiny, x], ty, e)?;
                let y = self.array_or_scalar(BinFn::Mul, pi, x, ty)?;
                let s = self.elementwise(ComputeFn::Unary(UnFn::Sin), vec![y], ty, e)?;
                self.array_or_scalar(BinFn::Div, s, y, ty)?
            }
            B::Cbrt => {
                let x = self.as_dtype(vals[0], &self.ty_of(&args[0]).clone(), dt)?;
                self.cbrt(x, ty, e)?
            }
            B::Heaviside => {
                // NumPy: 0 below 0, 1 above, `h0` at 0, NaN where `x` is NaN.
                let v = self.broadcast_operands(vals, ty);
                let tys: Vec<Ty> = args.iter().map(|a| self.ty_of(a).clone()).collect();
                let (x, h0) = (self.as_dtype(v[0], &tys[0], dt)?, self.as_dtype(v[1], &tys[1], dt)?);
                let [zero, one] = [0.0, 1.0].map(|c| self.constant(Scalar::F64(c).cast(dt)));
                let at_zero = self.binary(BinFn::Eq, x, zero, &bty)?;
                let r = self.elementwise(ComputeFn::Where, vec![at_zero, h0, x], ty, e)?;
                let above = self.binary(BinFn::Gt, x, zero, &bty)?;
                let r = self.elementwise(ComputeFn::Where, vec![above, one, r], ty, e)?;
                let below = self.binary(BinFn::Lt, x, zero, &bty)?;
                self.elementwise(ComputeFn::Where, vec![below, zero, r], ty, e)?
            }
            B::Logaddexp | B::Logaddexp2 => {
                let v = self.broadcast_operands(vals, ty);
                let tys: Vec<Ty> = args.iter().map(|a| self.ty_of(a).clone()).collect();
                let (x, y) = (self.as_dtype(v[0], &tys[0], dt)?, self.as_dtype(v[1], &tys[1], dt)?);
                self.logaddexp(b == B::Logaddexp2, x, y, ty, e)?
            }
            B::FloatPower => {
                let v = self.broadcast_operands(vals, ty);
                let tys: Vec<Ty> = args.iter().map(|a| self.ty_of(a).clone()).collect();
                let (x, y) = (self.as_dtype(v[0], &tys[0], dt)?, self.as_dtype(v[1], &tys[1], dt)?);
                self.binary(BinFn::Pow, x, y, ty)?
            }
            _ => return Err(self.not_lowered(b, e)),
        })
    }

    /// NumPy's `modf(x)` (C's `modf`): the pair `(fractional, integral)` of `x` converted to the
    /// float dtype of `ty` (each result's type): `integral = trunc(x)` and `fractional =
    /// copysign(where(isinf(x), 0, x - trunc(x)), x)`, both with `x`'s sign (`modf(-0.5)` is
    /// `(-0.5, -0.0)`, `modf(-inf)` `(-0.0, -inf)`, `modf(nan)` `(nan, nan)`; `x - trunc(x)` is
    /// exact). `arg`: `x`'s expression.
    pub(super) fn modf(&mut self, x: ValueId, arg: &Expr, ty: &Ty, e: &Expr) -> LResult<[ValueId; 2]> {
        let dt = ty.dtype().expect("checked: a float");
        let bty = retyped(ty, DType::Bool);
        let x = self.as_dtype(x, &self.ty_of(arg).clone(), dt)?;
        let whole = self.elementwise(ComputeFn::Unary(UnFn::Trunc), vec![x], ty, e)?;
        let diff = self.array_or_scalar(BinFn::Sub, x, whole, ty)?;
        let ax = self.elementwise(ComputeFn::Unary(UnFn::Abs), vec![x], ty, e)?;
        let [zero, inf] = [0.0, f64::INFINITY].map(|c| self.constant(Scalar::F64(c).cast(dt)));
        let is_inf = self.binary(BinFn::Eq, ax, inf, &bty)?;
        let frac = self.elementwise(ComputeFn::Where, vec![is_inf, zero, diff], ty, e)?;
        let frac = self.elementwise(ComputeFn::Binary(BinFn::Copysign), vec![frac, x], ty, e)?;
        Ok([frac, whole])
    }

    /// NumPy's `cbrt(x)` (C's `cbrt`) of a float `x` in `ty`'s dtype, composed: `y = |x| ** (1/3)`,
    /// one Newton step `y - (y**3 - |x|) / (3 y**2)` (to within an ulp of the correctly rounded
    /// root; `cbrt(27.0)` is `3.0`), kept `y` where it is 0, inf or NaN, then `x`'s sign
    /// (`cbrt(-0.0)` is `-0.0`).
    fn cbrt(&mut self, x: ValueId, ty: &Ty, e: &Expr) -> LResult<ValueId> {
        let dt = ty.dtype().expect("checked: a float");
        let bty = retyped(ty, DType::Bool);
        let ax = self.elementwise(ComputeFn::Unary(UnFn::Abs), vec![x], ty, e)?;
        let [third, three, zero, inf] =
            [1.0 / 3.0, 3.0, 0.0, f64::INFINITY].map(|c| self.constant(Scalar::F64(c).cast(dt)));
        let y = self.array_or_scalar(BinFn::Pow, ax, third, ty)?;
        let yy = self.array_or_scalar(BinFn::Mul, y, y, ty)?;
        let yyy = self.array_or_scalar(BinFn::Mul, yy, y, ty)?;
        let num = self.array_or_scalar(BinFn::Sub, yyy, ax, ty)?;
        let den = self.array_or_scalar(BinFn::Mul, three, yy, ty)?;
        let step = self.array_or_scalar(BinFn::Div, num, den, ty)?;
        let better = self.array_or_scalar(BinFn::Sub, y, step, ty)?;
        let is_zero = self.binary(BinFn::Eq, y, zero, &bty)?;
        let is_inf = self.binary(BinFn::Eq, y, inf, &bty)?;
        let keep = self.binary(BinFn::Or, is_zero, is_inf, &bty)?;
        let r = self.elementwise(ComputeFn::Where, vec![keep, y, better], ty, e)?;
        self.elementwise(ComputeFn::Binary(BinFn::Copysign), vec![r, x], ty, e)
    }

    /// NumPy's `logaddexp(x, y)` (`log(exp(x) + exp(y))`, `npy_logaddexp`) and, with `base2`,
    /// `logaddexp2` (`log2(2**x + 2**y)`), without overflow: `max(x, y) + log1p(exp(-|x - y|))`
    /// (base 2: `max + log1p(exp2(-|d|)) / ln 2`); `x + log(2)` (base 2: `x + 1`) where `x == y`,
    /// which also gives `inf` and `-inf` for two equal infinities; NaN propagates through `max`.
    /// `x`, `y` of `ty`'s float dtype and shape.
    fn logaddexp(&mut self, base2: bool, x: ValueId, y: ValueId, ty: &Ty, e: &Expr) -> LResult<ValueId> {
        let dt = ty.dtype().expect("checked: a float");
        let bty = retyped(ty, DType::Bool);
        let d = self.array_or_scalar(BinFn::Sub, x, y, ty)?;
        let ad = self.elementwise(ComputeFn::Unary(UnFn::Abs), vec![d], ty, e)?;
        let nd = self.elementwise(ComputeFn::Unary(UnFn::Neg), vec![ad], ty, e)?;
        let m = self.binary(BinFn::Maximum, x, y, ty)?;
        let (exp, same) = if base2 { (UnFn::Exp2, 1.0) } else { (UnFn::Exp, std::f64::consts::LN_2) };
        let t = self.elementwise(ComputeFn::Unary(exp), vec![nd], ty, e)?;
        let mut l = self.elementwise(ComputeFn::Unary(UnFn::Log1p), vec![t], ty, e)?;
        if base2 {
            let log2e = self.constant(Scalar::F64(std::f64::consts::LOG2_E).cast(dt));
            l = self.array_or_scalar(BinFn::Mul, l, log2e, ty)?;
        }
        let r = self.array_or_scalar(BinFn::Add, m, l, ty)?;
        let same = self.constant(Scalar::F64(same).cast(dt));
        let xs = self.array_or_scalar(BinFn::Add, x, same, ty)?;
        let eq = self.binary(BinFn::Eq, x, y, &bty)?;
        self.elementwise(ComputeFn::Where, vec![eq, xs, r], ty, e)
    }

    /// NumPy's `fmod(a, b)` (C's: the sign of the dividend) from NumPy's remainder `%` (the sign of
    /// the divisor), exactly: for floats `copysign(|a| % |b|, a)` (of non-negative operands the two
    /// agree); for integers `r = a % b`, then `r - b` where `r != 0` and `r`'s sign differs from
    /// `a`'s (where `%` added `b` to C's remainder); `fmod(a, 0)` is `0`, as `%` gives. `a`, `b`
    /// already broadcast to `ty`'s shape.
    pub(super) fn fmod(&mut self, a: ValueId, b: ValueId, ty: &Ty, e: &Expr) -> LResult<ValueId> {
        let dt = ty.dtype().expect("checked: a value");
        if dt.is_float() {
            let abs = ComputeFn::Unary(UnFn::Abs);
            let (aa, ab) = (self.elementwise(abs, vec![a], ty, e)?, self.elementwise(abs, vec![b], ty, e)?);
            let r = self.binary(BinFn::Rem, aa, ab, ty)?;
            return self.elementwise(ComputeFn::Binary(BinFn::Copysign), vec![r, a], ty, e);
        }
        let bty = retyped(ty, DType::Bool);
        let r = self.binary(BinFn::Rem, a, b, ty)?;
        let zero = self.i64_const(0);
        let nonzero = self.binary(BinFn::Ne, r, zero, &bty)?;
        let r_neg = self.binary(BinFn::Lt, r, zero, &bty)?;
        let a_neg = self.binary(BinFn::Lt, a, zero, &bty)?;
        let differ = self.binary(BinFn::Ne, r_neg, a_neg, &bty)?;
        let fix = self.binary(BinFn::And, nonzero, differ, &bty)?;
        let back = self.binary(BinFn::Sub, r, b, ty)?;
        self.elementwise(ComputeFn::Where, vec![fix, back, r], ty, e)
    }

    /// NumPy's `hypot(a, b)` without overflow or underflow: with `m = max(|a|, |b|)` and
    /// `n = min(|a|, |b|)`, `m * sqrt(1 + (n / m)**2)` (within 2 ulps), `m` where `n == 0`, and
    /// `inf` where either is infinite (NaN or not: C's `hypot`); NaN otherwise propagates through
    /// `maximum`/`minimum`. `a`, `b` already broadcast to `ty`'s shape.
    pub(super) fn hypot(&mut self, a: ValueId, b: ValueId, ty: &Ty, e: &Expr) -> LResult<ValueId> {
        let dt = ty.dtype().expect("checked: a float");
        let bty = retyped(ty, DType::Bool);
        let abs = ComputeFn::Unary(UnFn::Abs);
        let (aa, ab) = (self.elementwise(abs, vec![a], ty, e)?, self.elementwise(abs, vec![b], ty, e)?);
        let m = self.binary(BinFn::Maximum, aa, ab, ty)?;
        let n = self.binary(BinFn::Minimum, aa, ab, ty)?;
        let q = self.binary(BinFn::Div, n, m, ty)?;
        let qq = self.array_or_scalar(BinFn::Mul, q, q, ty)?;
        let [zero, one, inf] = [0.0, 1.0, f64::INFINITY].map(|c| self.constant(Scalar::F64(c).cast(dt)));
        let s = self.binary(BinFn::Add, qq, one, ty)?;
        let s = self.elementwise(ComputeFn::Unary(UnFn::Sqrt), vec![s], ty, e)?;
        let r = self.array_or_scalar(BinFn::Mul, m, s, ty)?;
        let n_zero = self.binary(BinFn::Eq, n, zero, &bty)?;
        let r = self.elementwise(ComputeFn::Where, vec![n_zero, m, r], ty, e)?;
        let a_inf = self.binary(BinFn::Eq, aa, inf, &bty)?;
        let b_inf = self.binary(BinFn::Eq, ab, inf, &bty)?;
        let either = self.binary(BinFn::Or, a_inf, b_inf, &bty)?;
        self.elementwise(ComputeFn::Where, vec![either, inf, r], ty, e)
    }

    /// `a op b` of checked type `ty` as the operation itself (no rewrite of `**` or `*`): host
    /// arithmetic where both operands are scalars (a step of a composition on its scalar operand
    /// alone, as in [`Self::elementwise`]).
    pub(super) fn array_or_scalar(&mut self, op: BinFn, a: ValueId, b: ValueId, ty: &Ty) -> LResult<ValueId> {
        let any_array = self.f.ty(a).is_array() || self.f.ty(b).is_array();
        if ty.is_array() && (any_array || ty.rank() == Some(0)) {
            self.array_op(ComputeFn::Binary(op), vec![a, b], ty)
        } else {
            Ok(self.scalar_bin_promoted(op, a, b, ty.dtype().expect("checked: a value")))
        }
    }
}

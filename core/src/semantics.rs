//! NumPy's scalar semantics, as the host executor computes them and the fusion pass folds constants
//! with: binary and unary operations on [`Scalar`]s, and the identities and combination of
//! reductions (the runtime combines per-chunk partials with them).

use crate::error::ScalarError;
use crate::{BinFn, DType, ReduceKind, Scalar, UnFn};

#[inline(always)]
fn float_bin(op: BinFn, x: f64, y: f64) -> Result<f64, Scalar> {
    Ok(match op {
        BinFn::Add => x + y,
        BinFn::Sub => x - y,
        BinFn::Mul => x * y,
        BinFn::Div => x / y,
        BinFn::Rem => x % y,
        BinFn::Pow => x.powf(y),
        BinFn::Minimum => float_min_max(x, y, true),
        BinFn::Maximum => float_min_max(x, y, false),
        BinFn::Eq => return Err(Scalar::Bool(x == y)),
        BinFn::Ne => return Err(Scalar::Bool(x != y)),
        BinFn::Lt => return Err(Scalar::Bool(x < y)),
        BinFn::Le => return Err(Scalar::Bool(x <= y)),
        BinFn::Gt => return Err(Scalar::Bool(x > y)),
        BinFn::Ge => return Err(Scalar::Bool(x >= y)),
        BinFn::And | BinFn::Or => return Err(Scalar::Bool(false)),
        BinFn::Arctan2 => x.atan2(y),
        BinFn::Copysign => x.copysign(y),
        BinFn::FloorDiv => float_floor_div(x, y, |v| v),
        // Not defined on floats (the checker rejects them): NaN.
        BinFn::Xor | BinFn::Shl | BinFn::Shr => f64::NAN,
    })
}

/// NumPy's `floor_divide` of two floats (`npy_floor_divide`, through `npy_divmod`): for `y == 0`
/// the true quotient `x / y` (±inf or NaN); else `(x - fmod(x, y)) / y`, less one when the
/// remainder's sign differs from `y`'s, snapped to the nearest integral value, and a zero quotient
/// takes the sign of `x / y`. `round` rounds each intermediate result to the operands' dtype
/// (identity for f64, through f32 for f32; `fmod` and `floor` are exact in either), so that f32
/// operands give NumPy's f32 result. Kernels compute the same (`codegen`'s `floor_div`).
pub fn float_floor_div(x: f64, y: f64, round: impl Fn(f64) -> f64) -> f64 {
    if y == 0.0 {
        return round(x / y);
    }
    let m = x % y;
    let mut div = round(round(x - m) / y);
    if m != 0.0 && (y < 0.0) != (m < 0.0) {
        div = round(div - 1.0);
    }
    if div == 0.0 {
        return 0.0f64.copysign(round(x / y));
    }
    let f = div.floor();
    if div - f > 0.5 {
        round(f + 1.0)
    } else {
        f
    }
}

/// NumPy's `floor_divide` of two integers: the quotient rounded toward negative infinity;
/// `x // 0 == 0` and `i64::MIN // -1 == i64::MIN` (NumPy's results; it also warns).
pub fn int_floor_div(x: i64, y: i64) -> i64 {
    if y == 0 {
        return 0;
    }
    let q = x.wrapping_div(y);
    if x.wrapping_rem(y) != 0 && ((x < 0) != (y < 0)) {
        q - 1
    } else {
        q
    }
}

/// NumPy's `minimum` (`min`) or `maximum` of two floats: NaN if either is NaN (the first NaN), else
/// `x < y ? x : y` (`>` for maximum), so of two equal values the second: `minimum(-0.0, 0.0)` is
/// `0.0` and `minimum(0.0, -0.0)` is `-0.0`, as in NumPy. The kernels compute the same.
/// (f32 values are computed through f64, exactly.)
fn float_min_max(x: f64, y: f64, min: bool) -> f64 {
    if x.is_nan() || (if min { x < y } else { x > y }) {
        x
    } else {
        y
    }
}

/// IEEE 754's `minimum` (`min`) or `maximum` of two floats: NaN if either is NaN (the first NaN),
/// else the smaller (larger), -0.0 counting as below 0.0.
fn ieee_min_max(x: f64, y: f64, min: bool) -> f64 {
    if x.is_nan() || y.is_nan() {
        return if x.is_nan() { x } else { y };
    }
    if x == y {
        // Equal: only the signs of zeros can differ.
        return if x.is_sign_negative() == min { x } else { y };
    }
    if (x < y) == min {
        x
    } else {
        y
    }
}

/// NumPy's error for an integer power with a negative exponent (`ValueError` in NumPy), on the host
/// ([`scalar_binary`]) and in kernels (a kernel fault, see [`KernelFault`](crate::abi::KernelFault)).
pub const NEGATIVE_INT_POWER: &str = "integers to negative integer powers are not allowed";

/// NumPy's `IndexError` for an integer-array index (a gather) outside `[-n, n)` of `axis`, or of
/// one of the `count` axes from `axis` on that `count` index arrays select along.
pub fn gather_out_of_bounds(axis: usize, count: usize) -> String {
    match count {
        1 => format!("index out of bounds for axis {axis} of the indexed array (IndexError)"),
        _ => format!("index out of bounds for axes {axis}..{} of the indexed array (IndexError)", axis + count - 1),
    }
}

/// NumPy's `IndexError` for an index-array assignment (a scatter) outside `[-n, n)` of axis 0, or
/// of one of the `count` leading axes that `count` index arrays select along.
pub fn scatter_out_of_bounds(count: usize) -> String {
    match count {
        1 => "index out of bounds for axis 0 of the assigned array (IndexError)".into(),
        _ => format!("index out of bounds for axes 0..{} of the assigned array (IndexError)", count - 1),
    }
}

/// Integer power with wrapping (exponentiation by squaring over the whole i64 exponent, as the
/// kernels' `ipowi`); `None` for a negative exponent, where NumPy raises [`NEGATIVE_INT_POWER`].
fn ipow(x: i64, y: i64) -> Option<i64> {
    if y < 0 {
        return None;
    }
    let (mut base, mut e, mut acc) = (x, y as u64, 1i64);
    while e > 0 {
        if e & 1 == 1 {
            acc = acc.wrapping_mul(base);
        }
        base = base.wrapping_mul(base);
        e >>= 1;
    }
    Some(acc)
}

/// Scalar binary operation on two scalars of the same dtype (the lowering inserts the casts).
/// Inlined where `op` is a constant (the host executor's functions per operation and dtype), it
/// folds to the one case.
#[inline(always)]
pub fn scalar_binary(op: BinFn, a: Scalar, b: Scalar) -> Result<Scalar, ScalarError> {
    use Scalar::*;
    Ok(match (a, b) {
        (F64(x), F64(y)) => float_bin(op, x, y).map(F64).unwrap_or_else(|s| s),
        (F32(x), F32(y)) if op == BinFn::FloorDiv => {
            F32(float_floor_div(x as f64, y as f64, |v| v as f32 as f64) as f32)
        }
        (F32(x), F32(y)) => float_bin(op, x as f64, y as f64).map(|v| F32(v as f32)).unwrap_or_else(|s| s),
        (I64(x), I64(y)) => int_bin(op, x, y, 64)?,
        // Narrower integers are computed in i64 (u64) and wrapped to their width: exact for every
        // operation modulo 2^bits (`int_bin`, `uint_bin`).
        (I32(x), I32(y)) => int_bin(op, x.into(), y.into(), 32)?.cast_int(DType::I32),
        (I16(x), I16(y)) => int_bin(op, x.into(), y.into(), 16)?.cast_int(DType::I16),
        (I8(x), I8(y)) => int_bin(op, x.into(), y.into(), 8)?.cast_int(DType::I8),
        (U64(x), U64(y)) => uint_bin(op, x, y),
        (U32(x), U32(y)) => uint_bin(op, x.into(), y.into()).cast_int(DType::U32),
        (U16(x), U16(y)) => uint_bin(op, x.into(), y.into()).cast_int(DType::U16),
        (U8(x), U8(y)) => uint_bin(op, x.into(), y.into()).cast_int(DType::U8),
        (Bool(x), Bool(y)) => match op {
            BinFn::And => Bool(x & y),
            BinFn::Or => Bool(x | y),
            BinFn::Xor => Bool(x ^ y),
            BinFn::Eq => Bool(x == y),
            BinFn::Ne => Bool(x != y),
            BinFn::Lt => Bool(!x & y),
            BinFn::Le => Bool(x <= y),
            BinFn::Gt => Bool(x & !y),
            BinFn::Ge => Bool(x >= y),
            _ => int_bin(op, x as i64, y as i64, 64)?,
        },
        (a, b) => return Err(ScalarError::MixedDtypes(a.dtype(), b.dtype())),
    })
}

/// Binary operation on two integers of a `bits`-wide dtype (64, or 32, 16, 8 with `x` and `y` in
/// that dtype's range, the caller wrapping an `I64` result to it: wrapping i64 arithmetic agrees
/// with i32's modulo 2^32, and `i32::MIN // -1` is 2^31, which wraps to `i32::MIN` as NumPy
/// gives). Shift counts outside `0..bits` give 0 (left) or the sign (right), as NumPy.
#[inline(always)]
fn int_bin(op: BinFn, x: i64, y: i64, bits: i64) -> Result<Scalar, ScalarError> {
    use Scalar::*;
    Ok(match op {
        BinFn::Add => I64(x.wrapping_add(y)),
        BinFn::Sub => I64(x.wrapping_sub(y)),
        BinFn::Mul => I64(x.wrapping_mul(y)),
        BinFn::Div | BinFn::Arctan2 | BinFn::Copysign => {
            F64(float_bin(op, x as f64, y as f64).unwrap_or_else(|_| unreachable!("not a comparison")))
        }
        BinFn::Rem => I64(if y == 0 { 0 } else { x.wrapping_rem(y) }),
        BinFn::Pow => I64(ipow(x, y).ok_or(ScalarError::NegativeIntPower)?),
        BinFn::Minimum => I64(x.min(y)),
        BinFn::Maximum => I64(x.max(y)),
        BinFn::Eq => Bool(x == y),
        BinFn::Ne => Bool(x != y),
        BinFn::Lt => Bool(x < y),
        BinFn::Le => Bool(x <= y),
        BinFn::Gt => Bool(x > y),
        BinFn::Ge => Bool(x >= y),
        BinFn::And => I64(x & y),
        BinFn::Or => I64(x | y),
        BinFn::FloorDiv => I64(int_floor_div(x, y)),
        BinFn::Xor => I64(x ^ y),
        BinFn::Shl => I64(if (0..bits).contains(&y) { x << y } else { 0 }),
        BinFn::Shr => I64(if (0..bits).contains(&y) { x >> y } else { x >> 63 }),
    })
}

/// Binary operation on two unsigned integers (`u64`, or `u32`, `u16`, `u8` with `x` and `y` in
/// that dtype's range, the caller wrapping a `U64` result to it: wrapping u64 arithmetic agrees
/// with u8's modulo 2^8, and a shift by 8 to 63 leaves no low byte). Division and remainder by zero give 0 and shift counts
/// of 64 or more give 0, as NumPy's `uint64`.
#[inline(always)]
fn uint_bin(op: BinFn, x: u64, y: u64) -> Scalar {
    use Scalar::*;
    match op {
        BinFn::Add => U64(x.wrapping_add(y)),
        BinFn::Sub => U64(x.wrapping_sub(y)),
        BinFn::Mul => U64(x.wrapping_mul(y)),
        BinFn::Div | BinFn::Arctan2 | BinFn::Copysign => {
            F64(float_bin(op, x as f64, y as f64).unwrap_or_else(|_| unreachable!("not a comparison")))
        }
        BinFn::Rem => U64(x.checked_rem(y).unwrap_or(0)),
        BinFn::FloorDiv => U64(x.checked_div(y).unwrap_or(0)),
        BinFn::Pow => {
            let (mut base, mut e, mut acc) = (x, y, 1u64);
            while e > 0 {
                if e & 1 == 1 {
                    acc = acc.wrapping_mul(base);
                }
                base = base.wrapping_mul(base);
                e >>= 1;
            }
            U64(acc)
        }
        BinFn::Minimum => U64(x.min(y)),
        BinFn::Maximum => U64(x.max(y)),
        BinFn::Eq => Bool(x == y),
        BinFn::Ne => Bool(x != y),
        BinFn::Lt => Bool(x < y),
        BinFn::Le => Bool(x <= y),
        BinFn::Gt => Bool(x > y),
        BinFn::Ge => Bool(x >= y),
        BinFn::And => U64(x & y),
        BinFn::Or => U64(x | y),
        BinFn::Xor => U64(x ^ y),
        BinFn::Shl => U64(x.checked_shl(y.try_into().unwrap_or(u32::MAX)).unwrap_or(0)),
        BinFn::Shr => U64(x.checked_shr(y.try_into().unwrap_or(u32::MAX)).unwrap_or(0)),
    }
}

#[cold]
/// Scalar unary function (`Neg` on floats; integer negation is lowered as `0 - x`).
pub fn scalar_unary(op: UnFn, a: Scalar) -> Scalar {
    let f = |x: f64| -> f64 {
        match op {
            UnFn::Neg => -x,
            UnFn::Abs => x.abs(),
            UnFn::Sqrt => x.sqrt(),
            UnFn::Exp => x.exp(),
            UnFn::Log => x.ln(),
            UnFn::Sin => x.sin(),
            UnFn::Cos => x.cos(),
            UnFn::Tanh => x.tanh(),
            UnFn::Ceil => x.ceil(),
            UnFn::Tan => x.tan(),
            UnFn::Arcsin => x.asin(),
            UnFn::Arccos => x.acos(),
            UnFn::Arctan => x.atan(),
            UnFn::Sinh => x.sinh(),
            UnFn::Cosh => x.cosh(),
            UnFn::Arcsinh => x.asinh(),
            UnFn::Arccosh => x.acosh(),
            UnFn::Arctanh => x.atanh(),
            UnFn::Exp2 => x.exp2(),
            UnFn::Expm1 => x.exp_m1(),
            UnFn::Log2 => x.log2(),
            UnFn::Log10 => x.log10(),
            UnFn::Log1p => x.ln_1p(),
            UnFn::Floor => x.floor(),
            UnFn::Trunc => x.trunc(),
            UnFn::Rint => x.round_ties_even(),
            UnFn::Not => x,
        }
    };
    match a {
        Scalar::F64(x) => Scalar::F64(f(x)),
        Scalar::F32(x) => Scalar::F32(f(x as f64) as f32),
        Scalar::I64(x) => match op {
            UnFn::Abs => Scalar::I64(x.wrapping_abs()),
            UnFn::Neg => Scalar::I64(x.wrapping_neg()),
            _ if op.rounds() => a,
            _ => Scalar::F64(f(x as f64)),
        },
        // Narrower integers: computed in i64 and wrapped to their width (`abs(-128)` of an `i8`
        // is -128, as NumPy's).
        Scalar::I32(_) | Scalar::I16(_) | Scalar::I8(_) => match op {
            UnFn::Abs | UnFn::Neg => scalar_unary(op, Scalar::I64(a.as_i64())).cast_int(a.dtype()),
            _ if op.rounds() => a,
            _ => Scalar::F64(f(a.as_f64())).cast(a.dtype().ufunc_float()),
        },
        Scalar::U64(_) | Scalar::U32(_) | Scalar::U16(_) | Scalar::U8(_) => match op {
            UnFn::Abs => a,
            UnFn::Neg => Scalar::U64(a.as_u64().wrapping_neg()).cast_int(a.dtype()),
            _ if op.rounds() => a,
            _ => Scalar::F64(f(a.as_f64())).cast(a.dtype().ufunc_float()),
        },
        Scalar::Bool(b) => match op {
            UnFn::Not => Scalar::Bool(!b),
            _ => a,
        },
    }
}

/// Identity of a reduction in dtype `d`.
/// An arg-reduction has no identity (NumPy raises on an empty extent, and so does the lowering,
/// ahead of the kernel): position 0 stands for one.
pub fn reduce_identity(kind: ReduceKind, d: DType) -> Scalar {
    let s = match kind {
        ReduceKind::ArgMin | ReduceKind::ArgMax => Scalar::I64(0),
        ReduceKind::Sum => Scalar::I64(0),
        ReduceKind::Prod => Scalar::I64(1),
        ReduceKind::Min => match d.int_range() {
            Some((_, hi)) => Scalar::U64(hi as u64),
            None if d == DType::Bool => Scalar::Bool(true),
            None => Scalar::F64(f64::INFINITY),
        },
        ReduceKind::Max => match d.int_range() {
            Some((lo, _)) => Scalar::I64(lo as i64),
            None if d == DType::Bool => Scalar::Bool(false),
            None => Scalar::F64(f64::NEG_INFINITY),
        },
    };
    s.cast(d)
}

/// Combines two partial results of a reduction (same dtype), `a` from the elements before `b`'s;
/// min/max of floats are IEEE 754's `minimum`/`maximum`: NaN if either is NaN, and -0.0 below 0.0
/// (the kernels' `arith.minimumf`, which LLVM vectorises with the vector width the CPU target fixes:
/// `arrayc_codegen`'s `MIN_MAX_OPS`). NumPy's own reductions give either zero
/// of a -0.0 and a 0.0, depending on their length (its SIMD and scalar loops differ).
///
/// Arg-reductions are combined from their positions and keys, not from results
/// (`arrayc_core::ops::arg_better`); here they are the value reduction they find the position of.
#[inline]
pub fn reduce_combine(kind: ReduceKind, a: Scalar, b: Scalar) -> Scalar {
    use ReduceKind::*;
    let kind = kind.value_kind();
    match (a, b) {
        (Scalar::F64(x), Scalar::F64(y)) => Scalar::F64(match kind {
            Sum => x + y,
            Prod => x * y,
            Min | ArgMin => ieee_min_max(x, y, true),
            Max | ArgMax => ieee_min_max(x, y, false),
        }),
        (Scalar::F32(x), Scalar::F32(y)) => Scalar::F32(match kind {
            Sum => x + y,
            Prod => x * y,
            Min | ArgMin => ieee_min_max(x as f64, y as f64, true) as f32,
            Max | ArgMax => ieee_min_max(x as f64, y as f64, false) as f32,
        }),
        (Scalar::I64(x), Scalar::I64(y)) => Scalar::I64(match kind {
            Sum => x.wrapping_add(y),
            Prod => x.wrapping_mul(y),
            Min | ArgMin => x.min(y),
            Max | ArgMax => x.max(y),
        }),
        (Scalar::U64(x), Scalar::U64(y)) => Scalar::U64(match kind {
            Sum => x.wrapping_add(y),
            Prod => x.wrapping_mul(y),
            Min | ArgMin => x.min(y),
            Max | ArgMax => x.max(y),
        }),
        // Narrower integers: combined in i64 (u64) and wrapped to their width.
        (a, b) if a.dtype() == b.dtype() && a.dtype().is_int() => {
            let wide =
                |s: Scalar| if a.dtype().is_unsigned() { Scalar::U64(s.as_u64()) } else { Scalar::I64(s.as_i64()) };
            reduce_combine(kind, wide(a), wide(b)).cast_int(a.dtype())
        }
        (Scalar::Bool(x), Scalar::Bool(y)) => Scalar::Bool(match kind {
            Sum | Max | ArgMax => x | y,
            Prod | Min | ArgMin => x & y,
        }),
        (a, b) => reduce_combine(kind, a, b.cast(a.dtype())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Floats to `int8`, `int16`, `uint16`, `uint32` as NumPy 2.4's `astype` on x86-64 (the
    /// values printed by `np.array([...]).astype(np.int8)`, ...), and their arithmetic wrapping:
    /// `int8(-128) // -1` and `abs(int8(-128))` are -128, as NumPy's.
    #[test]
    fn narrow_ints_are_numpys() {
        let v = [-1.0, 127.9, 128.5, 300.7, -129.2, 70000.5, -70000.5, 3e9, 5e9, -3e9, f64::NAN, f64::INFINITY];
        let cast = |d: DType| v.map(|x| Scalar::F64(x).cast(d).as_i64());
        assert_eq!(cast(DType::I8), [-1, 127, -128, 44, 127, 112, -112, 0, 0, 0, 0, 0]);
        assert_eq!(cast(DType::I16), [-1, 127, 128, 300, -129, 4464, -4464, 0, 0, 0, 0, 0]);
        assert_eq!(cast(DType::U16), [65535, 127, 128, 300, 65407, 4464, 61072, 0, 0, 0, 0, 0]);
        let u32s = [4294967295, 127, 128, 300, 4294967167, 70000, 4294897296, 3000000000, 0, 2147483648, 2147483648, 0];
        assert_eq!(cast(DType::U32), u32s);
        let b = |op, x: i8, y: i8| scalar_binary(op, Scalar::I8(x), Scalar::I8(y)).unwrap();
        assert_eq!(b(BinFn::FloorDiv, -128, -1), Scalar::I8(-128));
        assert_eq!(b(BinFn::Mul, 100, 3), Scalar::I8(44));
        assert_eq!(b(BinFn::Shr, -100, 9), Scalar::I8(-1));
        assert_eq!(b(BinFn::Shl, 1, 7), Scalar::I8(-128));
        assert_eq!(scalar_unary(UnFn::Abs, Scalar::I8(-128)), Scalar::I8(-128));
        assert_eq!(scalar_unary(UnFn::Neg, Scalar::U16(1)), Scalar::U16(65535));
        assert_eq!(scalar_unary(UnFn::Sqrt, Scalar::U16(4)), Scalar::F32(2.0));
        let w = |op, x: u32, y: u32| scalar_binary(op, Scalar::U32(x), Scalar::U32(y)).unwrap();
        assert_eq!(w(BinFn::Sub, 0, 1), Scalar::U32(u32::MAX));
        assert_eq!(w(BinFn::Pow, 3, 40), Scalar::U32(3u32.wrapping_pow(40)));
        assert_eq!(reduce_identity(ReduceKind::Min, DType::I16), Scalar::I16(i16::MAX));
        assert_eq!(reduce_identity(ReduceKind::Max, DType::U32), Scalar::U32(0));
        let sum = reduce_combine(ReduceKind::Sum, Scalar::U16(65535), Scalar::U16(2));
        assert_eq!(sum, Scalar::U16(1));
    }

    /// u8 and u64 arithmetic wraps and divides as NumPy's `uint8`/`uint64` (values from NumPy
    /// 2.4), and floats convert to them as NumPy's `astype` does on x86-64.
    #[test]
    fn unsigned_is_numpys() {
        let b = |op, x: u8, y: u8| scalar_binary(op, Scalar::U8(x), Scalar::U8(y)).unwrap();
        assert_eq!(b(BinFn::Add, 200, 200), Scalar::U8(144));
        assert_eq!(b(BinFn::Sub, 0, 201), Scalar::U8(55));
        assert_eq!(b(BinFn::Mul, 200, 200), Scalar::U8(64));
        assert_eq!(b(BinFn::FloorDiv, 7, 0), Scalar::U8(0));
        assert_eq!(b(BinFn::Rem, 7, 0), Scalar::U8(0));
        assert_eq!(b(BinFn::Shr, 200, 9), Scalar::U8(0));
        assert_eq!(b(BinFn::Shl, 200, 9), Scalar::U8(0));
        assert_eq!(b(BinFn::Shr, 200, 3), Scalar::U8(25));
        assert_eq!(b(BinFn::Pow, 3, 5), Scalar::U8(243));
        assert_eq!(b(BinFn::Gt, 200, 100), Scalar::Bool(true));
        let w = |op, x: u64, y: u64| scalar_binary(op, Scalar::U64(x), Scalar::U64(y)).unwrap();
        assert_eq!(w(BinFn::Pow, 3, 50), Scalar::U64(6_048_575_297_968_530_377));
        assert_eq!(w(BinFn::Lt, 1, u64::MAX), Scalar::Bool(true));
        assert_eq!(w(BinFn::FloorDiv, u64::MAX, 2), Scalar::U64(u64::MAX / 2));
        assert_eq!(w(BinFn::Shr, u64::MAX, 1 << 63), Scalar::U64(0));
        assert_eq!(scalar_unary(UnFn::Neg, Scalar::U8(200)), Scalar::U8(56));
        let f = [-1.0, 300.0, 2f64.powi(63), 2f64.powi(64), 1e30, f64::NAN, -0.5, 255.9, -3e19, 1.8e19];
        let u8s = [255, 44, 0, 0, 0, 0, 0, 255, 0, 0];
        let u64s = [u64::MAX, 300, 1 << 63, 0, 0, 1 << 63, 0, 255, 1 << 63, 18_000_000_000_000_000_000];
        for ((v, a), b) in f.into_iter().zip(u8s).zip(u64s) {
            assert_eq!(Scalar::F64(v).cast(DType::U8), Scalar::U8(a), "{v}");
            assert_eq!(Scalar::F64(v).cast(DType::U64), Scalar::U64(b), "{v}");
        }
        assert_eq!(Scalar::I64(-3).cast(DType::U8), Scalar::U8(253));
        assert_eq!(Scalar::U64(u64::MAX - 2).cast(DType::I64), Scalar::I64(-3));
    }

    /// i32 arithmetic wraps as NumPy's `int32` does (values from NumPy 2.4).
    #[test]
    fn i32_wraps_as_numpy() {
        let b = |op, x: i32, y: i32| scalar_binary(op, Scalar::I32(x), Scalar::I32(y)).unwrap();
        assert_eq!(b(BinFn::Add, i32::MAX, 1), Scalar::I32(i32::MIN));
        assert_eq!(b(BinFn::Mul, 65536, 65536), Scalar::I32(0));
        assert_eq!(b(BinFn::FloorDiv, i32::MIN, -1), Scalar::I32(i32::MIN));
        assert_eq!(b(BinFn::FloorDiv, 7, 0), Scalar::I32(0));
        assert_eq!(b(BinFn::Rem, i32::MIN, -1), Scalar::I32(0));
        assert_eq!(b(BinFn::Rem, 7, 0), Scalar::I32(0));
        assert_eq!(b(BinFn::Shl, 1, 40), Scalar::I32(0));
        assert_eq!(b(BinFn::Shl, 1, 31), Scalar::I32(i32::MIN));
        assert_eq!(b(BinFn::Shr, -8, 40), Scalar::I32(-1));
        assert_eq!(b(BinFn::Pow, 3, 40), Scalar::I32(689_956_897));
        assert_eq!(scalar_unary(UnFn::Abs, Scalar::I32(i32::MIN)), Scalar::I32(i32::MIN));
        for v in [f64::NAN, 3e9, -3e9] {
            assert_eq!(Scalar::F64(v).cast(DType::I32), Scalar::I32(i32::MIN), "{v}");
        }
        assert_eq!(Scalar::I64(1 << 32 | 5).cast(DType::I32), Scalar::I32(5));
    }

    /// Host scalar semantics that once disagreed with the kernels and NumPy (issue 10): a float to
    /// i64 cast of NaN or of a value outside the range gives i64::MIN (NumPy and `fptosi` on x86-64),
    /// integer powers use the whole exponent, not one clamped to 32 bits, and a negative exponent is
    /// NumPy's error.
    #[test]
    fn host_scalars_agree_with_the_kernels() {
        for v in [f64::NAN, 1e300, -1e300, f64::INFINITY, 9.3e18] {
            assert_eq!(Scalar::F64(v).cast(DType::I64), Scalar::I64(i64::MIN), "{v}");
        }
        assert_eq!(Scalar::F64(-9.223_372_036_854_776e18).cast(DType::I64), Scalar::I64(i64::MIN));
        assert_eq!(Scalar::F64(-2.9).cast(DType::I64), Scalar::I64(-2));
        assert_eq!(Scalar::F32(f32::NAN).cast(DType::I64), Scalar::I64(i64::MIN));
        let pow = |x: i64, y: i64| scalar_binary(BinFn::Pow, Scalar::I64(x), Scalar::I64(y)).unwrap();
        assert_eq!(pow(-1, 1 << 62), Scalar::I64(1));
        assert_eq!(pow(-1, (1 << 62) + 1), Scalar::I64(-1));
        assert_eq!(pow(3, 5), Scalar::I64(243));
        assert_eq!(pow(2, 64), Scalar::I64(0), "wraps like NumPy's int64");
        assert_eq!(pow(3, 40), Scalar::I64(3i64.wrapping_pow(40)));
        assert_eq!(pow(0, 0), Scalar::I64(1));
        // NumPy raises for every base, 1 and -1 included (`np.int64(1) ** -1`).
        for x in [2, 1, -1, 0] {
            let got = scalar_binary(BinFn::Pow, Scalar::I64(x), Scalar::I64(-1));
            assert_eq!(got, Err(ScalarError::NegativeIntPower), "{x} ** -1");
        }
    }

    /// `minimum`/`maximum` of signed zeros and NaN as NumPy 2.4 gives them (`np.minimum(-0.0, 0.0) ==
    /// 0.0`, `np.minimum(0.0, -0.0) == -0.0`, NaN propagates), and reductions combining them as IEEE
    /// 754's `minimum`/`maximum` (-0.0 below 0.0, whatever the order).
    #[test]
    fn min_max_of_signed_zeros_and_nan_follow_numpy() {
        let bits = |s: Scalar| match s {
            Scalar::F64(x) => x.to_bits(),
            Scalar::F32(x) => (x as f64).to_bits(),
            _ => unreachable!(),
        };
        let nan = f64::NAN;
        for (op, x, y, want, reduced) in [
            (BinFn::Minimum, -0.0, 0.0, 0.0, -0.0),
            (BinFn::Minimum, 0.0, -0.0, -0.0, -0.0),
            (BinFn::Maximum, -0.0, 0.0, 0.0, 0.0),
            (BinFn::Maximum, 0.0, -0.0, -0.0, 0.0),
            (BinFn::Minimum, 1.0, 2.0, 1.0, 1.0),
            (BinFn::Maximum, 1.0, 2.0, 2.0, 2.0),
            (BinFn::Minimum, 2.0, 1.0, 1.0, 1.0),
            (BinFn::Maximum, 2.0, 1.0, 2.0, 2.0),
        ] {
            for d in [DType::F64, DType::F32] {
                let got = scalar_binary(op, Scalar::F64(x).cast(d), Scalar::F64(y).cast(d)).unwrap();
                assert_eq!(bits(got), bits(Scalar::F64(want).cast(d)), "{op:?}({x}, {y}) in {d:?}");
                let kind = if op == BinFn::Minimum { ReduceKind::Min } else { ReduceKind::Max };
                let got = reduce_combine(kind, Scalar::F64(x).cast(d), Scalar::F64(y).cast(d));
                assert_eq!(bits(got), bits(Scalar::F64(reduced).cast(d)), "{kind:?} of ({x}, {y}) in {d:?}");
            }
        }
        for (x, y) in [(nan, 1.0), (1.0, nan), (nan, nan)] {
            for op in [BinFn::Minimum, BinFn::Maximum] {
                assert!(scalar_binary(op, Scalar::F64(x), Scalar::F64(y)).unwrap().as_f64().is_nan());
            }
            assert!(reduce_combine(ReduceKind::Min, Scalar::F64(x), Scalar::F64(y)).as_f64().is_nan());
            assert!(reduce_combine(ReduceKind::Max, Scalar::F64(x), Scalar::F64(y)).as_f64().is_nan());
        }
    }
}

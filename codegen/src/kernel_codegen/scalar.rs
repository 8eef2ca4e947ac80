//! Per-op scalar code: one element of a binary or unary array operation, on values already
//! converted to the op's compute dtype, with NumPy's semantics (see the parent module's docs; the
//! host computes the same with `arrayc_core::semantics`).

use super::builder::{Arith2, Gen, TypedValue};
use arrayc_core::DType;
use arrayc_dialect::ir::{BinFn, UnFn};
use melior::dialect::arith::{self, CmpfPredicate as F, CmpiPredicate as I};

/// [`Gen::int_divmod`]'s values.
struct IntDivMod<'c> {
    sb: TypedValue<'c>,
    q: TypedValue<'c>,
    r: TypedValue<'c>,
    fix: TypedValue<'c>,
    b_zero: TypedValue<'c>,
    b_m1: TypedValue<'c>,
}

impl<'c> Gen<'c, '_> {
    /// Binary function on two values of one compute dtype (for comparisons the result is i1).
    /// Legality ([`super::legality`]) guarantees a float dtype for `/`, a non-bool one for `%`,
    /// `//` and `**`, and a non-float one for `^`, `<<` and `>>`.
    pub fn binary(&self, op: BinFn, a: TypedValue<'c>, b: TypedValue<'c>) -> TypedValue<'c> {
        use BinFn::*;
        let fl = a.d.is_float();
        let pick = |f: Arith2<'c>, i: Arith2<'c>| if fl { f } else { i };
        match op {
            Add => self.arith2(pick(arith::addf, arith::addi), a, b),
            Sub => self.arith2(pick(arith::subf, arith::subi), a, b),
            Mul => self.arith2(pick(arith::mulf, arith::muli), a, b),
            Div => {
                assert!(fl, "integer true division (operands must be converted to a float)");
                self.arith2(arith::divf, a, b)
            }
            Minimum | Maximum => self.min_max(op == Minimum, a, b),
            Rem => self.rem(a, b),
            FloorDiv => self.floor_div(a, b),
            Pow => self.pow(a, b),
            And => self.arith2(arith::andi, a, b),
            Or => self.arith2(arith::ori, a, b),
            Xor => self.arith2(arith::xori, a, b),
            Shl | Shr => self.shift(op == Shl, a, b),
            Arctan2 | Copysign => {
                assert!(fl, "float function on a non-float value");
                let Some(name) = arrayc_dialect::ops::binary(op).spelling(a.d).op_name() else {
                    unreachable!("every float function has a spelling in the op table")
                };
                self.same_type(name, &[a, b])
            }
            Eq | Ne | Lt | Le | Gt | Ge if fl => {
                let p = match op {
                    Eq => F::Oeq,
                    Ne => F::Une,
                    Lt => F::Olt,
                    Le => F::Ole,
                    Gt => F::Ogt,
                    _ => F::Oge,
                };
                self.cmpf(p, a, b)
            }
            Eq | Ne | Lt | Le | Gt | Ge => {
                // Bools (false < true) and unsigned integers compare as unsigned, the others as
                // signed.
                let u = a.d == DType::Bool || a.d.is_unsigned();
                let p = match op {
                    Eq => I::Eq,
                    Ne => I::Ne,
                    Lt if u => I::Ult,
                    Le if u => I::Ule,
                    Gt if u => I::Ugt,
                    Ge if u => I::Uge,
                    Lt => I::Slt,
                    Le => I::Sle,
                    Gt => I::Sgt,
                    _ => I::Sge,
                };
                self.cmpi(p, a, b)
            }
        }
    }

    /// NumPy's `minimum` (`min`) or `maximum`: for floats NaN if either input is NaN, else
    /// `a < b ? a : b` (`>` for maximum), so of two equal values (`-0.0`, `0.0`) the second; bools
    /// as unsigned, integers as signed.
    pub fn min_max(&self, min: bool, a: TypedValue<'c>, b: TypedValue<'c>) -> TypedValue<'c> {
        match a.d {
            d if d == DType::Bool || d.is_unsigned() => {
                self.arith2(if min { arith::minui } else { arith::maxui }, a, b)
            }
            d if d.is_int() => self.arith2(if min { arith::minsi } else { arith::maxsi }, a, b),
            _ => {
                let first = self.cmpf(if min { F::Olt } else { F::Ogt }, a, b);
                let r = self.select(first, a, b);
                let a_nan = self.cmpf(F::Uno, a, a);
                self.select(a_nan, a, r)
            }
        }
    }

    /// NumPy remainder (sign of the divisor): `r = fmod/srem(a, b)`, then `r += b` when `r != 0` and
    /// its sign differs from `b`'s; a float zero result takes the sign of `b` (`0.0 % -1.0 == -0.0`).
    /// Integer `b == 0` gives 0 and `b == -1` is routed through `b = 1` (no trap).
    fn rem(&self, a: TypedValue<'c>, b: TypedValue<'c>) -> TypedValue<'c> {
        let d = a.d;
        if d.is_float() {
            let r = self.arith2(arith::remf, a, b);
            let z = self.constf(d, 0.0);
            let nz = self.cmpf(F::One, r, z);
            let diff = self.arith2(arith::xori, self.cmpf(F::Olt, r, z), self.cmpf(F::Olt, b, z));
            let fix = self.arith2(arith::andi, nz, diff);
            let r = self.select(fix, self.arith2(arith::addf, r, b), r);
            let signed_zero = self.same_type("math.copysign", &[z, b]);
            self.select(self.cmpf(F::Oeq, r, z), signed_zero, r)
        } else if d.is_unsigned() {
            self.unsigned_divmod(a, b).1
        } else {
            let d = self.int_divmod(a, b);
            self.select(d.fix, self.arith2(arith::addi, d.r, d.sb), d.r)
        }
    }

    /// The quotient and remainder of two unsigned integers (`arith.divui`, `arith.remui`), both 0
    /// where `b == 0` (NumPy's, which also warns), the divisor replaced by 1 there (no trap).
    fn unsigned_divmod(&self, a: TypedValue<'c>, b: TypedValue<'c>) -> (TypedValue<'c>, TypedValue<'c>) {
        let d = a.d;
        let (z, one) = (self.consti(d, 0), self.consti(d, 1));
        let b_zero = self.cmpi(I::Eq, b, z);
        let sb = self.select(b_zero, one, b);
        let q = self.select(b_zero, z, self.arith2(arith::divui, a, sb));
        (q, self.arith2(arith::remui, a, sb))
    }

    /// The truncating quotient and remainder of two integers, with the divisor `b` replaced by 1
    /// where it is 0 or -1 (`sb`; no trap, no overflow) and whether the floored results differ
    /// from them (`fix`: a nonzero remainder whose sign differs from the divisor's). NumPy's `%`
    /// is `r + sb` where `fix`, its `//` is `q - 1` there.
    fn int_divmod(&self, a: TypedValue<'c>, b: TypedValue<'c>) -> IntDivMod<'c> {
        let d = a.d;
        assert!(d.is_int(), "integer division on bool (should have been promoted to i64)");
        let (z, one, m1) = (self.consti(d, 0), self.consti(d, 1), self.consti(d, -1));
        let (b_zero, b_m1) = (self.cmpi(I::Eq, b, z), self.cmpi(I::Eq, b, m1));
        let sb = self.select(self.arith2(arith::ori, b_zero, b_m1), one, b);
        let q = self.arith2(arith::divsi, a, sb);
        let r = self.arith2(arith::remsi, a, sb);
        let nz = self.cmpi(I::Ne, r, z);
        let diff = self.arith2(arith::xori, self.cmpi(I::Slt, r, z), self.cmpi(I::Slt, sb, z));
        let fix = self.arith2(arith::andi, nz, diff);
        IntDivMod { sb, q, r, fix, b_zero, b_m1 }
    }

    /// NumPy's `floor_divide` (the host's `arrayc_core::semantics::float_floor_div` and
    /// `int_floor_div`). Floats: `b == 0` gives `a / b`; else `div = (a - fmod(a, b)) / b`, less one
    /// when the remainder is nonzero with a sign other than `b`'s, snapped to the nearest integral
    /// value, a zero taking the sign of `a / b`. Integers: the floored quotient, 0 for `b == 0`
    /// and `-a` (wrapping) for `b == -1`.
    fn floor_div(&self, a: TypedValue<'c>, b: TypedValue<'c>) -> TypedValue<'c> {
        let d = a.d;
        if d.is_unsigned() {
            return self.unsigned_divmod(a, b).0;
        }
        if !d.is_float() {
            let dm = self.int_divmod(a, b);
            let z = self.consti(d, 0);
            let q = self.select(dm.fix, self.arith2(arith::subi, dm.q, self.consti(d, 1)), dm.q);
            let q = self.select(dm.b_m1, self.arith2(arith::subi, z, a), q);
            return self.select(dm.b_zero, z, q);
        }
        let (z, one, half) = (self.constf(d, 0.0), self.constf(d, 1.0), self.constf(d, 0.5));
        let quot = self.arith2(arith::divf, a, b);
        let m = self.arith2(arith::remf, a, b);
        let div = self.arith2(arith::divf, self.arith2(arith::subf, a, m), b);
        let nz = self.cmpf(F::Une, m, z);
        let diff = self.arith2(arith::xori, self.cmpf(F::Olt, b, z), self.cmpf(F::Olt, m, z));
        let div = self.select(self.arith2(arith::andi, nz, diff), self.arith2(arith::subf, div, one), div);
        let fl = self.same_type("math.floor", &[div]);
        let up = self.cmpf(F::Ogt, self.arith2(arith::subf, div, fl), half);
        let fl = self.select(up, self.arith2(arith::addf, fl, one), fl);
        let signed_zero = self.same_type("math.copysign", &[z, quot]);
        let r = self.select(self.cmpf(F::Oeq, div, z), signed_zero, fl);
        self.select(self.cmpf(F::Oeq, b, z), quot, r)
    }

    /// NumPy's `left_shift` (`left`) or `right_shift` of integers: a count outside `0..width`
    /// (MLIR's shifts are poison there) gives 0, or for a right shift the sign (`a >> width - 1`,
    /// 0 for an unsigned integer, whose right shift is `arith.shrui`).
    fn shift(&self, left: bool, a: TypedValue<'c>, b: TypedValue<'c>) -> TypedValue<'c> {
        let d = a.d;
        let (z, bits) = (self.consti(d, 0), self.consti(d, i64::from(d.bits()) - 1));
        // Unsigned: a negative count is out of range too.
        let in_range = self.cmpi(I::Ule, b, bits);
        let count = self.select(in_range, b, z);
        if left {
            let s = self.arith2(arith::shli, a, count);
            self.select(in_range, s, z)
        } else {
            if d.is_unsigned() {
                let s = self.arith2(arith::shrui, a, count);
                return self.select(in_range, s, z);
            }
            let s = self.arith2(arith::shrsi, a, count);
            self.select(in_range, s, self.arith2(arith::shrsi, a, bits))
        }
    }

    /// `a ** b`: `math.powf` for floats; `math.ipowi` for integers. A negative integer exponent is
    /// NumPy's error: the elementwise op raises its kernel fault before (`loops`), and the value here
    /// is then `a ** 0` (the exponent clamped, so `ipowi` never sees a negative one).
    fn pow(&self, a: TypedValue<'c>, b: TypedValue<'c>) -> TypedValue<'c> {
        let d = a.d;
        if d.is_float() {
            return self.same_type("math.powf", &[a, b]);
        }
        assert!(d.is_int(), "power on bool (should have been promoted to i64)");
        if d.is_unsigned() && d != DType::U64 {
            // Exact modulo 2^bits in u64, where the exponent (below 2^32) is not negative.
            let r = self.pow(self.convert(a, DType::U64), self.convert(b, DType::U64));
            return self.convert(r, d);
        }
        if d == DType::U64 {
            // `ipowi` takes the exponent as signed: one at or above 2^63 becomes
            // `e mod 2^62 + 2^62`, which gives the same power modulo 2^64 (0 for an even base, as
            // the exponent is at least 64; for an odd one, whose powers repeat every 2^62).
            let neg = self.cmpi(I::Slt, b, self.consti(d, 0));
            let low = self.arith2(arith::andi, b, self.consti(d, (1 << 62) - 1));
            let folded = self.arith2(arith::ori, low, self.consti(d, 1 << 62));
            return self.same_type("math.ipowi", &[a, self.select(neg, folded, b)]);
        }
        let z = self.consti(d, 0);
        let neg = self.cmpi(I::Slt, b, z);
        let se = self.select(neg, z, b);
        self.same_type("math.ipowi", &[a, se])
    }

    /// Unary function on a value in its compute dtype. Legality guarantees a non-float `~` and a
    /// non-bool negation; the float functions get a float.
    pub fn unary(&self, op: UnFn, a: TypedValue<'c>) -> TypedValue<'c> {
        use UnFn::*;
        let d = a.d;
        match op {
            Neg => match d {
                DType::F64 | DType::F32 => self.typed(arith::negf(a.v, self.loc), d),
                DType::Bool => unreachable!("negation of bool (computed in i64)"),
                _ => self.arith2(arith::subi, self.consti(d, 0), a),
            },
            Not => {
                assert!(!d.is_float(), "`~` of a float");
                // All bits set: `true` for bool, -1 for i64.
                self.arith2(arith::xori, a, self.consti(d, -1))
            }
            Abs => match d {
                DType::F64 | DType::F32 => self.same_type("math.absf", &[a]),
                d if d == DType::Bool || d.is_unsigned() => a,
                _ => self.same_type("math.absi", &[a]),
            },
            _ if op.rounds() && !d.is_float() => a,
            Exp if d == DType::F64 => self.exp_f64(a),
            // The GPU's `llvm.trunc` intrinsic (`TargetMode::native_math`; NVPTX's `cvt.rzi`).
            Trunc if self.target.native_math => self.same_type("math.trunc", &[a]),
            // `math.trunc` has no NVVM lowering in MLIR 22 and the CPU emulation of the GPU kernels
            // should compute as the CPU does: toward zero is `ceil` below 0, else `floor` (signed
            // zeros and NaN kept).
            Trunc => {
                let below = self.cmpf(F::Olt, a, self.constf(d, 0.0));
                self.select(below, self.same_type("math.ceil", &[a]), self.same_type("math.floor", &[a]))
            }
            Expm1 => self.expm1(a),
            Log1p => self.log1p(a),
            Log if d == DType::F64 => self.log_f64(a),
            _ => {
                // The float functions: one `math` operation each, from the op table.
                assert!(d.is_float(), "float function on a non-float value");
                let Some(name) = arrayc_dialect::ops::unary(op).spelling(d).op_name() else {
                    unreachable!("every float function has a spelling in the op table")
                };
                self.same_type(name, &[a])
            }
        }
    }
}

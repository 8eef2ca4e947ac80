//! NumPy's `gcd` and `lcm` of integers, composed of the op table's functions so that they fuse
//! like any elementwise arithmetic: Euclid's algorithm unrolled a fixed number of steps, enough
//! for every value of the dtype (Lamé's bound), each step a no-op once the remainder is 0.

use super::retyped;
use crate::lower_ast::{LResult, Lowerer};
use arrayc_dialect::ir::{BinFn, ComputeFn, Scalar, UnFn, ValueId};
use arrayc_grammar::ast::{DType, Expr};
use arrayc_grammar::types::Ty;

/// The remainder steps that Euclid's algorithm needs at most for two values of dtype `dt`:
/// Lamé's bound (a chain of `n` steps needs a value of at least the Fibonacci number `F(n + 2)`),
/// taken as the first `n` with `F(n) > 2**bits` (94 for 64 bits, 48 for 32, 25 for 16, 14 for 8),
/// which leaves one step for operands in the other order and a margin for the one remainder of a
/// negative divisor (`abs` of the most negative value, which stays negative as NumPy's).
pub(crate) fn euclid_steps(dt: DType) -> usize {
    let (mut f, mut g, mut n) = (1u128, 1u128, 2);
    while g <= 1u128 << dt.bits() {
        (f, g) = (g, f + g);
        n += 1;
    }
    n
}

impl Lowerer<'_> {
    /// NumPy's `gcd(a, b)` (`lcm`: `lcm`), `a` and `b` broadcast, of the integer dtype of `ty`:
    /// with `x = |a|` and `y = |b|`, `euclid_steps` times `(x, y) = (y, x % y)` where `y != 0`
    /// (`x % 1`, so never a division by zero), then `|x|` (`gcd(0, 0)` is 0, the result never
    /// negative but `|i64::MIN|`, as NumPy's). `lcm` is `x // g * y`, 0 where `g` is 0, as NumPy
    /// computes it (wrapping where it overflows, as NumPy's).
    pub(super) fn gcd_lcm(&mut self, lcm: bool, a: ValueId, b: ValueId, ty: &Ty, e: &Expr) -> LResult<ValueId> {
        let dt = ty.dtype().expect("checked: an integer");
        let bty = retyped(ty, DType::Bool);
        let abs = ComputeFn::Unary(UnFn::Abs);
        let a = self.as_dtype(a, ty, dt)?;
        let b = self.as_dtype(b, ty, dt)?;
        let (xa, xb) = (self.elementwise(abs, vec![a], ty, e)?, self.elementwise(abs, vec![b], ty, e)?);
        let [zero, one] = [0, 1].map(|c| self.constant(Scalar::I64(c).cast(dt)));
        let (mut x, mut y) = (xa, xb);
        for _ in 0..euclid_steps(dt) {
            let nonzero = self.binary(BinFn::Ne, y, zero, &bty)?;
            let divisor = self.elementwise(ComputeFn::Where, vec![nonzero, y, one], ty, e)?;
            let r = self.binary(BinFn::Rem, x, divisor, ty)?;
            x = self.elementwise(ComputeFn::Where, vec![nonzero, y, x], ty, e)?;
            y = r;
        }
        let g = self.elementwise(abs, vec![x], ty, e)?;
        if !lcm {
            return Ok(g);
        }
        let g_zero = self.binary(BinFn::Eq, g, zero, &bty)?;
        let divisor = self.elementwise(ComputeFn::Where, vec![g_zero, one, g], ty, e)?;
        let q = self.binary(BinFn::FloorDiv, xa, divisor, ty)?;
        let l = self.binary(BinFn::Mul, q, xb, ty)?;
        self.elementwise(ComputeFn::Where, vec![g_zero, zero, l], ty, e)
    }
}

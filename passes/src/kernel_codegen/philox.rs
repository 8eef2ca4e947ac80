//! `random`: the Philox4x32-10 counter-based generator (Salmon et al., "Parallel random numbers: as
//! easy as 1, 2, 3", SC 2011) on 32-bit words, one uniform double in `[0, 1)` per element. Matches
//! `arrayc_runtime::rng::uniform_f64` bit for bit, so a kernel's `random` is the host's for any chunking.

use super::builder::{Gen, V};
use arrayc_core::DType;
use melior::{
    dialect::arith,
    ir::{r#type::IntegerType, Value},
};

/// Philox4x32's round multipliers and Weyl key increments.
const MUL: [u32; 2] = [0xD251_1F53, 0xCD9E_8D57];
const WEYL: [u32; 2] = [0x9E37_79B9, 0xBB67_AE85];

impl<'c> Gen<'c, '_> {
    /// The low and high 32-bit halves of an i64.
    fn halves(&self, x: V<'c>) -> [Value<'c, 'c>; 2] {
        let i32t = IntegerType::new(self.ctx, 32).into();
        let hi = self.arith2(arith::shrui, x, self.consti(DType::I64, 32));
        [self.val(arith::trunci(x.v, i32t, self.loc)), self.val(arith::trunci(hi.v, i32t, self.loc))]
    }

    /// Philox4x32-10 uniform double for linear position `k` (i64) under `seed` (i64): counter
    /// `(k_lo, k_hi, 0, 0)`, key `(seed_lo, seed_hi)`, ten rounds; the top 53 bits of
    /// `(out0 << 32) | out1` scaled by 2^-53.
    pub fn philox(&self, k: V<'c>, seed: V<'c>) -> V<'c> {
        let zero = self.i32_const(0);
        let [k0, k1] = self.halves(k);
        let mut key = self.halves(seed);
        let mut c = [k0, k1, zero, zero];
        for round in 0..10 {
            if round > 0 {
                for (w, inc) in key.iter_mut().zip(WEYL) {
                    *w = self.val(arith::addi(*w, self.i32_const(inc), self.loc));
                }
            }
            // `(lo, hi) = mul * c`, as 32-bit halves of the 64-bit product.
            let p0 = self.push(arith::mului_extended(self.i32_const(MUL[0]), c[0], self.loc));
            let p1 = self.push(arith::mului_extended(self.i32_const(MUL[1]), c[2], self.loc));
            let r = |op: melior::ir::OperationRef<'c, 'c>, i: usize| -> Value<'c, 'c> {
                op.result(i).expect("a half of the product").into()
            };
            let a = self.val(arith::xori(r(p1, 1), c[1], self.loc));
            let n0 = self.val(arith::xori(a, key[0], self.loc));
            let b = self.val(arith::xori(r(p0, 1), c[3], self.loc));
            let n2 = self.val(arith::xori(b, key[1], self.loc));
            c = [n0, r(p1, 0), n2, r(p0, 0)];
        }
        let i64t = self.ty(DType::I64);
        let o0 = V { v: self.val(arith::extui(c[0], i64t, self.loc)), d: DType::I64 };
        let o1 = V { v: self.val(arith::extui(c[1], i64t, self.loc)), d: DType::I64 };
        let bits = self.arith2(arith::ori, self.arith2(arith::shli, o0, self.consti(DType::I64, 32)), o1);
        let top = self.arith2(arith::shrui, bits, self.consti(DType::I64, 11));
        let fl = self.typed(arith::uitofp(top.v, self.ty(DType::F64), self.loc), DType::F64);
        self.arith2(arith::mulf, fl, self.constf(DType::F64, 1.0 / (1u64 << 53) as f64))
    }
}

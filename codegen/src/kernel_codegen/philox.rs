//! `random`: the Philox4x32-10 counter-based generator (Salmon et al., "Parallel random numbers: as
//! easy as 1, 2, 3", SC 2011) on 32-bit words, one uniform double in `[0, 1)` per element. Matches
//! `arrayc_runtime::rng::uniform_f64` bit for bit, so a kernel's `random` is the host's for any chunking.

use super::builder::{Gen, TypedValue};
use arrayc_core::DType;
use melior::dialect::arith;

/// Philox4x32's round multipliers and Weyl key increments.
const MUL: [u32; 2] = [0xD251_1F53, 0xCD9E_8D57];
const WEYL: [u32; 2] = [0x9E37_79B9, 0xBB67_AE85];

impl<'c> Gen<'c, '_> {
    /// Philox4x32-10 uniform double for linear position `k` (i64) under `seed` (i64): counter
    /// `(k_lo, k_hi, 0, 0)`, key `(seed_lo, seed_hi)`, ten rounds; the top 53 bits of
    /// `(out0 << 32) | out1` scaled by 2^-53.
    ///
    /// Every 32-bit word is held zero-extended in an i64, so each round's `32 x 32 -> 64`-bit
    /// product is one i64 multiplication of operands known to fit in 32 bits, which LLVM selects
    /// as one `pmuludq` per vector of lanes, with no shuffles between 32- and 64-bit lanes.
    pub fn philox(&self, k: TypedValue<'c>, seed: TypedValue<'c>) -> TypedValue<'c> {
        let m = self.consti(DType::I64, 0xFFFF_FFFF);
        let c32 = self.consti(DType::I64, 32);
        let lo = |x: TypedValue<'c>| self.arith2(arith::andi, x, m);
        let hi = |x: TypedValue<'c>| self.arith2(arith::shrui, x, c32);
        let zero = self.consti(DType::I64, 0);
        let mut key = [lo(seed), hi(seed)];
        let mut c = [lo(k), hi(k), zero, zero];
        for round in 0..10 {
            if round > 0 {
                for (w, inc) in key.iter_mut().zip(WEYL) {
                    *w = lo(self.arith2(arith::addi, *w, self.consti(DType::I64, inc as i64)));
                }
            }
            let p0 = self.arith2(arith::muli, lo(c[0]), self.consti(DType::I64, MUL[0] as i64));
            let p1 = self.arith2(arith::muli, lo(c[2]), self.consti(DType::I64, MUL[1] as i64));
            let n0 = self.arith2(arith::xori, self.arith2(arith::xori, hi(p1), c[1]), key[0]);
            let n2 = self.arith2(arith::xori, self.arith2(arith::xori, hi(p0), c[3]), key[1]);
            c = [n0, lo(p1), n2, lo(p0)];
        }
        let bits = self.arith2(arith::ori, self.arith2(arith::shli, c[0], c32), c[1]);
        let top = self.arith2(arith::shrui, bits, self.consti(DType::I64, 11));
        let fl = self.typed(arith::uitofp(top.v, self.ty(DType::F64), self.loc), DType::F64);
        self.arith2(arith::mulf, fl, self.constf(DType::F64, 1.0 / (1u64 << 53) as f64))
    }
}

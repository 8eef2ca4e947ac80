//! Counter-based random numbers: Philox4x32-10 (Salmon, Moraes, Dror, Shaw, "Parallel random numbers:
//! as easy as 1, 2, 3", SC'11), as in Random123.
//!
//! Because the generator is a pure function of `(key, counter)`, element `k` of `random(..., seed=s)`
//! depends only on `s` and `k`, never on the number of threads or on how the work is chunked.
//!
//! # Contract (a NumPy reference implementation reproduces this bit for bit)
//!
//! * Block function `philox4x32_10(counter: [u32; 4], key: [u32; 2]) -> [u32; 4]`: 10 rounds; each
//!   round computes `(hi0, lo0) = 0xD2511F53 * c[0]`, `(hi1, lo1) = 0xCD9E8D57 * c[2]` (64-bit
//!   products split into high and low 32-bit words) and sets
//!   `c = [hi1 ^ c[1] ^ k[0], lo1, hi0 ^ c[3] ^ k[1], lo0]`; between rounds the key is bumped by the
//!   Weyl increments `k[0] += 0x9E3779B9`, `k[1] += 0xBB67AE85` (wrapping).
//! * Element `k` (row-major order) with seed `seed`:
//!   `counter = [k as u32, (k >> 32) as u32, 0, 0]`, `key = [seed as u32, (seed >> 32) as u32]`,
//!   `out = philox4x32_10(counter, key)`,
//!   `bits = (((out[0] as u64) << 32) | out[1] as u64) >> 11` (the top 53 bits),
//!   value `= bits as f64 * 2^-53`, which lies in `[0, 1)` and is exact.
//!
//! NumPy sketch (with uint64 arithmetic masked to 32 bits):
//! ```text
//! def philox(c, k):            # c: 4 x uint32, k: 2 x uint32
//!     for r in range(10):
//!         if r: k = [(k[0] + 0x9E3779B9) & M, (k[1] + 0xBB67AE85) & M]
//!         p0 = 0xD2511F53 * c[0]; p1 = 0xCD9E8D57 * c[2]
//!         c = [(p1 >> 32) ^ c[1] ^ k[0], p1 & M, (p0 >> 32) ^ c[3] ^ k[1], p0 & M]
//!     return c
//! ```

use crate::array::{Scalar, View};
use rayon::prelude::*;

const PHILOX_M0: u32 = 0xD251_1F53;
const PHILOX_M1: u32 = 0xCD9E_8D57;
const PHILOX_W0: u32 = 0x9E37_79B9;
const PHILOX_W1: u32 = 0xBB67_AE85;

/// Elements per parallel chunk in [`fill_uniform`]. Results do not depend on it.
pub const DEFAULT_CHUNK: usize = 1 << 14;

#[inline(always)]
fn mulhilo(a: u32, b: u32) -> (u32, u32) {
    let p = a as u64 * b as u64;
    ((p >> 32) as u32, p as u32)
}

/// The Philox4x32-10 block function: maps a 128-bit `counter` under a 64-bit `key` to 128 random bits.
/// Matches the Random123 reference (`philox4x32_R(10, ...)`) and its known-answer tests.
#[inline]
pub fn philox4x32_10(counter: [u32; 4], key: [u32; 2]) -> [u32; 4] {
    let mut c = counter;
    let mut k = key;
    for round in 0..10 {
        if round > 0 {
            k[0] = k[0].wrapping_add(PHILOX_W0);
            k[1] = k[1].wrapping_add(PHILOX_W1);
        }
        let (hi0, lo0) = mulhilo(PHILOX_M0, c[0]);
        let (hi1, lo1) = mulhilo(PHILOX_M1, c[2]);
        c = [hi1 ^ c[1] ^ k[0], lo1, hi0 ^ c[3] ^ k[1], lo0];
    }
    c
}

/// The uniform double in `[0, 1)` for element `k` of a stream with seed `seed` (see the module docs
/// for the exact bit recipe). Pure: same `(seed, k)`, same value, on every machine.
#[inline]
pub fn uniform_f64(seed: u64, k: u64) -> f64 {
    let out = philox4x32_10([k as u32, (k >> 32) as u32, 0, 0], [seed as u32, (seed >> 32) as u32]);
    let bits = (((out[0] as u64) << 32) | out[1] as u64) >> 11;
    bits as f64 * (1.0 / (1u64 << 53) as f64)
}

/// Writes `uniform_f64(seed, k)` into element `k` (row-major order of the view) of `view`, in parallel
/// with rayon. The result is identical for any thread count.
///
/// `view` should be `f64`; for another dtype the value is cast (NumPy `astype` semantics), which for
/// `f32` may round up to `1.0`. A view with zero strides (a broadcast) is filled sequentially so the
/// last element in row-major order wins, deterministically.
pub fn fill_uniform(view: &View, seed: u64) {
    fill_uniform_chunked(view, seed, DEFAULT_CHUNK)
}

/// [`fill_uniform`] with an explicit chunk length in elements (for tests and tuning; the values
/// written do not depend on `chunk`). `chunk` of 0 is treated as 1.
pub fn fill_uniform_chunked(view: &View, seed: u64, chunk: usize) {
    let n = view.len();
    if n <= 0 {
        return;
    }
    let n = n as u64;
    let chunk = chunk.max(1) as u64;
    let aliased = view.shape.iter().zip(&view.strides).any(|(&d, &s)| d > 1 && s == 0);
    if aliased {
        let mut k = 0u64;
        view.for_each_offset(|off| {
            view.write_at(off, Scalar::F64(uniform_f64(seed, k)));
            k += 1;
        });
        return;
    }
    let nchunks = n.div_ceil(chunk);
    (0..nchunks).into_par_iter().for_each(|c| {
        let start = c * chunk;
        let end = (start + chunk).min(n);
        fill_range(view, seed, start, end);
    });
}

/// Fills elements `start..end` (row-major positions) of `view`.
fn fill_range(view: &View, seed: u64, start: u64, end: u64) {
    let r = view.rank();
    // Unravel `start` into a multi-index.
    let mut idx = vec![0i64; r];
    let mut rem = start as i64;
    for d in (0..r).rev() {
        let dim = view.shape[d];
        idx[d] = rem % dim;
        rem /= dim;
    }
    let mut off = view.element_offset(&idx);
    for k in start..end {
        view.write_at(off, Scalar::F64(uniform_f64(seed, k)));
        // Advance the multi-index (odometer), updating the offset incrementally.
        let mut d = r;
        while d > 0 {
            d -= 1;
            idx[d] += 1;
            off += view.strides[d];
            if idx[d] < view.shape[d] {
                break;
            }
            off -= view.strides[d] * view.shape[d];
            idx[d] = 0;
        }
    }
}

//! `arr.convolve`: NumPy's 1-d `convolve` of two materialised views, on the host. `x` is the longer
//! array (size `nl`; `a` when the sizes are equal, as NumPy takes it), `y` the shorter (size `ns`),
//! reversed into `yr`; output `g` of the full convolution is `sum_j yr[j] * x[g + j - (ns - 1)]`
//! over the taps `j` in `0 .. ns` that meet `x`, summed in the order of `j` from zero (mul, then
//! add: no FMA), as NumPy's direct method does. Interior outputs (`ns - 1 <= g < nl`, every tap
//! meets `x`) are computed in register blocks of `W` outputs: `W` accumulators stay in vector
//! registers while the loop runs over the taps, broadcasting `yr[j]` and loading `x[g + j ..][..W]`
//! (no output is stored until its sum is complete). `W` fills 8 vector registers: SSE2's, or AVX2's
//! when the CPU has it (detected at run time, a `#[target_feature]` copy of the same loop). The
//! outputs at the edges (where only some taps meet `x`) run the same blocks over a copy of the `x`
//! they read with zeros outside it (the same bits as skipping the taps that miss `x` when every tap
//! is finite; one output at a time over its taps otherwise, as do a block's last `< W` outputs), so
//! `x` itself is never copied with padding. Contiguous inputs are read in place (no copy; a strided
//! one is gathered), contiguous outputs written in place. Blocks of outputs run in parallel on
//! rayon's pool. The semantics are in `dialect/README.md` (`arr.convolve`); the lowering, which
//! computes `off` and the output's size from the mode, is `passes/src/lower_ast/random_sort.rs`.

use crate::array::View;
use crate::launch::{check_in_bounds, LaunchError};
use arrayc_core::DType;
use rayon::prelude::*;
use std::borrow::Cow;
use std::sync::Arc;

/// Outputs per parallel task (a multiple of every `W`); 245 tasks for 10^6 outputs.
const BLOCK: usize = 4096;

/// An element type that `arr.convolve` multiplies and adds: floats as IEEE 754 does, integers
/// wrapping (NumPy's integer overflow).
trait Mac: Copy + Default + Send + Sync {
    /// `acc + c * x`.
    fn mac(acc: Self, c: Self, x: Self) -> Self;
    /// Whether `self * 0` is a zero (not NaN): not an infinity or NaN.
    fn finite(self) -> bool;
}

macro_rules! float_mac {
    ($($t:ty),*) => {$(
        impl Mac for $t {
            #[inline(always)]
            fn mac(acc: Self, c: Self, x: Self) -> Self {
                acc + c * x
            }
            fn finite(self) -> bool {
                self.is_finite()
            }
        }
    )*};
}
float_mac!(f64, f32);

macro_rules! int_mac {
    ($($t:ty),*) => {$(
        impl Mac for $t {
            #[inline(always)]
            fn mac(acc: Self, c: Self, x: Self) -> Self {
                acc.wrapping_add(c.wrapping_mul(x))
            }
            fn finite(self) -> bool {
                true
            }
        }
    )*};
}
int_mac!(i64, i32, i16, i8, u64, u32, u16, u8);

/// `out[k] = sum_j x[k + off - j] * y[j]` over the `j` in `0 .. ns` with `0 <= k + off - j < nl`,
/// for `k` in `0 .. out.len()`, where `x` is the longer of `a` and `v` (`a` when their sizes are
/// equal) and `y` the other: NumPy's `convolve`, whose mode sets `off` (`0` for `full`,
/// `(ns - 1) // 2` for `same`, `ns - 1` for `valid`) and the output's size. All three views are
/// 1-d of one dtype (a float or an integer, not bool), any strides; `out` lies in a base
/// array of its own and repeats no element.
///
/// Errors ([`LaunchError::Invalid`], messages for a compiler bug: the lowering emits
/// `arr.convolve` only on non-empty inputs, promoted, and a new `out` of the mode's size): a rank
/// other than 1, differing or unsupported dtypes, an empty input, an `off` or output size outside
/// the full convolution, a view outside its base array, or an `out` that shares its base array
/// with an input or repeats an element.
pub fn convolve(out: &View, a: &View, v: &View, off: i64) -> Result<(), LaunchError> {
    for (w, what) in [(out, "convolve out"), (a, "convolve a"), (v, "convolve v")] {
        check_in_bounds(w, what)?;
        if w.rank() != 1 || w.dtype != out.dtype {
            return Err(format!(
                "{what}: expected a 1-d view of out's dtype ({}), got a {}-d {}",
                out.dtype.name(),
                w.rank(),
                w.dtype.name()
            )
            .into());
        }
    }
    let (n, m, len) = (a.shape[0], v.shape[0], out.shape[0]);
    let ns = n.min(m);
    if ns == 0 || off < 0 || len < 0 || off + len > n + m - 1 {
        return Err(format!("convolve: sizes {n} and {m} give no {len} outputs from {off}").into());
    }
    if Arc::ptr_eq(&out.base, &a.base) || Arc::ptr_eq(&out.base, &v.base) {
        return Err("convolve: the output shares its base array with an input".to_string().into());
    }
    if len > 1 && out.strides[0] == 0 {
        return Err("convolve: the output repeats an element (a zero stride)".to_string().into());
    }
    let (x, y) = if m > n { (v, a) } else { (a, v) };
    // `W` (SSE2, AVX2): outputs in 8 vector registers of 16 and 32 bytes (8-bit integers: 4, their
    // products taking 16-bit lanes).
    match out.dtype {
        DType::F64 => run::<f64, 16, 32>(out, x, y, off),
        DType::F32 => run::<f32, 32, 64>(out, x, y, off),
        DType::I64 => run::<i64, 16, 32>(out, x, y, off),
        DType::I32 => run::<i32, 32, 64>(out, x, y, off),
        DType::I16 => run::<i16, 64, 128>(out, x, y, off),
        DType::I8 => run::<i8, 64, 128>(out, x, y, off),
        DType::U64 => run::<u64, 16, 32>(out, x, y, off),
        DType::U32 => run::<u32, 32, 64>(out, x, y, off),
        DType::U16 => run::<u16, 64, 128>(out, x, y, off),
        DType::U8 => run::<u8, 64, 128>(out, x, y, off),
        DType::Bool => return Err("convolve: bool arrays are not convolved".to_string().into()),
    }
    Ok(())
}

/// The elements of the 1-d view `w` (of `T`s), in order: borrowed in place when contiguous,
/// gathered otherwise.
fn elements<T: Copy>(w: &View) -> Cow<'_, [T]> {
    let base = w.base.as_ptr() as *const T;
    let len = w.shape[0] as usize;
    if w.strides[0] == 1 || len <= 1 {
        // SAFETY: `convolve` checked `w` to lie inside its base array (which `w` keeps alive for
        // the borrow) and to hold `T`s; its `len` elements from `offset` are contiguous. The
        // executor runs one operation at a time and `out` shares no base array with an input:
        // nothing writes `w` while the slice lives.
        return Cow::Borrowed(unsafe { std::slice::from_raw_parts(base.offset(w.offset as isize), len) });
    }
    // SAFETY: as above; every offset `offset + i * stride` (`i < len`) is an element.
    Cow::Owned((0..len).map(|i| unsafe { *base.offset((w.offset + i as i64 * w.strides[0]) as isize) }).collect())
}

/// `convolve` of the longer `x` and the shorter `y` (elements `T`) into `out`; `WS` and `WA`
/// outputs per register block without and with AVX2.
fn run<T: Mac, const WS: usize, const WA: usize>(out: &View, x: &View, y: &View, off: i64) {
    let x = elements::<T>(x);
    let mut yr = elements::<T>(y).into_owned();
    yr.reverse();
    let off = off as usize;
    let len = out.shape[0] as usize;
    let base = out.base.as_ptr() as *mut T;
    let mut strided = vec![];
    let sums: &mut [T] = if out.strides[0] == 1 || len <= 1 {
        // SAFETY: `convolve` checked `out` (of `T`s) to lie inside its base array, which no input
        // shares; its `len` elements from `offset` are contiguous, and nothing else runs now.
        unsafe { std::slice::from_raw_parts_mut(base.offset(out.offset as isize), len) }
    } else {
        strided.resize(len, T::default());
        &mut strided
    };
    let (avx2, finite) = (has_avx2(), yr.iter().all(|c| c.finite()));
    sums.par_chunks_mut(BLOCK).enumerate().for_each(|(b, block)| {
        outputs::<T, WS, WA>(block, b * BLOCK + off, &x, &yr, avx2, finite);
    });
    for (k, s) in strided.into_iter().enumerate() {
        // SAFETY: as above; `out` repeats no element.
        unsafe { *base.offset((out.offset + k as i64 * out.strides[0]) as isize) = s };
    }
}

/// Whether this CPU runs AVX2 instructions (cached by `std`).
fn has_avx2() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Outputs `g0 .. g0 + out.len()` of the full convolution of `x` with the reversed `yr`;
/// `finite`: whether every tap is finite.
fn outputs<T: Mac, const WS: usize, const WA: usize>(
    out: &mut [T],
    g0: usize,
    x: &[T],
    yr: &[T],
    avx2: bool,
    finite: bool,
) {
    let (nl, ns) = (x.len(), yr.len());
    let g1 = g0 + out.len();
    // The interior `ns - 1 <= g < nl` (not empty: `nl >= ns`), clipped to the block.
    let (lo, hi) = ((ns - 1).clamp(g0, g1) - g0, nl.clamp(g0, g1) - g0);
    let (left, rest) = out.split_at_mut(lo);
    let (mid, right) = rest.split_at_mut(hi - lo);
    edge::<T, WS, WA>(left, g0, x, yr, avx2, finite);
    edge::<T, WS, WA>(right, g0 + hi, x, yr, avx2, finite);
    if mid.is_empty() {
        return;
    }
    // Output `g0 + lo + k` reads `x[start + k ..][..ns]`.
    let start = g0 + lo + 1 - ns;
    let done = kernel::<T, WS, WA>(mid, &x[start..start + mid.len() + ns - 1], yr, avx2);
    taps(&mut mid[done..], g0 + lo + done, x, yr);
}

/// Outputs `g0 .. g0 + out.len()`, all at the edges (some taps miss `x`). With finite taps, by
/// [`kernel`] over a copy of the `x` they read with zeros outside it: each tap that misses adds
/// `c * 0`, a zero, to a sum that started at `+0.0` and so is never `-0.0` (IEEE 754's
/// `+0.0 + -0.0` and `s + -s` are `+0.0`), which leaves its bits as they were. Otherwise (`inf * 0`
/// is NaN, which NumPy never adds) one at a time over the taps that meet `x`.
fn edge<T: Mac, const WS: usize, const WA: usize>(
    out: &mut [T],
    g0: usize,
    x: &[T],
    yr: &[T],
    avx2: bool,
    finite: bool,
) {
    let (nl, ns) = (x.len(), yr.len());
    if out.is_empty() || !finite {
        return taps(out, g0, x, yr);
    }
    // `xw[i]` is `x[g0 + i - (ns - 1)]`, or zero outside `x`.
    let xw: Vec<T> = (g0..g0 + out.len() + ns - 1)
        .map(|i| if i + 1 >= ns && i + 1 - ns < nl { x[i + 1 - ns] } else { T::default() })
        .collect();
    let done = kernel::<T, WS, WA>(out, &xw, yr, avx2);
    taps(&mut out[done..], g0 + done, x, yr);
}

/// [`blocks`] with `WA` outputs per block on a CPU with AVX2 (`avx2`), `WS` otherwise.
fn kernel<T: Mac, const WS: usize, const WA: usize>(out: &mut [T], xw: &[T], yr: &[T], avx2: bool) -> usize {
    #[cfg(target_arch = "x86_64")]
    if avx2 {
        // SAFETY: `has_avx2` found the CPU to run AVX2 instructions.
        return unsafe { blocks_avx2::<T, WA>(out, xw, yr) };
    }
    let _ = avx2;
    blocks::<T, WS>(out, xw, yr)
}

/// Outputs `g0 .. g0 + out.len()` one at a time, each over the taps that meet `x`.
fn taps<T: Mac>(out: &mut [T], g0: usize, x: &[T], yr: &[T]) {
    let (nl, ns) = (x.len(), yr.len());
    for (i, o) in out.iter_mut().enumerate() {
        let g = g0 + i;
        // Tap `j` reads `x[g + j - (ns - 1)]`: `ns - 1 - g <= j < nl + ns - 1 - g`.
        let (jlo, jhi) = ((ns - 1).saturating_sub(g), (nl + ns - 1 - g).min(ns));
        let xs = &x[g + jlo + 1 - ns..g + jhi + 1 - ns];
        *o = yr[jlo..jhi].iter().zip(xs).fold(T::default(), |s, (&c, &xv)| T::mac(s, c, xv));
    }
}

/// The whole blocks of `W` outputs of `out`, where output `k` is `sum_j yr[j] * xw[k + j]`, each
/// block's sums in `W` accumulators (registers) over every tap; returns how many outputs it
/// wrote (the rest, fewer than `W`, are left).
#[inline(always)]
fn blocks<T: Mac, const W: usize>(out: &mut [T], xw: &[T], yr: &[T]) -> usize {
    let whole = out.len() / W * W;
    for (k, o) in out[..whole].chunks_exact_mut(W).enumerate() {
        let mut acc = [T::default(); W];
        for (&c, xs) in yr.iter().zip(xw[k * W..].windows(W)) {
            let xs: &[T; W] = xs.try_into().unwrap();
            for (a, &xv) in acc.iter_mut().zip(xs) {
                *a = T::mac(*a, c, xv);
            }
        }
        o.copy_from_slice(&acc);
    }
    whole
}

/// [`blocks`] compiled for AVX2 (256-bit vectors; no FMA, whose single rounding would change the
/// sums).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn blocks_avx2<T: Mac, const W: usize>(out: &mut [T], xw: &[T], yr: &[T]) -> usize {
    blocks::<T, W>(out, xw, yr)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn view_of(xs: &[f64]) -> View {
        let w = View::zeros(DType::F64, &[xs.len() as i64]).unwrap();
        for (i, &x) in xs.iter().enumerate() {
            w.write_at(i as i64, arrayc_core::Scalar::F64(x));
        }
        w
    }

    /// The definition, one output at a time.
    fn direct(a: &[f64], v: &[f64]) -> Vec<f64> {
        let (n, m) = (a.len(), v.len());
        (0..n + m - 1).map(|k| (0..m).filter(|&j| k >= j && k - j < n).map(|j| a[k - j] * v[j]).sum()).collect()
    }

    #[test]
    fn full_same_and_valid_match_the_definition_across_blocks() {
        let a: Vec<f64> = (0..3 * BLOCK + 7).map(|i| ((i * 37) % 11) as f64 - 5.0).collect();
        let v: Vec<f64> = (0..9).map(|i| i as f64 * 0.5 - 2.0).collect();
        let full = direct(&a, &v);
        for (aa, vv) in [(&a, &v), (&v, &a)] {
            for (off, len) in [(0, full.len()), (4, a.len()), (8, a.len() - 8)] {
                let out = View::zeros(DType::F64, &[len as i64]).unwrap();
                convolve(&out, &view_of(aa), &view_of(vv), off as i64).unwrap();
                assert_eq!(out.to_f64_vec(), full[off..off + len].to_vec());
            }
        }
    }

    /// An element type of the tests: its dtype, a [`Scalar`](arrayc_core::Scalar) of it and
    /// back, and the `i`-th value of a deterministic sequence (`seed` picks one).
    trait Elem: Mac + PartialEq + std::fmt::Debug {
        const DT: DType;
        fn scalar(self) -> arrayc_core::Scalar;
        fn of(s: arrayc_core::Scalar) -> Self;
        fn seq(i: usize, seed: usize) -> Self;
        /// Equality of bits (NaN equals NaN, `-0.0` differs from `0.0`).
        fn same(self, other: Self) -> bool;
    }

    macro_rules! elem {
        ($t:ty, $dt:ident, $seq:expr, $same:expr) => {
            impl Elem for $t {
                const DT: DType = DType::$dt;
                fn scalar(self) -> arrayc_core::Scalar {
                    arrayc_core::Scalar::$dt(self)
                }
                fn of(s: arrayc_core::Scalar) -> Self {
                    match s {
                        arrayc_core::Scalar::$dt(x) => x,
                        other => panic!("{other:?}"),
                    }
                }
                fn seq(i: usize, seed: usize) -> Self {
                    let f: fn(u64) -> $t = $seq;
                    // A splitmix-like scramble of (i, seed).
                    let mut z = (i as u64).wrapping_add((seed as u64) << 32).wrapping_mul(0x9E37_79B9_7F4A_7C15);
                    z = (z ^ (z >> 31)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
                    f(z ^ (z >> 29))
                }
                fn same(self, other: Self) -> bool {
                    let f: fn($t, $t) -> bool = $same;
                    f(self, other)
                }
            }
        };
    }
    // Floats with rounding in every sum; integers that overflow (NumPy wraps).
    elem!(f64, F64, |z| (z >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 0.7, |a, b| a.to_bits() == b.to_bits());
    elem!(f32, F32, |z| (z >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 0.7, |a, b| a.to_bits() == b.to_bits());
    elem!(i64, I64, |z| z as i64, |a, b| a == b);
    elem!(i32, I32, |z| z as i32, |a, b| a == b);
    elem!(u64, U64, |z| z, |a, b| a == b);
    elem!(u8, U8, |z| z as u8, |a, b| a == b);
    elem!(i16, I16, |z| z as i16, |a, b| a == b);
    elem!(i8, I8, |z| z as i8, |a, b| a == b);
    elem!(u32, U32, |z| z as u32, |a, b| a == b);
    elem!(u16, U16, |z| z as u16, |a, b| a == b);

    /// A 1-d view of `xs` with `stride` (negative: the base holds them backwards), in a base array
    /// with room around it.
    fn strided_view<T: Elem>(xs: &[T], stride: i64) -> View {
        let n = xs.len() as i64;
        let base = View::zeros(T::DT, &[n * stride.abs() + 3]).unwrap();
        let offset = if stride < 0 { 1 + (n - 1) * -stride } else { 2 };
        for (i, &x) in xs.iter().enumerate() {
            base.write_at(offset + i as i64 * stride, x.scalar());
        }
        View { base: base.base, dtype: T::DT, offset, shape: vec![n], strides: vec![stride] }
    }

    fn read<T: Elem>(w: &View) -> Vec<T> {
        (0..w.shape[0]).map(|i| T::of(w.read_at(w.offset + i * w.strides[0]))).collect()
    }

    /// NumPy's definition of output `k` of `convolve(a, v)` (full), `sum_i a[k - i] * v[i]` with
    /// `a` the longer: over the `i` that meet it, in descending order (the ascending order of
    /// `a`'s index), from zero.
    fn definition<T: Elem>(a: &[T], v: &[T]) -> Vec<T> {
        let (x, y) = if v.len() > a.len() { (v, a) } else { (a, v) };
        (0..x.len() + y.len() - 1)
            .map(|k| {
                (0..y.len())
                    .rev()
                    .filter(|&i| k >= i && k - i < x.len())
                    .fold(T::default(), |s, i| T::mac(s, y[i], x[k - i]))
            })
            .collect()
    }

    /// The `(off, len)` of modes full, same and valid, and two ranges of no mode.
    fn ranges(n: usize, m: usize) -> Vec<(usize, usize)> {
        let (nl, ns) = (n.max(m), n.min(m));
        vec![
            (0, nl + ns - 1),
            ((ns - 1) / 2, nl),
            (ns - 1, nl - ns + 1),
            (1.min(nl + ns - 2), (nl + ns - 2).min(3)),
            (0, 0),
        ]
    }

    /// `WS`, `WA`: as `convolve` picks for `T`.
    fn check_dtype<T: Elem, const WS: usize, const WA: usize>() {
        let sizes = [
            (1, 1),
            (5, 1),
            (1, 5),
            (7, 7),
            (4, 6),
            (31, 3),
            (32, 3),
            (33, 3),
            (65, 2),
            (129, 64),
            (200, 199),
            (BLOCK - 1, 9),
            (BLOCK, 1),
            (BLOCK + 1, 9),
            (9, BLOCK + 40),
            (2 * BLOCK + 70, 100),
            (BLOCK + 5, BLOCK),
        ];
        for (n, m) in sizes {
            let a: Vec<T> = (0..n).map(|i| T::seq(i, 1)).collect();
            let v: Vec<T> = (0..m).map(|i| T::seq(i, 2)).collect();
            let full = definition(&a, &v);
            for (sa, sv, so) in [(1, 1, 1), (2, -1, 1), (-3, 2, -2)] {
                for (off, len) in ranges(n, m) {
                    let out = strided_view(&vec![T::default(); len], so);
                    convolve(&out, &strided_view(&a, sa), &strided_view(&v, sv), off as i64).unwrap();
                    let got = read::<T>(&out);
                    let want = &full[off..off + len];
                    let at = got.iter().zip(want).position(|(&g, &w)| !g.same(w));
                    assert!(
                        at.is_none(),
                        "{:?} {n}x{m} strides {sa} {sv} {so}, off {off}: output {at:?} {got:?} != {want:?}",
                        T::DT
                    );
                }
            }
            // Either kernel (SSE2's `WS`, AVX2's `WA` where the CPU has it) over odd blocks.
            let (x, y) = if m > n { (&v, &a) } else { (&a, &v) };
            let yr: Vec<T> = y.iter().rev().copied().collect();
            for (avx2, finite) in [(false, true), (has_avx2(), true), (has_avx2(), false)] {
                for (g0, len) in [(0, full.len()), (3.min(full.len() - 1), full.len() - 3.min(full.len() - 1))] {
                    let mut got = vec![T::default(); len];
                    outputs::<T, WS, WA>(&mut got, g0, x, &yr, avx2, finite);
                    let ok = got.iter().zip(&full[g0..]).all(|(&g, &w)| g.same(w));
                    assert!(ok, "{:?} {n}x{m} avx2 {avx2} finite {finite}", T::DT);
                }
            }
        }
    }

    #[test]
    fn every_dtype_mode_stride_and_size_matches_numpys_definition_bit_for_bit() {
        check_dtype::<f64, 16, 32>();
        check_dtype::<f32, 32, 64>();
        check_dtype::<i64, 16, 32>();
        check_dtype::<i32, 32, 64>();
        check_dtype::<u64, 16, 32>();
        check_dtype::<u8, 64, 128>();
    }

    #[test]
    fn the_edges_sum_only_the_taps_that_meet_the_longer_array() {
        // No `0 * inf` from outside `a`: NumPy's convolve([1, 2, 3], [inf, 1]) is [inf, inf, inf, 3].
        let out = View::zeros(DType::F64, &[4]).unwrap();
        convolve(&out, &view_of(&[1.0, 2.0, 3.0]), &view_of(&[f64::INFINITY, 1.0]), 0).unwrap();
        assert_eq!(out.to_f64_vec(), [f64::INFINITY, f64::INFINITY, f64::INFINITY, 3.0]);
        // Over several blocks, a NaN tap and an infinite one: NaN only where they meet `a`.
        let a: Vec<f64> = (0..BLOCK + 300).map(|i| (i % 13) as f64 - 6.0).collect();
        let mut v: Vec<f64> = (0..200).map(|i| (i % 7) as f64 * 0.25).collect();
        (v[3], v[150]) = (f64::NAN, f64::INFINITY);
        let full = definition(&a, &v);
        for (off, len) in ranges(a.len(), v.len()) {
            let out = View::zeros(DType::F64, &[len as i64]).unwrap();
            convolve(&out, &view_of(&a), &view_of(&v), off as i64).unwrap();
            let same = |g: f64, w: f64| g.to_bits() == w.to_bits() || g.is_nan() && w.is_nan();
            assert!(out.to_f64_vec().iter().zip(&full[off..]).all(|(&g, &w)| same(g, w)), "off {off}");
        }
        assert!(!full[0].is_nan() && full[..3].iter().all(|s| !s.is_nan()) && full[3].is_nan());
    }

    #[test]
    fn rejects_an_output_beyond_the_full_convolution() {
        let out = View::zeros(DType::F64, &[4]).unwrap();
        assert!(convolve(&out, &view_of(&[1.0, 2.0]), &view_of(&[3.0, 4.0]), 0).is_err());
    }
}

//! `arr.convolve`: NumPy's 1-d `convolve` of two materialised views, on the host. The longer array
//! `x` (size `nl`; `a` when the sizes are equal, as NumPy takes it) is copied with `ns - 1` zeros
//! on each side, the shorter `y` (size `ns`) reversed; then each block of outputs accumulates
//! `y[ns - 1 - j] * xpad[k + off + j]` for `j` in `0 .. ns`, the inner loop running over the
//! block's outputs, contiguous, so that it vectorises with no reduction across lanes (each output's
//! sum is taken in the order of `j`, as NumPy's direct method does). Blocks run in parallel on
//! rayon's pool. The semantics are in `dialect/README.md` (`arr.convolve`); the lowering, which
//! computes `off` and the output's size from the mode, is `passes/src/lower_ast/random_sort.rs`.

use crate::array::View;
use crate::launch::{check_in_bounds, LaunchError};
use arrayc_core::DType;
use rayon::prelude::*;
use std::sync::Arc;

/// Outputs per task: 2048 elements (16 KiB of `f64`) stay in the L1 cache while every `j` passes
/// over them.
const BLOCK: usize = 2048;

/// An element type that `arr.convolve` multiplies and adds: floats as IEEE 754 does, integers
/// wrapping (NumPy's integer overflow).
trait Mac: Copy + Default + Send + Sync {
    /// `acc + c * x`.
    fn mac(acc: Self, c: Self, x: Self) -> Self;
}

macro_rules! float_mac {
    ($($t:ty),*) => {$(
        impl Mac for $t {
            fn mac(acc: Self, c: Self, x: Self) -> Self {
                acc + c * x
            }
        }
    )*};
}
float_mac!(f64, f32);

macro_rules! int_mac {
    ($($t:ty),*) => {$(
        impl Mac for $t {
            fn mac(acc: Self, c: Self, x: Self) -> Self {
                acc.wrapping_add(c.wrapping_mul(x))
            }
        }
    )*};
}
int_mac!(i64, i32, u64, u8);

/// `out[k] = sum_j x[k + off - j] * y[j]` over the `j` in `0 .. ns` with `0 <= k + off - j < nl`,
/// for `k` in `0 .. out.len()`, where `x` is the longer of `a` and `v` (`a` when their sizes are
/// equal) and `y` the other: NumPy's `convolve`, whose mode sets `off` (`0` for `full`,
/// `(ns - 1) // 2` for `same`, `ns - 1` for `valid`) and the output's size. All three views are
/// 1-d of one dtype (`f64`, `f32`, `i64` or `i32`), any strides; `out` lies in a base array of its
/// own and repeats no element.
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
    match out.dtype {
        DType::F64 => run::<f64>(out, x, y, off),
        DType::F32 => run::<f32>(out, x, y, off),
        DType::I64 => run::<i64>(out, x, y, off),
        DType::I32 => run::<i32>(out, x, y, off),
        DType::U64 => run::<u64>(out, x, y, off),
        DType::U8 => run::<u8>(out, x, y, off),
        DType::Bool => return Err("convolve: bool arrays are not convolved".to_string().into()),
    }
    Ok(())
}

/// The elements of the 1-d view `w` (of `T`s), in order.
fn elements<T: Copy>(w: &View) -> Vec<T> {
    let base = w.base.as_ptr() as *const T;
    // SAFETY: `convolve` checked `w` to lie inside its base array and to hold `T`s, so every offset
    // `offset + i * stride` (`i < len`) is an element. The executor runs one operation at a time:
    // nothing writes `w` now.
    (0..w.shape[0]).map(|i| unsafe { *base.offset((w.offset + i * w.strides[0]) as isize) }).collect()
}

/// `convolve` of the longer `x` and the shorter `y` (elements `T`) into `out`.
fn run<T: Mac>(out: &View, x: &View, y: &View, off: i64) {
    let ns = y.shape[0] as usize;
    let mut xpad = vec![T::default(); ns - 1];
    xpad.extend(elements::<T>(x));
    xpad.resize(xpad.len() + ns - 1, T::default());
    let mut yr = elements::<T>(y);
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
    sums.par_chunks_mut(BLOCK).enumerate().for_each(|(b, block)| {
        block.fill(T::default());
        let first = b * BLOCK + off;
        for (j, &c) in yr.iter().enumerate() {
            let xs = &xpad[first + j..first + j + block.len()];
            for (s, &xv) in block.iter_mut().zip(xs) {
                *s = T::mac(*s, c, xv);
            }
        }
    });
    for (k, s) in strided.into_iter().enumerate() {
        // SAFETY: as above; `out` repeats no element.
        unsafe { *base.offset((out.offset + k as i64 * out.strides[0]) as isize) = s };
    }
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

    #[test]
    fn rejects_an_output_beyond_the_full_convolution() {
        let out = View::zeros(DType::F64, &[4]).unwrap();
        assert!(convolve(&out, &view_of(&[1.0, 2.0]), &view_of(&[3.0, 4.0]), 0).is_err());
    }
}

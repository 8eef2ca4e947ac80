//! `arr.sort`: NumPy's `sort` and `argsort` along one axis of a materialised view, on the host with
//! rayon's parallel sorts. Each line along the axis is read into a buffer, sorted and written to
//! the output (a new array); many lines are sorted in parallel, one per task, and a few long lines
//! each with `par_sort_unstable_by`. The order is total, NaN last (as NumPy puts NaN at the end);
//! `argsort` sorts `(value, position)` pairs, so equal values keep their order: NumPy's
//! `kind='stable'` (its default quicksort may order equal values otherwise). The semantics are in
//! `dialect/README.md` (`arr.sort`); the lowering is `passes/src/lower_ast/random_sort.rs`.

use crate::array::View;
use crate::launch::{check_in_bounds, LaunchError};
use arrayc_core::shape::shape_str;
use arrayc_core::DType;
use rayon::prelude::*;
use std::cmp::Ordering;
use std::sync::Arc;

/// An element type that `arr.sort` orders: totally, NaN after every number.
trait Key: Copy + Send + Sync {
    fn order(&self, other: &Self) -> Ordering;
}

macro_rules! float_key {
    ($($t:ty),*) => {$(
        impl Key for $t {
            fn order(&self, other: &Self) -> Ordering {
                match (self.is_nan(), other.is_nan()) {
                    (false, false) => self.partial_cmp(other).unwrap_or(Ordering::Equal),
                    (a, b) => a.cmp(&b),
                }
            }
        }
    )*};
}
float_key!(f64, f32);

macro_rules! int_key {
    ($($t:ty),*) => {$(
        impl Key for $t {
            fn order(&self, other: &Self) -> Ordering {
                self.cmp(other)
            }
        }
    )*};
}
int_key!(i64, i32, i16, i8, u64, u32, u16, u8);

/// `out = sort(src, axis)` (`indices` false) or `out = argsort(src, axis)` (`indices` true: `i64`
/// positions along `axis`, stable). `out` and `src` have one shape; `out` has `src`'s dtype (or
/// `i64`), lies in a base array of its own and repeats no element. Strides may be anything else.
///
/// Errors ([`LaunchError::Invalid`], messages for a compiler bug: the lowering emits `arr.sort` only
/// on a new `out`): mismatched shapes, ranks or dtypes, an axis out of range, a view outside its
/// base array, or an `out` that shares its base array with `src` or repeats an element.
pub fn sort(out: &View, src: &View, axis: usize, indices: bool) -> Result<(), LaunchError> {
    check_in_bounds(out, "sort out")?;
    check_in_bounds(src, "sort src")?;
    if out.shape != src.shape || axis >= src.rank() {
        return Err(format!(
            "sort: shapes {} and {} along axis {axis} do not match",
            shape_str(&out.shape),
            shape_str(&src.shape)
        )
        .into());
    }
    let want = if indices { DType::I64 } else { src.dtype };
    if out.dtype != want {
        return Err(format!("sort: the output is {}, not {}", out.dtype.name(), want.name()).into());
    }
    if Arc::ptr_eq(&out.base, &src.base) {
        return Err("sort: the output shares its base array with the input".to_string().into());
    }
    if out.shape.iter().zip(&out.strides).any(|(&d, &s)| d > 1 && s == 0) {
        return Err("sort: the output repeats an element (a zero stride)".to_string().into());
    }
    if src.is_empty() {
        return Ok(());
    }
    match src.dtype {
        DType::F64 => lines::<f64>(out, src, axis, indices),
        DType::F32 => lines::<f32>(out, src, axis, indices),
        DType::I64 => lines::<i64>(out, src, axis, indices),
        DType::I32 => lines::<i32>(out, src, axis, indices),
        DType::I16 => lines::<i16>(out, src, axis, indices),
        DType::I8 => lines::<i8>(out, src, axis, indices),
        DType::U64 => lines::<u64>(out, src, axis, indices),
        DType::U32 => lines::<u32>(out, src, axis, indices),
        DType::U16 => lines::<u16>(out, src, axis, indices),
        DType::U8 | DType::Bool => lines::<u8>(out, src, axis, indices),
    }
    Ok(())
}

/// The offsets (in elements) of the first element of every line of `v` along `axis`, in row-major
/// order of the other axes.
fn line_starts(v: &View, axis: usize) -> Vec<i64> {
    let mut starts = vec![v.offset];
    for d in (0..v.rank()).filter(|&d| d != axis) {
        let (n, s) = (v.shape[d], v.strides[d]);
        starts = starts.iter().flat_map(|&o| (0..n).map(move |i| o + i * s)).collect();
    }
    starts
}

/// A base address that may cross threads: every task reads `src` and writes its own line of `out`.
#[derive(Clone, Copy)]
struct Addr(usize);

/// Sorts every line of `src` along `axis` (elements `T`) into `out`.
fn lines<T: Key>(out: &View, src: &View, axis: usize, indices: bool) {
    let n = src.shape[axis] as usize;
    let (ss, os) = (src.strides[axis], out.strides[axis]);
    let (src_base, out_base) = (Addr(src.base.as_ptr() as usize), Addr(out.base.as_ptr() as usize));
    let starts: Vec<(i64, i64)> = line_starts(src, axis).into_iter().zip(line_starts(out, axis)).collect();
    let parallel_lines = starts.len() >= rayon::current_num_threads();
    let one = |&(s0, o0): &(i64, i64), parallel_line: bool| {
        // SAFETY: `sort` checked both views to lie inside their base arrays, of `T`s (the dtype
        // matches; bools are bytes), so every offset `s0 + i * ss` (`i < n`) of this line is an
        // element of `src`. The executor runs one operation at a time: nothing writes `src` now.
        let read = |i: usize| unsafe { *(src_base.0 as *const T).offset((s0 + i as i64 * ss) as isize) };
        if indices {
            let mut pairs: Vec<(T, i64)> = (0..n).map(|i| (read(i), i as i64)).collect();
            let by = |a: &(T, i64), b: &(T, i64)| a.0.order(&b.0).then(a.1.cmp(&b.1));
            if parallel_line {
                pairs.par_sort_unstable_by(by);
            } else {
                pairs.sort_unstable_by(by);
            }
            for (i, (_, k)) in pairs.into_iter().enumerate() {
                // SAFETY: `out` (of `i64`s) is checked as `src`; its lines are disjoint (no zero
                // stride), and this task alone writes this one.
                unsafe { *(out_base.0 as *mut i64).offset((o0 + i as i64 * os) as isize) = k };
            }
        } else {
            let mut values: Vec<T> = (0..n).map(read).collect();
            if parallel_line {
                values.par_sort_unstable_by(T::order);
            } else {
                values.sort_unstable_by(T::order);
            }
            for (i, x) in values.into_iter().enumerate() {
                // SAFETY: as above, `out` holding `T`s.
                unsafe { *(out_base.0 as *mut T).offset((o0 + i as i64 * os) as isize) = x };
            }
        }
    };
    if parallel_lines {
        starts.par_iter().for_each(|s| one(s, false));
    } else {
        starts.iter().for_each(|s| one(s, true));
    }
}

//! View arithmetic of NumPy's basic indexing: indexing with integers, slices and `newaxis`,
//! transposes, diagonals, broadcasts and reshapes. Each makes a new [`View`] of the same base array
//! (no data moves); offsets and strides are in elements. The host executor applies them for
//! `arr.view`, `arr.transpose`, `arr.diagonal`, `arr.broadcast` and `arr.reshape`.

use crate::array::View;
use arrayc_core::shape::{checked_len, shape_str, slice_indices};
use arrayc_core::IndexEntry;

/// NumPy's errors of basic indexing and broadcasting (`IndexError`, `ValueError`), with NumPy's
/// words; the executor adds the source place.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ViewError {
    /// An integer index outside `[-size, size)` of an axis.
    #[error("index {index} is out of bounds for axis {axis} with size {size}")]
    OutOfBounds { index: i64, axis: usize, size: i64 },
    /// A slice with step 0.
    #[error("slice step cannot be zero (axis {axis})")]
    ZeroStep { axis: usize },
    /// `diagonal` of an array that is not 2-d (its shape, as NumPy prints it).
    #[error("diagonal needs a 2-d array, got shape {0}")]
    DiagonalRank(String),
    /// Shapes that do not broadcast (both as NumPy prints them).
    #[error("operands could not be broadcast together: shape {from} does not broadcast to {to}")]
    Broadcast { from: String, to: String },
    /// A reshape to a shape of another element count (NumPy's words; the shape as NumPy prints it).
    #[error("cannot reshape array of size {size} into shape {shape}")]
    ReshapeSize { size: i64, shape: String },
    /// A reshape that would need a copy, asked for as a view (the lowering asks only where
    /// [`reshaped`] succeeds: a compiler bug).
    #[error("internal error: a reshape of the view of shape {from} to {to} needs a copy; please report it")]
    ReshapeCopy { from: String, to: String },
    /// A broadcast shape whose element count does not fit 64 bits.
    #[error("cannot broadcast to shape {0}: its element count overflows a 64-bit size")]
    BroadcastOverflow(String),
}

/// NumPy basic indexing (`slice.indices` semantics: bounds clipped, negative values count from the
/// end; an integer out of range is an error). Offsets and strides in elements.
pub fn apply_index(src: &View, index: &[IndexEntry], ops: &[i64]) -> Result<View, ViewError> {
    let mut v = View { base: src.base.clone(), dtype: src.dtype, offset: src.offset, shape: vec![], strides: vec![] };
    let mut d = 0;
    let mut k = 0;
    let mut next = || {
        k += 1;
        ops[k - 1]
    };
    for e in index {
        match *e {
            IndexEntry::Full => {
                v.shape.push(src.shape[d]);
                v.strides.push(src.strides[d]);
                d += 1;
            }
            IndexEntry::NewAxis => {
                v.shape.push(1);
                v.strides.push(0);
            }
            IndexEntry::At => {
                v.offset += position(next(), d, src.shape[d])? * src.strides[d];
                d += 1;
            }
            IndexEntry::Slice { start, stop, step } => {
                let (a, b) = (if start { Some(next()) } else { None }, if stop { Some(next()) } else { None });
                let s = if step { next() } else { 1 };
                if s == 0 {
                    return Err(ViewError::ZeroStep { axis: d });
                }
                let (first, len) = slice_indices(src.shape[d], a, b, s);
                if len > 0 {
                    v.offset += first * src.strides[d];
                }
                v.shape.push(len);
                // Saturating: the product only overflows when at most one element is selected,
                // and then the stride is never multiplied by a non-zero index.
                v.strides.push(src.strides[d].saturating_mul(s));
                d += 1;
            }
        }
    }
    Ok(v)
}

/// The base element offset of `src[i0, .., ir]`, `idx` giving one integer per dimension of `src`
/// (negative counts from the end): the offset of the 0-d view that [`apply_index`] makes with `At`
/// entries, with the same errors, but without making the view (the executor's element reads and
/// writes in host loops).
#[inline]
pub fn element_offset(src: &View, idx: impl IntoIterator<Item = i64>) -> Result<i64, ViewError> {
    let mut off = src.offset;
    for (d, ((i, &n), &s)) in idx.into_iter().zip(&src.shape).zip(&src.strides).enumerate() {
        off += position(i, d, n)? * s;
    }
    Ok(off)
}

/// The position of integer index `i` on axis `axis` of size `n` (negative counts from the end), or
/// NumPy's error when it is out of range.
#[inline]
fn position(i: i64, axis: usize, n: i64) -> Result<i64, ViewError> {
    let p = if i < 0 { i + n } else { i };
    if p < 0 || p >= n {
        return Err(out_of_bounds(i, axis, n));
    }
    Ok(p)
}

#[cold]
fn out_of_bounds(i: i64, axis: usize, n: i64) -> ViewError {
    ViewError::OutOfBounds { index: i, axis, size: n }
}

/// `src` with permuted axes: axis `i` of the result is axis `perm[i]` of `src` (same elements).
pub fn transpose(src: &View, perm: &[usize]) -> View {
    let shape = perm.iter().map(|&a| src.shape[a]).collect();
    let strides = perm.iter().map(|&a| src.strides[a]).collect();
    View { base: src.base.clone(), dtype: src.dtype, offset: src.offset, shape, strides }
}

/// The main diagonal of a 2-d `src`: `min(d0, d1)` elements `src[i, i]` (stride `s0 + s1`).
pub fn diagonal(src: &View) -> Result<View, ViewError> {
    let [d0, d1] = src.shape[..] else {
        return Err(ViewError::DiagonalRank(shape_str(&src.shape)));
    };
    Ok(View {
        base: src.base.clone(),
        dtype: src.dtype,
        offset: src.offset,
        shape: vec![d0.min(d1)],
        strides: vec![src.strides[0] + src.strides[1]],
    })
}

/// `src` broadcast to `shape` (NumPy rules; broadcast dimensions get stride 0).
pub fn broadcast(src: &View, shape: &[i64]) -> Result<View, ViewError> {
    let (r, k) = (src.rank(), shape.len());
    let fail = || ViewError::Broadcast { from: shape_str(&src.shape), to: shape_str(shape) };
    if r > k {
        return Err(fail());
    }
    if checked_len(shape).is_none() {
        return Err(ViewError::BroadcastOverflow(shape_str(shape)));
    }
    let mut strides = vec![0; k];
    for j in 0..k {
        if j < k - r {
            continue;
        }
        let i = j - (k - r);
        if src.shape[i] == shape[j] {
            strides[j] = src.strides[i];
        } else if src.shape[i] != 1 {
            return Err(fail());
        }
    }
    Ok(View { base: src.base.clone(), dtype: src.dtype, offset: src.offset, shape: shape.to_vec(), strides })
}

/// Whether the view's elements lie in row-major order one element apart: NumPy's C-contiguous
/// flag (axes of size 1 aside, whatever their strides; an empty view is contiguous), when
/// NumPy's `ravel` is a view (`arr.contiguous`).
pub fn c_contiguous(v: &View) -> bool {
    if v.shape.contains(&0) {
        return true;
    }
    let mut expected = 1i64;
    for (&d, &s) in v.shape.iter().zip(&v.strides).rev() {
        if d != 1 {
            if s != expected {
                return false;
            }
            expected = expected.saturating_mul(d);
        }
    }
    true
}

/// `src` as a view of `shape` with the same elements in row-major order (NumPy's `reshape` when it
/// gives a view), or `None` when that needs a copy or the element counts differ. NumPy's no-copy
/// rule: the axes of size 1 of `src` aside, the old and the new shape are cut into the shortest
/// groups of equal element counts; each old group must be contiguous within itself (every stride
/// the next axis's stride times its size), and the new axes of a group get strides in row-major
/// order from the group's innermost stride. An empty array reshapes to any empty shape.
pub fn reshaped(src: &View, shape: &[i64]) -> Option<View> {
    let n = checked_len(&src.shape)?;
    if checked_len(shape)? != n {
        return None;
    }
    let mut strides = vec![1i64; shape.len()];
    if n == 0 {
        for k in (0..shape.len().saturating_sub(1)).rev() {
            strides[k] = strides[k + 1].saturating_mul(shape[k + 1].max(1));
        }
    } else {
        let old: Vec<(i64, i64)> =
            src.shape.iter().zip(&src.strides).filter(|(d, _)| **d != 1).map(|(&d, &s)| (d, s)).collect();
        let (mut oi, mut ni) = (0, 0);
        while oi < old.len() && ni < shape.len() {
            let (mut oj, mut nj) = (oi + 1, ni + 1);
            let (mut op, mut np) = (old[oi].0, shape[ni]);
            while op != np {
                if np < op {
                    np *= *shape.get(nj)?;
                    nj += 1;
                } else {
                    op *= old.get(oj)?.0;
                    oj += 1;
                }
            }
            if (oi..oj - 1).any(|k| old[k].1 != old[k + 1].0 * old[k + 1].1) {
                return None;
            }
            strides[nj - 1] = old[oj - 1].1;
            for k in (ni..nj - 1).rev() {
                strides[k] = strides[k + 1] * shape[k + 1];
            }
            (oi, ni) = (oj, nj);
        }
        // What is left of the new shape are axes of size 1, whose strides do not matter.
    }
    Some(View { base: src.base.clone(), dtype: src.dtype, offset: src.offset, shape: shape.to_vec(), strides })
}

/// [`reshaped`] as the executor's `arr.reshape`: NumPy's error for another element count, an
/// internal error where the reshape needs a copy.
pub fn reshape(src: &View, shape: &[i64]) -> Result<View, ViewError> {
    if let Some(v) = reshaped(src, shape) {
        return Ok(v);
    }
    let n = checked_len(&src.shape).unwrap_or(i64::MAX);
    if checked_len(shape) != Some(n) {
        let shown = match shape {
            [x] => format!("({x},)"),
            _ => format!("({})", shape.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(",")),
        };
        return Err(ViewError::ReshapeSize { size: n, shape: shown });
    }
    Err(ViewError::ReshapeCopy { from: shape_str(&src.shape), to: shape_str(shape) })
}

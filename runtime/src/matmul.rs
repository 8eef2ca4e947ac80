//! `arr.matmul`: the matrix product of two materialised 2-d views, computed by `faer` (a maintained,
//! pure-Rust BLAS-like library: blocked and packed kernels, parallel on rayon's pool) on the views'
//! memory as it lies, strided, without copies. Which products take this form instead of a fused
//! kernel is `arrayc_core::ops::matmul_by_library`; the semantics are in `dialect/README.md`.

use crate::array::View;
use crate::launch::{check_in_bounds, LaunchError};
use arrayc_core::shape::shape_str;
use arrayc_core::DType;
use std::sync::Arc;

/// `out = lhs @ rhs` (NumPy's `matmul` of 2-d arrays): `lhs` is `n x k`, `rhs` `k x m`, `out`
/// `n x m`, all of one dtype, `f64` or `f32`; strides (in elements) may be anything, negative and
/// zero included, except that `out` must not repeat an element (a zero stride along a dimension of
/// more than one element). `k = 0` gives zeros, as in NumPy. Runs on rayon's current pool with all
/// its threads (`faer::Par::rayon(0)`); the sums are blocked, so the last bits of a float result
/// may differ from NumPy's (OpenBLAS also blocks, differently).
///
/// Errors ([`LaunchError::Invalid`], messages for a compiler bug: the lowering emits `arr.matmul`
/// only on arrays it has checked): a rank other than 2, sizes that do not match, a dtype that is not
/// `f64`/`f32` or differs between the operands, a view outside its base array, or an `out` that
/// shares its base array with an input or repeats an element.
pub fn matmul(out: &View, lhs: &View, rhs: &View) -> Result<(), LaunchError> {
    for (v, what) in [(out, "matmul out"), (lhs, "matmul lhs"), (rhs, "matmul rhs")] {
        if v.rank() != 2 || v.dtype != out.dtype || !v.dtype.is_float() {
            let (want, got) = (out.dtype.name(), v.dtype.name());
            return Err(format!(
                "{what}: expected a 2-d f64 or f32 view like out ({want}), got a {}-d {got}",
                v.rank()
            )
            .into());
        }
        check_in_bounds(v, what)?;
    }
    let (n, k, m) = (lhs.shape[0], lhs.shape[1], rhs.shape[1]);
    if rhs.shape[0] != k || out.shape != [n, m] {
        return Err(format!(
            "matmul: shapes {} @ {} do not give {}",
            shape_str(&lhs.shape),
            shape_str(&rhs.shape),
            shape_str(&out.shape)
        )
        .into());
    }
    if Arc::ptr_eq(&out.base, &lhs.base) || Arc::ptr_eq(&out.base, &rhs.base) {
        return Err("matmul: the output shares its base array with an input".to_string().into());
    }
    if out.shape.iter().zip(&out.strides).any(|(&d, &s)| d > 1 && s == 0) {
        return Err("matmul: the output repeats an element (a zero stride)".to_string().into());
    }
    if n == 0 || m == 0 {
        return Ok(());
    }
    match out.dtype {
        DType::F64 => product::<f64>(out, lhs, rhs, k),
        DType::F32 => product::<f32>(out, lhs, rhs, k),
        _ => unreachable!("checked to be a float dtype above"),
    }
    Ok(())
}

/// The product of views that [`matmul`] has checked, with elements of type `T` (`out` non-empty).
fn product<T: faer::traits::ComplexField + Copy>(out: &View, lhs: &View, rhs: &View, k: i64) {
    let at = |v: &View| -> *mut T {
        // SAFETY: `offset` is the element `[0, 0]` of a non-empty view checked against its base
        // array, so the address lies inside the buffer.
        unsafe { (v.base.as_ptr() as *mut T).offset(v.offset as isize) }
    };
    let mat = |v: &View| {
        // SAFETY: `matmul` checked every element of the view to lie inside its base array, which
        // is 64-byte aligned and holds initialised `T`s (the dtype matches); the host executor runs
        // one operation at a time, so nothing writes these inputs while the product reads them.
        unsafe {
            faer::MatRef::from_raw_parts(
                at(v) as *const T,
                v.shape[0] as usize,
                v.shape[1] as usize,
                v.strides[0] as isize,
                v.strides[1] as isize,
            )
        }
    };
    let (a, b) = (mat(lhs), mat(rhs));
    // SAFETY: as for the inputs; `out` lies in a base array of its own (checked against both
    // inputs), no two of its elements share an address (no zero stride along a dimension of more
    // than one element), and nothing else reads or writes it during the product.
    let mut c = unsafe {
        faer::MatMut::from_raw_parts_mut(
            at(out),
            out.shape[0] as usize,
            out.shape[1] as usize,
            out.strides[0] as isize,
            out.strides[1] as isize,
        )
    };
    if k == 0 {
        // NumPy's sum of nothing; `faer` would leave `out` as it was.
        c.fill(T::zero_impl());
        return;
    }
    faer::linalg::matmul::matmul(c, faer::Accum::Replace, a, b, T::one_impl(), faer::Par::rayon(0));
}

//! `arr.linalg`: NumPy's `linalg.solve` and `linalg.det` of a materialised 2-d square view, on the
//! host, by `faer`'s LU factorisation with partial (row) pivoting: the factorisation LAPACK's
//! `getrf` computes, which NumPy's `solve`, `inv` and `det` call. The lowering makes `linalg.inv(a)`
//! a `solve` of the identity. Also `linalg.cholesky` (`faer`'s `llt`, LAPACK's `potrf`),
//! `linalg.eigvalsh` (`faer`'s self-adjoint eigenvalues: a tridiagonal reduction and divide and
//! conquer, as LAPACK's `syevd` that NumPy calls) and the singular values of
//! `linalg.svd(a, compute_uv=False)` (`faer`'s bidiagonal SVD; NumPy calls `gesdd`); the lowering
//! composes `matrix_rank`, `cond` and the matrix norms of `linalg.norm` from them. `linalg.pinv`
//! is `faer`'s thin SVD with the small singular values cut off, as NumPy's. The semantics are in `dialect/README.md` (`arr.linalg`); the lowering
//! is `passes/src/lower_ast/numpy_more.rs`.

use crate::array::View;
use crate::launch::{check_in_bounds, LaunchError};
use arrayc_core::ir::LinAlgFn;
use arrayc_core::shape::shape_str;
use arrayc_core::DType;
use faer::linalg::solvers::Solve;
use std::sync::Arc;

/// NumPy's message for a matrix whose LU factorisation has a pivot exactly zero (LAPACK's `getrf`
/// returning `info > 0`), which `numpy.linalg.solve` and `inv` raise as `LinAlgError`.
pub const SINGULAR: &str = "LinAlgError: Singular matrix (numpy.linalg.solve/inv: an LU pivot is exactly zero)";

/// NumPy's message for a matrix whose Cholesky factorisation meets a pivot that is not positive
/// (LAPACK's `potrf` returning `info > 0`), which `numpy.linalg.cholesky` raises as `LinAlgError`.
pub const NOT_POSITIVE_DEFINITE: &str =
    "LinAlgError: Matrix is not positive definite (numpy.linalg.cholesky: a pivot is not positive)";

/// NumPy's message for an SVD iteration that does not converge (a matrix holding NaN or
/// infinity), raised by `numpy.linalg.svd` (and `matrix_rank`, `cond`, `norm`) as `LinAlgError`.
pub const SVD_NO_CONVERGENCE: &str = "LinAlgError: SVD did not converge (numpy.linalg.svd)";

/// `arr.linalg` of function `func`: with [`LinAlgFn::Solve`], `out = a^-1 b`, `a` an `n x n` view,
/// `b` and `out` of shape `(n,)` or `(n, k)`; with [`LinAlgFn::Det`], the 0-d `out` is `det(a)`
/// (`1.0` for `n = 0`, as NumPy); with [`LinAlgFn::Slogdet`], the `(2,)` `out` is NumPy's
/// `slogdet(a)`, `[sign, logabsdet]` (`[1, 0]` for `n = 0`, `[0, -inf]` for a zero pivot); with
/// [`LinAlgFn::Cholesky`], the `n x n` `out` is the lower
/// factor `L` of `a = L L^T` (zeros above the diagonal); with [`LinAlgFn::Eigvalsh`], the `(n,)`
/// `out` holds the eigenvalues of the symmetric `a`, ascending (both read only the lower triangle
/// of `a`, as NumPy's default `UPLO='L'`); with [`LinAlgFn::Svdvals`], `a` is `m x n` (any sizes)
/// and the `(min(m, n),)` `out` holds its singular values, descending; with [`LinAlgFn::Pinv`],
/// `a` is `m x n` (any sizes), `b` 0-d (`rtol`) and the `n x m` `out` is NumPy's `pinv(a, rtol)`:
/// `V diag(1/s) U^T` of the thin SVD, where the `s <= rtol * max(s)` count as zero; with
/// [`LinAlgFn::Eigh`], [`LinAlgFn::Qr`] and [`LinAlgFn::Svd`], `out` packs NumPy's factors as
/// their docs say (`Qr` and `Svd` tell their mode from `out`'s shape). All views of one dtype, `f64` or `f32`, with any strides (the
/// factorisation works on a copy of `a`); `out` is a new array that shares no base array with an
/// input. Runs on rayon's pool (`faer`'s global parallelism).
///
/// Errors ([`LaunchError::Invalid`], which the executor locates at the operation's line): `Solve`
/// of an `a` whose factorisation has a pivot exactly zero is [`SINGULAR`], NumPy's `LinAlgError`
/// (`det` of such an `a` is `0.0`, as NumPy's); `Cholesky` of an `a` that is not positive definite
/// is [`NOT_POSITIVE_DEFINITE`]; an SVD iteration (`Svdvals`, `Pinv`) that does not converge (NaN or infinite
/// elements) is [`SVD_NO_CONVERGENCE`], while `Eigvalsh`'s gives NaN eigenvalues, as NumPy's
/// `eigvalsh` (which returns NaN there, not an error). Anything else (ranks, sizes, dtypes, a view outside
/// its base array) is a compiler bug's message: the lowering emits `arr.linalg` on checked arrays.
pub fn linalg(func: LinAlgFn, out: &View, a: &View, b: Option<&View>) -> Result<(), LaunchError> {
    let mut views = vec![(out, "linalg out"), (a, "linalg a")];
    views.extend(b.map(|b| (b, "linalg b")));
    for (v, what) in &views {
        if v.dtype != a.dtype || !matches!(v.dtype, DType::F64 | DType::F32) {
            return Err(format!(
                "{what}: expected an f64 or f32 view like a ({}), got {}",
                a.dtype.name(),
                v.dtype.name()
            )
            .into());
        }
        check_in_bounds(v, what)?;
    }
    let n = a.shape.first().copied().unwrap_or(0);
    let m = a.shape.get(1).copied().unwrap_or(0);
    if a.rank() != 2 || (func.square() && n != m) {
        return Err(format!("linalg: a has shape {}, not a square matrix", shape_str(&a.shape)).into());
    }
    let shapes_fit = match (func, b) {
        (LinAlgFn::Solve, Some(b)) => b.shape.first() == Some(&n) && b.rank() <= 2 && out.shape == b.shape,
        (LinAlgFn::Det, None) => out.rank() == 0,
        (LinAlgFn::Slogdet, None) => out.shape == [2],
        (LinAlgFn::Cholesky, None) => out.shape == [n, n],
        (LinAlgFn::Eigvalsh, None) => out.shape == [n],
        (LinAlgFn::Svdvals, None) => out.shape == [n.min(m)],
        (LinAlgFn::Pinv, Some(b)) => b.rank() == 0 && out.shape == [m, n],
        (LinAlgFn::Eigh, None) => out.shape == [n + 1, n],
        (LinAlgFn::Qr, None) => {
            let p = out.shape.first().map_or(0, |r| r - n);
            (p == n.min(m) || p == n) && out.shape == [n + p, p.max(m)]
        }
        (LinAlgFn::Svd, None) => {
            let k = n.min(m);
            out.shape == [n + 1 + k, k.max(m)] || out.shape == [n + 1 + m, n.max(m)]
        }
        _ => false,
    };
    if !shapes_fit || b.is_some_and(|b| Arc::ptr_eq(&out.base, &b.base)) || Arc::ptr_eq(&out.base, &a.base) {
        return Err(format!("linalg {}: operands do not fit (a {})", func.name(), shape_str(&a.shape)).into());
    }
    match a.dtype {
        DType::F64 => apply::<f64>(func, out, a, b),
        DType::F32 => apply::<f32>(func, out, a, b),
        _ => unreachable!("checked to be a float dtype above"),
    }
}

/// A checked view as a `faer` matrix of `T`: 1-d views are one column.
///
/// # Safety
/// `v` was checked by [`linalg`]: in bounds of its base array, of dtype `T`, and nothing writes it
/// while the result lives (the executor runs one operation at a time).
unsafe fn mat<'a, T: faer::traits::ComplexField>(v: &'a View) -> faer::MatRef<'a, T> {
    let (rows, cols) = (v.shape.first().copied().unwrap_or(1), v.shape.get(1).copied().unwrap_or(1));
    let (rs, cs) = (v.strides.first().copied().unwrap_or(1), v.strides.get(1).copied().unwrap_or(1));
    let p = (v.base.as_ptr() as *const T).wrapping_offset(v.offset as isize);
    faer::MatRef::from_raw_parts(p, rows as usize, cols as usize, rs as isize, cs as isize)
}

/// A float that [`det_as_numpy`] takes the logarithm and exponential of, in its own precision.
trait LogExp: Copy {
    fn ln_abs(self) -> Self;
    fn exp(self) -> Self;
    fn negative(self) -> bool;
    fn from_sign(s: i8) -> Self;
}

macro_rules! log_exp {
    ($($t:ty),*) => {$(
        impl LogExp for $t {
            fn ln_abs(self) -> Self { self.abs().ln() }
            fn exp(self) -> Self { <$t>::exp(self) }
            fn negative(self) -> bool { self < 0.0 }
            fn from_sign(s: i8) -> Self { s as $t }
        }
    )*};
}
log_exp!(f64, f32);

/// `det(a)` of a non-empty square `a` as NumPy computes it (`umath_linalg`'s `det`, from
/// `slogdet`): `sign * exp(logabsdet)` of [`slogdet_as_numpy`]; `0.0` when a pivot is zero. So the
/// last bits are NumPy's, not those of the product of the pivots (`det([[2, 1, 0], [1, 3, 1], [0,
/// 1, 4]])` is NumPy's `17.999999999999996`, not `18.0`).
fn det_as_numpy<T: faer::traits::ComplexField + LogExp + PartialEq>(a: faer::MatRef<'_, T>) -> T {
    let (sign, logdet) = slogdet_as_numpy(a);
    if sign == T::zero_impl() {
        return sign;
    }
    sign * logdet.exp()
}

/// NumPy's `linalg.slogdet(a)` of a non-empty square `a`, `(sign, logabsdet)`: the LU
/// factorisation with partial pivoting (LAPACK's `getrf`), `sign` the permutation's parity times
/// the pivots' signs and `logabsdet = sum(log|u_ii|)`; `(0, -inf)` when a pivot is zero.
fn slogdet_as_numpy<T: faer::traits::ComplexField + LogExp + PartialEq>(a: faer::MatRef<'_, T>) -> (T, T) {
    let lu = a.partial_piv_lu();
    let u = lu.U();
    let n = a.nrows();
    if has_zero_pivot(u) {
        return (T::zero_impl(), T::zero_impl().ln_abs());
    }
    // The parity of the row permutation: `n` less its number of cycles.
    let (fwd, _) = lu.P().arrays();
    let mut seen = vec![false; n];
    let mut cycles = 0;
    for s in 0..n {
        if !seen[s] {
            cycles += 1;
            let mut i = s;
            while !seen[i] {
                seen[i] = true;
                i = fwd[i];
            }
        }
    }
    let mut negative = (n - cycles) % 2 == 1;
    let mut logdet = T::zero_impl();
    for i in 0..n {
        negative ^= u[(i, i)].negative();
        logdet += u[(i, i)].ln_abs();
    }
    (T::from_sign(if negative { -1 } else { 1 }), logdet)
}

/// Whether the `U` factor of an LU factorisation has a pivot exactly zero (LAPACK's `getrf`
/// `info > 0`): NumPy's singular matrix.
fn has_zero_pivot<T: faer::traits::ComplexField + PartialEq>(u: faer::MatRef<'_, T>) -> bool {
    (0..u.nrows()).any(|i| u[(i, i)] == T::zero_impl())
}

/// Whether every element of `a` (with `lower`, of its lower triangle, the diagonal included) is
/// finite: NumPy's `eigvalsh` gives NaN eigenvalues, and its `svd` fails, where one is not.
fn all_finite<T: faer::traits::ComplexField>(a: faer::MatRef<'_, T>, lower: bool) -> bool {
    (0..a.ncols()).all(|j| (if lower { j } else { 0 }..a.nrows()).all(|i| T::is_finite_impl(&a[(i, j)])))
}

/// [`linalg`] on views it has checked, with elements of type `T`.
fn apply<T: faer::traits::RealField + Copy + PartialEq + PartialOrd + LogExp>(
    func: LinAlgFn,
    out: &View,
    a: &View,
    b: Option<&View>,
) -> Result<(), LaunchError> {
    // SAFETY: `linalg` checked `a` (and `b`): in bounds, of dtype `T`, not written meanwhile.
    let am = unsafe { mat::<T>(a) };
    let n = am.nrows();
    let out_ptr = (out.base.as_ptr() as *mut T).wrapping_offset(out.offset as isize);
    let (rs, cs) = (out.strides.first().copied().unwrap_or(1), out.strides.get(1).copied().unwrap_or(1));
    let (out_rows, out_cols) = (out.shape.first().copied().unwrap_or(1), out.shape.get(1).copied().unwrap_or(1));
    // SAFETY: `out` is checked in bounds of a base array shared with no input, a new array whose
    // elements have distinct addresses, and nothing else touches it meanwhile.
    let mut x = unsafe {
        faer::MatMut::from_raw_parts_mut(out_ptr, out_rows as usize, out_cols as usize, rs as isize, cs as isize)
    };
    match func {
        LinAlgFn::Det => {
            let d = if n == 0 { T::one_impl() } else { det_as_numpy(am) };
            // SAFETY: `out` is a 0-d view checked in bounds of its own base array.
            unsafe { *out_ptr = d };
        }
        LinAlgFn::Slogdet => {
            let (sign, logdet) = if n == 0 { (T::one_impl(), T::zero_impl()) } else { slogdet_as_numpy(am) };
            x[(0, 0)] = sign;
            x[(1, 0)] = logdet;
        }
        LinAlgFn::Solve => {
            let lu = am.partial_piv_lu();
            if has_zero_pivot(lu.U()) {
                return Err(SINGULAR.to_string().into());
            }
            let b = b.expect("checked: solve has b");
            // SAFETY: as for `a`.
            let bm = unsafe { mat::<T>(b) };
            x.copy_from(bm);
            if n > 0 && bm.ncols() > 0 {
                lu.solve_in_place(x);
            }
        }
        LinAlgFn::Cholesky if n > 0 => {
            let llt = am.llt(faer::Side::Lower).map_err(|_| NOT_POSITIVE_DEFINITE.to_string())?;
            x.copy_from(llt.L());
        }
        LinAlgFn::Eigvalsh if n > 0 => match am.self_adjoint_eigenvalues(faer::Side::Lower) {
            Ok(w) if all_finite(am, true) => x.col_mut(0).iter_mut().zip(w).for_each(|(o, w)| *o = w),
            _ => x.col_mut(0).iter_mut().for_each(|o| *o = T::nan_impl()),
        },
        LinAlgFn::Svdvals if n.min(am.ncols()) > 0 => {
            if !all_finite(am, false) {
                return Err(SVD_NO_CONVERGENCE.to_string().into());
            }
            let s = am.singular_values().map_err(|_| SVD_NO_CONVERGENCE.to_string())?;
            x.col_mut(0).iter_mut().zip(s).for_each(|(o, s)| *o = s);
        }
        LinAlgFn::Pinv if n.min(am.ncols()) > 0 => {
            if !all_finite(am, false) {
                return Err(SVD_NO_CONVERGENCE.to_string().into());
            }
            let svd = am.thin_svd().map_err(|_| SVD_NO_CONVERGENCE.to_string())?;
            // SAFETY: `linalg` checked `b`: a 0-d view of dtype `T` in bounds of its base array.
            let rtol = unsafe { mat::<T>(b.expect("checked: pinv has b")) }[(0, 0)];
            let s = svd.S().column_vector();
            let cutoff = rtol * s.iter().copied().fold(T::zero_impl(), |m, s| if s > m { s } else { m });
            // NumPy's `pinv`: `1 / s` where `s > cutoff`, else `0`; then `V diag(1/s) U^T`.
            let v = svd.V();
            let vs = faer::Mat::from_fn(v.nrows(), v.ncols(), |i, k| {
                if s[k] > cutoff {
                    v[(i, k)] * T::recip_impl(&s[k])
                } else {
                    T::zero_impl()
                }
            });
            x.copy_from(vs.as_ref() * svd.U().transpose());
        }
        // Empty: nothing to write.
        LinAlgFn::Cholesky | LinAlgFn::Eigvalsh | LinAlgFn::Svdvals | LinAlgFn::Pinv => {}
        LinAlgFn::Eigh | LinAlgFn::Qr | LinAlgFn::Svd => packed_factors(func, am, x)?,
    }
    Ok(())
}

/// The packed results of [`LinAlgFn::Eigh`], [`LinAlgFn::Qr`] and [`LinAlgFn::Svd`] (their docs give
/// the layouts) of the checked `m x n` `a`, written into `x`, `out`'s matrix. An empty `a` gives
/// NumPy's empty factors: identity `q`, `u` and `vh` (of their full sizes), no `w`, `s` or `r`
/// elements.
fn packed_factors<T: faer::traits::RealField + Copy + PartialEq + PartialOrd>(
    func: LinAlgFn,
    am: faer::MatRef<'_, T>,
    mut x: faer::MatMut<'_, T>,
) -> Result<(), LaunchError> {
    let (m, n) = (am.nrows(), am.ncols());
    let k = m.min(n);
    x.fill(T::zero_impl());
    match func {
        LinAlgFn::Eigh if n > 0 => match am.self_adjoint_eigen(faer::Side::Lower) {
            Ok(e) if all_finite(am, true) => {
                x.as_mut().row_mut(0).iter_mut().zip(e.S().column_vector().iter()).for_each(|(o, w)| *o = *w);
                x.as_mut().subrows_mut(1, n).copy_from(e.U());
            }
            _ => x.fill(T::nan_impl()),
        },
        LinAlgFn::Qr => {
            let p = x.nrows() - m;
            if k == 0 {
                (0..p.min(m)).for_each(|i| x[(i, i)] = T::one_impl());
                return Ok(());
            }
            let qr = am.qr();
            let q = if p == k { qr.compute_thin_Q() } else { qr.compute_Q() };
            x.as_mut().submatrix_mut(0, 0, m, p).copy_from(q);
            // `r`'s first `k` rows; `faer` stores zeros below the diagonal and `complete`'s rows
            // below `k` are zero.
            x.as_mut().submatrix_mut(m, 0, k, n).copy_from(qr.thin_R());
        }
        LinAlgFn::Svd => {
            let q = x.nrows() - m - 1;
            let full = q == n && x.ncols() >= m;
            let p = if full { m } else { k };
            if k == 0 {
                (0..p).for_each(|i| x[(i, i)] = T::one_impl());
                (0..q).for_each(|i| x[(m + 1 + i, i)] = T::one_impl());
                return Ok(());
            }
            if !all_finite(am, false) {
                return Err(SVD_NO_CONVERGENCE.to_string().into());
            }
            let svd = if full { am.svd() } else { am.thin_svd() }.map_err(|_| SVD_NO_CONVERGENCE.to_string())?;
            x.as_mut().submatrix_mut(0, 0, m, p).copy_from(svd.U());
            x.as_mut().row_mut(m).iter_mut().zip(svd.S().column_vector().iter()).for_each(|(o, s)| *o = *s);
            x.as_mut().submatrix_mut(m + 1, 0, q, n).copy_from(svd.V().transpose());
        }
        _ => {}
    }
    Ok(())
}

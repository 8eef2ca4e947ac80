//! NumPy's `linalg.solve`, `linalg.inv` and `linalg.det` (their types: `grammar/src/check/linalg.rs`)
//! as the host operation `arr.linalg` (`arrayc_runtime::linalg`, an LU factorisation with partial
//! pivoting, LAPACK's `getrf` as NumPy calls it): the operands cast to the result's dtype where they
//! differ, a run-time check of the sizes the checker could not compare, and a new array for the
//! result. `inv(a)` is `solve(a, eye(n))`; `det(a)` reads its 0-d result on the host;
//! `matrix_power(a, k)` is repeated squaring with matrix products (`dot`), as NumPy's.
//!
//! `cholesky(a)`, `eigvalsh(a)` and `svd(a, compute_uv=False)` are `arr.linalg` of their own
//! functions; `matrix_rank(a)`, `cond(a)` and the matrix norms `linalg.norm(a, 2 | -2 | 'nuc')`
//! are composed from the singular values as NumPy composes them (`numpy/linalg/_linalg.py`).

use super::{LResult, Lowerer};
use arrayc_dialect::ir::{BinFn, ComputeFn, IndexEntry, LinAlgFn, OpKind, ReduceKind, Scalar, Type, UnFn, ValueId};
use arrayc_grammar::ast::{self, DType, Expr, ExprKind};
use arrayc_grammar::builtin::{Builtin, NormOrd};
use arrayc_grammar::check::literal_int;
use arrayc_grammar::types::{Size, Ty};

impl Lowerer<'_> {
    /// A call of `linalg.solve`, `linalg.inv` or `linalg.det` (`b`, checked: its type is `ty`):
    /// its value; `None` for the other builtins.
    pub(crate) fn linalg(
        &mut self,
        b: Builtin,
        args: &[Expr],
        kwargs: &[(ast::Ident, Expr)],
        ty: &Ty,
        e: &Expr,
    ) -> LResult<Option<ValueId>> {
        if b == Builtin::Pinv {
            return self.pinv(args, kwargs, ty).map(Some);
        }
        if matches!(b, Builtin::Cholesky | Builtin::Eigvalsh | Builtin::Svd | Builtin::MatrixRank | Builtin::Cond) {
            return self.factorisation(b, args, kwargs, ty, e).map(Some);
        }
        if !matches!(b, Builtin::Solve | Builtin::Inv | Builtin::Det | Builtin::MatrixPower) {
            return Ok(None);
        }
        let all_args = args;
        let args = if b == Builtin::MatrixPower { &args[..1] } else { args };
        let dt = ty.dtype().expect("checked: a float result");
        let mut vals = vec![];
        for a in args {
            let v = self.expr(a)?;
            let t = self.ty_of(a).clone();
            vals.push(self.as_dtype(v, &t, dt)?);
        }
        let a = vals[0];
        let (n, m) = (self.dim(a, 0), self.dim(a, 1));
        // The checked sizes: the run-time checks only where the checker could not compare them.
        let first = |l: &Self, e: &Expr| match l.ty_of(e) {
            Ty::Array(_, s) => s[0].clone(),
            _ => unreachable!("checked: an array"),
        };
        let a_shape = match self.ty_of(&args[0]) {
            Ty::Array(_, s) => s.clone(),
            _ => unreachable!("checked: an array"),
        };
        if a_shape[0] != a_shape[1] {
            self.assert_same_size(
                n,
                m,
                &format!("{}: LinAlgError: the last 2 dimensions of a must be square", b.name()),
            );
        }
        let v = match b {
            Builtin::Det => {
                let out = self.new_array(dt, vec![]);
                self.emit(OpKind::LinAlg { func: LinAlgFn::Det, out, a, b: None });
                self.load_element(out)
            }
            Builtin::Solve => {
                let rhs = vals[1];
                let Type::Array(_, rank) = self.f.ty(rhs) else { unreachable!("checked: an array") };
                let k = self.dim(rhs, 0);
                if first(self, &args[1]) != a_shape[0] {
                    self.assert_same_size(
                        n,
                        k,
                        "linalg.solve: b has {rhs} rows where a has {lhs} (NumPy's ValueError)",
                    );
                }
                let sizes = (0..rank).map(|axis| self.dim(rhs, axis)).collect();
                self.solve_into(a, rhs, sizes, ty)
            }
            Builtin::Inv => self.inverse(a, n, ty)?,
            _ => {
                let k = literal_int(&all_args[1]).expect("checked: an integer literal");
                self.matrix_power(a, n, k, &args[0], ty, e)?
            }
        };
        Ok(Some(v))
    }

    /// `inv(a)` of the `n x n` matrix `a` (of `ty`'s dtype): `solve(a, eye(n))`.
    fn inverse(&mut self, a: ValueId, n: ValueId, ty: &Ty) -> LResult<ValueId> {
        let eye = self.identity(n, ty)?;
        Ok(self.solve_into(a, eye, vec![n, n], ty))
    }

    /// The `n x n` identity of `ty` (its dtype and its two sizes as checked).
    fn identity(&mut self, n: ValueId, ty: &Ty) -> LResult<ValueId> {
        let Ty::Array(_, shape) = ty else { unreachable!("checked: a matrix") };
        let offsets = self.diagonal_offsets(n, n, shape.clone())?;
        let zero = self.i64_const(0);
        let on =
            self.array_op(ComputeFn::Binary(BinFn::Eq), vec![offsets, zero], &Ty::Array(DType::Bool, shape.clone()))?;
        self.array_op(ComputeFn::Copy, vec![on], ty)
    }

    /// `matrix_power(a, k)` of the `n x n` matrix `a` (`a_expr` its expression, for `dot`'s operand
    /// types), as NumPy's: the identity for `k = 0`, a copy of `a` for `k = 1`, else repeated
    /// squaring of `a` (of `inv(a)` for `k < 0`), the bits of `|k|` from the lowest, each product a
    /// matrix product ([`Lowerer::dot`]: the library's or the fused kernel).
    fn matrix_power(&mut self, a: ValueId, n: ValueId, k: i64, a_expr: &Expr, ty: &Ty, e: &Expr) -> LResult<ValueId> {
        if k == 0 {
            return self.identity(n, ty);
        }
        let mut p = if k < 0 { self.inverse(a, n, ty)? } else { a };
        if k == 1 {
            return self.array_op(ComputeFn::Copy, vec![p], ty);
        }
        let operands = [a_expr.clone(), a_expr.clone()];
        let mut result: Option<ValueId> = None;
        let mut bits = k.unsigned_abs();
        while bits > 0 {
            if bits & 1 == 1 {
                result = Some(match result {
                    None => p,
                    Some(r) => self.dot(r, p, &operands, ty, e)?,
                });
            }
            bits >>= 1;
            if bits > 0 {
                p = self.dot(p, p, &operands, ty, e)?;
            }
        }
        Ok(result.expect("|k| >= 2 has a bit set"))
    }

    /// `arr.linalg` `solve` of `a` and `rhs` (both of the result's dtype) into a new array of
    /// `sizes` (`rhs`'s), whose checked type is `ty`.
    fn solve_into(&mut self, a: ValueId, rhs: ValueId, sizes: Vec<ValueId>, ty: &Ty) -> ValueId {
        let dt = ty.dtype().expect("checked: a float result");
        let out = self.new_array(dt, sizes);
        if let Ty::Array(_, shape) = ty {
            self.shapes.insert(out, shape.clone());
        }
        self.emit(OpKind::LinAlg { func: LinAlgFn::Solve, out, a, b: Some(rhs) });
        out
    }
}

impl Lowerer<'_> {
    /// The matrix `args[0]` of a `linalg` call, converted to its float dtype (NumPy's: `f32`
    /// stays, anything else becomes `f64`), with that dtype and its checked shape.
    pub(crate) fn float_matrix(&mut self, arg: &Expr) -> LResult<(ValueId, DType, Vec<Size>)> {
        let t = self.ty_of(arg).clone();
        let Ty::Array(d, shape) = &t else { unreachable!("checked: a matrix") };
        let fd = if *d == DType::F32 { DType::F32 } else { DType::F64 };
        let v = self.expr(arg)?;
        Ok((self.as_dtype(v, &t, fd)?, fd, shape.clone()))
    }

    /// `cholesky(a)`, `eigvalsh(a)` (`UPLO='U'`: of `a.T`, whose lower triangle is `a`'s upper
    /// one), `svd(a, compute_uv=False)`, `matrix_rank(a)` and `cond(a)` (checked: their type is
    /// `ty`).
    fn factorisation(
        &mut self,
        b: Builtin,
        args: &[Expr],
        kwargs: &[(ast::Ident, Expr)],
        ty: &Ty,
        e: &Expr,
    ) -> LResult<ValueId> {
        let (a, fd, shape) = self.float_matrix(&args[0])?;
        let (n, m) = (self.dim(a, 0), self.dim(a, 1));
        let func = match b {
            Builtin::Cholesky => LinAlgFn::Cholesky,
            Builtin::Eigvalsh => LinAlgFn::Eigvalsh,
            Builtin::Svd => return Ok(self.singular_values(a, fd, Some(ty))),
            Builtin::MatrixRank => return self.matrix_rank(a, fd, e),
            _ => return self.cond(a, fd, e),
        };
        if shape[0] != shape[1] {
            self.assert_same_size(
                n,
                m,
                &format!("{}: LinAlgError: the last 2 dimensions of a must be square", b.name()),
            );
        }
        let upper = Self::kwarg(kwargs, "UPLO").is_some_and(|u| matches!(&u.kind, ExprKind::Var(w) if w.name == "U"));
        let a = if upper { self.transpose(a, vec![1, 0]) } else { a };
        let sizes = if func == LinAlgFn::Cholesky { vec![n, n] } else { vec![n] };
        let out = self.new_array(fd, sizes);
        if let Ty::Array(_, s) = ty {
            self.shapes.insert(out, s.clone());
        }
        self.emit(OpKind::LinAlg { func, out, a, b: None });
        Ok(out)
    }

    /// The singular values of the `m x n` matrix `a` (of float dtype `fd`), descending: a new
    /// 1-d array of size `min(m, n)` (`arr.linalg` `svdvals`); `ty` its checked type, where the
    /// program wrote `svd(a, compute_uv=False)`.
    pub(crate) fn singular_values(&mut self, a: ValueId, fd: DType, ty: Option<&Ty>) -> ValueId {
        let (n, m) = (self.dim(a, 0), self.dim(a, 1));
        let k = self.scalar_binary(BinFn::Minimum, n, m, DType::I64);
        let out = self.new_array(fd, vec![k]);
        if let Some(Ty::Array(_, s)) = ty {
            self.shapes.insert(out, s.clone());
        }
        self.emit(OpKind::LinAlg { func: LinAlgFn::Svdvals, out, a, b: None });
        out
    }

    /// `max(m, n) * eps` of the `m x n` `a` (`eps` of its float dtype `fd`), a scalar of `fd`:
    /// NumPy's default relative tolerance of `matrix_rank`, `pinv(rtol=None)` and `lstsq`.
    fn default_rtol(&mut self, a: ValueId, fd: DType) -> ValueId {
        let (n, m) = (self.dim(a, 0), self.dim(a, 1));
        let big = self.scalar_binary(BinFn::Maximum, n, m, DType::I64);
        let big = self.cast_scalar(big, fd);
        let eps = self.constant(if fd == DType::F32 { Scalar::F32(f32::EPSILON) } else { Scalar::F64(f64::EPSILON) });
        self.scalar_binary(BinFn::Mul, big, eps, fd)
    }

    /// NumPy 2.4's `pinv(a, rcond=None, *, rtol=<no value>)` of the `m x n` `a` (checked: of type
    /// `ty`, `n x m`): `arr.linalg` `pinv` with the 0-d cutoff `rcond` (positional or keyword) or
    /// `rtol` cast to `a`'s float dtype; `max(m, n) * eps` for `rtol=None`; `1e-15` when neither is
    /// given (NumPy's deprecated `rcond`'s default, which NumPy 2.4 still applies).
    fn pinv(&mut self, args: &[Expr], kwargs: &[(ast::Ident, Expr)], ty: &Ty) -> LResult<ValueId> {
        let (a, fd, _) = self.float_matrix(&args[0])?;
        let is_none = |v: &Expr| matches!(v.kind, ExprKind::NoneLit);
        let rcond = args.get(1).or(Self::kwarg(kwargs, "rcond")).filter(|v| !is_none(v));
        let rtol = Self::kwarg(kwargs, "rtol");
        let cutoff = match (rcond, rtol) {
            (Some(v), _) | (None, Some(v)) if !is_none(v) => {
                let x = self.expr(v)?;
                self.cast_scalar(x, fd)
            }
            (None, Some(_)) => self.default_rtol(a, fd),
            _ => self.constant(Scalar::F64(1e-15).cast(fd)),
        };
        Ok(self.pinv_of(a, cutoff, fd, ty.shape()))
    }

    /// `arr.linalg` `pinv` of the `m x n` `a` (float dtype `fd`) with the scalar cutoff `rtol`
    /// (of `fd`): a new `n x m` array, of checked shape `shape` where known.
    fn pinv_of(&mut self, a: ValueId, rtol: ValueId, fd: DType, shape: Option<&[Size]>) -> ValueId {
        let b = self.new_array(fd, vec![]);
        self.emit(OpKind::Compute { func: ComputeFn::Fill, out: b, ins: vec![rtol] });
        let (n, m) = (self.dim(a, 0), self.dim(a, 1));
        let out = self.new_array(fd, vec![m, n]);
        if let Some(s) = shape {
            self.shapes.insert(out, s.to_vec());
        }
        self.emit(OpKind::LinAlg { func: LinAlgFn::Pinv, out, a, b: Some(b) });
        out
    }

    /// NumPy's `matrix_rank(a)` of the `m x n` `a` (float dtype `fd`): the number of singular
    /// values `s > s.max(initial=0) * max(m, n) * eps` (`eps` of `fd`), an `i64`.
    fn matrix_rank(&mut self, a: ValueId, fd: DType, e: &Expr) -> LResult<ValueId> {
        let s = self.singular_values(a, fd, None);
        let rtol = self.default_rtol(a, fd);
        self.rank_above(s, rtol, fd, e)
    }

    /// The number of the singular values `s` (1-d, descending, of float dtype `fd`) that are
    /// `> s.max(initial=0) * rtol` (`rtol` a scalar of `fd`), an `i64`: NumPy's `matrix_rank`
    /// and the `rank` of `lstsq` (the values `pinv` keeps).
    fn rank_above(&mut self, s: ValueId, rtol: ValueId, fd: DType, e: &Expr) -> LResult<ValueId> {
        let k = self.dim(s, 0);
        // `s.max(initial=0)`: the singular values are not negative, so the maximum of `0` and
        // the largest; `0` for an empty `a`.
        let smax = self.reduction_of(ReduceKind::Max, s, None, &Ty::Scalar(fd), e, false)?;
        let smax = self.load_element(smax);
        let zero = self.constant(Scalar::F64(0.0).cast(fd));
        let smax = self.scalar_binary(BinFn::Maximum, smax, zero, fd);
        let tol = self.scalar_binary(BinFn::Mul, smax, rtol, fd);
        let above = self.compute_new(ComputeFn::Binary(BinFn::Gt), vec![s, tol], DType::Bool, vec![k], None);
        let ones = self.compute_new(ComputeFn::Copy, vec![above], DType::I64, vec![k], None);
        self.reduction(false, ReduceKind::Sum, ones, None, &Ty::Scalar(DType::I64), e)
    }

    /// NumPy's `cond(a)` (`p=None`, the 2-norm) of the `m x n` `a`: `s[0] / s[-1]` of its singular
    /// values, `inf` where both are `0` (NumPy turns that NaN into `inf`); an empty `a` is NumPy's
    /// `LinAlgError`, a run-time error.
    fn cond(&mut self, a: ValueId, fd: DType, e: &Expr) -> LResult<ValueId> {
        let s = self.singular_values(a, fd, None);
        let k = self.dim(s, 0);
        let zero_i = self.i64_const(0);
        let nonempty = self.scalar_binary(BinFn::Gt, k, zero_i, DType::I64);
        self.emit(OpKind::Assert {
            cond: nonempty,
            msg: "linalg.cond: LinAlgError: cond is not defined on empty arrays".into(),
        });
        let _ = e;
        let one = self.i64_const(1);
        let last = self.scalar_binary(BinFn::Sub, k, one, DType::I64);
        let first = self.view_with(s, vec![IndexEntry::At], vec![zero_i]);
        let first = self.load_element(first);
        let end = self.view_with(s, vec![IndexEntry::At], vec![last]);
        let end = self.load_element(end);
        let r = self.scalar_binary(BinFn::Div, first, end, fd);
        let zero = self.constant(Scalar::F64(0.0).cast(fd));
        let all_zero = self.scalar_binary(BinFn::Eq, first, zero, fd);
        let inf = self.constant(Scalar::F64(f64::INFINITY).cast(fd));
        Ok(self.scalar_select(all_zero, inf, r, fd))
    }

    /// NumPy's matrix norm `norm(x, ord)` of the 2-d `x` (already of the result's float dtype
    /// `fd`, checked type `xty`) for the orders other than the Frobenius norm: the largest
    /// (`One`) or smallest (`NegOne`) column sum of `abs(x)`, the same of the row sums (`Inf`,
    /// `NegInf`), the largest (`Two`) or smallest (`NegTwo`) singular value, their sum (`Nuc`). An
    /// empty maximum is `0.0` and an empty minimum NumPy's ValueError (a run-time error), as
    /// NumPy 2's.
    pub(crate) fn matrix_norm(&mut self, ord: NormOrd, x: ValueId, xty: &Ty, ty: &Ty, e: &Expr) -> LResult<ValueId> {
        let fd = ty.dtype().expect("checked: a float");
        let (kind, sums_along) = match ord {
            NormOrd::One => (ReduceKind::Max, Some(0)),
            NormOrd::NegOne => (ReduceKind::Min, Some(0)),
            NormOrd::Inf => (ReduceKind::Max, Some(1)),
            NormOrd::NegInf => (ReduceKind::Min, Some(1)),
            NormOrd::Two => (ReduceKind::Max, None),
            NormOrd::NegTwo => (ReduceKind::Min, None),
            NormOrd::Nuc => (ReduceKind::Sum, None),
            NormOrd::Fro => unreachable!("the default norm"),
        };
        let v = match sums_along {
            Some(axis) => {
                let Ty::Array(_, shape) = xty else { unreachable!("checked: a matrix") };
                let abs = self.array_op(ComputeFn::Unary(arrayc_dialect::ir::UnFn::Abs), vec![x], xty)?;
                let sums_ty = Ty::Array(fd, vec![shape[1 - axis].clone()]);
                self.reduction(false, ReduceKind::Sum, abs, Some(&[axis]), &sums_ty, e)?
            }
            None => self.singular_values(x, fd, None),
        };
        if kind != ReduceKind::Max {
            return self.reduction(false, kind, v, None, ty, e);
        }
        // NumPy's maximum of the (non-negative) sums or singular values has `initial=0`: `0.0`
        // for an empty matrix, where the minimum is a ValueError.
        let top = self.reduction_of(kind, v, None, ty, e, false)?;
        let top = self.load_element(top);
        let zero = self.constant(Scalar::F64(0.0).cast(fd));
        Ok(self.scalar_binary(BinFn::Maximum, top, zero, fd))
    }
}

impl Lowerer<'_> {
    /// The calls with several results: `eigh`, `qr`, `svd` (`compute_uv=True`) and `lstsq`
    /// (checked: their type is `ty`), and `polyfit`; `None` for the other builtins.
    pub(crate) fn linalg_results(
        &mut self,
        b: Builtin,
        args: &[Expr],
        kwargs: &[(ast::Ident, Expr)],
        ty: &Ty,
        e: &Expr,
    ) -> LResult<Option<Vec<ValueId>>> {
        let factors = matches!(b, Builtin::Eigh | Builtin::Qr) || (b == Builtin::Svd && matches!(ty, Ty::Tuple(_)));
        Ok(Some(match b {
            _ if factors => self.packed_factors(b, args, kwargs, ty)?,
            Builtin::Lstsq => self.lstsq(args, kwargs, ty, e)?,
            Builtin::Polyfit => vec![self.polyfit(args, ty, e)?],
            Builtin::Slogdet => self.slogdet(&args[0])?,
            _ => return Ok(None),
        }))
    }

    /// `slogdet(a)`, `(sign, logabsdet)`: one `arr.linalg` ([`LinAlgFn::Slogdet`]) writes both
    /// into a new `(2,)` array, whose elements are the results. As NumPy's `linalg` (its
    /// `_commonType`), an `f32` `a` is factorised in `f64` and the results rounded to `f32` (the
    /// sum of `n` logarithms in `f32` would lose digits NumPy keeps).
    fn slogdet(&mut self, arg: &Expr) -> LResult<Vec<ValueId>> {
        let (a, fd, shape) = self.float_matrix(arg)?;
        let a = self.as_dtype(a, &Ty::Array(fd, shape.clone()), DType::F64)?;
        if shape[0] != shape[1] {
            let (m, n) = (self.dim(a, 0), self.dim(a, 1));
            self.assert_same_size(m, n, "linalg.slogdet: LinAlgError: the last 2 dimensions of a must be square");
        }
        let two = self.i64_const(2);
        let out = self.new_array(DType::F64, vec![two]);
        self.emit(OpKind::LinAlg { func: LinAlgFn::Slogdet, out, a, b: None });
        Ok((0..2)
            .map(|k| {
                let at = self.i64_const(k);
                let v = self.view_with(out, vec![IndexEntry::At], vec![at]);
                let x = self.load_element(v);
                self.cast_scalar(x, fd)
            })
            .collect())
    }

    /// `eigh(a)` `(w, v)`, `qr(a)` `(q, r)` (or `r` alone) and `svd(a)` `(u, s, vh)`: one
    /// `arr.linalg` (`eigh`, `qr`, `svd`) writes a new packed array (the layouts of
    /// [`LinAlgFn::Eigh`], [`LinAlgFn::Qr`], [`LinAlgFn::Svd`]) and the results are views of it.
    fn packed_factors(
        &mut self,
        b: Builtin,
        args: &[Expr],
        kwargs: &[(ast::Ident, Expr)],
        ty: &Ty,
    ) -> LResult<Vec<ValueId>> {
        use IndexEntry::{At, Full};
        let (a, fd, shape) = self.float_matrix(&args[0])?;
        let (m, n) = (self.dim(a, 0), self.dim(a, 1));
        let k = self.scalar_binary(BinFn::Minimum, m, n, DType::I64);
        let one = self.i64_const(1);
        let zero = self.i64_const(0);
        let span = |l: &mut Self, src: ValueId, r0: ValueId, r1: ValueId, c1: ValueId| {
            let sl = IndexEntry::Slice { start: true, stop: true, step: false };
            l.view_with(src, vec![sl, sl], vec![r0, r1, zero, c1])
        };
        let results: Vec<Ty> = match ty {
            Ty::Tuple(ts) => ts.clone(),
            t => vec![t.clone()],
        };
        let vs = match b {
            Builtin::Eigh => {
                if shape[0] != shape[1] {
                    self.assert_same_size(m, n, "linalg.eigh: LinAlgError: the last 2 dimensions of a must be square");
                }
                let upper =
                    Self::kwarg(kwargs, "UPLO").is_some_and(|u| matches!(&u.kind, ExprKind::Var(w) if w.name == "U"));
                let a = if upper { self.transpose(a, vec![1, 0]) } else { a };
                let rows = self.scalar_binary(BinFn::Add, n, one, DType::I64);
                let out = self.new_array(fd, vec![rows, n]);
                self.emit(OpKind::LinAlg { func: LinAlgFn::Eigh, out, a, b: None });
                let w = self.view_with(out, vec![At, Full], vec![zero]);
                let v = span(self, out, one, rows, n);
                vec![w, v]
            }
            Builtin::Qr => {
                let mode = arrayc_grammar::builtin::qr_mode(Self::kwarg(kwargs, "mode"));
                let p = if mode == Some(arrayc_grammar::builtin::QrMode::Complete) { m } else { k };
                let rows = self.scalar_binary(BinFn::Add, m, p, DType::I64);
                let cols = self.scalar_binary(BinFn::Maximum, p, n, DType::I64);
                let out = self.new_array(fd, vec![rows, cols]);
                self.emit(OpKind::LinAlg { func: LinAlgFn::Qr, out, a, b: None });
                let q = span(self, out, zero, m, p);
                let r = span(self, out, m, rows, n);
                if mode == Some(arrayc_grammar::builtin::QrMode::R) {
                    vec![r]
                } else {
                    vec![q, r]
                }
            }
            _ => {
                let full = Self::kwarg(kwargs, "full_matrices")
                    .and_then(arrayc_grammar::builtin::bool_literal)
                    .unwrap_or(true);
                let (p, q) = if full { (m, n) } else { (k, k) };
                let m1 = self.scalar_binary(BinFn::Add, m, one, DType::I64);
                let rows = self.scalar_binary(BinFn::Add, m1, q, DType::I64);
                let cols = self.scalar_binary(BinFn::Maximum, p, n, DType::I64);
                let out = self.new_array(fd, vec![rows, cols]);
                self.emit(OpKind::LinAlg { func: LinAlgFn::Svd, out, a, b: None });
                let u = span(self, out, zero, m, p);
                let sl = IndexEntry::Slice { start: true, stop: true, step: false };
                let s = self.view_with(out, vec![At, sl], vec![m, zero, k]);
                let vh = span(self, out, m1, rows, n);
                vec![u, s, vh]
            }
        };
        for (v, t) in vs.iter().zip(&results) {
            if let Ty::Array(_, s) = t {
                self.shapes.insert(*v, s.clone());
            }
        }
        Ok(vs)
    }

    /// NumPy 2's `lstsq(a, b, rcond=None)` of the `m x n` `a` and `b` (`(m,)` or `(m, k)`),
    /// checked: of type `ty`, `(x, residuals, rank, s)`. `x = pinv(a, rcond) @ b` (the
    /// minimum-norm solution that LAPACK's `gelsd` computes, by the same SVD cutoff), `rank` the
    /// singular values above the cutoff (an `i32`, as NumPy's), `s` `a`'s singular values, `residuals` the column sums of
    /// `(b - a @ x)**2` (`(1,)` for a 1-d `b`) where `rank == n` and `m > n`, else an empty view.
    fn lstsq(&mut self, args: &[Expr], kwargs: &[(ast::Ident, Expr)], ty: &Ty, e: &Expr) -> LResult<Vec<ValueId>> {
        use IndexEntry::{Full, NewAxis};
        let Ty::Tuple(ts) = ty else { unreachable!("checked: lstsq's four results") };
        let (a, fd, sa) = self.float_matrix(&args[0])?;
        let tb = self.ty_of(&args[1]).clone();
        let Ty::Array(_, sb) = &tb else { unreachable!("checked: b an array") };
        let bv = self.expr(&args[1])?;
        let bv = self.as_dtype(bv, &tb, fd)?;
        let (m, n) = (self.dim(a, 0), self.dim(a, 1));
        if sb[0] != sa[0] {
            let rows = self.dim(bv, 0);
            self.assert_same_size(m, rows, "linalg.lstsq: b has {rhs} rows where a has {lhs} (NumPy's LinAlgError)");
        }
        let is_none = |v: &Expr| matches!(v.kind, ExprKind::NoneLit);
        let rtol = match args.get(2).or(Self::kwarg(kwargs, "rcond")).filter(|v| !is_none(v)) {
            Some(v) => {
                let x = self.expr(v)?;
                self.cast_scalar(x, fd)
            }
            None => self.default_rtol(a, fd),
        };
        let s = self.singular_values(a, fd, Some(&ts[3]));
        let rank = self.rank_above(s, rtol, fd, e)?;
        let pinv = self.pinv_of(a, rtol, fd, None);
        let p_shape = vec![sa[1].clone(), sa[0].clone()];
        let x = self.dot_of(pinv, bv, p_shape, sb.clone(), &ts[0], e)?;
        // The residuals, of `b` and `x` as matrices (a 1-d `b` one column).
        let one_col = |l: &mut Self, v: ValueId, s: &[Size]| match s.len() {
            1 => (l.view_with(v, vec![Full, NewAxis], vec![]), vec![s[0].clone(), Size::lit(1)]),
            _ => (v, s.to_vec()),
        };
        let (b2, sb2) = one_col(self, bv, sb);
        let Ty::Array(_, sx) = &ts[0] else { unreachable!("checked: x an array") };
        let (x2, sx2) = one_col(self, x, sx);
        let ax_ty = Ty::Array(fd, sb2.clone());
        let ax = self.dot_of(a, x2, sa.clone(), sx2, &ax_ty, e)?;
        let r = self.array_op(ComputeFn::Binary(BinFn::Sub), vec![b2, ax], &ax_ty)?;
        let r2 = self.array_op(ComputeFn::Binary(BinFn::Mul), vec![r, r], &ax_ty)?;
        let all = self.reduction(false, ReduceKind::Sum, r2, Some(&[0]), &Ty::Array(fd, vec![sb2[1].clone()]), e)?;
        let cols = self.dim(all, 0);
        let full_rank = self.scalar_binary(BinFn::Eq, rank, n, DType::I64);
        let tall = self.scalar_binary(BinFn::Gt, m, n, DType::I64);
        let zero = self.i64_const(0);
        let some = self.scalar_select(tall, cols, zero, DType::I64);
        let count = self.scalar_select(full_rank, some, zero, DType::I64);
        let residuals =
            self.view_with(all, vec![IndexEntry::Slice { start: false, stop: true, step: false }], vec![count]);
        // NumPy's `rank` is LAPACK's `int32` (checked: `ts[2]`).
        let rank = self.cast_scalar(rank, DType::I32);
        Ok(vec![x, residuals, rank, s])
    }

    /// NumPy's `polyfit(x, y, deg)` (checked: of type `ty`, `f64`, `deg` a literal): `lstsq` of the
    /// (`f64`) Vandermonde matrix `vander(x, deg + 1)` with its columns divided by their 2-norms, `rcond =
    /// len(x) * eps` (of `x`'s float dtype), and the solution divided by the same norms
    /// (`numpy/lib/_polynomial_impl.py`).
    fn polyfit(&mut self, args: &[Expr], ty: &Ty, e: &Expr) -> LResult<ValueId> {
        use IndexEntry::{Full, NewAxis};
        let Ty::Array(fd, sc) = ty else { unreachable!("checked: the coefficients") };
        let fd = *fd;
        let deg = literal_int(&args[2]).expect("checked: an integer literal");
        let tx = self.ty_of(&args[0]).clone();
        let Ty::Array(xd, sx) = &tx else { unreachable!("checked: x 1-d") };
        let xf = if *xd == DType::F32 { DType::F32 } else { DType::F64 };
        let x = self.expr(&args[0])?;
        let x = self.as_dtype(x, &tx, xf)?;
        let ty_y = self.ty_of(&args[1]).clone();
        let Ty::Array(_, sy) = &ty_y else { unreachable!("checked: y an array") };
        let y = self.expr(&args[1])?;
        let y = self.as_dtype(y, &ty_y, fd)?;
        let (npts, rows) = (self.dim(x, 0), self.dim(y, 0));
        if sx[0] != sy[0] {
            self.assert_same_size(npts, rows, "polyfit: expected x and y to have the same length ({lhs} and {rhs})");
        }
        let order = self.i64_const(deg + 1);
        let vshape = vec![sx[0].clone(), sc[0].clone()];
        // NumPy's `vander` of an `f32` `x` is `f64` (its dtype promoted with `int`), as `fd`.
        let lhs = self.vander(x, Some(order), false, &Ty::Array(fd, vshape.clone()));
        let vty = Ty::Array(fd, vshape.clone());
        let sq = self.array_op(ComputeFn::Binary(BinFn::Mul), vec![lhs, lhs], &vty)?;
        let cty = Ty::Array(fd, vec![sc[0].clone()]);
        let sums = self.reduction(false, ReduceKind::Sum, sq, Some(&[0]), &cty, e)?;
        let scale = self.array_op(ComputeFn::Unary(UnFn::Sqrt), vec![sums], &cty)?;
        let scale_row = self.view_with(scale, vec![NewAxis, Full], vec![]);
        let scaled = self.array_op(ComputeFn::Binary(BinFn::Div), vec![lhs, scale_row], &vty)?;
        // `rcond = len(x) * eps` of `x`'s float dtype, in the result's.
        let eps = self.constant(if xf == DType::F32 { Scalar::F32(f32::EPSILON) } else { Scalar::F64(f64::EPSILON) });
        let len = self.cast_scalar(npts, xf);
        let rcond = self.scalar_binary(BinFn::Mul, len, eps, xf);
        let rcond = self.cast_scalar(rcond, fd);
        let pinv = self.pinv_of(scaled, rcond, fd, None);
        let c = self.dot_of(pinv, y, vec![sc[0].clone(), sx[0].clone()], sy.clone(), ty, e)?;
        let scale_b = if sc.len() == 2 { self.view_with(scale, vec![Full, NewAxis], vec![]) } else { scale };
        self.array_op(ComputeFn::Binary(BinFn::Div), vec![c, scale_b], ty)
    }
}

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
use arrayc_dialect::ir::{BinFn, ComputeFn, IndexEntry, LinAlgFn, OpKind, ReduceKind, Scalar, Type, ValueId};
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
        let b = self.new_array(fd, vec![]);
        self.emit(OpKind::Compute { func: ComputeFn::Fill, out: b, ins: vec![cutoff] });
        let (n, m) = (self.dim(a, 0), self.dim(a, 1));
        let out = self.new_array(fd, vec![m, n]);
        if let Ty::Array(_, s) = ty {
            self.shapes.insert(out, s.clone());
        }
        self.emit(OpKind::LinAlg { func: LinAlgFn::Pinv, out, a, b: Some(b) });
        Ok(out)
    }

    /// NumPy's `matrix_rank(a)` of the `m x n` `a` (float dtype `fd`): the number of singular
    /// values `s > s.max(initial=0) * max(m, n) * eps` (`eps` of `fd`), an `i64`.
    fn matrix_rank(&mut self, a: ValueId, fd: DType, e: &Expr) -> LResult<ValueId> {
        let s = self.singular_values(a, fd, None);
        let k = self.dim(s, 0);
        // `s.max(initial=0)`: the singular values are not negative, so the maximum of `0` and
        // the largest; `0` for an empty `a`.
        let smax = self.reduction_of(ReduceKind::Max, s, None, &Ty::Scalar(fd), e, false)?;
        let smax = self.load_element(smax);
        let zero = self.constant(Scalar::F64(0.0).cast(fd));
        let smax = self.scalar_binary(BinFn::Maximum, smax, zero, fd);
        let rtol = self.default_rtol(a, fd);
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

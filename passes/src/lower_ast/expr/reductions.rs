//! Reductions (`sum`, `prod`, `min`, `max`, `mean`, `any`, `all`, over one axis, a tuple of axes
//! or all), `keepdims`, `count_nonzero`, the moments (`var`, `std`), and the arg-reductions and
//! scans (`argmin`, `argmax`, `cumsum`, `cumprod`).

use super::retyped;
use crate::lower_ast::{LResult, Lowerer};
use arrayc_dialect::ir::{BinFn, ComputeFn, IndexEntry, OpKind, ReduceKind, Scalar, Type, UnFn, ValueId};
use arrayc_grammar::ast::{self, DType, Expr, ExprKind};
use arrayc_grammar::builtin::Builtin;
use arrayc_grammar::types::{Size, Ty};

/// The reduction a reduction builtin computes (`mean`: a sum, then divided); `None` for the other
/// builtins.
pub(super) fn reduce_kind(b: Builtin) -> Option<ReduceKind> {
    Some(match b {
        Builtin::Sum | Builtin::Mean => ReduceKind::Sum,
        Builtin::Prod => ReduceKind::Prod,
        Builtin::Min => ReduceKind::Min,
        Builtin::Max => ReduceKind::Max,
        _ => return None,
    })
}

impl Lowerer<'_> {
    /// NumPy's `keepdims=true` of reduction `b` (of type `ty`, the reduced axes of size 1): the
    /// reduction (`kwargs` without `keepdims=`), then a view with a new axis at each reduced
    /// position; a reduction of every axis (a scalar) fills a new array of shape `(1, .., 1)`.
    pub(super) fn keep_dims(
        &mut self,
        b: Builtin,
        args: &[Expr],
        kwargs: &[(ast::Ident, Expr)],
        ty: &Ty,
        e: &Expr,
    ) -> LResult<ValueId> {
        use IndexEntry::{Full, NewAxis};
        let (Ty::Array(d, shape), Ty::Array(..)) = (ty, self.ty_of(&args[0])) else {
            return Ok(self.builtin_call(b, args, kwargs, ty, e)?[0]);
        };
        let lead = b.leading_axes(args.get(1).is_some_and(|q| self.ty_of(q).is_array()));
        let r = shape.len() - lead;
        let reduced = self.axes_of_rank(kwargs, r)?.unwrap_or_else(|| (0..r).collect());
        let kept: Vec<Size> = shape[..lead]
            .iter()
            .cloned()
            .chain((0..r).filter(|k| !reduced.contains(k)).map(|k| shape[lead + k].clone()))
            .collect();
        let inner_ty = if kept.is_empty() { Ty::Scalar(*d) } else { Ty::Array(*d, kept) };
        let v = self.builtin_call(b, args, kwargs, &inner_ty, e)?[0];
        if let Type::Array(..) = self.f.ty(v) {
            let entries =
                (0..lead).map(|_| Full).chain((0..r).map(|k| if reduced.contains(&k) { NewAxis } else { Full }));
            return Ok(self.expand(v, entries.collect()));
        }
        let ones = (0..r).map(|_| self.i64_const(1)).collect();
        let out = self.new_array(*d, ones);
        self.emit(OpKind::Compute { func: ComputeFn::Fill, out, ins: vec![v] });
        Ok(out)
    }

    /// The `axis=` keyword of a call on array `x` that takes one axis, negative counting from the
    /// end (the checker checked the range); `None` without one.
    pub(crate) fn axis_kwarg(&self, kwargs: &[(ast::Ident, Expr)], x: ValueId) -> LResult<Option<usize>> {
        Ok(self.axes_kwarg(kwargs, x)?.and_then(|axes| axes.first().copied()))
    }

    /// The `axis=` keyword of a reduction of array `x`: one axis or a tuple of them (as the
    /// checker checked: in range, distinct), each negative one counting from the end; `None`
    /// without one.
    pub(crate) fn axes_kwarg(&self, kwargs: &[(ast::Ident, Expr)], x: ValueId) -> LResult<Option<Vec<usize>>> {
        let rank = match self.f.ty(x) {
            Type::Array(_, r) => r,
            Type::Scalar(_) => 0,
        };
        self.axes_of_rank(kwargs, rank)
    }

    /// [`axes_kwarg`](Self::axes_kwarg) of an array of rank `rank`.
    pub(super) fn axes_of_rank(&self, kwargs: &[(ast::Ident, Expr)], rank: usize) -> LResult<Option<Vec<usize>>> {
        let Some(a) = Self::kwarg(kwargs, "axis") else { return Ok(None) };
        let items: Vec<&Expr> = match &a.kind {
            ExprKind::Tuple(items) => items.iter().collect(),
            _ => vec![a],
        };
        let rank = rank as i64;
        let mut axes = vec![];
        for item in items {
            let k = self.const_int(item)?;
            axes.push(if k < 0 { k + rank } else { k } as usize);
        }
        Ok(Some(axes))
    }

    /// The reduction `kind` of `x`, along `axes` (distinct) or of every element (`None`), of
    /// checked type `ty`; with `mean`, divided by the number of elements each result reduces.
    /// Several axes are reduced one after the other, the highest first (so that each of the others
    /// keeps its index): one `arr` reduction each.
    pub(crate) fn reduction(
        &mut self,
        mean: bool,
        kind: ReduceKind,
        x: ValueId,
        axes: Option<&[usize]>,
        ty: &Ty,
        e: &Expr,
    ) -> LResult<ValueId> {
        let out = self.reduction_of(kind, x, axes, ty, e, true)?;
        let dt = ty.dtype().unwrap();
        let count = if mean {
            let n = self.reduced_count(x, axes);
            Some(self.cast_scalar(n, dt))
        } else {
            None
        };
        if ty.is_array() {
            if let Some(n) = count {
                self.emit(OpKind::Compute { func: ComputeFn::Binary(BinFn::Div), out, ins: vec![out, n] });
            }
            return Ok(out);
        }
        let s = self.load_element(out);
        Ok(match count {
            Some(n) => self.scalar_binary(BinFn::Div, s, n, dt),
            None => s,
        })
    }

    /// NumPy's `mean(x, where=m)` of checked type `ty`: the sum of `x` (already 0 where `m` is
    /// false) divided by the number of elements selected (`ones`: `i64`, 1 where `m` is true, of
    /// `x`'s shape), along `axes` (all: `None`), in `ty`'s dtype; NaN where none is (0 / 0, where
    /// NumPy warns).
    pub(super) fn masked_mean(
        &mut self,
        x: ValueId,
        ones: ValueId,
        axes: Option<&[usize]>,
        ty: &Ty,
        e: &Expr,
    ) -> LResult<ValueId> {
        let sum = self.reduction(false, ReduceKind::Sum, x, axes, ty, e)?;
        let cty = retyped(ty, DType::I64);
        let count = self.reduction(false, ReduceKind::Sum, ones, axes, &cty, e)?;
        let dt = ty.dtype().expect("checked: a number");
        if ty.is_array() {
            let count = self.as_dtype(count, &cty, dt)?;
            return self.binary(BinFn::Div, sum, count, ty);
        }
        let count = self.cast_scalar(count, dt);
        Ok(self.scalar_binary(BinFn::Div, sum, count, dt))
    }

    /// The reduction `kind` of `x` as [`reduction`](Self::reduction) describes it, without the
    /// mean's division, as an array (0-d for a reduction of every element); `nonempty`: a `min`/`max` first checks at run time that it reduces some
    /// element (NumPy's ValueError), else (an `initial=` follows) an empty one gives the identity.
    pub(crate) fn reduction_of(
        &mut self,
        kind: ReduceKind,
        x: ValueId,
        axes: Option<&[usize]>,
        ty: &Ty,
        e: &Expr,
        nonempty: bool,
    ) -> LResult<ValueId> {
        if !self.f.ty(x).is_array() {
            return Err(self.error("E0911", &e.span, "reduction of a scalar", "reductions take an array"));
        }
        let dt = ty.dtype().unwrap();
        if nonempty && matches!(kind, ReduceKind::Min | ReduceKind::Max) {
            // NumPy raises when `min`/`max` (no identity) reduce an empty axis or array.
            let n = self.reduced_count(x, axes);
            let zero = self.i64_const(0);
            let nonempty = self.scalar_binary(BinFn::Gt, n, zero, DType::I64);
            let op = if kind == ReduceKind::Min { "minimum" } else { "maximum" };
            self.emit(OpKind::Assert {
                cond: nonempty,
                msg: format!("zero-size array to reduction operation {op} which has no identity"),
            });
        }
        let steps: Vec<Option<usize>> = match axes {
            None => vec![None],
            Some(axes) => {
                let mut axes = axes.to_vec();
                axes.sort_unstable_by(|a, b| b.cmp(a));
                axes.into_iter().map(Some).collect()
            }
        };
        let mut out = x;
        for step in steps {
            let Type::Array(_, rank) = self.f.ty(out) else { unreachable!("a reduction along an axis is an array") };
            if let Some((src, perm, a)) = step.and_then(|a| self.transposed_last_axis(out, a)) {
                // Along the last axis of a transpose (`sum(x.T, axis=1)`): the same elements of
                // `src` along its axis `perm[a]`, whose kernel walks `src`'s rows contiguously
                // (a row-major `src`'s last axis is not reduced), then the other axes permuted as
                // the transpose had them (a view; none for rank 2).
                let b = perm[a];
                let sizes: Vec<ValueId> = (0..rank).filter(|&d| d != b).map(|d| self.dim(src, d)).collect();
                let red = self.new_array(dt, sizes);
                self.emit(OpKind::Compute { func: ComputeFn::Reduce(kind, Some(b)), out: red, ins: vec![src] });
                let rest: Vec<usize> = perm.iter().filter(|&&p| p != b).map(|&p| p - usize::from(p > b)).collect();
                out = if rest.iter().enumerate().all(|(i, &p)| i == p) { red } else { self.transpose(red, rest) };
                continue;
            }
            let sizes: Vec<ValueId> = match step {
                Some(a) => (0..rank).filter(|&d| d != a).map(|d| self.dim(out, d)).collect(),
                None => vec![],
            };
            let next = self.new_array(dt, sizes);
            self.emit(OpKind::Compute { func: ComputeFn::Reduce(kind, step), out: next, ins: vec![out] });
            out = next;
        }
        Ok(out)
    }

    /// `(src, perm, a)` when `v` is `arr.transpose(src, perm)` of the current body and `a` is its
    /// last axis but not `src`'s (the reduction that [`reduction`](Self::reduction) turns into one
    /// along `src`'s axis `perm[a]`); else `None`.
    pub(super) fn transposed_last_axis(&self, v: ValueId, a: usize) -> Option<(ValueId, Vec<usize>, usize)> {
        self.bodies.last()?.iter().rev().find_map(|op| match &op.kind {
            OpKind::Transpose { res, src, perm } if *res == v && a + 1 == perm.len() && perm[a] != a => {
                Some((*src, perm.clone(), a))
            }
            _ => None,
        })
    }

    /// The number of elements of array `x` that each result of a reduction along `axes` (of every
    /// element: `None`) reduces, an `i64` on the host.
    pub(crate) fn reduced_count(&mut self, x: ValueId, axes: Option<&[usize]>) -> ValueId {
        let rank = match self.f.ty(x) {
            Type::Array(_, r) => r,
            Type::Scalar(_) => 0,
        };
        let all: Vec<usize> = (0..rank).collect();
        let axes = axes.unwrap_or(&all);
        if let [a] = axes {
            return self.dim(x, *a);
        }
        let mut n = self.i64_const(1);
        for &d in axes {
            let s = self.dim(x, d);
            n = self.scalar_binary(BinFn::Mul, n, s, DType::I64);
        }
        n
    }

    /// `any(x)`, `all(x)`, `count_nonzero(x)` (NumPy's), of every element or along `axes`: the
    /// number of elements with `x != 0` (for `all`, `x == 0`), a sum of bools, then compared with 0
    /// for `any` (`> 0`) and `all` (`== 0`). NaN is nonzero. `arg`: `x`'s expression; `ty`: the
    /// checked result type.
    pub(super) fn nonzero_reduction(
        &mut self,
        b: Builtin,
        x: ValueId,
        arg: &Expr,
        axes: Option<&[usize]>,
        ty: &Ty,
        e: &Expr,
    ) -> LResult<ValueId> {
        let xd = self.f.ty(x).dtype();
        let zero = self.constant(Scalar::I64(0).cast(xd));
        let cmp = if b == Builtin::All { BinFn::Eq } else { BinFn::Ne };
        let xty = retyped(self.ty_of(arg), DType::Bool);
        let m = self.binary(cmp, x, zero, &xty)?;
        let count = self.reduction(false, ReduceKind::Sum, m, axes, &retyped(ty, DType::I64), e)?;
        let zero = self.i64_const(0);
        match b {
            Builtin::Any => self.binary(BinFn::Gt, count, zero, ty),
            Builtin::All => self.binary(BinFn::Eq, count, zero, ty),
            _ => Ok(count),
        }
    }

    /// `var(x)` and `std(x)` (NumPy's, `ddof` 0 unless given), of every element or along `axes`:
    /// NumPy's two passes, `m = mean(x)` (along `axes`, then viewed with size-1 axes in their place
    /// to broadcast against `x`), `sum((x - m) * (x - m)) / max(n - ddof, 0)`, and for `std` its
    /// square root. Computed in the result's float dtype (`x` converted first).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn moment(
        &mut self,
        b: Builtin,
        x: ValueId,
        arg: &Expr,
        axes: Option<&[usize]>,
        ddof: Option<ValueId>,
        ty: &Ty,
        e: &Expr,
    ) -> LResult<ValueId> {
        let Type::Array(xd, rank) = self.f.ty(x) else {
            return Err(self.error("E0911", &e.span, "reduction of a scalar", "reductions take an array"));
        };
        let dt = ty.dtype().expect("checked: a float");
        let xty = retyped(self.ty_of(arg), dt);
        let xf = if xd == dt { x } else { self.array_op(ComputeFn::Copy, vec![x], &xty)? };
        let m = self.reduction(true, ReduceKind::Sum, xf, axes, ty, e)?;
        let m = match axes {
            Some(axes) if ty.is_array() => {
                let entry = |d| if axes.contains(&d) { IndexEntry::NewAxis } else { IndexEntry::Full };
                self.expand(m, (0..rank).map(entry).collect())
            }
            _ => m,
        };
        let d = self.binary(BinFn::Sub, xf, m, &xty)?;
        let sq = self.array_op(ComputeFn::Binary(BinFn::Mul), vec![d, d], &xty)?;
        let s = self.reduction(false, ReduceKind::Sum, sq, axes, ty, e)?;
        let mut n = self.reduced_count(x, axes);
        if let Some(k) = ddof {
            let k = self.cast_scalar(k, DType::I64);
            n = self.scalar_binary(BinFn::Sub, n, k, DType::I64);
            let zero = self.i64_const(0);
            n = self.scalar_binary(BinFn::Maximum, n, zero, DType::I64);
        }
        let n = self.cast_scalar(n, dt);
        let var = self.binary(BinFn::Div, s, n, ty)?;
        if b == Builtin::Std {
            return self.elementwise(ComputeFn::Unary(UnFn::Sqrt), vec![var], ty, e);
        }
        Ok(var)
    }

    /// Python's builtin `min(a, b, ...)` / `max(a, b, ...)` of scalars (`b` is `Min` or `Max`;
    /// [`arrayc_grammar::builtin::python_min_max`]): each argument evaluated once, in order, and
    /// cast to the checked dtype; then, as Python's, the running result is replaced only by a
    /// later argument that is smaller (`min`) or larger (`max`): `acc = v < acc ? v : acc`. So the
    /// first of equal values wins, and a NaN is kept only when it comes first, as in Python.
    pub(super) fn python_min_max(&mut self, b: Builtin, args: &[Expr], ty: &Ty) -> LResult<ValueId> {
        let dt = ty.dtype().expect("checked: a scalar");
        let better = if b == Builtin::Min { BinFn::Lt } else { BinFn::Gt };
        let mut acc: Option<ValueId> = None;
        for a in args {
            let v = self.expr(a)?;
            // A Python int beside a narrower integer (`min(k, x_u8[0])`): one beyond the side
            // the extreme is taken from is never picked, one beyond the other is NumPy's own int.
            let v = self.fit_python_int(a, v, dt, [b == Builtin::Max, b == Builtin::Min]);
            let v = self.cast_scalar(v, dt);
            acc = Some(match acc {
                None => v,
                Some(acc) => {
                    let cond = self.scalar_binary(better, v, acc, dt);
                    let res = self.value(Type::Scalar(dt), None);
                    self.emit(OpKind::Select { res, cond, lhs: v, rhs: acc });
                    res
                }
            });
        }
        Ok(acc.expect("checked: two or more arguments"))
    }

    /// `argmin(x)` / `argmax(x)` (`kind` Min or Max), along `axis` or over the flattened `x`
    /// (the row-major position), with NumPy's rules: the first occurrence of the extreme value
    /// wins, a NaN is the extreme value (the first NaN wins), and an empty extent is a run-time
    /// error (checked here). One arg-reduction, [`ReduceKind::ArgMin`]/[`ReduceKind::ArgMax`]:
    /// the CPU kernels run it in one pass over everything and along the last axis; the pass
    /// `expand-arg-reductions` composes it elsewhere (`crate::expand_arg_reductions`).
    pub(crate) fn arg_reduction(
        &mut self,
        kind: ReduceKind,
        x: ValueId,
        axis: Option<usize>,
        ty: &Ty,
        e: &Expr,
    ) -> LResult<ValueId> {
        let (Type::Array(_, r), Some(res_dt)) = (self.f.ty(x), ty.dtype()) else {
            unreachable!("the checker types an arg-reduction of an array as i64")
        };
        let sizes: Vec<ValueId> = (0..r).map(|a| self.dim(x, a)).collect();
        // The number of candidates per result: the axis, or every element.
        let mut n = self.i64_const(1);
        for (a, &s) in sizes.iter().enumerate() {
            if axis.is_none_or(|k| k == a) {
                n = self.scalar_binary(BinFn::Mul, n, s, DType::I64);
            }
        }
        let zero = self.i64_const(0);
        let nonempty = self.scalar_binary(BinFn::Gt, n, zero, DType::I64);
        let name = if kind == ReduceKind::Min { "argmin" } else { "argmax" };
        self.emit(OpKind::Assert { cond: nonempty, msg: format!("attempt to get {name} of an empty sequence") });
        // One `arr.reduce {kind = "argmin"}`: the CPU kernels run it in one pass where they can;
        // `expand-arg-reductions` composes it of a `min` and a position search elsewhere.
        let arg = if kind == ReduceKind::Min { ReduceKind::ArgMin } else { ReduceKind::ArgMax };
        let res_ty = match ty {
            Ty::Array(_, s) => Ty::Array(res_dt, s.clone()),
            _ => Ty::Scalar(res_dt),
        };
        self.reduction(false, arg, x, axis.as_ref().map(std::slice::from_ref), &res_ty, e)
    }
}

//! NumPy's index functions built from gathers and scatters (their types:
//! `grammar/src/check/builtins/indexing.rs`): `take_along_axis` (a gather through one index array
//! per axis: the given indices along the chosen axis, `arange`s along the others, as NumPy's
//! `_make_along_axis_idx` builds them), `put_along_axis` (the scatter through the same index
//! arrays) and `ravel_multi_index` (elementwise, after a bounds check).

use super::{LResult, Lowerer};
use arrayc_dialect::ir::{
    BinFn, ComputeFn, IndexEntry, OpKind, ReduceKind, Scalar, ScatterKind, ScatterMode, Type, ValueId,
};
use arrayc_grammar::ast::{self, DType, Expr};
use arrayc_grammar::builtin::Builtin;
use arrayc_grammar::types::Ty;

impl Lowerer<'_> {
    /// A call of `take_along_axis`, `put_along_axis` or `ravel_multi_index` (checked: its type is
    /// `ty`): its values (none for the statement `put_along_axis`); `None` for other builtins.
    pub(crate) fn along_axis(
        &mut self,
        b: Builtin,
        args: &[Expr],
        kwargs: &[(ast::Ident, Expr)],
        ty: &Ty,
        e: &Expr,
    ) -> LResult<Option<Vec<ValueId>>> {
        Ok(Some(match b {
            Builtin::TakeAlongAxis => {
                let x = self.expr(&args[0])?;
                let indices = self.along_axis_indices(x, &args[1], kwargs)?;
                let Ty::Array(dt, shape) = ty else { unreachable!("checked: a gather gives an array") };
                vec![self.gather(x, &indices, 0, *dt, shape, Some(shape))]
            }
            Builtin::PutAlongAxis => {
                let x = self.expr(&args[0])?;
                let indices = self.along_axis_indices(x, &args[1], kwargs)?;
                let v = self.expr(&args[2])?;
                let Some(Ty::Array(_, shape)) = self.checked.target_types.get(&args[2].id).cloned() else {
                    unreachable!("the checker typed the scatter's target")
                };
                self.scatter(x, &indices, Some(&shape), v, ScatterKind::Set, ScatterMode::Raise);
                vec![]
            }
            Builtin::RavelMultiIndex => vec![self.ravel_multi_index(args, ty, e)?],
            Builtin::FillDiagonal => {
                self.fill_diagonal(args)?;
                vec![]
            }
            _ => return Ok(None),
        }))
    }

    /// NumPy's statement `fill_diagonal(a, val)` (`wrap=False`, NumPy's `a.flat[:end:step] = val`;
    /// checked: `grammar/src/check/builtins/indexing.rs`): the scatter `a[i, i, ..] = v[i % p]` for
    /// `i` in `[0, len)`, `len` the smaller size of a 2-d `a` (its diagonal, tall or wide) or the
    /// common size of a higher-rank `a` (a run-time check that every size is equal, NumPy's
    /// ValueError). `v` is `val` flattened and converted to `a`'s dtype (`p` elements), gathered
    /// cyclically (NumPy's flat assignment repeats the value); an empty `v` writes nothing, as
    /// NumPy's; a scalar is written as it is, converted.
    fn fill_diagonal(&mut self, args: &[Expr]) -> LResult<()> {
        let a = self.expr(&args[0])?;
        let Type::Array(dt, r) = self.f.ty(a) else { unreachable!("checked: an array of rank 2 or more") };
        let Some(Ty::Array(_, diag)) = self.checked.target_types.get(&args[1].id).cloned() else {
            unreachable!("the checker typed the diagonal")
        };
        let sizes: Vec<ValueId> = (0..r).map(|d| self.dim(a, d)).collect();
        let mut len = if r == 2 {
            self.scalar_binary(BinFn::Minimum, sizes[0], sizes[1], DType::I64)
        } else {
            for &s in &sizes[1..] {
                let msg = "fill_diagonal: All dimensions of input must be of equal length".to_string();
                self.assert_equal_sizes(sizes[0], s, msg);
            }
            sizes[0]
        };
        let v = self.expr(&args[1])?;
        let value = if self.f.ty(v).is_array() {
            let flat = self.flat(v);
            let p = self.dim(flat, 0);
            // `len * p` is 0 for an empty `val`, else at least `len`: nothing written, or all.
            let none_or_all = self.scalar_binary(BinFn::Mul, len, p, DType::I64);
            len = self.scalar_binary(BinFn::Minimum, len, none_or_all, DType::I64);
            let flat = self.compute_new(ComputeFn::Copy, vec![flat], dt, vec![p], None);
            let (zero, one) = (self.i64_const(0), self.i64_const(1));
            let i = self.compute_new(ComputeFn::Arange, vec![zero, one], DType::I64, vec![len], Some(diag.as_slice()));
            let cyclic = self.compute_new(
                ComputeFn::Binary(BinFn::Rem),
                vec![i, p],
                DType::I64,
                vec![len],
                Some(diag.as_slice()),
            );
            self.gather(flat, &[cyclic], 0, dt, &diag, Some(diag.as_slice()))
        } else {
            match self.f.ty(v) {
                // To bool as NumPy converts: nonzero (a scalar cast would reinterpret the bits).
                Type::Scalar(vd) if dt == DType::Bool && vd != DType::Bool => {
                    let zero = self.constant(Scalar::I64(0).cast(vd));
                    self.scalar_binary(BinFn::Ne, v, zero, vd)
                }
                _ => self.cast_scalar(v, dt),
            }
        };
        let (zero, one) = (self.i64_const(0), self.i64_const(1));
        let i = self.compute_new(ComputeFn::Arange, vec![zero, one], DType::I64, vec![len], Some(diag.as_slice()));
        self.scatter(a, &vec![i; r], Some(diag.as_slice()), value, ScatterKind::Set, ScatterMode::Raise);
        Ok(())
    }

    /// The index arrays of `take_along_axis(x, idx, axis=k)` / `put_along_axis`, one per axis of
    /// `x` (rank `r`), each of rank `r`: `idx` (as `i64`) at axis `k` (default the last),
    /// `arange(x.shape[d])` along axis `d` (size 1 elsewhere) at each other axis `d`. Indexing `x`
    /// by all of them (a gather or scatter from axis 0) is NumPy's `x[_make_along_axis_idx(..)]`;
    /// they broadcast to the result's shape (checked by `arr.broadcast` at run time).
    fn along_axis_indices(&mut self, x: ValueId, idx: &Expr, kwargs: &[(ast::Ident, Expr)]) -> LResult<Vec<ValueId>> {
        let r = self.rank(x);
        let k = self.axis_kwarg(kwargs, x)?.unwrap_or(r - 1);
        let i = self.expr(idx)?;
        let Ty::Array(_, ishape) = self.ty_of(idx).clone() else { unreachable!("checked: an index array") };
        let i = self.converted(i, DType::I64, &ishape)?;
        let mut indices = vec![];
        for d in 0..r {
            if d == k {
                indices.push(i);
                continue;
            }
            let n = self.dim(x, d);
            let zero = self.i64_const(0);
            let one = self.i64_const(1);
            let iota = self.new_array(DType::I64, vec![n]);
            self.emit(OpKind::Compute { func: ComputeFn::Arange, out: iota, ins: vec![zero, one] });
            let entries = (0..r).map(|a| if a == d { IndexEntry::Full } else { IndexEntry::NewAxis }).collect();
            indices.push(self.expand(iota, entries));
        }
        Ok(indices)
    }

    /// `ravel_multi_index((i, j, ..), (d0, d1, ..))` (NumPy's, C order, `mode='raise'`): after a
    /// run-time check that every index is in `[0, d)` of its size (NumPy's ValueError "invalid
    /// entry in coordinates array"), `(i * d1 + j) * d2 + ..`, elementwise over the indices'
    /// broadcast shape (`ty`).
    fn ravel_multi_index(&mut self, args: &[Expr], ty: &Ty, e: &Expr) -> LResult<ValueId> {
        let items: Vec<&Expr> = match &args[0].kind {
            ast::ExprKind::Tuple(items) => items.iter().collect(),
            _ => vec![&args[0]],
        };
        let sizes = self.flat_operands(&args[1])?;
        let sizes: Vec<ValueId> = sizes.into_iter().map(|v| self.cast_scalar(v, DType::I64)).collect();
        let zero = self.i64_const(0);
        let mut ok = self.constant(arrayc_dialect::ir::Scalar::Bool(true));
        let mut values = vec![];
        for item in items.iter() {
            values.push(self.expr(item)?);
        }
        // The result's run-time sizes, to which each index array is broadcast (a view).
        let out_sizes = match ty {
            Ty::Array(_, b) => {
                let arrays: Vec<ValueId> = values.iter().copied().filter(|&v| self.f.ty(v).is_array()).collect();
                Some(self.broadcast_sizes(&arrays, b))
            }
            _ => None,
        };
        let mut flat = None;
        for ((item, &n), v) in items.iter().zip(&sizes).zip(values) {
            let t = self.ty_of(item).clone();
            let (v, in_range) = match &t {
                Ty::Array(_, shape) => {
                    let v = self.converted(v, DType::I64, shape)?;
                    let bool_ty = Ty::Array(DType::Bool, shape.clone());
                    let below = self.binary(BinFn::Lt, v, zero, &bool_ty)?;
                    let above = self.binary(BinFn::Ge, v, n, &bool_ty)?;
                    let out = self.binary(BinFn::Or, below, above, &bool_ty)?;
                    let count = self.reduction(false, ReduceKind::Sum, out, None, &Ty::Scalar(DType::I64), e)?;
                    let sizes = out_sizes.as_deref().unwrap_or_else(|| unreachable!("checked: an array result"));
                    (self.broadcast_to_sizes(v, sizes), self.scalar_binary(BinFn::Eq, count, zero, DType::I64))
                }
                _ => {
                    let v = self.cast_scalar(v, DType::I64);
                    let low = self.scalar_binary(BinFn::Ge, v, zero, DType::I64);
                    let high = self.scalar_binary(BinFn::Lt, v, n, DType::I64);
                    (v, self.scalar_binary(BinFn::And, low, high, DType::Bool))
                }
            };
            ok = self.scalar_binary(BinFn::And, ok, in_range, DType::Bool);
            flat = Some(match flat {
                None => v,
                Some(f) => {
                    let scaled = self.binary(BinFn::Mul, f, n, ty)?;
                    self.binary(BinFn::Add, scaled, v, ty)?
                }
            });
        }
        let msg = "ravel_multi_index: invalid entry in coordinates array (an index is out of bounds for its size; \
                   NumPy's ValueError)"
            .into();
        self.emit(OpKind::Assert { cond: ok, msg });
        let flat = flat.unwrap_or_else(|| unreachable!("checked: at least one index"));
        match (ty, self.f.ty(flat).is_array()) {
            // One index array of the result's shape: a new array, not the index itself.
            (Ty::Array(_, shape), true) if items.len() == 1 => {
                self.array_op(ComputeFn::Copy, vec![flat], &Ty::Array(DType::I64, shape.clone()))
            }
            _ => Ok(flat),
        }
    }
}

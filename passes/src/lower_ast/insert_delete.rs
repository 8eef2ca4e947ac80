//! NumPy 2's `delete` and `insert` (their types: `grammar/src/check/insert_delete.rs`), composed of
//! views, copies, filters, gathers and scatters (NumPy's own algorithm,
//! `numpy/lib/_function_base_impl.py`):
//!
//! * `delete(x, i)`: a gather through `p + (p >= i)`, fused with its index arithmetic and readers.
//! * `delete(x, obj)` for a slice, indices or a mask: a bool mask `keep` along the axis (`true`,
//!   then `false` written through the slice's view or scattered through the indices; a mask's
//!   negation), then `x` filtered by it (axis 0) or gathered through `flatnonzero(keep)`.
//! * `insert(x, i, values)` (and a list of one index): the view of `x` before `i`, the values and the
//!   view after it copied into the result (fused).
//! * `insert(x, idx, values)` otherwise: the new items' positions `idx + rank`, `rank` each index's
//!   place in NumPy's stable `argsort` of the indices (a scatter of `arange` through it), then the
//!   values scattered to those positions and `x` to the others (`flatnonzero` of a mask), along the
//!   axis moved to the front by a transposed view.
//!
//! An index out of range is NumPy's IndexError at run time, naming the line (an assert, or the
//! scatter's fault).

use super::{LResult, Lowerer};
use arrayc_dialect::ir::{BinFn, ComputeFn, IndexEntry, OpKind, ReduceKind, Scalar, ScatterKind, ScatterMode, UnFn};
use arrayc_dialect::ir::{Type, ValueId};
use arrayc_grammar::ast::{DType, Expr};
use arrayc_grammar::builtin::{index_object, insert_at_one, slice_object, Builtin, IndexObject};
use arrayc_grammar::types::Ty;

impl Lowerer<'_> {
    /// `delete(x, obj, axis=k)` or `insert(x, obj, values, axis=k)` (`b`; `args` as checked, `axis`
    /// the literal `axis=`, absent for NumPy's `axis=None`: of `x` flattened) of checked type `ty`.
    pub(crate) fn insert_delete(&mut self, b: Builtin, args: &[Expr], axis: Option<i64>, ty: &Ty) -> LResult<ValueId> {
        let x = self.expr(&args[0])?;
        let (x, a) = match axis {
            Some(k) => (x, k.rem_euclid(self.rank(x) as i64) as usize),
            None => (self.flat(x), 0),
        };
        let obj_ty = self.ty_of(&args[1]).clone();
        let kind = index_object(&args[1], &obj_ty).expect("checked: `obj` is an index object");
        let n = self.dim(x, a);
        if b == Builtin::Delete {
            return self.delete(x, &args[1], kind, a, n, ty);
        }
        let Ty::Array(d, _) = ty else { unreachable!("checked: an array") };
        let values = self.expr(&args[2])?;
        let values = match self.f.ty(values) {
            Type::Scalar(_) => self.cast_scalar(values, *d),
            Type::Array(..) => {
                let vt = self.ty_of(&args[2]).clone();
                self.as_dtype(values, &vt, *d)?
            }
        };
        match insert_at_one(kind, &obj_ty) {
            Some(moved) => {
                let i = self.expr(&args[1])?;
                let i = if moved {
                    i
                } else {
                    let zero = self.i64_const(0);
                    let first = self.view_with(i, vec![IndexEntry::At], vec![zero]);
                    self.load_element(first)
                };
                let i = self.cast_scalar(i, DType::I64);
                Ok(self.insert_at(x, i, values, moved, (a, n), ty))
            }
            None => {
                let idx = self.index_positions(&args[1], kind, n)?;
                Ok(self.insert_many(x, idx, values, a, n, ty))
            }
        }
    }

    /// `delete` of `x` along axis `a` (of run-time size `n`) by `obj` of kind `kind`.
    fn delete(&mut self, x: ValueId, obj: &Expr, kind: IndexObject, a: usize, n: ValueId, ty: &Ty) -> LResult<ValueId> {
        let Ty::Array(d, shape) = ty else { unreachable!("checked: an array") };
        let keep = match kind {
            IndexObject::Single => {
                let i = self.expr(obj)?;
                let i = self.cast_scalar(i, DType::I64);
                let i = self.index_in_range(i, n, false, a);
                // A gather through `p + (p >= i)` for each position `p` of the result: one kernel
                // with the index arithmetic, fused with what reads the result (copies of the two
                // views into a new array would not be).
                let (zero, one) = (self.i64_const(0), self.i64_const(1));
                let size = self.scalar_binary(BinFn::Sub, n, one, DType::I64);
                let p = self.compute_new(ComputeFn::Arange, vec![zero, one], DType::I64, vec![size], None);
                let past = self.compute_new(ComputeFn::Binary(BinFn::Ge), vec![p, i], DType::Bool, vec![size], None);
                let next = self.compute_new(ComputeFn::Binary(BinFn::Add), vec![p, one], DType::I64, vec![size], None);
                let at = self.compute_new(ComputeFn::Where, vec![past, next, p], DType::I64, vec![size], None);
                return Ok(self.gather(x, &[at], a, *d, &shape[a..a + 1], Some(shape)));
            }
            IndexObject::Mask => {
                let mask = self.expr(obj)?;
                let m = self.dim(mask, 0);
                let same = self.scalar_binary(BinFn::Eq, m, n, DType::I64);
                let msg = format!(
                    "boolean array argument obj to delete must be one dimensional and match the axis length of \
                     {{rhs}}, found length {{lhs}} (axis {a}; NumPy's ValueError)"
                );
                self.emit(OpKind::Assert { cond: same, msg });
                self.compute_new(ComputeFn::Unary(UnFn::Not), vec![mask], DType::Bool, vec![n], None)
            }
            IndexObject::Slice | IndexObject::Indices => {
                let keep = self.new_array(DType::Bool, vec![n]);
                let (yes, no) = (self.constant(Scalar::Bool(true)), self.constant(Scalar::Bool(false)));
                self.emit(OpKind::Compute { func: ComputeFn::Fill, out: keep, ins: vec![yes] });
                if kind == IndexObject::Slice {
                    let dropped = self.slice_object_view(obj, keep)?;
                    self.emit(OpKind::Compute { func: ComputeFn::Fill, out: dropped, ins: vec![no] });
                } else {
                    let idx = self.expr(obj)?;
                    let idx = self.in_dtype(idx, DType::I64);
                    // NumPy's `keep[obj,] = False`: negative indices count from the end, any other
                    // outside the axis is the scatter's IndexError.
                    self.scatter(keep, &[idx], None, no, ScatterKind::Set, ScatterMode::Raise);
                }
                keep
            }
        };
        if a == 0 {
            return Ok(self.filter(x, keep, Some(shape)));
        }
        let kept = self.flat_nonzero(keep, None);
        Ok(self.gather(x, &[kept], a, *d, &shape[a..a + 1], Some(shape)))
    }

    /// NumPy's `array(values, ndmin=r)` of an array `values` of rank at most `r`: a view with new
    /// axes of size 1 in front (`values` itself when its rank is `r`).
    fn ndmin(&mut self, values: ValueId, r: usize) -> ValueId {
        let rv = self.rank(values);
        if rv == r {
            return values;
        }
        let mut entries = vec![IndexEntry::NewAxis; r - rv];
        entries.extend(vec![IndexEntry::Full; rv]);
        self.expand(values, entries)
    }

    /// `insert` at the one index `i` (an `i64` scalar, checked here to lie in `[-n, n]`) along axis
    /// `a` (of run-time size `n`): `values` (of `x`'s dtype) as NumPy's `array(values, ndmin=r)`, its first axis moved to
    /// `a` when `moved` (an integer `obj`), between the views of `x` before and after `i`.
    fn insert_at(
        &mut self,
        x: ValueId,
        i: ValueId,
        values: ValueId,
        moved: bool,
        (a, n): (usize, ValueId),
        ty: &Ty,
    ) -> ValueId {
        let i = self.index_in_range(i, n, true, a);
        let r = self.rank(x);
        let v = match self.f.ty(values) {
            Type::Scalar(_) => values,
            Type::Array(..) => {
                let padded = self.ndmin(values, r);
                if moved && a != 0 {
                    self.transpose(padded, (1..=a).chain([0]).chain(a + 1..r).collect())
                } else {
                    padded
                }
            }
        };
        let count = match self.f.ty(v) {
            Type::Scalar(_) => self.i64_const(1),
            Type::Array(..) => self.dim(v, a),
        };
        let total = self.scalar_binary(BinFn::Add, n, count, DType::I64);
        let sizes = self.sizes_along(x, a, total);
        let out = self.new_result(ty, sizes);
        let end = self.scalar_binary(BinFn::Add, i, count, DType::I64);
        let (to_before, to_new, to_rest) = (
            self.slice_along(out, a, None, Some(i)),
            self.slice_along(out, a, Some(i), Some(end)),
            self.slice_along(out, a, Some(end), None),
        );
        let (before, rest) = (self.slice_along(x, a, None, Some(i)), self.slice_along(x, a, Some(i), None));
        self.emit(OpKind::Compute { func: ComputeFn::Copy, out: to_before, ins: vec![before] });
        if self.f.ty(v).is_array() {
            let v = self.broadcast_to(v, to_new);
            self.emit(OpKind::Compute { func: ComputeFn::Copy, out: to_new, ins: vec![v] });
        } else {
            self.emit(OpKind::Compute { func: ComputeFn::Fill, out: to_new, ins: vec![v] });
        }
        self.emit(OpKind::Compute { func: ComputeFn::Copy, out: to_rest, ins: vec![rest] });
        out
    }

    /// The `i64` indices (1-d, of the original axis of size `n`) that `obj` names for `insert`: a
    /// slice's (a view of `arange(n)`), an index array's, or a mask's `flatnonzero` (NumPy 2.1.2).
    fn index_positions(&mut self, obj: &Expr, kind: IndexObject, n: ValueId) -> LResult<ValueId> {
        Ok(match kind {
            IndexObject::Slice => {
                let (zero, one) = (self.i64_const(0), self.i64_const(1));
                let iota = self.compute_new(ComputeFn::Arange, vec![zero, one], DType::I64, vec![n], None);
                self.slice_object_view(obj, iota)?
            }
            IndexObject::Mask => {
                let mask = self.expr(obj)?;
                self.flat_nonzero(mask, None)
            }
            IndexObject::Indices | IndexObject::Single => {
                let idx = self.expr(obj)?;
                self.in_dtype(idx, DType::I64)
            }
        })
    }

    /// `insert` of one item per index of `idx` (`i64`, 1-d, of the original axis of size `n`; each
    /// in `[-n, n]`, checked here) along axis `a` (NumPy's general case): the new items go to
    /// `idx' + rank`, `idx'` the indices made non-negative and `rank` each one's place in their
    /// stable order, `x`'s items to the remaining positions in order; `values` (of `x`'s dtype)
    /// broadcast to the block of new items (`x`'s shape with `len(idx)` along `a`).
    fn insert_many(&mut self, x: ValueId, idx: ValueId, values: ValueId, a: usize, n: ValueId, ty: &Ty) -> ValueId {
        let m = self.dim(idx, 0);
        // The range, by the largest and the smallest index (reductions' identities when empty).
        let extreme = |l: &mut Self, kind: ReduceKind| {
            let r = l.new_array(DType::I64, vec![]);
            l.emit(OpKind::Compute { func: ComputeFn::Reduce(kind, None), out: r, ins: vec![idx] });
            l.load_element(r)
        };
        let (lowest, highest) = (extreme(self, ReduceKind::Min), extreme(self, ReduceKind::Max));
        self.check_index_range(lowest, highest, n, true, a);
        let (zero, one) = (self.i64_const(0), self.i64_const(1));
        let negative = self.compute_new(ComputeFn::Binary(BinFn::Lt), vec![idx, zero], DType::Bool, vec![m], None);
        let wrapped = self.compute_new(ComputeFn::Binary(BinFn::Add), vec![idx, n], DType::I64, vec![m], None);
        let idx = self.compute_new(ComputeFn::Where, vec![negative, wrapped, idx], DType::I64, vec![m], None);
        // NumPy's `indices[order] += arange(numnew)`, order the stable argsort: each index plus its rank.
        let order = self.new_array(DType::I64, vec![m]);
        self.emit(OpKind::Sort { out: order, src: idx, axis: 0, indices: true });
        let iota = self.compute_new(ComputeFn::Arange, vec![zero, one], DType::I64, vec![m], None);
        let rank = self.new_array(DType::I64, vec![m]);
        self.scatter(rank, &[order], None, iota, ScatterKind::Set, ScatterMode::Drop);
        let at = self.compute_new(ComputeFn::Binary(BinFn::Add), vec![idx, rank], DType::I64, vec![m], None);
        // `x`'s items go where no new item does, in order.
        let total = self.scalar_binary(BinFn::Add, n, m, DType::I64);
        let old = self.new_array(DType::Bool, vec![total]);
        let (yes, no) = (self.constant(Scalar::Bool(true)), self.constant(Scalar::Bool(false)));
        self.emit(OpKind::Compute { func: ComputeFn::Fill, out: old, ins: vec![yes] });
        self.scatter(old, &[at], None, no, ScatterKind::Set, ScatterMode::Drop);
        let old_at = self.flat_nonzero(old, None);
        let sizes = self.sizes_along(x, a, total);
        let out = self.new_result(ty, sizes);
        // Both scatters along axis `a`, moved to the front by transposed views.
        let r = self.rank(x);
        let front: Vec<usize> = std::iter::once(a).chain((0..r).filter(|&k| k != a)).collect();
        let to_front = |l: &mut Self, v: ValueId| if a == 0 { v } else { l.transpose(v, front.clone()) };
        let target = to_front(self, out);
        let xs = to_front(self, x);
        self.scatter(target, &[old_at], None, xs, ScatterKind::Set, ScatterMode::Drop);
        let v = match self.f.ty(values) {
            Type::Scalar(_) => values,
            Type::Array(..) => {
                let padded = self.ndmin(values, r);
                to_front(self, padded)
            }
        };
        self.scatter(target, &[at], None, v, ScatterKind::Set, ScatterMode::Drop);
        out
    }

    /// The view of the 1-d array `v` through `obj`, Python's `slice(..)` (its parts as `i64`).
    fn slice_object_view(&mut self, obj: &Expr, v: ValueId) -> LResult<ValueId> {
        let parts = slice_object(obj).expect("checked: a slice");
        let mut operands = vec![];
        for p in parts.iter().flatten() {
            let s = self.expr(p)?;
            operands.push(self.cast_scalar(s, DType::I64));
        }
        let [start, stop, step] = parts.map(|p| p.is_some());
        Ok(self.view_with(v, vec![IndexEntry::Slice { start, stop, step }], operands))
    }

    /// Index `i` (`i64`) checked to lie in `[-n, n)` (`delete`) or `[-n, n]` (`insert`, `end`) of
    /// axis `a` (NumPy's IndexError, naming the line), made non-negative.
    fn index_in_range(&mut self, i: ValueId, n: ValueId, end: bool, a: usize) -> ValueId {
        self.check_index_range(i, i, n, end, a);
        let zero = self.i64_const(0);
        let negative = self.scalar_binary(BinFn::Lt, i, zero, DType::I64);
        let wrapped = self.scalar_binary(BinFn::Add, i, n, DType::I64);
        self.scalar_select(negative, wrapped, i, DType::I64)
    }

    /// Asserts `-n <= lowest` and `highest < n` (`highest <= n` with `end`): NumPy's IndexError
    /// "index .. is out of bounds for axis `a` with size `n`".
    fn check_index_range(&mut self, lowest: ValueId, highest: ValueId, n: ValueId, end: bool, a: usize) {
        let zero = self.i64_const(0);
        let above = self.scalar_binary(if end { BinFn::Le } else { BinFn::Lt }, highest, n, DType::I64);
        let msg = format!("index {{lhs}} is out of bounds for axis {a} with size {{rhs}} (IndexError)");
        self.emit(OpKind::Assert { cond: above, msg });
        // `-lowest <= n`, so that the message shows the index's magnitude.
        let magnitude = self.scalar_binary(BinFn::Sub, zero, lowest, DType::I64);
        let below = self.scalar_binary(BinFn::Le, magnitude, n, DType::I64);
        let msg = format!("index -{{lhs}} is out of bounds for axis {a} with size {{rhs}} (IndexError)");
        self.emit(OpKind::Assert { cond: below, msg });
    }

    /// The run-time sizes of `x` with `size` along axis `a`.
    fn sizes_along(&mut self, x: ValueId, a: usize, size: ValueId) -> Vec<ValueId> {
        (0..self.rank(x)).map(|k| if k == a { size } else { self.dim(x, k) }).collect()
    }
}

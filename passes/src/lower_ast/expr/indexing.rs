//! Subscripts and views: basic indexing as views (`arr.view`), advanced indexing as gathers and
//! scatters with their bounds checks, boolean masks as filters, `transpose`, `diagonal`,
//! `bincount`.

use crate::lower_ast::{LResult, Lowerer};
use arrayc_core::semantics::{gather_out_of_bounds, scatter_out_of_bounds};
use arrayc_dialect::ir::{
    BinFn, ComputeFn, IndexEntry, OpKind, ReduceKind, Scalar, ScatterKind, ScatterMode, Type, ValueId,
};
use arrayc_grammar::ast::{DType, Index};
use arrayc_grammar::types::{Size, Ty};

/// An index with index arrays as [`Lowerer::advanced_index`] reads it: the view they index, the
/// index arrays (`i64`), and the first axis they index.
pub(crate) type Advanced = (ValueId, Vec<ValueId>, usize);

impl Lowerer<'_> {
    /// `take(src, idx, axis)` with an `i64` index array (`src[idx]` is axis 0), or `src[i, j, ..]`
    /// with `c` index arrays along axes `axis .. axis + c` (`indices`): a gather
    /// (`ComputeFn::Gather`) into a new array of dtype `dt` and shape
    /// `src.shape[:axis] + B + src.shape[axis + c:]`, `B` the index arrays' broadcast shape as
    /// checked (`b`, of rank `q`; its run-time sizes checked by `arr.broadcast`). Each index array
    /// goes in extended with size-1 axes and broadcast, so that it has the output's shape.
    /// `shape`: the output's checked shape, when the checker typed it.
    pub(crate) fn gather(
        &mut self,
        src: ValueId,
        indices: &[ValueId],
        axis: usize,
        dt: DType,
        b: &[Size],
        shape: Option<&[Size]>,
    ) -> ValueId {
        let Type::Array(_, rs) = self.f.ty(src) else {
            unreachable!("the checker types a gather as an array of an array through index arrays")
        };
        let c = indices.len();
        let q = b.len();
        let idx_sizes = self.broadcast_sizes(indices, b);
        self.assert_indexable(src, axis, c, &idx_sizes, gather_out_of_bounds(axis, c));
        let mut sizes: Vec<ValueId> = (0..axis).map(|a| self.dim(src, a)).collect();
        sizes.extend(idx_sizes);
        sizes.extend((axis + c..rs).map(|a| self.dim(src, a)));
        let mut ins = vec![src];
        ins.extend(self.index_operands(indices, axis, q, &sizes));
        let out = self.new_array(dt, sizes);
        if let Some(s) = shape {
            self.shapes.insert(out, s.to_vec());
        }
        self.emit(OpKind::Compute { func: ComputeFn::Gather(axis), out, ins });
        out
    }

    /// Whether index entry `ix` is an index array (a gather's or scatter's) or a boolean mask, not
    /// an integer, a slice, `newaxis` or `...`.
    pub(crate) fn is_index_array(&self, ix: &Index) -> bool {
        matches!(ix, Index::At(e) if self.ty_of(e).is_array())
    }

    /// NumPy raises for any index into an empty axis, even out of range; so a kernel, which reads
    /// (writes) index 0 when an index is out of range, never touches an empty array. Asserts that
    /// the `c` axes of `src` from `axis` on are not empty, or that there are no indices (their
    /// broadcast sizes `idx_sizes`); the message is `out_of_bounds` (the kernel fault's).
    pub(super) fn assert_indexable(
        &mut self,
        src: ValueId,
        axis: usize,
        c: usize,
        idx_sizes: &[ValueId],
        out_of_bounds: String,
    ) {
        let zero = self.i64_const(0);
        let mut ok = self.constant(Scalar::Bool(true));
        for t in 0..c {
            let len = self.dim(src, axis + t);
            let nonempty = self.scalar_binary(BinFn::Gt, len, zero, DType::I64);
            ok = self.scalar_binary(BinFn::And, ok, nonempty, DType::Bool);
        }
        for &n in idx_sizes {
            let none = self.scalar_binary(BinFn::Eq, n, zero, DType::I64);
            ok = self.scalar_binary(BinFn::Or, ok, none, DType::Bool);
        }
        self.emit(OpKind::Assert { cond: ok, msg: format!("{out_of_bounds}: an indexed axis has size 0") });
    }

    /// The index arrays of a gather or scatter as its operands: each extended with size-1 axes (the
    /// `axis` leading axes of the iteration space, then right-aligned within the `q` broadcast index
    /// axes, then the trailing ones) and broadcast to the iteration space's `sizes`.
    pub(super) fn index_operands(
        &mut self,
        indices: &[ValueId],
        axis: usize,
        q: usize,
        sizes: &[ValueId],
    ) -> Vec<ValueId> {
        let trailing = sizes.len() - axis - q;
        let mut ins = vec![];
        for &idx in indices {
            let Type::Array(_, qi) = self.f.ty(idx) else { unreachable!("checked: index arrays") };
            let entries: Vec<IndexEntry> = std::iter::repeat_n(IndexEntry::NewAxis, axis + q - qi)
                .chain(std::iter::repeat_n(IndexEntry::Full, qi))
                .chain(std::iter::repeat_n(IndexEntry::NewAxis, trailing))
                .collect();
            let extended = if entries.len() == qi { idx } else { self.expand(idx, entries) };
            ins.push(self.broadcast_to_sizes(extended, sizes));
        }
        ins
    }

    /// NumPy's advanced indexing of `base` by `index` (`i64` index arrays, integers and slices, one
    /// per leading axis) as a view and the index arrays along consecutive axes of it: returns
    /// `(src, indices, axis)`, `src` the view of `base` through the integers and slices (the indexed
    /// axes kept whole), transposed so that the indexed axes are `axis .. axis + c` (`c` index
    /// arrays), and the index arrays, evaluated. When the index arrays and integers are one run of
    /// adjacent entries, `axis` is the number of slices before it, and no transpose is needed; else
    /// the indexed axes come first (`axis = 0`), as NumPy places the broadcast index axes then
    /// ("Combining advanced and basic indexing"). A gather or a scatter of `src` along `axis` then
    /// has NumPy's result (target) shape.
    pub(crate) fn advanced_index(&mut self, base: ValueId, index: &[Index]) -> LResult<Advanced> {
        let whole = Index::Slice { start: None, stop: None, step: None, span: 0..0 };
        let arrays: Vec<bool> = index.iter().map(|ix| self.is_index_array(ix)).collect();
        let src = if arrays.iter().all(|&a| a) {
            base
        } else {
            let basic: Vec<Index> =
                index.iter().zip(&arrays).map(|(ix, &a)| if a { whole.clone() } else { ix.clone() }).collect();
            self.view(base, &basic)?
        };
        // Where each index array's axis is in `src` (integers remove their axes).
        let mut positions = vec![];
        let mut p = 0;
        for (ix, &a) in index.iter().zip(&arrays) {
            if a {
                positions.push(p);
            }
            if a || matches!(ix, Index::Slice { .. }) {
                p += 1;
            }
        }
        let mut indices = vec![];
        for (k, (ix, &a)) in index.iter().zip(&arrays).enumerate() {
            if let (Index::At(e), true) = (ix, a) {
                let idx = self.expr(e)?;
                match self.ty_of(e).clone() {
                    // A 1-d mask beside other entries: the index array of its `true` positions
                    // (NumPy's `nonzero(mask)[0]`), after a run-time check that its size is the
                    // size of the axis it indexes (NumPy's IndexError; axis `k` of `base`, as the
                    // checker requires every entry beside an index array to take one axis).
                    Ty::Array(DType::Bool, _) => {
                        let (len, axis_len) = (self.dim(idx, 0), self.dim(base, k));
                        self.assert_same_size(
                            axis_len,
                            len,
                            &format!(
                                "IndexError: boolean index did not match indexed array along axis {k}; size of axis \
                                 is {{lhs}} but size of corresponding boolean axis is {{rhs}}"
                            ),
                        );
                        indices.push(self.flat_nonzero(idx, None));
                    }
                    // An index array of another integer dtype is converted (fused into its reader).
                    Ty::Array(_, shape) => indices.push(self.converted(idx, DType::I64, &shape)?),
                    _ => unreachable!("checked: an index array"),
                }
            }
        }
        if arrayc_grammar::check::shape::advanced_run(index).is_some() {
            return Ok((src, indices, positions[0]));
        }
        let Type::Array(_, r) = self.f.ty(src) else { unreachable!("checked: an array") };
        let perm: Vec<usize> = positions.iter().copied().chain((0..r).filter(|a| !positions.contains(a))).collect();
        Ok((self.transpose(src, perm), indices, 0))
    }

    /// `x[index]` with index arrays, integers and slices (NumPy's advanced indexing, see
    /// [`Self::advanced_index`]): a gather of the view. `ty` is the checked type of the whole
    /// subscript.
    pub(crate) fn gather_subscript(&mut self, base: ValueId, index: &[Index], ty: &Ty) -> LResult<ValueId> {
        let advanced = self.advanced_index(base, index)?;
        Ok(self.gather_advanced(advanced, ty))
    }

    /// The gather of [`Self::gather_subscript`] from an index already read by
    /// [`Self::advanced_index`] (the view, its index arrays, the first indexed axis).
    pub(crate) fn gather_advanced(&mut self, (src, indices, axis): Advanced, ty: &Ty) -> ValueId {
        let Ty::Array(dt, shape) = ty else { unreachable!("the checker types a gather as an array") };
        let Type::Array(_, rs) = self.f.ty(src) else { unreachable!("checked: an array") };
        // The rank of the broadcast index arrays: what they add to the other axes.
        let q = shape.len() + indices.len() - rs;
        self.gather(src, &indices, axis, *dt, &shape[axis..axis + q], Some(shape))
    }

    /// `x[index] = value` through index arrays, integers and slices (NumPy's advanced indexing, see
    /// [`Self::advanced_index`]): a scatter (`ScatterKind::Set`) into the view. `shape` is the
    /// checked target's shape, to which `value` broadcasts. The scatter indexes the view's leading
    /// axes, so when the index axes are not first, the view and the value are transposed to put
    /// them first (views, no copies).
    pub(crate) fn scatter_subscript(
        &mut self,
        base: ValueId,
        index: &[Index],
        shape: &[Size],
        value: ValueId,
    ) -> LResult<()> {
        let advanced = self.advanced_index(base, index)?;
        self.scatter_advanced(advanced, shape, value);
        Ok(())
    }

    /// The scatter of [`Self::scatter_subscript`] into an index already read by
    /// [`Self::advanced_index`].
    pub(crate) fn scatter_advanced(&mut self, (mut dest, indices, axis): Advanced, shape: &[Size], value: ValueId) {
        let Type::Array(_, r) = self.f.ty(dest) else { unreachable!("checked: an array") };
        let c = indices.len();
        let q = shape.len() + c - r;
        let b = &shape[axis..axis + q];
        let mut value = value;
        if axis > 0 {
            let mut sizes: Vec<ValueId> = (0..axis).map(|a| self.dim(dest, a)).collect();
            sizes.extend(self.broadcast_sizes(&indices, b));
            sizes.extend((axis + c..r).map(|a| self.dim(dest, a)));
            let front = |k: usize, n: usize| (axis..axis + k).chain(0..axis).chain(axis + k..n).collect::<Vec<_>>();
            dest = self.transpose(dest, front(c, r));
            if self.f.ty(value).is_array() {
                let full = self.broadcast_to_sizes(value, &sizes);
                value = self.transpose(full, front(q, shape.len()));
            }
        }
        self.scatter(dest, &indices, Some(b), value, ScatterKind::Set, ScatterMode::Raise);
    }

    /// `src` with its axes permuted (`arr.transpose`: result axis `i` is `src`'s axis `perm[i]`), a
    /// view.
    pub(crate) fn transpose(&mut self, src: ValueId, perm: Vec<usize>) -> ValueId {
        let Type::Array(d, rank) = self.f.ty(src) else { unreachable!("transposes of arrays") };
        let res = self.value(Type::Array(d, rank), None);
        self.emit(OpKind::Transpose { res, src, perm });
        let root = self.root(src);
        self.roots.insert(res, root);
        res
    }

    /// The main diagonal of the 2-d array `src`, a view (`arr.diagonal`).
    pub(crate) fn diagonal(&mut self, src: ValueId) -> ValueId {
        let Type::Array(d, _) = self.f.ty(src) else { unreachable!("checked: an array") };
        let res = self.value(Type::Array(d, 1), None);
        self.emit(OpKind::Diagonal { res, src });
        let root = self.root(src);
        self.roots.insert(res, root);
        res
    }

    /// `x[mask]` (`compress(mask, x)`) with a 1-d `bool` mask of the size of `x`'s axis 0 (checked
    /// at run time, NumPy's IndexError): a new array of the selected elements (rows of a rank-2 or
    /// higher `x`), in order, whose size along axis 0 (the mask's count of `true`s) is known only
    /// at run time, `ty`'s existential size. A
    /// filter in the sense of Robinson et al. 2014 (Sec. 3.6), composed of existing operations:
    /// the count `sum(mask)` (read by the host, to allocate the result), then the position of each
    /// selected element, `cumsum(mask) - 1`, to which it is scattered; unselected elements scatter
    /// past the end and are dropped (`ScatterMode::Drop`). The scan, the positions and the
    /// scatter fuse into one loop over `x` and `mask` (the positions are contracted), which runs in
    /// parallel as a chunked scan (`KernelLayout::chunked_scan`: its positions are distinct, so the
    /// scatter needs no order); the count is a second, parallel pass over `mask`. `shape`: the result's
    /// checked shape, when the checker typed it.
    pub(crate) fn filter(&mut self, x: ValueId, mask: ValueId, shape: Option<&[Size]>) -> ValueId {
        let Type::Array(dt, r) = self.f.ty(x) else { unreachable!("the checker types a filter of an array") };
        let m = self.check_mask_size(x, mask);
        let total = self.new_array(DType::I64, vec![]);
        self.emit(OpKind::Compute { func: ComputeFn::Reduce(ReduceKind::Sum, None), out: total, ins: vec![mask] });
        let count = self.load_element(total);
        let mut sizes = vec![count];
        sizes.extend((m.len()..r).map(|a| self.dim(x, a)));
        let out = self.new_array(dt, sizes);
        if let Some(s) = shape {
            self.shapes.insert(out, s.to_vec());
        }
        // Each selected element's position in row-major order: within its row (a scan along the
        // last axis, minus itself), after the rows before it (the exclusive scan of the row counts).
        let one = self.i64_const(1);
        let last = m.len() - 1;
        let within = self.compute_new(ComputeFn::Scan(ReduceKind::Sum, last), vec![mask], DType::I64, m.clone(), None);
        let mut before =
            self.compute_new(ComputeFn::Binary(BinFn::Sub), vec![within, one], DType::I64, m.clone(), None);
        if last > 0 {
            let offsets = self.row_offsets(mask, &m);
            before =
                self.compute_new(ComputeFn::Binary(BinFn::Add), vec![before, offsets], DType::I64, m.clone(), None);
        }
        let idx = self.compute_new(ComputeFn::Where, vec![mask, before, count], DType::I64, m, None);
        self.scatter(out, &[idx], None, x, ScatterKind::Set, ScatterMode::Drop);
        out
    }

    /// For `a` of rank 2 or more (`i64` or `bool`, of run-time sizes `sizes`), the sum of the
    /// elements of all earlier rows (rows: along the last axis) in row-major order, broadcast along
    /// the last axis: the exclusive prefix sum of the row sums, itself computed this way one rank
    /// down.
    pub(super) fn row_offsets(&mut self, a: ValueId, sizes: &[ValueId]) -> ValueId {
        let last = sizes.len() - 1;
        let outer = &sizes[..last];
        let rows = self.new_array(DType::I64, outer.to_vec());
        self.emit(OpKind::Compute { func: ComputeFn::Reduce(ReduceKind::Sum, Some(last)), out: rows, ins: vec![a] });
        let upto =
            self.compute_new(ComputeFn::Scan(ReduceKind::Sum, last - 1), vec![rows], DType::I64, outer.to_vec(), None);
        let mut offsets =
            self.compute_new(ComputeFn::Binary(BinFn::Sub), vec![upto, rows], DType::I64, outer.to_vec(), None);
        if last > 1 {
            let earlier = self.row_offsets(rows, outer);
            offsets = self.compute_new(
                ComputeFn::Binary(BinFn::Add),
                vec![offsets, earlier],
                DType::I64,
                outer.to_vec(),
                None,
            );
        }
        let entries = std::iter::repeat_n(IndexEntry::Full, last).chain(std::iter::once(IndexEntry::NewAxis));
        let offsets = self.expand(offsets, entries.collect());
        self.broadcast_to_sizes(offsets, sizes)
    }

    /// NumPy's `bincount(idx, weights, minlength=m)`: a new 1-d array of size
    /// `max(max(idx) + 1, m)` (a size known only at run time; `shape` is its checked shape), zero,
    /// then `add_at(out, idx, weights)` (1 per index without weights: an i64 count). A negative
    /// index or `m` is NumPy's ValueError, naming the line; so is a largest index of `i64::MAX`,
    /// whose size would overflow. Three kernels: the largest and the
    /// smallest index (two reductions, each read by the host), and the in-order scatter.
    pub(crate) fn bincount(
        &mut self,
        idx: ValueId,
        weights: Option<ValueId>,
        minlength: ValueId,
        shape: Option<&[Size]>,
    ) -> ValueId {
        let zero = self.i64_const(0);
        let extreme = |l: &mut Self, kind: ReduceKind| {
            // Emitted directly, not through `reduction`: of no indices, the identity is the answer.
            let r = l.new_array(DType::I64, vec![]);
            l.emit(OpKind::Compute { func: ComputeFn::Reduce(kind, None), out: r, ins: vec![idx] });
            l.load_element(r)
        };
        let lowest = extreme(self, ReduceKind::Min);
        let ok = self.scalar_binary(BinFn::Ge, lowest, zero, DType::I64);
        self.emit(OpKind::Assert { cond: ok, msg: "bincount: 'list' argument must have no negative elements".into() });
        let ok = self.scalar_binary(BinFn::Ge, minlength, zero, DType::I64);
        self.emit(OpKind::Assert { cond: ok, msg: "bincount: 'minlength' must not be negative".into() });
        let highest = extreme(self, ReduceKind::Max);
        // The size is the largest index plus one, which must not wrap (to a negative size).
        let top = self.i64_const(i64::MAX);
        let ok = self.scalar_binary(BinFn::Lt, highest, top, DType::I64);
        let msg = "bincount: the largest index is {lhs}; the result's size, the largest index plus one, overflows a 64-bit integer";
        self.emit(OpKind::Assert { cond: ok, msg: msg.into() });
        let one = self.i64_const(1);
        let past = self.scalar_binary(BinFn::Add, highest, one, DType::I64);
        let size = self.scalar_binary(BinFn::Maximum, past, minlength, DType::I64);
        let dt = if weights.is_some() { DType::F64 } else { DType::I64 };
        let out = self.new_array(dt, vec![size]);
        if let Some(s) = shape {
            self.shapes.insert(out, s.to_vec());
        }
        let fill = self.constant(Scalar::I64(0).cast(dt));
        self.emit(OpKind::Compute { func: ComputeFn::Fill, out, ins: vec![fill] });
        let value = weights.unwrap_or(one);
        self.scatter(out, &[idx], None, value, ScatterKind::Add, ScatterMode::Raise);
        out
    }

    /// Checks at run time that `mask` (1-d, or of `x`'s rank) has the sizes of `x`'s leading axes
    /// (NumPy's IndexError); returns the mask's sizes.
    pub(crate) fn check_mask_size(&mut self, x: ValueId, mask: ValueId) -> Vec<ValueId> {
        let Type::Array(_, q) = self.f.ty(mask) else { unreachable!("checked: a mask array") };
        let mut sizes = vec![];
        for a in 0..q {
            let n = self.dim(x, a);
            let m = self.dim(mask, a);
            let same = self.scalar_binary(BinFn::Eq, n, m, DType::I64);
            // `{lhs}` and `{rhs}`: the executor puts in the compared sizes (see `cf.assert`).
            let msg = format!("boolean index did not match indexed array along axis {a}; size of axis is {{lhs}} but size of corresponding boolean axis is {{rhs}} (IndexError)");
            self.emit(OpKind::Assert { cond: same, msg });
            sizes.push(m);
        }
        sizes
    }

    /// `target[i, j, ..] = value` (`ScatterKind::Set`) or `add_at(target, idx, value)` (`Add`): a
    /// scatter along the leading axes, one per index array of `indices` (`ComputeFn::Scatter`), over
    /// the iteration space `B + target.shape[c:]`, `B` the index arrays' broadcast shape (as checked:
    /// `b`; without `b`, the index arrays all have the first one's shape), to which the index arrays go in extended with size-1
    /// axes and broadcast (as for a gather), and `value` broadcast. Like NumPy, the value and the
    /// index arrays are read completely before the target is written: one that may overlap the
    /// target is copied first.
    pub(crate) fn scatter(
        &mut self,
        target: ValueId,
        indices: &[ValueId],
        b: Option<&[Size]>,
        value: ValueId,
        kind: ScatterKind,
        mode: ScatterMode,
    ) {
        let Type::Array(_, r) = self.f.ty(target) else {
            unreachable!("the checker types a scatter as an array target through index arrays")
        };
        let c = indices.len();
        // The index arrays' broadcast shape: broadcast (`b` checked), or the first array's sizes.
        let idx_sizes: Vec<ValueId> = match (indices, b) {
            (_, Some(b)) if indices.len() > 1 => self.broadcast_sizes(indices, b),
            _ => {
                let Type::Array(_, q) = self.f.ty(indices[0]) else { unreachable!("checked: an index array") };
                (0..q).map(|a| self.dim(indices[0], a)).collect()
            }
        };
        let q = idx_sizes.len();
        if mode == ScatterMode::Raise {
            // The kernel writes index 0 when an index is out of range (then faulting).
            self.assert_indexable(target, 0, c, &idx_sizes, scatter_out_of_bounds(c));
        }
        let mut sizes = idx_sizes;
        sizes.extend((c..r).map(|a| self.dim(target, a)));
        let separate = |l: &mut Self, v: ValueId| if l.may_overlap(v, target) { l.fresh_copy(v) } else { v };
        let indices: Vec<ValueId> = indices.iter().map(|&idx| separate(self, idx)).collect();
        let mut ins = self.index_operands(&indices, 0, q, &sizes);
        let value = separate(self, value);
        ins.push(self.broadcast_to_sizes(value, &sizes));
        self.emit(OpKind::Compute { func: ComputeFn::Scatter(kind, mode), out: target, ins });
    }

    /// A view of `v` through index `entries` without operands (full axes and new axes).
    pub(crate) fn expand(&mut self, v: ValueId, entries: Vec<IndexEntry>) -> ValueId {
        self.view_with(v, entries, vec![])
    }

    /// `src[index]` as an `arr.view` (NumPy basic indexing; ellipsis expanded here).
    pub(crate) fn view(&mut self, src: ValueId, index: &[Index]) -> LResult<ValueId> {
        let Type::Array(_, rank) = self.f.ty(src) else {
            return Err(self.error("E0909", &(0..0), "subscript of a scalar", ""));
        };
        let consumed = index.iter().filter(|i| matches!(i, Index::At(_) | Index::Slice { .. })).count();
        let mut entries = vec![];
        let mut operands = vec![];
        let mut out_rank = 0;
        for i in index {
            match i {
                Index::At(e) => {
                    let v = self.expr(e)?;
                    operands.push(self.cast_scalar(v, DType::I64));
                    entries.push(IndexEntry::At);
                }
                Index::Slice { start, stop, step, .. } => {
                    for part in [start, stop, step].into_iter().flatten() {
                        let v = self.expr(part)?;
                        operands.push(self.cast_scalar(v, DType::I64));
                    }
                    entries.push(IndexEntry::Slice {
                        start: start.is_some(),
                        stop: stop.is_some(),
                        step: step.is_some(),
                    });
                    out_rank += 1;
                }
                Index::NewAxis(_) => {
                    entries.push(IndexEntry::NewAxis);
                    out_rank += 1;
                }
                Index::Ellipsis(_) => {
                    for _ in 0..rank.saturating_sub(consumed) {
                        entries.push(IndexEntry::Full);
                        out_rank += 1;
                    }
                }
            }
        }
        let explicit = entries.iter().filter(|e| !matches!(e, IndexEntry::NewAxis)).count();
        for _ in explicit..rank {
            entries.push(IndexEntry::Full);
            out_rank += 1;
        }
        debug_assert_eq!(out_rank, entries.iter().filter(|e| !matches!(e, IndexEntry::At)).count());
        Ok(self.view_with(src, entries, operands))
    }
}

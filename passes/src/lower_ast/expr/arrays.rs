//! Arrays as values: allocation (`arr.new`), run-time sizes, broadcasting to a shape, fresh copies,
//! and the aliasing tests (may two views overlap, are they the same view) that decide when a copy is needed.

use crate::lower_ast::{Lowerer, Root};
use arrayc_dialect::ir::{BinFn, ComputeFn, OpKind, Type, ValueId};
use arrayc_grammar::ast::DType;
use arrayc_grammar::types::{Size, Ty};

impl Lowerer<'_> {
    /// `arr.new` of a base array.
    pub(crate) fn new_array(&mut self, dt: DType, sizes: Vec<ValueId>) -> ValueId {
        let out = self.value(Type::Array(dt, sizes.len()), None);
        self.new_sizes.insert(out, sizes.clone());
        self.emit(OpKind::New { res: out, sizes });
        self.roots.insert(out, Root::New(out));
        out
    }

    /// Size of dimension `axis` of `v`: the size operand when `v` is an array allocated here (so a
    /// contracted array's size never keeps its allocation alive), else an `arr.dim`.
    pub(crate) fn dim(&mut self, v: ValueId, axis: usize) -> ValueId {
        if let Some(sizes) = self.new_sizes.get(&v) {
            return sizes[axis];
        }
        let r = self.value(Type::Scalar(DType::I64), None);
        self.emit(OpKind::Dim { res: r, src: v, axis });
        r
    }

    /// Run-time sizes of the broadcast of `ins` (NumPy rules; arrays right-aligned, a size 1 yields
    /// to the other). Incompatible sizes are caught by `arr.broadcast` at run time.
    pub(crate) fn broadcast_sizes(&mut self, ins: &[ValueId], shape: &[Size]) -> Vec<ValueId> {
        // An input with the result's static shape gives every size directly.
        if let Some(&v) = ins.iter().find(|v| self.same_static_shape(**v, shape)) {
            return (0..shape.len()).map(|a| self.dim(v, a)).collect();
        }
        let rank = shape.len();
        let mut sizes: Vec<Option<ValueId>> = vec![None; rank];
        for &v in ins {
            let Type::Array(_, r) = self.f.ty(v) else { continue };
            for a in 0..r {
                let d = self.dim(v, a);
                let slot = rank - r + a;
                sizes[slot] = Some(match sizes[slot] {
                    None => d,
                    Some(prev) => {
                        let one = self.i64_const(1);
                        let is_one = self.scalar_binary(BinFn::Eq, prev, one, DType::I64);
                        let s = self.value(Type::Scalar(DType::I64), None);
                        self.emit(OpKind::Select { res: s, cond: is_one, lhs: d, rhs: prev });
                        s
                    }
                });
            }
        }
        sizes.into_iter().map(|s| s.unwrap_or_else(|| self.i64_const(1))).collect()
    }

    /// `v` as a view of `sizes` (an `arr.broadcast` unless it is a scalar).
    pub(crate) fn broadcast_to_sizes(&mut self, v: ValueId, sizes: &[ValueId]) -> ValueId {
        let Type::Array(d, r) = self.f.ty(v) else { return v };
        if r == sizes.len() && (0..r).all(|a| self.is_dim_of(sizes[a], v, a)) {
            return v;
        }
        let res = self.value(Type::Array(d, sizes.len()), None);
        self.emit(OpKind::Broadcast { res, src: v, sizes: sizes.to_vec() });
        let root = self.root(v);
        self.roots.insert(res, root);
        res
    }

    /// Broadcasts array `v` to the shape of view `dest`.
    pub(crate) fn broadcast_to(&mut self, v: ValueId, dest: ValueId) -> ValueId {
        let Type::Array(_, r) = self.f.ty(dest) else { return v };
        if let Some(ds) = self.shapes.get(&dest).cloned() {
            if self.same_static_shape(v, &ds) {
                return v;
            }
        }
        let sizes: Vec<ValueId> = (0..r).map(|a| self.dim(dest, a)).collect();
        self.broadcast_to_sizes(v, &sizes)
    }

    /// Is `s` the size of dimension `axis` of `v` (its `arr.new` size operand or an `arr.dim` of it in
    /// the current body)? Constant time (`dim_defs`).
    pub(super) fn is_dim_of(&self, s: ValueId, v: ValueId, axis: usize) -> bool {
        if self.new_sizes.get(&v).is_some_and(|sizes| sizes[axis] == s) {
            return true;
        }
        self.dim_defs.get(&s) == Some(&(v, axis, self.current_body()))
    }

    /// A fresh base array holding a copy of `v`.
    pub(crate) fn fresh_copy(&mut self, v: ValueId) -> ValueId {
        let Type::Array(d, r) = self.f.ty(v) else { return v };
        let sizes = (0..r).map(|a| self.dim(v, a)).collect();
        let out = self.new_array(d, sizes);
        self.emit(OpKind::Compute { func: ComputeFn::Copy, out, ins: vec![v] });
        out
    }

    /// May two array values share elements? Distinct `arr.new` bases never do; anything from outside
    /// (parameters, call results, loop-carried arrays) may alias anything, since a loop-carried array
    /// may start out as a local base array.
    pub(crate) fn may_overlap(&self, a: ValueId, b: ValueId) -> bool {
        match (self.root(a), self.root(b)) {
            (Root::New(x), Root::New(y)) => x == y,
            _ => true,
        }
    }

    /// Are `a` and `b` provably the same view (same value, or the same indexing of the same source
    /// with the same operands or equal constants)?
    pub(crate) fn identical_views(&self, a: ValueId, b: ValueId) -> bool {
        if a == b {
            return true;
        }
        match (self.view_defs.get(&a), self.view_defs.get(&b)) {
            (Some((sa, ia, oa)), Some((sb, ib, ob))) => {
                self.identical_views(*sa, *sb)
                    && ia == ib
                    && oa.len() == ob.len()
                    && oa.iter().zip(ob).all(|(x, y)| {
                        x == y || matches!((self.consts.get(x), self.consts.get(y)), (Some(p), Some(q)) if p == q)
                    })
            }
            _ => false,
        }
    }

    /// Array operands `vals` of an elementwise builtin of checked type `ty`, broadcast to its
    /// shape (views; scalars as they are), so that the operations a composition builds from them
    /// all have the result's shape.
    pub(crate) fn broadcast_operands(&mut self, vals: &[ValueId], ty: &Ty) -> Vec<ValueId> {
        let Ty::Array(_, shape) = ty else { return vals.to_vec() };
        let sizes = self.broadcast_sizes(vals, shape);
        vals.iter()
            .map(|&v| {
                if !self.f.ty(v).is_array() || self.same_static_shape(v, shape) {
                    return v;
                }
                let b = self.broadcast_to_sizes(v, &sizes);
                self.shapes.insert(b, shape.clone());
                b
            })
            .collect()
    }
}

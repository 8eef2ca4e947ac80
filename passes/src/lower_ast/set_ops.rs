//! NumPy's set routines (their types: `grammar/src/check/set_ops.rs`): `isin` (a fused comparison
//! of every pair of elements, counted per element of `a`: NumPy's own path for a small `b`),
//! `union1d` (`unique` of the concatenation), `intersect1d` and `setdiff1d` (filters of `unique(a)`
//! by `isin`) and `setxor1d` (NumPy's formula: the sorted concatenation of both uniques, each
//! element kept when it differs from both neighbours, a filter). Every 1-d result's size is known
//! only at run time (a filter's existential size, as `unique`'s).

use super::{LResult, Lowerer};
use arrayc_dialect::ir::{BinFn, ComputeFn, IndexEntry, OpKind, ReduceKind, Scalar, Type, ValueId};
use arrayc_grammar::ast::{self, DType, Expr};
use arrayc_grammar::builtin::{bool_literal, Builtin};
use arrayc_grammar::check::set_ops::set_dtype;
use arrayc_grammar::types::Ty;

impl Lowerer<'_> {
    /// A call of a set routine `b` (checked: its type is `ty`): its value; `None` for the other
    /// builtins.
    pub(crate) fn set_op(
        &mut self,
        b: Builtin,
        args: &[Expr],
        kwargs: &[(ast::Ident, Expr)],
        ty: &Ty,
    ) -> LResult<Option<ValueId>> {
        use Builtin as B;
        if !matches!(b, B::Isin | B::Union1d | B::Intersect1d | B::Setdiff1d | B::Setxor1d) {
            return Ok(None);
        }
        let (Some(da), Some(db)) = (self.ty_of(&args[0]).dtype(), self.ty_of(&args[1]).dtype()) else {
            unreachable!("checked: two values")
        };
        let p = set_dtype(da, db);
        let x = self.expr(&args[0])?;
        let bv = self.expr(&args[1])?;
        let (a, bv) = (self.flat(x), self.flat(bv));
        let shape = ty.shape();
        let v = match b {
            B::Isin => {
                let invert = Self::kwarg(kwargs, "invert").and_then(bool_literal).unwrap_or(false);
                let (ap, bp) = (self.in_dtype(a, p), self.in_dtype(bv, p));
                let found = self.member(ap, bp, invert);
                match self.f.ty(x) {
                    Type::Array(_, 1) => found,
                    Type::Array(_, r) => {
                        let sizes = (0..r).map(|k| self.dim(x, k)).collect();
                        let v = self.reshape_view(found, sizes);
                        if let Some(s) = shape {
                            self.shapes.insert(v, s.to_vec());
                        }
                        v
                    }
                    Type::Scalar(_) => unreachable!("checked: an array"),
                }
            }
            B::Union1d => {
                let (ap, bp) = (self.in_dtype(a, p), self.in_dtype(bv, p));
                let both = self.concat_1d(ap, bp);
                self.unique_of(both, shape)
            }
            B::Intersect1d | B::Setdiff1d => {
                let keep_dtype = if b == B::Setdiff1d { da } else { p };
                let a = self.in_dtype(a, keep_dtype);
                let u = self.unique_of(a, None);
                let (up, bp) = (self.in_dtype(u, p), self.in_dtype(bv, p));
                let found = self.member(up, bp, b == B::Setdiff1d);
                self.filter(u, found, shape)
            }
            B::Setxor1d => {
                let (ap, bp) = (self.in_dtype(a, p), self.in_dtype(bv, p));
                let (ua, ub) = (self.unique_of(ap, None), self.unique_of(bp, None));
                let both = self.concat_1d(ua, ub);
                let n = self.dim(both, 0);
                let s = self.new_array(p, vec![n]);
                self.emit(OpKind::Sort { out: s, src: both, axis: 0, indices: false });
                // NumPy's `flag = concatenate(([True], s[1:] != s[:-1], [True]))`, then the
                // elements where `flag[1:] & flag[:-1]` (`!=`: two NaNs differ, as NumPy's).
                let one = self.i64_const(1);
                let n1 = self.scalar_binary(BinFn::Add, n, one, DType::I64);
                let flag = self.new_array(DType::Bool, vec![n1]);
                let yes = self.constant(Scalar::Bool(true));
                self.emit(OpKind::Compute { func: ComputeFn::Fill, out: flag, ins: vec![yes] });
                let (hi, lo) = (self.drop_first(s), self.drop_last(s));
                let inner = self.drop_first(flag);
                let inner = self.drop_last(inner);
                self.emit(OpKind::Compute { func: ComputeFn::Binary(BinFn::Ne), out: inner, ins: vec![hi, lo] });
                let (after, before) = (self.drop_first(flag), self.drop_last(flag));
                let keep =
                    self.compute_new(ComputeFn::Binary(BinFn::And), vec![after, before], DType::Bool, vec![n], None);
                self.filter(s, keep, shape)
            }
            _ => unreachable!("matched above"),
        };
        Ok(Some(v))
    }

    /// Array `v` (of any sizes, known or not when checked) in dtype `d`: `v` itself when of `d`, else
    /// a converted copy.
    fn in_dtype(&mut self, v: ValueId, d: DType) -> ValueId {
        let Type::Array(vd, r) = self.f.ty(v) else { unreachable!("an array") };
        if vd == d {
            return v;
        }
        let sizes = (0..r).map(|k| self.dim(v, k)).collect();
        self.compute_new(ComputeFn::Copy, vec![v], d, sizes, None)
    }

    /// For 1-d `x` and `y` of one dtype, whether each element of `x` equals some element of `y`
    /// (with `invert`, equals none): `x[:, newaxis] == y[newaxis, :]` (fused), counted along
    /// `y`'s axis and compared with 0; a new bool array of `x`'s size.
    fn member(&mut self, x: ValueId, y: ValueId, invert: bool) -> ValueId {
        let (nx, ny) = (self.dim(x, 0), self.dim(y, 0));
        let xv = self.view_with(x, vec![IndexEntry::Full, IndexEntry::NewAxis], vec![]);
        let yv = self.view_with(y, vec![IndexEntry::NewAxis, IndexEntry::Full], vec![]);
        let eq = self.compute_new(ComputeFn::Binary(BinFn::Eq), vec![xv, yv], DType::Bool, vec![nx, ny], None);
        let count = self.new_array(DType::I64, vec![nx]);
        self.emit(OpKind::Compute { func: ComputeFn::Reduce(ReduceKind::Sum, Some(1)), out: count, ins: vec![eq] });
        let zero = self.i64_const(0);
        let f = if invert { BinFn::Eq } else { BinFn::Gt };
        self.compute_new(ComputeFn::Binary(f), vec![count, zero], DType::Bool, vec![nx], None)
    }

    /// 1-d `x` and `y` of one dtype one after the other: a new 1-d array, one copy into each part.
    fn concat_1d(&mut self, x: ValueId, y: ValueId) -> ValueId {
        let Type::Array(d, _) = self.f.ty(x) else { unreachable!("an array") };
        let (nx, ny) = (self.dim(x, 0), self.dim(y, 0));
        let n = self.scalar_binary(BinFn::Add, nx, ny, DType::I64);
        let out = self.new_array(d, vec![n]);
        let head = self.view_with(out, vec![IndexEntry::Slice { start: false, stop: true, step: false }], vec![nx]);
        self.emit(OpKind::Compute { func: ComputeFn::Copy, out: head, ins: vec![x] });
        let tail = self.view_with(out, vec![IndexEntry::Slice { start: true, stop: false, step: false }], vec![nx]);
        self.emit(OpKind::Compute { func: ComputeFn::Copy, out: tail, ins: vec![y] });
        out
    }

    /// The view `v[1:]` of a 1-d `v`.
    pub(crate) fn drop_first(&mut self, v: ValueId) -> ValueId {
        let one = self.i64_const(1);
        self.view_with(v, vec![IndexEntry::Slice { start: true, stop: false, step: false }], vec![one])
    }

    /// The view `v[:-1]` of a 1-d `v` (empty when `v` is).
    pub(crate) fn drop_last(&mut self, v: ValueId) -> ValueId {
        let minus_one = self.i64_const(-1);
        self.view_with(v, vec![IndexEntry::Slice { start: false, stop: true, step: false }], vec![minus_one])
    }
}

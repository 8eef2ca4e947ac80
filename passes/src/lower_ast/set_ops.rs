//! NumPy's set routines (their types: `grammar/src/check/set_ops.rs`): `isin` (a fused comparison
//! of every pair of elements, counted per element of `a`: NumPy's own path for a small `b`),
//! `union1d` (`unique` of the concatenation), `intersect1d` and `setdiff1d` (filters of `unique(a)`
//! by `isin`) and `setxor1d` (NumPy's formula: the sorted concatenation of both uniques, each
//! element kept when it differs from both neighbours, a filter). Every 1-d result's size is known
//! only at run time (a filter's existential size, as `unique`'s). Also `vander` (a running product
//! written through a reversed view), `geomspace` (NumPy's formula on `linspace`) and `polyval`
//! (NumPy's Horner loop, unrolled).

use super::{LResult, Lowerer};
use arrayc_dialect::ir::{BinFn, ComputeFn, IndexEntry, OpKind, ReduceKind, Scalar, Type, UnFn, ValueId};
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
    pub(crate) fn in_dtype(&mut self, v: ValueId, d: DType) -> ValueId {
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

    /// `vander(x, N, increasing)` (NumPy's, the checked type `ty`): a new `(len(x), N)` array
    /// (`N` default `len(x)`; a negative one a run-time error), viewed reversed along its rows
    /// unless `increasing`; through that view, column 0 is 1 and columns `1..` the running product
    /// along the row of `x` repeated (NumPy's `multiply.accumulate`, so the same multiplications
    /// in the same order), in the result's dtype.
    pub(crate) fn vander(&mut self, x: ValueId, cols: Option<ValueId>, increasing: bool, ty: &Ty) -> ValueId {
        let Ty::Array(p, shape) = ty else { unreachable!("checked: an array") };
        let n = self.dim(x, 0);
        let m = match cols {
            Some(c) => {
                let c = self.cast_scalar(c, DType::I64);
                if !self.consts.contains_key(&c) {
                    let zero = self.i64_const(0);
                    let ok = self.scalar_binary(BinFn::Ge, c, zero, DType::I64);
                    self.emit(OpKind::Assert { cond: ok, msg: "vander: negative dimensions are not allowed".into() });
                }
                c
            }
            None => n,
        };
        let out = self.new_array(*p, vec![n, m]);
        self.shapes.insert(out, shape.clone());
        let tmp = if increasing { out } else { self.flip_axes(out, &[1]) };
        let one = self.constant(Scalar::I64(1).cast(*p));
        self.emit(OpKind::Compute { func: ComputeFn::Fill, out: tmp, ins: vec![one] });
        let first = self.i64_const(1);
        let rest = self.view_with(
            tmp,
            vec![IndexEntry::Full, IndexEntry::Slice { start: true, stop: false, step: false }],
            vec![first],
        );
        let w = self.dim(rest, 1);
        let xp = self.in_dtype(x, *p);
        let column = self.view_with(xp, vec![IndexEntry::Full, IndexEntry::NewAxis], vec![]);
        let powers = self.compute_new(ComputeFn::Scan(ReduceKind::Prod, 1), vec![column], *p, vec![n, w], None);
        self.emit(OpKind::Compute { func: ComputeFn::Copy, out: rest, ins: vec![powers] });
        out
    }

    /// `geomspace(start, stop, num, endpoint)` by NumPy's formula (the checked type `ty`, `f64`):
    /// both bounds nonzero (else a run-time error, NumPy's ValueError), `s` the sign of `start`,
    /// `r = power(10.0, linspace(log10(start / s), log10(stop / s), num, endpoint))`, then
    /// `r[0] = start / s`, with the endpoint `r[-1] = stop / s` (for `num > 1`), and `s * r`.
    pub(crate) fn geomspace(&mut self, vals: &[ValueId], endpoint: bool, ty: &Ty) -> LResult<ValueId> {
        let start = self.cast_scalar(vals[0], DType::F64);
        let stop = self.cast_scalar(vals[1], DType::F64);
        let num = match vals.get(2) {
            Some(&num) => self.cast_scalar(num, DType::I64),
            None => self.i64_const(50),
        };
        let zero = self.constant(Scalar::F64(0.0));
        let (a_ok, b_ok) = (
            self.scalar_binary(BinFn::Ne, start, zero, DType::F64),
            self.scalar_binary(BinFn::Ne, stop, zero, DType::F64),
        );
        let ok = self.scalar_binary(BinFn::And, a_ok, b_ok, DType::Bool);
        self.emit(OpKind::Assert {
            cond: ok,
            msg: "Geometric sequence cannot include zero (NumPy's ValueError)".into(),
        });
        // NumPy's `sign(start)`: -1 or 1 here (NaN for a NaN start, which makes every element NaN
        // either way).
        let negative = self.scalar_binary(BinFn::Lt, start, zero, DType::F64);
        let (minus, plus) = (self.constant(Scalar::F64(-1.0)), self.constant(Scalar::F64(1.0)));
        let sign = self.scalar_select(negative, minus, plus, DType::F64);
        let a = self.scalar_binary(BinFn::Div, start, sign, DType::F64);
        let b = self.scalar_binary(BinFn::Div, stop, sign, DType::F64);
        let (la, lb) = (self.scalar_unary(UnFn::Log10, a), self.scalar_unary(UnFn::Log10, b));
        let exponents = self.linspace(&[la, lb, num], endpoint);
        let ten = self.constant(Scalar::F64(10.0));
        let r = self.array_op(ComputeFn::Binary(BinFn::Pow), vec![ten, exponents], ty)?;
        let one = self.i64_const(1);
        let head = self.view_with(r, vec![IndexEntry::Slice { start: false, stop: true, step: false }], vec![one]);
        self.emit(OpKind::Compute { func: ComputeFn::Fill, out: head, ins: vec![a] });
        if endpoint {
            // `r[max(num - 1, 1):]`: empty for `num <= 1`, where NumPy keeps `start`.
            let last = self.scalar_binary(BinFn::Sub, num, one, DType::I64);
            let from = self.scalar_binary(BinFn::Maximum, last, one, DType::I64);
            let tail = self.view_with(r, vec![IndexEntry::Slice { start: true, stop: false, step: false }], vec![from]);
            self.emit(OpKind::Compute { func: ComputeFn::Fill, out: tail, ins: vec![b] });
        }
        self.array_op(ComputeFn::Binary(BinFn::Mul), vec![sign, r], ty)
    }

    /// `polyval(p, x)` (checked: `p` 1-d of `count` elements, the result's type `ty`): NumPy's Horner
    /// loop `y = 0; for pv in p: y = y * x + pv`, unrolled, in the result's dtype (`x` and each
    /// coefficient converted first, which rounds as NumPy's promotion does), each coefficient read
    /// on the host; elementwise, so it fuses into one kernel.
    pub(crate) fn polyval(&mut self, p: ValueId, x: ValueId, count: i64, ty: &Ty) -> LResult<ValueId> {
        let d = match ty {
            Ty::Array(d, _) | Ty::Scalar(d) => *d,
            _ => unreachable!("checked: a value"),
        };
        let x = match self.f.ty(x) {
            Type::Scalar(_) => self.cast_scalar(x, d),
            Type::Array(..) => self.in_dtype(x, d),
        };
        let mut y = self.constant(Scalar::I64(0).cast(d));
        for j in 0..count {
            let at = self.i64_const(j);
            let pv = self.view_with(p, vec![IndexEntry::At], vec![at]);
            let pv = self.load_element(pv);
            let pv = self.cast_scalar(pv, d);
            let yx = self.binary(BinFn::Mul, y, x, ty)?;
            y = self.binary(BinFn::Add, yx, pv, ty)?;
        }
        Ok(y)
    }

    /// `polyval(p, x)` of a `p` whose size is known only at run time: the same Horner steps as
    /// [`Self::polyval`], `y = y * x + p[j]` from `y = 0` (zeros of the result's shape), in a loop
    /// over `p` that carries `y`.
    pub(crate) fn polyval_loop(&mut self, p: ValueId, x: ValueId, ty: &Ty, e: &Expr) -> LResult<ValueId> {
        let d = ty.dtype().expect("checked: a value");
        let x = match self.f.ty(x) {
            Type::Scalar(_) => self.cast_scalar(x, d),
            Type::Array(..) => self.in_dtype(x, d),
        };
        let zero = self.constant(Scalar::I64(0).cast(d));
        let y0 = match self.f.ty(x) {
            Type::Array(..) => {
                let yes = self.constant(Scalar::Bool(true));
                self.elementwise(ComputeFn::Where, vec![yes, zero, x], ty, e)?
            }
            Type::Scalar(_) => zero,
        };
        let (lo, hi, step) = (self.i64_const(0), self.dim(p, 0), self.i64_const(1));
        let iv = self.value(Type::Scalar(DType::I64), None);
        let yc = self.value(self.f.ty(y0), None);
        let yr = self.value(self.f.ty(y0), None);
        if self.f.ty(y0).is_array() {
            self.roots.insert(yc, super::Root::Outside(yc));
            self.roots.insert(yr, super::Root::Outside(yr));
        }
        let (body, next) = self.in_body(|l| {
            let pv = l.view_with(p, vec![IndexEntry::At], vec![iv]);
            let pv = l.load_element(pv);
            let pv = l.cast_scalar(pv, d);
            let yx = l.binary(BinFn::Mul, yc, x, ty)?;
            l.binary(BinFn::Add, yx, pv, ty)
        })?;
        self.emit(OpKind::For {
            iv,
            lo,
            hi,
            step,
            inits: vec![y0],
            carried: vec![yc],
            body,
            yields: vec![next],
            results: vec![yr],
        });
        Ok(yr)
    }
}

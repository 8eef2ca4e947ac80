//! NumPy's everyday functions composed of existing operations (their types:
//! `grammar/src/check/numpy_funcs.rs` and, for the reductions, `check/builtins/reductions.rs`): `diff`
//! (shifted views and one elementwise operation per difference), `outer` (two broadcast views),
//! `eye` and `identity` (two `arange`s compared), the views `swapaxes` and `moveaxis`
//! (`arr.transpose`), `trace` (a sum of the diagonal view), the NaN-ignoring reductions (masks
//! `x != x`, selections and reductions), `linalg.norm` (`sqrt(sum(x * x))`, or with `ord=` a reduction of `abs(x)`) and `median` (a sorted
//! copy's middle elements), `isclose` and `allclose` (NumPy's formula, elementwise), `ptp` (`max`
//! less `min`), `average` (`mean`, or weighted sums divided), `flatnonzero` and `argwhere` (a
//! filter of `arange`), `nonzero` (the same positions, then per axis `(p // stride) % size`),
//! `unique` (a filter of a sorted copy) and `searchsorted` (counts of a comparison of every pair);
//! `percentile` and `quantile` are in `quantile.rs` (a sorted copy, as `median`'s). Elementwise parts
//! fuse like any elementwise operation.

use super::expr::retyped;
use super::{LResult, Lowerer};
use arrayc_dialect::ir::{
    BinFn, ComputeFn, IndexEntry, OpKind, ReduceKind, Scalar, ScatterKind, ScatterMode, Type, UnFn, ValueId,
};
use arrayc_grammar::ast::{self, DType, Expr};
use arrayc_grammar::builtin::{moveaxis_axes, moveaxis_perm, norm_ord, searchsorted_right, Builtin, NormOrd};
use arrayc_grammar::check::literal_int;
use arrayc_grammar::check::promote::{promote, weak_of, Weak};
use arrayc_grammar::types::{Size, SizeSym, Ty};

impl Lowerer<'_> {
    /// A call of builtin `b` (checked: its type is `ty`) when `b` is one of NumPy's composed
    /// functions of this file: its value; `None` for the other builtins.
    pub(crate) fn numpy_func(
        &mut self,
        b: Builtin,
        args: &[Expr],
        kwargs: &[(ast::Ident, Expr)],
        ty: &Ty,
        e: &Expr,
    ) -> LResult<Option<ValueId>> {
        use Builtin as B;
        let v = match b {
            B::Diff => self.diff(args, kwargs, ty)?,
            B::Outer => self.outer(args, ty)?,
            B::Eye | B::Identity | B::Tri => self.eye(b, args, kwargs, ty)?,
            B::Tril | B::Triu => self.tri(b, args, kwargs, ty, e)?,
            B::NanToNum => self.nan_to_num(args, kwargs, ty, e)?,
            B::Swapaxes | B::Moveaxis => {
                let x = self.expr(&args[0])?;
                let Type::Array(_, r) = self.f.ty(x) else { unreachable!("checked: an array") };
                let axes = |a: &Expr| -> Vec<usize> {
                    let given = moveaxis_axes(a).expect("checked: integer literals");
                    given.iter().map(|k| k.rem_euclid(r as i64) as usize).collect()
                };
                let (p, q) = (axes(&args[1]), axes(&args[2]));
                let perm = if b == B::Swapaxes {
                    let mut perm: Vec<usize> = (0..r).collect();
                    perm.swap(p[0], q[0]);
                    perm
                } else {
                    moveaxis_perm(r, &p, &q)
                };
                self.transpose(x, perm)
            }
            B::Trace => {
                let x = self.expr(&args[0])?;
                let d = self.diagonal(x);
                self.reduction(false, ReduceKind::Sum, d, None, ty, e)?
            }
            B::NanSum | B::NanMax | B::NanMin | B::NanMean => self.nan_reduction(b, args, kwargs, ty, e)?,
            B::NanArgMin | B::NanArgMax => self.nan_arg_reduction(b, args, kwargs, ty, e)?,
            B::Median => self.median(args, kwargs, ty, e)?,
            B::Percentile | B::Quantile | B::NanPercentile | B::NanQuantile => self.quantile(b, args, kwargs, ty, e)?,
            B::Isclose | B::Allclose => self.isclose(b, args, kwargs, ty, e)?,
            B::ArrayEqual | B::ArrayEquiv => self.array_equal(b, args, kwargs, e)?,
            B::Ptp => {
                let x = self.expr(&args[0])?;
                let axes = self.axes_kwarg(kwargs, x)?;
                let hi = self.reduction(false, ReduceKind::Max, x, axes.as_deref(), ty, e)?;
                let lo = self.reduction(false, ReduceKind::Min, x, axes.as_deref(), ty, e)?;
                self.binary(BinFn::Sub, hi, lo, ty)?
            }
            B::Average => self.average(args, kwargs, ty, e)?,
            B::Flatnonzero | B::Argwhere => {
                let x = self.expr(&args[0])?;
                let Ty::Array(_, shape) = ty else { unreachable!("checked: an array") };
                let at = self.flat_nonzero(x, Some(&shape[..1]));
                let r = match self.f.ty(x) {
                    Type::Array(_, r) => r,
                    Type::Scalar(_) => 0,
                };
                if b == B::Flatnonzero {
                    at
                } else if r == 1 {
                    self.view_with(at, vec![IndexEntry::Full, IndexEntry::NewAxis], vec![])
                } else {
                    // `argwhere` of an n-d `x`: `nonzero`'s index arrays stacked as columns.
                    let sizes: Vec<ValueId> = (0..r).map(|a| self.dim(x, a)).collect();
                    let tys = vec![Ty::Array(DType::I64, shape[..1].to_vec()); r];
                    let coords = self.unravel(at, &sizes, &tys)?;
                    self.stack_columns(&coords, ty)
                }
            }
            B::Unique => self.unique(&args[0], ty)?,
            B::Searchsorted => self.searchsorted(args, kwargs, ty, e)?,
            B::Norm => {
                let x = self.expr(&args[0])?;
                let axes = self.axes_kwarg(kwargs, x)?;
                let Type::Array(xd, _) = self.f.ty(x) else {
                    return Err(self.error("E0911", &e.span, "reduction of a scalar", "reductions take an array"));
                };
                let dt = ty.dtype().expect("checked: a float");
                let xty = retyped(self.ty_of(&args[0]), dt);
                let xf = if xd == dt { x } else { self.array_op(ComputeFn::Copy, vec![x], &xty)? };
                let matrix = axes.is_none() && self.rank(x) == 2;
                let default = if matrix { NormOrd::Fro } else { NormOrd::Two };
                let ord = Self::kwarg(kwargs, "ord").and_then(norm_ord).unwrap_or(default);
                if matrix && ord != NormOrd::Fro {
                    return Ok(Some(self.matrix_norm(ord, xf, &xty, ty, e)?));
                }
                if ord != NormOrd::Two && ord != NormOrd::Fro {
                    let kind = match ord {
                        NormOrd::Inf => ReduceKind::Max,
                        NormOrd::NegInf => ReduceKind::Min,
                        _ => ReduceKind::Sum,
                    };
                    let a = self.array_op(ComputeFn::Unary(UnFn::Abs), vec![xf], &xty)?;
                    return Ok(Some(self.reduction(false, kind, a, axes.as_deref(), ty, e)?));
                }
                let sq = self.array_op(ComputeFn::Binary(BinFn::Mul), vec![xf, xf], &xty)?;
                let s = self.reduction(false, ReduceKind::Sum, sq, axes.as_deref(), ty, e)?;
                self.elementwise(ComputeFn::Unary(UnFn::Sqrt), vec![s], ty, e)?
            }
            _ => return Ok(None),
        };
        Ok(Some(v))
    }

    /// The `i64` positions of the nonzero elements of `x` flattened (row-major), in order:
    /// `flatnonzero(x)`, a filter of `arange(size(x))` by `ravel(x) != 0`, a new 1-d array of the
    /// checked shape `shape` (its size known only at run time; `None` where the checker gave the
    /// array no type of its own, as for a mask's positions inside an index).
    pub(crate) fn flat_nonzero(&mut self, x: ValueId, shape: Option<&[Size]>) -> ValueId {
        let flat = self.flat(x);
        let Type::Array(xd, _) = self.f.ty(flat) else { unreachable!("an array") };
        let n = self.dim(flat, 0);
        let zero = self.constant(Scalar::I64(0).cast(xd));
        let mask = self.compute_new(ComputeFn::Binary(BinFn::Ne), vec![flat, zero], DType::Bool, vec![n], None);
        let iota = self.new_array(DType::I64, vec![n]);
        let (start, step) = (self.i64_const(0), self.i64_const(1));
        self.emit(OpKind::Compute { func: ComputeFn::Arange, out: iota, ins: vec![start, step] });
        self.filter(iota, mask, shape)
    }

    /// `nonzero(x)` (checked: `ty` is a tuple of one `i64[?]` per axis of `x`): NumPy's index
    /// arrays, one per axis, of the nonzero elements in row-major order. The flat positions `p`
    /// ([`Lowerer::flat_nonzero`]); along axis `a`, `(p // s) % n_a` with `s` the product of the
    /// sizes after axis `a` (axis 0 without `%`, the last axis without `//`), fused.
    pub(crate) fn nonzero(&mut self, arg: &Expr, ty: &Ty) -> LResult<Vec<ValueId>> {
        let x = self.expr(arg)?;
        let Ty::Tuple(tys) = ty else { unreachable!("checked: a tuple of index arrays") };
        let Ty::Array(_, shape) = &tys[0] else { unreachable!("checked: index arrays") };
        let p = self.flat_nonzero(x, Some(shape));
        let sizes: Vec<ValueId> = (0..tys.len()).map(|a| self.dim(x, a)).collect();
        self.unravel(p, &sizes, tys)
    }

    /// The coordinates of the flat (row-major) positions `p` in an array of `sizes`, one of type
    /// `tys[a]` per axis `a`: `(p // stride) % size` (no `//` on axis `r - 1`, no `%` on axis 0),
    /// for `nonzero` and `unravel_index`.
    pub(crate) fn unravel(&mut self, p: ValueId, sizes: &[ValueId], tys: &[Ty]) -> LResult<Vec<ValueId>> {
        let r = tys.len();
        let mut out = vec![p; r];
        let mut stride = self.i64_const(1);
        for a in (0..r).rev() {
            let n = sizes[a];
            if a + 1 < r {
                out[a] = self.binary(BinFn::FloorDiv, p, stride, &tys[a])?;
            }
            if a > 0 {
                out[a] = self.binary(BinFn::Rem, out[a], n, &tys[a])?;
                stride = self.scalar_binary(BinFn::Mul, stride, n, DType::I64);
            }
        }
        Ok(out)
    }

    /// `diff(x, n, axis=k)`: `n` times `x[..., 1:] - x[..., :-1]` along axis `k` (for bools `!=`,
    /// NumPy's `not_equal`), each difference a new array of the shrunk shape; `x` itself for
    /// `n = 0`.
    fn diff(&mut self, args: &[Expr], kwargs: &[(ast::Ident, Expr)], ty: &Ty) -> LResult<ValueId> {
        let n = match args.get(1).or(Self::kwarg(kwargs, "n")) {
            Some(ne) => literal_int(ne).expect("checked: an integer literal"),
            None => 1,
        };
        let axis = Self::kwarg(kwargs, "axis").and_then(literal_int).unwrap_or(-1);
        let mut x = self.expr(&args[0])?;
        let Ty::Array(d, mut shape) = self.ty_of(&args[0]).clone() else { unreachable!("checked: an array") };
        let r = shape.len();
        let k = axis.rem_euclid(r as i64) as usize;
        let f = if d == DType::Bool { BinFn::Ne } else { BinFn::Sub };
        for i in 1..=n {
            shape[k] = match shape[k].as_const() {
                Some(m) => Size::lit((m - 1).max(0)),
                None => shape[k].sub(&Size::lit(1)),
            };
            let step_ty = if i == n { ty.clone() } else { Ty::Array(d, shape.clone()) };
            let (hi, lo) = self.shifted_pair(x, r, k);
            x = self.array_op(ComputeFn::Binary(f), vec![hi, lo], &step_ty)?;
        }
        Ok(x)
    }

    /// The views `x[..., 1:, ...]` and `x[..., :-1, ...]` of the `r`-d array `x` along axis `k`:
    /// each element and the one before it, for `diff` and `trapezoid`.
    pub(crate) fn shifted_pair(&mut self, x: ValueId, r: usize, k: usize) -> (ValueId, ValueId) {
        let mut entries = vec![IndexEntry::Full; r];
        entries[k] = IndexEntry::Slice { start: true, stop: false, step: false };
        let one = self.i64_const(1);
        let hi = self.view_with(x, entries.clone(), vec![one]);
        entries[k] = IndexEntry::Slice { start: false, stop: true, step: false };
        let minus_one = self.i64_const(-1);
        let lo = self.view_with(x, entries, vec![minus_one]);
        (hi, lo)
    }

    /// `outer(a, b)`: `a` and `b` flattened (1-d ones as they are, others copied in row-major
    /// order), then `a[:, newaxis] * b[newaxis, :]` (for two bools `&`, NumPy's logical product).
    fn outer(&mut self, args: &[Expr], ty: &Ty) -> LResult<ValueId> {
        let a = self.expr(&args[0])?;
        let b = self.expr(&args[1])?;
        let (a, b) = (self.flat(a), self.flat(b));
        let a = self.view_with(a, vec![IndexEntry::Full, IndexEntry::NewAxis], vec![]);
        let b = self.view_with(b, vec![IndexEntry::NewAxis, IndexEntry::Full], vec![]);
        let f = if ty.dtype() == Some(DType::Bool) { BinFn::And } else { BinFn::Mul };
        self.array_op(ComputeFn::Binary(f), vec![a, b], ty)
    }

    /// Array `v` as a 1-d array of its elements in row-major order: `v` itself when 1-d, else a
    /// new array, a copy (of a scalar, one element).
    pub(crate) fn flat(&mut self, v: ValueId) -> ValueId {
        let (d, r) = match self.f.ty(v) {
            Type::Array(d, r) => (d, r),
            Type::Scalar(d) => {
                let one = self.i64_const(1);
                let out = self.new_array(d, vec![one]);
                self.emit(OpKind::Compute { func: ComputeFn::Fill, out, ins: vec![v] });
                return out;
            }
        };
        if r == 1 {
            return v;
        }
        let sizes: Vec<ValueId> = (0..r).map(|a| self.dim(v, a)).collect();
        let one = self.i64_const(1);
        let count = sizes.iter().fold(one, |p, &n| self.scalar_binary(BinFn::Mul, p, n, DType::I64));
        let out = self.new_array(d, vec![count]);
        let as_v = self.reshape_view(out, sizes);
        self.emit(OpKind::Compute { func: ComputeFn::Copy, out: as_v, ins: vec![v] });
        out
    }

    /// `eye(n, m, k)` and `identity(n)`: `arange(m)[newaxis, :] - arange(n)[:, newaxis] == k`,
    /// converted to the result's dtype; `tri(n, m, k)` the same with `<= k` (NumPy's
    /// `greater_equal.outer(arange(n), arange(-k, m - k))`); negative sizes are run-time errors
    /// (NumPy's ValueError for `eye`; its `tri` gives an empty array).
    fn eye(&mut self, b: Builtin, args: &[Expr], kwargs: &[(ast::Ident, Expr)], ty: &Ty) -> LResult<ValueId> {
        let Ty::Array(dt, shape) = ty else { unreachable!("checked: an array") };
        let mut vals = vec![];
        for a in args.iter().chain(Self::kwarg(kwargs, "k")) {
            let v = self.expr(a)?;
            vals.push(self.cast_scalar(v, DType::I64));
        }
        // `vals`: the positional `n`, `m`, `k` as given, then `k=`; `eye(n, k=j)` has no `m`.
        let (n, m) = (vals[0], if args.len() > 1 { vals[1] } else { vals[0] });
        let k = match vals.get(args.len().min(2)) {
            Some(&k) => k,
            None => self.i64_const(0),
        };
        for size in [n, m] {
            if !self.consts.contains_key(&size) {
                let zero = self.i64_const(0);
                let ok = self.scalar_binary(BinFn::Ge, size, zero, DType::I64);
                let msg =
                    format!("{}: negative dimensions are not allowed", if b == Builtin::Tri { "tri" } else { "eye" });
                self.emit(OpKind::Assert { cond: ok, msg });
            }
        }
        let offset = self.diagonal_offsets(n, m, shape.clone())?;
        let cmp = if b == Builtin::Tri { BinFn::Le } else { BinFn::Eq };
        let on = self.array_op(ComputeFn::Binary(cmp), vec![offset, k], &Ty::Array(DType::Bool, shape.clone()))?;
        if *dt == DType::Bool {
            return Ok(on);
        }
        self.array_op(ComputeFn::Copy, vec![on], ty)
    }

    /// The `(n, m)` `i64` array of each position's diagonal, `arange(m)[newaxis, :] -
    /// arange(n)[:, newaxis]` (`shape`: its two sizes as the checker types them), for `eye`, `tril`
    /// and `triu`; `n` and `m` are not negative.
    pub(super) fn diagonal_offsets(&mut self, n: ValueId, m: ValueId, shape: Vec<Size>) -> LResult<ValueId> {
        let iota = |l: &mut Self, size: ValueId| {
            let out = l.new_array(DType::I64, vec![size]);
            let (start, step) = (l.i64_const(0), l.i64_const(1));
            l.emit(OpKind::Compute { func: ComputeFn::Arange, out, ins: vec![start, step] });
            out
        };
        let rows = iota(self, n);
        let cols = iota(self, m);
        let rows = self.view_with(rows, vec![IndexEntry::Full, IndexEntry::NewAxis], vec![]);
        let cols = self.view_with(cols, vec![IndexEntry::NewAxis, IndexEntry::Full], vec![]);
        self.array_op(ComputeFn::Binary(BinFn::Sub), vec![cols, rows], &Ty::Array(DType::I64, shape))
    }

    /// `nan_to_num(x, nan=v, posinf=p, neginf=m)`: of a float `x`, `where(x != x, v, where(x == inf,
    /// p, where(x == -inf, m, x)))` (`p`, `m` by default the dtype's largest and most negative finite
    /// values); of another dtype a copy of `x`.
    fn nan_to_num(&mut self, args: &[Expr], kwargs: &[(ast::Ident, Expr)], ty: &Ty, e: &Expr) -> LResult<ValueId> {
        let x = self.expr(&args[0])?;
        let dt = ty.dtype().expect("checked: a value");
        if !dt.is_float() {
            return if ty.is_array() { self.array_op(ComputeFn::Copy, vec![x], ty) } else { Ok(x) };
        }
        let big = if dt == DType::F32 { f32::MAX as f64 } else { f64::MAX };
        let mut fills = vec![];
        for (name, default) in [("nan", 0.0), ("posinf", big), ("neginf", -big)] {
            fills.push(match Self::kwarg(kwargs, name) {
                Some(a) => {
                    let v = self.expr(a)?;
                    self.cast_scalar(v, dt)
                }
                None => self.constant(Scalar::F64(default).cast(dt)),
            });
        }
        let bty = retyped(ty, DType::Bool);
        let inf = self.constant(Scalar::F64(f64::INFINITY).cast(dt));
        let minus_inf = self.constant(Scalar::F64(f64::NEG_INFINITY).cast(dt));
        let is_nan = self.binary(BinFn::Ne, x, x, &bty)?;
        let is_inf = self.binary(BinFn::Eq, x, inf, &bty)?;
        let is_minus_inf = self.binary(BinFn::Eq, x, minus_inf, &bty)?;
        let r = self.elementwise(ComputeFn::Where, vec![is_minus_inf, fills[2], x], ty, e)?;
        let r = self.elementwise(ComputeFn::Where, vec![is_inf, fills[1], r], ty, e)?;
        self.elementwise(ComputeFn::Where, vec![is_nan, fills[0], r], ty, e)
    }

    /// `tril(x, k)` (`triu`): `where(j - i <= k, x, 0)` (`>=`) with `i`, `j` the row and column
    /// positions of the last two axes (of a 1-d `x`, both its one axis: NumPy's `(n, n)` result).
    fn tri(&mut self, b: Builtin, args: &[Expr], kwargs: &[(ast::Ident, Expr)], ty: &Ty, e: &Expr) -> LResult<ValueId> {
        let Ty::Array(dt, shape) = ty else { unreachable!("checked: an array") };
        let x = self.expr(&args[0])?;
        let k = match args.get(1).or(Self::kwarg(kwargs, "k")) {
            Some(a) => {
                let v = self.expr(a)?;
                self.cast_scalar(v, DType::I64)
            }
            None => self.i64_const(0),
        };
        let Type::Array(_, r) = self.f.ty(x) else { unreachable!("checked: an array") };
        let (n, m) = if r == 1 { (self.dim(x, 0), self.dim(x, 0)) } else { (self.dim(x, r - 2), self.dim(x, r - 1)) };
        let last2 = shape[shape.len() - 2..].to_vec();
        let offset = self.diagonal_offsets(n, m, last2.clone())?;
        let cmp = if b == Builtin::Tril { BinFn::Le } else { BinFn::Ge };
        let keep = self.array_op(ComputeFn::Binary(cmp), vec![offset, k], &Ty::Array(DType::Bool, last2))?;
        let zero = self.constant(Scalar::I64(0).cast(*dt));
        let v = self.broadcast_operands(&[keep, x, zero], ty);
        self.elementwise(ComputeFn::Where, v, ty, e)
    }

    /// `nansum`, `nanmax`, `nanmin`, `nanmean` of `args[0]` along `axis=` (or of every element):
    /// of integers and bools the plain reduction; of floats, with `nan = x != x`, the reduction of
    /// `where(nan, fill, x)` (`fill` 0, or `-inf` for `nanmax`, `inf` for `nanmin`); `nanmean`
    /// divides by the count of `x == x`, and `nanmax`/`nanmin` give NaN where that count is 0.
    /// `nanargmin(x)` and `nanargmax(x)` (NumPy's), of every element or along `axis=`: for a
    /// float `x`, a run-time check that no slice is all NaN unless `x` is empty (NumPy's
    /// ValueError), then `argmin`/`argmax` of `where(x != x, inf, x)` (`-inf` for `nanargmax`);
    /// for an integer or bool `x`, `argmin`/`argmax`.
    fn nan_arg_reduction(
        &mut self,
        b: Builtin,
        args: &[Expr],
        kwargs: &[(ast::Ident, Expr)],
        ty: &Ty,
        e: &Expr,
    ) -> LResult<ValueId> {
        let x = self.expr(&args[0])?;
        let axis = self.axis_kwarg(kwargs, x)?;
        let (kind, fill) = if b == Builtin::NanArgMin {
            (ReduceKind::Min, f64::INFINITY)
        } else {
            (ReduceKind::Max, f64::NEG_INFINITY)
        };
        let xd = self.f.ty(x).dtype();
        if !xd.is_float() {
            return self.arg_reduction(kind, x, axis, ty, e);
        }
        let axes = axis.map(|a| vec![a]);
        let xty = self.ty_of(&args[0]).clone();
        let bty = retyped(&xty, DType::Bool);
        // NumPy: `if mask.size and all(mask, axis).any(): raise ValueError("All-NaN slice encountered")`.
        let present = self.binary(BinFn::Eq, x, x, &bty)?;
        let counts = self.reduction(false, ReduceKind::Sum, present, axes.as_deref(), ty, e)?;
        let zero = self.i64_const(0);
        let all_nan = if ty.is_array() {
            let none = self.binary(BinFn::Eq, counts, zero, &retyped(ty, DType::Bool))?;
            self.reduction(false, ReduceKind::Sum, none, None, &Ty::Scalar(DType::I64), e)?
        } else {
            let none = self.scalar_binary(BinFn::Eq, counts, zero, DType::I64);
            self.cast_scalar(none, DType::I64)
        };
        let size = self.reduced_count(x, None);
        let (empty, clean_slices) = (
            self.scalar_binary(BinFn::Eq, size, zero, DType::I64),
            self.scalar_binary(BinFn::Eq, all_nan, zero, DType::I64),
        );
        let ok = self.scalar_binary(BinFn::Or, empty, clean_slices, DType::Bool);
        self.emit(OpKind::Assert { cond: ok, msg: "All-NaN slice encountered (NumPy's ValueError)".into() });
        let nan = self.binary(BinFn::Ne, x, x, &bty)?;
        let fill = self.constant(Scalar::F64(fill).cast(xd));
        let clean = self.array_op(ComputeFn::Where, vec![nan, fill, x], &xty)?;
        self.arg_reduction(kind, clean, axis, ty, e)
    }

    fn nan_reduction(
        &mut self,
        b: Builtin,
        args: &[Expr],
        kwargs: &[(ast::Ident, Expr)],
        ty: &Ty,
        e: &Expr,
    ) -> LResult<ValueId> {
        let x = self.expr(&args[0])?;
        let axes = self.axes_kwarg(kwargs, x)?;
        let axes = axes.as_deref();
        let (mean, kind) = match b {
            Builtin::NanMax => (false, ReduceKind::Max),
            Builtin::NanMin => (false, ReduceKind::Min),
            Builtin::NanMean => (true, ReduceKind::Sum),
            _ => (false, ReduceKind::Sum),
        };
        let xd = self.f.ty(x).dtype();
        if !xd.is_float() || !self.f.ty(x).is_array() {
            return self.reduction(mean, kind, x, axes, ty, e);
        }
        let xty = self.ty_of(&args[0]).clone();
        let bty = retyped(&xty, DType::Bool);
        let nan = self.binary(BinFn::Ne, x, x, &bty)?;
        let fill = match b {
            Builtin::NanMax => f64::NEG_INFINITY,
            Builtin::NanMin => f64::INFINITY,
            _ => 0.0,
        };
        let fill = self.constant(Scalar::F64(fill).cast(xd));
        let clean = self.array_op(ComputeFn::Where, vec![nan, fill, x], &xty)?;
        if b == Builtin::NanSum {
            return self.reduction(false, ReduceKind::Sum, clean, axes, ty, e);
        }
        let r = self.reduction(false, kind, clean, axes, ty, e)?;
        let dt = ty.dtype().expect("checked: a float");
        let present = self.binary(BinFn::Eq, x, x, &bty)?;
        let count = self.reduction(false, ReduceKind::Sum, present, axes, &retyped(ty, DType::I64), e)?;
        if b == Builtin::NanMean {
            let count = if ty.is_array() {
                self.array_op(ComputeFn::Copy, vec![count], &retyped(ty, dt))?
            } else {
                self.cast_scalar(count, dt)
            };
            return self.binary(BinFn::Div, r, count, ty);
        }
        let zero = self.i64_const(0);
        let none = self.binary(BinFn::Eq, count, zero, &retyped(ty, DType::Bool))?;
        let nan_value = self.constant(Scalar::F64(f64::NAN).cast(dt));
        self.elementwise(ComputeFn::Where, vec![none, nan_value, r], ty, e)
    }

    /// `v` (of checked type `t`) converted to dtype `d`: `v` itself when of `d`, else a cast
    /// scalar or a converted copy of the array.
    pub(crate) fn as_dtype(&mut self, v: ValueId, t: &Ty, d: DType) -> LResult<ValueId> {
        match self.f.ty(v) {
            Type::Scalar(vd) if vd == d => Ok(v),
            Type::Array(vd, _) if vd == d => Ok(v),
            Type::Scalar(_) => Ok(self.cast_scalar(v, d)),
            Type::Array(..) => self.array_op(ComputeFn::Copy, vec![v], &retyped(t, d)),
        }
    }

    /// `isclose(a, b)` as NumPy computes it: `b` converted to its float dtype `fb` (`f32` stays,
    /// others `f64`; a literal stays weak), `p` the dtype of `a` and that promoted; then
    /// `abs(a - b) <= atol + rtol * abs(b)` (the difference in `p`, the tolerance in `fb` and
    /// compared in `p`) where `abs(b) < inf`, or `a == b`; with `equal_nan=true` also where both
    /// are NaN. `allclose(a, b)`: whether no element is `false` (a count of them compared with 0).
    fn isclose(
        &mut self,
        b: Builtin,
        args: &[Expr],
        kwargs: &[(ast::Ident, Expr)],
        ty: &Ty,
        e: &Expr,
    ) -> LResult<ValueId> {
        let (ta, tb) = (self.ty_of(&args[0]).clone(), self.ty_of(&args[1]).clone());
        let (da, db) = (ta.dtype().expect("checked: a value"), tb.dtype().expect("checked: a value"));
        let fb = if db == DType::F32 { DType::F32 } else { DType::F64 };
        // NumPy converts a Python int `b` to a Python float: weak either way.
        let wb = weak_of(&args[1]).map(|_| Weak::Float);
        let p = promote(da, weak_of(&args[0]), fb, wb);
        let shape = match ty {
            Ty::Array(_, s) => Some(s.clone()),
            _ => Self::broadcast_shape(&ta, &tb, e),
        };
        let rty = |d: DType| match &shape {
            Some(s) => Ty::Array(d, s.clone()),
            None => Ty::Scalar(d),
        };
        let x = self.expr(&args[0])?;
        let y = self.expr(&args[1])?;
        let (xp, yp) = (self.as_dtype(x, &ta, p)?, self.as_dtype(y, &tb, p)?);
        let yf = self.as_dtype(y, &tb, fb)?;
        let diff = self.binary(BinFn::Sub, xp, yp, &rty(p))?;
        let adiff = self.elementwise(ComputeFn::Unary(UnFn::Abs), vec![diff], &rty(p), e)?;
        let fty = retyped(&tb, fb);
        let ay = self.elementwise(ComputeFn::Unary(UnFn::Abs), vec![yf], &fty, e)?;
        let mut tols = vec![];
        for (name, default) in [("rtol", 1e-5), ("atol", 1e-8)] {
            let v = match Self::kwarg(kwargs, name) {
                Some(k) => {
                    let v = self.expr(k)?;
                    self.cast_scalar(v, fb)
                }
                None => self.constant(Scalar::F64(default).cast(fb)),
            };
            tols.push(v);
        }
        let scaled = self.binary(BinFn::Mul, ay, tols[0], &fty)?;
        let tol = self.binary(BinFn::Add, scaled, tols[1], &fty)?;
        let tol = self.as_dtype(tol, &fty, p)?;
        let within = self.binary(BinFn::Le, adiff, tol, &rty(DType::Bool))?;
        let inf = self.constant(Scalar::F64(f64::INFINITY).cast(fb));
        let finite = self.binary(BinFn::Lt, ay, inf, &retyped(&tb, DType::Bool))?;
        let close = self.binary(BinFn::And, within, finite, &rty(DType::Bool))?;
        let equal = self.binary(BinFn::Eq, xp, yp, &rty(DType::Bool))?;
        let mut r = self.binary(BinFn::Or, close, equal, &rty(DType::Bool))?;
        if matches!(Self::kwarg(kwargs, "equal_nan").map(|v| &v.kind), Some(ast::ExprKind::Bool(true))) {
            let nx = self.binary(BinFn::Ne, xp, xp, &retyped(&ta, DType::Bool))?;
            let ny = self.binary(BinFn::Ne, yp, yp, &retyped(&tb, DType::Bool))?;
            let both = self.binary(BinFn::And, nx, ny, &rty(DType::Bool))?;
            r = self.binary(BinFn::Or, r, both, &rty(DType::Bool))?;
        }
        if b == Builtin::Isclose || !self.f.ty(r).is_array() {
            return Ok(r);
        }
        let no = self.constant(Scalar::Bool(false));
        let far = self.binary(BinFn::Eq, r, no, &rty(DType::Bool))?;
        let count = self.reduction(false, ReduceKind::Sum, far, None, &Ty::Scalar(DType::I64), e)?;
        let zero = self.i64_const(0);
        self.binary(BinFn::Eq, count, zero, ty)
    }

    /// `array_equal(a, b)` (`false` where the shapes differ, known at compile time: the checker's
    /// `builtin::shapes_differ`) and `array_equiv(a, b)` (broadcast): no element of `a == b`
    /// (compared in their promoted dtype, as NumPy) is `false`; with `equal_nan=true` two NaNs
    /// are equal too. A count of the unequal elements compared with 0, as `allclose`.
    fn array_equal(&mut self, b: Builtin, args: &[Expr], kwargs: &[(ast::Ident, Expr)], e: &Expr) -> LResult<ValueId> {
        let (ta, tb) = (self.ty_of(&args[0]).clone(), self.ty_of(&args[1]).clone());
        let x = self.expr(&args[0])?;
        let y = self.expr(&args[1])?;
        if b == Builtin::ArrayEqual && arrayc_grammar::builtin::shapes_differ(&ta, &tb) == Some(true) {
            return Ok(self.constant(Scalar::Bool(false)));
        }
        let (da, db) = (ta.dtype().expect("checked: a value"), tb.dtype().expect("checked: a value"));
        let p = promote(da, weak_of(&args[0]), db, weak_of(&args[1]));
        let rty = |d: DType| match Self::broadcast_shape(&ta, &tb, e) {
            Some(s) => Ty::Array(d, s),
            None => Ty::Scalar(d),
        };
        let (xp, yp) = (self.as_dtype(x, &ta, p)?, self.as_dtype(y, &tb, p)?);
        let mut r = self.binary(BinFn::Eq, xp, yp, &rty(DType::Bool))?;
        if matches!(Self::kwarg(kwargs, "equal_nan").map(|v| &v.kind), Some(ast::ExprKind::Bool(true))) {
            let nx = self.binary(BinFn::Ne, xp, xp, &retyped(&ta, DType::Bool))?;
            let ny = self.binary(BinFn::Ne, yp, yp, &retyped(&tb, DType::Bool))?;
            let both = self.binary(BinFn::And, nx, ny, &rty(DType::Bool))?;
            r = self.binary(BinFn::Or, r, both, &rty(DType::Bool))?;
        }
        if !self.f.ty(r).is_array() {
            return Ok(r);
        }
        let no = self.constant(Scalar::Bool(false));
        let unequal = self.binary(BinFn::Eq, r, no, &rty(DType::Bool))?;
        let count = self.reduction(false, ReduceKind::Sum, unequal, None, &Ty::Scalar(DType::I64), e)?;
        let zero = self.i64_const(0);
        self.binary(BinFn::Eq, count, zero, &Ty::Scalar(DType::Bool))
    }

    /// The broadcast shape of `a` and `b` (`None` for two scalars) as far as it is known: a size
    /// of 1 gives way to the other, equal sizes stay, and different symbolic ones are a size
    /// named after `e` (broadcast at run time).
    fn broadcast_shape(a: &Ty, b: &Ty, e: &Expr) -> Option<Vec<Size>> {
        let shape = |t: &Ty| match t {
            Ty::Array(_, s) => s.clone(),
            _ => vec![],
        };
        let (sa, sb) = (shape(a), shape(b));
        if !a.is_array() && !b.is_array() {
            return None;
        }
        let r = sa.len().max(sb.len());
        let at = |s: &[Size], k: usize| if k + s.len() >= r { s[k + s.len() - r].clone() } else { Size::lit(1) };
        Some(
            (0..r)
                .map(|k| {
                    let (x, y) = (at(&sa, k), at(&sb, k));
                    if x == Size::lit(1) || x == y {
                        y
                    } else if y == Size::lit(1) {
                        x
                    } else {
                        Size::sym(SizeSym::Named(format!("?broadcast{}.{k}", e.id.0)))
                    }
                })
                .collect(),
        )
    }

    /// `average(x, axis=k)`: its value ([`Lowerer::average_parts`]).
    fn average(&mut self, args: &[Expr], kwargs: &[(ast::Ident, Expr)], ty: &Ty, e: &Expr) -> LResult<ValueId> {
        Ok(self.average_parts(args, kwargs, ty, e)?.0)
    }

    /// NumPy's `average(x, .., returned=True)` (checked: `ty` the pair): the average and the sum
    /// of the weights (without weights, the count of the elements averaged) of its shape and dtype.
    pub(crate) fn average_returned(
        &mut self,
        args: &[Expr],
        kwargs: &[(ast::Ident, Expr)],
        ty: &Ty,
        e: &Expr,
    ) -> LResult<Vec<ValueId>> {
        let Ty::Tuple(ts) = ty else { unreachable!("checked: a pair") };
        let (avg, scl) = self.average_parts(args, kwargs, &ts[0], e)?;
        let dt = ts[0].dtype().expect("checked: a float");
        let scl = match (self.f.ty(avg), self.f.ty(scl)) {
            (Type::Array(_, r), Type::Scalar(_)) => {
                let sizes = (0..r).map(|a| self.dim(avg, a)).collect();
                let out = self.new_array(dt, sizes);
                let s = self.cast_scalar(scl, dt);
                self.emit(OpKind::Compute { func: ComputeFn::Fill, out, ins: vec![s] });
                out
            }
            (_, Type::Scalar(_)) => self.cast_scalar(scl, dt),
            _ => scl,
        };
        Ok(vec![avg, scl])
    }

    /// `average(x, axis=k)`: `mean`'s reduction; with `weights=w`, `x` and `w` converted to the
    /// result's dtype, `sum(x * w) / sum(w)` along the axes, after a run-time check that no sum
    /// of the weights is 0 (NumPy's ZeroDivisionError). A 1-d `w` with `axis=k` is NumPy's: `w`
    /// along axis `k` (size 1 elsewhere), its sum one scalar. The value and the sum of the
    /// weights (without weights, the count of elements averaged, a scalar).
    fn average_parts(
        &mut self,
        args: &[Expr],
        kwargs: &[(ast::Ident, Expr)],
        ty: &Ty,
        e: &Expr,
    ) -> LResult<(ValueId, ValueId)> {
        let x = self.expr(&args[0])?;
        let axes = self.axes_kwarg(kwargs, x)?;
        let axes = axes.as_deref();
        let Some(we) = Self::kwarg(kwargs, "weights") else {
            let avg = self.reduction(true, ReduceKind::Sum, x, axes, ty, e)?;
            let count = self.reduced_count(x, axes);
            return Ok((avg, count));
        };
        let w = self.expr(we)?;
        let dt = ty.dtype().expect("checked: a float");
        let xty = self.ty_of(&args[0]).clone();
        let wty = self.ty_of(we).clone();
        let xf = self.as_dtype(x, &xty, dt)?;
        let wf = self.as_dtype(w, &wty, dt)?;
        let (r, rw) = (self.rank(x), self.rank(w));
        let (wb, den_axes, den_ty) = match axes {
            Some(&[k]) if rw == 1 && r > 1 => {
                // NumPy's ValueError where `w` is not of `x.shape[k]` (a size 1 would broadcast).
                let (n, m) = (self.dim(x, k), self.dim(w, 0));
                let ok = self.scalar_binary(BinFn::Eq, n, m, DType::I64);
                let msg = "average: Length of weights not compatible with specified axis (NumPy's ValueError)".into();
                self.emit(OpKind::Assert { cond: ok, msg });
                let entries = (0..r).map(|a| if a == k { IndexEntry::Full } else { IndexEntry::NewAxis }).collect();
                (self.expand(wf, entries), None, Ty::Scalar(dt))
            }
            _ => (wf, axes, ty.clone()),
        };
        let prod = self.binary(BinFn::Mul, xf, wb, &retyped(&xty, dt))?;
        let num = self.reduction(false, ReduceKind::Sum, prod, axes, ty, e)?;
        let den = self.reduction(false, ReduceKind::Sum, wf, den_axes, &den_ty, e)?;
        let avg_ty = ty.clone();
        let ty = &den_ty;
        let zero = self.constant(Scalar::F64(0.0).cast(dt));
        let is_zero = self.binary(BinFn::Eq, den, zero, &retyped(ty, DType::Bool))?;
        let zeros = if ty.is_array() {
            self.reduction(false, ReduceKind::Sum, is_zero, None, &Ty::Scalar(DType::I64), e)?
        } else {
            self.cast_scalar(is_zero, DType::I64)
        };
        let none = self.i64_const(0);
        let ok = self.scalar_binary(BinFn::Eq, zeros, none, DType::I64);
        let msg = "average: weights sum to zero, can't be normalized (NumPy's ZeroDivisionError)".to_string();
        self.emit(OpKind::Assert { cond: ok, msg });
        let avg = self.binary(BinFn::Div, num, den, &avg_ty)?;
        Ok((avg, den))
    }

    /// `unique(x)`: `x` flattened and sorted (`arr.sort`, NaN last), then a filter of the sorted
    /// elements by [`unique_mask`](Self::unique_mask).
    fn unique(&mut self, arg: &Expr, ty: &Ty) -> LResult<ValueId> {
        let x = self.expr(arg)?;
        let src = self.flat(x);
        Ok(self.unique_of(src, ty.shape()))
    }

    /// The lowering of `unique` ([`Lowerer::unique`]) of the 1-d `src`: a new 1-d array of its
    /// sorted distinct elements, of checked shape `shape` when the checker typed it; the set
    /// routines read it too (`set_ops.rs`).
    pub(crate) fn unique_of(&mut self, src: ValueId, shape: Option<&[Size]>) -> ValueId {
        let Type::Array(xd, _) = self.f.ty(src) else { unreachable!("an array") };
        let n = self.dim(src, 0);
        let sorted = self.new_array(xd, vec![n]);
        self.emit(OpKind::Sort { out: sorted, src, axis: 0, indices: false });
        let mask = self.unique_mask(sorted, xd, n);
        self.filter(sorted, mask, shape)
    }

    /// The mask of the first of each run of equal elements of the sorted 1-d `sorted` (dtype
    /// `xd`, `n` elements): true at the first and wherever `s[1:] != s[:-1]` (for floats, not
    /// where both are NaN: the NaNs count as one, NumPy 2's `equal_nan=True`).
    fn unique_mask(&mut self, sorted: ValueId, xd: DType, n: ValueId) -> ValueId {
        let (hi, lo) = (self.drop_first(sorted), self.drop_last(sorted));
        let m = self.dim(hi, 0);
        let bool_op = |l: &mut Self, f: BinFn, a: ValueId, b: ValueId| {
            l.compute_new(ComputeFn::Binary(f), vec![a, b], DType::Bool, vec![m], None)
        };
        let mut differs = bool_op(self, BinFn::Ne, hi, lo);
        if xd.is_float() {
            let (hi_num, lo_num) = (bool_op(self, BinFn::Eq, hi, hi), bool_op(self, BinFn::Eq, lo, lo));
            let either = bool_op(self, BinFn::Or, hi_num, lo_num);
            differs = bool_op(self, BinFn::And, differs, either);
        }
        let mask = self.new_array(DType::Bool, vec![n]);
        let yes = self.constant(Scalar::Bool(true));
        self.emit(OpKind::Compute { func: ComputeFn::Fill, out: mask, ins: vec![yes] });
        let rest = self.drop_first(mask);
        self.emit(OpKind::Compute { func: ComputeFn::Copy, out: rest, ins: vec![differs] });
        mask
    }

    /// `unique(x, return_index=, return_inverse=, return_counts=)` (checked: `ty` the tuple of
    /// the parts asked for, `builtin::unique_parts`): the values as [`unique`](Self::unique)'s,
    /// but sorted through a stable `argsort` `p` when the index or the inverse is asked for (a
    /// gather of `x` flattened through `p`). With `m` the mask of first elements of runs:
    /// `index` the filter of `p` by `m` (the first occurrence of each value, as NumPy's stable
    /// sort gives); `inverse` each sorted element's run number, `cumsum(m) - 1`, scattered to its
    /// place `p` and read in `x`'s shape (NumPy 2); `counts` the differences of the runs' starts
    /// (the filter of `arange(n)` by `m`) and their ends (the next start, `n` for the last).
    pub(crate) fn unique_with_parts(
        &mut self,
        arg: &Expr,
        kwargs: &[(ast::Ident, Expr)],
        ty: &Ty,
    ) -> LResult<Vec<ValueId>> {
        let [index, inverse, counts] = arrayc_grammar::builtin::unique_parts(|k| Self::kwarg(kwargs, k));
        let Ty::Tuple(tys) = ty else { unreachable!("checked: a tuple") };
        let k_shape = tys[0].shape().expect("checked: 1-d values").to_vec();
        let Ty::Array(_, x_shape) = self.ty_of(arg).clone() else { unreachable!("checked: an array") };
        let x = self.expr(arg)?;
        let r = self.rank(x);
        let x_sizes: Vec<ValueId> = (0..r).map(|a| self.dim(x, a)).collect();
        let src = self.flat(x);
        let Type::Array(xd, _) = self.f.ty(src) else { unreachable!("an array") };
        let n = self.dim(src, 0);
        let zero = self.i64_const(0);
        let one = self.i64_const(1);
        let flat_size = Size::sym(SizeSym::Named(format!("?unique{}", arg.id.0)));
        let (sorted, perm) = if index || inverse {
            let perm = self.new_array(DType::I64, vec![n]);
            self.emit(OpKind::Sort { out: perm, src, axis: 0, indices: true });
            (self.gather(src, &[perm], 0, xd, std::slice::from_ref(&flat_size), None), Some(perm))
        } else {
            let sorted = self.new_array(xd, vec![n]);
            self.emit(OpKind::Sort { out: sorted, src, axis: 0, indices: false });
            (sorted, None)
        };
        let mask = self.unique_mask(sorted, xd, n);
        let mut out = vec![self.filter(sorted, mask, Some(&k_shape))];
        if index {
            out.push(self.filter(perm.expect("sorted through argsort"), mask, Some(&k_shape)));
        }
        if inverse {
            let runs = self.compute_new(ComputeFn::Scan(ReduceKind::Sum, 0), vec![mask], DType::I64, vec![n], None);
            let ids = self.compute_new(ComputeFn::Binary(BinFn::Sub), vec![runs, one], DType::I64, vec![n], None);
            let inv = self.new_array(DType::I64, vec![n]);
            let perm = perm.expect("sorted through argsort");
            self.scatter(
                inv,
                &[perm],
                Some(std::slice::from_ref(&flat_size)),
                ids,
                ScatterKind::Set,
                ScatterMode::Raise,
            );
            let shaped = self.reshape_view(inv, x_sizes);
            self.shapes.insert(shaped, x_shape);
            out.push(shaped);
        }
        if counts {
            let at = self.compute_new(ComputeFn::Arange, vec![zero, one], DType::I64, vec![n], None);
            let starts = self.filter(at, mask, Some(&k_shape));
            let k = self.dim(starts, 0);
            let ends = self.new_array(DType::I64, vec![k]);
            self.emit(OpKind::Compute { func: ComputeFn::Fill, out: ends, ins: vec![n] });
            let minus_one = self.i64_const(-1);
            let head = self.view_with(
                ends,
                vec![IndexEntry::Slice { start: false, stop: true, step: false }],
                vec![minus_one],
            );
            let next =
                self.view_with(starts, vec![IndexEntry::Slice { start: true, stop: false, step: false }], vec![one]);
            self.emit(OpKind::Compute { func: ComputeFn::Copy, out: head, ins: vec![next] });
            let last = tys.last().expect("checked: counts");
            out.push(self.array_op(ComputeFn::Binary(BinFn::Sub), vec![ends, starts], last)?);
        }
        Ok(out)
    }

    /// `searchsorted(a, v, side=s)`: `a` and `v` converted to their promoted dtype, viewed as
    /// `a[newaxis, ..., :]` and `v[..., newaxis]`, and per element of `v` the count along `a` of
    /// `a < v` (`side=left`) or of `!(v < a)` (`side=right`), where for floats `x < y` is NumPy's
    /// sort order, NaN greatest: `x < y | (y != y & x == x)`.
    fn searchsorted(&mut self, args: &[Expr], kwargs: &[(ast::Ident, Expr)], ty: &Ty, e: &Expr) -> LResult<ValueId> {
        let right = Self::kwarg(kwargs, "side").and_then(searchsorted_right).unwrap_or(false);
        let (ta, tv) = (self.ty_of(&args[0]).clone(), self.ty_of(&args[1]).clone());
        let Ty::Array(da, sa) = &ta else { unreachable!("checked: a 1-d array") };
        let dv = tv.dtype().expect("checked: a value");
        let p = promote(*da, None, dv, weak_of(&args[1]));
        let a = self.expr(&args[0])?;
        let v = self.expr(&args[1])?;
        let (a, v) = (self.as_dtype(a, &ta, p)?, self.as_dtype(v, &tv, p)?);
        let vs = match &tv {
            Ty::Array(_, s) => s.clone(),
            _ => vec![],
        };
        self.search_sorted(a, &sa[0], v, &vs, p, right, ty, e)
    }

    /// The lowering of `searchsorted` ([`Lowerer::searchsorted`]) of the sorted 1-d `a` (checked
    /// size `n`) and `v` (checked shape `vs`, `[]` for a scalar), both of dtype `p`, into the `i64`
    /// result of type `ty`; `digitize` and `interp` read it too.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn search_sorted(
        &mut self,
        a: ValueId,
        n: &Size,
        v: ValueId,
        vs: &[Size],
        p: DType,
        right: bool,
        ty: &Ty,
        e: &Expr,
    ) -> LResult<ValueId> {
        let vs = vs.to_vec();
        let r = vs.len();
        let (a, v) = if r == 0 {
            (a, v)
        } else {
            let mut ae = vec![IndexEntry::NewAxis; r];
            ae.push(IndexEntry::Full);
            let mut ve = vec![IndexEntry::Full; r];
            ve.push(IndexEntry::NewAxis);
            (self.view_with(a, ae, vec![]), self.view_with(v, ve, vec![]))
        };
        let mut pair = vs.clone();
        pair.push(n.clone());
        let bty = Ty::Array(DType::Bool, pair);
        // The operands' own shapes: `a` as `(1, ..., 1, n)`, `v` as `(..., 1)` (a scalar `v`: `a`'s).
        let mut a_shape = vec![Size::lit(1); r];
        a_shape.push(n.clone());
        let aty = Ty::Array(DType::Bool, a_shape);
        let mut v_shape = vs.clone();
        v_shape.push(Size::lit(1));
        let vty = if r == 0 { Ty::Scalar(DType::Bool) } else { Ty::Array(DType::Bool, v_shape) };
        let less = |l: &mut Self, (x, xty): (ValueId, &Ty), (y, yty): (ValueId, &Ty)| -> LResult<ValueId> {
            let lt = l.binary(BinFn::Lt, x, y, &bty)?;
            if !p.is_float() {
                return Ok(lt);
            }
            let y_nan = l.binary(BinFn::Ne, y, y, yty)?;
            let x_num = l.binary(BinFn::Eq, x, x, xty)?;
            let nan_after = l.binary(BinFn::And, y_nan, x_num, &bty)?;
            l.binary(BinFn::Or, lt, nan_after, &bty)
        };
        let counted = if right {
            let after = less(self, (v, &vty), (a, &aty))?;
            let no = self.constant(Scalar::Bool(false));
            self.binary(BinFn::Eq, after, no, &bty)?
        } else {
            less(self, (a, &aty), (v, &vty))?
        };
        self.reduction(false, ReduceKind::Sum, counted, Some(&[r]), ty, e)
    }

    /// `x` sorted along axis `axis` into a new array (`arr.sort`, NaN last), or for `None` (NumPy's
    /// `axis=None`) `x` flattened (a copy unless 1-d) and sorted: the sorted array, the axis and
    /// its size. `median`, `percentile` and `quantile` read it.
    pub(super) fn sorted_along(&mut self, x: ValueId, axis: Option<usize>) -> (ValueId, usize, ValueId) {
        let (src, k) = match axis {
            Some(k) => (x, k),
            None => (self.flat(x), 0),
        };
        let Type::Array(xd, r) = self.f.ty(src) else { unreachable!("an array") };
        let sizes = (0..r).map(|a| self.dim(src, a)).collect();
        let sorted = self.new_array(xd, sizes);
        self.emit(OpKind::Sort { out: sorted, src, axis: k, indices: false });
        let n = self.dim(sorted, k);
        (sorted, k, n)
    }

    /// The elements of `sorted` at position `i` (an `i64` scalar in range) along axis `k`: a view of
    /// the other axes, or with `scalar` (no other axes) the element, read by the host.
    pub(super) fn along(&mut self, sorted: ValueId, k: usize, i: ValueId, scalar: bool) -> ValueId {
        let Type::Array(_, r) = self.f.ty(sorted) else { unreachable!("an array") };
        let mut entries = vec![IndexEntry::Full; r];
        entries[k] = IndexEntry::At;
        let v = self.view_with(sorted, entries, vec![i]);
        if scalar {
            self.load_element(v)
        } else {
            v
        }
    }

    /// Where the lines of `sorted` (along axis `k`, of `n` elements) hold a NaN, which sorts last:
    /// `r` (of checked type `ty`) with NaN there, as NumPy's `median` and `quantile`; `r` itself
    /// for integers.
    pub(super) fn nan_where_nan(
        &mut self,
        sorted: ValueId,
        k: usize,
        n: ValueId,
        r: ValueId,
        ty: &Ty,
        e: &Expr,
    ) -> LResult<ValueId> {
        let xd = self.f.ty(sorted).dtype();
        if !xd.is_float() {
            return Ok(r);
        }
        let dt = ty.dtype().expect("checked: a value");
        let one = self.i64_const(1);
        let last = self.scalar_binary(BinFn::Sub, n, one, DType::I64);
        let Type::Array(_, rank) = self.f.ty(sorted) else { unreachable!("an array") };
        let z = self.along(sorted, k, last, rank == 1);
        let zty = match self.f.ty(z) {
            Type::Array(..) => {
                let Ty::Array(_, s) = ty else { unreachable!("an array result of an array line") };
                Ty::Array(DType::Bool, s[s.len() + 1 - rank..].to_vec())
            }
            Type::Scalar(_) => Ty::Scalar(DType::Bool),
        };
        let nan = self.binary(BinFn::Ne, z, z, &zty)?;
        let nan_value = self.constant(Scalar::F64(f64::NAN).cast(dt));
        self.elementwise(ComputeFn::Where, vec![nan, nan_value, r], ty, e)
    }

    /// `median(x)` (of the flattened `x`) or `median(x, axis=k)`: `x` sorted along the axis
    /// ([`Lowerer::sorted_along`]), then the mean of its elements at `(n - 1) // 2` and `n // 2`
    /// (`n` the axis' size), converted to the result's float dtype first; for a float `x`, NaN
    /// where the last sorted element is NaN (NumPy's median of values holding a NaN). Of an empty
    /// axis NaN, as NumPy's (which warns): the elements are read in an `scf.if` on `n > 0`.
    fn median(&mut self, args: &[Expr], kwargs: &[(ast::Ident, Expr)], ty: &Ty, e: &Expr) -> LResult<ValueId> {
        let x = self.expr(&args[0])?;
        let axis = self.axis_kwarg(kwargs, x)?;
        if !self.f.ty(x).is_array() {
            return Err(self.error("E0911", &e.span, "reduction of a scalar", "reductions take an array"));
        }
        let dt = ty.dtype().expect("checked: a float");
        let (sorted, k, n) = self.sorted_along(x, axis);
        let zero = self.i64_const(0);
        let nonempty = self.scalar_binary(BinFn::Gt, n, zero, DType::I64);
        let (then_body, then_yields) = self.in_body(|l| Ok(vec![l.median_of_sorted(sorted, k, n, ty, e)?]))?;
        let (else_body, else_yields) = self.in_body(|l| {
            let nan = l.constant(Scalar::F64(f64::NAN).cast(dt));
            let Type::Array(_, r) = l.f.ty(sorted) else { unreachable!("an array") };
            if !ty.is_array() {
                return Ok(vec![nan]);
            }
            let sizes = (0..r).filter(|&a| a != k).map(|a| l.dim(sorted, a)).collect();
            let out = l.new_array(dt, sizes);
            l.emit(OpKind::Compute { func: ComputeFn::Fill, out, ins: vec![nan] });
            Ok(vec![out])
        })?;
        let results = self.results_like(&then_yields, &[String::from("median")]);
        self.emit(OpKind::If {
            cond: nonempty,
            then_body,
            then_yields,
            else_body,
            else_yields,
            results: results.clone(),
        });
        Ok(results[0])
    }

    /// The median of the non-empty lines along axis `k` (of `n` elements) of `sorted`.
    fn median_of_sorted(&mut self, sorted: ValueId, k: usize, n: ValueId, ty: &Ty, e: &Expr) -> LResult<ValueId> {
        let xd = self.f.ty(sorted).dtype();
        let dt = ty.dtype().expect("checked: a float");
        let (one, two) = (self.i64_const(1), self.i64_const(2));
        let last = self.scalar_binary(BinFn::Sub, n, one, DType::I64);
        let lo = self.scalar_binary(BinFn::FloorDiv, last, two, DType::I64);
        let hi = self.scalar_binary(BinFn::FloorDiv, n, two, DType::I64);
        let fty = retyped(ty, dt);
        let at = |l: &mut Self, i: ValueId| -> LResult<ValueId> {
            let v = l.along(sorted, k, i, !ty.is_array());
            if !ty.is_array() {
                return Ok(l.cast_scalar(v, dt));
            }
            if xd == dt {
                return Ok(v);
            }
            l.array_op(ComputeFn::Copy, vec![v], &fty)
        };
        let (a, b) = (at(self, lo)?, at(self, hi)?);
        let half = self.constant(Scalar::F64(0.5).cast(dt));
        let sum = self.binary(BinFn::Add, a, b, ty)?;
        let med = self.binary(BinFn::Mul, sum, half, ty)?;
        self.nan_where_nan(sorted, k, n, med, ty, e)
    }
}

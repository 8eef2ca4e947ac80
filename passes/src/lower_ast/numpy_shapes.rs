//! NumPy's everyday shape and indexing idioms (their types: `grammar/src/check/numpy_shapes.rs`;
//! issue 31), composed of existing operations so that they fuse and need nothing new on the CPU or
//! the GPU: `fliplr`, `flipud` and `rot90` are views with step -1 (and `arr.transpose` for an odd
//! number of quarter turns), `transpose(x, axes)` an `arr.transpose`; `pad`'s modes other than
//! `constant` are gathers along each axis through fused index arithmetic.

use super::{LResult, Lowerer};
use arrayc_dialect::ir::{BinFn, ComputeFn, IndexEntry, OpKind, ReduceKind, Scalar, ValueId};
use arrayc_grammar::ast::{self, DType, Expr};
use arrayc_grammar::builtin::bool_literal;
use arrayc_grammar::builtin::Builtin;
use arrayc_grammar::check::literal_int;
use arrayc_grammar::check::promote::{promote, weak_of};
use arrayc_grammar::numpy_shapes::{permutation, rot90_args, rot90_plan, transpose_axes, PadMode};
use arrayc_grammar::types::Size;
use arrayc_grammar::types::Ty;

impl Lowerer<'_> {
    /// A call of builtin `b` (checked: its type is `ty`) when it is one of the idioms of this file:
    /// its values; `None` for the other builtins (and `transpose` without axes).
    pub(crate) fn numpy_shape(
        &mut self,
        b: Builtin,
        args: &[Expr],
        kwargs: &[(ast::Ident, Expr)],
        ty: &Ty,
        e: &Expr,
    ) -> LResult<Option<Vec<ValueId>>> {
        use Builtin as B;
        let v = match b {
            B::TriuIndices | B::TrilIndices => return self.tri_indices(b, args, kwargs, ty).map(Some),
            B::Histogram => return self.histogram(args, kwargs, ty, e).map(Some),
            B::HistogramBinEdges => return Ok(Some(vec![self.histogram_bin_edges(args, kwargs, ty, e)?.edges])),
            B::Ix => {
                let r = args.len();
                let mut out = vec![];
                for (k, a) in args.iter().enumerate() {
                    let v = self.expr(a)?;
                    let entries = (0..r).map(|d| if d == k { IndexEntry::Full } else { IndexEntry::NewAxis }).collect();
                    out.push(self.view_with(v, entries, vec![]));
                }
                return Ok(Some(out));
            }
            B::Digitize => self.digitize(args, kwargs, ty, e)?,
            B::Interp => self.interp(args, kwargs, e)?,
            B::AtLeast1d | B::AtLeast2d | B::AtLeast3d => {
                let x = self.expr(&args[0])?;
                let Ty::Array(dt, shape) = ty else { unreachable!("checked: an array") };
                if !self.f.ty(x).is_array() {
                    // A scalar: a new array of one element (NumPy's `asanyarray`, then the axes).
                    let ones = vec![self.i64_const(1); shape.len()];
                    return Ok(Some(vec![self.compute_new(
                        ComputeFn::Fill,
                        vec![x],
                        *dt,
                        ones,
                        Some(shape.as_slice()),
                    )]));
                }
                // A view of `x`: its own axes in order, new axes of size 1 where NumPy adds them
                // (of an array of rank 1, 2 or 3 or more already, a view of all of it).
                let r = self.rank(x);
                let entries = match arrayc_grammar::builtin::join_unit_axes(b, r) {
                    Some(axes) => {
                        axes.iter().map(|&a| if a { IndexEntry::Full } else { IndexEntry::NewAxis }).collect()
                    }
                    None => vec![IndexEntry::Full; r],
                };
                self.view_with(x, entries, vec![])
            }
            B::Fliplr | B::Flipud => {
                let x = self.expr(&args[0])?;
                self.flip_axes(x, &[usize::from(b == B::Fliplr)])
            }
            B::Rot90 => {
                let x = self.expr(&args[0])?;
                let r = self.rank(x);
                let (k, axes) = rot90_args(args, kwargs);
                let k = k.map_or(1, |k| literal_int(k).expect("checked: an integer literal"));
                let (a, b) = match axes.map(|e| &e.kind) {
                    Some(ast::ExprKind::Tuple(p) | ast::ExprKind::List(p)) => {
                        let at = |e: &Expr| literal_int(e).expect("checked").rem_euclid(r as i64) as usize;
                        (at(&p[0]), at(&p[1]))
                    }
                    _ => (0, 1),
                };
                let (flips, swap) = rot90_plan(k, a, b);
                let flipped = self.flip_axes(x, &flips);
                if swap {
                    let mut perm: Vec<usize> = (0..r).collect();
                    perm.swap(a, b);
                    self.transpose(flipped, perm)
                } else {
                    flipped
                }
            }
            B::Transpose => {
                let axes = transpose_axes(&args[1..], Self::kwarg(kwargs, "axes")).expect("checked: literals");
                let Some(axes) = axes else { return Ok(None) };
                let x = self.expr(&args[0])?;
                let perm = permutation(&axes, self.rank(x)).expect("checked: a permutation");
                self.transpose(x, perm)
            }
            _ => return Ok(None),
        };
        Ok(Some(vec![v]))
    }
}

impl Lowerer<'_> {
    /// `pad(x, widths, mode=m)` for the modes other than `constant`: along each axis `d` in turn a
    /// gather (NumPy's `take(y, idx, axis=d)`) of the `sizes[d]` positions `idx[j]`, the position
    /// in `x` of padded element `j`, `t = j - before[d]` mapped into `[0, n)`: `edge`
    /// `clip(t, 0, n - 1)`; `wrap` `t mod n`; `reflect` `min(u, p - u)` with `u = t mod p`,
    /// `p = 2n - 2`; `symmetric` `min(u, p - 1 - u)` with `p = 2n` (the periodic extension NumPy
    /// builds for widths beyond the edge). `t mod p` is `(j + p - before mod p) % p`, of
    /// non-negative operands. Each index is fused arithmetic on an `arange`; an empty axis padded
    /// is a run-time error (the gather's, NumPy's ValueError).
    pub(crate) fn pad_by_gathers(
        &mut self,
        x: ValueId,
        before: &[ValueId],
        sizes: &[ValueId],
        mode: PadMode,
        ty: &Ty,
    ) -> ValueId {
        let Ty::Array(dt, shape) = ty else { unreachable!("checked: an array") };
        let (zero, one) = (self.i64_const(0), self.i64_const(1));
        let mut y = x;
        for (d, (&b, &len)) in before.iter().zip(sizes).enumerate() {
            let n = self.dim(x, d);
            let j = self.compute_new(ComputeFn::Arange, vec![zero, one], DType::I64, vec![len], None);
            let i64_op = |l: &mut Self, f: BinFn, a: ValueId, c: ValueId| {
                l.compute_new(ComputeFn::Binary(f), vec![a, c], DType::I64, vec![len], None)
            };
            let idx = if mode == PadMode::Edge {
                let t = i64_op(self, BinFn::Sub, j, b);
                let t = i64_op(self, BinFn::Maximum, t, zero);
                let last = self.scalar_binary(BinFn::Sub, n, one, DType::I64);
                i64_op(self, BinFn::Minimum, t, last)
            } else {
                let p = match mode {
                    PadMode::Wrap => n,
                    PadMode::Reflect => {
                        let two_n = self.scalar_binary(BinFn::Add, n, n, DType::I64);
                        let two = self.i64_const(2);
                        self.scalar_binary(BinFn::Sub, two_n, two, DType::I64)
                    }
                    _ => self.scalar_binary(BinFn::Add, n, n, DType::I64),
                };
                let p = self.scalar_binary(BinFn::Maximum, p, one, DType::I64);
                let bm = self.numpy_rem(b, p, DType::I64);
                let off = self.scalar_binary(BinFn::Sub, p, bm, DType::I64);
                let u = i64_op(self, BinFn::Add, j, off);
                let u = i64_op(self, BinFn::Rem, u, p);
                match mode {
                    PadMode::Wrap => u,
                    _ => {
                        let top = if mode == PadMode::Reflect {
                            p
                        } else {
                            self.scalar_binary(BinFn::Sub, p, one, DType::I64)
                        };
                        let mirrored = i64_op(self, BinFn::Sub, top, u);
                        i64_op(self, BinFn::Minimum, u, mirrored)
                    }
                }
            };
            let last = d + 1 == before.len();
            let whole = if last { Some(shape.as_slice()) } else { None };
            y = self.gather(y, &[idx], d, *dt, &shape[d..d + 1], whole);
        }
        y
    }
}

impl Lowerer<'_> {
    /// NumPy's `digitize(x, bins, right)`: for increasing bins `searchsorted(bins, x, side)` with
    /// `side=right` unless `right` (`<= x` counted, else `< x`); for decreasing ones (some
    /// `bins[i + 1] < bins[i]`, found by a reduction) `n - searchsorted(bins[::-1], x, side)`,
    /// selected at run time (both computed, fused); bins neither increasing nor decreasing are a
    /// run-time error naming the line (NumPy's ValueError).
    fn digitize(&mut self, args: &[Expr], kwargs: &[(ast::Ident, Expr)], ty: &Ty, e: &Expr) -> LResult<ValueId> {
        let right = args.get(2).or(Self::kwarg(kwargs, "right")).and_then(bool_literal).unwrap_or(false);
        let (tx, tb) = (self.ty_of(&args[0]).clone(), self.ty_of(&args[1]).clone());
        let Ty::Array(db, sb) = &tb else { unreachable!("checked: 1-d bins") };
        let p = promote(*db, None, tx.dtype().expect("checked: numeric"), weak_of(&args[0]));
        let x = self.expr(&args[0])?;
        let bins = self.expr(&args[1])?;
        let (x, bins) = (self.as_dtype(x, &tx, p)?, self.as_dtype(bins, &tb, p)?);
        let xs = tx.shape().map(<[_]>::to_vec).unwrap_or_default();
        let up = self.search_sorted(bins, &sb[0], x, &xs, p, !right, ty, e)?;
        // Whether any step of the bins goes down, and any up.
        let (hi, lo) = self.shifted_pair(bins, 1, 0);
        let steps = self.dim(hi, 0);
        let i64_ty = Ty::Scalar(DType::I64);
        let count = |l: &mut Self, f: BinFn| -> LResult<ValueId> {
            let c = l.compute_new(ComputeFn::Binary(f), vec![hi, lo], DType::Bool, vec![steps], None);
            let c = l.compute_new(ComputeFn::Copy, vec![c], DType::I64, vec![steps], None);
            l.reduction(false, ReduceKind::Sum, c, None, &i64_ty, e)
        };
        let (downs, ups) = (count(self, BinFn::Lt)?, count(self, BinFn::Gt)?);
        let zero = self.i64_const(0);
        let (no_down, no_up) = (
            self.scalar_binary(BinFn::Eq, downs, zero, DType::I64),
            self.scalar_binary(BinFn::Eq, ups, zero, DType::I64),
        );
        let monotonic = self.scalar_binary(BinFn::Or, no_down, no_up, DType::Bool);
        let msg = "digitize: bins must be monotonically increasing or decreasing".to_string();
        self.emit(OpKind::Assert { cond: monotonic, msg });
        let reversed = self.flip_axes(bins, &[0]);
        let down = self.search_sorted(reversed, &sb[0], x, &xs, p, !right, ty, e)?;
        let n = self.dim(bins, 0);
        let down = self.binary(BinFn::Sub, n, down, ty)?;
        if ty.is_array() {
            self.array_op(ComputeFn::Where, vec![no_down, up, down], ty)
        } else {
            Ok(self.scalar_select(no_down, up, down, DType::I64))
        }
    }

    /// The `i64` scalar of argument `e` (any integer dtype), or `default` when it is absent.
    fn int_arg(&mut self, e: Option<&Expr>, default: ValueId) -> LResult<ValueId> {
        Ok(match e {
            Some(e) => {
                let v = self.expr(e)?;
                self.cast_scalar(v, DType::I64)
            }
            None => default,
        })
    }

    /// Asserts at run time that the `i64` scalar `v` is at least `least`, else the error `msg`.
    fn assert_at_least(&mut self, v: ValueId, least: i64, msg: &str) {
        if !self.consts.contains_key(&v) {
            let lo = self.i64_const(least);
            let ok = self.scalar_binary(BinFn::Ge, v, lo, DType::I64);
            self.emit(OpKind::Assert { cond: ok, msg: msg.to_string() });
        }
    }

    /// `triu_indices(n, k, m)` (`tril_indices`): the mask `arange(m)[newaxis, :] - arange(n)[:,
    /// newaxis] >= k` (`<=`) of an `(n, m)` matrix, then `nonzero`'s row-major index arrays of it
    /// (a filter of its flat positions and one `//` and one `%`, fused).
    fn tri_indices(
        &mut self,
        b: Builtin,
        args: &[Expr],
        kwargs: &[(ast::Ident, Expr)],
        ty: &Ty,
    ) -> LResult<Vec<ValueId>> {
        let Ty::Tuple(tys) = ty else { unreachable!("checked: a tuple of two index arrays") };
        let Ty::Array(_, shape) = &tys[0] else { unreachable!("checked: index arrays") };
        let (zero, one) = (self.i64_const(0), self.i64_const(1));
        let n = self.int_arg(args.first(), zero)?;
        let k = self.int_arg(args.get(1).or(Self::kwarg(kwargs, "k")), zero)?;
        let m = self.int_arg(args.get(2).or(Self::kwarg(kwargs, "m")), n)?;
        let name = b.name();
        self.assert_at_least(n, 0, &format!("{name}: negative dimensions are not allowed"));
        self.assert_at_least(m, 0, &format!("{name}: negative dimensions are not allowed"));
        let rows = self.compute_new(ComputeFn::Arange, vec![zero, one], DType::I64, vec![n], None);
        let cols = self.compute_new(ComputeFn::Arange, vec![zero, one], DType::I64, vec![m], None);
        let rows = self.view_with(rows, vec![IndexEntry::Full, IndexEntry::NewAxis], vec![]);
        let cols = self.view_with(cols, vec![IndexEntry::NewAxis, IndexEntry::Full], vec![]);
        let d = self.compute_new(ComputeFn::Binary(BinFn::Sub), vec![cols, rows], DType::I64, vec![n, m], None);
        let f = if b == Builtin::TriuIndices { BinFn::Ge } else { BinFn::Le };
        let mask = self.compute_new(ComputeFn::Binary(f), vec![d, k], DType::Bool, vec![n, m], None);
        let p = self.flat_nonzero(mask, Some(shape));
        self.unravel(p, &[n, m], tys)
    }

    /// NumPy's `interp(x, xp, fp, left, right)` (its C loop, `arr_interp`, elementwise): in `f64`,
    /// `j = clip(searchsorted(xp, x, side=right) - 1, 0, n - 2)`, then through gathers of `xp` and
    /// `fp` at `j` and `j + 1`, `slope * (x - xp[j]) + fp[j]` with `slope = (fp[j + 1] - fp[j]) /
    /// (xp[j + 1] - xp[j])`; `fp[j]` where `x == xp[j]`, `fp[n - 1]` where `x == xp[n - 1]`, `right`
    /// (default `fp[n - 1]`) where `x > xp[n - 1]`, `left` (default `fp[0]`) where `x < xp[0]`. An
    /// empty `xp`, and `fp` of another length, are run-time errors naming the line (NumPy's
    /// ValueErrors).
    fn interp(&mut self, args: &[Expr], kwargs: &[(ast::Ident, Expr)], e: &Expr) -> LResult<ValueId> {
        let (tx, txp, tfp) = (self.ty_of(&args[0]).clone(), self.ty_of(&args[1]).clone(), self.ty_of(&args[2]).clone());
        let Ty::Array(_, sp) = &txp else { unreachable!("checked: 1-d samples") };
        let x = self.expr(&args[0])?;
        let xp = self.expr(&args[1])?;
        let fp = self.expr(&args[2])?;
        let (x, xp, fp) = (
            self.as_dtype(x, &tx, DType::F64)?,
            self.as_dtype(xp, &txp, DType::F64)?,
            self.as_dtype(fp, &tfp, DType::F64)?,
        );
        let scalar = !tx.is_array();
        let (x, xs) =
            if scalar { (self.flat(x), vec![Size::lit(1)]) } else { (x, tx.shape().expect("an array").to_vec()) };
        let (ity, fty, bty) =
            (Ty::Array(DType::I64, xs.clone()), Ty::Array(DType::F64, xs.clone()), Ty::Array(DType::Bool, xs.clone()));
        let n = self.dim(xp, 0);
        self.assert_at_least(n, 1, "interp: array of sample points is empty");
        let nf = self.dim(fp, 0);
        let same = self.scalar_binary(BinFn::Eq, n, nf, DType::I64);
        self.emit(OpKind::Assert { cond: same, msg: "interp: fp and xp are not of the same length".into() });
        let ss = self.search_sorted(xp, &sp[0], x, &xs, DType::F64, true, &ity, e)?;
        let (zero, one, two) = (self.i64_const(0), self.i64_const(1), self.i64_const(2));
        let last = self.scalar_binary(BinFn::Sub, n, one, DType::I64);
        let top = self.scalar_binary(BinFn::Sub, n, two, DType::I64);
        let top = self.scalar_binary(BinFn::Maximum, top, zero, DType::I64);
        let j = self.binary(BinFn::Sub, ss, one, &ity)?;
        let j = self.binary(BinFn::Maximum, j, zero, &ity)?;
        let j = self.binary(BinFn::Minimum, j, top, &ity)?;
        let j1 = self.binary(BinFn::Add, j, one, &ity)?;
        let j1 = self.binary(BinFn::Minimum, j1, last, &ity)?;
        let at = |l: &mut Self, src: ValueId, idx: ValueId| l.gather(src, &[idx], 0, DType::F64, &xs, Some(&xs));
        let (x0, x1, f0, f1) = (at(self, xp, j), at(self, xp, j1), at(self, fp, j), at(self, fp, j1));
        let df = self.binary(BinFn::Sub, f1, f0, &fty)?;
        let dx = self.binary(BinFn::Sub, x1, x0, &fty)?;
        let slope = self.binary(BinFn::Div, df, dx, &fty)?;
        let off = self.binary(BinFn::Sub, x, x0, &fty)?;
        let y = self.binary(BinFn::Mul, slope, off, &fty)?;
        let mut y = self.binary(BinFn::Add, y, f0, &fty)?;
        let element = |l: &mut Self, v: ValueId, i: ValueId| {
            let view = l.view_with(v, vec![IndexEntry::At], vec![i]);
            l.load_element(view)
        };
        let (xp_first, xp_last) = (element(self, xp, zero), element(self, xp, last));
        let (fp_first, fp_last) = (element(self, fp, zero), element(self, fp, last));
        let bound = |l: &mut Self, name: &str, default: ValueId| -> LResult<ValueId> {
            match Self::kwarg(kwargs, name) {
                Some(b) => {
                    let b = l.expr(b)?;
                    Ok(l.cast_scalar(b, DType::F64))
                }
                None => Ok(default),
            }
        };
        let (left, right) = (bound(self, "left", fp_first)?, bound(self, "right", fp_last)?);
        for (f, edge, value) in [
            (BinFn::Eq, x0, f0),
            (BinFn::Eq, xp_last, fp_last),
            (BinFn::Gt, xp_last, right),
            (BinFn::Lt, xp_first, left),
        ] {
            let c = self.binary(f, x, edge, &bty)?;
            y = self.array_op(ComputeFn::Where, vec![c, value, y], &fty)?;
        }
        if !scalar {
            return Ok(y);
        }
        let view = self.view_with(y, vec![IndexEntry::At], vec![zero]);
        Ok(self.load_element(view))
    }

    /// NumPy's `histogram_bin_edges(x, bins, range=(lo, hi))` (`_get_bin_edges`), the edges of
    /// type `edges_ty`, and `x` flattened in the dtype in which `histogram` bins it.
    ///
    /// With an integer `bins` (default 10): `x` in `f64` (`f32` data in `f32`, NumPy's edge dtype);
    /// the bounds `range`, else `(min(x), max(x))` (`(0, 1)` of no data); equal bounds widened by
    /// 0.5 each way; the edges `linspace(lo, hi, bins + 1)`. `bins < 1`, `lo > hi` and bounds not
    /// finite are run-time errors naming the line (NumPy's ValueErrors). With edges (1-d): the
    /// edges as given, which must not decrease (else a run-time error, NumPy's ValueError), and
    /// `x` in the dtype of `x` and the edges promoted (NumPy's `searchsorted`).
    fn histogram_bin_edges(
        &mut self,
        args: &[Expr],
        kwargs: &[(ast::Ident, Expr)],
        edges_ty: &Ty,
        e: &Expr,
    ) -> LResult<BinEdges> {
        let ft = edges_ty.dtype().expect("checked: edges");
        let tx = self.ty_of(&args[0]).clone();
        let bin_expr = args.get(1).or(Self::kwarg(kwargs, "bins"));
        if let Some(b) = bin_expr.filter(|b| self.ty_of(b).is_array()) {
            let tb = self.ty_of(b).clone();
            let p = promote(ft, weak_of(b), tx.dtype().expect("checked: numeric"), None);
            let edges = self.expr(b)?;
            let m = self.dim(edges, 0);
            self.assert_at_least(m, 1, "histogram: `bins` as an array needs at least one edge");
            let (hi, lo) = self.shifted_pair(edges, 1, 0);
            let steps = self.dim(hi, 0);
            let down = self.compute_new(ComputeFn::Binary(BinFn::Lt), vec![hi, lo], DType::Bool, vec![steps], None);
            let down = self.compute_new(ComputeFn::Copy, vec![down], DType::I64, vec![steps], None);
            let downs = self.reduction(false, ReduceKind::Sum, down, None, &Ty::Scalar(DType::I64), e)?;
            let zero = self.i64_const(0);
            let ok = self.scalar_binary(BinFn::Eq, downs, zero, DType::I64);
            self.emit(OpKind::Assert {
                cond: ok,
                msg: "histogram: `bins` must increase monotonically, when an array".into(),
            });
            let data = self.expr(&args[0])?;
            let x = self.as_dtype(data, &tx, p)?;
            let x = self.flat(x);
            let one = self.i64_const(1);
            let nb = self.scalar_binary(BinFn::Sub, m, one, DType::I64);
            let n = tb.shape().expect("an array")[0].clone();
            return Ok(BinEdges { data, x, edges, nb, bins: Bins::Edges(n, p) });
        }
        let data = self.expr(&args[0])?;
        let x = self.as_dtype(data, &tx, ft)?;
        let x = self.flat(x);
        let ten = self.i64_const(10);
        let nb = self.int_arg(bin_expr, ten)?;
        self.assert_at_least(nb, 1, "histogram: `bins` must be positive, when an integer");
        // NumPy's bounds are Python floats with `range=` (edges computed in `f64`), else the data's
        // extremes (edges computed in its dtype).
        let given = Self::kwarg(kwargs, "range").is_some();
        // Of no data (`empty`), NumPy's bounds are the Python ints `(0, 1)`, whose edges it computes
        // in `f64` (as with `range=`).
        let mut empty = None;
        let (lo, hi) = match Self::kwarg(kwargs, "range").map(|r| &r.kind) {
            Some(ast::ExprKind::Tuple(items)) => {
                let (lo, hi) = (self.expr(&items[0])?, self.expr(&items[1])?);
                (self.cast_scalar(lo, DType::F64), self.cast_scalar(hi, DType::F64))
            }
            _ => {
                // Reduced directly: of no data NumPy's bounds are `(0, 1)` (below), no error.
                let extreme = |l: &mut Self, kind: ReduceKind| {
                    let r = l.new_array(ft, vec![]);
                    l.emit(OpKind::Compute { func: ComputeFn::Reduce(kind, None), out: r, ins: vec![x] });
                    let v = l.load_element(r);
                    l.cast_scalar(v, DType::F64)
                };
                let (lo, hi) = (extreme(self, ReduceKind::Min), extreme(self, ReduceKind::Max));
                let len = self.dim(x, 0);
                let zero = self.i64_const(0);
                let none = self.scalar_binary(BinFn::Eq, len, zero, DType::I64);
                empty = Some(none);
                let (f0, f1) = (self.constant(Scalar::F64(0.0)), self.constant(Scalar::F64(1.0)));
                (self.scalar_select(none, f0, lo, DType::F64), self.scalar_select(none, f1, hi, DType::F64))
            }
        };
        // Finite bounds: `(lo - lo) + (hi - hi)` is 0, else NaN.
        let (dl, dh) =
            (self.scalar_binary(BinFn::Sub, lo, lo, DType::F64), self.scalar_binary(BinFn::Sub, hi, hi, DType::F64));
        let d = self.scalar_binary(BinFn::Add, dl, dh, DType::F64);
        let f0 = self.constant(Scalar::F64(0.0));
        let finite = self.scalar_binary(BinFn::Eq, d, f0, DType::F64);
        let which = if given { "supplied" } else { "autodetected" };
        self.emit(OpKind::Assert { cond: finite, msg: format!("histogram: {which} range is not finite") });
        let ordered = self.scalar_binary(BinFn::Le, lo, hi, DType::F64);
        self.emit(OpKind::Assert {
            cond: ordered,
            msg: "histogram: max must be larger than min in range parameter".into(),
        });
        let equal = self.scalar_binary(BinFn::Eq, lo, hi, DType::F64);
        let (half, none) = (self.constant(Scalar::F64(0.5)), self.constant(Scalar::F64(0.0)));
        let widen = self.scalar_select(equal, half, none, DType::F64);
        let lo = self.scalar_binary(BinFn::Sub, lo, widen, DType::F64);
        let hi = self.scalar_binary(BinFn::Add, hi, widen, DType::F64);
        let one = self.i64_const(1);
        let n_edges = self.scalar_binary(BinFn::Add, nb, one, DType::I64);
        let wide = self.linspace(&[lo, hi, n_edges], true);
        let wide = self.as_dtype(wide, edges_ty, ft)?;
        let edges = if given || ft == DType::F64 {
            wide
        } else {
            // NumPy's `linspace` in `f32`: `arange(b + 1) * ((hi - lo) / b) + lo`, the last `hi`.
            let (lo, hi) = (self.cast_scalar(lo, ft), self.cast_scalar(hi, ft));
            let delta = self.scalar_binary(BinFn::Sub, hi, lo, ft);
            let div = self.cast_scalar(nb, ft);
            let step = self.scalar_binary(BinFn::Div, delta, div, ft);
            let (zero, one_f) = (self.constant(Scalar::F64(0.0).cast(ft)), self.constant(Scalar::F64(1.0).cast(ft)));
            let y = self.compute_new(ComputeFn::Arange, vec![zero, one_f], ft, vec![n_edges], None);
            let y = self.compute_new(ComputeFn::Binary(BinFn::Mul), vec![y, step], ft, vec![n_edges], None);
            let y = self.compute_new(ComputeFn::Binary(BinFn::Add), vec![y, lo], ft, vec![n_edges], None);
            let end = self.view_with(y, vec![IndexEntry::At], vec![nb]);
            self.emit(OpKind::Compute { func: ComputeFn::Fill, out: end, ins: vec![hi] });
            let empty = empty.expect("bounds from the data");
            self.compute_new(ComputeFn::Where, vec![empty, wide, y], ft, vec![n_edges], None)
        };
        if let Ty::Array(_, s) = edges_ty {
            self.shapes.insert(edges, s.clone());
        }
        let width = self.scalar_binary(BinFn::Sub, hi, lo, DType::F64);
        let (lo, hi, width) = (self.cast_scalar(lo, ft), self.cast_scalar(hi, ft), self.cast_scalar(width, ft));
        Ok(BinEdges { data, x, edges, nb, bins: Bins::Equal { lo, hi, width, ft } })
    }

    /// NumPy's `histogram(x, bins, range=(lo, hi), weights=w, density=d)`: the edges and the data
    /// of [`Lowerer::histogram_bin_edges`]; the values within the edges kept (a filter, of the
    /// weights too); each one's bin by NumPy's rule (the last bin closed): with equal bins
    /// `i64(((v - lo) / (hi - lo)) * bins)`, the last edge in the last bin, corrected by one
    /// against the edges (gathers) as NumPy corrects it; with given edges `searchsorted(edges, v,
    /// side=right) - 1` (at most `m - 2`). The counts are a `bincount` of the bins with
    /// `minlength=bins` (with weights: their sums in `f64`, in data order, cast to the weights'
    /// dtype as NumPy's; with given edges NumPy sums sorted weights by a cumulative sum, so float
    /// sums may differ in the last bits). `density`: `counts / diff(edges) / sum(counts)` in `f64`.
    fn histogram(&mut self, args: &[Expr], kwargs: &[(ast::Ident, Expr)], ty: &Ty, e: &Expr) -> LResult<Vec<ValueId>> {
        let Ty::Tuple(tys) = ty else { unreachable!("checked: (hist, bin_edges)") };
        let BinEdges { data, x, edges, nb, bins } = self.histogram_bin_edges(args, kwargs, &tys[1], e)?;
        let len = self.dim(x, 0);
        let op = |l: &mut Self, f: BinFn, a: ValueId, b: ValueId, d: DType, len: ValueId| {
            l.compute_new(ComputeFn::Binary(f), vec![a, b], d, vec![len], None)
        };
        let zero = self.i64_const(0);
        let one = self.i64_const(1);
        let last = self.scalar_binary(BinFn::Sub, nb, one, DType::I64);
        let (lo, hi) = match bins {
            Bins::Equal { lo, hi, .. } => (lo, hi),
            Bins::Edges(..) => {
                let first = self.view_with(edges, vec![IndexEntry::At], vec![zero]);
                let end = self.view_with(edges, vec![IndexEntry::At], vec![nb]);
                (self.load_element(first), self.load_element(end))
            }
        };
        // The values in `[lo, hi]` (and none without bins).
        let above = op(self, BinFn::Ge, x, lo, DType::Bool, len);
        let below = op(self, BinFn::Le, x, hi, DType::Bool, len);
        let mut keep = op(self, BinFn::And, above, below, DType::Bool, len);
        if let Bins::Edges(..) = bins {
            let some = self.scalar_binary(BinFn::Ge, nb, one, DType::I64);
            keep = op(self, BinFn::And, keep, some, DType::Bool, len);
        }
        let weights = match Self::kwarg(kwargs, "weights") {
            Some(w) => {
                let tw = self.ty_of(w).clone();
                let wv = self.expr(w)?;
                if let Some(sw) = tw.shape() {
                    for d in 0..sw.len() {
                        let (a, b) = (self.dim(data, d), self.dim(wv, d));
                        let same = self.scalar_binary(BinFn::Eq, a, b, DType::I64);
                        self.emit(OpKind::Assert {
                            cond: same,
                            msg: "histogram: weights should have the same shape as a".into(),
                        });
                    }
                }
                let wv = self.as_dtype(wv, &tw, DType::F64)?;
                let wv = self.flat(wv);
                Some((self.filter(wv, keep, None), tw.dtype().expect("checked: numeric weights")))
            }
            None => None,
        };
        let a = self.filter(x, keep, None);
        let len = self.dim(a, 0);
        let select = |l: &mut Self, c: ValueId, a: ValueId, b: ValueId, len: ValueId| {
            l.compute_new(ComputeFn::Where, vec![c, a, b], DType::I64, vec![len], None)
        };
        let idx = match bins {
            Bins::Equal { lo, width, ft, .. } => {
                let nbf = self.cast_scalar(nb, ft);
                let f = op(self, BinFn::Sub, a, lo, ft, len);
                let f = op(self, BinFn::Div, f, width, ft, len);
                let f = op(self, BinFn::Mul, f, nbf, ft, len);
                let idx = self.compute_new(ComputeFn::Copy, vec![f], DType::I64, vec![len], None);
                let at_end = op(self, BinFn::Eq, idx, nb, DType::Bool, len);
                let idx = select(self, at_end, last, idx, len);
                let probe = [Size::lit(0)];
                let lower = self.gather(edges, &[idx], 0, ft, &probe, None);
                let dec = op(self, BinFn::Lt, a, lower, DType::Bool, len);
                let down = op(self, BinFn::Sub, idx, one, DType::I64, len);
                let idx = select(self, dec, down, idx, len);
                let up = op(self, BinFn::Add, idx, one, DType::I64, len);
                let upper = self.gather(edges, &[up], 0, ft, &probe, None);
                let past = op(self, BinFn::Ge, a, upper, DType::Bool, len);
                let inner = op(self, BinFn::Ne, idx, last, DType::Bool, len);
                let inc = op(self, BinFn::And, past, inner, DType::Bool, len);
                select(self, inc, up, idx, len)
            }
            Bins::Edges(ref n, p) => {
                let tb = self.f.ty(edges);
                let e_ty = Ty::Array(tb.dtype(), vec![n.clone()]);
                let edges = self.as_dtype(edges, &e_ty, p)?;
                // The kept values' number, known only at run time: an unknown no checked size is.
                let a_size = Size::sym(arrayc_grammar::types::SizeSym::Unknown(u32::MAX));
                let ity = Ty::Array(DType::I64, vec![a_size.clone()]);
                let ss = self.search_sorted(edges, n, a, &[a_size], p, true, &ity, e)?;
                let j = op(self, BinFn::Sub, ss, one, DType::I64, len);
                op(self, BinFn::Minimum, j, last, DType::I64, len)
            }
        };
        let counts = match weights {
            None => self.bincount(idx, None, nb, tys[0].shape()),
            Some((w, wd)) => {
                let sums = self.bincount(idx, Some(w), nb, tys[0].shape());
                let hty = Ty::Array(wd, tys[0].shape().expect("an array").to_vec());
                self.as_dtype(sums, &hty, wd)?
            }
        };
        if Self::kwarg(kwargs, "density").and_then(bool_literal) != Some(true) {
            return Ok(vec![counts, edges]);
        }
        // NumPy's `n / db / n.sum()`, `db` the widths in `f64`.
        let fty = Ty::Array(DType::F64, tys[0].shape().expect("an array").to_vec());
        let cd = self.f.ty(counts).dtype().sum_dtype();
        let total = self.reduction(false, ReduceKind::Sum, counts, None, &Ty::Scalar(cd), e)?;
        let total = self.cast_scalar(total, DType::F64);
        let counts = self.as_dtype(counts, &fty, DType::F64)?;
        let (hi, lo) = self.shifted_pair(edges, 1, 0);
        let ety = Ty::Array(self.f.ty(edges).dtype(), tys[0].shape().expect("an array").to_vec());
        let (hi, lo) = (self.as_dtype(hi, &ety, DType::F64)?, self.as_dtype(lo, &ety, DType::F64)?);
        let widths = self.binary(BinFn::Sub, hi, lo, &fty)?;
        let h = self.binary(BinFn::Div, counts, widths, &fty)?;
        let h = self.binary(BinFn::Div, h, total, &fty)?;
        Ok(vec![h, edges])
    }
}

/// How [`Lowerer::histogram_bin_edges`] made the edges.
enum Bins {
    /// `bins` equal bins of `[lo, hi]` (`width = hi - lo`), in dtype `ft`.
    Equal { lo: ValueId, hi: ValueId, width: ValueId, ft: DType },
    /// Given edges, of checked size `n`, compared with the data in dtype `p`.
    Edges(Size, DType),
}

/// The edges of a histogram, the data flattened in the dtype in which it is binned, and the number
/// of bins (an `i64` scalar).
struct BinEdges {
    /// The data as given (`x` of any shape).
    data: ValueId,
    x: ValueId,
    edges: ValueId,
    nb: ValueId,
    bins: Bins,
}

//! NumPy's `gradient(f, h, axis=k, edge_order=e)` (its type: `grammar/src/check/numpy_more.rs`),
//! NumPy's formulas and order of operations (`numpy/lib/_function_base_impl.py`): with a uniform
//! spacing (none: 1, a scalar `h`, or coordinates whose differences are all equal) the central
//! differences `(f[2:] - f[:-2]) / (2 h)` inside; with coordinates `x` the second-order weights
//! of the unequal neighbouring steps `dx1`, `dx2` inside; at the edges the one-sided first
//! differences (`edge_order=1`) or NumPy's second-order one-sided formulas (`edge_order=2`). The
//! differences of `f` are taken in `f`'s float dtype and everything else in `f64`, as NumPy's
//! `float64` steps make it; the result is converted to `f`'s float dtype once.

use super::{LResult, Lowerer};
use arrayc_dialect::ir::{BinFn, ComputeFn, IndexEntry, OpKind, ReduceKind, Scalar, UnFn, ValueId};
use arrayc_grammar::ast::{self, DType, Expr};
use arrayc_grammar::check::literal_int;
use arrayc_grammar::types::Ty;

/// The axis being differentiated and the sizes of `f`.
struct Along {
    /// The axis.
    k: usize,
    /// `f`'s sizes (`sizes[k]` is `n`).
    sizes: Vec<ValueId>,
}

/// A stretch of the axis: `[start, stop)` (Python's slice bounds; `None`: that end open).
type Stretch = (Option<i64>, Option<i64>);

/// The stretches of the result: inside, the first point, the last point.
const INSIDE: Stretch = (Some(1), Some(-1));
const FIRST: Stretch = (None, Some(1));
const LAST: Stretch = (Some(-1), None);

impl Lowerer<'_> {
    /// `gradient(f, *spacings, axis=k, edge_order=e)` of the checked type `ty`: one array, or
    /// NumPy's gradients along every axis of an n-d `f` without `axis=` (a tuple). `f` and each
    /// spacing are evaluated once.
    pub(crate) fn gradients(&mut self, args: &[Expr], kwargs: &[(ast::Ident, Expr)], ty: &Ty) -> LResult<Vec<ValueId>> {
        let f = self.expr(&args[0])?;
        let fty = self.ty_of(&args[0]).clone();
        let (one, count) = match ty {
            Ty::Tuple(ts) => (ts[0].clone(), ts.len()),
            t => (t.clone(), 1),
        };
        let Ty::Array(dt, shape) = &one else { unreachable!("checked: an array") };
        let r = shape.len();
        let axes: Vec<usize> = match Self::kwarg(kwargs, "axis").and_then(literal_int) {
            Some(k) => vec![k.rem_euclid(r as i64) as usize],
            None => (0..count).collect(),
        };
        let edge2 = Self::kwarg(kwargs, "edge_order").and_then(literal_int) == Some(2);
        let mut spacings = vec![];
        for h in &args[1..] {
            spacings.push((self.expr(h)?, self.ty_of(h).clone()));
        }
        let sizes: Vec<ValueId> = (0..r).map(|a| self.dim(f, a)).collect();
        let least = self.i64_const(if edge2 { 3 } else { 2 });
        let g = self.as_dtype(f, &fty, *dt)?;
        let g64 = self.as_dtype(f, &fty, DType::F64)?;
        let mut out = vec![];
        for (j, &k) in axes.iter().enumerate() {
            let n = sizes[k];
            let enough = self.scalar_binary(BinFn::Ge, n, least, DType::I64);
            let msg = format!(
                "gradient: at least {} elements are needed along axis {k} (NumPy's ValueError)",
                if edge2 { 3 } else { 2 }
            );
            self.emit(OpKind::Assert { cond: enough, msg });
            let at = Along { k, sizes: sizes.clone() };
            let grad = match spacings.get(if spacings.len() == 1 { 0 } else { j }).cloned() {
                None => {
                    let one = self.constant(Scalar::F64(1.0));
                    self.uniform_gradient(&at, g, g64, one, edge2)
                }
                Some((h, hty)) if !hty.is_array() => {
                    let dx = self.cast_scalar(h, DType::F64);
                    self.uniform_gradient(&at, g, g64, dx, edge2)
                }
                Some((h, hty)) => {
                    let x = self.as_dtype(h, &hty, DType::F64)?;
                    let m = self.dim(x, 0);
                    self.assert_equal_sizes(
                        m,
                        n,
                        format!("gradient: the coordinates have {{lhs}} values, axis {k} {{rhs}} (NumPy's ValueError)"),
                    );
                    self.coordinate_gradient(&at, g, g64, x, edge2)
                }
            };
            let out_ty = Ty::Array(DType::F64, shape.clone());
            self.shapes.insert(grad, shape.clone());
            out.push(self.as_dtype(grad, &out_ty, *dt)?);
        }
        Ok(out)
    }

    /// The gradient of uniform spacing `dx` (an `f64` scalar) into a new `f64` array.
    fn uniform_gradient(&mut self, at: &Along, g: ValueId, g64: ValueId, dx: ValueId, edge2: bool) -> ValueId {
        let out = self.new_array(DType::F64, at.sizes.clone());
        let two = self.constant(Scalar::F64(2.0));
        let two_dx = self.scalar_binary(BinFn::Mul, two, dx, DType::F64);
        let d = self.difference(at, g, (Some(2), None), (None, Some(-2)));
        let dest = self.stretch(at, out, INSIDE);
        self.emit(OpKind::Compute { func: ComputeFn::Binary(BinFn::Div), out: dest, ins: vec![d, two_dx] });
        if edge2 {
            let w = |l: &mut Self, c: f64| {
                let c = l.constant(Scalar::F64(c));
                l.scalar_binary(BinFn::Div, c, dx, DType::F64)
            };
            let first = [w(self, -1.5), w(self, 2.0), w(self, -0.5)];
            let last = [w(self, 0.5), w(self, -2.0), w(self, 1.5)];
            self.weighted_edges(at, out, g64, first, last);
        } else {
            self.first_order_edges(at, out, g, dx, dx);
        }
        out
    }

    /// The gradient of coordinates `x` (1-d, `f64`, one per point of the axis) into a new `f64`
    /// array: where the steps `diff(x)` are all equal, the uniform gradient of that step (NumPy
    /// checks this too), else NumPy's weights of unequal steps.
    fn coordinate_gradient(&mut self, at: &Along, g: ValueId, g64: ValueId, x: ValueId, edge2: bool) -> ValueId {
        let n = at.sizes[at.k];
        let one = self.i64_const(1);
        let m = self.scalar_binary(BinFn::Sub, n, one, DType::I64);
        let steps = self.new_array(DType::F64, vec![m]);
        let (hi, lo) = (self.slice1(x, Some(1), None), self.slice1(x, None, Some(-1)));
        self.emit(OpKind::Compute { func: ComputeFn::Binary(BinFn::Sub), out: steps, ins: vec![hi, lo] });
        let step = |l: &mut Self, i: i64| {
            let i = l.i64_const(i);
            let v = l.view_with(steps, vec![IndexEntry::At], vec![i]);
            l.load_element(v)
        };
        let (dx_0, dx_1, dx_m2, dx_n) = (step(self, 0), step(self, 1), step(self, -2), step(self, -1));
        // Uniform: no step differs from the first.
        let differs = self.new_array(DType::I64, vec![m]);
        let ne = self.new_array(DType::Bool, vec![m]);
        self.emit(OpKind::Compute { func: ComputeFn::Binary(BinFn::Ne), out: ne, ins: vec![steps, dx_0] });
        self.emit(OpKind::Compute { func: ComputeFn::Copy, out: differs, ins: vec![ne] });
        let count = self.new_array(DType::I64, vec![]);
        self.emit(OpKind::Compute { func: ComputeFn::Reduce(ReduceKind::Sum, None), out: count, ins: vec![differs] });
        let count = self.load_element(count);
        let zero = self.i64_const(0);
        let uniform = self.scalar_binary(BinFn::Eq, count, zero, DType::I64);

        let equal = self.uniform_gradient(at, g, g64, dx_0, edge2);
        let out = self.new_array(DType::F64, at.sizes.clone());
        // Inside: `a f[:-2] + b f[1:-1] + c f[2:]` of the steps before and after each point.
        let two = self.i64_const(2);
        let inner = self.scalar_binary(BinFn::Sub, n, two, DType::I64);
        let dx1 = self.slice1(steps, None, Some(-1));
        let dx2 = self.slice1(steps, Some(1), None);
        let op = |l: &mut Self, f: BinFn, a: ValueId, b: ValueId| {
            let r = l.new_array(DType::F64, vec![inner]);
            l.emit(OpKind::Compute { func: ComputeFn::Binary(f), out: r, ins: vec![a, b] });
            r
        };
        let sum = op(self, BinFn::Add, dx1, dx2);
        let den_a = op(self, BinFn::Mul, dx1, sum);
        let neg_dx2 = self.new_array(DType::F64, vec![inner]);
        self.emit(OpKind::Compute { func: ComputeFn::Unary(UnFn::Neg), out: neg_dx2, ins: vec![dx2] });
        let a = op(self, BinFn::Div, neg_dx2, den_a);
        let num_b = op(self, BinFn::Sub, dx2, dx1);
        let den_b = op(self, BinFn::Mul, dx1, dx2);
        let b = op(self, BinFn::Div, num_b, den_b);
        let den_c = op(self, BinFn::Mul, dx2, sum);
        let c = op(self, BinFn::Div, dx1, den_c);
        let dest = self.stretch(at, out, INSIDE);
        let (a, b, c) = (self.laid_along(at, a, dest), self.laid_along(at, b, dest), self.laid_along(at, c, dest));
        self.weighted_sum(at, dest, g64, [(a, (None, Some(-2))), (b, (Some(1), Some(-1))), (c, (Some(2), None))]);
        if edge2 {
            let s = |l: &mut Self, f: BinFn, a: ValueId, b: ValueId| l.scalar_binary(f, a, b, DType::F64);
            let two = self.constant(Scalar::F64(2.0));
            // First point: the steps dx1 = x[1] - x[0], dx2 = x[2] - x[1].
            let (d1, d2) = (dx_0, dx_1);
            let sum = s(self, BinFn::Add, d1, d2);
            let twice = s(self, BinFn::Mul, two, d1);
            let num = s(self, BinFn::Add, twice, d2);
            let neg = self.scalar_unary(UnFn::Neg, num);
            let den = s(self, BinFn::Mul, d1, sum);
            let a0 = s(self, BinFn::Div, neg, den);
            let den = s(self, BinFn::Mul, d1, d2);
            let b0 = s(self, BinFn::Div, sum, den);
            let neg = self.scalar_unary(UnFn::Neg, d1);
            let den = s(self, BinFn::Mul, d2, sum);
            let c0 = s(self, BinFn::Div, neg, den);
            // Last point: dx1 = x[-2] - x[-3], dx2 = x[-1] - x[-2].
            let (d1, d2) = (dx_m2, dx_n);
            let den = s(self, BinFn::Add, d1, d2);
            let den = s(self, BinFn::Mul, d1, den);
            let a1 = s(self, BinFn::Div, d2, den);
            let sum = s(self, BinFn::Add, d2, d1);
            let neg = self.scalar_unary(UnFn::Neg, sum);
            let den = s(self, BinFn::Mul, d1, d2);
            let b1 = s(self, BinFn::Div, neg, den);
            let twice = s(self, BinFn::Mul, two, d2);
            let num = s(self, BinFn::Add, twice, d1);
            let den = s(self, BinFn::Add, d1, d2);
            let den = s(self, BinFn::Mul, d2, den);
            let c1 = s(self, BinFn::Div, num, den);
            self.weighted_edges(at, out, g64, [a0, b0, c0], [a1, b1, c1]);
        } else {
            self.first_order_edges(at, out, g, dx_0, dx_n);
        }
        let chosen = self.new_array(DType::F64, at.sizes.clone());
        self.emit(OpKind::Compute { func: ComputeFn::Where, out: chosen, ins: vec![uniform, equal, out] });
        chosen
    }

    /// `out[0] = (f[1] - f[0]) / dx_0` and `out[-1] = (f[-1] - f[-2]) / dx_n` (the differences
    /// in `f`'s float dtype).
    fn first_order_edges(&mut self, at: &Along, out: ValueId, g: ValueId, dx_0: ValueId, dx_n: ValueId) {
        for (dest, hi, lo, dx) in
            [(FIRST, (Some(1), Some(2)), (None, Some(1)), dx_0), (LAST, (Some(-1), None), (Some(-2), Some(-1)), dx_n)]
        {
            let d = self.difference(at, g, hi, lo);
            let dest = self.stretch(at, out, dest);
            self.emit(OpKind::Compute { func: ComputeFn::Binary(BinFn::Div), out: dest, ins: vec![d, dx] });
        }
    }

    /// `out[0] = a f[0] + b f[1] + c f[2]` of the weights `first` and `out[-1] = a f[-3] + b f[-2]
    /// + c f[-1]` of `last` (`f64` scalars), NumPy's second-order edges.
    fn weighted_edges(&mut self, at: &Along, out: ValueId, g64: ValueId, first: [ValueId; 3], last: [ValueId; 3]) {
        let dest = self.stretch(at, out, FIRST);
        let [a, b, c] = first;
        self.weighted_sum(at, dest, g64, [(a, (None, Some(1))), (b, (Some(1), Some(2))), (c, (Some(2), Some(3)))]);
        let dest = self.stretch(at, out, LAST);
        let [a, b, c] = last;
        self.weighted_sum(at, dest, g64, [(a, (Some(-3), Some(-2))), (b, (Some(-2), Some(-1))), (c, (Some(-1), None))]);
    }

    /// `dest = w0 * f[s0] + w1 * f[s1] + w2 * f[s2]`, added left to right (`f64`).
    fn weighted_sum(&mut self, at: &Along, dest: ValueId, g64: ValueId, terms: [(ValueId, Stretch); 3]) {
        let sizes: Vec<ValueId> = (0..at.sizes.len()).map(|a| self.dim(dest, a)).collect();
        let mut acc: Option<ValueId> = None;
        for (w, s) in terms {
            let part = self.stretch(at, g64, s);
            let prod = self.new_array(DType::F64, sizes.clone());
            self.emit(OpKind::Compute { func: ComputeFn::Binary(BinFn::Mul), out: prod, ins: vec![w, part] });
            acc = Some(match acc {
                None => prod,
                Some(a) => {
                    let sum = self.new_array(DType::F64, sizes.clone());
                    self.emit(OpKind::Compute { func: ComputeFn::Binary(BinFn::Add), out: sum, ins: vec![a, prod] });
                    sum
                }
            });
        }
        let acc = acc.expect("three terms");
        self.emit(OpKind::Compute { func: ComputeFn::Copy, out: dest, ins: vec![acc] });
    }

    /// `f[hi] - f[lo]` along the axis in `f`'s dtype, converted to `f64` (a new array).
    fn difference(&mut self, at: &Along, g: ValueId, hi: Stretch, lo: Stretch) -> ValueId {
        let (hi, lo) = (self.stretch(at, g, hi), self.stretch(at, g, lo));
        let sizes: Vec<ValueId> = (0..at.sizes.len()).map(|a| self.dim(hi, a)).collect();
        let d = self.new_array(self.f.ty(g).dtype(), sizes.clone());
        self.emit(OpKind::Compute { func: ComputeFn::Binary(BinFn::Sub), out: d, ins: vec![hi, lo] });
        if self.f.ty(g).dtype() == DType::F64 {
            return d;
        }
        let d64 = self.new_array(DType::F64, sizes);
        self.emit(OpKind::Compute { func: ComputeFn::Copy, out: d64, ins: vec![d] });
        d64
    }

    /// The view of `v` along the axis over the stretch `s`.
    fn stretch(&mut self, at: &Along, v: ValueId, (start, stop): Stretch) -> ValueId {
        let start = start.map(|b| self.i64_const(b));
        let stop = stop.map(|b| self.i64_const(b));
        self.slice_along(v, at.k, start, stop)
    }

    /// The view of the 1-d `v` over `[start, stop)`.
    fn slice1(&mut self, v: ValueId, start: Option<i64>, stop: Option<i64>) -> ValueId {
        let start = start.map(|b| self.i64_const(b));
        let stop = stop.map(|b| self.i64_const(b));
        self.slice_along(v, 0, start, stop)
    }

    /// The 1-d `w` laid along the axis (new axes elsewhere), broadcast to the view `dest`.
    fn laid_along(&mut self, at: &Along, w: ValueId, dest: ValueId) -> ValueId {
        let r = at.sizes.len();
        let entries = (0..r).map(|a| if a == at.k { IndexEntry::Full } else { IndexEntry::NewAxis }).collect();
        let v = self.expand(w, entries);
        self.broadcast_to(v, dest)
    }
}

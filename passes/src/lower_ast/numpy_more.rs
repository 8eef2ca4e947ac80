//! More of NumPy's composed functions (their types: `grammar/src/check/numpy_more.rs`): `inner`
//! and `vdot` (broadcast views of the operands, one elementwise product and one sum over the last
//! axis, as `dot`'s fused form), `kron` (one product of two broadcast 4-d views, read back as the
//! 2-d result: a reshape of contiguous data), `diag` (a diagonal view, of a zero matrix to write
//! into or of the operand to copy), and `trapezoid` (the shifted views of `diff`, added, scaled
//! and summed), `gradient` (`gradient.rs`), `cov` and `corrcoef` (rows less their means, then `inner`'s sum of products).
//! `logspace` is `linspace` raised (`expr/calls.rs`). Elementwise parts fuse.

use super::{LResult, Lowerer};
use arrayc_dialect::ir::{BinFn, ComputeFn, IndexEntry, OpKind, ReduceKind, Scalar, UnFn, ValueId};
use arrayc_grammar::ast::{self, DType, Expr};
use arrayc_grammar::builtin::Builtin;
use arrayc_grammar::check::literal_int;
use arrayc_grammar::types::{Size, SizeSym, Ty};
use IndexEntry::{Full, NewAxis};

impl Lowerer<'_> {
    /// A call of builtin `b` (checked: its type is `ty`) when `b` is one of the functions of this
    /// file: its value; `None` for the other builtins.
    pub(crate) fn numpy_more(
        &mut self,
        b: Builtin,
        args: &[Expr],
        kwargs: &[(ast::Ident, Expr)],
        ty: &Ty,
        e: &Expr,
    ) -> LResult<Option<ValueId>> {
        let v = match b {
            Builtin::Inner => self.inner(args, ty, e)?,
            Builtin::Vdot => self.vdot(args, ty, e)?,
            Builtin::Kron => self.kron(args, ty)?,
            Builtin::Diag => self.diag(args, kwargs, ty)?,
            Builtin::Trapezoid => self.trapezoid(args, kwargs, ty, e)?,
            Builtin::Cov | Builtin::Corrcoef => self.cov(b, args, kwargs, ty, e)?,
            _ => return Ok(None),
        };
        Ok(Some(v))
    }

    /// The checked shapes of a call's two array operands.
    fn operand_shapes(&self, args: &[Expr]) -> (Vec<Size>, Vec<Size>) {
        let (Ty::Array(_, sa), Ty::Array(_, sb)) = (self.ty_of(&args[0]).clone(), self.ty_of(&args[1]).clone()) else {
            unreachable!("checked: array operands")
        };
        (sa, sb)
    }

    /// A run-time check that the sizes `a` and `b` are equal; `msg` names them `{lhs}` and
    /// `{rhs}` (the executor puts them in, see `cf.assert`).
    pub(super) fn assert_same_size(&mut self, a: ValueId, b: ValueId, msg: &str) {
        let same = self.scalar_binary(BinFn::Eq, a, b, DType::I64);
        self.emit(OpKind::Assert { cond: same, msg: msg.into() });
    }

    /// `sum(a * b, axis=-1)` of `a` and `b` broadcast to `shape` (its last axis the one summed),
    /// of the checked result type `ty` (a scalar when `shape` is 1-d).
    fn sum_of_products(&mut self, a: ValueId, b: ValueId, shape: Vec<Size>, ty: &Ty, e: &Expr) -> LResult<ValueId> {
        let d = ty.dtype().expect("checked: a numeric result");
        let last = shape.len() - 1;
        let prod = self.array_op(ComputeFn::Binary(BinFn::Mul), vec![a, b], &Ty::Array(d, shape))?;
        let axes = (last > 0).then(|| vec![last]);
        self.reduction(false, ReduceKind::Sum, prod, axes.as_deref(), ty, e)
    }

    /// `inner(a, b)`: `a[..., newaxis.., :] * b[newaxis.., ..., :]` summed over the last axis,
    /// after a run-time check that the last sizes agree (NumPy's ValueError).
    fn inner(&mut self, args: &[Expr], ty: &Ty, e: &Expr) -> LResult<ValueId> {
        let (a, b) = (self.expr(&args[0])?, self.expr(&args[1])?);
        let (sa, sb) = self.operand_shapes(args);
        let (ra, rb) = (sa.len() - 1, sb.len() - 1);
        let (ka, kb) = (self.dim(a, ra), self.dim(b, rb));
        self.assert_same_size(
            ka,
            kb,
            "inner: shapes not aligned: the last dimension of `a` has size {lhs}, of `b` {rhs}",
        );
        let entries = |lead_a: IndexEntry, lead_b: IndexEntry| {
            let mut v = vec![lead_a; ra];
            v.extend(vec![lead_b; rb]);
            v.push(Full);
            v
        };
        let a = self.expand(a, entries(Full, NewAxis));
        let b = self.expand(b, entries(NewAxis, Full));
        let shape = sa[..ra].iter().chain(&sb[..rb]).chain([&sa[ra]]).cloned().collect();
        self.sum_of_products(a, b, shape, ty, e)
    }

    /// `vdot(a, b)`: `a` and `b` flattened (`flat`), checked to have one size at run time,
    /// then their products summed.
    fn vdot(&mut self, args: &[Expr], ty: &Ty, e: &Expr) -> LResult<ValueId> {
        let (a, b) = (self.expr(&args[0])?, self.expr(&args[1])?);
        let (sa, _) = self.operand_shapes(args);
        let (a, b) = (self.flat(a), self.flat(b));
        let (na, nb) = (self.dim(a, 0), self.dim(b, 0));
        self.assert_same_size(na, nb, "vdot: `a` has {lhs} elements and `b` {rhs}: vdot needs arrays of one size");
        let count = sa
            .iter()
            .try_fold(Size::lit(1), |p, z| p.mul(z))
            .unwrap_or_else(|| Size::sym(SizeSym::Named(format!("?vdot{}", e.id.0))));
        self.sum_of_products(a, b, vec![count], ty, e)
    }

    /// `kron(a, b)`: the product of `a[:, newaxis, :, newaxis]` and `b[newaxis, :, newaxis, :]`
    /// (1-d: `a[:, newaxis] * b[newaxis, :]`; bools: `&`), a new array read as the result's shape.
    fn kron(&mut self, args: &[Expr], ty: &Ty) -> LResult<ValueId> {
        let (a, b) = (self.expr(&args[0])?, self.expr(&args[1])?);
        let (sa, sb) = self.operand_shapes(args);
        let Ty::Array(d, shape) = ty else { unreachable!("checked: an array") };
        let (ea, eb, pairs) = if sa.len() == 1 {
            (vec![Full, NewAxis], vec![NewAxis, Full], vec![sa[0].clone(), sb[0].clone()])
        } else {
            (
                vec![Full, NewAxis, Full, NewAxis],
                vec![NewAxis, Full, NewAxis, Full],
                vec![sa[0].clone(), sb[0].clone(), sa[1].clone(), sb[1].clone()],
            )
        };
        let (a, b) = (self.expand(a, ea), self.expand(b, eb));
        let f = if *d == DType::Bool { BinFn::And } else { BinFn::Mul };
        let prod = self.array_op(ComputeFn::Binary(f), vec![a, b], &Ty::Array(*d, pairs))?;
        let sizes = (0..shape.len())
            .map(|i| {
                let (n, p) = (self.dim(prod, 2 * i), self.dim(prod, 2 * i + 1));
                self.scalar_binary(BinFn::Mul, n, p, DType::I64)
            })
            .collect();
        let out = self.reshape_view(prod, sizes);
        self.shapes.insert(out, shape.clone());
        Ok(out)
    }

    /// The view of diagonal `k` of the 2-d `m`: the diagonal of `m[:, k:]` (or `m[-k:, :]`).
    fn diagonal_k(&mut self, m: ValueId, k: i64) -> ValueId {
        let from = self.i64_const(k.abs());
        let slice = IndexEntry::Slice { start: true, stop: false, step: false };
        let entries = if k >= 0 { vec![Full, slice] } else { vec![slice, Full] };
        let shifted = self.view_with(m, entries, vec![from]);
        self.diagonal(shifted)
    }

    /// `diag(v, k)`: of a 1-d `v`, zeros of the checked `(n + |k|, n + |k|)` with `v` copied into
    /// diagonal `k`; of a 2-d `v`, a copy of its diagonal `k`.
    fn diag(&mut self, args: &[Expr], kwargs: &[(ast::Ident, Expr)], ty: &Ty) -> LResult<ValueId> {
        let k = args.get(1).or(Self::kwarg(kwargs, "k")).map_or(0, |k| literal_int(k).expect("checked: a literal"));
        let v = self.expr(&args[0])?;
        let Ty::Array(d, shape) = ty else { unreachable!("checked: an array") };
        if shape.len() == 1 {
            let diagonal = self.diagonal_k(v, k);
            return Ok(self.fresh_copy(diagonal));
        }
        let n = self.dim(v, 0);
        let pad = self.i64_const(k.abs());
        let size = self.scalar_binary(BinFn::Add, n, pad, DType::I64);
        let out = self.new_array(*d, vec![size, size]);
        self.shapes.insert(out, shape.clone());
        let zero = self.constant(Scalar::I64(0).cast(*d));
        self.emit(OpKind::Compute { func: ComputeFn::Fill, out, ins: vec![zero] });
        let diagonal = self.diagonal_k(out, k);
        self.emit(OpKind::Compute { func: ComputeFn::Copy, out: diagonal, ins: vec![v] });
        Ok(out)
    }

    /// `trapezoid(y, x, dx, axis)`: `sum(d * (y[1:] + y[:-1]) / 2, axis)` along the axis, `d`
    /// the scalar `dx` (default 1.0) or `diff(x)` standing along the axis (NumPy's order of
    /// operations and dtypes: the sums in `y`'s, the rest in the result's).
    fn trapezoid(&mut self, args: &[Expr], kwargs: &[(ast::Ident, Expr)], ty: &Ty, e: &Expr) -> LResult<ValueId> {
        let y = self.expr(&args[0])?;
        let Ty::Array(dy, mut shape) = self.ty_of(&args[0]).clone() else { unreachable!("checked: an array") };
        let d = ty.dtype().expect("checked: a float");
        let r = shape.len();
        let k = Self::kwarg(kwargs, "axis").and_then(literal_int).unwrap_or(-1).rem_euclid(r as i64) as usize;
        shape[k] = match shape[k].as_const() {
            Some(m) => Size::lit((m - 1).max(0)),
            None => shape[k].sub(&Size::lit(1)),
        };
        let step_ty = Ty::Array(d, shape.clone());
        let (hi, lo) = self.shifted_pair(y, r, k);
        // NumPy adds in `y`'s dtype (an `f32` `y` with an `f64` `x` rounds the sums to `f32`).
        let sum_dt = if dy == DType::Bool { d } else { dy };
        let sum = self.array_op(ComputeFn::Binary(BinFn::Add), vec![hi, lo], &Ty::Array(sum_dt, shape.clone()))?;
        let width = match args.get(1).or(Self::kwarg(kwargs, "x")) {
            Some(x) => {
                let x = self.expr(x)?;
                let n = self.dim(x, 0);
                let m = self.dim(y, k);
                self.assert_same_size(n, m, "trapezoid: `x` has {lhs} sample points and `y` {rhs} along the axis");
                let (xh, xl) = self.shifted_pair(x, 1, 0);
                let dx =
                    self.array_op(ComputeFn::Binary(BinFn::Sub), vec![xh, xl], &Ty::Array(d, vec![shape[k].clone()]))?;
                let mut entries = vec![NewAxis; r];
                entries[k] = Full;
                self.expand(dx, entries)
            }
            None => match args.get(2).or(Self::kwarg(kwargs, "dx")) {
                Some(dx) => self.expr(dx)?,
                None => self.constant(Scalar::F64(1.0)),
            },
        };
        let scaled = self.array_op(ComputeFn::Binary(BinFn::Mul), vec![width, sum], &step_ty)?;
        let two = self.constant(Scalar::F64(2.0));
        let halves = self.array_op(ComputeFn::Binary(BinFn::Div), vec![scaled, two], &step_ty)?;
        let axes = (r > 1).then(|| vec![k]);
        self.reduction(false, ReduceKind::Sum, halves, axes.as_deref(), ty, e)
    }

    /// `cov(m)`, as NumPy's: `m` in `f64`, as rows of variables (transposed for `rowvar=false`),
    /// less each row's mean, then `inner(c, c) * (1 / (n - ddof))` (`ddof` default 1); a 1-d `m`
    /// is one variable (a scalar). `corrcoef(m)`: that matrix divided by `stddev[:, newaxis]` and
    /// `stddev[newaxis, :]` (`stddev` the square roots of its diagonal), clipped to `[-1, 1]`;
    /// of a 1-d `m`, `c / c`.
    fn cov(&mut self, b: Builtin, args: &[Expr], kwargs: &[(ast::Ident, Expr)], ty: &Ty, e: &Expr) -> LResult<ValueId> {
        let x = self.expr(&args[0])?;
        let Ty::Array(_, shape) = self.ty_of(&args[0]).clone() else { unreachable!("checked: an array") };
        let f64_ty = |s: Vec<Size>| Ty::Array(DType::F64, s);
        let rowvar = !matches!(Self::kwarg(kwargs, "rowvar").map(|v| &v.kind), Some(ast::ExprKind::Bool(false)));
        let (x, shape) = if shape.len() == 2 && !rowvar {
            (self.transpose(x, vec![1, 0]), vec![shape[1].clone(), shape[0].clone()])
        } else {
            (x, shape)
        };
        let x = self.converted(x, DType::F64, &shape)?;
        let r = shape.len();
        let obs = self.dim(x, r - 1);
        // Each row's mean, standing along the observations.
        let mean_ty = if r == 1 { Ty::Scalar(DType::F64) } else { f64_ty(shape[..1].to_vec()) };
        let axes = (r > 1).then(|| vec![r - 1]);
        let mean = self.reduction(true, ReduceKind::Sum, x, axes.as_deref(), &mean_ty, e)?;
        let mean = if r == 1 { mean } else { self.expand(mean, vec![Full, NewAxis]) };
        let centred = self.array_op(ComputeFn::Binary(BinFn::Sub), vec![x, mean], &f64_ty(shape.clone()))?;
        let ddof = match Self::kwarg(kwargs, "ddof") {
            Some(d) => self.expr(d)?,
            None => self.i64_const(1),
        };
        let fact = self.scalar_binary(BinFn::Sub, obs, ddof, DType::I64);
        let fact = self.cast_scalar(fact, DType::F64);
        let one = self.constant(Scalar::F64(1.0));
        let scale = self.scalar_binary(BinFn::Div, one, fact, DType::F64);
        let cov_ty = if r == 1 { Ty::Scalar(DType::F64) } else { ty.clone() };
        let products = if r == 1 {
            self.sum_of_products(centred, centred, shape.clone(), &cov_ty, e)?
        } else {
            let a = self.expand(centred, vec![Full, NewAxis, Full]);
            let c = self.expand(centred, vec![NewAxis, Full, Full]);
            let s3 = vec![shape[0].clone(), shape[0].clone(), shape[1].clone()];
            self.sum_of_products(a, c, s3, &cov_ty, e)?
        };
        let cov = self.binary(BinFn::Mul, products, scale, &cov_ty)?;
        if b == Builtin::Cov {
            return Ok(cov);
        }
        if r == 1 {
            return self.binary(BinFn::Div, cov, cov, ty);
        }
        let diagonal = self.diagonal(cov);
        let stddev = self.array_op(ComputeFn::Unary(UnFn::Sqrt), vec![diagonal], &f64_ty(shape[..1].to_vec()))?;
        let rows = self.expand(stddev, vec![Full, NewAxis]);
        let cols = self.expand(stddev, vec![NewAxis, Full]);
        let c = self.array_op(ComputeFn::Binary(BinFn::Div), vec![cov, rows], ty)?;
        let c = self.array_op(ComputeFn::Binary(BinFn::Div), vec![c, cols], ty)?;
        let (lo, hi) = (self.constant(Scalar::F64(-1.0)), self.constant(Scalar::F64(1.0)));
        let c = self.array_op(ComputeFn::Binary(BinFn::Maximum), vec![c, lo], ty)?;
        self.array_op(ComputeFn::Binary(BinFn::Minimum), vec![c, hi], ty)
    }

    /// `unravel_index(i, dims)`: after a run-time check that every index is in
    /// `[0, d0 * d1 * ...)` (NumPy's ValueError), `nonzero`'s per-axis `(i // stride) % d`.
    pub(crate) fn unravel_index(&mut self, args: &[Expr], ty: &Ty, e: &Expr) -> LResult<Vec<ValueId>> {
        let Ty::Tuple(tys) = ty else { unreachable!("checked: a tuple of coordinates") };
        let p = self.expr(&args[0])?;
        let sizes: Vec<ValueId> = self.flat_operands(&args[1])?;
        let sizes: Vec<ValueId> = sizes.into_iter().map(|v| self.cast_scalar(v, DType::I64)).collect();
        let one = self.i64_const(1);
        let total = sizes.iter().fold(one, |t, &n| self.scalar_binary(BinFn::Mul, t, n, DType::I64));
        let zero = self.i64_const(0);
        let at = &tys[0];
        let in_range = if let Ty::Array(_, shape) = at {
            let bool_ty = Ty::Array(DType::Bool, shape.clone());
            let below = self.binary(BinFn::Lt, p, zero, &bool_ty)?;
            let above = self.binary(BinFn::Ge, p, total, &bool_ty)?;
            let out = self.binary(BinFn::Or, below, above, &bool_ty)?;
            let count = self.reduction(false, ReduceKind::Sum, out, None, &Ty::Scalar(DType::I64), e)?;
            self.scalar_binary(BinFn::Eq, count, zero, DType::I64)
        } else {
            let p = self.cast_scalar(p, DType::I64);
            let low = self.scalar_binary(BinFn::Ge, p, zero, DType::I64);
            let high = self.scalar_binary(BinFn::Lt, p, total, DType::I64);
            self.scalar_binary(BinFn::And, low, high, DType::Bool)
        };
        let msg = "unravel_index: an index is out of bounds for an array of the given shape".into();
        self.emit(OpKind::Assert { cond: in_range, msg });
        self.unravel(p, &sizes, tys)
    }
}

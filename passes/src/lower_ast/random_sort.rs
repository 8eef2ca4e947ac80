//! Random draws and convolution (`docs/language.md`, "Builtin functions"; their types:
//! `grammar/src/check/random_sort.rs`), composed from existing operations so that they fuse:
//! `normal` is Box–Muller on `random`'s uniforms (`arr.compute random` of an array with a trailing
//! axis of 2, then elementwise `log`, `sqrt`, `cos`); `integers` scales `random`'s uniforms and
//! rounds down; `convolve` gathers the longer array along a grid of (output, shorter-array)
//! positions and sums along the shorter array, one reduction. `sort` and `argsort` are `arr.sort`,
//! a host operation (`arrayc_runtime::sort`).

use super::{LResult, Lowerer};
use arrayc_dialect::ir::{BinFn, ComputeFn, IndexEntry, OpKind, ReduceKind, Scalar, Type, UnFn, ValueId};
use arrayc_grammar::ast::{self, DType, Expr};
use arrayc_grammar::builtin::{convolve_mode, Builtin, ConvolveMode};
use arrayc_grammar::types::Ty;

impl Lowerer<'_> {
    /// `normal` or `integers` (`b`): `vals` are the evaluated positional arguments (`integers`'
    /// bounds, then the sizes), `ty` the checked result type.
    pub(crate) fn random_draws(
        &mut self,
        b: Builtin,
        vals: &[ValueId],
        kwargs: &[(ast::Ident, Expr)],
        ty: &Ty,
    ) -> LResult<ValueId> {
        let Ty::Array(_, shape) = ty else { unreachable!("checked: an array") };
        let seed = match Self::kwarg(kwargs, "seed") {
            Some(s) => self.expr(s)?,
            None => self.i64_const(0),
        };
        let seed = self.cast_scalar(seed, DType::I64);
        let dims = if b == Builtin::Integers { &vals[2..] } else { vals };
        let mut sizes: Vec<ValueId> = dims.iter().map(|v| self.cast_scalar(*v, DType::I64)).collect();
        let fty = Ty::Array(DType::F64, shape.clone());
        let f64c = |l: &mut Self, x: f64| l.constant(Scalar::F64(x));
        if b == Builtin::Integers {
            let (low, high) = (self.cast_scalar(vals[0], DType::I64), self.cast_scalar(vals[1], DType::I64));
            let ok = self.scalar_binary(BinFn::Lt, low, high, DType::I64);
            self.emit(OpKind::Assert { cond: ok, msg: "integers: low >= high (NumPy's ValueError)".into() });
            let u = self.new_array(DType::F64, sizes);
            self.emit(OpKind::Compute { func: ComputeFn::Random, out: u, ins: vec![seed] });
            self.shapes.insert(u, shape.clone());
            let span = self.scalar_binary(BinFn::Sub, high, low, DType::I64);
            let span = self.cast_scalar(span, DType::F64);
            let y = self.array_op(ComputeFn::Binary(BinFn::Mul), vec![u, span], &fty)?;
            let y = self.array_op(ComputeFn::Unary(UnFn::Floor), vec![y], &fty)?;
            let ity = Ty::Array(DType::I64, shape.clone());
            let y = self.array_op(ComputeFn::Copy, vec![y], &ity)?;
            return self.array_op(ComputeFn::Binary(BinFn::Add), vec![y, low], &ity);
        }
        // Two uniforms per element, adjacent: element `k` takes `u(2k)` and `u(2k + 1)`.
        let r = sizes.len();
        sizes.push(self.i64_const(2));
        let u = self.new_array(DType::F64, sizes);
        self.emit(OpKind::Compute { func: ComputeFn::Random, out: u, ins: vec![seed] });
        let mut at = vec![IndexEntry::Full; r];
        at.push(IndexEntry::At);
        let (zero, one) = (self.i64_const(0), self.i64_const(1));
        let u1 = self.view_with(u, at.clone(), vec![zero]);
        let u2 = self.view_with(u, at, vec![one]);
        self.shapes.insert(u1, shape.clone());
        self.shapes.insert(u2, shape.clone());
        let c1 = f64c(self, 1.0);
        let t = self.array_op(ComputeFn::Binary(BinFn::Sub), vec![c1, u1], &fty)?;
        let t = self.array_op(ComputeFn::Unary(UnFn::Log), vec![t], &fty)?;
        let m2 = f64c(self, -2.0);
        let t = self.array_op(ComputeFn::Binary(BinFn::Mul), vec![m2, t], &fty)?;
        let radius = self.array_op(ComputeFn::Unary(UnFn::Sqrt), vec![t], &fty)?;
        let tau = f64c(self, std::f64::consts::TAU);
        let a = self.array_op(ComputeFn::Binary(BinFn::Mul), vec![tau, u2], &fty)?;
        let a = self.array_op(ComputeFn::Unary(UnFn::Cos), vec![a], &fty)?;
        let mut z = self.array_op(ComputeFn::Binary(BinFn::Mul), vec![radius, a], &fty)?;
        if let Some(s) = Self::kwarg(kwargs, "scale") {
            let s = self.expr(s)?;
            let s = self.cast_scalar(s, DType::F64);
            z = self.array_op(ComputeFn::Binary(BinFn::Mul), vec![s, z], &fty)?;
        }
        if let Some(l) = Self::kwarg(kwargs, "loc") {
            let l = self.expr(l)?;
            let l = self.cast_scalar(l, DType::F64);
            z = self.array_op(ComputeFn::Binary(BinFn::Add), vec![l, z], &fty)?;
        }
        Ok(z)
    }

    /// `convolve(a, v, mode=)` of 1-d arrays `a` (size `n`) and `v` (size `m`), NumPy's: the longer
    /// `x` (size `nl`) and the shorter `y` (size `ns`, `a` first when equal), then
    /// `out[k] = sum_j where(0 <= i < nl, x[clip(i)], 0) * y[j]`, `i = k + off - j`, for `j` in
    /// `0 .. ns`, `k` in `0 .. len`: a gather over the `(len, ns)` grid summed along its last axis.
    /// `off` and `len` are `0`, `nl + ns - 1` (`full`), `(ns - 1) // 2`, `nl` (`same`),
    /// `ns - 1`, `nl - ns + 1` (`valid`). Which array is longer is decided at compile time when both
    /// sizes are known, else per element by a `where` on the sizes (both arrays gathered at
    /// clipped positions).
    pub(crate) fn convolve(
        &mut self,
        args: &[Expr],
        vals: &[ValueId],
        kwargs: &[(ast::Ident, Expr)],
        ty: &Ty,
    ) -> LResult<ValueId> {
        let Ty::Array(dt, _) = ty else { unreachable!("checked: an array") };
        let dt = *dt;
        let mode = Self::kwarg(kwargs, "mode").and_then(convolve_mode).unwrap_or(ConvolveMode::Full);
        let (a, v) = (vals[0], vals[1]);
        let (n, m) = (self.dim(a, 0), self.dim(v, 0));
        let zero = self.i64_const(0);
        let one = self.i64_const(1);
        for (len, what) in [(n, "a"), (m, "v")] {
            let ok = self.scalar_binary(BinFn::Gt, len, zero, DType::I64);
            self.emit(OpKind::Assert {
                cond: ok,
                msg: format!("convolve: {what} cannot be empty (NumPy's ValueError)"),
            });
        }
        let known = |i: usize| self.ty_of(&args[i]).shape().and_then(|s| s[0].as_const());
        // `Some(true)`: `v` is longer (NumPy swaps); `None`: decided at run time.
        let swap = match (known(0), known(1)) {
            (Some(n), Some(m)) => Some(m > n),
            _ => None,
        };
        let nl = self.scalar_binary(BinFn::Maximum, n, m, DType::I64);
        let ns = self.scalar_binary(BinFn::Minimum, n, m, DType::I64);
        let ns1 = self.scalar_binary(BinFn::Sub, ns, one, DType::I64);
        let (off, len) = match mode {
            ConvolveMode::Full => (zero, self.scalar_binary(BinFn::Add, nl, ns1, DType::I64)),
            ConvolveMode::Same => {
                let two = self.i64_const(2);
                (self.scalar_binary(BinFn::FloorDiv, ns1, two, DType::I64), nl)
            }
            ConvolveMode::Valid => (ns1, self.scalar_binary(BinFn::Sub, nl, ns1, DType::I64)),
        };
        let i64a = |l: &mut Self, func: ComputeFn, ins: Vec<ValueId>, sizes: &[ValueId]| {
            l.compute_new(func, ins, DType::I64, sizes.to_vec(), None)
        };
        let grid = [len, ns];
        let k = i64a(self, ComputeFn::Arange, vec![off, one], &[len]);
        let k = self.view_with(k, vec![IndexEntry::Full, IndexEntry::NewAxis], vec![]);
        let j = i64a(self, ComputeFn::Arange, vec![zero, one], &[ns]);
        let j2 = self.view_with(j, vec![IndexEntry::NewAxis, IndexEntry::Full], vec![]);
        let i = i64a(self, ComputeFn::Binary(BinFn::Sub), vec![k, j2], &grid);
        let bool_grid = |l: &mut Self, f: BinFn, x: ValueId, y: ValueId| {
            l.compute_new(ComputeFn::Binary(f), vec![x, y], DType::Bool, grid.to_vec(), None)
        };
        let ge = bool_grid(self, BinFn::Ge, i, zero);
        let lt = bool_grid(self, BinFn::Lt, i, nl);
        let inside = bool_grid(self, BinFn::And, ge, lt);
        // Gathers `src` (size `len`) at `idx` clipped to `0 .. len`, over `sizes`.
        let gather_clipped = |l: &mut Self, src: ValueId, len: ValueId, idx: ValueId, sizes: &[ValueId]| {
            let last = l.scalar_binary(BinFn::Sub, len, one, DType::I64);
            let c = i64a(l, ComputeFn::Binary(BinFn::Maximum), vec![idx, zero], sizes);
            let c = i64a(l, ComputeFn::Binary(BinFn::Minimum), vec![c, last], sizes);
            let Type::Array(d, _) = l.f.ty(src) else { unreachable!("checked: an array") };
            let out = l.new_array(d, sizes.to_vec());
            l.emit(OpKind::Compute { func: ComputeFn::Gather(0), out, ins: vec![src, c] });
            out
        };
        let (x, y) = match swap {
            Some(false) => (gather_clipped(self, a, n, i, &grid), gather_clipped(self, v, m, j, &[ns])),
            Some(true) => (gather_clipped(self, v, m, i, &grid), gather_clipped(self, a, n, j, &[ns])),
            None => {
                let swapped = self.scalar_binary(BinFn::Gt, m, n, DType::I64);
                let xa = gather_clipped(self, a, n, i, &grid);
                let xv = gather_clipped(self, v, m, i, &grid);
                let x = self.compute_new(ComputeFn::Where, vec![swapped, xv, xa], dt, grid.to_vec(), None);
                let ya = gather_clipped(self, a, n, j, &[ns]);
                let yv = gather_clipped(self, v, m, j, &[ns]);
                let y = self.compute_new(ComputeFn::Where, vec![swapped, ya, yv], dt, vec![ns], None);
                (x, y)
            }
        };
        let zd = self.constant(Scalar::I64(0).cast(dt));
        let x = self.compute_new(ComputeFn::Where, vec![inside, x, zd], dt, grid.to_vec(), None);
        let y = self.view_with(y, vec![IndexEntry::NewAxis, IndexEntry::Full], vec![]);
        let p = self.compute_new(ComputeFn::Binary(BinFn::Mul), vec![x, y], dt, grid.to_vec(), None);
        let out = self.new_array(dt, vec![len]);
        if let Ty::Array(_, shape) = ty {
            self.shapes.insert(out, shape.clone());
        }
        self.emit(OpKind::Compute { func: ComputeFn::Reduce(ReduceKind::Sum, Some(1)), out, ins: vec![p] });
        Ok(out)
    }

    /// `sort(x, axis=k)` or `argsort` (`indices`): an `arr.sort` of `x` along `k` (default the last
    /// axis) into a new array of `x`'s sizes, `x`'s dtype or `i64` (`ty`).
    pub(crate) fn sort(&mut self, x: ValueId, axis: Option<usize>, indices: bool, ty: &Ty) -> ValueId {
        let Type::Array(_, r) = self.f.ty(x) else { unreachable!("checked: an array") };
        let Ty::Array(dt, shape) = ty else { unreachable!("checked: an array") };
        let sizes = (0..r).map(|a| self.dim(x, a)).collect();
        let out = self.new_array(*dt, sizes);
        self.shapes.insert(out, shape.clone());
        self.emit(OpKind::Sort { out, src: x, axis: axis.unwrap_or(r - 1), indices });
        out
    }
}

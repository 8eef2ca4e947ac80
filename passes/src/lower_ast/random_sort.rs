//! Random draws and convolution (`docs/language.md`, "Builtin functions"; their types:
//! `grammar/src/check/random_sort.rs`). The draws are composed from existing operations so that
//! they fuse: `normal` is Box–Muller on `random`'s uniforms (`arr.compute random` of an array with a trailing
//! axis of 2, then elementwise `log`, `sqrt`, `cos`); `integers` scales `random`'s uniforms and
//! rounds down. `convolve` is `arr.convolve`, and `sort` and `argsort` are `arr.sort`: host
//! operations (`arrayc_runtime::convolve`, `arrayc_runtime::sort`).

use super::{LResult, Lowerer};
use arrayc_dialect::ir::{BinFn, ComputeFn, IndexEntry, OpKind, Scalar, Type, UnFn, ValueId};
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
            let zero = f64c(self, 0.0);
            let ok = self.scalar_binary(BinFn::Ge, s, zero, DType::F64);
            self.emit(OpKind::Assert { cond: ok, msg: "normal: scale < 0 (NumPy's ValueError)".into() });
            z = self.array_op(ComputeFn::Binary(BinFn::Mul), vec![s, z], &fty)?;
        }
        if let Some(l) = Self::kwarg(kwargs, "loc") {
            let l = self.expr(l)?;
            let l = self.cast_scalar(l, DType::F64);
            z = self.array_op(ComputeFn::Binary(BinFn::Add), vec![l, z], &fty)?;
        }
        Ok(z)
    }

    /// `convolve(a, v, mode=)` of 1-d arrays `a` (size `n`) and `v` (size `m`), NumPy's: both cast
    /// to the result's dtype, then an `arr.convolve` (a host operation, `arrayc_runtime::convolve`,
    /// which takes the longer array first as NumPy does) into a new array of `len` elements from
    /// offset `off` of the full convolution. With `nl = max(n, m)` and `ns = min(n, m)`, `off` and
    /// `len` are `0`, `nl + ns - 1` (`full`), `(ns - 1) // 2`, `nl` (`same`), `ns - 1`,
    /// `nl - ns + 1` (`valid`): this is the one place the run time takes them from. An empty
    /// array is NumPy's ValueError, a run-time check naming the line.
    pub(crate) fn convolve(&mut self, vals: &[ValueId], kwargs: &[(ast::Ident, Expr)], ty: &Ty) -> LResult<ValueId> {
        let Ty::Array(dt, shape) = ty else { unreachable!("checked: an array") };
        let dt = *dt;
        let mode = Self::kwarg(kwargs, "mode").and_then(convolve_mode).unwrap_or(ConvolveMode::Full);
        let (n, m) = (self.dim(vals[0], 0), self.dim(vals[1], 0));
        let zero = self.i64_const(0);
        let one = self.i64_const(1);
        for (len, what) in [(n, "a"), (m, "v")] {
            let ok = self.scalar_binary(BinFn::Gt, len, zero, DType::I64);
            self.emit(OpKind::Assert {
                cond: ok,
                msg: format!("convolve: {what} cannot be empty (NumPy's ValueError)"),
            });
        }
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
        let [a, v] = [(vals[0], n), (vals[1], m)].map(|(x, size)| match self.f.ty(x) {
            Type::Array(d, _) if d == dt => x,
            _ => self.compute_new(ComputeFn::Copy, vec![x], dt, vec![size], None),
        });
        let out = self.new_array(dt, vec![len]);
        self.shapes.insert(out, shape.clone());
        self.emit(OpKind::Convolve { out, a, v, off });
        Ok(out)
    }

    /// `partition(x, kth, axis=k)` or `argpartition` (`indices`): `kth` checked against the axis'
    /// size `n` at run time (`-n <= kth < n`, NumPy's ValueError), then [`Self::sort`], whose
    /// result is one of the partitions NumPy allows.
    pub(crate) fn partition(
        &mut self,
        x: ValueId,
        kth: ValueId,
        axis: Option<usize>,
        indices: bool,
        ty: &Ty,
    ) -> ValueId {
        let Type::Array(_, r) = self.f.ty(x) else { unreachable!("checked: an array") };
        let n = self.dim(x, axis.unwrap_or(r - 1));
        let kth = self.cast_scalar(kth, DType::I64);
        let zero = self.i64_const(0);
        let low = self.scalar_binary(BinFn::Sub, zero, n, DType::I64);
        let above = self.scalar_binary(BinFn::Ge, kth, low, DType::I64);
        let below = self.scalar_binary(BinFn::Lt, kth, n, DType::I64);
        for cond in [above, below] {
            self.emit(OpKind::Assert { cond, msg: "partition: kth out of bounds (NumPy's ValueError)".to_string() });
        }
        self.sort(x, axis, indices, ty)
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

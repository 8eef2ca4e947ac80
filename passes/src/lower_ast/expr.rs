//! Expressions: scalar host arithmetic, array operations (one `arr` op each), views, builtins.

use super::{LResult, Lowerer, Root};
use arrayc_core::ops::matmul_by_library;
use arrayc_core::semantics::{gather_out_of_bounds, scatter_out_of_bounds};
use arrayc_dialect::ir::{
    BinFn, ComputeFn, IndexEntry, OpKind, ReduceKind, Scalar, ScatterKind, ScatterMode, Type, UnFn, ValueId,
};
use arrayc_grammar::ast::{self, BinOp, DType, Expr, ExprKind, Index};
use arrayc_grammar::builtin::{Builtin, Callee};
use arrayc_grammar::types::{Size, Ty};

/// The elementwise function of a binary operator.
pub(crate) fn bin_fn(op: BinOp) -> BinFn {
    match op {
        BinOp::Add => BinFn::Add,
        BinOp::Sub => BinFn::Sub,
        BinOp::Mul => BinFn::Mul,
        BinOp::Div => BinFn::Div,
        BinOp::Pow => BinFn::Pow,
        BinOp::Rem => BinFn::Rem,
        BinOp::Eq => BinFn::Eq,
        BinOp::Ne => BinFn::Ne,
        BinOp::Lt => BinFn::Lt,
        BinOp::Le => BinFn::Le,
        BinOp::Gt => BinFn::Gt,
        BinOp::Ge => BinFn::Ge,
        BinOp::And => BinFn::And,
        BinOp::Or => BinFn::Or,
        BinOp::FloorDiv => BinFn::FloorDiv,
        BinOp::Xor => BinFn::Xor,
        BinOp::Shl => BinFn::Shl,
        BinOp::Shr => BinFn::Shr,
    }
}

/// The elementwise computation of a builtin that is one (`abs`, ..., `minimum`, `maximum`,
/// `where`); `None` for the other builtins.
fn elementwise_fn(b: Builtin) -> Option<ComputeFn> {
    use Builtin as B;
    Some(match b {
        B::Abs => ComputeFn::Unary(UnFn::Abs),
        B::Sqrt => ComputeFn::Unary(UnFn::Sqrt),
        B::Exp => ComputeFn::Unary(UnFn::Exp),
        B::Log => ComputeFn::Unary(UnFn::Log),
        B::Sin => ComputeFn::Unary(UnFn::Sin),
        B::Cos => ComputeFn::Unary(UnFn::Cos),
        B::Tanh => ComputeFn::Unary(UnFn::Tanh),
        B::Tan => ComputeFn::Unary(UnFn::Tan),
        B::Arcsin => ComputeFn::Unary(UnFn::Arcsin),
        B::Arccos => ComputeFn::Unary(UnFn::Arccos),
        B::Arctan => ComputeFn::Unary(UnFn::Arctan),
        B::Sinh => ComputeFn::Unary(UnFn::Sinh),
        B::Cosh => ComputeFn::Unary(UnFn::Cosh),
        B::Arcsinh => ComputeFn::Unary(UnFn::Arcsinh),
        B::Arccosh => ComputeFn::Unary(UnFn::Arccosh),
        B::Arctanh => ComputeFn::Unary(UnFn::Arctanh),
        B::Exp2 => ComputeFn::Unary(UnFn::Exp2),
        B::Expm1 => ComputeFn::Unary(UnFn::Expm1),
        B::Log2 => ComputeFn::Unary(UnFn::Log2),
        B::Log10 => ComputeFn::Unary(UnFn::Log10),
        B::Log1p => ComputeFn::Unary(UnFn::Log1p),
        B::Floor => ComputeFn::Unary(UnFn::Floor),
        B::Ceil => ComputeFn::Unary(UnFn::Ceil),
        B::Trunc => ComputeFn::Unary(UnFn::Trunc),
        B::Rint => ComputeFn::Unary(UnFn::Rint),
        B::Minimum => ComputeFn::Binary(BinFn::Minimum),
        B::Maximum => ComputeFn::Binary(BinFn::Maximum),
        B::Arctan2 => ComputeFn::Binary(BinFn::Arctan2),
        B::Copysign => ComputeFn::Binary(BinFn::Copysign),
        B::Where => ComputeFn::Where,
        _ => return None,
    })
}

/// `ty` with dtype `d`, the same shape.
pub(crate) fn retyped(ty: &Ty, d: DType) -> Ty {
    match ty {
        Ty::Array(_, s) => Ty::Array(d, s.clone()),
        _ => Ty::Scalar(d),
    }
}

/// `10**n` as NumPy's `round` computes it (`power_of_ten` in `multiarray/calculation.c`): exact
/// below `10**9`, then `1e9` times 10, rounding at each step (infinite from `n = 309`).
fn numpy_power_of_ten(n: u64) -> f64 {
    if n < 9 {
        return 10f64.powi(n as i32);
    }
    let mut r = 1e9;
    for _ in 9..n.min(400) {
        r *= 10.0;
    }
    r
}

/// The reduction a reduction builtin computes (`mean`: a sum, then divided); `None` for the other
/// builtins.
fn reduce_kind(b: Builtin) -> Option<ReduceKind> {
    Some(match b {
        Builtin::Sum | Builtin::Mean => ReduceKind::Sum,
        Builtin::Prod => ReduceKind::Prod,
        Builtin::Min => ReduceKind::Min,
        Builtin::Max => ReduceKind::Max,
        _ => return None,
    })
}

impl Lowerer<'_> {
    /// Lowers an expression with one value.
    pub(crate) fn expr(&mut self, e: &Expr) -> LResult<ValueId> {
        let vs = self.expr_multi(e)?;
        match vs.as_slice() {
            [v] => Ok(*v),
            _ => Err(self.error("E0907", &e.span, "expected one value", "")),
        }
    }

    /// Lowers an expression with any number of values (calls may have several results).
    pub(crate) fn expr_multi(&mut self, e: &Expr) -> LResult<Vec<ValueId>> {
        let vs = self.expr_values(e)?;
        if let (Ty::Array(_, shape), [v]) = (self.ty_of(e), vs.as_slice()) {
            let shape = shape.clone();
            self.shapes.entry(*v).or_insert(shape);
        }
        Ok(vs)
    }

    fn expr_values(&mut self, e: &Expr) -> LResult<Vec<ValueId>> {
        let ty = self.ty_of(e).clone();
        Ok(vec![match &e.kind {
            ExprKind::Int(i) => {
                let v = self.constant(Scalar::I64(*i));
                self.cast_scalar(v, ty.dtype().unwrap_or(DType::I64))
            }
            ExprKind::Float(x) => {
                let v = self.constant(Scalar::F64(*x));
                self.cast_scalar(v, ty.dtype().unwrap_or(DType::F64))
            }
            ExprKind::Bool(b) => self.constant(Scalar::Bool(*b)),
            ExprKind::Var(id) => self.var(id)?,
            ExprKind::DTypeName(_) => return Err(self.error("E0908", &e.span, "a type name is not a value here", "")),
            ExprKind::Tuple(_) => return Err(self.error("E0908", &e.span, "a tuple is not a value here", "")),
            ExprKind::Str(_) => return Err(self.error("E0908", &e.span, "a string is not a value here", "")),
            ExprKind::List(_) => self.list_literal(e, &ty)?,
            ExprKind::IfElse(parts) | ExprKind::BoolOp(_, parts) => self.lower_if_else(parts, &ty)?,
            ExprKind::Binary(op, a, b) => {
                let (x, y) = (self.expr(a)?, self.expr(b)?);
                self.binary(bin_fn(*op), x, y, &ty)?
            }
            ExprKind::Unary(op, a) => {
                let x = self.expr(a)?;
                if let (ast::UnOp::Neg, Some(c)) = (op, self.consts.get(&x).copied()) {
                    let folded = match c {
                        Scalar::F64(v) => Some(Scalar::F64(-v)),
                        Scalar::F32(v) => Some(Scalar::F32(-v)),
                        Scalar::I64(v) => Some(Scalar::I64(v.wrapping_neg())),
                        Scalar::I32(v) => Some(Scalar::I32(v.wrapping_neg())),
                        Scalar::U64(v) => Some(Scalar::U64(v.wrapping_neg())),
                        Scalar::U8(v) => Some(Scalar::U8(v.wrapping_neg())),
                        Scalar::Bool(_) => None,
                    };
                    if let Some(f) = folded {
                        return Ok(vec![self.constant(f)]);
                    }
                }
                match (op, self.f.ty(x)) {
                    (ast::UnOp::Neg, Type::Scalar(d)) if d.is_float() => self.scalar_unary(UnFn::Neg, x),
                    (ast::UnOp::Neg, Type::Scalar(d)) => {
                        let z = self.constant(Scalar::I64(0).cast(d));
                        self.scalar_binary(BinFn::Sub, z, x, d)
                    }
                    (ast::UnOp::Not, Type::Scalar(DType::Bool)) => self.not_bool(x),
                    (ast::UnOp::Not, Type::Scalar(d)) => {
                        // Bitwise on integers: all bits flipped.
                        let ones = self.constant(Scalar::I64(-1).cast(d));
                        self.scalar_binary(BinFn::Xor, x, ones, d)
                    }
                    (ast::UnOp::Neg, _) => self.array_op(ComputeFn::Unary(UnFn::Neg), vec![x], &ty)?,
                    (ast::UnOp::Not, _) => self.array_op(ComputeFn::Unary(UnFn::Not), vec![x], &ty)?,
                }
            }
            ExprKind::Subscript { base, index } => {
                if let Ty::Tuple(ts) = self.ty_of(base) {
                    // An item of a call's results (`nonzero(x)[0]`): checked, one integer literal.
                    let n = ts.len() as i64;
                    let k = match index.as_slice() {
                        [Index::At(ix)] => arrayc_grammar::check::literal_int(ix),
                        _ => None,
                    };
                    let k = k.expect("checked: an integer literal").rem_euclid(n) as usize;
                    let vs = self.expr_multi(base)?;
                    return Ok(vec![vs[k]]);
                }
                let b = self.expr(base)?;
                if let [Index::At(ix)] = index.as_slice() {
                    if let Ty::Array(DType::Bool, _) = self.ty_of(ix) {
                        let m = self.expr(ix)?;
                        return Ok(vec![self.filter(b, m, ty.shape())]);
                    }
                }
                // Index arrays with integers and slices beside them (NumPy's advanced indexing).
                if index.iter().any(|ix| self.is_index_array(ix)) {
                    return Ok(vec![self.gather_subscript(b, index, &ty)?]);
                }
                let v = self.view(b, index)?;
                if ty.is_array() {
                    v
                } else {
                    self.load_element(v)
                }
            }
            ExprKind::Call { func, args, kwargs } => return self.call(func, args, kwargs, &ty, e),
        }])
    }

    /// Reads the single element of a 0-d view on the host (`arr.load`; `insert-del-sync` adds the `arr.sync`).
    pub(crate) fn load_element(&mut self, view: ValueId) -> ValueId {
        let r = self.value(Type::Scalar(self.f.ty(view).dtype()), None);
        self.emit(OpKind::Load { res: r, src: view });
        r
    }

    pub(crate) fn scalar_unary(&mut self, op: UnFn, x: ValueId) -> ValueId {
        // `abs` of a bool, and `floor`/`ceil`/`trunc` of an integer or bool, is the value itself
        // (NumPy 2); the op table has no such operation.
        let integral = matches!(self.f.ty(x), Type::Scalar(d) if !d.is_float());
        if op == UnFn::Abs && matches!(self.f.ty(x), Type::Scalar(d) if d == DType::Bool || d.is_unsigned())
            || op.rounds() && integral
        {
            return x;
        }
        let r = self.value(self.f.ty(x), None);
        self.emit(OpKind::Unary { res: r, op, arg: x });
        r
    }

    /// Scalar binary op computed in `dt` (both operands cast to `dt`; `/` in a float dtype).
    pub(crate) fn scalar_bin_promoted(&mut self, f: BinFn, a: ValueId, b: ValueId, dt: DType) -> ValueId {
        let dt = if f == BinFn::Div && !dt.is_float() { DType::F64 } else { dt };
        let (a, b) = (self.cast_scalar(a, dt), self.cast_scalar(b, dt));
        if f == BinFn::Rem {
            return self.numpy_rem(a, b, dt);
        }
        if f == BinFn::FloorDiv && dt.is_float() {
            return self.numpy_floor_div(a, b, dt);
        }
        self.scalar_binary(f, a, b, dt)
    }

    /// `c ? x : y` on host scalars of dtype `dt`.
    fn scalar_select(&mut self, cond: ValueId, x: ValueId, y: ValueId, dt: DType) -> ValueId {
        let res = self.value(Type::Scalar(dt), None);
        self.emit(OpKind::Select { res, cond, lhs: x, rhs: y });
        res
    }

    /// NumPy's `floor_divide` of two float scalars, as host operations (host code has no single
    /// operation for it; `arrayc_core::semantics::float_floor_div` says the same in Rust, and
    /// kernels compute it directly): `b == 0` gives `a / b`; else `div = (a - fmod(a, b)) / b`, less
    /// one when the remainder is nonzero with a sign other than `b`'s, snapped to the nearest
    /// integral value; a zero quotient takes the sign of `a / b`.
    fn numpy_floor_div(&mut self, a: ValueId, b: ValueId, dt: DType) -> ValueId {
        let c = |s: &mut Self, x: f64| s.constant(Scalar::F64(x).cast(dt));
        let (zero, one, half) = (c(self, 0.0), c(self, 1.0), c(self, 0.5));
        let quot = self.scalar_binary(BinFn::Div, a, b, dt);
        let m = self.scalar_binary(BinFn::Rem, a, b, dt);
        let a_m = self.scalar_binary(BinFn::Sub, a, m, dt);
        let div = self.scalar_binary(BinFn::Div, a_m, b, dt);
        let nz = self.scalar_binary(BinFn::Ne, m, zero, dt);
        let bneg = self.scalar_binary(BinFn::Lt, b, zero, dt);
        let mneg = self.scalar_binary(BinFn::Lt, m, zero, dt);
        let differ = self.scalar_binary(BinFn::Ne, bneg, mneg, DType::Bool);
        let fix = self.scalar_binary(BinFn::And, nz, differ, DType::Bool);
        let less = self.scalar_binary(BinFn::Sub, div, one, dt);
        let div = self.scalar_select(fix, less, div, dt);
        let fl = self.scalar_unary(UnFn::Floor, div);
        let frac = self.scalar_binary(BinFn::Sub, div, fl, dt);
        let up = self.scalar_binary(BinFn::Gt, frac, half, dt);
        let more = self.scalar_binary(BinFn::Add, fl, one, dt);
        let fl = self.scalar_select(up, more, fl, dt);
        let signed_zero = self.scalar_binary(BinFn::Copysign, zero, quot, dt);
        let div_zero = self.scalar_binary(BinFn::Eq, div, zero, dt);
        let r = self.scalar_select(div_zero, signed_zero, fl, dt);
        let b_zero = self.scalar_binary(BinFn::Eq, b, zero, dt);
        self.scalar_select(b_zero, quot, r, dt)
    }

    /// NumPy's remainder on scalars: C remainder, then `+ b` when the signs of result and divisor differ;
    /// a float zero remainder takes the divisor's sign.
    pub(crate) fn numpy_rem(&mut self, a: ValueId, b: ValueId, dt: DType) -> ValueId {
        let r = self.scalar_binary(BinFn::Rem, a, b, dt);
        let zero = self.constant(Scalar::I64(0).cast(dt));
        let nz = self.scalar_binary(BinFn::Ne, r, zero, dt);
        let rneg = self.scalar_binary(BinFn::Lt, r, zero, dt);
        let bneg = self.scalar_binary(BinFn::Lt, b, zero, dt);
        let differ = self.scalar_binary(BinFn::Ne, rneg, bneg, DType::Bool);
        let fix = self.scalar_binary(BinFn::And, nz, differ, DType::Bool);
        let adj = self.scalar_binary(BinFn::Add, r, b, dt);
        let res = self.value(Type::Scalar(dt), None);
        self.emit(OpKind::Select { res, cond: fix, lhs: adj, rhs: r });
        if !dt.is_float() {
            return res;
        }
        // A zero remainder takes the divisor's sign (NumPy: `0.0 % -1.0 == -0.0`).
        let is_zero = self.scalar_binary(BinFn::Eq, res, zero, dt);
        let neg_zero = self.constant(Scalar::F64(-0.0).cast(dt));
        let signed_zero = self.value(Type::Scalar(dt), None);
        self.emit(OpKind::Select { res: signed_zero, cond: bneg, lhs: neg_zero, rhs: zero });
        let out = self.value(Type::Scalar(dt), None);
        self.emit(OpKind::Select { res: out, cond: is_zero, lhs: signed_zero, rhs: res });
        out
    }

    pub(crate) fn binary(&mut self, f: BinFn, x: ValueId, y: ValueId, ty: &Ty) -> LResult<ValueId> {
        let (tx, ty_) = (self.f.ty(x), self.f.ty(y));
        if !tx.is_array() && !ty_.is_array() {
            let dt = if f.is_comparison() { tx.dtype().promote(ty_.dtype()) } else { ty.dtype().unwrap_or(tx.dtype()) };
            return Ok(self.scalar_bin_promoted(f, x, y, dt));
        }
        if f == BinFn::Pow {
            if let Some(v) = self.power_by_constant(x, y, ty)? {
                return Ok(v);
            }
        }
        self.array_op(ComputeFn::Binary(f), vec![x, y], ty)
    }

    /// `x ** y` with a constant exponent or base, as cheaper operations (NumPy's `fast_scalar_power`
    /// does the same for 2 and 0.5): `x ** 2 = x * x`, `x ** 3 = x * x * x`, `x ** 0.5 = sqrt(x)`,
    /// `x ** 1.5 = x * sqrt(x)` (float results only, within an ulp or two of `pow`), and for an
    /// integer exponent array `(-1.0) ** k = where(k % 2 == 0, 1.0, -1.0)` (exact). `None` when no
    /// rewrite applies. Vectorised multiplications and square roots instead of calls to `pow`.
    fn power_by_constant(&mut self, x: ValueId, y: ValueId, ty: &Ty) -> LResult<Option<ValueId>> {
        let Ty::Array(dt, shape) = ty else { return Ok(None) };
        let float = dt.is_float();
        let (tx, tyy) = (self.f.ty(x), self.f.ty(y));
        let mul = |s: &mut Self, a: ValueId, b: ValueId| s.array_op(ComputeFn::Binary(BinFn::Mul), vec![a, b], ty);
        if tx.is_array() && !tyy.is_array() {
            let Some(e) = self.consts.get(&y).map(|c| c.as_f64()) else { return Ok(None) };
            return Ok(Some(match e {
                2.0 => mul(self, x, x)?,
                3.0 => {
                    let sq = mul(self, x, x)?;
                    mul(self, sq, x)?
                }
                0.5 if float => self.array_op(ComputeFn::Unary(UnFn::Sqrt), vec![x], ty)?,
                1.5 if float => {
                    let r = self.array_op(ComputeFn::Unary(UnFn::Sqrt), vec![x], ty)?;
                    mul(self, x, r)?
                }
                _ => return Ok(None),
            }));
        }
        let minus_one = self.consts.get(&x).is_some_and(|c| c.as_f64() == -1.0);
        if minus_one && !tx.is_array() && float && tyy == Type::Array(DType::I64, shape.len()) {
            let ity = Ty::Array(DType::I64, shape.clone());
            let two = self.i64_const(2);
            let parity = self.array_op(ComputeFn::Binary(BinFn::Rem), vec![y, two], &ity)?;
            let zero = self.i64_const(0);
            let even = self.array_op(
                ComputeFn::Binary(BinFn::Eq),
                vec![parity, zero],
                &Ty::Array(DType::Bool, shape.clone()),
            )?;
            let (p, m) = (self.constant(Scalar::F64(1.0).cast(*dt)), self.constant(Scalar::F64(-1.0).cast(*dt)));
            return Ok(Some(self.array_op(ComputeFn::Where, vec![even, p, m], ty)?));
        }
        Ok(None)
    }

    /// A fresh result array of checked type `ty` computed by `func` from `ins` (broadcast to the result).
    pub(crate) fn array_op(&mut self, func: ComputeFn, ins: Vec<ValueId>, ty: &Ty) -> LResult<ValueId> {
        let Ty::Array(dt, shape) = ty else { unreachable!("array_op on a non-array type") };
        let sizes = self.broadcast_sizes(&ins, shape);
        Ok(self.compute_new(func, ins, *dt, sizes, Some(shape)))
    }

    /// A fresh result array of dtype `dt` and run-time `sizes` computed by `func` from `ins`, each
    /// broadcast to `sizes` unless its static shape is the result's checked `shape` (when known).
    pub(crate) fn compute_new(
        &mut self,
        func: ComputeFn,
        ins: Vec<ValueId>,
        dt: DType,
        sizes: Vec<ValueId>,
        shape: Option<&[Size]>,
    ) -> ValueId {
        let out = self.new_array(dt, sizes.clone());
        if let Some(shape) = shape {
            self.shapes.insert(out, shape.to_vec());
        }
        let ins = ins
            .into_iter()
            .map(|v| {
                if shape.is_some_and(|s| self.same_static_shape(v, s)) {
                    v
                } else {
                    self.broadcast_to_sizes(v, &sizes)
                }
            })
            .collect();
        self.emit(OpKind::Compute { func, out, ins });
        out
    }

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
    fn assert_indexable(&mut self, src: ValueId, axis: usize, c: usize, idx_sizes: &[ValueId], out_of_bounds: String) {
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
    fn index_operands(&mut self, indices: &[ValueId], axis: usize, q: usize, sizes: &[ValueId]) -> Vec<ValueId> {
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
    fn advanced_index(&mut self, base: ValueId, index: &[Index]) -> LResult<(ValueId, Vec<ValueId>, usize)> {
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
        for (ix, &a) in index.iter().zip(&arrays) {
            if let (Index::At(e), true) = (ix, a) {
                // An index array of another integer dtype is converted (fused into its reader).
                let Ty::Array(_, shape) = self.ty_of(e).clone() else { unreachable!("checked: an index array") };
                let idx = self.expr(e)?;
                indices.push(self.converted(idx, DType::I64, &shape)?);
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
    fn gather_subscript(&mut self, base: ValueId, index: &[Index], ty: &Ty) -> LResult<ValueId> {
        let Ty::Array(dt, shape) = ty else { unreachable!("the checker types a gather as an array") };
        let (src, indices, axis) = self.advanced_index(base, index)?;
        let Type::Array(_, rs) = self.f.ty(src) else { unreachable!("checked: an array") };
        // The rank of the broadcast index arrays: what they add to the other axes.
        let q = shape.len() + indices.len() - rs;
        Ok(self.gather(src, &indices, axis, *dt, &shape[axis..axis + q], Some(shape)))
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
        let (mut dest, indices, axis) = self.advanced_index(base, index)?;
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
        Ok(())
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
    fn row_offsets(&mut self, a: ValueId, sizes: &[ValueId]) -> ValueId {
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
    fn bincount(
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

    /// `dot(a, b)` of 1-d and 2-d operands (NumPy `a @ b`). Where the cost model's rule
    /// [`matmul_by_library`] says so (two float matrices, unless a literal inner size is small), an `arr.matmul` into a new array, its
    /// operands first converted to the result's dtype where they differ (as NumPy does before
    /// calling BLAS). Otherwise the operands' product, broadcast over the output's axes and the
    /// inner axis, summed along the inner axis (for two matrices
    /// `sum(a[:, :, newaxis] * b[newaxis, :, :], axis=1)`): fused, one kernel that accumulates each
    /// output row over the inner axis (`kernel_codegen::loops`, reductions along an axis that is
    /// not the last). The inner sizes are checked at run time (NumPy raises for unaligned shapes;
    /// broadcasting would hide a size 1).
    fn dot(&mut self, a: ValueId, b: ValueId, args: &[Expr], ty: &Ty, e: &Expr) -> LResult<ValueId> {
        use IndexEntry::{Full, NewAxis};
        let (Ty::Array(_, sa), Ty::Array(_, sb)) = (self.ty_of(&args[0]).clone(), self.ty_of(&args[1]).clone()) else {
            unreachable!("the checker types `dot`'s operands as arrays")
        };
        let d = ty.dtype().expect("`dot` has a dtype");
        let ka = self.dim(a, sa.len() - 1);
        let kb = self.dim(b, 0);
        let aligned = self.scalar_binary(BinFn::Eq, ka, kb, DType::I64);
        // `{lhs}` and `{rhs}`: the executor puts in the compared sizes (see `cf.assert`).
        let msg = "dot: shapes not aligned: the last dimension of `a` has size {lhs}, the first of `b` {rhs}".into();
        self.emit(OpKind::Assert { cond: aligned, msg });
        let inner = sa.last().and_then(Size::as_const).or_else(|| sb[0].as_const());
        if matmul_by_library(d, sa.len(), sb.len(), inner) {
            let Ty::Array(_, shape) = ty else { unreachable!("`dot` of matrices is an array") };
            let (lhs, rhs) = (self.converted(a, d, &sa)?, self.converted(b, d, &sb)?);
            let sizes = vec![self.dim(lhs, 0), self.dim(rhs, 1)];
            let out = self.new_array(d, sizes);
            self.shapes.insert(out, shape.clone());
            self.emit(OpKind::MatMul { out, lhs, rhs });
            return Ok(out);
        }
        let (x, y, shape, axis) = match (sa.len(), sb.len()) {
            (1, 1) => (a, b, sa.clone(), None),
            (2, 1) => (a, self.expand(b, vec![NewAxis, Full]), sa.clone(), Some(1)),
            (1, 2) => (self.expand(a, vec![Full, NewAxis]), b, sb.clone(), Some(0)),
            _ => {
                let a3 = self.expand(a, vec![Full, Full, NewAxis]);
                let b3 = self.expand(b, vec![NewAxis, Full, Full]);
                (a3, b3, vec![sa[0].clone(), sa[1].clone(), sb[1].clone()], Some(1))
            }
        };
        let prod = self.array_op(ComputeFn::Binary(BinFn::Mul), vec![x, y], &Ty::Array(d, shape))?;
        self.reduction(false, ReduceKind::Sum, prod, axis.as_ref().map(std::slice::from_ref), ty, e)
    }

    /// `v` (of checked shape `shape`) in dtype `dt`: itself when it has that dtype, else a
    /// converted copy (`arr.copy` converts).
    fn converted(&mut self, v: ValueId, dt: DType, shape: &[Size]) -> LResult<ValueId> {
        if self.f.ty(v).dtype() == dt {
            return Ok(v);
        }
        self.array_op(ComputeFn::Copy, vec![v], &Ty::Array(dt, shape.to_vec()))
    }

    /// `isnan(x)`, `isinf(x)`, `isfinite(x)` (NumPy's): for a float `x`, `x != x`, `abs(x) == inf`
    /// and `abs(x) < inf`, elementwise (fused like any comparison); for an integer or bool `x`, the
    /// constant `false`, `false`, `true` of `x`'s shape. `ty`: the (bool) result type.
    fn float_test(&mut self, b: Builtin, x: ValueId, arg: &Expr, ty: &Ty, e: &Expr) -> LResult<ValueId> {
        let xt = self.ty_of(arg).clone();
        let dt = xt.dtype().expect("checked: a value with a dtype");
        if !dt.is_float() {
            let c = self.constant(Scalar::Bool(b == Builtin::IsFinite));
            if !ty.is_array() {
                return Ok(c);
            }
            let rank = match self.f.ty(x) {
                Type::Array(_, r) => r,
                Type::Scalar(_) => 0,
            };
            let sizes = (0..rank).map(|d| self.dim(x, d)).collect();
            return Ok(self.compute_new(ComputeFn::Fill, vec![c], DType::Bool, sizes, ty.shape()));
        }
        let inf = self.constant(if dt == DType::F32 { Scalar::F32(f32::INFINITY) } else { Scalar::F64(f64::INFINITY) });
        let (cmp, a, b) = match b {
            Builtin::IsNan => (BinFn::Ne, x, x),
            Builtin::IsInf => (BinFn::Eq, self.elementwise(ComputeFn::Unary(UnFn::Abs), vec![x], &xt, e)?, inf),
            _ => (BinFn::Lt, self.elementwise(ComputeFn::Unary(UnFn::Abs), vec![x], &xt, e)?, inf),
        };
        if ty.is_array() {
            self.array_op(ComputeFn::Binary(cmp), vec![a, b], ty)
        } else {
            // A comparison in the operand's dtype (`elementwise` would compute in the result's).
            Ok(self.scalar_binary(cmp, a, b, dt))
        }
    }

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
    fn broadcast_sizes(&mut self, ins: &[ValueId], shape: &[Size]) -> Vec<ValueId> {
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
    fn is_dim_of(&self, s: ValueId, v: ValueId, axis: usize) -> bool {
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

    /// Lowers `value` directly into `dest` when it is an elementwise operation with dest's dtype
    /// and no rank above dest's, and no input overlaps dest except as the identical view (Fig. 3's
    /// `MAX D[1:], T, E[1:]`). Each input is broadcast to dest's shape: elementwise operations commute
    /// with broadcasting, so this equals NumPy's "compute, then broadcast into the view", and the
    /// run-time broadcast check rejects exactly what NumPy rejects. Returns false (emitting nothing)
    /// when the fast path does not apply.
    pub(crate) fn try_compute_into(&mut self, dest: ValueId, value: &Expr) -> LResult<bool> {
        let Ty::Array(dt, shape) = self.ty_of(value).clone() else { return Ok(false) };
        let Type::Array(ddt, drank) = self.f.ty(dest) else { return Ok(false) };
        if dt != ddt || shape.len() > drank {
            return Ok(false);
        }
        let (func, operands): (ComputeFn, Vec<&Expr>) = match &value.kind {
            ExprKind::Binary(op, a, b) => (ComputeFn::Binary(bin_fn(*op)), vec![a, b]),
            ExprKind::Call { args, kwargs, .. } if kwargs.is_empty() => {
                match self.checked.callee(value.id).and_then(|c| match c {
                    Callee::Builtin(b) => elementwise_fn(b),
                    Callee::User(_) => None,
                }) {
                    Some(f) => (f, args.iter().collect()),
                    None => return Ok(false),
                }
            }
            _ => return Ok(false),
        };
        let mut ins = vec![];
        for o in operands {
            let v = self.expr(o)?;
            ins.push(if self.f.ty(v).is_array() {
                let v = self.unaliased(v, dest);
                self.broadcast_to(v, dest)
            } else {
                v
            });
        }
        self.emit(OpKind::Compute { func, out: dest, ins });
        Ok(true)
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

    pub(crate) fn kwarg<'e>(kwargs: &'e [(ast::Ident, Expr)], name: &str) -> Option<&'e Expr> {
        kwargs.iter().find(|(k, _)| k.name == name).map(|(_, e)| e)
    }

    /// A call, as the checker resolved it ([`arrayc_grammar::Checked::callee`]).
    fn call(
        &mut self,
        func: &ast::Ident,
        args: &[Expr],
        kwargs: &[(ast::Ident, Expr)],
        ty: &Ty,
        e: &Expr,
    ) -> LResult<Vec<ValueId>> {
        match self.checked.callee(e.id) {
            Some(Callee::Builtin(b)) => self.builtin_call(b, args, kwargs, ty, e),
            Some(Callee::User(fi)) => {
                let mut vals = vec![];
                for a in args {
                    vals.push(self.expr(a)?);
                }
                self.user_call(fi, vals, ty, e)
            }
            None => Err(self.error("E0912", &e.span, &format!("unknown function `{}`", func.name), "")),
        }
    }

    /// A call of builtin `b`: its `arr` operations (the checker checked its arguments).
    fn builtin_call(
        &mut self,
        b: Builtin,
        args: &[Expr],
        kwargs: &[(ast::Ident, Expr)],
        ty: &Ty,
        e: &Expr,
    ) -> LResult<Vec<ValueId>> {
        use Builtin as B;
        if let Some(keep) = Self::kwarg(kwargs, "keepdims").filter(|_| b.takes_keepdims()) {
            let rest: Vec<(ast::Ident, Expr)> = kwargs.iter().filter(|(k, _)| k.name != "keepdims").cloned().collect();
            if arrayc_grammar::builtin::bool_literal(keep) != Some(true) {
                return self.builtin_call(b, args, &rest, ty, e);
            }
            return Ok(vec![self.keep_dims(b, args, &rest, ty, e)?]);
        }
        if let (B::AddAt, Some(ExprKind::Tuple(items))) = (b, args.get(1).map(|a| &a.kind)) {
            // `add_at(x, (i, j), v)`: one index array per leading axis, broadcast together (as checked).
            let x = self.expr(&args[0])?;
            let mut indices = vec![];
            for item in items {
                indices.push(self.expr(item)?);
            }
            let v = self.expr(&args[2])?;
            let Ty::Array(_, b) = self.ty_of(&args[1]).clone() else { unreachable!("checked: index arrays") };
            self.scatter(x, &indices, Some(&b), v, ScatterKind::Add, ScatterMode::Raise);
            return Ok(vec![]);
        }
        if let Some(vs) = self.shape_op(b, args, kwargs, ty)? {
            return Ok(vs);
        }
        if b == B::Nonzero {
            return self.nonzero(&args[0], ty);
        }
        if let Some(v) = self.numpy_func(b, args, kwargs, ty, e)? {
            return Ok(vec![v]);
        }
        match b {
            B::Array | B::AsArray => return Ok(vec![self.array_call(&args[0], b == B::Array, ty)?]),
            B::Reshape | B::Ravel | B::Flatten => return Ok(vec![self.reshape_call(b, args, ty)?]),
            _ => {}
        }
        let mut vals = vec![];
        for a in args {
            match &a.kind {
                // NumPy's sizes as one tuple, `zeros((2, 3))` (the checker's `dims`): its items.
                ExprKind::Tuple(items) => {
                    for i in items {
                        vals.push(self.expr(i)?);
                    }
                }
                _ => vals.push(self.expr(a)?),
            }
        }
        let v = match b {
            B::Flip
            | B::ExpandDims
            | B::Squeeze
            | B::Concatenate
            | B::Stack
            | B::Vstack
            | B::Hstack
            | B::Dstack
            | B::ColumnStack
            | B::Cross
            | B::Append
            | B::Roll
            | B::Meshgrid
            | B::Tile
            | B::Repeat
            | B::Pad => unreachable!("lowered by `shape_op`"),
            B::Diff
            | B::Outer
            | B::Eye
            | B::Tril
            | B::Triu
            | B::NanToNum
            | B::Identity
            | B::Swapaxes
            | B::Moveaxis
            | B::Trace
            | B::NanSum
            | B::NanMax
            | B::NanMin
            | B::NanMean
            | B::Median
            | B::Norm
            | B::Isclose
            | B::Allclose
            | B::Ptp
            | B::Average
            | B::Flatnonzero
            | B::Argwhere
            | B::Unique
            | B::Searchsorted
            | B::Percentile
            | B::Quantile => unreachable!("lowered by `numpy_func`"),
            B::Nonzero => unreachable!("lowered by `nonzero`"),
            B::Array | B::AsArray | B::Reshape | B::Ravel | B::Flatten => unreachable!("lowered above"),
            B::Zeros | B::Ones | B::Empty | B::Full | B::Random => self.creation(b, &vals, kwargs, ty)?,
            B::ZerosLike | B::OnesLike | B::EmptyLike | B::FullLike => self.creation(b, &vals, kwargs, ty)?,
            B::Arange => self.arange(&vals, ty),
            B::Normal | B::Integers => self.random_draws(b, &vals, kwargs, ty)?,
            B::Convolve => self.convolve(&vals, kwargs, ty)?,
            B::Sort | B::Argsort => {
                let axis = self.axis_kwarg(kwargs, vals[0])?;
                self.sort(vals[0], axis, b == B::Argsort, ty)
            }
            B::Linspace => {
                let endpoint = !matches!(Self::kwarg(kwargs, "endpoint").map(|e| &e.kind), Some(ExprKind::Bool(false)));
                self.linspace(&vals, endpoint)
            }
            B::Copy => self.fresh_copy(vals[0]),
            B::Transpose => {
                let src = vals[0];
                let Type::Array(_, rank) = self.f.ty(src) else { unreachable!("checked: an array") };
                self.transpose(src, (0..rank).rev().collect())
            }
            B::Diagonal => self.diagonal(vals[0]),
            B::Abs
            | B::Sqrt
            | B::Exp
            | B::Log
            | B::Sin
            | B::Cos
            | B::Tanh
            | B::Minimum
            | B::Maximum
            | B::Where
            | B::Arctan2
            | B::Copysign
            | B::Tan
            | B::Arcsin
            | B::Arccos
            | B::Arctan
            | B::Sinh
            | B::Cosh
            | B::Arcsinh
            | B::Arccosh
            | B::Arctanh
            | B::Exp2
            | B::Expm1
            | B::Log2
            | B::Log10
            | B::Log1p
            | B::Floor
            | B::Ceil
            | B::Trunc
            | B::Rint => {
                let Some(f) = elementwise_fn(b) else { return Err(self.not_lowered(b, e)) };
                self.elementwise(f, vals, ty, e)?
            }
            B::IsNan | B::IsInf | B::IsFinite => self.float_test(b, vals[0], &args[0], ty, e)?,
            B::F64 | B::F32 | B::I64 | B::I32 | B::U64 | B::U8 | B::Bool | B::Float | B::Int => {
                let Some(d) = b.conversion_dtype() else { return Err(self.not_lowered(b, e)) };
                match self.f.ty(vals[0]) {
                    _ if ty.is_array() => self.array_op(ComputeFn::Copy, vals, ty)?,
                    // `bool(s)` of a number: `s != 0` (Python's truth, NaN true).
                    Type::Scalar(src)
                        if d == DType::Bool && src != DType::Bool && !self.consts.contains_key(&vals[0]) =>
                    {
                        let zero = self.constant(Scalar::I64(0).cast(src));
                        self.scalar_binary(BinFn::Ne, vals[0], zero, src)
                    }
                    _ => self.cast_scalar(vals[0], d),
                }
            }
            B::Dot => self.dot(vals[0], vals[1], args, ty, e)?,
            B::Len | B::Ndim | B::Size => self.shape_query(b, vals[0], kwargs)?,
            B::Take => {
                let axis = self.axis_kwarg(kwargs, vals[0])?.unwrap_or(0);
                let (Ty::Array(dt, shape), Type::Array(_, q)) = (ty, self.f.ty(vals[1])) else {
                    unreachable!("checked: a gather through an index array")
                };
                self.gather(vals[0], &vals[1..2], axis, *dt, &shape[axis..axis + q], Some(shape))
            }
            B::Compress => self.filter(vals[1], vals[0], ty.shape()),
            B::Bincount => {
                let minlength = match Self::kwarg(kwargs, "minlength") {
                    Some(m) => self.expr(m)?,
                    None => self.i64_const(0),
                };
                self.bincount(vals[0], vals.get(1).copied(), minlength, ty.shape())
            }
            B::AddAt => {
                self.scatter(vals[0], &vals[1..2], None, vals[2], ScatterKind::Add, ScatterMode::Raise);
                return Ok(vec![]);
            }
            B::CumSum | B::CumProd => {
                let Type::Array(_, r) = self.f.ty(vals[0]) else { unreachable!("checked: an array") };
                let axis = self.axis_kwarg(kwargs, vals[0])?.unwrap_or(0);
                let kind = if b == B::CumSum { ReduceKind::Sum } else { ReduceKind::Prod };
                let Ty::Array(dt, shape) = ty else { unreachable!("checked: a scan gives an array") };
                let sizes = (0..r).map(|a| self.dim(vals[0], a)).collect();
                self.compute_new(ComputeFn::Scan(kind, axis), vec![vals[0]], *dt, sizes, Some(shape))
            }
            B::ArgMin | B::ArgMax => {
                let axis = self.axis_kwarg(kwargs, vals[0])?;
                let kind = if b == B::ArgMin { ReduceKind::Min } else { ReduceKind::Max };
                self.arg_reduction(kind, vals[0], axis, ty, e)?
            }
            B::Sign
            | B::Square
            | B::Reciprocal
            | B::Round
            | B::LogicalNot
            | B::Hypot
            | B::Fmod
            | B::Power
            | B::LogicalAnd
            | B::LogicalOr
            | B::LogicalXor
            | B::Fmax
            | B::Fmin
            | B::Clip => {
                let decimals = Self::kwarg(kwargs, "decimals").or(args.get(1).filter(|_| b == B::Round));
                let decimals = decimals.map(|d| self.const_int(d)).transpose()?;
                let n = if b == B::Round { 1 } else { vals.len() };
                self.composed_ufunc(b, &vals[..n], &args[..n], decimals, ty, e)?
            }
            B::Any | B::All | B::CountNonzero => {
                let axes = self.axes_kwarg(kwargs, vals[0])?;
                self.nonzero_reduction(b, vals[0], &args[0], axes.as_deref(), ty, e)?
            }
            B::Var | B::Std => {
                let axes = self.axes_kwarg(kwargs, vals[0])?;
                let ddof = match Self::kwarg(kwargs, "ddof") {
                    Some(d) => Some(self.expr(d)?),
                    None => None,
                };
                self.moment(b, vals[0], &args[0], axes.as_deref(), ddof, ty, e)?
            }
            B::Sum | B::Prod | B::Min | B::Max | B::Mean => {
                let Some(kind) = reduce_kind(b) else { return Err(self.not_lowered(b, e)) };
                let axes = self.axes_kwarg(kwargs, vals[0])?;
                self.reduction(b == B::Mean, kind, vals[0], axes.as_deref(), ty, e)?
            }
        };
        Ok(vec![v])
    }

    /// NumPy's `keepdims=true` of reduction `b` (of type `ty`, the reduced axes of size 1): the
    /// reduction (`kwargs` without `keepdims=`), then a view with a new axis at each reduced
    /// position; a reduction of every axis (a scalar) fills a new array of shape `(1, .., 1)`.
    fn keep_dims(
        &mut self,
        b: Builtin,
        args: &[Expr],
        kwargs: &[(ast::Ident, Expr)],
        ty: &Ty,
        e: &Expr,
    ) -> LResult<ValueId> {
        use IndexEntry::{Full, NewAxis};
        let (Ty::Array(d, shape), Ty::Array(..)) = (ty, self.ty_of(&args[0])) else {
            return Ok(self.builtin_call(b, args, kwargs, ty, e)?[0]);
        };
        let r = shape.len();
        let reduced = self.axes_of_rank(kwargs, r)?.unwrap_or_else(|| (0..r).collect());
        let kept: Vec<Size> = (0..r).filter(|k| !reduced.contains(k)).map(|k| shape[k].clone()).collect();
        let inner_ty = if kept.is_empty() { Ty::Scalar(*d) } else { Ty::Array(*d, kept) };
        let v = self.builtin_call(b, args, kwargs, &inner_ty, e)?[0];
        if let Type::Array(..) = self.f.ty(v) {
            let entries = (0..r).map(|k| if reduced.contains(&k) { NewAxis } else { Full }).collect();
            return Ok(self.expand(v, entries));
        }
        let ones = (0..r).map(|_| self.i64_const(1)).collect();
        let out = self.new_array(*d, ones);
        self.emit(OpKind::Compute { func: ComputeFn::Fill, out, ins: vec![v] });
        Ok(out)
    }

    /// The error for a builtin that the lowering's tables do not map as its family requires: a
    /// bug in this file.
    fn not_lowered(&self, b: Builtin, e: &Expr) -> Box<arrayc_grammar::Diagnostic> {
        let msg = format!("internal error: the lowering does not map the builtin `{}`; please report it", b.name());
        self.error("E0912", &e.span, &msg, "")
    }

    /// `zeros`, `ones`, `empty`, `full`, `random`: a new array of the sizes `vals` (and `full`'s
    /// value after them), filled.
    fn creation(&mut self, b: Builtin, vals: &[ValueId], kwargs: &[(ast::Ident, Expr)], ty: &Ty) -> LResult<ValueId> {
        let Ty::Array(dt, shape) = ty else { unreachable!() };
        let ndims = shape.len();
        let like = matches!(b, Builtin::ZerosLike | Builtin::OnesLike | Builtin::EmptyLike | Builtin::FullLike);
        let sizes: Vec<ValueId> = match like {
            true => (0..ndims).map(|d| self.dim(vals[0], d)).collect(),
            false => vals[..ndims].iter().map(|v| self.cast_scalar(*v, DType::I64)).collect(),
        };
        let out = self.new_array(*dt, sizes);
        let fill = match b {
            Builtin::Zeros | Builtin::ZerosLike => Some(self.constant(Scalar::I64(0).cast(*dt))),
            Builtin::Ones | Builtin::OnesLike => Some(self.constant(Scalar::I64(1).cast(*dt))),
            Builtin::Full => Some(vals[ndims]),
            Builtin::FullLike => Some(self.cast_scalar(vals[1], *dt)),
            _ => None,
        };
        if let Some(f) = fill {
            self.emit(OpKind::Compute { func: ComputeFn::Fill, out, ins: vec![f] });
        }
        if b == Builtin::Random {
            let seed = match Self::kwarg(kwargs, "seed") {
                Some(s) => self.expr(s)?,
                None => self.i64_const(0),
            };
            let seed = self.cast_scalar(seed, DType::I64);
            self.emit(OpKind::Compute { func: ComputeFn::Random, out, ins: vec![seed] });
        }
        Ok(out)
    }

    /// An elementwise builtin (`f`: `abs`, ..., `minimum`, `maximum`, `where`): an array operation
    /// when its result is an array, else host arithmetic.
    pub(crate) fn elementwise(&mut self, f: ComputeFn, vals: Vec<ValueId>, ty: &Ty, e: &Expr) -> LResult<ValueId> {
        if ty.is_array() {
            return self.array_op(f, vals, ty);
        }
        let dt = ty.dtype().unwrap();
        Ok(match f {
            ComputeFn::Where => {
                let (a, b) = (self.cast_scalar(vals[1], dt), self.cast_scalar(vals[2], dt));
                let c = self.cast_scalar(vals[0], DType::Bool);
                let r = self.value(Type::Scalar(dt), None);
                self.emit(OpKind::Select { res: r, cond: c, lhs: a, rhs: b });
                r
            }
            ComputeFn::Binary(b) => self.scalar_bin_promoted(b, vals[0], vals[1], dt),
            ComputeFn::Unary(u) => {
                let x = self.cast_scalar(vals[0], dt);
                self.scalar_unary(u, x)
            }
            other => {
                let msg = format!("internal error: `{}` is not elementwise; please report it", other.name());
                return Err(self.error("E0912", &e.span, &msg, ""));
            }
        })
    }

    /// The `axis=` keyword of a call on array `x` that takes one axis, negative counting from the
    /// end (the checker checked the range); `None` without one.
    pub(crate) fn axis_kwarg(&self, kwargs: &[(ast::Ident, Expr)], x: ValueId) -> LResult<Option<usize>> {
        Ok(self.axes_kwarg(kwargs, x)?.and_then(|axes| axes.first().copied()))
    }

    /// The `axis=` keyword of a reduction of array `x`: one axis or a tuple of them (as the
    /// checker checked: in range, distinct), each negative one counting from the end; `None`
    /// without one.
    pub(crate) fn axes_kwarg(&self, kwargs: &[(ast::Ident, Expr)], x: ValueId) -> LResult<Option<Vec<usize>>> {
        let rank = match self.f.ty(x) {
            Type::Array(_, r) => r,
            Type::Scalar(_) => 0,
        };
        self.axes_of_rank(kwargs, rank)
    }

    /// [`axes_kwarg`](Self::axes_kwarg) of an array of rank `rank`.
    fn axes_of_rank(&self, kwargs: &[(ast::Ident, Expr)], rank: usize) -> LResult<Option<Vec<usize>>> {
        let Some(a) = Self::kwarg(kwargs, "axis") else { return Ok(None) };
        let items: Vec<&Expr> = match &a.kind {
            ExprKind::Tuple(items) => items.iter().collect(),
            _ => vec![a],
        };
        let rank = rank as i64;
        let mut axes = vec![];
        for item in items {
            let k = self.const_int(item)?;
            axes.push(if k < 0 { k + rank } else { k } as usize);
        }
        Ok(Some(axes))
    }

    /// `len(x)` (the size of axis 0), `ndim(x)` (the rank), `size(x)` (the product of the sizes; 1
    /// for a scalar) or `size(x, axis=k)`: an `i64` scalar, read from `x`'s sizes at run time
    /// (constants where the sizes are).
    fn shape_query(&mut self, b: Builtin, x: ValueId, kwargs: &[(ast::Ident, Expr)]) -> LResult<ValueId> {
        let rank = match self.f.ty(x) {
            Type::Array(_, r) => r,
            Type::Scalar(_) => 0,
        };
        Ok(match (b, self.axis_kwarg(kwargs, x)?) {
            (Builtin::Ndim, _) => self.i64_const(rank as i64),
            (Builtin::Size, Some(axis)) => self.dim(x, axis),
            (Builtin::Size, None) => {
                let mut n = self.i64_const(1);
                for axis in 0..rank {
                    let d = self.dim(x, axis);
                    n = self.scalar_binary(BinFn::Mul, n, d, DType::I64);
                }
                n
            }
            _ => self.dim(x, 0),
        })
    }

    fn const_int(&self, e: &Expr) -> LResult<i64> {
        match &e.kind {
            ExprKind::Int(i) => Ok(*i),
            ExprKind::Unary(ast::UnOp::Neg, inner) => Ok(-self.const_int(inner)?),
            _ => Err(self.error("E0910", &e.span, "`axis` must be an integer literal", "")),
        }
    }

    /// The reduction `kind` of `x`, along `axes` (distinct) or of every element (`None`), of
    /// checked type `ty`; with `mean`, divided by the number of elements each result reduces.
    /// Several axes are reduced one after the other, the highest first (so that each of the others
    /// keeps its index): one `arr` reduction each.
    pub(crate) fn reduction(
        &mut self,
        mean: bool,
        kind: ReduceKind,
        x: ValueId,
        axes: Option<&[usize]>,
        ty: &Ty,
        e: &Expr,
    ) -> LResult<ValueId> {
        if !self.f.ty(x).is_array() {
            return Err(self.error("E0911", &e.span, "reduction of a scalar", "reductions take an array"));
        }
        let dt = ty.dtype().unwrap();
        if matches!(kind, ReduceKind::Min | ReduceKind::Max) {
            // NumPy raises when `min`/`max` (no identity) reduce an empty axis or array.
            let n = self.reduced_count(x, axes);
            let zero = self.i64_const(0);
            let nonempty = self.scalar_binary(BinFn::Gt, n, zero, DType::I64);
            let op = if kind == ReduceKind::Min { "minimum" } else { "maximum" };
            self.emit(OpKind::Assert {
                cond: nonempty,
                msg: format!("zero-size array to reduction operation {op} which has no identity"),
            });
        }
        let steps: Vec<Option<usize>> = match axes {
            None => vec![None],
            Some(axes) => {
                let mut axes = axes.to_vec();
                axes.sort_unstable_by(|a, b| b.cmp(a));
                axes.into_iter().map(Some).collect()
            }
        };
        let mut out = x;
        for step in steps {
            let Type::Array(_, rank) = self.f.ty(out) else { unreachable!("a reduction along an axis is an array") };
            if let Some((src, perm, a)) = step.and_then(|a| self.transposed_last_axis(out, a)) {
                // Along the last axis of a transpose (`sum(x.T, axis=1)`): the same elements of
                // `src` along its axis `perm[a]`, whose kernel walks `src`'s rows contiguously
                // (a row-major `src`'s last axis is not reduced), then the other axes permuted as
                // the transpose had them (a view; none for rank 2).
                let b = perm[a];
                let sizes: Vec<ValueId> = (0..rank).filter(|&d| d != b).map(|d| self.dim(src, d)).collect();
                let red = self.new_array(dt, sizes);
                self.emit(OpKind::Compute { func: ComputeFn::Reduce(kind, Some(b)), out: red, ins: vec![src] });
                let rest: Vec<usize> = perm.iter().filter(|&&p| p != b).map(|&p| p - usize::from(p > b)).collect();
                out = if rest.iter().enumerate().all(|(i, &p)| i == p) { red } else { self.transpose(red, rest) };
                continue;
            }
            let sizes: Vec<ValueId> = match step {
                Some(a) => (0..rank).filter(|&d| d != a).map(|d| self.dim(out, d)).collect(),
                None => vec![],
            };
            let next = self.new_array(dt, sizes);
            self.emit(OpKind::Compute { func: ComputeFn::Reduce(kind, step), out: next, ins: vec![out] });
            out = next;
        }
        let count = if mean {
            let n = self.reduced_count(x, axes);
            Some(self.cast_scalar(n, dt))
        } else {
            None
        };
        if ty.is_array() {
            if let Some(n) = count {
                self.emit(OpKind::Compute { func: ComputeFn::Binary(BinFn::Div), out, ins: vec![out, n] });
            }
            return Ok(out);
        }
        let s = self.load_element(out);
        Ok(match count {
            Some(n) => self.scalar_binary(BinFn::Div, s, n, dt),
            None => s,
        })
    }

    /// `(src, perm, a)` when `v` is `arr.transpose(src, perm)` of the current body and `a` is its
    /// last axis but not `src`'s (the reduction that [`reduction`](Self::reduction) turns into one
    /// along `src`'s axis `perm[a]`); else `None`.
    fn transposed_last_axis(&self, v: ValueId, a: usize) -> Option<(ValueId, Vec<usize>, usize)> {
        self.bodies.last()?.iter().rev().find_map(|op| match &op.kind {
            OpKind::Transpose { res, src, perm } if *res == v && a + 1 == perm.len() && perm[a] != a => {
                Some((*src, perm.clone(), a))
            }
            _ => None,
        })
    }

    /// The number of elements of array `x` that each result of a reduction along `axes` (of every
    /// element: `None`) reduces, an `i64` on the host.
    fn reduced_count(&mut self, x: ValueId, axes: Option<&[usize]>) -> ValueId {
        let rank = match self.f.ty(x) {
            Type::Array(_, r) => r,
            Type::Scalar(_) => 0,
        };
        let all: Vec<usize> = (0..rank).collect();
        let axes = axes.unwrap_or(&all);
        if let [a] = axes {
            return self.dim(x, *a);
        }
        let mut n = self.i64_const(1);
        for &d in axes {
            let s = self.dim(x, d);
            n = self.scalar_binary(BinFn::Mul, n, s, DType::I64);
        }
        n
    }

    /// `any(x)`, `all(x)`, `count_nonzero(x)` (NumPy's), of every element or along `axes`: the
    /// number of elements with `x != 0` (for `all`, `x == 0`), a sum of bools, then compared with 0
    /// for `any` (`> 0`) and `all` (`== 0`). NaN is nonzero. `arg`: `x`'s expression; `ty`: the
    /// checked result type.
    fn nonzero_reduction(
        &mut self,
        b: Builtin,
        x: ValueId,
        arg: &Expr,
        axes: Option<&[usize]>,
        ty: &Ty,
        e: &Expr,
    ) -> LResult<ValueId> {
        let xd = self.f.ty(x).dtype();
        let zero = self.constant(Scalar::I64(0).cast(xd));
        let cmp = if b == Builtin::All { BinFn::Eq } else { BinFn::Ne };
        let xty = retyped(self.ty_of(arg), DType::Bool);
        let m = self.binary(cmp, x, zero, &xty)?;
        let count = self.reduction(false, ReduceKind::Sum, m, axes, &retyped(ty, DType::I64), e)?;
        let zero = self.i64_const(0);
        match b {
            Builtin::Any => self.binary(BinFn::Gt, count, zero, ty),
            Builtin::All => self.binary(BinFn::Eq, count, zero, ty),
            _ => Ok(count),
        }
    }

    /// `var(x)` and `std(x)` (NumPy's, `ddof` 0 unless given), of every element or along `axes`:
    /// NumPy's two passes, `m = mean(x)` (along `axes`, then viewed with size-1 axes in their place
    /// to broadcast against `x`), `sum((x - m) * (x - m)) / max(n - ddof, 0)`, and for `std` its
    /// square root. Computed in the result's float dtype (`x` converted first).
    #[allow(clippy::too_many_arguments)]
    fn moment(
        &mut self,
        b: Builtin,
        x: ValueId,
        arg: &Expr,
        axes: Option<&[usize]>,
        ddof: Option<ValueId>,
        ty: &Ty,
        e: &Expr,
    ) -> LResult<ValueId> {
        let Type::Array(xd, rank) = self.f.ty(x) else {
            return Err(self.error("E0911", &e.span, "reduction of a scalar", "reductions take an array"));
        };
        let dt = ty.dtype().expect("checked: a float");
        let xty = retyped(self.ty_of(arg), dt);
        let xf = if xd == dt { x } else { self.array_op(ComputeFn::Copy, vec![x], &xty)? };
        let m = self.reduction(true, ReduceKind::Sum, xf, axes, ty, e)?;
        let m = match axes {
            Some(axes) if ty.is_array() => {
                let entry = |d| if axes.contains(&d) { IndexEntry::NewAxis } else { IndexEntry::Full };
                self.expand(m, (0..rank).map(entry).collect())
            }
            _ => m,
        };
        let d = self.binary(BinFn::Sub, xf, m, &xty)?;
        let sq = self.array_op(ComputeFn::Binary(BinFn::Mul), vec![d, d], &xty)?;
        let s = self.reduction(false, ReduceKind::Sum, sq, axes, ty, e)?;
        let mut n = self.reduced_count(x, axes);
        if let Some(k) = ddof {
            let k = self.cast_scalar(k, DType::I64);
            n = self.scalar_binary(BinFn::Sub, n, k, DType::I64);
            let zero = self.i64_const(0);
            n = self.scalar_binary(BinFn::Maximum, n, zero, DType::I64);
        }
        let n = self.cast_scalar(n, dt);
        let var = self.binary(BinFn::Div, s, n, ty)?;
        if b == Builtin::Std {
            return self.elementwise(ComputeFn::Unary(UnFn::Sqrt), vec![var], ty, e);
        }
        Ok(var)
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

    /// NumPy's elementwise ufuncs that are compositions of the op table's functions, not
    /// functions of their own (fused like any elementwise operation; on the host, scalar
    /// arithmetic): `power` (`**`), `square` (`x * x`), `reciprocal` (`1 / x`), `round` (`rint`),
    /// `sign` (selections), `logical_*` (comparisons with 0, then `&`, `|`, `!=`, or `x == 0`),
    /// `clip` (`minimum(maximum(x, lo), hi)`), `fmod` and `hypot` (see below). `vals`: the
    /// arguments' values, `args` their expressions, `decimals` `round`'s `decimals=`, `ty` the
    /// checked result type.
    fn composed_ufunc(
        &mut self,
        b: Builtin,
        vals: &[ValueId],
        args: &[Expr],
        decimals: Option<i64>,
        ty: &Ty,
        e: &Expr,
    ) -> LResult<ValueId> {
        use Builtin as B;
        let dt = ty.dtype().expect("checked: a value");
        let bty = retyped(ty, DType::Bool);
        let zero_of = |l: &mut Self, v: ValueId| {
            let d = l.f.ty(v).dtype();
            l.constant(Scalar::I64(0).cast(d))
        };
        Ok(match b {
            B::Power => self.binary(BinFn::Pow, vals[0], vals[1], ty)?,
            B::Square => self.binary(BinFn::Mul, vals[0], vals[0], ty)?,
            B::Reciprocal => {
                let one = self.constant(Scalar::F64(1.0).cast(dt));
                self.binary(BinFn::Div, one, vals[0], ty)?
            }
            B::Round if !dt.is_float() => vals[0],
            B::Round => match decimals.filter(|&d| d != 0) {
                None => self.elementwise(ComputeFn::Unary(UnFn::Rint), vals.to_vec(), ty, e)?,
                Some(d) => {
                    // NumPy's `round`: scale by its `power_of_ten`, `rint`, scale back.
                    let f = self.constant(Scalar::F64(numpy_power_of_ten(d.unsigned_abs())).cast(dt));
                    let (there, back) = if d > 0 { (BinFn::Mul, BinFn::Div) } else { (BinFn::Div, BinFn::Mul) };
                    let y = self.array_or_scalar(there, vals[0], f, ty)?;
                    let y = self.elementwise(ComputeFn::Unary(UnFn::Rint), vec![y], ty, e)?;
                    self.array_or_scalar(back, y, f, ty)?
                }
            },
            B::Sign => {
                // NumPy: 1 above 0, -1 below, else 0 (`sign(-0.0)` is `+0.0`), NaN stays NaN.
                let x = vals[0];
                let [zero, one, minus_one] = [0.0, 1.0, -1.0].map(|c| self.constant(Scalar::F64(c).cast(dt)));
                let pos = self.binary(BinFn::Gt, x, zero, &bty)?;
                let neg = self.binary(BinFn::Lt, x, zero, &bty)?;
                let r = self.elementwise(ComputeFn::Where, vec![neg, minus_one, zero], ty, e)?;
                let r = self.elementwise(ComputeFn::Where, vec![pos, one, r], ty, e)?;
                if !dt.is_float() {
                    return Ok(r);
                }
                let nan = self.binary(BinFn::Ne, x, x, &bty)?;
                self.elementwise(ComputeFn::Where, vec![nan, x, r], ty, e)?
            }
            B::LogicalNot => {
                let zero = zero_of(self, vals[0]);
                self.binary(BinFn::Eq, vals[0], zero, ty)?
            }
            B::LogicalAnd | B::LogicalOr | B::LogicalXor => {
                let mut truth = vec![];
                for (v, a) in vals.iter().zip(args) {
                    let zero = zero_of(self, *v);
                    let aty = retyped(self.ty_of(a), DType::Bool);
                    truth.push(self.binary(BinFn::Ne, *v, zero, &aty)?);
                }
                let f = match b {
                    B::LogicalAnd => BinFn::And,
                    B::LogicalOr => BinFn::Or,
                    _ => BinFn::Ne,
                };
                self.binary(f, truth[0], truth[1], ty)?
            }
            B::Clip => {
                let v = self.broadcast_operands(vals, ty);
                let m = self.binary(BinFn::Maximum, v[0], v[1], ty)?;
                self.binary(BinFn::Minimum, m, v[2], ty)?
            }
            B::Fmax | B::Fmin => {
                // NumPy's `fmax`/`fmin`: `maximum`/`minimum`, but the other operand where one is
                // NaN (so NaN only where both are).
                let v = self.broadcast_operands(vals, ty);
                let f = if b == B::Fmax { BinFn::Maximum } else { BinFn::Minimum };
                let m = self.binary(f, v[0], v[1], ty)?;
                if !dt.is_float() {
                    m
                } else {
                    let a_nan = self.binary(BinFn::Ne, v[0], v[0], &bty)?;
                    let b_nan = self.binary(BinFn::Ne, v[1], v[1], &bty)?;
                    let r = self.elementwise(ComputeFn::Where, vec![b_nan, v[0], m], ty, e)?;
                    self.elementwise(ComputeFn::Where, vec![a_nan, v[1], r], ty, e)?
                }
            }
            B::Fmod => {
                let v = self.broadcast_operands(vals, ty);
                self.fmod(v[0], v[1], ty, e)?
            }
            B::Hypot => {
                let v = self.broadcast_operands(vals, ty);
                self.hypot(v[0], v[1], ty, e)?
            }
            _ => return Err(self.not_lowered(b, e)),
        })
    }

    /// NumPy's `fmod(a, b)` (C's: the sign of the dividend) from NumPy's remainder `%` (the sign of
    /// the divisor), exactly: for floats `copysign(|a| % |b|, a)` (of non-negative operands the two
    /// agree); for integers `r = a % b`, then `r - b` where `r != 0` and `r`'s sign differs from
    /// `a`'s (where `%` added `b` to C's remainder); `fmod(a, 0)` is `0`, as `%` gives. `a`, `b`
    /// already broadcast to `ty`'s shape.
    fn fmod(&mut self, a: ValueId, b: ValueId, ty: &Ty, e: &Expr) -> LResult<ValueId> {
        let dt = ty.dtype().expect("checked: a value");
        if dt.is_float() {
            let abs = ComputeFn::Unary(UnFn::Abs);
            let (aa, ab) = (self.elementwise(abs, vec![a], ty, e)?, self.elementwise(abs, vec![b], ty, e)?);
            let r = self.binary(BinFn::Rem, aa, ab, ty)?;
            return self.elementwise(ComputeFn::Binary(BinFn::Copysign), vec![r, a], ty, e);
        }
        let bty = retyped(ty, DType::Bool);
        let r = self.binary(BinFn::Rem, a, b, ty)?;
        let zero = self.i64_const(0);
        let nonzero = self.binary(BinFn::Ne, r, zero, &bty)?;
        let r_neg = self.binary(BinFn::Lt, r, zero, &bty)?;
        let a_neg = self.binary(BinFn::Lt, a, zero, &bty)?;
        let differ = self.binary(BinFn::Ne, r_neg, a_neg, &bty)?;
        let fix = self.binary(BinFn::And, nonzero, differ, &bty)?;
        let back = self.binary(BinFn::Sub, r, b, ty)?;
        self.elementwise(ComputeFn::Where, vec![fix, back, r], ty, e)
    }

    /// NumPy's `hypot(a, b)` without overflow or underflow: with `m = max(|a|, |b|)` and
    /// `n = min(|a|, |b|)`, `m * sqrt(1 + (n / m)**2)` (within 2 ulps), `m` where `n == 0`, and
    /// `inf` where either is infinite (NaN or not: C's `hypot`); NaN otherwise propagates through
    /// `maximum`/`minimum`. `a`, `b` already broadcast to `ty`'s shape.
    fn hypot(&mut self, a: ValueId, b: ValueId, ty: &Ty, e: &Expr) -> LResult<ValueId> {
        let dt = ty.dtype().expect("checked: a float");
        let bty = retyped(ty, DType::Bool);
        let abs = ComputeFn::Unary(UnFn::Abs);
        let (aa, ab) = (self.elementwise(abs, vec![a], ty, e)?, self.elementwise(abs, vec![b], ty, e)?);
        let m = self.binary(BinFn::Maximum, aa, ab, ty)?;
        let n = self.binary(BinFn::Minimum, aa, ab, ty)?;
        let q = self.binary(BinFn::Div, n, m, ty)?;
        let qq = self.array_or_scalar(BinFn::Mul, q, q, ty)?;
        let [zero, one, inf] = [0.0, 1.0, f64::INFINITY].map(|c| self.constant(Scalar::F64(c).cast(dt)));
        let s = self.binary(BinFn::Add, qq, one, ty)?;
        let s = self.elementwise(ComputeFn::Unary(UnFn::Sqrt), vec![s], ty, e)?;
        let r = self.array_or_scalar(BinFn::Mul, m, s, ty)?;
        let n_zero = self.binary(BinFn::Eq, n, zero, &bty)?;
        let r = self.elementwise(ComputeFn::Where, vec![n_zero, m, r], ty, e)?;
        let a_inf = self.binary(BinFn::Eq, aa, inf, &bty)?;
        let b_inf = self.binary(BinFn::Eq, ab, inf, &bty)?;
        let either = self.binary(BinFn::Or, a_inf, b_inf, &bty)?;
        self.elementwise(ComputeFn::Where, vec![either, inf, r], ty, e)
    }

    /// `a op b` of checked type `ty` as the operation itself (no rewrite of `**` or `*`).
    fn array_or_scalar(&mut self, op: BinFn, a: ValueId, b: ValueId, ty: &Ty) -> LResult<ValueId> {
        if ty.is_array() {
            self.array_op(ComputeFn::Binary(op), vec![a, b], ty)
        } else {
            Ok(self.scalar_bin_promoted(op, a, b, ty.dtype().expect("checked: a value")))
        }
    }

    /// `argmin(x)` / `argmax(x)` (`kind` Min or Max), along `axis` or over the flattened `x`
    /// (the row-major position), with NumPy's rules: the first occurrence of the extreme value
    /// wins, a NaN is the extreme value (the first NaN wins), and an empty extent is a run-time
    /// error. Composed of existing operations, not an op of its own: `m = min(x, axis)`, then the
    /// smallest position `p` (along `axis`, or row-major) with `x[p] == m` or `x[p]` NaN, as
    /// `min(where(match, p, n), axis)`. The second reduction fuses with the match and the positions
    /// into one kernel, so `x` is read twice.
    fn arg_reduction(
        &mut self,
        kind: ReduceKind,
        x: ValueId,
        axis: Option<usize>,
        ty: &Ty,
        e: &Expr,
    ) -> LResult<ValueId> {
        use IndexEntry::{Full, NewAxis};
        let (Type::Array(d, r), Some(res_dt)) = (self.f.ty(x), ty.dtype()) else {
            unreachable!("the checker types an arg-reduction of an array as i64")
        };
        let sizes: Vec<ValueId> = (0..r).map(|a| self.dim(x, a)).collect();
        // The number of candidates per result: the axis, or every element.
        let mut n = self.i64_const(1);
        for (a, &s) in sizes.iter().enumerate() {
            if axis.is_none_or(|k| k == a) {
                n = self.scalar_binary(BinFn::Mul, n, s, DType::I64);
            }
        }
        let zero = self.i64_const(0);
        let nonempty = self.scalar_binary(BinFn::Gt, n, zero, DType::I64);
        let name = if kind == ReduceKind::Min { "argmin" } else { "argmax" };
        self.emit(OpKind::Assert { cond: nonempty, msg: format!("attempt to get {name} of an empty sequence") });
        // The extreme value, broadcast back over `axis`.
        let red_ty = match ty {
            Ty::Array(_, s) => Ty::Array(d, s.clone()),
            _ => Ty::Scalar(d),
        };
        let m = self.reduction(false, kind, x, axis.as_ref().map(std::slice::from_ref), &red_ty, e)?;
        let m = match (axis, self.f.ty(m)) {
            (Some(a), Type::Array(..)) => {
                let entries = (0..r).map(|k| if k == a { NewAxis } else { Full }).collect();
                self.expand(m, entries)
            }
            _ => m,
        };
        let bool_op = |l: &mut Self, f: BinFn, a: ValueId, b: ValueId| {
            l.compute_new(ComputeFn::Binary(f), vec![a, b], DType::Bool, sizes.clone(), None)
        };
        // `m` is NaN exactly when its extent holds a NaN (min/max propagate NaN), so a NaN element
        // is an extreme one, and no other element is then equal to `m`.
        let mut found = bool_op(self, BinFn::Eq, x, m);
        if d.is_float() {
            let nan = bool_op(self, BinFn::Ne, x, x);
            found = bool_op(self, BinFn::Or, found, nan);
        }
        // Each element's position: along `axis`, or row-major over every axis.
        let mut pos: Option<ValueId> = None;
        let mut stride: Option<ValueId> = None;
        for a in (0..r).rev() {
            if axis.is_some_and(|k| k != a) {
                continue;
            }
            let one = self.i64_const(1);
            let iota = self.compute_new(ComputeFn::Arange, vec![zero, one], DType::I64, vec![sizes[a]], None);
            let along = if r == 1 {
                iota
            } else {
                self.expand(iota, (0..r).map(|k| if k == a { Full } else { NewAxis }).collect())
            };
            let term = match stride {
                Some(s) => {
                    self.compute_new(ComputeFn::Binary(BinFn::Mul), vec![along, s], DType::I64, sizes.clone(), None)
                }
                None => along,
            };
            pos = Some(match pos {
                Some(p) => {
                    self.compute_new(ComputeFn::Binary(BinFn::Add), vec![p, term], DType::I64, sizes.clone(), None)
                }
                None => term,
            });
            stride = Some(match stride {
                Some(s) => self.scalar_binary(BinFn::Mul, s, sizes[a], DType::I64),
                None => sizes[a],
            });
        }
        let pos = pos.expect("an array has an axis");
        let cand = self.compute_new(ComputeFn::Where, vec![found, pos, n], DType::I64, sizes.clone(), None);
        let res_ty = match ty {
            Ty::Array(_, s) => Ty::Array(res_dt, s.clone()),
            _ => Ty::Scalar(res_dt),
        };
        self.reduction(false, ReduceKind::Min, cand, axis.as_ref().map(std::slice::from_ref), &res_ty, e)
    }

    /// `arange`: size `max(0, ceil((stop - start) / step))` computed on the host in f64, like NumPy;
    /// a zero step or a length that is not finite is a run-time error, as NumPy raises.
    fn arange(&mut self, vals: &[ValueId], ty: &Ty) -> ValueId {
        let dt = ty.dtype().unwrap();
        let (start, stop, step) = match vals {
            [stop] => (self.constant(Scalar::I64(0)), *stop, self.constant(Scalar::I64(1))),
            [start, stop] => (*start, *stop, self.constant(Scalar::I64(1))),
            _ => (vals[0], vals[1], vals[2]),
        };
        let f = |l: &mut Self, v| l.cast_scalar(v, DType::F64);
        let (a, b, s) = (f(self, start), f(self, stop), f(self, step));
        // NumPy raises for a zero step and for a length that is not finite (a NaN or infinite bound).
        let zero = self.constant(Scalar::F64(0.0));
        let nonzero = self.scalar_binary(BinFn::Ne, s, zero, DType::F64);
        self.emit(OpKind::Assert { cond: nonzero, msg: "arange: the step must not be zero".into() });
        let span = self.scalar_binary(BinFn::Sub, b, a, DType::F64);
        let q = self.scalar_binary(BinFn::Div, span, s, DType::F64);
        let q_minus_q = self.scalar_binary(BinFn::Sub, q, q, DType::F64);
        let finite = self.scalar_binary(BinFn::Eq, q_minus_q, zero, DType::F64);
        self.emit(OpKind::Assert {
            cond: finite,
            msg: "arange: cannot compute the length: start, stop or step is NaN or infinite".into(),
        });
        let c = self.scalar_unary(UnFn::Ceil, q);
        let c = self.scalar_binary(BinFn::Maximum, c, zero, DType::F64);
        let n = self.cast_scalar(c, DType::I64);
        let out = self.new_array(dt, vec![n]);
        let (start, step) = (self.cast_scalar(start, dt), self.cast_scalar(step, dt));
        self.emit(OpKind::Compute { func: ComputeFn::Arange, out, ins: vec![start, step] });
        out
    }

    /// `linspace(start, stop, num)`: `start + i * step` with `step = (stop - start) / (num - 1)`, and
    /// the last element set to `stop` exactly, as NumPy does; without the endpoint
    /// (`endpoint=false`), `step = (stop - start) / num` and no such last element.
    fn linspace(&mut self, vals: &[ValueId], endpoint: bool) -> ValueId {
        let start = self.cast_scalar(vals[0], DType::F64);
        let stop = self.cast_scalar(vals[1], DType::F64);
        let num = self.cast_scalar(vals[2], DType::I64);
        let one = self.i64_const(1);
        // The number of steps from `start` to `stop`: `num - 1`, or `num` without the endpoint.
        let div = if endpoint { self.scalar_binary(BinFn::Sub, num, one, DType::I64) } else { num };
        let divf = self.cast_scalar(div, DType::F64);
        let span = self.scalar_binary(BinFn::Sub, stop, start, DType::F64);
        let step = self.scalar_binary(BinFn::Div, span, divf, DType::F64);
        // No step (num == 1 with the endpoint, num == 0 without): the step is 0/0 or x/0; NumPy
        // gives [start] (or nothing), so the step must be 0 (0 * inf is NaN).
        let zero_i = self.i64_const(0);
        let several = self.scalar_binary(BinFn::Gt, div, zero_i, DType::I64);
        let zero = self.constant(Scalar::F64(0.0));
        let step_or_zero = self.value(Type::Scalar(DType::F64), None);
        self.emit(OpKind::Select { res: step_or_zero, cond: several, lhs: step, rhs: zero });
        let step = step_or_zero;
        let out = self.new_array(DType::F64, vec![num]);
        self.emit(OpKind::Compute { func: ComputeFn::Arange, out, ins: vec![start, step] });
        if !endpoint {
            return out;
        }
        // out[num-1:] = stop (empty when num == 1 would make it overwrite start; NumPy keeps start then).
        let last = self.value(Type::Array(DType::F64, 1), None);
        let from = self.scalar_binary(BinFn::Maximum, div, one, DType::I64);
        self.emit(OpKind::View {
            res: last,
            src: out,
            index: vec![IndexEntry::Slice { start: true, stop: false, step: false }],
            operands: vec![from],
        });
        self.roots.insert(last, Root::New(out));
        self.emit(OpKind::Compute { func: ComputeFn::Fill, out: last, ins: vec![stop] });
        out
    }

    /// A call of the program's function `fi` with arguments `vals`.
    fn user_call(&mut self, fi: usize, vals: Vec<ValueId>, ty: &Ty, e: &Expr) -> LResult<Vec<ValueId>> {
        let Some(sig) = self.checked.signatures.get(fi) else {
            return Err(self.error(
                "E0912",
                &e.span,
                &format!("internal error: no function {fi}; please report it"),
                "",
            ));
        };
        // The callee's name in the IR: its tree's (an instance's is `lap.r2`, its signature's `lap`).
        let name = self.checked.program.functions.get(fi).map_or_else(|| sig.name.clone(), |f| f.name.name.clone());
        let params: Vec<Ty> = sig.params.iter().map(|(_, t)| t.clone()).collect();
        let args: Vec<ValueId> = vals
            .into_iter()
            .zip(&params)
            .map(|(v, p)| match p {
                Ty::Scalar(d) => self.cast_scalar(v, *d),
                _ => v,
            })
            .collect();
        let result_tys: Vec<Ty> = match ty {
            Ty::Tuple(ts) => ts.clone(),
            Ty::Unit => vec![],
            t => vec![t.clone()],
        };
        let results: Vec<ValueId> = result_tys
            .iter()
            .filter_map(super::ir_type)
            .map(|t| {
                let r = self.value(t, None);
                if t.is_array() {
                    self.roots.insert(r, Root::Outside(r));
                }
                r
            })
            .collect();
        self.emit(OpKind::Call { callee: name, args, results: results.clone() });
        Ok(results)
    }
}

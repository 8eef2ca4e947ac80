//! Expressions: scalar host arithmetic, array operations (one `arr` op each), views, builtins.
//!
//! This file holds the walk over an expression, the scalar host arithmetic (NumPy's floor
//! division and remainder, constant powers), user function calls and computing into a
//! destination; each family is a child module: `arrays` (allocation, sizes, broadcasting,
//! aliasing), `indexing` (views, gathers, scatters, filters), `calls` (the builtin dispatch,
//! creation, `dot`, casts), `reductions` (and arg-reductions, scans, moments), `ufuncs`.

mod arrays;
mod calls;
mod choose;
mod gcd;
mod i0;
mod indexing;
mod ldexp;
mod linspace_arrays;
mod reductions;
mod ufuncs;

use ufuncs::elementwise_fn;

use super::{LResult, Lowerer, Root};
use arrayc_dialect::ir::{BinFn, ComputeFn, OpKind, Scalar, Type, UnFn, ValueId};
use arrayc_grammar::ast::{self, BinOp, DType, Expr, ExprKind, Index};
use arrayc_grammar::builtin::{axis_by_position, python_min_max, python_round, Builtin, Callee, MinMaxCall};
use arrayc_grammar::types::{Size, Ty};

/// The elementwise function of a binary operator.
/// [`bin_fn`] of `op` computed in dtype `dt`: on bools NumPy's `+` is `|` and `*` is `&`
/// (`True + True` is `True`), which the checker types as `bool` (`check::promote::binop_result`).
pub(crate) fn bin_fn_in(op: BinOp, dt: DType) -> BinFn {
    match (op, dt) {
        (BinOp::Add, DType::Bool) => BinFn::Or,
        (BinOp::Mul, DType::Bool) => BinFn::And,
        _ => bin_fn(op),
    }
}

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

/// `ty` with dtype `d`, the same shape.
pub(crate) fn retyped(ty: &Ty, d: DType) -> Ty {
    match ty {
        Ty::Array(_, s) => Ty::Array(d, s.clone()),
        _ => Ty::Scalar(d),
    }
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
        let mut vs = self.expr_values(e)?;
        if let ([v], Ty::Scalar(d)) = (vs.as_mut_slice(), self.ty_of(e)) {
            if self.checked.truthy.contains(&e.id) {
                // Python's truth value of a number (checked: read as a condition).
                let (d, zero) = (*d, self.constant(Scalar::I64(0).cast(*d)));
                *v = self.scalar_binary(BinFn::Ne, *v, zero, d);
            }
        }
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
            ExprKind::NoneLit => return Err(self.error("E0908", &e.span, "`None` is not a value here", "")),
            ExprKind::Tuple(_) => return Err(self.error("E0908", &e.span, "a tuple is not a value here", "")),
            ExprKind::Str(_) | ExprKind::FString(_) => {
                return Err(self.error("E0908", &e.span, "a string is not a value here", ""))
            }
            ExprKind::List(_) => self.list_literal(e, &ty)?,
            ExprKind::IfElse(parts) | ExprKind::BoolOp(_, parts) => self.lower_if_else(parts, &ty)?,
            ExprKind::Binary(_, a, b) if self.checked.list_repeats.contains(&e.id) => {
                let (list, k) = if matches!(a.kind, ExprKind::List(_)) { (a, b) } else { (b, a) };
                let (x, k) = (self.expr(list)?, self.expr(k)?);
                self.list_repetition(x, k, &ty)
            }
            ExprKind::Binary(op, a, b) => {
                let (x, y) = (self.expr(a)?, self.expr(b)?);
                let (x, y) = self.weak_operands(*op, (a, x), (b, y));
                self.binary(bin_fn_in(*op, ty.dtype().unwrap_or(DType::F64)), x, y, &ty)?
            }
            ExprKind::Unary(op, a) => {
                let x = self.expr(a)?;
                if let (ast::UnOp::Neg, Some(c)) = (op, self.consts.get(&x).copied()) {
                    // NumPy's negation (integers wrap); a bool's is an error the checker gave.
                    let folded = match c {
                        Scalar::Bool(_) => None,
                        c => Some(arrayc_core::semantics::scalar_unary(UnFn::Neg, c)),
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
    pub(crate) fn scalar_select(&mut self, cond: ValueId, x: ValueId, y: ValueId, dt: DType) -> ValueId {
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
            ExprKind::Binary(op, a, b) if !self.checked.list_repeats.contains(&value.id) => {
                (ComputeFn::Binary(bin_fn(*op)), vec![a, b])
            }
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
            Some(Callee::Builtin(b)) => {
                let first_is_array = args.first().is_some_and(|a| self.ty_of(a).is_array());
                if b == Builtin::Round && python_round(&func.name, args, kwargs.is_empty(), !first_is_array) {
                    return Ok(vec![self.python_round(&args[0])?]);
                }
                match python_min_max(&func.name, args, first_is_array) {
                    Some(MinMaxCall::Python(b)) => Ok(vec![self.python_min_max(b, args, ty)?]),
                    Some(MinMaxCall::Axis(b)) => {
                        self.builtin_call(b, &args[..1], &axis_by_position(&args[1], kwargs), ty, e)
                    }
                    None => self.builtin_call(b, args, kwargs, ty, e),
                }
            }
            Some(Callee::User(fi)) => {
                // Python's binding of arguments to parameters (the checker reported any other
                // mismatch, E0501/E0502): positional ones in order, keyword ones by name, a
                // parameter left out takes its default (a literal). Arguments are evaluated as
                // written: the positional ones, then the keyword ones.
                let params: Vec<(String, Option<Expr>)> = match self.checked.program.functions.get(fi) {
                    Some(f) => f.params.iter().map(|p| (p.name.name.clone(), p.default.clone())).collect(),
                    None => vec![],
                };
                let mut slots: Vec<Option<ValueId>> = vec![None; params.len().max(args.len())];
                for (k, a) in args.iter().enumerate() {
                    slots[k] = Some(self.expr(a)?);
                }
                for (k, v) in kwargs {
                    let val = self.expr(v)?;
                    if let Some(p) = params.iter().position(|(n, _)| *n == k.name) {
                        slots[p] = Some(val);
                    }
                }
                let mut vals = vec![];
                for (k, slot) in slots.into_iter().enumerate() {
                    match (slot, params.get(k).and_then(|(_, d)| d.as_ref())) {
                        (Some(v), _) => vals.push(v),
                        (None, Some(d)) => vals.push(self.expr(d)?),
                        (None, None) => {
                            return Err(self.error(
                                "E0912",
                                &e.span,
                                &format!("internal error: argument {k} of `{}` missing; please report it", func.name),
                                "",
                            ))
                        }
                    }
                }
                self.user_call(fi, vals, ty, e)
            }
            None => Err(self.error("E0912", &e.span, &format!("unknown function `{}`", func.name), "")),
        }
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

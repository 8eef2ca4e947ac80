//! Expressions: literals, variables, operators, subscripts, user-function calls.

use super::names::suggest;
use super::promote::{binop_operands, binop_result, promote, promote_op, weak_fits, weak_of};
use super::shape::shape_str;
use super::sig::{bind_dim, subst};
use super::Checker;
use crate::ast::{BinOp, BoolOp, DType, Expr, ExprKind, Ident, Span, UnOp};
use crate::builtin::{
    axis_by_position, may_name_a_function, python_min_max, python_round, Builtin, Callee, MinMaxCall, QUALIFIED,
};
use crate::diag::Diagnostic;
use crate::types::{Size, Ty};
use std::collections::HashMap;

impl Checker {
    /// Checks an expression, records and returns its type.
    pub fn expr(&mut self, e: &Expr) -> Ty {
        let truth = std::mem::take(&mut self.truth_context);
        let t = match &e.kind {
            ExprKind::BoolOp(op, parts) => self.bool_op(*op, parts, truth),
            _ => self.expr_inner(e),
        };
        self.set_ty(e.id, t.clone());
        self.record_weak(e, &t);
        t
    }

    /// Checks an expression that must produce a value (scalar or array).
    pub fn value(&mut self, e: &Expr) -> Ty {
        let t = self.expr(e);
        self.require_value_of(t, e)
    }

    /// [`Checker::require_value`] of expression `e`'s type `t`; the results of `nonzero` used as
    /// one value (NumPy's tuple of index arrays) get their own help.
    pub fn require_value_of(&mut self, t: Ty, e: &Expr) -> Ty {
        let nonzero = matches!(e.kind, ExprKind::Call { .. })
            && self.callees.get(e.id.0 as usize) == Some(&Some(Callee::Builtin(Builtin::Nonzero)));
        match t {
            Ty::Tuple(ts) if nonzero => {
                let (one, all) = if ts.len() == 1 {
                    ("`nonzero(x)[0]` or `let (idx,) = nonzero(x);`", String::new())
                } else {
                    (
                        "`nonzero(x)[k]`",
                        format!(" or `let ({}) = nonzero(x);`", ["i", "j", "k", "l"][..ts.len().min(4)].join(", ")),
                    )
                };
                self.err(
                    Diagnostic::error(
                        "E0309",
                        format!(
                            "`nonzero` gives a tuple of {} index array{}, used as one value",
                            ts.len(),
                            if ts.len() == 1 { "" } else { "s" }
                        ),
                        e.span.clone(),
                        "a tuple of index arrays",
                    )
                    .with_note("NumPy's `nonzero` returns one index array per axis; arrayc has no tuple values")
                    .with_help(format!(
                        "take its index arrays as {one}{all}, or use `flatnonzero(x)`, the flat positions as one array"
                    )),
                );
                Ty::Error
            }
            t => self.require_value(t, &e.span),
        }
    }

    /// Item `index` (one integer literal, negative counting from the end) of the results `ts` of
    /// the call `base`: `nonzero(x)[0]`, `meshgrid(x, y)[1]`, `f(a)[-1]`.
    fn tuple_item(&mut self, ts: &[Ty], base: &Expr, index: &[crate::ast::Index], span: &Span) -> Ty {
        let n = ts.len() as i64;
        let k = match index {
            [crate::ast::Index::At(ie)] => {
                self.expr(ie);
                let k = super::builtins::literal_int(ie).filter(|k| (-n..n).contains(k));
                if k.is_some() {
                    self.retype_literal(ie, Ty::Scalar(DType::I64));
                }
                k
            }
            _ => None,
        };
        let Some(k) = k else {
            let what = if matches!(base.kind, ExprKind::Call { .. }) { "a call's results" } else { "a tuple" };
            self.err(
                Diagnostic::error(
                    "E0309",
                    format!("{what} ({n} of them) indexed other than by one integer literal in range"),
                    span.clone(),
                    "not an item of the results",
                )
                .with_help(format!("take one result with an integer literal, `[0]` to `[{}]` (or `[-1]`)", n - 1)),
            );
            return Ty::Error;
        };
        ts[k.rem_euclid(n) as usize].clone()
    }

    /// Reports tuple / unit types where a single value is needed; returns `Ty::Error` for them.
    pub fn require_value(&mut self, t: Ty, span: &Span) -> Ty {
        match t {
            Ty::Tuple(ts) => {
                self.err(
                    Diagnostic::error(
                        "E0309",
                        format!("a call with {} results used as a single value", ts.len()),
                        span.clone(),
                        "several results",
                    )
                    .with_help("destructure the results: `let (a, b) = f(...);`"),
                );
                Ty::Error
            }
            Ty::Unit => {
                self.error("E0310", "this expression has no value", span.clone(), "function without results");
                Ty::Error
            }
            t => t,
        }
    }

    /// The value of an `i64` expression as an affine size over size symbols, if it is one.
    pub fn affine(&self, e: &Expr) -> Option<Size> {
        let bounded = |s: Size| {
            (s.constant.unsigned_abs() < (1 << 40)
                && s.terms.values().all(|k| k.unsigned_abs() < (1 << 20))
                && s.weight() <= crate::types::MAX_SIZE_WEIGHT)
                .then_some(s)
        };
        match &e.kind {
            ExprKind::Int(v) => bounded(Size::lit(*v)),
            ExprKind::Var(i) => self.lookup(&i.name)?.size.clone(),
            ExprKind::Unary(UnOp::Neg, a) => bounded(self.affine(a)?.neg()),
            ExprKind::Binary(BinOp::Add, a, b) => bounded(self.affine(a)?.add(&self.affine(b)?)),
            ExprKind::Binary(BinOp::Sub, a, b) => bounded(self.affine(a)?.sub(&self.affine(b)?)),
            ExprKind::Binary(BinOp::Mul, a, b) => bounded(self.affine(a)?.mul(&self.affine(b)?)?),
            // `//` and `%` by a non-zero constant: NumPy's floor division and remainder.
            ExprKind::Binary(BinOp::FloorDiv, a, b) => {
                bounded(self.affine(a)?.floor_div(self.affine(b)?.as_const().filter(|&k| k != 0)?)?)
            }
            ExprKind::Binary(BinOp::Rem, a, b) => {
                bounded(self.affine(a)?.rem(self.affine(b)?.as_const().filter(|&k| k != 0)?)?)
            }
            ExprKind::Call { .. } => match self.callees.get(e.id.0 as usize).copied().flatten() {
                Some(Callee::Builtin(b @ (Builtin::Len | Builtin::Ndim | Builtin::Size))) => {
                    bounded(self.shape_query_size(b, e)?)
                }
                _ => None,
            },
            _ => None,
        }
    }

    /// `a if c else b` (`parts`: `[c, a, b]`): `c` a `bool` scalar (an array is Python's
    /// "truth value of an array is ambiguous": `where(c, a, b)` chooses elementwise); the type is
    /// the promotion of two scalars', or the type of two arrays of one dtype and shape.
    fn if_else(&mut self, parts: &[Expr; 3], e: &Expr) -> Ty {
        let [c, a, b] = parts;
        self.condition(
            c,
            "`a if c else b` needs one bool (NumPy: \"the truth value of an array is ambiguous\"): \
             write `where(c, a, b)` to choose elementwise, or reduce `c` with `all(c)` / `any(c)`",
        );
        // A question about dtypes chooses at compile time: the value is the branch taken, as
        // Python's (`crate::dtype_queries`).
        if let Some(taken) = self.static_truth(c) {
            return self.value(if taken { a } else { b });
        }
        let (ta, tb) = (self.value(a), self.value(b));
        match (&ta, &tb) {
            (Ty::Error, _) | (_, Ty::Error) => Ty::Error,
            (Ty::Scalar(da), Ty::Scalar(db)) => Ty::Scalar(promote(*da, self.weak_of(a), *db, self.weak_of(b))),
            (Ty::Array(da, sa), Ty::Array(db, sb)) if da == db && sa == sb => ta,
            _ => {
                self.err(
                    Diagnostic::error(
                        "E0316",
                        format!("the branches of `a if c else b` have types {ta} and {tb}"),
                        e.span.clone(),
                        "branches of different types",
                    )
                    .with_help(
                        "give both branches one type: two scalars, or two arrays of one dtype and shape \
                         (cast with `f64(a)`); or assign in an `if c { x = a; } else { x = b; }` statement",
                    ),
                );
                Ty::Error
            }
        }
    }

    /// Python's `and`, `or`, `not` ([`ExprKind::BoolOp`]): each operand one bool scalar (E0302,
    /// naming the elementwise operator for arrays), or a number read as its truth value
    /// ([`crate::Checked::truthy`]) where Python's result is a bool too: `not`'s operand, and the
    /// operands of an `and`/`or` read as a truth value itself (`truth`); the result a bool scalar.
    fn bool_op(&mut self, op: BoolOp, parts: &[Expr; 3], truth: bool) -> Ty {
        let help = format!(
            "`{}` needs one bool (NumPy: \"the truth value of an array is ambiguous\"): write `{}` to \
             combine arrays elementwise, or reduce with `all(c)` / `any(c)`",
            op.name(),
            op.elementwise()
        );
        let operands = op.operands(parts);
        for e in &operands {
            if truth || op == BoolOp::Not {
                self.condition(e, &help);
            } else {
                self.strict_condition(e, &help, op);
            }
        }
        for e in parts.iter().filter(|p| !operands.iter().any(|o| std::ptr::eq(*o, *p))) {
            self.expr(e);
        }
        Ty::Scalar(DType::Bool)
    }

    fn expr_inner(&mut self, e: &Expr) -> Ty {
        match &e.kind {
            ExprKind::Int(_) => Ty::Scalar(DType::I64),
            ExprKind::Float(_) => Ty::Scalar(DType::F64),
            ExprKind::Bool(_) => Ty::Scalar(DType::Bool),
            ExprKind::Str(text) => {
                self.err(
                    Diagnostic::error(
                        "E0317",
                        format!("a string literal (\"{text}\") is not a value in arrayc"),
                        e.span.clone(),
                        "a string",
                    )
                    .with_help(
                        "arrayc has strings only as keyword arguments' values, NumPy's spellings such as \
                         `mode=\"same\"`, `method=\"linear\"` or `dtype=\"float32\"`, and as arguments of `print`",
                    ),
                );
                Ty::Error
            }
            ExprKind::FString(_) => {
                self.err(
                    Diagnostic::error("E0317", "an f-string is not a value in arrayc", e.span.clone(), "an f-string")
                        .with_help("arrayc has f-strings only as arguments of `print` (`print(f\"sum = {s:.3f}\")`)"),
                );
                Ty::Error
            }
            ExprKind::NoneLit => {
                self.err(
                    Diagnostic::error("E0319", "`None` is not a value in arrayc", e.span.clone(), "`None` here")
                        .with_help(
                            "arrayc takes `None` where it is NumPy's default argument (`axis=None`, `dtype=None`, \
                             `out=None`, `clip(x, None, hi)`) and as a new axis in a subscript (`x[:, None]`); \
                             leave the argument out, or give its value",
                        ),
                );
                Ty::Error
            }
            ExprKind::Var(i) => self.var(i),
            ExprKind::DTypeName(d) => {
                self.err(
                    Diagnostic::error(
                        "E0311",
                        format!("type name `{}` used as a value", d.name()),
                        e.span.clone(),
                        "not a value",
                    )
                    .with_help(format!(
                        "use it as `dtype={}` or as a cast `{}(x)`",
                        d.name(),
                        d.name()
                    )),
                );
                Ty::Error
            }
            ExprKind::Tuple(items) => {
                for a in items {
                    self.expr(a);
                }
                self.err(Diagnostic::error("E0309", "a tuple used as one value", e.span.clone(), "a tuple").with_note(
                    "tuples are only the values of `return` and the index arrays of `add_at(x, (i, j), v)`",
                ));
                Ty::Error
            }
            ExprKind::List(_) => self.list_literal(e, None),
            ExprKind::IfElse(parts) => self.if_else(parts, e),
            ExprKind::BoolOp(..) => unreachable!("checked by `expr`"),
            ExprKind::Unary(op, a) => {
                let t = self.value(a);
                if *op == UnOp::Not && self.weak_of(a) == Some(super::promote::Weak::Bool) {
                    // Python's `~True` is the int `-2` (deprecated), NumPy's `~np.True_` is `False`.
                    self.err(
                        Diagnostic::error(
                            "E0301",
                            "`~` of a Python bool is Python's bitwise not of an int (`~True` is -2)",
                            e.span.clone(),
                            "a Python bool",
                        )
                        .with_help("write `not b` for the logical not, or `~np.bool_(b)` for NumPy's"),
                    );
                    return Ty::Error;
                }
                self.unary(*op, t, &e.span)
            }
            ExprKind::Binary(op, a, b) => {
                let ta = self.value(a);
                let tb = self.value(b);
                if let Some(t) = self.list_repetition(*op, (a, &ta), (b, &tb), e) {
                    return t;
                }
                // A weak integer literal takes the other operand's dtype: it must fit it, but in a
                // comparison, which NumPy 2 makes exactly (`x_i16 > 40000` is false everywhere, as
                // the lowering computes it).
                let (wa, wb) = (self.weak_of(a), self.weak_of(b));
                let compares = matches!(op, BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge);
                if wb.is_none() && !compares {
                    if let Some(d) = tb.dtype() {
                        self.check_int_literal(a, d);
                    }
                }
                if wa.is_none() && !compares {
                    if let Some(d) = ta.dtype() {
                        self.check_int_literal(b, d);
                    }
                }
                self.binary(*op, (&ta, wa), (&tb, wb), &e.span)
            }
            ExprKind::Subscript { base, index } => {
                let t = self.expr(base);
                if let Ty::Tuple(ts) = &t {
                    return self.tuple_item(ts, base, index, &e.span);
                }
                let t = self.require_value_of(t, base);
                self.index_ty(&t, index, &e.span)
            }
            ExprKind::Call { func, args, kwargs } => self.call(func, args, kwargs, e),
        }
    }

    fn var(&mut self, i: &Ident) -> Ty {
        if let Some(v) = self.lookup(&i.name) {
            return v.ty.clone();
        }
        self.undefined(i);
        Ty::Error
    }

    fn unary(&mut self, op: UnOp, t: Ty, span: &Span) -> Ty {
        let d = match t.dtype() {
            Some(d) => d,
            None => return Ty::Error,
        };
        let ok = match op {
            UnOp::Neg => d != DType::Bool,
            UnOp::Not => !d.is_float(),
        };
        if !ok {
            let (what, help) = match op {
                UnOp::Neg => ("`-` cannot negate a bool value", "use `~` for logical not"),
                UnOp::Not => ("`~` needs a bool or integer operand", "compare first, e.g. `~(x > 0)`"),
            };
            self.err(
                Diagnostic::error("E0301", format!("{what}, found {t}"), span.clone(), format!("operand has type {t}"))
                    .with_help(help),
            );
            return Ty::Error;
        }
        t
    }

    /// Type of `a op b` with promotion and broadcasting.
    pub fn binary(
        &mut self,
        op: BinOp,
        a: (&Ty, Option<super::promote::Weak>),
        b: (&Ty, Option<super::promote::Weak>),
        span: &Span,
    ) -> Ty {
        let (Some(da), Some(db)) = (a.0.dtype(), b.0.dtype()) else { return Ty::Error };
        let p = promote_op(op, da, a.1, db, b.1);
        let Some(rd) = binop_result(op, p) else {
            if op == BinOp::Sub {
                // NumPy's TypeError "numpy boolean subtract, the `-` operator, is not supported".
                self.err(
                    Diagnostic::error(
                        "E0301",
                        format!("operator `-` of two bools ({} and {}) is not supported, as in NumPy", a.0, b.0),
                        span.clone(),
                        "bool subtract",
                    )
                    .with_help("write `a ^ b` (NumPy's logical_xor), or cast first: `i64(a) - i64(b)`"),
                );
                return Ty::Error;
            }
            let needs = binop_operands(op).unwrap_or("bool");
            let help = match op {
                BinOp::And | BinOp::Or => "compare first, e.g. `(x > 0) & (y < 1)`".to_string(),
                _ => format!("cast to an integer first, e.g. `i64(x) {} 2`", op_str(op)),
            };
            self.err(
                Diagnostic::error(
                    "E0301",
                    format!("operator `{}` needs {needs} operands, found {} and {}", op_str(op), a.0, b.0),
                    span.clone(),
                    format!("non-{needs} operand"),
                )
                .with_help(help),
            );
            return Ty::Error;
        };
        match (a.0, b.0) {
            (Ty::Array(_, sa), Ty::Array(_, sb)) => match self.broadcast(sa, sb) {
                Ok(s) => Ty::Array(rd, s),
                Err(be) => {
                    self.err(
                        Diagnostic::error(
                            "E0401",
                            format!("shapes {} and {} cannot be broadcast together", shape_str(sa), shape_str(sb)),
                            span.clone(),
                            format!("size {} vs {}", be.left, be.right),
                        )
                        .with_note("broadcasting needs equal sizes or a size of 1 in each right-aligned dimension"),
                    );
                    Ty::Error
                }
            },
            (Ty::Array(_, s), _) | (_, Ty::Array(_, s)) => Ty::Array(rd, s.clone()),
            _ => Ty::Scalar(rd),
        }
    }

    /// What a call of `name` calls: the program's function of that name (it shadows the builtin
    /// of that name, as in Python, [`crate::builtin`]), else the builtin of that name, else
    /// nothing. A qualified spelling (`np.sum`, a method's `.sum`) names only the builtin.
    pub(super) fn resolve(&self, name: &str) -> Option<Callee> {
        let user = if may_name_a_function(name) { self.fn_index.get(name) } else { None };
        match user {
            Some(&fi) => Some(Callee::User(fi)),
            None => Builtin::from_name(name).map(Callee::Builtin),
        }
    }

    /// Checks a call: resolves it once (recorded in [`crate::Checked::callees`]), then checks it.
    fn call(&mut self, func: &Ident, args: &[Expr], kwargs: &[(Ident, Expr)], e: &Expr) -> Ty {
        let mut callee = self.resolve(&func.name);
        if callee == Some(Callee::Builtin(Builtin::Where)) && args.len() == 1 && kwargs.is_empty() {
            // NumPy's `where(cond)` of one argument is `nonzero(cond)`.
            callee = Some(Callee::Builtin(Builtin::Nonzero));
        }
        self.set_callee(e.id, callee);
        if let (Some(Callee::Builtin(_)), ["min" | "max"], [first, _, ..]) = (callee, [func.name.as_str()], args) {
            let first_is_array = self.expr(first).is_array();
            match python_min_max(&func.name, args, first_is_array) {
                Some(MinMaxCall::Python(b)) => return self.python_min_max(b, args, kwargs),
                // Checks `first` again: it is an array, checked without error.
                Some(MinMaxCall::Axis(b)) => {
                    return self.builtin(b, &args[..1], &axis_by_position(&args[1], kwargs), e)
                }
                None => {}
            }
        }
        if let (Some(Callee::Builtin(Builtin::Round)), [x]) = (callee, args) {
            let t = self.expr(x);
            if python_round(&func.name, args, kwargs.is_empty(), matches!(t, Ty::Scalar(_))) {
                return Ty::Scalar(DType::I64);
            }
        }
        match callee {
            Some(Callee::Builtin(b)) => return self.builtin(b, args, kwargs, e),
            Some(Callee::User(fi)) => return self.user_call(fi, args, kwargs, e),
            None => {}
        }
        // Unknown: still check the arguments for errors.
        for a in args {
            self.expr(a);
        }
        for (_, a) in kwargs {
            self.expr(a);
        }
        if let Some(m) = func.name.strip_prefix('.') {
            self.err(method_error(m, &func.span));
            return Ty::Error;
        }
        if let Some(d) = super::stmt::missing_dtype(&func.name, &func.span) {
            self.err(d);
            return Ty::Error;
        }
        let mut d = Diagnostic::error(
            "E0202",
            format!("unknown function `{}`", func.name),
            func.span.clone(),
            "not a builtin or a function of this file",
        );
        let user: Vec<String> = self.fn_index.keys().cloned().collect();
        let cands = Builtin::all().map(|b| b.name()).chain(user.iter().map(|s| s.as_str()));
        let plain = func.name.strip_prefix(QUALIFIED).unwrap_or(&func.name);
        let python = crate::py_refused::PYTHON_BUILTINS.iter().find(|(n, _)| *n == func.name);
        if let Some((_, help)) = crate::builtin::REMOVED_NUMPY_NAMES.iter().find(|(n, _)| *n == plain) {
            d = d.with_help(*help);
        } else if let Some((_, help)) = python {
            d = d.with_help(*help);
        } else if let Some(s) = suggest(plain, cands) {
            d = d.with_help(format!("did you mean `{s}`?"));
        }
        self.err(d);
        Ty::Error
    }

    /// A call of a user function: arity, argument dtype/rank, size-symbol binding, result types.
    /// A call of a rank-generic function calls (and records as its callee) the instance for its
    /// arguments' ranks.
    fn user_call(&mut self, fi: usize, args: &[Expr], kwargs: &[(Ident, Expr)], call: &Expr) -> Ty {
        let span = &call.span;
        let mut sig = self.sigs[fi].clone();
        let required = self.infos[fi].required.clone();
        let mut size_params = self.infos[fi].size_params.clone();
        let mut slots: Vec<Option<&Expr>> = vec![None; sig.params.len()];
        let mut ok = true;
        for (k, a) in args.iter().enumerate() {
            if k < slots.len() {
                slots[k] = Some(a);
            } else {
                self.expr(a);
            }
        }
        if args.len() > sig.params.len() {
            self.err(
                Diagnostic::error(
                    "E0501",
                    format!(
                        "function `{}` takes {} arguments but {} were given",
                        sig.name,
                        sig.params.len(),
                        args.len()
                    ),
                    span.clone(),
                    "wrong number of arguments",
                )
                .with_note(sig_str(&sig)),
            );
            ok = false;
        }
        for (k, v) in kwargs {
            match sig.params.iter().position(|(n, _)| *n == k.name) {
                Some(p) if slots[p].is_none() => slots[p] = Some(v),
                Some(_) => {
                    self.error(
                        "E0502",
                        format!("argument `{}` given twice", k.name),
                        k.span.clone(),
                        "duplicate argument",
                    );
                    self.expr(v);
                    ok = false;
                }
                None => {
                    self.err(
                        Diagnostic::error(
                            "E0502",
                            format!("function `{}` has no parameter `{}`", sig.name, k.name),
                            k.span.clone(),
                            "unknown keyword argument",
                        )
                        .with_note(sig_str(&sig)),
                    );
                    self.expr(v);
                    ok = false;
                }
            }
        }
        let missing: Vec<&str> = slots
            .iter()
            .zip(&sig.params)
            .zip(&required)
            .filter(|((s, _), r)| s.is_none() && **r)
            .map(|((_, (n, _)), _)| n.as_str())
            .collect();
        if !missing.is_empty() {
            self.err(
                Diagnostic::error(
                    "E0501",
                    format!(
                        "missing argument{} {} in call of `{}`",
                        if missing.len() > 1 { "s" } else { "" },
                        missing.join(", "),
                        sig.name
                    ),
                    span.clone(),
                    "wrong number of arguments",
                )
                .with_note(sig_str(&sig)),
            );
            ok = false;
        }
        let arg_tys: Vec<Option<Ty>> = slots.iter().map(|s| s.map(|a| self.value(a))).collect();
        if self.infos[fi].rank_generic {
            let inst = if ok { self.instantiate(fi, &slots, &arg_tys, Some(call)) } else { None };
            let Some(ii) = inst else { return Ty::Error };
            self.set_callee(call.id, Some(Callee::User(ii)));
            sig = self.sigs[ii].clone();
            size_params = self.infos[ii].size_params.clone();
        }
        let mut binding: HashMap<String, Size> = HashMap::new();
        for (k, (((pname, pty), slot), at)) in sig.params.iter().zip(&slots).zip(arg_tys).enumerate() {
            let (Some(a), Some(at)) = (slot, at) else {
                if size_params.contains(pname) {
                    let f = self.fresh();
                    binding.insert(pname.clone(), f);
                }
                continue;
            };
            if at == Ty::Error || *pty == Ty::Error {
                if size_params.contains(pname) {
                    let f = self.fresh();
                    binding.insert(pname.clone(), f);
                }
                continue;
            }
            if !self.arg_fits(&sig, k, pty, &at, a, &mut binding) {
                ok = false;
            }
            if size_params.contains(pname) {
                let v = self.affine(a).unwrap_or_else(|| self.fresh());
                binding.insert(pname.clone(), v);
            }
        }
        if !ok {
            return Ty::Error;
        }
        let mut results = Vec::new();
        for r in &sig.results {
            results.push(self.subst_ty(r, &mut binding));
        }
        match results.len() {
            0 => Ty::Unit,
            1 => results.pop().unwrap_or(Ty::Error),
            _ => Ty::Tuple(results),
        }
    }

    fn subst_ty(&mut self, t: &Ty, binding: &mut HashMap<String, Size>) -> Ty {
        match t {
            Ty::Array(d, shape) => {
                let mut out = Vec::new();
                for s in shape {
                    for n in s.named_symbols() {
                        if let std::collections::hash_map::Entry::Vacant(v) = binding.entry(n) {
                            v.insert(self.fresh());
                        }
                    }
                    // An existential size (`?`) is a new unknown at every call.
                    let existential = s.has_unknown();
                    let v = subst(s, binding).filter(|_| !existential).unwrap_or_else(|| self.fresh());
                    out.push(v);
                }
                Ty::Array(*d, out)
            }
            t => t.clone(),
        }
    }

    /// Checks one argument against its parameter type; binds size symbols.
    fn arg_fits(
        &mut self,
        sig: &crate::FnSig,
        k: usize,
        pty: &Ty,
        at: &Ty,
        a: &Expr,
        binding: &mut HashMap<String, Size>,
    ) -> bool {
        let pname = &sig.params[k].0;
        let mismatch = |c: &mut Checker, extra: Option<String>| {
            let mut d = Diagnostic::error(
                "E0312",
                format!("argument `{pname}` of `{}` has type {at}, expected {pty}", sig.name),
                a.span.clone(),
                format!("expected {pty}"),
            );
            if let Some(x) = extra {
                d = d.with_help(x);
            }
            c.err(d);
            false
        };
        match (pty, at) {
            (Ty::Scalar(pd), Ty::Scalar(ad)) => {
                if pd == ad {
                    return true;
                }
                if let Some(w) = weak_of(a) {
                    if weak_fits(w, *pd) {
                        self.retype_literal(a, Ty::Scalar(*pd));
                        return true;
                    }
                }
                mismatch(self, Some(format!("cast it: `{}(...)`", pd.name())))
            }
            (Ty::Array(pd, ps), Ty::Array(ad, as_)) => {
                if pd != ad {
                    return mismatch(self, Some(format!("cast it: `{}(...)`", pd.name())));
                }
                if ps.len() != as_.len() {
                    return mismatch(self, None);
                }
                for (dim, (e, act)) in ps.iter().zip(as_).enumerate() {
                    if bind_dim(e, act, binding) == Some(false) {
                        let expected = subst(e, binding).map(|s| s.to_string()).unwrap_or_else(|| e.to_string());
                        self.err(
                            Diagnostic::error(
                                "E0402",
                                format!("argument `{pname}` of `{}` has size {act} in dimension {dim}, but the call needs {expected}", sig.name),
                                a.span.clone(),
                                format!("shape {}", shape_str(as_)),
                            )
                            .with_note(format!("parameter type is {pty}; size symbols are bound by the first argument that mentions them")),
                        );
                        return false;
                    }
                }
                true
            }
            _ => mismatch(self, None),
        }
    }

    /// Gives a (possibly negated) literal the type expected by its context; an integer literal
    /// must fit an integer type ([`Checker::check_int_literal`]).
    pub fn retype_literal(&mut self, e: &Expr, t: Ty) {
        if let Some(d) = t.dtype() {
            self.check_int_literal(e, d);
        }
        self.set_literal_ty(e, t);
    }

    fn set_literal_ty(&mut self, e: &Expr, t: Ty) {
        self.set_ty(e.id, t.clone());
        if let ExprKind::Unary(UnOp::Neg, inner) = &e.kind {
            self.set_literal_ty(inner, t);
        }
    }

    /// E0315 if `e` is a (possibly negated) integer literal that becomes a value of integer dtype
    /// `d` (a weak literal beside a `d` operand, or a `d` parameter, variable or default) outside
    /// `d`'s range: NumPy 2 raises `OverflowError` ("Python integer ... out of bounds for int32").
    pub fn check_int_literal(&mut self, e: &Expr, d: DType) {
        let (Some(v), Some((lo, hi))) = (int_literal(e), d.int_range()) else { return };
        if v < lo || v > hi {
            self.err(
                Diagnostic::error(
                    "E0315",
                    format!("the integer literal {v} is out of the range of {} ({lo} to {hi})", d.name()),
                    e.span.clone(),
                    format!("out of {}'s range", d.name()),
                )
                .with_note("the literal takes the other operand's dtype (NumPy 2 raises OverflowError here)")
                .with_help("compute in a wider dtype: convert the other operand first, e.g. `i64(x)`"),
            );
        }
    }

    /// [`Checker::check_int_literal`] of each of `args` that is a weak literal of an elementwise
    /// operation promoted to `d`.
    pub fn check_int_literals(&mut self, args: &[&Expr], d: DType) {
        for a in args {
            self.check_int_literal(a, d);
        }
    }
}

/// The value of a (possibly negated or parenthesised) integer literal.
fn int_literal(e: &Expr) -> Option<i128> {
    match &e.kind {
        ExprKind::Int(v) => Some(i128::from(*v)),
        ExprKind::Unary(UnOp::Neg, inner) => int_literal(inner).map(|v| -v),
        _ => None,
    }
}

/// Spelling of a binary operator.
pub fn op_str(op: BinOp) -> &'static str {
    use BinOp::*;
    match op {
        Add => "+",
        Sub => "-",
        Mul => "*",
        Div => "/",
        Pow => "**",
        Rem => "%",
        FloorDiv => "//",
        Eq => "==",
        Ne => "!=",
        Lt => "<",
        Le => "<=",
        Gt => ">",
        Ge => ">=",
        And => "&",
        Or => "|",
        Xor => "^",
        Shl => "<<",
        Shr => ">>",
    }
}

/// `fn f(a: T, b: U) -> R` for notes.
pub fn sig_str(s: &crate::FnSig) -> String {
    let ps: Vec<String> = s.params.iter().map(|(n, t)| format!("{n}: {t}")).collect();
    let rs: Vec<String> = s.results.iter().map(|t| t.to_string()).collect();
    let r = match rs.len() {
        0 => String::new(),
        1 => format!(" -> {}", rs[0]),
        _ => format!(" -> ({})", rs.join(", ")),
    };
    format!("signature: fn {}({}){r}", s.name, ps.join(", "))
}

/// E0207 for `x.m(...)` (or `x.shape` not indexed) that names no builtin ([`crate::methods`]).
fn method_error(m: &str, span: &Span) -> Diagnostic {
    let (msg, help, label) = match m {
        "shape" => (
            "`x.shape` is a tuple, which arrayc has not".to_string(),
            "write `x.shape[k]` (`k` an integer literal), `let (n, m) = x.shape;`, `zeros(x.shape)`, \
             `x.shape == (n, m)`, `x.ndim` or `x.size`"
                .to_string(),
            "a tuple",
        ),
        "dtype" => (
            "`x.dtype` is a type, known at compile time; arrayc has no type values".to_string(),
            "use it where NumPy takes a dtype (`zeros(n, dtype=x.dtype)`, `x.astype(y.dtype)`) or ask about it: \
             `x.dtype == np.float32`, `np.issubdtype(x.dtype, np.floating)`, `x.dtype.kind == 'f'`, \
             `np.finfo(x.dtype).eps`, `x.dtype.itemsize`"
                .to_string(),
            "a type",
        ),
        "astype" => (
            "`x.astype(...)` takes one type name".to_string(),
            "write `x.astype(f32)`, or the cast `f32(x)`".to_string(),
            "not a type name",
        ),
        "sort" => (
            "`x.sort()` sorts in place and returns None: it is a statement, not a value".to_string(),
            "write `x.sort();` as a statement, or use `np.sort(x)` (a sorted copy) as a value".to_string(),
            "sorts in place",
        ),
        "tolist" => (
            "`x.tolist()` is a Python list, which arrayc has not".to_string(),
            "an array is the list where it is iterated or reduced: `for t in x.tolist()`, `sum(x.tolist())`, \
             `len(..)`, `min(..)`, `max(..)`, `any(..)`, `all(..)`, `np.array(..)` take it; elsewhere use the \
             array `x` itself"
                .to_string(),
            "a Python list",
        ),
        "append" => (
            "`out.append(v)` grows a Python list that arrayc cannot follow here".to_string(),
            "arrayc follows a list made by `out = []` in the same function and then only appended to and read \
             (`len(out)`, `out[-1]`, `np.array(out)`): not another list method (`pop`, `extend`), `out[i] = ..`, \
             `out + [..]`, or `out` bound again inside a loop or branch. Else build the array with a \
             comprehension, `out = np.array([t * 2 for t in v if t > 0])`, or preallocate it, `out = np.zeros(n)` \
             then `out[k] = ..` (`np.append(out, v)` is a new array, as NumPy's)"
                .to_string(),
            "a list method",
        ),
        "item" => (
            "`x.item(k)` (NumPy's element `k` of `x` flattened) is not in arrayc".to_string(),
            "write `ravel(x)[k]`; `x.item()` (no argument) is the one element of a size-1 array".to_string(),
            "takes no argument here",
        ),
        _ if crate::methods::METHODS.contains(&m) => (
            format!("`x.{m}()` is not supported yet"),
            format!("arrayc has no builtin `{m}` yet (NumPy's `np.{m}(x)`, `x.{m}()`)"),
            "not supported yet",
        ),
        _ => (
            format!("`{m}` is not an array method that arrayc knows"),
            "methods call the builtin of their name with the array first: `x.sum(axis=0)` is `sum(x, axis=0)`"
                .to_string(),
            "no such method",
        ),
    };
    Diagnostic::error("E0207", msg, span.clone(), label).with_help(help)
}

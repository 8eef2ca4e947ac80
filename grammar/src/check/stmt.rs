//! Function bodies: parameters and defaults, statements, control flow, returns.

use super::names::suggest;
use super::promote::{same_kind, weak_fits, weak_of, Weak};
use super::shape::shape_str;
use super::sig::dim_symbols;
use super::{Checker, Var};
use crate::ast::{BinOp, Block, DType, Expr, ExprId, ExprKind, FPart, Function, Ident, Index, Span, Stmt, UnOp};
use crate::diag::Diagnostic;
use crate::print_stmt::printed_dtype;
use crate::types::{Size, SizeSym, Ty};
use arrayc_core::format_spec::FormatSpec;
use std::collections::BTreeSet;

impl Checker {
    /// Checks one function's parameters, defaults and body; again while the check asks for a
    /// widening of a scalar declared from an integer literal ([`Checker::widen`]: each round
    /// widens at least one declaration, so there are at most as many rounds as declarations),
    /// dropping the diagnostics of the rounds before inside the function.
    pub fn check_function(&mut self, f: &Function) {
        let outer = std::mem::take(&mut self.widen_requested);
        loop {
            let before = self.diags.len();
            self.check_function_once(f);
            if !std::mem::take(&mut self.widen_requested) {
                break;
            }
            // Keep what was reported elsewhere meanwhile (the body of an instance of a
            // rank-generic function, checked once where it was first called).
            let inside = |d: &Diagnostic| d.primary.span.start >= f.span.start && d.primary.span.end <= f.span.end;
            let mut i = 0;
            self.diags.retain(|d| {
                i += 1;
                i <= before || !inside(d)
            });
        }
        self.widen_requested = outer;
    }

    /// Asks that the scalar declared at `key` from an integer literal be declared with the float
    /// dtype `d` (NumPy's promotion with the dtype it has, if already widened); true when that
    /// is new, and the function is then checked again.
    pub(crate) fn request_widening(&mut self, key: super::Widening, d: DType) -> bool {
        let d = self.widen.get(&key).map_or(d, |&old| old.promote(d));
        let new = self.widen.insert(key, d) != Some(d);
        self.widen_requested |= new;
        new
    }

    fn check_function_once(&mut self, f: &Function) {
        self.scopes.clear();
        // An instance of a rank-generic function is checked where a call of it is, maybe in a loop.
        let caller_loops = std::mem::take(&mut self.loop_depth);
        let caller_ended = std::mem::take(&mut self.ended_block_names);
        self.push_scope();
        let sig = self.sigs[self.cur_fn].clone();
        // Size symbols from parameter array types are i64 values in the body.
        let mut syms = BTreeSet::new();
        for p in &f.params {
            if let Some(dims) = &p.ty.dims {
                for d in dims {
                    dim_symbols(d, &mut syms);
                }
            }
        }
        for s in syms {
            let size = (!self.is_mutated(&s)).then(|| Size::sym(SizeSym::Named(s.clone())));
            // NumPy's `x.shape[0]`, a Python int.
            let py_number = self.py_decl((self.cur_fn, f.span.start));
            self.declare(&s, Var { ty: Ty::Scalar(DType::I64), size, weak_int: None, py_number });
        }
        for (p, (_, ty)) in f.params.iter().zip(&sig.params) {
            if let Some(d) = &p.default {
                self.check_default(d, ty);
            }
            let size = (*ty == Ty::Scalar(DType::I64) && !self.is_mutated(&p.name.name))
                .then(|| Size::sym(SizeSym::Named(p.name.name.clone())));
            self.declare(&p.name.name, Var { ty: ty.clone(), size, weak_int: None, py_number: None });
        }
        self.block_stmts(&f.body);
        if !sig.results.is_empty() && !crate::ast::always_returns(&f.body.stmts) {
            let end = f.body.span.end;
            self.err(
                Diagnostic::error(
                    "E0313",
                    format!("function `{}` may end without returning a value", sig.name),
                    end.saturating_sub(1)..end,
                    "the body can reach its end here",
                )
                .with_label(f.name.span.clone(), format!("declared to return {}", results_str(&sig.results)))
                .with_help("end the body with a `return` (or make every `if`/`else` branch return)"),
            );
        }
        self.scopes.clear();
        self.loop_depth = caller_loops;
        self.ended_block_names = caller_ended;
    }

    fn check_default(&mut self, d: &Expr, ty: &Ty) {
        let lit = match &d.kind {
            ExprKind::Int(_) | ExprKind::Float(_) | ExprKind::Bool(_) => true,
            ExprKind::Unary(UnOp::Neg, a) => matches!(a.kind, ExprKind::Int(_) | ExprKind::Float(_)),
            _ => false,
        };
        if !lit {
            self.expr(d);
            self.err(
                Diagnostic::error("E0308", "a parameter default must be a literal", d.span.clone(), "not a literal")
                    .with_note("defaults are literals, optionally negated: `1`, `-0.5`, `true`"),
            );
            return;
        }
        let t = self.expr(d);
        let fits = match (ty, weak_of(d), &t) {
            (Ty::Scalar(pd), Some(w), _) => weak_fits(w, *pd),
            (Ty::Scalar(pd), None, Ty::Scalar(ld)) => pd == ld,
            (Ty::Error, ..) => true,
            _ => false,
        };
        if fits {
            if let Ty::Scalar(_) = ty {
                self.retype_literal(d, ty.clone());
            }
        } else {
            let msg = if ty.is_array() {
                format!("array parameters cannot have defaults (parameter type {ty})")
            } else {
                format!("default value of type {t} does not fit the parameter type {ty}")
            };
            self.error("E0308", msg, d.span.clone(), format!("expected {ty}"));
        }
    }

    /// Checks the statements of a block in a new scope.
    pub fn block(&mut self, b: &Block) {
        self.push_scope();
        self.block_stmts(b);
        self.pop_scope();
    }

    fn block_stmts(&mut self, b: &Block) {
        for s in &b.stmts {
            self.stmt(s);
            if self.returns_at_compile_time(s) {
                // The rest is never run (an `if` on a dtype whose branch taken returns).
                break;
            }
        }
    }

    fn stmt(&mut self, s: &Stmt) {
        match s {
            Stmt::Let { names, value, .. } => self.let_stmt(names, value),
            Stmt::Assign { name, value, .. } => self.assign(name, value),
            Stmt::SetItem { target, index, value, span } => {
                let view = self.target_view(target, index, value.id, span);
                let vt = self.value(value);
                if let (Some(view), Ty::Scalar(_) | Ty::Array(..)) = (view, &vt) {
                    if let Some(d) = view.dtype() {
                        // NumPy's `x_u8[0] = 300` is OverflowError (a Python int other than a
                        // literal: at run time, `lower_ast/weak.rs`).
                        self.check_int_literal(value, d);
                    }
                    self.check_fits(&vt, &view, value);
                }
            }
            Stmt::AugAssign { target, index, op, value, span } => self.aug_assign(target, index, *op, value, span),
            Stmt::For { var, start, end, step, body, .. } => {
                if let Some(s) = step {
                    if super::builtins::literal_int(s) == Some(0) {
                        self.err(
                            Diagnostic::error("E0314", "`range()` step is zero", s.span.clone(), "step 0")
                                .with_note("Python raises ValueError: range() arg 3 must not be zero"),
                        );
                    }
                }
                for e in [start, end].into_iter().chain(step.as_deref()) {
                    match self.value(e) {
                        Ty::Scalar(DType::U64) => self.refuse_u64("E0305", e, "a loop bound"),
                        // Any integer, as Python's `range` (the lowering converts to i64).
                        Ty::Scalar(d) if d.is_int() => {}
                        Ty::Error => {}
                        other => self.error(
                            "E0305",
                            format!("loop bounds must be integer scalars, found {other}"),
                            e.span.clone(),
                            format!("has type {other}"),
                        ),
                    }
                }
                self.push_scope();
                // Python's `range` gives Python ints.
                let py_number = self.py_decl((self.cur_fn, var.span.start));
                self.declare(&var.name, Var { ty: Ty::Scalar(DType::I64), size: None, weak_int: None, py_number });
                self.loop_body(body);
                self.pop_scope();
            }
            Stmt::While { cond, body, .. } => {
                self.condition(cond, "reduce the array first, e.g. `max(x) > 0` or `sum(mask) > 0`");
                self.loop_body(body);
            }
            Stmt::Assert { cond, .. } => self.condition(
                cond,
                "`assert` needs one bool (NumPy: \"the truth value of an array is ambiguous\"): reduce it, \
                 e.g. `assert all(x > 0);`",
            ),
            Stmt::Break { span } => self.loop_jump("break", span),
            Stmt::Continue { span } => self.loop_jump("continue", span),
            Stmt::If { cond, then_block, else_block, .. } => {
                self.condition(cond, "reduce the array first, e.g. `max(x) > 0` or `sum(mask) > 0`");
                // A question about dtypes is decided here: only the branch taken is checked
                // (`crate::dtype_queries`), as NumPy runs only that one.
                let taken = self.static_truth(cond);
                if taken != Some(false) {
                    self.block(then_block);
                }
                if let (Some(e), false) = (else_block, taken == Some(true)) {
                    self.block(e);
                }
            }
            Stmt::Return { values, span } => self.ret(values, span),
            Stmt::Print { args, .. } => {
                // A string literal is printed as its text (Python's `print("x =", x)`).
                for a in args.iter().filter(|a| !matches!(a.kind, ExprKind::Str(_))) {
                    match (&a.kind, printed_dtype(a)) {
                        (_, Some(x)) => _ = self.value(x),
                        (ExprKind::FString(parts), _) => self.fstring(parts),
                        _ => _ = self.value(a),
                    }
                }
            }
            Stmt::Expr(e) => if let Ty::Tuple(_) | Ty::Unit | Ty::Error = self.expr(e) {},
        }
    }

    /// The fields of an f-string argument of `print`: each a value; a scalar's format spec
    /// Python's for its dtype (`arrayc_core::format_spec`), an array's empty (NumPy's arrays take
    /// none: Python's TypeError). Errors E0325.
    fn fstring(&mut self, parts: &[FPart]) {
        for part in parts {
            let FPart::Field { value, spec, spec_span } = part else { continue };
            let (value, dtype_name) = match printed_dtype(value) {
                Some(x) => (x, true),
                None => (value, false),
            };
            let problem = match self.value(value) {
                _ if dtype_name => (!FormatSpec::parse(spec).is_ok_and(|f| f.takes_arrays())).then(|| {
                    ("a dtype takes no format spec in arrayc".to_string(), "leave the spec out: `{x.dtype}`")
                }),
                Ty::Scalar(d) => FormatSpec::parse(spec).and_then(|f| f.check(d)).err().map(|m| (m, "a format spec for an int (`d`, `x`) or float (`f`, `e`, `g`, `%`) as Python's")),
                Ty::Array(..) if !FormatSpec::parse(spec).is_ok_and(|f| f.takes_arrays()) => Some((
                    "unsupported format string passed to numpy.ndarray.__format__".to_string(),
                    "NumPy's arrays take no format spec: format an element (`{x[0]:.3f}`), or round the array (`{np.round(x, 3)}`)",
                )),
                _ => None,
            };
            if let Some((message, help)) = problem {
                self.err(Diagnostic::error("E0325", message, spec_span.clone(), "this format spec").with_help(help));
            }
        }
    }

    /// Checks the body of a `for` or `while` loop, where `break` and `continue` may be.
    fn loop_body(&mut self, body: &Block) {
        self.loop_depth += 1;
        self.block(body);
        self.loop_depth -= 1;
    }

    /// `break;` or `continue;` (`word`): an error outside a loop (Python's SyntaxError "'break'
    /// outside loop"). Functions are top-level, so a loop never encloses a function's body.
    fn loop_jump(&mut self, word: &str, span: &Span) {
        if self.loop_depth > 0 {
            return;
        }
        let func = self.sigs.get(self.cur_fn).map(|s| s.name.clone()).unwrap_or_default();
        self.err(
            Diagnostic::error(
                "E0109",
                format!("`{word}` outside a loop"),
                span.clone(),
                "not in a `for` or `while` loop",
            )
            .with_note(format!(
                "`{word}` {} the innermost `for` or `while` loop around it, and the body of `{func}` has none here \
                     (Python's SyntaxError: '{word}' {})",
                if word == "break" { "leaves" } else { "goes on with the next iteration of" },
                if word == "break" { "outside loop" } else { "not properly in loop" },
            ))
            .with_help(if word == "break" {
                "put it in a loop's body (`while c { ...; if done { break; } }`), or end the function with `return`"
            } else {
                "put it in a loop's body, or remove it"
            }),
        );
    }

    /// Checks that the condition `c` is a `bool` scalar, or a number read as its truth value
    /// (Python's `if n % 2:`, `while k:`; recorded in [`crate::Checked::truthy`]); `array_help`
    /// is the help where it is an array.
    pub(super) fn condition(&mut self, c: &Expr, array_help: &str) {
        self.truth_context = true;
        match self.value(c) {
            Ty::Scalar(DType::Bool) | Ty::Error => {}
            Ty::Scalar(_) => {
                self.truthy.insert(c.id);
            }
            other => self.array_condition(c, &other, array_help),
        }
    }

    /// E0302 of an array `other` read as a truth value at `c` (NumPy's ambiguous truth value).
    fn array_condition(&mut self, c: &Expr, other: &Ty, array_help: &str) {
        let d = Diagnostic::error(
            "E0302",
            format!("a condition must be a bool scalar, found {other}"),
            c.span.clone(),
            format!("has type {other}"),
        );
        self.err(d.with_help(array_help));
    }

    /// The operand `c` of an `and`/`or` whose value is used as a value, not a truth value: a `bool`
    /// scalar (Python's `a or b` of numbers gives one of the numbers, which arrayc's `or` does not).
    pub(super) fn strict_condition(&mut self, c: &Expr, array_help: &str, op: crate::ast::BoolOp) {
        match self.value(c) {
            Ty::Scalar(DType::Bool) | Ty::Error => {}
            other @ Ty::Scalar(_) => self.err(
                Diagnostic::error(
                    "E0302",
                    format!("an operand of `{}` used as a value must be a bool scalar, found {other}", op.name()),
                    c.span.clone(),
                    format!("has type {other}"),
                )
                .with_note(format!(
                    "Python's `{}` of numbers gives one of the numbers, arrayc's a bool: as a value it needs bools",
                    op.name()
                ))
                .with_help("compare the numbers (`x != 0`), or choose with `a if a != 0 else b`"),
            ),
            other => self.array_condition(c, &other, array_help),
        }
    }

    fn let_stmt(&mut self, names: &[Ident], value: &Expr) {
        if let Some(x) = crate::syntax::shape_base(value) {
            if names.len() > 1 || names[0].name.starts_with("tuple.") {
                return self.shape_destructure(names, value, x);
            }
        }
        let t = self.expr(value);
        // `let (idx,) = f(x);` and `idx, = f(x);`, which the parser writes as a temporary `tuple.K.0`
        // declared from `f(x)` (`syntax::tuple_assign`): the one item of a tuple of one result.
        let t = match t {
            Ty::Tuple(mut ts) if names.len() == 1 && ts.len() == 1 && names[0].name.starts_with("tuple.") => {
                ts.remove(0)
            }
            t => t,
        };
        if names.len() == 1 {
            if let Ty::Tuple(ts) = &t {
                if ts.len() > 1 && names[0].name.starts_with("tuple.") {
                    self.error(
                        "E0309",
                        format!("cannot destructure {} values into 1 name", ts.len()),
                        value.span.clone(),
                        format!("this is {t}"),
                    );
                    self.declare(&names[0].name, Var { ty: Ty::Error, size: None, weak_int: None, py_number: None });
                    return;
                }
            }
            let t = self.require_value_of(t, value);
            let n = &names[0].name;
            // `total = 0` that a float is later assigned to is that float ([`Checker::widen`]).
            let int_literal =
                weak_of(value) == Some(Weak::Int) && t.dtype().is_some_and(|d| d.is_int()) && !t.is_array();
            let weak_int = int_literal.then_some((self.cur_fn, value.span.start));
            let t = match weak_int.and_then(|k| self.widen.get(&k)) {
                Some(&d) => {
                    self.retype_literal(value, Ty::Scalar(d));
                    Ty::Scalar(d)
                }
                None => t,
            };
            let size = if t == Ty::Scalar(DType::I64) && !self.is_mutated(n) { self.affine(value) } else { None };
            let py_number = self
                .weak_of(value)
                .filter(|_| !t.is_array())
                .and_then(|_| self.py_decl((self.cur_fn, value.span.start)));
            self.declare(n, Var { ty: t, size, weak_int, py_number });
            return;
        }
        let tys = match t {
            Ty::Tuple(ts) if ts.len() == names.len() => ts,
            Ty::Error => vec![Ty::Error; names.len()],
            // Python unpacks an array along its first axis (`x, y = pts.T`): each name a view
            // `value[k]`; a first axis whose size only the run time knows is checked there
            // (NumPy's "too many values to unpack").
            Ty::Array(d, shape) if !shape.is_empty() && shape[0].as_const().is_none_or(|n| n == names.len() as i64) => {
                let item = if shape.len() == 1 { Ty::Scalar(d) } else { Ty::Array(d, shape[1..].to_vec()) };
                vec![item; names.len()]
            }
            other => {
                let found = match &other {
                    Ty::Tuple(ts) => format!("{} values", ts.len()),
                    Ty::Unit => "no value".to_string(),
                    Ty::Array(_, s) if !s.is_empty() => format!("an array of {} along its first axis", s[0]),
                    _ => "a single value".to_string(),
                };
                self.error(
                    "E0309",
                    format!("cannot destructure {found} into {} names", names.len()),
                    value.span.clone(),
                    format!("this is {other}"),
                );
                vec![Ty::Error; names.len()]
            }
        };
        for (n, t) in names.iter().zip(tys) {
            self.declare(&n.name, Var { ty: t, size: None, weak_int: None, py_number: None });
        }
    }

    /// `let (n, m) = x.shape;` (and `n, m = x.shape;`): one `i64` per axis of `x`, each with its
    /// size as the symbol's value (as `let n = x.shape[0];`); as many names as axes (E0309,
    /// NumPy's "too many values to unpack" / "not enough values to unpack").
    fn shape_destructure(&mut self, names: &[Ident], value: &Expr, x: &Expr) {
        let sizes = match self.value(x) {
            Ty::Array(_, shape) if shape.len() == names.len() => shape.into_iter().map(Some).collect(),
            Ty::Error => vec![None; names.len()],
            t => {
                let rank = if let Ty::Array(_, s) = &t { s.len() } else { 0 };
                let sizes = if rank == 1 { "1 size".to_string() } else { format!("{rank} sizes") };
                self.error(
                    "E0309",
                    format!("cannot destructure the {sizes} of `.shape` into {} names", names.len()),
                    value.span.clone(),
                    format!("the shape of {t}"),
                );
                vec![None; names.len()]
            }
        };
        let ty = if sizes.iter().all(Option::is_some) {
            Ty::Tuple(vec![Ty::Scalar(DType::I64); names.len()])
        } else {
            Ty::Error
        };
        self.set_ty(value.id, ty);
        for (n, size) in names.iter().zip(sizes) {
            let size = size.filter(|_| !self.is_mutated(&n.name));
            // Python ints, as `x.shape[k]`.
            let py_number = self.py_decl((self.cur_fn, n.span.start));
            self.declare(&n.name, Var { ty: Ty::Scalar(DType::I64), size, weak_int: None, py_number });
        }
    }

    /// E0201 for a use of `name`, which no scope declares, with the likeliest fix.
    pub(super) fn undefined(&mut self, name: &Ident) {
        if let Some(d) = missing_dtype(&name.name, &name.span) {
            self.err(d);
            return;
        }
        let mut d = Diagnostic::error(
            "E0201",
            format!("undefined variable `{}`", name.name),
            name.span.clone(),
            "not found in this scope",
        );
        let names = self.names_in_scope();
        if self.ended_block_names.contains(&name.name) {
            d = d
                .with_note(format!(
                    "`{0}` is assigned inside a block that has ended (an `if` branch or a loop body) by a `let` (or \
                     a form arrayc keeps in its block, such as a list grown there); a `let` variable lives in its \
                     block, where Python's name lives in the whole function (as a plain `{0} = ...;` there does)",
                    name.name
                ))
                .with_help(format!(
                    "assign it before that block too (`{} = ...;`), then the block's assignment rebinds it",
                    name.name
                ));
        } else if name.name == "np" || name.name == "numpy" {
            // `np.f(..)` and `np.name` are taken as `f(..)` and `name` (`syntax::NUMPY_MODULES`).
            d = d.with_help(
                "`np` is NumPy's module, not a value: `np.sum(x)` is taken as `sum(x)` for `np.sum(x)`, `np.pi` as `pi`",
            );
        } else if matches!(name.name.as_str(), "r_" | "c_" | "mgrid" | "ogrid") {
            // `syntax::index_trick` took every form it has.
            d = d.with_help(format!(
                "arrayc has `np.{}[..]` with numbers, arrays and slices `a:b:c` that have a stop (no string \
                 directive, no complex step): write `concatenate((..))`, `column_stack((..))`, `meshgrid(..)` or \
                 `linspace(..)` for the rest",
                name.name
            ));
        } else if let Some(s) = suggest(&name.name, names.iter().map(|s| s.as_str())) {
            d = d.with_help(format!("did you mean `{s}`?"));
        } else if self.resolve(&name.name).is_some() {
            d = d.with_note(format!("`{0}` is a function; call it with `{0}(...)`", name.name));
        } else {
            d = d.with_help(format!("assign it first: `{} = ...;`", name.name));
        }
        self.err(d);
    }

    fn assign(&mut self, name: &Ident, value: &Expr) {
        let t = self.value(value);
        let Some(var) = self.lookup(&name.name).cloned() else {
            self.undefined(name);
            return;
        };
        if t == Ty::Error || var.ty == Ty::Error {
            return;
        }
        self.assign_weak(var.py_number, value);
        let same = var.ty.dtype() == t.dtype() && var.ty.is_array() == t.is_array() && var.ty.rank() == t.rank();
        let literal_ok = matches!((&var.ty, weak_of(value)), (Ty::Scalar(d), Some(w)) if weak_fits(w, *d));
        if literal_ok {
            self.retype_literal(value, var.ty.clone());
            return;
        }
        if !same {
            // Python rebinds `total` to the float (`total = 0` ... `total = total + v[k]`).
            if let (Some(key), Ty::Scalar(td)) = (var.weak_int, &t) {
                if td.is_float() && !var.ty.is_array() && self.request_widening(key, *td) {
                    return;
                }
            }
            // Python rebinds `x` to the new array (`x = x.astype(f64)`): in the block that
            // declared `x`, a new variable from here on ([`crate::Checked::rebinds`]).
            let here = self.scopes.last().is_some_and(|s| s.contains_key(&name.name));
            if here && (var.ty.is_array() || t.is_array()) {
                self.rebinds.insert(value.id);
                self.declare(&name.name, Var { ty: t, size: None, weak_int: None, py_number: None });
                return;
            }
            let help = match (&var.ty, &t) {
                (Ty::Scalar(_), Ty::Array(d, _)) => {
                    format!("declare `{0}` as an array of zeros first: `{0} = {1}`", name.name, zeros_of(*d, &t))
                }
                _ => format!("declare a new variable with `let {} = ...;` or cast the value", name.name),
            };
            self.err(
                Diagnostic::error(
                    "E0303",
                    format!("cannot assign a value of type {t} to `{}` of type {}", name.name, var.ty),
                    value.span.clone(),
                    format!("has type {t}"),
                )
                .with_note(
                    "`x = e` in a loop body or a branch keeps the dtype and rank `x` has outside it \
                     (in the block that declares `x`, it declares a new `x`, as Python rebinds)",
                )
                .with_help(help),
            );
            return;
        }
        if let (Ty::Array(d, old), Ty::Array(_, new)) = (&var.ty, &t) {
            let mut widened = Vec::new();
            for (o, n) in old.iter().zip(new) {
                widened.push(if o.provably_eq(n) == Some(true) { o.clone() } else { self.fresh() });
            }
            if let Some(v) = self.lookup_mut(&name.name) {
                v.ty = Ty::Array(*d, widened);
            }
        }
    }

    /// The view type written by `target[index] = ...` (or the whole variable without index).
    /// The type of the view `target[index]` written by a statement whose value is `value`
    /// (recorded in `target_types` under the value's id).
    fn target_view(&mut self, target: &Ident, index: &[Index], value: ExprId, span: &Span) -> Option<Ty> {
        let Some(var) = self.lookup(&target.name).cloned() else {
            self.undefined(target);
            for ix in index {
                self.index_exprs(ix);
            }
            return None;
        };
        if let Ty::Scalar(_) = var.ty {
            if !index.is_empty() {
                // A chained target's view (`p[1][2] = v`) is shown as its source, under the caret.
                let (what, shown) = match crate::syntax::is_synthesized(&target.name) {
                    true => ("a scalar".to_string(), "this".to_string()),
                    false => (format!("the scalar `{}`", target.name), format!("`{}`", target.name)),
                };
                self.error(
                    "E0408",
                    format!("cannot write through an index into {what}"),
                    target.span.clone(),
                    format!("{shown} has type {}", var.ty),
                );
                for ix in index {
                    self.index_exprs(ix);
                }
                return None;
            }
        }
        let t = if index.is_empty() { var.ty } else { self.index_ty(&var.ty, index, span) };
        if t == Ty::Error {
            return None;
        }
        self.target_types.insert(value, t.clone());
        Some(t)
    }

    fn index_exprs(&mut self, ix: &Index) {
        match ix {
            Index::At(e) => {
                self.expr(e);
            }
            Index::Slice { start, stop, step, .. } => {
                for e in [start, stop, step].into_iter().flatten() {
                    self.expr(e);
                }
            }
            _ => {}
        }
    }

    /// Checks that `value` (type `vt`) can be written into a view of type `view`.
    fn check_fits(&mut self, vt: &Ty, view: &Ty, value: &Expr) {
        let empty = Vec::new();
        let vs = match vt {
            Ty::Array(_, s) => s,
            _ => &empty,
        };
        let ts = match view {
            Ty::Array(_, s) => s,
            _ => &empty,
        };
        if let Err(be) = self.fits_into(vs, ts) {
            self.err(
                Diagnostic::error(
                    "E0401",
                    format!(
                        "a value of shape {} cannot be broadcast into a view of shape {}",
                        shape_str(vs),
                        shape_str(ts)
                    ),
                    value.span.clone(),
                    format!("size {} vs {}", be.left, be.right),
                )
                .with_note("the value must broadcast to exactly the shape of the target view"),
            );
        }
    }

    fn aug_assign(&mut self, target: &Ident, index: &[Index], op: BinOp, value: &Expr, span: &Span) {
        // Through index arrays (`x[idx] += v`) `view` is the gathered elements' type: NumPy's
        // `x[idx] = x[idx] + v` (the lowering's `aug_assign_indexed`).
        let view = self.target_view(target, index, value.id, span);
        let vt = self.value(value);
        let Some(view) = view else { return };
        if vt == Ty::Error || view == Ty::Error {
            return;
        }
        if let Some(d) = view.dtype() {
            // A weak literal takes the target's dtype (`x_i32 += 3000000000` is NumPy's OverflowError).
            self.check_int_literal(value, d);
        }
        if let (Ty::Scalar(_), Ty::Array(_, _), true) = (&view, &vt, index.is_empty()) {
            if target.name.starts_with(crate::comprehension::ACCUMULATOR) {
                // `sum(e for ..)` of arrays: the accumulator of `crate::comprehension` is a scalar.
                self.err(
                    Diagnostic::error(
                        "E0303",
                        format!("Python's `sum` of a generator of arrays (each item of type {vt})"),
                        value.span.clone(),
                        format!("has type {vt}"),
                    )
                    .with_note(
                        "arrayc adds the arrays of a generator over constants (a tuple of literals, `range` of \
                         constants: at most 64 items) as one expression; here the items are known only at run time, \
                         and arrayc's accumulator of them is Python's start 0, a scalar",
                    )
                    .with_help(format!(
                        "give Python's sum a start array: `sum([e for ..], {0})`; or add the arrays in a loop: `total = {0}` then `for ..: total += item`, or stack them: `np.sum(np.array([e for ..]), axis=0)`",
                        zeros_of(vt.dtype().unwrap_or(DType::F64), &vt)
                    )),
                );
                // Its uses would only repeat the error (a returned scalar for an array, E0306).
                if let Some(v) = self.lookup_mut(&target.name) {
                    v.ty = Ty::Error;
                }
                return;
            }
        }
        if let (Ty::Scalar(_), Ty::Array(d, _), true) = (&view, &vt, index.is_empty()) {
            self.err(
                Diagnostic::error(
                    "E0303",
                    format!("cannot update the scalar `{}` with an array of type {vt}", target.name),
                    value.span.clone(),
                    format!("has type {vt}"),
                )
                .with_note(format!(
                    "Python rebinds `{0}` to an array here; an arrayc variable keeps the rank it was declared with",
                    target.name
                ))
                .with_help(format!(
                    "declare `{0}` as an array of zeros first: `{0} = {1}`",
                    target.name,
                    zeros_of(*d, &vt)
                )),
            );
            return;
        }
        if index.is_empty() {
            let key = self.lookup(&target.name).and_then(|v| v.py_number);
            self.assign_weak(key, value);
        }
        let r = self.binary(op, (&view, None), (&vt, self.weak_of(value)), span);
        let (Some(td), Some(rd)) = (view.dtype(), r.dtype()) else { return };
        if !same_kind(rd, td) {
            // A Python scalar rebinds (`total = 0` ... `total += v[k]`): [`Checker::widen`].
            // Python's int takes a float operand's dtype (NumPy 2's weak scalar: `h = 1` ...
            // `h *= x_f32` is `float32`).
            let key = self.lookup(&target.name).and_then(|v| v.weak_int);
            if let Some(key) = key.filter(|_| index.is_empty() && rd.is_float() && !r.is_array()) {
                let to = vt.dtype().filter(|d| d.is_float()).unwrap_or(rd);
                if self.request_widening(key, to) {
                    return;
                }
            }
            self.err(
                Diagnostic::error(
                    "E0304",
                    format!(
                        "cannot store the {} result of `{}` into `{}` of type {} in place",
                        rd.name(),
                        super::expr::op_str(op),
                        target.name,
                        view
                    ),
                    span.clone(),
                    format!("result is {}", rd.name()),
                )
                .with_note(format!(
                    "in-place operators need NumPy's same_kind cast from {} to {}",
                    rd.name(),
                    td.name()
                ))
                .with_help(format!(
                    "give `{}` a {} dtype, or cast the value to {}",
                    target.name,
                    rd.name(),
                    td.name()
                )),
            );
            return;
        }
        self.check_fits(&vt, &view, value);
    }

    fn ret(&mut self, values: &[Expr], span: &Span) {
        let expected = self.sigs[self.cur_fn].results.clone();
        let tys: Vec<Ty> = values.iter().map(|v| self.value(v)).collect();
        if values.len() != expected.len() {
            self.err(Diagnostic::error(
                "E0307",
                format!(
                    "this function returns {} value{} but the `return` has {}",
                    expected.len(),
                    if expected.len() == 1 { "" } else { "s" },
                    values.len()
                ),
                span.clone(),
                format!("expected {}", results_str(&expected)),
            ));
            return;
        }
        for (k, ((v, t), e)) in values.iter().zip(&tys).zip(&expected).enumerate() {
            if *t == Ty::Error || *e == Ty::Error {
                continue;
            }
            let ok = match (e, t) {
                // An inferred result `f64[...]` (of a rank-generic function's instance) takes the
                // type of the first `return`; later ones must match it.
                (Ty::AnyRank(da), Ty::Array(db, _)) if da == db => {
                    if let Some(r) = self.sigs.get_mut(self.cur_fn).and_then(|s| s.results.get_mut(k)) {
                        *r = t.clone();
                    }
                    true
                }
                (Ty::Scalar(a), Ty::Scalar(b)) => a == b || weak_of(v).is_some_and(|w| weak_fits(w, *a)),
                (Ty::Array(da, sa), Ty::Array(db, sb)) => {
                    da == db && sa.len() == sb.len() && sa.iter().zip(sb).all(|(x, y)| x.provably_eq(y) != Some(false))
                }
                _ => false,
            };
            if ok {
                if let (Ty::Scalar(_), Some(_)) = (e, weak_of(v)) {
                    self.retype_literal(v, e.clone());
                }
            } else {
                self.error(
                    "E0306",
                    format!("returned value has type {t}, but the function declares {e}"),
                    v.span.clone(),
                    format!("expected {e}"),
                );
            }
        }
    }
}

fn results_str(r: &[Ty]) -> String {
    let v: Vec<String> = r.iter().map(|t| t.to_string()).collect();
    match v.len() {
        0 => "nothing".to_string(),
        1 => v[0].clone(),
        _ => format!("({})", v.join(", ")),
    }
}

/// `zeros((n, m), dtype=d)` of array type `t`'s sizes, the help's spelling of a declaration that
/// gives a scalar variable the array type Python rebinds it to.
fn zeros_of(d: DType, t: &Ty) -> String {
    let sizes: Vec<String> = t.shape().unwrap_or_default().iter().map(|s| s.to_string()).collect();
    let shape = if sizes.len() == 1 { format!("({},)", sizes[0]) } else { format!("({})", sizes.join(", ")) };
    format!("zeros({shape}, dtype={})", d.name())
}

/// E0216 for a NumPy dtype arrayc has not, named as `np.int16` (the name `int16`), `np.int16(v)`
/// (the function `np.int16`) or `dtype="int16"`, `dtype="<i2"` (the names `np.int16`, `np.<i2`:
/// [`crate::syntax::keyword_value`]; [`crate::dtype_queries::foreign`]); `None` for other names.
pub(super) fn missing_dtype(name: &str, span: &crate::ast::Span) -> Option<Diagnostic> {
    let lacks = crate::dtype_queries::foreign(name);
    let name = name.strip_prefix(crate::builtin::QUALIFIED).unwrap_or(name);
    lacks.then(|| {
        Diagnostic::error("E0216", format!("NumPy's dtype `{name}` is not in arrayc"), span.clone(), "no such dtype")
            .with_help(
                "arrayc's dtypes are float64, float32, int64, int32, int16, int8, uint64, uint32, uint16, uint8 \
                 and bool (`np.float64`, `f64`, `dtype=\"float64\"`, ...): take the one whose values hold yours \
                 (`np.float32` for `float16` data; the results then have that dtype)",
            )
    })
}

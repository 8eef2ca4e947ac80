//! Python's `lambda` bound to a name in a function body, `f = lambda x, y: x * y + 1.0;` (or
//! `let f = ...;`, or at module level, [`module_lambdas`]), inlined at each call `f(a, b)` after parsing (`docs/language.md`, "Lambdas").
//!
//! The parser writes `lambda x, y: e` as a call of [`LAMBDA`] whose arguments are the parameters
//! (as variables) and then the body ([`lambda`]). [`lambdas`] drops each binding statement and
//! replaces every later call of the name (in its block and the blocks inside it) by a copy of the
//! body with the arguments in place of the parameters, as Python would compute it:
//!
//! - each argument is evaluated once: a name or a literal is put in place as it is; any other
//!   argument is bound to a fresh name (`lambda.N`, which no program can write) in a statement
//!   just before the call's statement, as [`crate::comprehension`] moves comprehensions. Where the
//!   call is evaluated several times or maybe not at all (a `while` condition, a branch of `a if c
//!   else b`, `and`, `or`, a comprehension's element), the argument is put in place instead when
//!   the body reads the parameter at most once or the argument calls nothing; else E0116.
//! - the names the body reads that are not parameters are read at the call (Python's late
//!   binding: the value they have when `f` is called, not when it was defined).
//! - a body may call other lambdas bound before the call.
//! - a call in a comprehension whose variable has the name of one the body reads (which Python
//!   reads in the function, not in the comprehension) is E0214.
//!
//! Refused: a lambda used as a value (passed as an argument, `sorted(x, key=lambda ..)`,
//! `map(lambda .., x)`, returned, stored, put in a list, its name read other than called, a name
//! bound to a lambda more than once) E0114; a lambda that calls itself E0115; a call with other
//! arguments than the parameters (Python's `TypeError`) or an argument that cannot be evaluated
//! once E0116. The fix each names is a `fn`.

use crate::ast::{Block, Expr, ExprKind, Ident, Program, Span, Stmt};
use crate::call_of_call::CALL;
use crate::diag::Diagnostic;
use crate::syntax::{fresh_copy, mk};
use std::cell::Cell;
use std::collections::HashMap;

/// The name of the call the parser writes for `lambda x, y: e` ([`lambda`]); `lambda` is a
/// keyword, so no program's function has it.
pub const LAMBDA: &str = "lambda";

/// The call the parser writes for `lambda params: body`: the parameters as variables, then the body.
pub fn lambda(ids: &Cell<u32>, params: Vec<Ident>, body: Expr, span: Span) -> Expr {
    let mut args: Vec<Expr> = params
        .into_iter()
        .map(|p| {
            let s = p.span.clone();
            mk(ids, ExprKind::Var(p), s)
        })
        .collect();
    args.push(body);
    let func = Ident { name: LAMBDA.to_string(), span: span.start..span.start + LAMBDA.len() };
    mk(ids, ExprKind::Call { func, args, kwargs: vec![] }, span)
}

/// Whether `e` is a lambda ([`lambda`]).
fn is_lambda(e: &Expr) -> bool {
    matches!(&e.kind, ExprKind::Call { func, .. } if func.name == LAMBDA)
}

/// A lambda bound to a name: its parameters and body.
#[derive(Clone)]
struct Lambda {
    params: Vec<String>,
    body: Expr,
}

/// Python's module-level `f = lambda x: ..;`: a `let` of it at the start of each function that
/// calls `f` (then inlined there as a function's own; the module's names its body reads are the
/// module's constants as the function reads them, [`crate::syntax::module_globals`]), and no
/// longer a constant. Runs before [`crate::syntax::module_globals`].
pub fn module_lambdas(program: &mut Program) {
    let (lambdas, constants): (Vec<_>, Vec<_>) =
        std::mem::take(&mut program.globals).into_iter().partition(|(_, value, _)| is_lambda(value));
    program.globals = constants;
    let ids = Cell::new(program.num_exprs);
    for (name, value, span) in lambdas.iter().rev() {
        for f in &mut program.functions {
            let mut called = false;
            f.for_each_expr_mut(&mut |e| {
                called |= matches!(&e.kind, ExprKind::Call { func, .. } if func.name == name.name);
            });
            if called {
                let value = fresh_copy(&ids, value);
                f.body.stmts.insert(0, Stmt::Let { names: vec![name.clone()], value, span: span.clone() });
            }
        }
    }
    program.num_exprs = ids.get();
}

/// Inlines the calls of every lambda bound to a name (see the module's docs); the errors.
pub fn lambdas(program: &mut Program) -> Vec<Diagnostic> {
    let ids = Cell::new(program.num_exprs);
    let mut diags = Vec::new();
    for f in &mut program.functions {
        for p in &mut f.params {
            if let Some(d) = &mut p.default {
                d.walk_mut(&mut |e| {
                    if is_lambda(e) {
                        diags.push(as_value(&e.span, "a parameter default"));
                    }
                });
            }
        }
        let count = crate::py_lists::binding_counts(&f.body);
        let mut pass = Inline { ids: &ids, count, fresh: 0, shadow: vec![], diags: &mut diags };
        pass.block(&mut f.body, &HashMap::new());
    }
    program.num_exprs = ids.get();
    diags
}

/// E0114: a lambda (or its name) used as a value.
fn as_value(span: &Span, what: &str) -> Diagnostic {
    Diagnostic::error("E0114", "arrayc inlines a lambda at its calls: it cannot be used as a value", span.clone(), what)
        .with_help(
            "bind it to a name once and call it, `f = lambda x: x * 2.0; y = f(v);` (a call on an array applies \
             to every element: `f(v)` for `map(f, v)`), or write a function `fn f(x: f64) -> f64 { return x * 2.0; }`",
        )
}

/// The expressions `e` contains directly.
fn children(e: &mut Expr) -> Vec<&mut Expr> {
    match &mut e.kind {
        ExprKind::Binary(_, a, b) => vec![&mut **a, &mut **b],
        ExprKind::Unary(_, a) => vec![&mut **a],
        ExprKind::Call { args, kwargs, .. } => args.iter_mut().chain(kwargs.iter_mut().map(|(_, a)| a)).collect(),
        ExprKind::Subscript { base, index } => {
            let mut v = vec![&mut **base];
            for ix in index {
                v.extend(ix.exprs_mut());
            }
            v
        }
        ExprKind::Tuple(items) | ExprKind::List(items) => items.iter_mut().collect(),
        ExprKind::IfElse(parts) | ExprKind::BoolOp(_, parts) => parts.iter_mut().collect(),
        _ => vec![],
    }
}

/// `e` with each parameter variable replaced by its argument (not looking into the arguments).
pub(crate) fn substitute(e: &mut Expr, values: &HashMap<String, Expr>) {
    if let ExprKind::Var(v) = &e.kind {
        if let Some(a) = values.get(&v.name) {
            *e = a.clone();
            return;
        }
    }
    for c in children(e) {
        substitute(c, values);
    }
}

/// How many times `e` reads the variable `name`.
fn reads(e: &Expr, name: &str) -> usize {
    let mut n = 0;
    e.clone().walk_mut(&mut |x| {
        if matches!(&x.kind, ExprKind::Var(v) if v.name == name) {
            n += 1;
        }
    });
    n
}

/// Whether `e` calls anything (a copy of it evaluated twice could differ or cost twice).
fn calls(e: &Expr) -> bool {
    let mut any = false;
    e.clone().walk_mut(&mut |x| any |= matches!(x.kind, ExprKind::Call { .. }));
    any
}

/// The state of one function's rewrite.
struct Inline<'a> {
    ids: &'a Cell<u32>,
    /// How many times each name is bound in the function.
    count: HashMap<String, usize>,
    /// The number of argument names made so far (`lambda.N`).
    fresh: usize,
    /// The variables of the comprehensions around the expression being rewritten.
    shadow: Vec<String>,
    diags: &'a mut Vec<Diagnostic>,
}

impl Inline<'_> {
    /// The parameters and body of `value`, a lambda ([`lambda`]); E0114 for a lambda in its body.
    fn of(&mut self, value: &Expr) -> Lambda {
        let ExprKind::Call { args, .. } = &value.kind else { unreachable!("a lambda") };
        let (body, params) = args.split_last().unwrap_or_else(|| unreachable!("a body"));
        let params = params
            .iter()
            .map(|p| match &p.kind {
                ExprKind::Var(v) => v.name.clone(),
                _ => unreachable!("parameters are names"),
            })
            .collect();
        let mut body = body.clone();
        body.walk_mut(&mut |e| {
            if is_lambda(e) {
                self.diags.push(as_value(&e.span, "a lambda in a lambda"));
            }
        });
        Lambda { params, body }
    }

    /// Rewrites the block `b`, where the lambdas `outer` are known.
    fn block(&mut self, b: &mut Block, outer: &HashMap<String, Lambda>) {
        let mut known = outer.clone();
        let mut out = Vec::with_capacity(b.stmts.len());
        for mut s in std::mem::take(&mut b.stmts) {
            let bound = match &s {
                Stmt::Let { names, value, .. } if names.len() == 1 && is_lambda(value) => Some((&names[0], value)),
                Stmt::Assign { name, value, .. } if is_lambda(value) => Some((name, value)),
                _ => None,
            };
            if let Some((name, value)) = bound {
                if self.count.get(&name.name) != Some(&1) {
                    self.diags.push(
                        as_value(&value.span, "a name bound to a lambda and to something else")
                            .with_note(format!("`{}` is bound more than once in this function", name.name)),
                    );
                } else {
                    known.insert(name.name.clone(), self.of(value));
                }
                continue;
            }
            match &mut s {
                Stmt::For { body, .. } | Stmt::While { body, .. } => self.block(body, &known),
                Stmt::If { then_block, else_block, .. } => {
                    self.block(then_block, &known);
                    if let Some(e) = else_block {
                        self.block(e, &known);
                    }
                }
                _ => {}
            }
            // A `while` condition is evaluated at every iteration: nothing moves before it.
            let once = !matches!(s, Stmt::While { .. });
            let mut before = Vec::new();
            for e in s.own_exprs_mut() {
                self.expr(e, &known, once, &mut before, &mut Vec::new());
            }
            out.append(&mut before);
            out.push(s);
        }
        b.stmts = out;
    }

    /// Inlines the calls of the lambdas `known` in `e`; `once`: `e` is evaluated once where its
    /// statement is, so an argument may be bound to a name in `before`; `active`: the lambdas
    /// being inlined around `e`.
    fn expr(
        &mut self,
        e: &mut Expr,
        known: &HashMap<String, Lambda>,
        once: bool,
        before: &mut Vec<Stmt>,
        active: &mut Vec<String>,
    ) {
        match &mut e.kind {
            ExprKind::IfElse(parts) | ExprKind::BoolOp(_, parts) => {
                let [c, a, b] = &mut **parts;
                self.expr(c, known, once, before, active);
                self.expr(a, known, false, before, active);
                self.expr(b, known, false, before, active);
                return;
            }
            ExprKind::Call { func, args, kwargs } if func.name == CALL && args.first().is_some_and(is_lambda) => {
                // `(lambda v: ..)(x)` ([`crate::call_of_call`]): a lambda bound to a fresh name, called.
                let lambda = args.remove(0);
                let name = format!("{LAMBDA}.call.{}", e.id.0);
                let func = Ident { name: name.clone(), span: lambda.span.clone() };
                e.kind = ExprKind::Call { func, args: std::mem::take(args), kwargs: std::mem::take(kwargs) };
                let mut known = known.clone();
                known.insert(name, self.of(&lambda));
                self.expr(e, &known, once, before, active);
                return;
            }
            ExprKind::Call { func, .. } if func.name == LAMBDA => {
                self.diags.push(as_value(&e.span, "a lambda not bound to a name"));
                return;
            }
            ExprKind::Call { func, kwargs, .. } if func.name.starts_with(crate::comprehension::GENERATOR) => {
                let n = self.shadow.len();
                self.shadow.extend(kwargs.iter().map(|(v, _)| v.name.clone()));
                for c in children(e) {
                    self.expr(c, known, false, before, active);
                }
                self.shadow.truncate(n);
                return;
            }
            ExprKind::Var(v) if known.contains_key(&v.name) => {
                self.diags.push(as_value(&e.span, "the name of a lambda, not called"));
                return;
            }
            _ => {}
        }
        for c in children(e) {
            self.expr(c, known, once, before, active);
        }
        let ExprKind::Call { func, args, kwargs } = &mut e.kind else { return };
        let Some(l) = known.get(&func.name) else { return };
        let name = func.name.clone();
        if active.contains(&name) {
            self.diags.push(
                Diagnostic::error(
                    "E0115",
                    format!("the lambda `{name}` calls itself"),
                    e.span.clone(),
                    "a recursive call",
                )
                .with_help(format!(
                    "arrayc inlines a lambda at its calls; write a recursive function `fn {name}(..) -> .. {{ .. }}` \
                         or, better for arrays, a loop"
                )),
            );
            return;
        }
        if let Some(v) = self.shadow.iter().find(|v| !l.params.contains(v) && reads(&l.body, v) > 0) {
            self.diags.push(crate::nested::shadowed(&name, v, &e.span));
            return;
        }
        let Some(values) =
            self.arguments(&name, l, std::mem::take(args), std::mem::take(kwargs), once, before, &e.span)
        else {
            return;
        };
        let mut body = l.body.clone();
        substitute(&mut body, &values);
        let mut body = fresh_copy(self.ids, &body);
        active.push(name);
        self.expr(&mut body, known, once, before, active);
        active.pop();
        *e = body;
    }

    /// The argument of each parameter of the lambda `l` at a call (see the module's docs), or
    /// `None` after an error (E0116).
    #[allow(clippy::too_many_arguments)]
    fn arguments(
        &mut self,
        name: &str,
        l: &Lambda,
        args: Vec<Expr>,
        kwargs: Vec<(Ident, Expr)>,
        once: bool,
        before: &mut Vec<Stmt>,
        span: &Span,
    ) -> Option<HashMap<String, Expr>> {
        let signature = format!("{name}({})", l.params.join(", "));
        let mismatch = |why: String| {
            Diagnostic::error("E0116", format!("the call does not match the lambda `{signature}`"), span.clone(), why)
                .with_note("Python raises TypeError: a lambda takes exactly its parameters, each once")
        };
        if args.len() > l.params.len() {
            self.diags.push(mismatch(format!("{} arguments for {} parameters", args.len(), l.params.len())));
            return None;
        }
        let mut given: Vec<(String, Expr)> = l.params.iter().cloned().zip(args).collect();
        for (k, v) in kwargs {
            if !l.params.contains(&k.name) || given.iter().any(|(p, _)| *p == k.name) {
                self.diags.push(mismatch(format!("the argument `{}` is no parameter, or given twice", k.name)));
                return None;
            }
            given.push((k.name, v));
        }
        if given.len() != l.params.len() {
            let missing: Vec<&str> =
                l.params.iter().filter(|p| !given.iter().any(|(g, _)| g == *p)).map(|p| p.as_str()).collect();
            self.diags.push(mismatch(format!("no argument for `{}`", missing.join("`, `"))));
            return None;
        }
        let mut values = HashMap::new();
        for (p, v) in given {
            let plain = matches!(v.kind, ExprKind::Var(_) | ExprKind::Int(_) | ExprKind::Float(_) | ExprKind::Bool(_));
            let v = if plain {
                v
            } else if once {
                let fresh = Ident { name: format!("{LAMBDA}.{}", self.fresh), span: v.span.clone() };
                self.fresh += 1;
                let s = v.span.clone();
                before.push(Stmt::Let { names: vec![fresh.clone()], value: v, span: s.clone() });
                mk(self.ids, ExprKind::Var(fresh), s)
            } else if reads(&l.body, &p) <= 1 || !calls(&v) {
                v
            } else {
                self.diags.push(
                    Diagnostic::error(
                        "E0116",
                        format!("arrayc cannot evaluate the argument `{p}` of the lambda `{name}` once here"),
                        v.span.clone(),
                        "evaluated at every iteration, or maybe not at all",
                    )
                    .with_help(format!(
                        "bind the argument to a name first, `let t = ..; .. {name}(t) ..`, or write a function `fn {name}(..)`"
                    )),
                );
                return None;
            };
            values.insert(p, v);
        }
        Some(values)
    }
}

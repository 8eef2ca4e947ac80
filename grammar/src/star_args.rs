//! Python's star arguments, `f(*t)` (`docs/language.md`, "Star arguments"): the values of `t` as
//! that many arguments, where the front end knows how many there are.
//!
//! The parser marks `*e` (an argument, an item of a tuple literal) as the call [`STAR`] of `e`
//! ([`star`]); a method call with a star argument (`x.reshape(*s)`, `np.hypot(*g)`) is kept as the
//! call `*.NAME` of its base and arguments ([`defer_method`]), built by
//! [`crate::syntax::method_call`] once the stars are expanded, so that the parser's rewrites of a
//! call (NumPy's positional axis, `np.add(a, b)` as `a + b`) see the arguments written out.
//!
//! [`star_args`] runs after [`crate::tuple_names`] (a name bound to a tuple is then its elements)
//! and expands each `*e` into:
//!
//! - the items of a tuple or list written out (`*(a, b)`, a name bound to a tuple, `*[1, 2]`);
//! - the element names of a call with a known number of results
//!   ([`crate::tuple_names::tuple_len`]: `x.shape` and `np.gradient(x)` of a parameter, the
//!   program's functions with several results, `np.divmod`, `np.meshgrid`, `np.split` of a literal
//!   count), bound by a `let` before the statement (`star.OFFSET.K`);
//! - the rows `a[0], a[1], ..` of an array whose first axis has a length known here (NumPy
//!   iterates an array along axis 0): `np.percentile(x, q)` / `np.quantile` of a list literal `q`
//!   of `k` numbers, a parameter declared with a literal first size (`p: f64[3, n]`).
//!
//! A value evaluated before the statement is evaluated once, as Python evaluates the argument; a
//! call of the program's functions is evaluated before the rest of the statement, so a call of one
//! that writes into a parameter is E0326 (the rest of the statement could see the write). Anything else is
//! E0326, naming the arguments written out (`f(t[0], t[1])`); so is a star inside the branch of a
//! conditional expression or in a `while` condition, whose value a `let` before the statement
//! would compute once or where Python does not.

use crate::ast::{DimExpr, Expr, ExprKind, Function, Ident, Index, Program, Span, Stmt};
use crate::diag::Diagnostic;
use crate::syntax::mk;
use std::cell::Cell;
use std::collections::{HashMap, HashSet};

/// The name of the call that marks a starred argument `*e` (its one argument is `e`).
pub const STAR: &str = "*";

/// The prefix of a method call with star arguments kept for later ([`defer_method`]): `*.reshape`.
const DEFERRED: &str = "*.";

/// `*e` at `span`: the call [`STAR`] of `e`.
pub fn star(ids: &Cell<u32>, e: Expr, span: Span) -> Expr {
    let func = Ident { name: STAR.to_string(), span: span.start..span.start + 1 };
    mk(ids, ExprKind::Call { func, args: vec![e], kwargs: vec![] }, span)
}

/// Whether `e` is a starred argument `*e` ([`star`]).
pub fn is_star(e: &Expr) -> bool {
    matches!(&e.kind, ExprKind::Call { func, args, .. } if func.name == STAR && args.len() == 1)
}

/// Whether the arguments `all` have a star argument ([`star`]).
pub fn has_star(all: &[(Option<Ident>, Expr)]) -> bool {
    all.iter().any(|(k, e)| k.is_none() && is_star(e))
}

/// The method call `base.name(all)` with a star argument ([`has_star`]), kept as the call
/// `*.name` of `base` and the arguments until [`star_args`] expands them.
pub fn defer_method(ids: &Cell<u32>, base: Expr, name: Ident, all: Vec<(Option<Ident>, Expr)>, span: Span) -> Expr {
    let (mut args, kwargs) = crate::syntax::split_args(all);
    args.insert(0, base);
    let func = Ident { name: format!("{DEFERRED}{}", name.name), span: name.span };
    mk(ids, ExprKind::Call { func, args, kwargs }, span)
}

/// Expands every star argument of the program (see the module's docs); returns the errors.
pub fn star_args(program: &mut Program) -> Vec<Diagnostic> {
    let results: HashMap<String, usize> =
        program.functions.iter().map(|f| (f.name.name.clone(), f.results.len())).collect();
    let writers: HashSet<String> =
        program.functions.iter().filter(|f| writes_parameters(f)).map(|f| f.name.name.clone()).collect();
    let ids = Cell::new(program.num_exprs);
    let mut errors = Vec::new();
    for f in &mut program.functions {
        let count = crate::py_lists::binding_counts(&f.body);
        let mut pass = Stars {
            writers: &writers,
            ids: &ids,
            results: &results,
            count,
            ranks: crate::tuple_names::ranks(f),
            rows: first_sizes(f),
            errors: vec![],
        };
        pass.block(&mut f.body);
        // A star where no call or tuple takes it apart (`range(*t)` of a `for`).
        f.for_each_expr_mut(&mut |e| {
            if is_star(e) {
                let ExprKind::Call { args, .. } = &e.kind else { return };
                pass.unknown(&args[0], e.span.clone(), "arrayc takes `*t` apart in a call's arguments and a tuple");
            }
        });
        errors.append(&mut pass.errors);
    }
    program.num_exprs = ids.get();
    errors
}

/// Whether `f` writes into one of its parameters (`x[i] = v;`, `x += v;`), which a call of it
/// evaluated before the rest of its statement could show to that statement.
fn writes_parameters(f: &Function) -> bool {
    fn writes(b: &crate::ast::Block, params: &HashSet<&str>) -> bool {
        b.stmts.iter().any(|s| match s {
            Stmt::SetItem { target, .. } | Stmt::AugAssign { target, .. } => params.contains(target.name.as_str()),
            Stmt::For { body, .. } | Stmt::While { body, .. } => writes(body, params),
            Stmt::If { then_block, else_block, .. } => {
                writes(then_block, params) || else_block.as_ref().is_some_and(|e| writes(e, params))
            }
            _ => false,
        })
    }
    writes(&f.body, &f.params.iter().map(|p| p.name.name.as_str()).collect())
}

/// The literal first size of each parameter declared as an array with one (`p: f64[3, n]` has 3).
fn first_sizes(f: &Function) -> HashMap<String, usize> {
    f.params
        .iter()
        .filter_map(|p| match p.ty.dims.as_deref()?.first()? {
            DimExpr::Lit(k, _) => Some((p.name.name.clone(), usize::try_from(*k).ok()?)),
            _ => None,
        })
        .collect()
}

/// The state of one function's expansion.
struct Stars<'a> {
    ids: &'a Cell<u32>,
    /// The number of results of each of the program's functions.
    results: &'a HashMap<String, usize>,
    /// How many times each name is bound in the function.
    count: HashMap<String, usize>,
    /// The parameters' ranks.
    ranks: HashMap<String, usize>,
    /// The parameters' literal first sizes.
    rows: HashMap<String, usize>,
    /// The program's functions that write into a parameter (`x[i] = v`, `x += v`).
    writers: &'a HashSet<String>,
    errors: Vec<Diagnostic>,
}

/// Where an expression is: whether a `let` before its statement may compute a starred value.
#[derive(Clone, Copy, PartialEq)]
enum At {
    /// Evaluated once, each time its statement runs.
    Once,
    /// In a branch of a conditional expression or a `while` condition.
    Maybe,
}

impl Stars<'_> {
    fn block(&mut self, b: &mut crate::ast::Block) {
        for mut s in std::mem::take(&mut b.stmts) {
            let mut pre = Vec::new();
            let at = if matches!(s, Stmt::While { .. }) { At::Maybe } else { At::Once };
            match &mut s {
                Stmt::Print { args: values, .. } | Stmt::Return { values, .. } => {
                    values.iter_mut().for_each(|e| self.expr(e, at, &mut pre));
                    *values = self.items(std::mem::take(values), at, &mut pre);
                }
                _ => s.own_exprs_mut().into_iter().for_each(|e| self.expr(e, at, &mut pre)),
            }
            match &mut s {
                Stmt::For { body, .. } | Stmt::While { body, .. } => self.block(body),
                Stmt::If { then_block, else_block, .. } => {
                    self.block(then_block);
                    if let Some(e) = else_block {
                        self.block(e);
                    }
                }
                _ => {}
            }
            b.stmts.append(&mut pre);
            b.stmts.push(s);
        }
    }

    /// Expands the stars in `e` and the expressions inside it, inner ones first; the values
    /// computed before the statement go to `pre`.
    fn expr(&mut self, e: &mut Expr, at: At, pre: &mut Vec<Stmt>) {
        match &mut e.kind {
            ExprKind::Binary(_, a, b) => {
                self.expr(a, at, pre);
                self.expr(b, at, pre);
            }
            ExprKind::Unary(_, a) => self.expr(a, at, pre),
            ExprKind::Subscript { base, index } => {
                self.expr(base, at, pre);
                for ix in index {
                    ix.exprs_mut().into_iter().for_each(|e| self.expr(e, at, pre));
                }
            }
            ExprKind::IfElse(parts) | ExprKind::BoolOp(_, parts) => {
                let [c, a, b] = &mut **parts;
                self.expr(c, at, pre);
                self.expr(a, At::Maybe, pre);
                self.expr(b, At::Maybe, pre);
            }
            ExprKind::FString(parts) => {
                for p in parts {
                    if let crate::ast::FPart::Field { value, .. } = p {
                        self.expr(value, at, pre);
                    }
                }
            }
            ExprKind::Tuple(items) | ExprKind::List(items) => {
                items.iter_mut().for_each(|e| self.expr(e, at, pre));
                *items = self.items(std::mem::take(items), at, pre);
            }
            ExprKind::Call { func, args, kwargs } if func.name != STAR => {
                args.iter_mut().for_each(|e| self.expr(e, at, pre));
                kwargs.iter_mut().for_each(|(_, e)| self.expr(e, at, pre));
                if !args.iter().any(is_star) {
                    return;
                }
                *args = self.items(std::mem::take(args), at, pre);
                let Some(method) = func.name.strip_prefix(DEFERRED) else { return };
                let name = Ident { name: method.to_string(), span: func.span.clone() };
                let mut all: Vec<(Option<Ident>, Expr)> = std::mem::take(args).into_iter().map(|a| (None, a)).collect();
                let base = all.remove(0).1;
                all.extend(std::mem::take(kwargs).into_iter().map(|(k, v)| (Some(k), v)));
                match crate::syntax::method_call(self.ids, base, name, all, e.span.clone()) {
                    Ok(call) => *e = call,
                    Err(error) => self.errors.push(crate::parse::user_error(error)),
                }
            }
            // A star's value (the star itself is taken apart by the call or tuple around it).
            ExprKind::Call { args, .. } => self.expr(&mut args[0], at, pre),
            ExprKind::Int(_)
            | ExprKind::Float(_)
            | ExprKind::Bool(_)
            | ExprKind::Str(_)
            | ExprKind::NoneLit
            | ExprKind::Var(_)
            | ExprKind::DTypeName(_) => {}
        }
    }

    /// `items` with each star written out ([`Self::values`]).
    fn items(&mut self, items: Vec<Expr>, at: At, pre: &mut Vec<Stmt>) -> Vec<Expr> {
        let mut out = Vec::with_capacity(items.len());
        for e in items {
            if !is_star(&e) {
                out.push(e);
                continue;
            }
            let span = e.span.clone();
            let ExprKind::Call { mut args, .. } = e.kind else { continue };
            let value = args.remove(0);
            match self.values(value, &span, at, pre) {
                Ok(values) => out.extend(values),
                Err(value) => {
                    let why = if self.writer(&value) {
                        "a call of a function that writes its arguments, which would run before the rest of \
                         the statement: bind its results to names first"
                    } else if at == At::Maybe && self.count_known(&value) {
                        "a value computed once before the statement: bind it to a name first"
                    } else {
                        "the number of values is not known at compile time"
                    };
                    self.unknown(&value, span.clone(), why);
                    // Keeps the tree whole for the errors that follow.
                    out.push(value);
                }
            }
        }
        out
    }

    /// Whether `e` calls one of the program's functions that write their parameters.
    fn writer(&self, e: &Expr) -> bool {
        matches!(&e.kind, ExprKind::Call { func, .. } if self.writers.contains(&func.name))
    }

    /// Whether the front end knows the number of values of `e` computed before the statement.
    fn count_known(&self, e: &Expr) -> bool {
        self.tuple_len(e).is_some() || self.rows_of(e).is_some()
    }

    fn tuple_len(&self, e: &Expr) -> Option<usize> {
        crate::tuple_names::tuple_len(e, self.results, &self.count, &self.ranks)
    }

    /// The length of the first axis of the array `e`, where it is known here: NumPy's percentile
    /// or quantile of a list literal of `k` numbers (`k` values along axis 0, whatever `axis=`).
    fn rows_of(&self, e: &Expr) -> Option<usize> {
        let ExprKind::Call { func, args, kwargs } = &e.kind else { return None };
        let name = func.name.strip_prefix(crate::builtin::QUALIFIED)?;
        if !matches!(name, "percentile" | "quantile" | "nanpercentile" | "nanquantile") {
            return None;
        }
        let q = args.get(1).or_else(|| kwargs.iter().find(|(k, _)| k.name == "q").map(|(_, v)| v))?;
        match &q.kind {
            ExprKind::List(items) if items.iter().all(|i| !matches!(i.kind, ExprKind::List(_))) => Some(items.len()),
            _ => None,
        }
    }

    /// The values of `*value`, or `value` back where their number is not known.
    fn values(&mut self, value: Expr, span: &Span, at: At, pre: &mut Vec<Stmt>) -> Result<Vec<Expr>, Expr> {
        match value.kind {
            ExprKind::Tuple(items) | ExprKind::List(items) => return Ok(items),
            ExprKind::Var(ref x) if !self.count.contains_key(&x.name) => {
                let Some(&k) = self.rows.get(&x.name) else { return Err(value) };
                return Ok((0..k).map(|i| self.row(&value, i, span)).collect());
            }
            _ => {}
        }
        if at == At::Maybe || self.writer(&value) {
            return Err(value);
        }
        let temp = |i: usize| Ident { name: format!("star.{}.{i}", span.start), span: span.clone() };
        if let Some(k) = self.tuple_len(&value) {
            let names: Vec<Ident> = (0..k).map(temp).collect();
            let vars = names.iter().map(|n| mk(self.ids, ExprKind::Var(n.clone()), span.clone())).collect();
            let value = crate::syntax::gradient_per_axis(self.ids, value, k);
            match value.kind {
                ExprKind::Tuple(items) => {
                    for (n, e) in names.into_iter().zip(items) {
                        pre.push(Stmt::Let { names: vec![n], value: e, span: span.clone() });
                    }
                }
                _ => pre.push(Stmt::Let { names, value, span: span.clone() }),
            }
            return Ok(vars);
        }
        if let Some(k) = self.rows_of(&value) {
            let name = temp(k);
            pre.push(Stmt::Let { names: vec![name.clone()], value, span: span.clone() });
            let var = mk(self.ids, ExprKind::Var(name), span.clone());
            return Ok((0..k).map(|i| self.row(&var, i, span)).collect());
        }
        Err(value)
    }

    /// `a[i]` (a row of the array `a`, a name) at `span`.
    fn row(&self, a: &Expr, i: usize, span: &Span) -> Expr {
        let base = crate::syntax::fresh_copy(self.ids, a);
        let index = vec![Index::At(mk(self.ids, ExprKind::Int(i as i64), span.clone()))];
        crate::syntax::subscript(self.ids, base, index, span.clone())
    }

    /// E0326 at the star `span` of `value`.
    fn unknown(&mut self, value: &Expr, span: Span, why: &str) {
        let what = match &value.kind {
            ExprKind::Var(x) => format!("`*{}`", x.name),
            _ => "this `*` argument".to_string(),
        };
        self.errors.push(
            Diagnostic::error("E0326", format!("arrayc cannot unpack {what}: {why}"), span, "unpacked here")
                .with_note(
                    "arrayc writes `*t` out where it knows how many values `t` has: a tuple written out or bound \
                     once to a name, `x.shape` or `np.gradient(x)` of a parameter, a call of the program's \
                     functions with several results, `np.divmod`, `np.meshgrid`, `np.split(x, k)`, \
                     `np.percentile(x, [..])` / `np.quantile` of a list literal, a parameter declared with a \
                     literal first size (`p: f64[3, n]`)",
                )
                .with_help(
                    "write the values out, `f(t[0], t[1])`, or unpack them first, `a, b = t` then `f(a, b)`; \
                     NumPy's `f(*t)` of an array `t` is `f(t[0], t[1], ..)`",
                ),
        );
    }
}

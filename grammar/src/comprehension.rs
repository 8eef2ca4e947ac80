//! Python's comprehensions, `[e for k in it]`, `[e for k in it if c]`, and a generator as the one
//! argument of `sum`, `any` or `all` (`sum(v[k] for k in range(n))`), as loops.
//!
//! The parser writes a comprehension as a call of [`LIST`] or of [`GENERATOR`]`f` whose arguments
//! are the element `e` (and the condition `c`) and whose one keyword argument is the loop variable
//! `k` with the iterable `it` ([`comprehension`]). [`comprehensions`] then moves each out of its
//! statement into statements before it, evaluated once where the statement is (arrayc's
//! expressions have no effects, so only where an error is raised can differ from Python's
//! evaluation order: a comprehension in the branch of `a if c else b` not taken is evaluated
//! too), and leaves a variable in its place:
//!
//! * `sum(e for k in it if c)`: `let gen.S = 0; for k in it { if c { gen.S += e; } }` (Python's
//!   sum starts at the integer 0, which a float element widens, as Python's rebinding does:
//!   [`crate::check`]'s `widen`); `sum` of a list comprehension is the same, Python's sum of a
//!   list. Over constants it is unrolled instead, `0 + e1 + e2 + ..` ([`crate::unroll`]), so its
//!   items may be arrays. `any`/`all`: `gen.S = gen.S or bool(e)` from `False` (`and`, from `True`).
//! * `max(e for k in it if c)` (`min`): the list `[e for k in it if c]`, then Python's `max(acc,
//!   item)` over its items from the first (ties and NaN as Python's); no item is a run-time error.
//! * `[e for k in it if c]`, an array as NumPy's `np.array([...])`: the number of items `n`
//!   (`len(range(a, b, s))`, `len(x)` of an array; with a condition or several clauses a counting
//!   loop, `sum(1 for ..)`: a size known only at run time, an existential size in Robinson et al.
//!   2014, Sec. 3), an array of `n` copies of `e` at the first items (its dtype and shape: `e` of
//!   any rank), then the loops writing item `i` of it. An empty `it` of one clause without a
//!   condition is a run-time error (an `assert`): arrayc takes the result's dtype and shape from an
//!   element, and NumPy's `np.array([])` is `float64`; an empty result of a condition has the
//!   elements' dtype (NumPy's: `float64`).
//! * Several clauses nest as Python's, the first outermost; each clause's condition guards the
//!   loops inside it.
//!
//! Not here (E0111): a comprehension in a `while` condition (evaluated at every iteration) or a
//! parameter default, a generator given to another function. Several names in a clause
//! (`for i, v in enumerate(x)`) are one counter's ([`crate::comprehension_targets`]).

use crate::ast::{BinOp, Block, BoolOp, Expr, ExprKind, Function, Ident, Index, Program, Span, Stmt};
use crate::builtin::qualified;
use crate::diag::Diagnostic;
use crate::syntax::{for_in, fresh_copy, mk};
use std::cell::Cell;

/// The name of a list comprehension's call ([`comprehension`]).
pub const LIST: &str = "comprehension.list";
/// The prefix of the name of a generator's accumulator (`gen.OFFSET.ID`), which the checker's
/// E0303 recognises (Python's `sum` of arrays).
pub const ACCUMULATOR: &str = "gen.";
/// The name the parser gives a parenthesised generator, `(e for k in it)`: its call is
/// `comprehension.generator`, lowered only as the first argument of Python's `sum`
/// ([`sum_of_list`]; elsewhere E0111).
pub const PAREN_GENERATOR: &str = "generator";
/// The prefix of a generator's call: `comprehension.sum` is `sum(e for k in it)`.
pub const GENERATOR: &str = "comprehension.";

/// One `for var in it if cond` clause.
pub(crate) struct Clause {
    /// The loop variable.
    pub(crate) var: Ident,
    /// The iterable.
    pub(crate) it: Expr,
    /// The condition, where there is one.
    pub(crate) cond: Option<Expr>,
}

/// The call the parser writes for `[e for k in it if c ...]` (`func`: `None`) or `func(e for k in
/// it if c ...)`: arguments the element, then each clause's condition (`true` where it has none);
/// keyword arguments each clause's variable with its iterable.
/// A clause with several names (`for i, v in enumerate(x)`) is first one counter's
/// ([`crate::comprehension_targets`]); its error where it iterates neither `enumerate` nor `zip`.
pub fn comprehension(
    ids: &Cell<u32>,
    func: Option<Ident>,
    mut elt: Expr,
    clauses: Vec<crate::comprehension_targets::ParsedClause>,
    span: Span,
) -> Result<Expr, crate::lexer::LexError> {
    let clauses = crate::comprehension_targets::index_clauses(ids, &mut elt, clauses)?;
    let name = match &func {
        None => LIST.to_string(),
        Some(f) => format!("{GENERATOR}{}", f.name),
    };
    let at = func.map_or(span.start..span.start + 1, |f| f.span);
    let mut args = vec![elt];
    let mut kwargs = Vec::new();
    for (var, it, cond) in clauses {
        let it = crate::syntax::iterable(ids, it)?;
        args.push(cond.unwrap_or_else(|| mk(ids, ExprKind::Bool(true), it.span.clone())));
        kwargs.push((var, it));
    }
    Ok(mk(ids, ExprKind::Call { func: Ident { name, span: at }, args, kwargs }, span))
}

/// The element and clauses of a comprehension's call ([`comprehension`]).
fn parts(args: Vec<Expr>, kwargs: Vec<(Ident, Expr)>) -> (Expr, Vec<Clause>) {
    let mut args = args.into_iter();
    let elt = args.next().unwrap_or_else(|| unreachable!("an element"));
    let clauses = kwargs
        .into_iter()
        .zip(args)
        .map(|((var, it), cond)| Clause { var, it, cond: (!matches!(cond.kind, ExprKind::Bool(true))).then_some(cond) })
        .collect();
    (elt, clauses)
}

/// Whether `e` is a comprehension's call ([`comprehension`]).
fn is_comprehension(e: &Expr) -> bool {
    matches!(&e.kind, ExprKind::Call { func, .. } if func.name.starts_with(GENERATOR))
}

/// Moves every comprehension of `program` into statements before its statement (see the module
/// docs); the errors (E0111) of those that cannot be.
pub fn comprehensions(program: &mut Program) -> Vec<Diagnostic> {
    let ids = Cell::new(program.num_exprs);
    let mut diags = Vec::new();
    for f in &mut program.functions {
        defaults(f, &mut diags);
        hoist_block(&ids, &mut f.body, &mut diags);
    }
    program.num_exprs = ids.get();
    diags
}

fn defaults(f: &mut Function, diags: &mut Vec<Diagnostic>) {
    for p in &mut f.params {
        if let Some(d) = &mut p.default {
            d.walk_mut(&mut |e| {
                if is_comprehension(e) {
                    diags.push(refused(e, "a parameter default is a literal"));
                }
            });
        }
    }
}

fn refused(e: &Expr, why: &str) -> Diagnostic {
    let help = match &e.kind {
        ExprKind::Call { func, .. } if func.name != LIST && !func.name.ends_with(PAREN_GENERATOR) => {
            let f = func.name.strip_prefix(GENERATOR).unwrap_or(&func.name);
            format!("make an array of the items first: `{f}(np.array([e for k in it]))` (NumPy's `{f}` of an array)")
        }
        _ => "compute it into a variable first: `let items = np.array([e for k in range(n)]);`".to_string(),
    };
    Diagnostic::error("E0111", "arrayc cannot evaluate this comprehension here", e.span.clone(), why.to_string())
        .with_help(help)
}

fn hoist_block(ids: &Cell<u32>, b: &mut Block, diags: &mut Vec<Diagnostic>) {
    let mut out = Vec::with_capacity(b.stmts.len());
    for mut s in std::mem::take(&mut b.stmts) {
        match &mut s {
            Stmt::For { body, .. } => hoist_block(ids, body, diags),
            Stmt::While { cond, body, .. } => {
                cond.walk_mut(&mut |e| {
                    if is_comprehension(e) {
                        diags.push(refused(e, "a `while` condition is evaluated at every iteration"));
                    }
                });
                hoist_block(ids, body, diags);
            }
            Stmt::If { then_block, else_block, .. } => {
                hoist_block(ids, then_block, diags);
                if let Some(e) = else_block {
                    hoist_block(ids, e, diags);
                }
            }
            _ => {}
        }
        // A `while` condition's were refused above.
        let own = if matches!(s, Stmt::While { .. }) { vec![] } else { s.own_exprs_mut() };
        for e in own {
            e.walk_mut(&mut |e| {
                sum_of_list(e);
                if is_comprehension(e) {
                    lower(ids, e, &mut out, diags);
                }
            });
        }
        out.push(s);
    }
    b.stmts = out;
}

/// The name of the call of `sum([e for k in it], start)` ([`sum_of_list`]).
const SUM_FROM: &str = "comprehension.sum_from";

/// `sum([e for k in it])`, Python's sum of a list, as `sum(e for k in it)`; `sum([..], start)`
/// (`start=s` too) as [`SUM_FROM`], the start its last argument; a parenthesised generator
/// (`sum((e for k in it), start)`) as the list.
fn sum_of_list(e: &mut Expr) {
    let ExprKind::Call { func, args, kwargs } = &mut e.kind else { return };
    // `any((e for ..))` (`all`, `max`, `min`) is `any(e for ..)`.
    let paren = format!("{GENERATOR}{PAREN_GENERATOR}");
    if matches!(func.name.as_str(), "any" | "all" | "max" | "min") && args.len() == 1 && kwargs.is_empty() {
        if let ExprKind::Call { func: inner, .. } = &mut args[0].kind {
            if inner.name == paren {
                inner.name = format!("{GENERATOR}{}", func.name);
                *e = args.pop().unwrap_or_else(|| unreachable!("one argument"));
            }
        }
        return;
    }
    let arity = match (args.len(), kwargs.as_slice()) {
        (1 | 2, []) => true,
        (1, [(k, _)]) => k.name == "start",
        _ => false,
    };
    let of_list = matches!(args.first().map(|a| &a.kind),
        Some(ExprKind::Call { func: inner, .. }) if inner.name == LIST || inner.name == paren);
    if func.name != "sum" || !arity || !of_list {
        return;
    }
    let start = if args.len() == 2 { args.pop() } else { kwargs.pop().map(|(_, s)| s) };
    let ExprKind::Call { args: items, kwargs: var, .. } = &mut args[0].kind else { return };
    let (mut items, var) = (std::mem::take(items), std::mem::take(var));
    let name = if start.is_some() { SUM_FROM.to_string() } else { format!("{GENERATOR}sum") };
    items.extend(start);
    *func = Ident { name, span: func.span.clone() };
    *args = items;
    *kwargs = var;
}

/// Replaces the comprehension `e` by a variable that statements pushed on `out` compute.
fn lower(ids: &Cell<u32>, e: &mut Expr, out: &mut Vec<Stmt>, diags: &mut Vec<Diagnostic>) {
    let at = e.span.clone();
    let ExprKind::Call { func, mut args, kwargs } = std::mem::replace(&mut e.kind, ExprKind::Int(0)) else {
        unreachable!("is_comprehension")
    };
    // `sum([..], start)` ([`sum_of_list`]): the start is the last argument.
    let start = if func.name == SUM_FROM { args.pop() } else { None };
    let (elt, mut clauses) = parts(args, kwargs);
    // The first iterable is evaluated once, before the loops: its own comprehensions go before.
    clauses[0].it.walk_mut(&mut |x| {
        sum_of_list(x);
        if is_comprehension(x) {
            lower(ids, x, out, diags);
        }
    });
    let kind = func.name.strip_prefix(GENERATOR).unwrap_or_default().to_string();
    match kind.as_str() {
        "sum" | "sum_from" => match crate::unroll::unrolled_sum(ids, &elt, &clauses, start.clone(), &at) {
            // Its own comprehensions are lowered as the walk goes on into it.
            Some(total) => *e = total,
            None => {
                let acc = match start {
                    Some(start) => sum_from(ids, start, elt, clauses, &at, out, diags),
                    None => lower_reduction(ids, &kind, elt, clauses, &at, out, diags),
                };
                e.kind = ExprKind::Var(acc);
            }
        },
        "any" | "all" => {
            let acc = lower_reduction(ids, &kind, elt, clauses, &at, out, diags);
            e.kind = ExprKind::Var(acc);
        }
        "list" => {
            let acc = lower_list(ids, elt, clauses, &at, out, diags);
            e.kind = ExprKind::Var(acc);
        }
        "max" | "min" => {
            let items = lower_list(ids, elt, clauses, &at, out, diags);
            e.kind = ExprKind::Var(python_extreme(ids, &kind, items, &at, out));
        }
        _ => {
            e.kind = ExprKind::Call { func, args: vec![], kwargs: vec![] };
            diags.push(refused(
                e,
                "arrayc takes a generator only as the argument of `sum`, `any`, `all`, `max` or `min`",
            ));
            e.kind = ExprKind::Int(0);
        }
    }
}

/// `[elt for .. in .. if ..]` on `out`: the number of items `n` (of one unconditional `range` or
/// array: its length; else a counting loop, `sum(1 for ..)`), `n` copies of `elt` at the first
/// items (its dtype and shape), then the loops writing item `i` of it; the array's name.
fn lower_list(
    ids: &Cell<u32>,
    elt: Expr,
    mut clauses: Vec<Clause>,
    at: &Span,
    out: &mut Vec<Stmt>,
    diags: &mut Vec<Diagnostic>,
) -> Ident {
    let name = |what: &str| Ident { name: format!("{what}.{}", at.start), span: at.clone() };
    let var_of = |ids: &Cell<u32>, n: &Ident| mk(ids, ExprKind::Var(n.clone()), at.clone());
    let call = |ids: &Cell<u32>, f: &str, args: Vec<Expr>| {
        mk(
            ids,
            ExprKind::Call { func: Ident { name: qualified(f), span: at.clone() }, args, kwargs: vec![] },
            at.clone(),
        )
    };
    let int = |ids: &Cell<u32>, v: i64| mk(ids, ExprKind::Int(v), at.clone());
    let (acc, count, pos) = (name("lc"), name("lc.n"), name("lc.i"));
    // One unconditional clause over an array: the array once, into `lc.it`.
    let simple = clauses.len() == 1 && clauses[0].cond.is_none();
    let range_args = |c: &Clause| match &c.it.kind {
        ExprKind::Call { func, args, kwargs } if func.name == "range" && kwargs.is_empty() => Some(args.clone()),
        _ => None,
    };
    if simple && range_args(&clauses[0]).is_none() {
        let arr = name("lc.it");
        let it = std::mem::replace(&mut clauses[0].it, var_of(ids, &arr));
        out.push(Stmt::Let { names: vec![arr], value: it, span: at.clone() });
    }
    let n = match (simple, range_args(&clauses[0])) {
        (true, Some(args)) => range_count(ids, &args, at),
        (true, None) => call(ids, "len", vec![fresh_copy(ids, &clauses[0].it)]),
        (false, _) => {
            // `sum(1 for ..)` over copies of the clauses.
            let copies = clauses
                .iter()
                .map(|c| Clause {
                    var: c.var.clone(),
                    it: fresh_copy(ids, &c.it),
                    cond: c.cond.as_ref().map(|x| fresh_copy(ids, x)),
                })
                .collect();
            let counted = lower_reduction(ids, "sum", int(ids, 1), copies, at, out, diags);
            var_of(ids, &counted)
        }
    };
    out.push(Stmt::Let { names: vec![count.clone()], value: n, span: at.clone() });
    if simple {
        let nonempty =
            mk(ids, ExprKind::Binary(BinOp::Gt, Box::new(var_of(ids, &count)), Box::new(int(ids, 0))), at.clone());
        let msg = "a list comprehension over nothing: arrayc takes the array's dtype and shape from an element (NumPy's `np.array([])` is float64); give the empty case its own branch";
        out.push(Stmt::Assert { cond: nonempty, msg: Some(msg.to_string()), span: at.clone() });
    }
    // The first items, each clause's from the ones before (a `Var` in their place cannot be
    // substituted again), then `n` copies of the element there:
    // `repeat(expand_dims(array(e0), 0), n, axis=0)`, any rank.
    let mut firsts: Vec<(String, Ident)> = Vec::new();
    for (k, c) in clauses.iter().enumerate() {
        let mut it = fresh_copy(ids, &c.it);
        for (v, first) in &firsts {
            it = substitute(ids, &it, v, first);
        }
        let first = match range_args(c) {
            Some(args) => {
                let it_args = match it.kind {
                    ExprKind::Call { args, .. } => args,
                    _ => args,
                };
                range_start(ids, &it_args, at)
            }
            None => {
                mk(ids, ExprKind::Subscript { base: Box::new(it), index: vec![Index::At(int(ids, 0))] }, at.clone())
            }
        };
        let item = name(&format!("lc.first{k}"));
        out.push(Stmt::Let { names: vec![item.clone()], value: first, span: at.clone() });
        firsts.push((c.var.name.clone(), item));
    }
    let mut e0 = fresh_copy(ids, &elt);
    for (v, first) in &firsts {
        e0 = substitute(ids, &e0, v, first);
    }
    let axis0 = |ids: &Cell<u32>| (Ident { name: "axis".to_string(), span: at.clone() }, int(ids, 0));
    let mut expand = call(ids, "expand_dims", vec![call(ids, "array", vec![e0])]);
    if let ExprKind::Call { kwargs, .. } = &mut expand.kind {
        kwargs.push(axis0(ids));
    }
    let mut rows = call(ids, "repeat", vec![expand, var_of(ids, &count)]);
    if let ExprKind::Call { kwargs, .. } = &mut rows.kind {
        kwargs.push(axis0(ids));
    }
    // The element's own comprehensions (`[sum(.. for j ..) for i ..]`) go before.
    let mut alloc =
        Block { stmts: vec![Stmt::Let { names: vec![acc.clone()], value: rows, span: at.clone() }], span: at.clone() };
    hoist_block(ids, &mut alloc, diags);
    out.extend(alloc.stmts);
    out.push(Stmt::Let { names: vec![pos.clone()], value: int(ids, 0), span: at.clone() });
    let write = vec![
        Stmt::SetItem { target: acc.clone(), index: vec![Index::At(var_of(ids, &pos))], value: elt, span: at.clone() },
        Stmt::AugAssign { target: pos, index: vec![], op: BinOp::Add, value: int(ids, 1), span: at.clone() },
    ];
    push_loops(ids, clauses, write, at, out, diags);
    acc
}

/// Python's `max(e for ..)` (`min`) of the list `items` ([`lower_list`]) on `out`: its first item,
/// then Python's two-argument `max(acc, item)` of each later one ([`crate::builtin::python_min_max`]:
/// the first of equal or unordered items is kept, so NaN and ties resolve as Python's do; an array
/// item is its E0318). No item is a run-time error, Python's ValueError. The accumulator's name.
fn python_extreme(ids: &Cell<u32>, kind: &str, items: Ident, at: &Span, out: &mut Vec<Stmt>) -> Ident {
    let var_of = |ids: &Cell<u32>, n: &Ident| mk(ids, ExprKind::Var(n.clone()), at.clone());
    let int = |ids: &Cell<u32>, v: i64| mk(ids, ExprKind::Int(v), at.clone());
    let len = |ids: &Cell<u32>| {
        let func = Ident { name: qualified("len"), span: at.clone() };
        mk(ids, ExprKind::Call { func, args: vec![var_of(ids, &items)], kwargs: vec![] }, at.clone())
    };
    let item = |ids: &Cell<u32>, k: Expr| {
        mk(ids, ExprKind::Subscript { base: Box::new(var_of(ids, &items)), index: vec![Index::At(k)] }, at.clone())
    };
    let (acc, k) = (
        Ident { name: format!("{ACCUMULATOR}{}.{kind}", at.start), span: at.clone() },
        Ident { name: format!("{ACCUMULATOR}{}.k", at.start), span: at.clone() },
    );
    let nonempty = mk(ids, ExprKind::Binary(BinOp::Gt, Box::new(len(ids)), Box::new(int(ids, 0))), at.clone());
    let msg = format!("{kind}() arg is an empty sequence (Python's ValueError)");
    out.push(Stmt::Assert { cond: nonempty, msg: Some(msg), span: at.clone() });
    let first = item(ids, int(ids, 0));
    out.push(Stmt::Let { names: vec![acc.clone()], value: first, span: at.clone() });
    let func = Ident { name: kind.to_string(), span: at.clone() };
    let next = item(ids, var_of(ids, &k));
    let value = mk(ids, ExprKind::Call { func, args: vec![var_of(ids, &acc), next], kwargs: vec![] }, at.clone());
    let body = Block { stmts: vec![Stmt::Assign { name: acc.clone(), value, span: at.clone() }], span: at.clone() };
    out.push(Stmt::For { var: k, start: int(ids, 1), end: len(ids), step: None, body, span: at.clone() });
    acc
}

/// A fresh accumulator's name for a reduction written at `at`.
fn accumulator(ids: &Cell<u32>, at: &Span) -> Ident {
    Ident { name: format!("{ACCUMULATOR}{}.{}", at.start, ids.get()), span: at.clone() }
}

/// Python's `sum([elt for ..], start)` over the clauses on `out`: `let acc = start;` then `acc =
/// acc + elt` in the loops (a new array at each item, as Python's `+`: `start` is not written);
/// the accumulator's name.
fn sum_from(
    ids: &Cell<u32>,
    start: Expr,
    elt: Expr,
    clauses: Vec<Clause>,
    at: &Span,
    out: &mut Vec<Stmt>,
    diags: &mut Vec<Diagnostic>,
) -> Ident {
    let acc = accumulator(ids, at);
    out.push(Stmt::Let { names: vec![acc.clone()], value: start, span: at.clone() });
    let before = mk(ids, ExprKind::Var(acc.clone()), at.clone());
    let value = mk(ids, ExprKind::Binary(BinOp::Add, Box::new(before), Box::new(elt)), at.clone());
    push_loops(ids, clauses, vec![Stmt::Assign { name: acc.clone(), value, span: at.clone() }], at, out, diags);
    acc
}

/// `sum`/`any`/`all` of `elt` over the clauses on `out`: an accumulator, the loops; its name.
fn lower_reduction(
    ids: &Cell<u32>,
    kind: &str,
    elt: Expr,
    clauses: Vec<Clause>,
    at: &Span,
    out: &mut Vec<Stmt>,
    diags: &mut Vec<Diagnostic>,
) -> Ident {
    let acc = accumulator(ids, at);
    let (init, update) = match kind {
        "sum" => (
            mk(ids, ExprKind::Int(0), at.clone()),
            Stmt::AugAssign { target: acc.clone(), index: vec![], op: BinOp::Add, value: elt, span: at.clone() },
        ),
        _ => {
            let op = if kind == "any" { BoolOp::Or } else { BoolOp::And };
            let bool_name = Ident { name: "bool".to_string(), span: at.clone() };
            let truth = mk(ids, ExprKind::Call { func: bool_name, args: vec![elt], kwargs: vec![] }, at.clone());
            let before = mk(ids, ExprKind::Var(acc.clone()), at.clone());
            let value = crate::syntax::bool_op(ids, op, before, Some(truth), at.clone());
            (
                mk(ids, ExprKind::Bool(kind == "all"), at.clone()),
                Stmt::Assign { name: acc.clone(), value, span: at.clone() },
            )
        }
    };
    out.push(Stmt::Let { names: vec![acc.clone()], value: init, span: at.clone() });
    push_loops(ids, clauses, vec![update], at, out, diags);
    acc
}

/// The nested loops of `clauses` (the first outermost), each body inside its clause's condition,
/// `body` innermost, on `out`; their own comprehensions (in the element, the conditions, the inner
/// iterables) moved into their bodies.
fn push_loops(
    ids: &Cell<u32>,
    clauses: Vec<Clause>,
    body: Vec<Stmt>,
    at: &Span,
    out: &mut Vec<Stmt>,
    diags: &mut Vec<Diagnostic>,
) {
    let mut body = body;
    for c in clauses.into_iter().rev() {
        let inner = Block { stmts: guarded(body, c.cond, at), span: at.clone() };
        body = match for_in(ids, c.var, c.it, inner, at.clone()) {
            Ok(stmts) => stmts,
            Err(err) => {
                diags.push(Diagnostic::error("E0105", err.to_string(), err.span(), "not a loop arrayc has"));
                return;
            }
        };
    }
    let mut block = Block { stmts: body, span: at.clone() };
    hoist_block(ids, &mut block, diags);
    out.extend(block.stmts);
}

/// `stmts`, inside `if cond { .. }` where there is a condition.
fn guarded(stmts: Vec<Stmt>, cond: Option<Expr>, at: &Span) -> Vec<Stmt> {
    match cond {
        None => stmts,
        Some(cond) => {
            vec![Stmt::If { cond, then_block: Block { stmts, span: at.clone() }, else_block: None, span: at.clone() }]
        }
    }
}

/// `len(range(args))`, Python's `max(0, ceil((stop - start) / step))`; `args` as `range`'s (1 to
/// 3; others are E0105 when the loop is made).
fn range_count(ids: &Cell<u32>, args: &[Expr], at: &Span) -> Expr {
    let int = |v: i64| mk(ids, ExprKind::Int(v), at.clone());
    let copy = |e: &Expr| fresh_copy(ids, e);
    let bin = |op: BinOp, a: Expr, b: Expr| mk(ids, ExprKind::Binary(op, Box::new(a), Box::new(b)), at.clone());
    let (start, stop) = match args {
        [stop] => (int(0), copy(stop)),
        [start, stop, ..] => (copy(start), copy(stop)),
        [] => (int(0), int(0)),
    };
    let span = bin(BinOp::Sub, stop, start);
    let count = match args.get(2) {
        None => span,
        Some(step) => {
            // `(stop - start + step - sign(step)) // step`, the sign a literal's or `1 if step > 0 else -1`.
            let sign = match crate::check::builtins::literal_int(step) {
                Some(s) => int(s.signum()),
                None => {
                    let positive = bin(BinOp::Gt, copy(step), int(0));
                    mk(ids, ExprKind::IfElse(Box::new([positive, int(1), int(-1)])), at.clone())
                }
            };
            let num = bin(BinOp::Sub, bin(BinOp::Add, span, copy(step)), sign);
            bin(BinOp::FloorDiv, num, copy(step))
        }
    };
    mk(
        ids,
        ExprKind::Call {
            func: Ident { name: qualified("maximum"), span: at.clone() },
            args: vec![count, int(0)],
            kwargs: vec![],
        },
        at.clone(),
    )
}

/// The first item of `range(args)`: `start`, or 0 for `range(stop)`.
fn range_start(ids: &Cell<u32>, args: &[Expr], at: &Span) -> Expr {
    match args {
        [_] | [] => mk(ids, ExprKind::Int(0), at.clone()),
        [start, ..] => fresh_copy(ids, start),
    }
}

/// A copy of `e` (fresh ids) in which the variable `name` is the variable `value`.
fn substitute(ids: &Cell<u32>, e: &Expr, name: &str, value: &Ident) -> Expr {
    let mut c = fresh_copy(ids, e);
    c.walk_mut(&mut |x| {
        if matches!(&x.kind, ExprKind::Var(v) if v.name == name) {
            x.kind = ExprKind::Var(value.clone());
        }
    });
    c
}

//! Python lists in NumPy programs, rewritten after parsing (`docs/language.md`, "Array
//! literals"): a list literal is an array (NumPy's `np.array` of it; a list of same-shape arrays
//! is their `stack`, `crate::check::literals`), so the list operations NumPy programs use become
//! array operations:
//!
//! - Python's builtin `sum(list)` adds the list's items, `a + b + c` for a list of arrays: the
//!   bare call `sum(L)` of a list literal `L`, or of a name bound once to one (`let parts = [..];
//!   sum(parts)`), is `sum(L, axis=0)`, the sum along the stacking axis (for a list of scalars,
//!   the same total as NumPy's `np.sum`). A literal of literals (`sum([[1, 2], [3, 4]])`, which
//!   Python's `sum` rejects) stays NumPy's total.
//! - `x.item()` (NumPy's: the one element of an array of size 1 as a scalar, else ValueError) is
//!   `reshape(x, 1)[0]`: the size is checked as a reshape's is (E0412 when known, else at run time,
//!   naming the line); of a scalar (`v.sum().item()`), the scalar. [`item`], called by
//!   `syntax::method_call`.
//! - `x.tolist()` (a Python list of `x`'s items) is `x` itself where the list is only iterated or
//!   reduced: iterated by a `for` (`for t in v.tolist()`, in `enumerate`/`zip` too), or the one
//!   argument of `sum` (Python's, as of a list literal: `sum(x, axis=0)`), `np.sum`, `len`, `min`, `max`, `any`, `all`,
//!   `array` or `asarray`. Anywhere else it stays the method call `.tolist`, E0207 naming these
//!   ways.
//! - `x.flat` (NumPy's flat iterator, read: `x.flat[k]`, `for t in x.flat`) is `ravel(x)`
//!   (`syntax::attribute`); writing through it (`x.flat[k] = v`) is not parsed (write
//!   `x[unravel_index(..)]` or into `ravel(x)` of a row-major `x`).
//! - Python's `range(..)` as a value (`x[range(n), j]`, `np.array(range(5))`) is the list
//!   `[k for k in range(..)]` ([`range_values`]).
//! - A list grown in one loop, `let out = []; for t in it { if c { out.append(e); } }` (the `if`
//!   optional; `it` an array or `range(..)`), is the list comprehension `let out = [e for t in it
//!   if c];` ([`appended_lists`], before `crate::comprehension` lowers it: a counting loop, then
//!   a filling loop). Of an unconditional `for k in range(..)` of integer literals, NumPy's joins
//!   of the list (`np.vstack(out)`, `hstack`, `stack`, `concatenate`, `column_stack`, `dstack`)
//!   take the tuple of its items ([`joins_of_list`]). A list appended to in loops that do other
//!   work is `crate::grown_lists`'s, which runs after this.

use crate::ast::{Block, Expr, ExprKind, Function, Ident, Program, Stmt};
use crate::ast::{Index, Span};
use crate::builtin::qualified;
use crate::syntax::{is_synthesized, mk};
use std::cell::Cell;
use std::collections::{HashMap, HashSet};

/// Rewrites every function's Python list idioms (see the module's docs). Runs after
/// `syntax::bare_calls` (a program's own function named `sum` keeps its calls).
pub fn python_lists(program: &mut Program) {
    let own: HashSet<String> = program.functions.iter().map(|f| f.name.name.clone()).collect();
    if own.contains("sum") {
        return;
    }
    let ids = Cell::new(program.num_exprs);
    for f in &mut program.functions {
        tolist_iterated(&mut f.body);
        python_sum(&ids, f);
        f.for_each_expr_mut(&mut tolist_reduced);
    }
    program.num_exprs = ids.get();
}

/// Whether `e` is a list literal none of whose items is a list literal (a list of scalars or of
/// arrays, not a nested literal).
fn flat_list(e: &Expr) -> bool {
    matches!(&e.kind, ExprKind::List(items) if !items.iter().any(|it| matches!(it.kind, ExprKind::List(_))))
}

/// How many times each name is bound in `b` ([`bindings`]).
pub(crate) fn binding_counts(b: &Block) -> HashMap<String, usize> {
    let mut count = HashMap::new();
    bindings(b, &mut count, &mut HashMap::new(), |_| false);
    count
}

/// How many times each name other than a parameter is bound in `f`'s body ([`bindings`]): the
/// names a pass may take as bound once to what it rewrites (a parameter's value is the caller's).
pub(crate) fn local_binding_counts(f: &crate::ast::Function) -> HashMap<String, usize> {
    let mut count = binding_counts(&f.body);
    for p in &f.params {
        count.remove(&p.name.name);
    }
    count
}

/// Counts the bindings of each name in `b` (`let`, assignment, `for` variable); `lists` gets the
/// names a `let` binds to a value `pick` accepts ([`flat_list`] for Python's `sum`), with that
/// value (the last one, for a name bound several times).
pub(crate) fn bindings(
    b: &Block,
    count: &mut HashMap<String, usize>,
    lists: &mut HashMap<String, Expr>,
    pick: fn(&Expr) -> bool,
) {
    for s in &b.stmts {
        match s {
            Stmt::Let { names, value, .. } => {
                for n in names {
                    *count.entry(n.name.clone()).or_default() += 1;
                }
                if let [n] = names.as_slice() {
                    if pick(value) {
                        lists.insert(n.name.clone(), value.clone());
                    }
                }
            }
            Stmt::Assign { name, .. } => *count.entry(name.name.clone()).or_default() += 1,
            Stmt::For { var, body, .. } => {
                *count.entry(var.name.clone()).or_default() += 1;
                bindings(body, count, lists, pick);
            }
            Stmt::While { body, .. } => bindings(body, count, lists, pick),
            Stmt::If { then_block, else_block, .. } => {
                bindings(then_block, count, lists, pick);
                if let Some(e) = else_block {
                    bindings(e, count, lists, pick);
                }
            }
            _ => {}
        }
    }
}

/// Python's `sum(list)` in `f`: `sum(L, axis=0)` (see the module's docs).
fn python_sum(ids: &Cell<u32>, f: &mut Function) {
    let mut count = HashMap::new();
    let mut lists = HashMap::new();
    bindings(&f.body, &mut count, &mut lists, flat_list);
    for p in &f.params {
        lists.remove(&p.name.name);
    }
    lists.retain(|n, _| count.get(n) == Some(&1));
    f.for_each_expr_mut(&mut |e| {
        let ExprKind::Call { func, args, kwargs } = &mut e.kind else { return };
        if func.name != "sum" || args.len() != 1 || !kwargs.is_empty() {
            return;
        }
        let list = match &args[0].kind {
            ExprKind::Var(v) => lists.contains_key(&v.name),
            ExprKind::Call { func, .. } if func.name == TOLIST => true,
            _ => flat_list(&args[0]),
        };
        if list {
            if let Some(x) = tolist_of(&mut args[0]) {
                args[0] = x;
            }
            let span = args[0].span.clone();
            kwargs.push((Ident { name: "axis".into(), span: span.clone() }, mk(ids, ExprKind::Int(0), span)));
        }
    });
}

/// The method name of `x.tolist()` as the parser writes it (`syntax::method_call`).
pub const TOLIST: &str = ".tolist";

/// The calls whose one argument may be `x.tolist()`, taken as `x` (see the module's docs).
pub(crate) const TAKES_A_LIST: &[&str] = &["sum", "len", "min", "max", "any", "all", "array", "asarray"];

/// `x` when `e` is `x.tolist()`.
fn tolist_of(e: &mut Expr) -> Option<Expr> {
    match &mut e.kind {
        ExprKind::Call { func, args, kwargs } if func.name == TOLIST && args.len() == 1 && kwargs.is_empty() => {
            args.pop()
        }
        _ => None,
    }
}

/// `x.tolist()` iterated by a `for` in `b` (the value of the loop's synthesized array `let`): `x`
/// (see the module's docs).
fn tolist_iterated(b: &mut Block) {
    for s in &mut b.stmts {
        match s {
            Stmt::Let { names, value, .. } if names.len() == 1 && is_synthesized(&names[0].name) => {
                if let Some(x) = tolist_of(value) {
                    *value = x;
                }
            }
            Stmt::For { body, .. } | Stmt::While { body, .. } => tolist_iterated(body),
            Stmt::If { then_block, else_block, .. } => {
                tolist_iterated(then_block);
                if let Some(e) = else_block {
                    tolist_iterated(e);
                }
            }
            _ => {}
        }
    }
}

/// `x.tolist()` as the one argument of a [`TAKES_A_LIST`] call `e`: `x`.
fn tolist_reduced(e: &mut Expr) {
    let ExprKind::Call { func, args, kwargs } = &mut e.kind else { return };
    let name = func.name.strip_prefix(crate::builtin::QUALIFIED).unwrap_or(&func.name);
    if TAKES_A_LIST.contains(&name) && args.len() == 1 && kwargs.is_empty() {
        if let Some(x) = tolist_of(&mut args[0]) {
            args[0] = x;
        }
    }
}

/// `x.item()` (`base` is `x`, at `span`): `reshape(x, 1)[0]` (see the module's docs).
pub fn item(ids: &Cell<u32>, base: Expr, span: Span) -> Expr {
    let one = mk(ids, ExprKind::Int(1), span.clone());
    let func = Ident { name: qualified("reshape"), span: span.clone() };
    let flat = mk(ids, ExprKind::Call { func, args: vec![base, one], kwargs: vec![] }, span.clone());
    let zero = mk(ids, ExprKind::Int(0), span.clone());
    mk(ids, ExprKind::Subscript { base: Box::new(flat), index: vec![Index::At(zero)] }, span)
}

/// `e` when `s` is `out.append(e);`.
pub(crate) fn append_of<'a>(s: &'a Stmt, out: &str) -> Option<&'a Expr> {
    let Stmt::Expr(Expr { kind: ExprKind::Call { func, args, kwargs }, .. }) = s else { return None };
    match args.as_slice() {
        [Expr { kind: ExprKind::Var(v), .. }, e] if func.name == ".append" && kwargs.is_empty() && v.name == out => {
            Some(e)
        }
        _ => None,
    }
}

/// The element and condition of a loop body that is only `out.append(e);` or `if c {
/// out.append(e); }`.
fn appended(stmts: &[Stmt], out: &str) -> Option<(Expr, Option<Expr>)> {
    match stmts {
        [s] => match s {
            Stmt::If { cond, then_block, else_block: None, .. } => match then_block.stmts.as_slice() {
                [a] => append_of(a, out).map(|e| (e.clone(), Some(cond.clone()))),
                _ => None,
            },
            _ => append_of(s, out).map(|e| (e.clone(), None)),
        },
        _ => None,
    }
}

/// Python's `sorted(x)`, `sorted(x, reverse=True)`, `list(x)` and `tuple(x)` of an array (not of
/// a generator, which `crate::comprehension` lowers), where the list is then used as NumPy uses
/// it (`np.array(sorted(x))`, `sorted(x)[-3:]`, `for v in sorted(x)`): `sort(x)` of a 1-d `x`
/// (NaN last, as NumPy's; `[::-1]` of it for `reverse=True`; `sorted(x.tolist())` is
/// `sorted(x)`; an `x` of rank 2 or more, whose rows Python compares as arrays, is refused by
/// [`items_compared`]) and `array(x)`, a copy (`list(range(n))` is then
/// [`range_values`]'s). A function of the program of one of these names keeps its calls; `key=`
/// and other keywords stay E0202, whose help names `np.sort`.
pub fn python_builtins(program: &mut Program) {
    let own: HashSet<String> = program.functions.iter().map(|f| f.name.name.clone()).collect();
    let ids = Cell::new(program.num_exprs);
    for f in &mut program.functions {
        f.for_each_expr_mut(&mut |e| {
            let ExprKind::Call { func, args, kwargs } = &mut e.kind else { return };
            let generator = |a: &Expr| {
                matches!(&a.kind, ExprKind::Call { func, .. } if func.name.starts_with(crate::comprehension::GENERATOR))
            };
            if own.contains(&func.name) || args.len() != 1 || generator(&args[0]) {
                return;
            }
            let reverse = match (func.name.as_str(), kwargs.as_slice()) {
                ("sorted", []) => false,
                ("sorted", [(k, v)]) if k.name == "reverse" => match v.kind {
                    ExprKind::Bool(r) => r,
                    _ => return,
                },
                ("list" | "tuple", []) => {
                    func.name = crate::builtin::qualified("array");
                    return;
                }
                _ => return,
            };
            kwargs.clear();
            func.name = crate::builtin::qualified("sort");
            // Python sorts the items of `x` along axis 0 (`x.tolist()`'s too): rows of a 2-d
            // array compare as arrays, Python's error, where `sort` would sort each row.
            if let Some(x) = tolist_of(&mut args[0]) {
                args[0] = x;
            }
            args[0] = items_compared(&ids, std::mem::replace(&mut args[0], mk(&ids, ExprKind::Int(0), e.span.clone())));
            if reverse {
                let at = e.span.clone();
                let sorted = std::mem::replace(e, mk(&ids, ExprKind::Int(0), at.clone()));
                let back = Index::Slice { start: None, stop: None, step: Some(mk(&ids, ExprKind::Int(-1), at.clone())), span: at.clone() };
                *e = mk(&ids, ExprKind::Subscript { base: Box::new(sorted), index: vec![back] }, at);
            }
        });
    }
    program.num_exprs = ids.get();
}

/// `x if (True or sum(x, axis=0) < sum(x, axis=0)) else x`: `x`, with a comparison of two
/// values of the type of its items (`sum` along axis 0: an item's rank, and no error of an empty
/// `x`) written where it is never evaluated (after `True or`), so that the checker refuses items
/// that are arrays (E0302, Python's "truth value of an array is ambiguous" comparing them). `x`
/// has no effects (arrayc's expressions have none), so its copies are its value.
fn items_compared(ids: &Cell<u32>, x: Expr) -> Expr {
    let at = x.span.clone();
    let item = |ids: &Cell<u32>| {
        let func = Ident { name: qualified("sum"), span: at.clone() };
        let axis = (Ident { name: "axis".to_string(), span: at.clone() }, mk(ids, ExprKind::Int(0), at.clone()));
        let args = vec![crate::syntax::fresh_copy(ids, &x)];
        mk(ids, ExprKind::Call { func, args, kwargs: vec![axis] }, at.clone())
    };
    let (a, b) = (item(ids), item(ids));
    let less = mk(ids, ExprKind::Binary(crate::ast::BinOp::Lt, Box::new(a), Box::new(b)), at.clone());
    let yes = mk(ids, ExprKind::Bool(true), at.clone());
    let cond = crate::syntax::bool_op(ids, crate::ast::BoolOp::Or, yes, Some(less), at.clone());
    let other = crate::syntax::fresh_copy(ids, &x);
    mk(ids, ExprKind::IfElse(Box::new([cond, x, other])), at)
}

/// Python's `range(a, b, s)` as a value, where NumPy converts it to an integer array
/// (`probs[range(n), labels]`, `np.array(range(5))`, `z[range(4), range(4)] = 1`): the list
/// comprehension `[k for k in range(a, b, s)]`, so its bounds are checked as a `for` loop's
/// (integers, E0305) and its items are `i64`. The `range` of a `for` or of a comprehension's clause
/// stays the loop's. Runs before `crate::comprehension::comprehensions`, which lowers the lists.
pub fn range_values(program: &mut Program) {
    let ids = Cell::new(program.num_exprs);
    for f in &mut program.functions {
        // The iterables of comprehensions' clauses, loops' ranges.
        let mut loops: HashSet<crate::ast::ExprId> = HashSet::new();
        f.for_each_expr_mut(&mut |e| {
            if let ExprKind::Call { func, kwargs, .. } = &e.kind {
                if func.name.starts_with(crate::comprehension::GENERATOR) {
                    loops.extend(kwargs.iter().map(|(_, it)| it.id));
                }
            }
        });
        f.for_each_expr_mut(&mut |e| {
            let is_range = matches!(&e.kind, ExprKind::Call { func, .. } if func.name == "range");
            if !is_range || !loops.insert(e.id) {
                return;
            }
            let at = e.span.clone();
            let var = Ident { name: format!("range.{}", at.start), span: at.clone() };
            let range = std::mem::replace(e, mk(&ids, ExprKind::Int(0), at.clone()));
            let item = mk(&ids, ExprKind::Var(var.clone()), at.clone());
            let clause = (crate::syntax::ForTarget::Name(var), range, None);
            if let Ok(list) = crate::comprehension::comprehension(&ids, None, item, vec![clause], at) {
                *e = list;
            }
        });
    }
    program.num_exprs = ids.get();
}

/// Lists grown in one loop in every function (see the module's docs); runs before
/// `crate::comprehension::comprehensions`, on the loops as the parser wrote them.
pub fn appended_lists(program: &mut Program) {
    let ids = Cell::new(program.num_exprs);
    for f in &mut program.functions {
        appended_block(&ids, &mut f.body);
    }
    program.num_exprs = ids.get();
}

/// [`appended_lists`] in `b` and the blocks inside it.
fn appended_block(ids: &Cell<u32>, b: &mut Block) {
    let mut i = 0;
    while i < b.stmts.len() {
        if let Some((replace, stmt)) = appended_at(ids, &b.stmts[i..]) {
            let count = constant_count(&b.stmts[i..i + replace]);
            b.stmts.splice(i..i + replace, [stmt]);
            let name = match &b.stmts[i] {
                Stmt::Let { names, .. } => names.first().map(|x| x.name.clone()),
                Stmt::Assign { name, .. } => Some(name.name.clone()),
                _ => None,
            };
            if let (Some(n), Some(name)) = (count, name) {
                joins_of_list(ids, &name, n, &mut b.stmts[i + 1..]);
            }
        }
        match &mut b.stmts[i] {
            Stmt::For { body, .. } | Stmt::While { body, .. } => appended_block(ids, body),
            Stmt::If { then_block, else_block, .. } => {
                appended_block(ids, then_block);
                if let Some(e) = else_block {
                    appended_block(ids, e);
                }
            }
            _ => {}
        }
        i += 1;
    }
}

/// `let out = [];` (or `out = [];`) then a loop that only appends to `out` at the start of
/// `stmts`: how many statements that is and the `let` (the assignment) of the comprehension that
/// replaces them.
fn appended_at(ids: &Cell<u32>, stmts: &[Stmt]) -> Option<(usize, Stmt)> {
    // `let out = [];`, or Python's `out = [];` (which declares `out` where it is not in scope).
    let (out, at, declared) = match stmts.first()? {
        Stmt::Let { names, value: Expr { kind: ExprKind::List(items), .. }, span } if items.is_empty() => {
            let [out] = names.as_slice() else { return None };
            (out, span.clone(), true)
        }
        Stmt::Assign { name, value: Expr { kind: ExprKind::List(items), .. }, span } if items.is_empty() => {
            (name, span.clone(), false)
        }
        _ => return None,
    };
    let bind = |value: Expr, span: Span| {
        if declared {
            Stmt::Let { names: vec![out.clone()], value, span }
        } else {
            Stmt::Assign { name: out.clone(), value, span }
        }
    };
    // `for t in x` as the parser writes it: `let iter.O = x; for index.O in 0..len(iter.O) { let
    // t = iter.O[index.O]; .. }`.
    if let [_, Stmt::Let { names: it_names, value: x, .. }, Stmt::For { var: index, body, step: None, .. }, ..] = stmts
    {
        if let ([iter], [Stmt::Let { names: t, value: item, .. }, rest @ ..]) =
            (it_names.as_slice(), body.stmts.as_slice())
        {
            let is_item = matches!(&item.kind, ExprKind::Subscript { base, index: ix }
                if matches!(&base.kind, ExprKind::Var(v) if v.name == iter.name)
                    && matches!(ix.as_slice(), [Index::At(Expr { kind: ExprKind::Var(k), .. })] if k.name == index.name));
            if let ([t], true, true, Some((e, c))) =
                (t.as_slice(), is_synthesized(&iter.name), is_item, appended(rest, &out.name))
            {
                let clause = (crate::syntax::ForTarget::Name(t.clone()), x.clone(), c);
                let list = crate::comprehension::comprehension(ids, None, e, vec![clause], at.clone()).ok()?;
                return Some((3, bind(list, at)));
            }
        }
    }
    // `for k in range(a, b, s)`: `for k in a..b step s`.
    if let [_, Stmt::For { var: k, start, end, step, body, .. }, ..] = stmts {
        if let (false, Some((e, c))) = (is_synthesized(&k.name), appended(&body.stmts, &out.name)) {
            let mut args = vec![start.clone(), end.clone()];
            args.extend(step.as_deref().cloned());
            let func = Ident { name: "range".into(), span: at.clone() };
            let range = mk(ids, ExprKind::Call { func, args, kwargs: vec![] }, at.clone());
            let clause = (crate::syntax::ForTarget::Name(k.clone()), range, c);
            let list = crate::comprehension::comprehension(ids, None, e, vec![clause], at.clone()).ok()?;
            return Some((2, bind(list, at)));
        }
    }
    None
}

/// NumPy's functions that join a sequence of arrays: of a list grown in a loop of a constant count,
/// [`joins_of_list`] gives them the tuple of its items.
const JOINS: [&str; 6] = ["vstack", "hstack", "stack", "concatenate", "column_stack", "dstack"];

/// The number of items of the list grown by `stmts` ([`appended_at`]'s): the count of an
/// unconditional `for k in range(a, b, s)` of integer literals, at most
/// [`crate::unroll::MAX_ITEMS`].
fn constant_count(stmts: &[Stmt]) -> Option<i64> {
    let [_, Stmt::For { start, end, step, body, .. }] = stmts else { return None };
    if !matches!(body.stmts.as_slice(), [s] if matches!(s, Stmt::Expr(_))) {
        return None;
    }
    let lit = crate::check::builtins::literal_int;
    let (a, b) = (lit(start)?, lit(end)?);
    let s = step.as_deref().map_or(Some(1), lit).filter(|&s| s != 0)?;
    let n = if s > 0 { (b - a + s - 1).div_euclid(s) } else { (a - b - s - 1).div_euclid(-s) }.max(0);
    (n <= crate::unroll::MAX_ITEMS as i64).then_some(n)
}

/// `np.vstack(out)` (`hstack`, `stack`, `concatenate`, `column_stack`, `dstack`) of the list
/// `out` of `n` items in `stmts` (until `out` is bound again): NumPy joins the list's items, so
/// the call takes the tuple `(out[0], .., out[n - 1])` (`crate::comprehension` makes `out` the
/// array of the items).
fn joins_of_list(ids: &Cell<u32>, out: &str, n: i64, stmts: &mut [Stmt]) {
    for s in stmts {
        for e in s.own_exprs_mut() {
            e.for_each_mut(&mut |e| {
                let ExprKind::Call { func, args, .. } = &mut e.kind else { return };
                let name = func.name.strip_prefix(crate::builtin::QUALIFIED).unwrap_or(&func.name);
                let Some(first) = args.first_mut().filter(|_| JOINS.contains(&name) && n > 0) else { return };
                if !matches!(&first.kind, ExprKind::Var(v) if v.name == out) {
                    return;
                }
                let at = first.span.clone();
                let items = (0..n)
                    .map(|k| {
                        let base = mk(ids, first.kind.clone(), at.clone());
                        let index = vec![Index::At(mk(ids, ExprKind::Int(k), at.clone()))];
                        mk(ids, ExprKind::Subscript { base: Box::new(base), index }, at.clone())
                    })
                    .collect();
                *first = mk(ids, ExprKind::Tuple(items), at);
            });
        }
        // `out = np.vstack(out)` joins the list, then binds `out` again.
        let rebound = match s {
            Stmt::Let { names, .. } => names.iter().any(|x| x.name == out),
            Stmt::Assign { name, .. } => name.name == out,
            _ => false,
        };
        if rebound {
            return;
        }
    }
}

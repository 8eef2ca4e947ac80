//! Python's loops over a tuple or list of arrays, `for p in (a, b, c)`, `for p in [w, b]`, over a
//! name bound once to one (`params = [w, b]; for p in params`), over the sections of
//! `np.array_split(x, 4)` (also bound once to a name), and `zip`/`enumerate` of these (`for p, g in
//! zip(params, grads)`), rewritten after parsing into one copy of the body per item
//! (`docs/language.md`, "Statements"). Python binds `p` to each item in turn, so `p` aliases the
//! item (`for p in params { p -= lr * g; }` updates `w` and `b` in place) and the items may have
//! different shapes (`for part in (x[:3], x[3:])`), where an array of the items (their `stack`)
//! would copy them and need one shape.
//!
//! The items are evaluated first, in order, as Python's tuple is (`let loop.K.j.i = item;`), then
//! each copy of the body is preceded by the loop's names bound to that step's items (`p =
//! loop.K.0.i;`, `k = i`: rebindings, so the names after the loop hold the last step's, as
//! Python's). A body with its own `break` or `continue`, more than [`MAX_ITEMS`] steps, or
//! items that are all number literals (numbers have no aliasing) keep the loop over the items'
//! array, whose rows are copies: a write through a loop name there (`p[..] = v`, `p op= v`) is
//! E0207. A list comprehension over such items, `[p.mean() for p in parts]`, is the list literal of
//! its element for each item.
//!
//! A name's items are known where it is bound once in the function (not a parameter) to a tuple
//! or list literal whose items are number literals or names themselves bound once (or parameters),
//! so that Python's list still holds what the names hold; otherwise the loop stays, with the
//! E0207 above for writes through its names.

use crate::ast::{Block, Expr, ExprId, ExprKind, Function, Ident, Index, Program, Span, Stmt};
use crate::diag::Diagnostic;
use crate::syntax::{fresh_copy, is_synthesized, mk};
use std::cell::Cell;
use std::collections::HashMap;

/// The most steps of a loop that is unrolled.
pub const MAX_ITEMS: usize = 16;

/// What a name bound once holds, where its items are known.
#[derive(Clone)]
enum Known {
    /// The sections of a `split` of this many.
    Sections(usize),
    /// A tuple or list literal's items.
    Items(Vec<Expr>),
    /// A tuple or list literal whose items are not known to be what they were (a name bound
    /// again): its loop stays, and a write through its names is E0207.
    Literal,
}

/// Rewrites every loop over a tuple or list of arrays (see the module's docs); E0207 for a write
/// through the names of one that keeps its loop.
pub fn tuple_loops(program: &mut Program) -> Vec<Diagnostic> {
    let ids = Cell::new(program.num_exprs);
    let mut diags = vec![];
    for f in &mut program.functions {
        let iterated = iterated_names(f);
        hoist_items(&ids, &mut f.body, &iterated);
        let known = known_names(f, &iterated);
        block(&ids, &mut f.body, &known, &mut diags);
        f.for_each_expr_mut(&mut |e| comprehension_items(&ids, e, &known));
        for (name, k) in &known {
            if let Known::Items(items) = k {
                resolve_uses(&ids, f, name, items);
            }
        }
    }
    program.num_exprs = ids.get();
    diags
}

/// `let l = (a, f(x), ..);` (or `l = [..];`) of a name a loop iterates (`iterated`) whose items
/// are not all names or literals:
/// each other item first bound to a name of its own, `let l.items.K.i = f(x);`, evaluated there as
/// Python evaluates the literal, so that the items are known ([`known_names`]) and a loop over `l`
/// aliases them.
fn hoist_items(ids: &Cell<u32>, b: &mut Block, iterated: &[String]) {
    let mut i = 0;
    while i < b.stmts.len() {
        let (single, value, span) = match &mut b.stmts[i] {
            Stmt::Let { names, value, span } => {
                (names.len() == 1 && iterated.contains(&names[0].name), value, span.clone())
            }
            Stmt::Assign { name, value, span } => (iterated.contains(&name.name), value, span.clone()),
            s => {
                for inner in s.blocks_mut() {
                    hoist_items(ids, inner, iterated);
                }
                i += 1;
                continue;
            }
        };
        let mut lets = vec![];
        if let (true, ExprKind::Tuple(items) | ExprKind::List(items)) = (single, &mut value.kind) {
            // Nested literals (`[[1, 2], [3, 4]]`, an array literal's rows) stay.
            let plain =
                |e: &Expr| number(e) || matches!(e.kind, ExprKind::Var(_) | ExprKind::List(_) | ExprKind::Tuple(_));
            if !items.iter().all(plain) {
                for (k, item) in items.iter_mut().enumerate() {
                    if !plain(item) {
                        let name = Ident { name: format!("l.items.{}.{k}", span.start), span: item.span.clone() };
                        let var = mk(ids, ExprKind::Var(name.clone()), item.span.clone());
                        let value = std::mem::replace(item, var);
                        lets.push(Stmt::Let { names: vec![name], value, span: span.clone() });
                    }
                }
            }
        }
        let n = lets.len();
        if n > 0 {
            // (An empty splice still moves the block's tail: quadratic in a long block.)
            b.stmts.splice(i..i, lets);
        }
        i += n + 1;
    }
}

/// The names a loop or a list comprehension of `f` iterates (`for p in params`, `zip(params, ..)`,
/// `[e for p in params]`).
fn iterated_names(f: &mut Function) -> Vec<String> {
    let mut names = vec![];
    let var = |e: &Expr| match &e.kind {
        ExprKind::Var(v) => Some(v.name.clone()),
        _ => None,
    };
    fn lets(b: &Block, names: &mut Vec<String>, var: &dyn Fn(&Expr) -> Option<String>) {
        for s in &b.stmts {
            if let Stmt::Let { names: n, value, .. } = s {
                if n.len() == 1 && n[0].name.starts_with("iter.") {
                    names.extend(var(value));
                }
            }
            for inner in s.blocks() {
                lets(inner, names, var);
            }
        }
    }
    lets(&f.body, &mut names, &var);
    f.for_each_expr_mut(&mut |e| {
        if let ExprKind::Call { func, kwargs, .. } = &e.kind {
            if func.name == crate::comprehension::LIST {
                names.extend(kwargs.iter().filter_map(|(_, it)| var(it)));
            }
        }
    });
    names
}

/// After the loops: the uses of `name` (bound once to the literal of `items`) that the items
/// answer, `len(name)` and `name[k]` of an integer literal `k`; where no other use is left, the
/// binding goes too (a literal of items of several shapes is no array).
fn resolve_uses(ids: &Cell<u32>, f: &mut Function, name: &str, items: &[Expr]) {
    let is_name = |e: &Expr| matches!(&e.kind, ExprKind::Var(v) if v.name == name);
    f.for_each_expr_mut(&mut |e| match &e.kind {
        ExprKind::Call { func, args, kwargs }
            if func.name == "len" && kwargs.is_empty() && args.len() == 1 && is_name(&args[0]) =>
        {
            e.kind = ExprKind::Int(items.len() as i64);
        }
        ExprKind::Subscript { base, index } if is_name(base) => {
            if let [Index::At(k)] = index.as_slice() {
                if let Some(item) = crate::check::literal_int(k).and_then(|k| {
                    let k = if k < 0 { k + items.len() as i64 } else { k };
                    usize::try_from(k).ok().and_then(|k| items.get(k))
                }) {
                    *e = fresh_copy(ids, item);
                }
            }
        }
        _ => {}
    });
    let mut used = false;
    f.for_each_expr_mut(&mut |e| used |= is_name(e));
    if !used && write_through(&f.body.stmts, name).is_none() {
        remove_binding(&mut f.body, name);
    }
}

/// Removes the one binding of `name` (a `let` or an assignment) from `b` or a block inside it.
fn remove_binding(b: &mut Block, name: &str) {
    b.stmts.retain(|s| match s {
        Stmt::Let { names, .. } => !(names.len() == 1 && names[0].name == name),
        Stmt::Assign { name: n, .. } => n.name != name,
        _ => true,
    });
    for s in &mut b.stmts {
        for inner in s.blocks_mut() {
            remove_binding(inner, name);
        }
    }
}

/// A loop as the parser writes `for p in X` (`let iter.O = X; for index.O in 0..len(iter.O) { let
/// p = iter.O[index.O]; .. }`) and `for k, (a, b) in enumerate(zip(X, Y))` (a `let iter.O.j = ..;`
/// per iterable; the names bound by `let`s at the top of the body from `iter.O.j[index.O]` and
/// `index.O`).
struct ArrayLoop<'a> {
    /// The iterables' names and values, in order.
    iters: Vec<(&'a Ident, &'a Expr)>,
    /// The loop's counter.
    index: &'a Ident,
    /// The `let`s of the program's names at the top of the body.
    lets: &'a [Stmt],
    /// The rest of the body.
    rest: &'a [Stmt],
    span: &'a Span,
}

/// Whether `e` reads the variable `name`.
fn reads(e: &Expr, name: &str) -> bool {
    let mut found = false;
    e.clone().for_each_mut(&mut |x| found |= matches!(&x.kind, ExprKind::Var(v) if v.name == name));
    found
}

/// The [`ArrayLoop`] that starts `stmts`, and how many statements it is.
fn array_loop(stmts: &[Stmt]) -> Option<(ArrayLoop<'_>, usize)> {
    let mut iters = vec![];
    for s in stmts {
        match s {
            Stmt::Let { names, value, .. } if names.len() == 1 && names[0].name.starts_with("iter.") => {
                iters.push((&names[0], value))
            }
            _ => break,
        }
    }
    let Some(Stmt::For { var: index, body, step: None, span, .. }) = stmts.get(iters.len()) else { return None };
    if iters.is_empty() || !index.name.starts_with("index.") {
        return None;
    }
    let n = body
        .stmts
        .iter()
        .take_while(|s| {
            matches!(s, Stmt::Let { names, value, .. }
                if names.len() == 1 && !is_synthesized(&names[0].name) && reads(value, &index.name))
        })
        .count();
    let (lets, rest) = body.stmts.split_at(n);
    let consumed = iters.len() + 1;
    (n > 0).then_some((ArrayLoop { iters, index, lets, rest, span }, consumed))
}

/// The number of sections of `np.split(x, k)` (`array_split`, `hsplit`, `vsplit`, `dsplit`) of an
/// integer literal `k` or a list of split points: a tuple of that many arrays.
fn sections(e: &Expr) -> Option<usize> {
    let ExprKind::Call { func, args, .. } = &e.kind else { return None };
    let name = func.name.strip_prefix(crate::builtin::QUALIFIED).unwrap_or(&func.name);
    if !matches!(name, "split" | "array_split" | "hsplit" | "vsplit" | "dsplit") || args.len() != 2 {
        return None;
    }
    match crate::builtin::split_points(&args[1]) {
        Some(points) => Some(points.len() + 1),
        None => crate::check::literal_int(&args[1]).filter(|&k| k >= 1).map(|k| k as usize),
    }
}

/// Whether `it` is a tuple or list literal, or a name bound to one.
fn literal(it: &Expr, known: &HashMap<String, Known>) -> bool {
    match &it.kind {
        ExprKind::Tuple(_) | ExprKind::List(_) => true,
        ExprKind::Var(v) => matches!(known.get(&v.name), Some(Known::Items(_) | Known::Literal)),
        _ => false,
    }
}

/// The items of the iterable `it`, where they are known: a tuple or list literal's, the sections
/// of a call of a `split` of a known number of them (`it[i]`), a name's ([`known_names`]).
fn items_of(ids: &Cell<u32>, it: &Expr, known: &HashMap<String, Known>) -> Option<Vec<Expr>> {
    let count = match &it.kind {
        ExprKind::Tuple(items) | ExprKind::List(items) => return Some(items.clone()),
        ExprKind::Var(v) => match known.get(&v.name)? {
            Known::Sections(k) => *k,
            Known::Items(items) => return Some(items.iter().map(|e| fresh_copy(ids, e)).collect()),
            Known::Literal => return None,
        },
        _ => sections(it)?,
    };
    Some(
        (0..count)
            .map(|i| {
                let index = vec![Index::At(mk(ids, ExprKind::Int(i as i64), it.span.clone()))];
                let base = Box::new(fresh_copy(ids, it));
                mk(ids, ExprKind::Subscript { base, index }, it.span.clone())
            })
            .collect(),
    )
}

/// How many times each name is bound in `b` (`let`, `=`, a `for` variable), with the value of a
/// single binding.
fn bindings<'a>(b: &'a Block, bound: &mut HashMap<String, (usize, Option<&'a Expr>)>) {
    for s in &b.stmts {
        let (names, value): (Vec<&Ident>, Option<&Expr>) = match s {
            Stmt::Let { names, value, .. } => (names.iter().collect(), Some(value)),
            Stmt::Assign { name, value, .. } => (vec![name], Some(value)),
            Stmt::For { var, .. } => (vec![var], None),
            _ => (vec![], None),
        };
        for n in &names {
            let entry = bound.entry(n.name.clone()).or_insert((0, None));
            entry.0 += 1;
            entry.1 = value.filter(|_| names.len() == 1);
        }
        for inner in s.blocks() {
            bindings(inner, bound);
        }
    }
}

/// The names of `f` a loop iterates (`iterated`), bound exactly once (not parameters), whose items
/// [`items_of`] knows.
fn known_names(f: &Function, iterated: &[String]) -> HashMap<String, Known> {
    let mut bound = HashMap::new();
    bindings(&f.body, &mut bound);
    let params: Vec<&str> = f.params.iter().map(|p| p.name.name.as_str()).collect();
    let stable = |e: &Expr| match &e.kind {
        // A parameter never bound in the body, or a name bound once (so the list's item is what the
        // name holds wherever the loop is).
        ExprKind::Var(v) => match bound.get(&v.name) {
            None => params.contains(&v.name.as_str()),
            Some(b) => b.0 == 1 && !params.contains(&v.name.as_str()),
        },
        _ => number(e),
    };
    // A list grown or changed by its methods (`l.append(v)`, `crate::grown_lists`) or written
    // into (`l[0] = v`) has other items later.
    let mut changed: Vec<String> = vec![];
    f.body.clone().for_each_expr_mut(&mut |e| {
        if let ExprKind::Call { func, args, .. } = &e.kind {
            if let (true, Some(ExprKind::Var(v))) = (func.name.starts_with('.'), args.first().map(|a| &a.kind)) {
                changed.push(v.name.clone());
            }
        }
    });
    let mut known = HashMap::new();
    for (name, (count, value)) in &bound {
        let unchanged =
            iterated.contains(name) && !changed.contains(name) && write_through(&f.body.stmts, name).is_none();
        let Some(value) = value.filter(|_| *count == 1 && !params.contains(&name.as_str()) && unchanged) else {
            continue;
        };
        if matches!(&value.kind, ExprKind::Tuple(items) | ExprKind::List(items) if items.iter().all(number)) {
            continue;
        }
        let k = match &value.kind {
            ExprKind::Tuple(items) | ExprKind::List(items) if items.iter().all(stable) => Known::Items(items.clone()),
            ExprKind::Tuple(_) | ExprKind::List(_) => Known::Literal,
            _ => match sections(value) {
                Some(k) => Known::Sections(k),
                None => continue,
            },
        };
        known.insert(name.clone(), k);
    }
    known
}

/// `[e for p in X]` (one clause, no condition) of an `X` of known items ([`items_of`]): the list
/// literal `[e(a), e(b), ..]` of `e` with `p` replaced by each item, each item's own type (a list
/// of scalars or of arrays of one shape, as the comprehension's).
fn comprehension_items(ids: &Cell<u32>, e: &mut Expr, known: &HashMap<String, Known>) {
    let ExprKind::Call { func, args, kwargs } = &e.kind else { return };
    let ([elt, cond], [(var, it)]) = (args.as_slice(), kwargs.as_slice()) else { return };
    if func.name != crate::comprehension::LIST || !matches!(cond.kind, ExprKind::Bool(true)) {
        return;
    }
    let Some(items) = items_of(ids, it, known) else { return };
    if items.iter().all(number) || items.len() > MAX_ITEMS {
        return;
    }
    let list = items
        .iter()
        .map(|item| {
            let mut x = fresh_copy(ids, elt);
            x.for_each_mut(&mut |v| {
                if matches!(&v.kind, ExprKind::Var(n) if n.name == var.name) {
                    *v = fresh_copy(ids, item);
                }
            });
            x
        })
        .collect();
    *e = mk(ids, ExprKind::List(list), e.span.clone());
}

/// Whether `e` is a number literal (maybe negated).
fn number(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Int(_) | ExprKind::Float(_) | ExprKind::Bool(_) => true,
        ExprKind::Unary(crate::ast::UnOp::Neg, a) => number(a),
        _ => false,
    }
}

/// Whether the statements jump out of their loop (`break`, `continue` not inside an inner loop).
fn jumps(stmts: &[Stmt]) -> bool {
    stmts.iter().any(|s| match s {
        Stmt::Break { .. } | Stmt::Continue { .. } => true,
        Stmt::If { then_block, else_block, .. } => {
            jumps(&then_block.stmts) || else_block.as_ref().is_some_and(|e| jumps(&e.stmts))
        }
        _ => false,
    })
}

/// A statement among `stmts` (or inside them) that writes through `p`.
fn write_through<'a>(stmts: &'a [Stmt], p: &str) -> Option<&'a Span> {
    stmts.iter().find_map(|s| match s {
        Stmt::SetItem { target, span, .. } | Stmt::AugAssign { target, span, .. } if target.name == p => Some(span),
        Stmt::For { body, .. } | Stmt::While { body, .. } => write_through(&body.stmts, p),
        Stmt::If { then_block, else_block, .. } => {
            write_through(&then_block.stmts, p).or_else(|| else_block.as_ref().and_then(|e| write_through(&e.stmts, p)))
        }
        _ => None,
    })
}

/// The name a `let` binds.
fn let_name(s: &Stmt) -> &Ident {
    match s {
        Stmt::Let { names, .. } => &names[0],
        _ => unreachable!("array_loop's lets"),
    }
}

/// `b`'s loops over tuples, and those of the blocks inside it.
fn block(ids: &Cell<u32>, b: &mut Block, known: &HashMap<String, Known>, diags: &mut Vec<Diagnostic>) {
    let mut i = 0;
    while i < b.stmts.len() {
        if let Some((l, consumed)) = array_loop(&b.stmts[i..]) {
            let items: Option<Vec<Vec<Expr>>> = l.iters.iter().map(|(_, it)| items_of(ids, it, known)).collect();
            let steps = items.as_ref().and_then(|its| its.iter().map(Vec::len).min());
            let numbers = items.as_ref().is_some_and(|its| its.iter().flatten().all(number));
            match (items, steps) {
                (Some(items), Some(n)) if !numbers && n <= MAX_ITEMS && !jumps(l.rest) => {
                    let unrolled = unroll(ids, &l, &items, n);
                    let len = unrolled.len();
                    b.stmts.splice(i..i + consumed, unrolled);
                    i += len;
                    continue;
                }
                _ if l.iters.iter().any(|(_, it)| literal(it, known)) => {
                    let written = l
                        .lets
                        .iter()
                        .find_map(|s| write_through(l.rest, &let_name(s).name).map(|at| (at, let_name(s))));
                    if let Some((at, p)) = written {
                        diags.push(
                            Diagnostic::error(
                                "E0207",
                                format!("a write through `{}`, which would write into a copy of a list's item", p.name),
                                at.clone(),
                                "writes into a copy",
                            )
                            .with_label(l.span.clone(), "a loop arrayc keeps over the items' array")
                            .with_help(format!(
                                "Python's `{}` aliases each item; arrayc repeats the body per item, and so aliases \
                                 it, for a loop without `break` or `continue`, of at most {MAX_ITEMS} steps, over a \
                                 tuple or list of names bound once: move the jump into an `if`, or write the items \
                                 one by one",
                                p.name
                            )),
                        );
                    }
                }
                _ => {}
            }
        }
        for inner in b.stmts[i].blocks_mut() {
            block(ids, inner, known, diags);
        }
        i += 1;
    }
}

/// The loop `l` of `n` steps over `items` (per iterable) unrolled: `let loop.K.j.i = item;` for
/// each, then per step its names bound (`p = loop.K.j.i;`, `k = i`: each `let`'s value with
/// `iter.O.j[index.O]` and `index.O` replaced) and a copy of the rest of the body (fresh
/// expression ids).
fn unroll(ids: &Cell<u32>, l: &ArrayLoop, items: &[Vec<Expr>], n: usize) -> Vec<Stmt> {
    let at = l.span.clone();
    let name = |j: usize, i: usize| Ident { name: format!("loop.{}.{j}.{i}", at.start), span: at.clone() };
    let mut out = vec![];
    for (j, its) in items.iter().enumerate() {
        for (i, e) in its.iter().take(n).enumerate() {
            out.push(Stmt::Let { names: vec![name(j, i)], value: e.clone(), span: e.span.clone() });
        }
    }
    for i in 0..n {
        let mut step = Block { stmts: vec![], span: at.clone() };
        for s in l.lets {
            let Stmt::Let { names, value, span } = s else { unreachable!("array_loop's lets") };
            let mut value = value.clone();
            value.for_each_mut(&mut |e| {
                let ExprKind::Subscript { base, index } = &e.kind else { return };
                let iter = l.iters.iter().position(|(it, _)| matches!(&base.kind, ExprKind::Var(v) if v.name == it.name));
                let at_index = matches!(index.as_slice(), [Index::At(Expr { kind: ExprKind::Var(k), .. })] if k.name == l.index.name);
                if let (Some(j), true) = (iter, at_index) {
                    *e = mk(ids, ExprKind::Var(name(j, i)), e.span.clone());
                }
            });
            value.for_each_mut(&mut |e| {
                if matches!(&e.kind, ExprKind::Var(v) if v.name == l.index.name) {
                    e.kind = ExprKind::Int(i as i64);
                }
            });
            step.stmts.push(Stmt::Assign { name: names[0].clone(), value, span: span.clone() });
        }
        step.stmts.extend(l.rest.iter().cloned());
        step.for_each_expr_mut(&mut |e| {
            e.id = ExprId(ids.get());
            ids.set(ids.get() + 1);
        });
        out.extend(step.stmts);
    }
    out
}

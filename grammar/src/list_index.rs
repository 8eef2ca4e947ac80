//! Python's position of a list's extreme item, `l = x.tolist(); l.index(max(l))` (`min` too;
//! `docs/language.md`, "Python lists"), rewritten after parsing, before
//! [`crate::py_lists::python_lists`]. Python's `max(l)` keeps the first item and replaces it only
//! by a greater one (a NaN never replaces, a NaN first item is never replaced), and `l.index(v)`
//! is the first position holding `v` (the object itself, for a NaN): so the position is that of
//! the first greatest item, `argmax(where(isnan(l), l[0], l))` (see [`crate::key_extrema`]), of
//! `l` as a 1-d array: `reshape(l, len(l))` (the items of a 2-d `x` are lists, which Python
//! compares item by item: rows of one item are their item, any other is a run-time size error).
//!
//! The name `l` must be bound once, by a `let` of `x.tolist()`, and read only in that form or as
//! the one argument of the calls that take a list as its array (`len(l)`, `sum(l)`, `max(l)`,
//! `np.array(l)`, ..., [`crate::py_lists`]); then the binding is `l = copy(x)` (Python's list is a
//! snapshot: later writes into `x` do not change it). Anything else keeps `x.tolist()`, E0207.

use crate::ast::{Block, Expr, ExprKind, Function, Ident, Index, Program, Stmt};
use crate::builtin::qualified;
use crate::syntax::mk;
use std::cell::Cell;
use std::collections::HashMap;

/// Rewrites `l.index(max(l))` and `l.index(min(l))` of every name `l` bound to `x.tolist()`
/// (see the module's docs).
pub fn list_index(program: &mut Program) {
    let ids = Cell::new(program.num_exprs);
    for f in &mut program.functions {
        function(&ids, f);
    }
    program.num_exprs = ids.get();
}

/// Whether `e` is `x.tolist()`.
fn is_tolist(e: &Expr) -> bool {
    matches!(&e.kind, ExprKind::Call { func, args, kwargs } if func.name == crate::py_lists::TOLIST && args.len() == 1 && kwargs.is_empty())
}

/// Whether `e` is the variable `l`.
fn is_var(e: &Expr, l: &str) -> bool {
    matches!(&e.kind, ExprKind::Var(v) if v.name == l)
}

/// `argmax` (`argmin`) when `e` is `l.index(max(l))` (`min`).
fn extreme_index(e: &Expr, l: &str) -> Option<&'static str> {
    let ExprKind::Call { func, args, kwargs } = &e.kind else { return None };
    if func.name != ".index" || !kwargs.is_empty() {
        return None;
    }
    let [list, Expr { kind: ExprKind::Call { func: ext, args: inner, kwargs: none }, .. }] = args.as_slice() else {
        return None;
    };
    let arg = match ext.name.as_str() {
        "max" => "argmax",
        "min" => "argmin",
        _ => return None,
    };
    (is_var(list, l) && none.is_empty() && matches!(inner.as_slice(), [v] if is_var(v, l))).then_some(arg)
}

/// The rewrite of one function.
fn function(ids: &Cell<u32>, f: &mut Function) {
    let mut count = HashMap::new();
    let mut lists = HashMap::new();
    crate::py_lists::bindings(&f.body, &mut count, &mut lists, is_tolist);
    for p in &f.params {
        count.insert(p.name.name.clone(), 2);
    }
    for (l, _) in lists.into_iter().filter(|(l, _)| count.get(l) == Some(&1)) {
        // Every read of `l`, and the reads in the forms taken.
        let (mut reads, mut taken, mut indexed) = (0usize, 0usize, 0usize);
        f.for_each_expr_mut(&mut |e| {
            if is_var(e, &l) {
                reads += 1;
            }
            if extreme_index(e, &l).is_some() {
                indexed += 1;
                taken += 2;
            } else if let ExprKind::Call { func, args, kwargs } = &e.kind {
                let name = func.name.strip_prefix(crate::builtin::QUALIFIED).unwrap_or(&func.name);
                if crate::py_lists::TAKES_A_LIST.contains(&name)
                    && kwargs.is_empty()
                    && matches!(args.as_slice(), [v] if is_var(v, &l))
                {
                    taken += 1;
                }
            }
        });
        // `max(l)` inside `l.index(max(l))` was counted as a call taking a list too.
        if indexed == 0 || reads != taken - indexed || written(&f.body, &l) {
            continue;
        }
        f.for_each_expr_mut(&mut |e| {
            if let Some(arg) = extreme_index(e, &l) {
                *e = position(ids, arg, &l, e);
            }
        });
        snapshot(&mut f.body, &l);
    }
}

/// Whether a statement of `b` writes into `l` (`l[i] = v`, `l += v`).
fn written(b: &Block, l: &str) -> bool {
    b.stmts.iter().any(|s| match s {
        Stmt::SetItem { target, .. } | Stmt::AugAssign { target, .. } => target.name == l,
        Stmt::For { body, .. } | Stmt::While { body, .. } => written(body, l),
        Stmt::If { then_block, else_block, .. } => {
            written(then_block, l) || else_block.as_ref().is_some_and(|e| written(e, l))
        }
        _ => false,
    })
}

/// `argmax(where(isnan(v), v[0], v))` of `v = reshape(l, len(l))`, at `e` (see the module's docs).
fn position(ids: &Cell<u32>, arg: &str, l: &str, e: &Expr) -> Expr {
    let at = e.span.clone();
    let call = |ids: &Cell<u32>, f: &str, args: Vec<Expr>| {
        mk(
            ids,
            ExprKind::Call { func: Ident { name: qualified(f), span: at.clone() }, args, kwargs: vec![] },
            at.clone(),
        )
    };
    let var = |ids: &Cell<u32>| mk(ids, ExprKind::Var(Ident { name: l.to_string(), span: at.clone() }), at.clone());
    let flat = |ids: &Cell<u32>| {
        let len = call(ids, "len", vec![var(ids)]);
        call(ids, "reshape", vec![var(ids), len])
    };
    let zero = mk(ids, ExprKind::Int(0), at.clone());
    let first = mk(ids, ExprKind::Subscript { base: Box::new(flat(ids)), index: vec![Index::At(zero)] }, at.clone());
    let nan = call(ids, "isnan", vec![flat(ids)]);
    let kept = call(ids, "where", vec![nan, first, flat(ids)]);
    call(ids, arg, vec![kept])
}

/// The binding `l = x.tolist()` in `b` as `l = copy(x)`.
fn snapshot(b: &mut Block, l: &str) {
    for s in &mut b.stmts {
        match s {
            Stmt::Let { names, value, .. } if names.len() == 1 && names[0].name == l && is_tolist(value) => {
                if let ExprKind::Call { func, .. } = &mut value.kind {
                    func.name = qualified("copy");
                }
            }
            Stmt::For { body, .. } | Stmt::While { body, .. } => snapshot(body, l),
            Stmt::If { then_block, else_block, .. } => {
                snapshot(then_block, l);
                if let Some(e) = else_block {
                    snapshot(e, l);
                }
            }
            _ => {}
        }
    }
}

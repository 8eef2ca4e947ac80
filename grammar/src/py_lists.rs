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

use crate::ast::{Block, Expr, ExprKind, Function, Ident, Program, Stmt};
use crate::syntax::mk;
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
        python_sum(&ids, f);
    }
    program.num_exprs = ids.get();
}

/// Whether `e` is a list literal none of whose items is a list literal (a list of scalars or of
/// arrays, not a nested literal).
fn flat_list(e: &Expr) -> bool {
    matches!(&e.kind, ExprKind::List(items) if !items.iter().any(|it| matches!(it.kind, ExprKind::List(_))))
}

/// Counts the bindings of each name in `b` (`let`, assignment, `for` variable); `lists` gets the
/// names a `let` binds to a [`flat_list`].
fn bindings(b: &Block, count: &mut HashMap<String, usize>, lists: &mut HashSet<String>) {
    for s in &b.stmts {
        match s {
            Stmt::Let { names, value, .. } => {
                for n in names {
                    *count.entry(n.name.clone()).or_default() += 1;
                }
                if let [n] = names.as_slice() {
                    if flat_list(value) {
                        lists.insert(n.name.clone());
                    }
                }
            }
            Stmt::Assign { name, .. } => *count.entry(name.name.clone()).or_default() += 1,
            Stmt::For { var, body, .. } => {
                *count.entry(var.name.clone()).or_default() += 1;
                bindings(body, count, lists);
            }
            Stmt::While { body, .. } => bindings(body, count, lists),
            Stmt::If { then_block, else_block, .. } => {
                bindings(then_block, count, lists);
                if let Some(e) = else_block {
                    bindings(e, count, lists);
                }
            }
            _ => {}
        }
    }
}

/// Python's `sum(list)` in `f`: `sum(L, axis=0)` (see the module's docs).
fn python_sum(ids: &Cell<u32>, f: &mut Function) {
    let mut count = HashMap::new();
    let mut lists = HashSet::new();
    bindings(&f.body, &mut count, &mut lists);
    for p in &f.params {
        lists.remove(&p.name.name);
    }
    lists.retain(|n| count.get(n) == Some(&1));
    f.for_each_expr_mut(&mut |e| {
        let ExprKind::Call { func, args, kwargs } = &mut e.kind else { return };
        if func.name != "sum" || args.len() != 1 || !kwargs.is_empty() {
            return;
        }
        let list = match &args[0].kind {
            ExprKind::Var(v) => lists.contains(&v.name),
            _ => flat_list(&args[0]),
        };
        if list {
            let span = args[0].span.clone();
            kwargs.push((Ident { name: "axis".into(), span: span.clone() }, mk(ids, ExprKind::Int(0), span)));
        }
    });
}

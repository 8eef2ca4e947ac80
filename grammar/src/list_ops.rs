//! Python's list arithmetic on list literals, rewritten after parsing (`docs/language.md`, "Array
//! literals"). A list literal is an array in arrayc (NumPy's `np.array` of it), but Python's
//! operators on a *list* are not NumPy's on an array: `[0.0] * 3` repeats the list and
//! `[1, 2] + [3]` joins two lists, where on arrays both would be elementwise. NumPy code writes
//! both (`np.array([0] * n)`, `x[[True, False] * 5]`), so reading them as arrays would give a
//! wrong result. A *list* here is a list literal, a name a `let` binds once to one and nothing
//! writes (`w = [1, 2]`; no `w[i] = ..`, `w += ..` or call of it for effect) whose items read no
//! name that is bound again or written (the list holds the values of when it was made), or a
//! repetition or join of lists.
//!
//! - A list repeated by an integer literal, `[0.0] * 3`, `2 * [[1, 2]]`, and the join of two
//!   lists, `[1, 2] + [3]`, are the list literal of Python's result (`[]` for a count of 0 or
//!   less; at most [`crate::unroll::MAX_ITEMS`] items, else left to the checker).
//! - A list repeated by anything else, `[0.0] * n`, keeps its product with the list's literal in
//!   it; the checker decides by the other operand's type: an integer or bool scalar is Python's
//!   repetition ([`crate::Checked::list_repeats`]), an array NumPy's elementwise product
//!   (`img * [0.3, 0.6, 0.1]`).
//! - A join with such a repetition, `[0] * n + [1]`, is `concatenate(([0] * n, [1]))`.

use crate::ast::{BinOp, Block, Expr, ExprKind, Program, Stmt};
use crate::check::literal_int;
use crate::compositions::Build;
use crate::diag::Diagnostic;
use crate::py_lists::bindings;
use crate::unroll::MAX_ITEMS;
use std::cell::Cell;
use std::collections::{HashMap, HashSet};

/// Rewrites every function's list repetitions and joins (see the module's docs); E0322 for a
/// name of a list whose items read a name bound again or written, used with `*` or `+` as a
/// list (Python's list holds the old values, which arrayc's array of the name does not repeat).
pub fn list_arithmetic(program: &mut Program) -> Vec<Diagnostic> {
    let mut diags = Vec::new();
    let ids = Cell::new(program.num_exprs);
    for f in &mut program.functions {
        let mut count = HashMap::new();
        let mut lists = HashMap::new();
        bindings(&f.body, &mut count, &mut lists, |e| matches!(e.kind, ExprKind::List(_)));
        for p in &f.params {
            lists.remove(&p.name.name);
        }
        let mut changed = HashSet::new();
        written(&f.body, &mut changed);
        lists.retain(|n, _| count.get(n) == Some(&1) && !changed.contains(n));
        // A literal whose items read a name bound again or written is not copied to its uses:
        // Python's list holds the values of when it was made.
        let mut unstable = HashSet::new();
        lists.retain(|name, literal| {
            let mut stable = true;
            literal.clone().walk_mut(&mut |e| {
                if let ExprKind::Var(v) = &e.kind {
                    stable &= count.get(&v.name).copied().unwrap_or(0) <= 1 && !changed.contains(&v.name);
                }
            });
            if !stable {
                unstable.insert(name.clone());
            }
            stable
        });
        f.for_each_expr_mut(&mut |e| {
            if let ExprKind::Binary(op @ (BinOp::Mul | BinOp::Add), a, b) = &e.kind {
                let name_of = |x: &Expr| match &x.kind {
                    ExprKind::Var(v) if unstable.contains(&v.name) => Some(v.name.clone()),
                    _ => None,
                };
                let other_is_list = |x: &Expr| is_list(&lists, x) || name_of(x).is_some();
                let hit = match (name_of(a), name_of(b)) {
                    (Some(n), _) if (*op == BinOp::Mul) != other_is_list(b) => Some(n),
                    (_, Some(n)) if (*op == BinOp::Mul) != other_is_list(a) => Some(n),
                    _ => None,
                };
                if let Some(n) = hit {
                    diags.push(
                        Diagnostic::error(
                            "E0322",
                            format!("Python's `{}` of the list `{n}`, whose items read a name that changes after it", if *op == BinOp::Mul { "*" } else { "+" }),
                            e.span.clone(),
                            "a list operator",
                        )
                        .with_note("arrayc repeats a list by copying its literal to the use, which would read the names' new values; as an array, `*` and `+` would be NumPy's elementwise ones")
                        .with_help(format!("make the list where it is used (`[..] * k`), or bind `{n} = np.array([..])` and use `np.tile({n}, k)` / `np.concatenate(..)`")),
                    );
                }
            }
        });
        f.for_each_expr_mut(&mut |e| {
            if matches!(e.kind, ExprKind::Binary(..)) && is_list(&lists, e) {
                let at = Build { ids: &ids, at: e.span.clone() };
                e.kind = rewrite(&at, &lists, e).kind;
            }
        });
    }
    program.num_exprs = ids.get();
    diags
}

/// Adds to `names` the names written in `b`: targets of `x[..] = ..` and `x op= ..`, and the
/// first argument of a call made for its effect (`np.random.shuffle(x)`).
fn written(b: &Block, names: &mut HashSet<String>) {
    for s in &b.stmts {
        match s {
            Stmt::SetItem { target, .. } | Stmt::AugAssign { target, .. } => {
                names.insert(target.name.clone());
            }
            Stmt::Expr(Expr { kind: ExprKind::Call { args, .. }, .. }) => {
                if let Some(ExprKind::Var(v)) = args.first().map(|a| &a.kind) {
                    names.insert(v.name.clone());
                }
            }
            Stmt::For { body, .. } | Stmt::While { body, .. } => written(body, names),
            Stmt::If { then_block, else_block, .. } => {
                written(then_block, names);
                if let Some(e) = else_block {
                    written(e, names);
                }
            }
            _ => {}
        }
    }
}

/// Whether `e` is a list (see the module's docs).
fn is_list(lists: &HashMap<String, Expr>, e: &Expr) -> bool {
    match &e.kind {
        ExprKind::List(_) => true,
        ExprKind::Var(v) => lists.contains_key(&v.name),
        ExprKind::Binary(BinOp::Mul, a, b) => is_list(lists, a) != is_list(lists, b),
        ExprKind::Binary(BinOp::Add, a, b) => is_list(lists, a) && is_list(lists, b),
        _ => false,
    }
}

/// The items of list `e` when the syntax gives them (literals, names of literals, repetitions by
/// an integer literal, joins of these), fresh copies; `None` otherwise or beyond [`MAX_ITEMS`].
fn items_of(at: &Build, lists: &HashMap<String, Expr>, e: &Expr) -> Option<Vec<Expr>> {
    let items = match &e.kind {
        ExprKind::List(items) => items.iter().map(|i| at.copy(i)).collect(),
        ExprKind::Var(v) => return items_of(at, lists, lists.get(&v.name)?),
        ExprKind::Binary(BinOp::Add, a, b) => {
            let mut items = items_of(at, lists, a)?;
            items.extend(items_of(at, lists, b)?);
            items
        }
        ExprKind::Binary(BinOp::Mul, a, b) => {
            let (list, k) = if is_list(lists, a) { (a, b) } else { (b, a) };
            let k = literal_int(k)?.max(0) as usize;
            let once = items_of(at, lists, list)?;
            if once.len().saturating_mul(k) > MAX_ITEMS {
                return None;
            }
            (0..k).flat_map(|_| once.iter().map(|i| at.copy(i))).collect()
        }
        _ => return None,
    };
    Some(items)
}

/// List `e` as an expression the checker reads as Python's list (see the module's docs).
fn rewrite(at: &Build, lists: &HashMap<String, Expr>, e: &Expr) -> Expr {
    if let Some(items) = items_of(at, lists, e) {
        return at.e(ExprKind::List(items));
    }
    match &e.kind {
        ExprKind::Binary(BinOp::Add, a, b) => {
            let pair = at.e(ExprKind::Tuple(vec![rewrite(at, lists, a), rewrite(at, lists, b)]));
            at.call("concatenate", vec![pair], vec![])
        }
        ExprKind::Binary(BinOp::Mul, a, b) => {
            let (a, b) = if is_list(lists, a) {
                (rewrite(at, lists, a), at.copy(b))
            } else {
                (at.copy(a), rewrite(at, lists, b))
            };
            at.bin(BinOp::Mul, a, b)
        }
        _ => at.copy(e),
    }
}

//! Python's function scope for names first assigned inside a loop body or an `if` branch and read
//! after it (`docs/language.md`, "Statements"): Python's name lives in the whole function, so
//!
//! ```text
//! for k in range(maxit) {                 let r = scope.unbound(K);  let r.bound.K = false;
//!     r = b - A @ x;                      for k in range(maxit) {
//!     if norm(r) < tol { break; }             r = scope.value(b - A @ x, K);  r.bound.K = true;
//!     x += alpha * r;                         if norm(r) < tol { break; }
//! }                                           x += alpha * r;
//! return norm(r);                         }
//!                                         assert r.bound.K, "UnboundLocalError: ..";
//!                                         return norm(r);
//! ```
//!
//! The name is declared before the block with a placeholder (`scope.unbound(K)`: a zero of the
//! type the checker learns at the block's assignments, `scope.value(e, K)`, their dtypes promoted
//! as [`crate::grown_lists`]'s items are; values of different ranks are E0207), each assignment
//! sets a flag, and a statement that reads the name where no assignment before it in its block
//! is certain to have run first asserts the flag: Python's UnboundLocalError, naming the line of
//! the read, where the block assigned no value (a loop of no iteration, a branch not taken). A
//! read in a branch not taken raises nothing, as in Python.
//!
//! Names that Python code assigns in every branch of an `if`/`else` and nothing else are
//! `crate::syntax::python_assignments`' conditional expressions instead; a loop's own variable is
//! `crate::loop_vars`'; a list grown by appends (`l = []`) is `crate::grown_lists`'.

use crate::ast::{Block, Expr, ExprKind, Function, Ident, Program, Span, Stmt};
use crate::syntax::{is_synthesized, mk};
use std::cell::Cell;
use std::collections::HashSet;

/// The name of the internal builtin of the placeholder: `scope.unbound(K)`.
pub const UNBOUND: &str = "scope.unbound";
/// The name of the internal builtin that gives an assigned value the name's type:
/// `scope.value(e, K)`.
pub const VALUE: &str = "scope.value";

/// The key of the name whose first assignment is at byte `offset`, in the checker's table of learnt
/// types, which it shares with [`crate::grown_lists`]' lists (numbered from 0): negative.
pub fn key(offset: usize) -> i64 {
    -1 - offset as i64
}

/// Rewrites every function's names first assigned in a block and read after it (see the
/// module's docs). Runs after `crate::loop_vars`, on the assignments as the parser wrote them.
pub fn function_scope(program: &mut Program) {
    let ids = Cell::new(program.num_exprs);
    for f in &mut program.functions {
        function(&ids, f);
    }
    program.num_exprs = ids.get();
}

fn function(ids: &Cell<u32>, f: &mut Function) {
    let bound: HashSet<String> = f.params.iter().map(|p| p.name.name.clone()).collect();
    block(ids, &mut f.body, &bound);
}

/// The names of `b` (with `bound` the names bound before it, around it).
fn block(ids: &Cell<u32>, b: &mut Block, bound: &HashSet<String>) {
    let mut bound = bound.clone();
    let mut i = 0;
    while i < b.stmts.len() {
        let compound = matches!(b.stmts[i], Stmt::For { .. } | Stmt::While { .. } | Stmt::If { .. });
        if compound && !only_declarations(&b.stmts[i]) {
            let mut names = vec![];
            first_assignments(&b.stmts[i], &bound, &mut names);
            let (before, rest) = b.stmts.split_at_mut(i + 1);
            names.retain(|(n, _)| crate::loop_vars::read_after(rest, n) || reads_unassigned(&before[i], n));
            if !names.is_empty() {
                let mut tail = b.stmts.split_off(i + 1);
                let mut s = b.stmts.pop().expect("the compound statement");
                for (name, at) in &names {
                    b.stmts.extend(declare(ids, &mut s, name, at));
                    bound.insert(name.clone());
                    let mut after = Block { stmts: std::mem::take(&mut tail), span: at.clone() };
                    assignments(ids, &mut after, name, at, false);
                    guard_reads(ids, &mut after.stmts, name, at);
                    tail = after.stmts;
                }
                b.stmts.push(s);
                i = b.stmts.len() - 1;
                b.stmts.extend(tail);
            }
        }
        match &b.stmts[i] {
            Stmt::Let { names, .. } => bound.extend(names.iter().map(|n| n.name.clone())),
            Stmt::Assign { name, .. } => {
                bound.insert(name.name.clone());
            }
            _ => {}
        }
        // (Cloned only for a compound statement: once per statement is quadratic in a long block.)
        if matches!(b.stmts[i], Stmt::For { .. } | Stmt::While { .. } | Stmt::If { .. }) {
            let mut inner_bound = bound.clone();
            if let Stmt::For { var, .. } = &b.stmts[i] {
                inner_bound.insert(var.name.clone());
            }
            for inner in b.stmts[i].blocks_mut() {
                block(ids, inner, &inner_bound);
            }
        }
        i += 1;
    }
}

/// Whether a statement inside the compound statement `s` reads `name` where no assignment
/// before it in its block is certain to have run (a loop's value carried to the next iteration,
/// `if k > 0 { d = x[k] - prev; } prev = x[k];`): [`guard_reads`] would guard it.
fn reads_unassigned(s: &Stmt, name: &str) -> bool {
    let mut s = s.clone();
    let ids = Cell::new(0);
    let at = s.span().clone();
    s.blocks_mut().into_iter().any(|b| guard_reads(&ids, &mut b.stmts, name, &at))
}

/// Whether `s` is an `if`/`else` (chain) whose branches only assign names, which
/// `crate::syntax::python_assignments` declares after it as conditional expressions.
fn only_declarations(s: &Stmt) -> bool {
    let Stmt::If { then_block, else_block: Some(e), .. } = s else { return false };
    let assigns = |b: &Block| b.stmts.iter().all(|s| matches!(s, Stmt::Assign { .. }));
    assigns(then_block)
        && match e.stmts.as_slice() {
            [inner @ Stmt::If { .. }] => only_declarations(inner),
            _ => assigns(e),
        }
}

/// The names assigned (`name = e;`, not `name = [];`, a list [`crate::grown_lists`] grows) inside
/// `s` that are not in `bound`, each with its first assignment's span, in order; not the names
/// of loops' variables inside `s` (Python's, of `crate::loop_vars`).
fn first_assignments(s: &Stmt, bound: &HashSet<String>, out: &mut Vec<(String, Span)>) {
    for b in s.blocks() {
        for t in &b.stmts {
            match t {
                Stmt::Assign { name, value, .. }
                    if !bound.contains(&name.name)
                        && !is_synthesized(&name.name)
                        && crate::constants::constant(&name.name).is_none()
                        && !matches!(&value.kind, ExprKind::List(items) if items.is_empty())
                        && !out.iter().any(|(n, _)| *n == name.name) =>
                {
                    out.push((name.name.clone(), name.span.clone()));
                }
                Stmt::For { var, .. } if !bound.contains(&var.name) => {
                    let mut with = bound.clone();
                    with.insert(var.name.clone());
                    first_assignments(t, &with, out);
                    out.retain(|(n, _)| *n != var.name);
                }
                _ => first_assignments(t, bound, out),
            }
        }
    }
}

/// The flag of `name` (first assigned at `at`): `name.bound.K`.
fn flag(name: &str, at: &Span) -> Ident {
    Ident { name: format!("{name}.bound.{}", at.start), span: at.clone() }
}

/// Declares `name` before the compound statement `s` (the statements returned), and makes each
/// assignment of it inside `s` give the learnt type and set the flag, and each read inside `s`
/// that may come before an assignment assert the flag.
fn declare(ids: &Cell<u32>, s: &mut Stmt, name: &str, at: &Span) -> Vec<Stmt> {
    let k = mk(ids, ExprKind::Int(key(at.start)), at.clone());
    let func = Ident { name: UNBOUND.into(), span: at.clone() };
    let unbound = mk(ids, ExprKind::Call { func, args: vec![k], kwargs: vec![] }, at.clone());
    let no = mk(ids, ExprKind::Bool(false), at.clone());
    for b in s.blocks_mut() {
        assignments(ids, b, name, at, true);
        guard_reads(ids, &mut b.stmts, name, at);
    }
    vec![
        Stmt::Let { names: vec![Ident { name: name.into(), span: at.clone() }], value: unbound, span: at.clone() },
        Stmt::Let { names: vec![flag(name, at)], value: no, span: at.clone() },
    ]
}

/// In `b` and the blocks inside it: `name = e;` becomes `name = scope.value(e, K);` (where `wrap`)
/// followed by `name.bound.K = true;`. Stops inside a loop over `name` (its own variable).
fn assignments(ids: &Cell<u32>, b: &mut Block, name: &str, at: &Span, wrap: bool) {
    let mut i = 0;
    while i < b.stmts.len() {
        if let Stmt::Assign { name: n, value, span } = &mut b.stmts[i] {
            if n.name == name {
                if wrap {
                    let e = std::mem::replace(value, mk(ids, ExprKind::Bool(false), span.clone()));
                    let k = mk(ids, ExprKind::Int(key(at.start)), span.clone());
                    let func = Ident { name: VALUE.into(), span: span.clone() };
                    *value = mk(ids, ExprKind::Call { func, args: vec![e, k], kwargs: vec![] }, span.clone());
                }
                let yes = mk(ids, ExprKind::Bool(true), span.clone());
                let set = Stmt::Assign { name: flag(name, at), value: yes, span: span.clone() };
                b.stmts.insert(i + 1, set);
                i += 2;
                continue;
            }
        }
        if !matches!(&b.stmts[i], Stmt::For { var, .. } if var.name == name) {
            for inner in b.stmts[i].blocks_mut() {
                assignments(ids, inner, name, at, wrap);
            }
        }
        i += 1;
    }
}

/// Guards the reads of `name` in `stmts` (a block, or the statements after the compound statement
/// that declared `name`): each statement that reads `name` before an assignment of it in its block
/// is certain to have run (a plain assignment, or an `if`/`else` assigning it in every branch,
/// [`only_declarations`]) asserts the flag first (Python's UnboundLocalError, naming the read's
/// line), in nested blocks too. Stops at a `let` of `name` (a new variable). Whether it guarded one.
fn guard_reads(ids: &Cell<u32>, stmts: &mut Vec<Stmt>, name: &str, at: &Span) -> bool {
    let mut guarded = false;
    let mut i = 0;
    while i < stmts.len() {
        if matches!(&stmts[i], Stmt::Let { names, .. } if names.iter().any(|n| n.name == name)) {
            return guarded;
        }
        if own_reads(&mut stmts[i], name) {
            let span = stmts[i].span().clone();
            let cond = mk(ids, ExprKind::Var(flag(name, at)), span.clone());
            let msg = format!(
                "UnboundLocalError: cannot access local variable '{name}' where it is not associated with a value \
                 (it is first assigned inside a loop or branch that assigned it nothing)"
            );
            stmts.insert(i, Stmt::Assert { cond, msg: Some(msg), span });
            guarded = true;
            i += 1;
        }
        let certain = match &stmts[i] {
            Stmt::Assign { name: n, .. } => n.name == name,
            s @ Stmt::If { .. } => only_declarations(s) && assigns_in_every_branch(s, name),
            _ => false,
        };
        if !matches!(&stmts[i], Stmt::For { var, .. } if var.name == name) {
            for inner in stmts[i].blocks_mut() {
                guarded |= guard_reads(ids, &mut inner.stmts, name, at);
            }
        }
        if certain {
            return guarded;
        }
        i += 1;
    }
    guarded
}

/// Whether every branch of the `if`/`else` chain `s` assigns `name`.
fn assigns_in_every_branch(s: &Stmt, name: &str) -> bool {
    let Stmt::If { then_block, else_block: Some(e), .. } = s else { return false };
    let assigns = |b: &Block| b.stmts.iter().any(|s| matches!(s, Stmt::Assign { name: n, .. } if n.name == name));
    assigns(then_block)
        && match e.stmts.as_slice() {
            [inner @ Stmt::If { .. }] => assigns_in_every_branch(inner, name),
            _ => assigns(e),
        }
}

/// Whether the statement's own expressions (not its blocks') read `name`, or it updates `name`
/// in place.
fn own_reads(s: &mut Stmt, name: &str) -> bool {
    let mut found = matches!(s, Stmt::AugAssign { target, .. } | Stmt::SetItem { target, .. } if target.name == name);
    for e in s.own_exprs_mut() {
        e.walk_mut(&mut |x: &mut Expr| found |= matches!(&x.kind, ExprKind::Var(v) if v.name == name));
    }
    found
}

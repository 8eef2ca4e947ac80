//! Python's loop variable after its loop (`docs/language.md`, "Statements"): Python's `for i in
//! range(..)` assigns the function's `i`, which keeps the last value after the loop; arrayc's
//! loop variable is the loop's own. Rewritten after parsing, for a loop over `range(..)` whose
//! variable is a name of the program:
//!
//! - the name bound before the loop (a parameter, or bound earlier in the block or a block
//!   around it): the loop takes a fresh variable `i.loop.S` and its body starts with `i =
//!   i.loop.S;`, so `i` is the last value after the loop, and keeps its old value where the loop
//!   ran no iteration, as Python's (`i = 5; for i in range(3) {}` leaves 2, where the loop's own
//!   variable left 5).
//! - the name not bound before but read after the loop in its block (`for it in range(maxit) {
//!   .. break; } return it;`): also declared before the loop, `i = start;` (the first value, which
//!   the first iteration assigns anyway), and where the range is not known to be non-empty
//!   (integer literals), an `assert` right after the loop that it ran an iteration (Python's
//!   UnboundLocalError, raised here where the loop ends, also when the read is in a branch not
//!   taken). Not for the names of arrayc's constants (`pi`, `e`, `inf`, `nan`,
//!   `euler_gamma`), which a loop's variable shadows only in the loop (`crate::constants`).

use crate::ast::{BinOp, Block, Expr, ExprKind, Function, Ident, Program, Stmt};
use crate::syntax::{fresh_copy, is_synthesized, mk};
use std::cell::Cell;
use std::collections::HashSet;

/// Rewrites every function's loops whose variable Python reads after them (see the module's docs).
pub fn loop_vars(program: &mut Program) {
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

/// Whether `s` reads `name` (an expression, or an in-place update of it); the body of a loop
/// over `name` itself reads its own variable, not this one.
fn reads(s: &mut Stmt, name: &str) -> bool {
    let mut found = matches!(s, Stmt::AugAssign { target, .. } if target.name == name);
    for e in s.own_exprs_mut() {
        e.walk_mut(&mut |x| found |= matches!(&x.kind, ExprKind::Var(v) if v.name == name));
    }
    if matches!(s, Stmt::For { var, .. } if var.name == name) {
        return found;
    }
    for b in s.blocks_mut() {
        for t in &mut b.stmts {
            found |= reads(t, name);
        }
    }
    found
}

/// Whether the statements `after` (in order) read `name` before they bind it again at their
/// level (an assignment, or a loop over it, after which Python's reads are of the new value).
pub(crate) fn read_after(after: &mut [Stmt], name: &str) -> bool {
    for t in after {
        if reads(t, name) {
            return true;
        }
        let rebinds = match t {
            Stmt::Let { names, .. } => names.iter().any(|n| n.name == name),
            Stmt::Assign { name: n, .. } => n.name == name,
            Stmt::For { var, .. } => var.name == name,
            _ => false,
        };
        if rebinds {
            return false;
        }
    }
    false
}

/// The integer value of a literal (optionally negated).
fn int_literal(e: &Expr) -> Option<i64> {
    match &e.kind {
        ExprKind::Int(v) => Some(*v),
        ExprKind::Unary(crate::ast::UnOp::Neg, a) => int_literal(a).map(|v| -v),
        _ => None,
    }
}

/// The loops of `b` (with `bound` the names bound before it, around it).
fn block(ids: &Cell<u32>, b: &mut Block, bound: &HashSet<String>) {
    let mut bound = bound.clone();
    let stmts = std::mem::take(&mut b.stmts);
    let mut out: Vec<Stmt> = Vec::with_capacity(stmts.len());
    let mut rest: Vec<Stmt> = stmts;
    rest.reverse();
    while let Some(mut s) = rest.pop() {
        let mut after: Option<Stmt> = None;
        let mut rewritten: Option<String> = None;
        if let Stmt::For { var, start, end, step, body, span } = &mut s {
            let name = var.name.clone();
            let before = bound.contains(&name);
            // `rest` holds the statements after `s`, last first.
            // A read after the loop of one of arrayc's named constants (`nan`, `pi`) is the
            // constant, which the loop's variable shadows only in the loop (`crate::constants`).
            let used_after = !is_synthesized(&name) && !before && crate::constants::constant(&name).is_none() && {
                rest.reverse();
                let r = read_after(&mut rest, &name);
                rest.reverse();
                r
            };
            if !is_synthesized(&name) && (before || used_after) {
                let at = var.span.clone();
                let fresh = Ident { name: format!("{name}.loop.{}", at.start), span: at.clone() };
                let value = mk(ids, ExprKind::Var(fresh.clone()), at.clone());
                body.stmts.insert(0, Stmt::Assign { name: var.clone(), value, span: at.clone() });
                *var = fresh;
                rewritten = Some(name.clone());
                if used_after {
                    out.push(Stmt::Assign {
                        name: Ident { name: name.clone(), span: at.clone() },
                        value: fresh_copy(ids, start),
                        span: at.clone(),
                    });
                    let known = match (int_literal(start), int_literal(end), step.as_deref().map(int_literal)) {
                        (Some(a), Some(z), None) => a < z,
                        (Some(a), Some(z), Some(Some(k))) => (k > 0 && a < z) || (k < 0 && a > z),
                        _ => false,
                    };
                    if !known {
                        // Non-empty: `start < end` (with a step `s`: `s > 0 and start < end or
                        // s < 0 and start > end`).
                        let less = |ids: &Cell<u32>, a: &Expr, z: &Expr| {
                            mk(
                                ids,
                                ExprKind::Binary(BinOp::Lt, Box::new(fresh_copy(ids, a)), Box::new(fresh_copy(ids, z))),
                                at.clone(),
                            )
                        };
                        let cond = match step.as_deref() {
                            None => less(ids, start, end),
                            Some(k) => {
                                let zero = mk(ids, ExprKind::Int(0), at.clone());
                                let up = crate::syntax::bool_op(
                                    ids,
                                    crate::ast::BoolOp::And,
                                    less(ids, &zero, k),
                                    Some(less(ids, start, end)),
                                    at.clone(),
                                );
                                let zero = mk(ids, ExprKind::Int(0), at.clone());
                                let down = crate::syntax::bool_op(
                                    ids,
                                    crate::ast::BoolOp::And,
                                    less(ids, k, &zero),
                                    Some(less(ids, end, start)),
                                    at.clone(),
                                );
                                crate::syntax::bool_op(ids, crate::ast::BoolOp::Or, up, Some(down), at.clone())
                            }
                        };
                        let msg = format!("UnboundLocalError: the loop of `{name}` ran no iteration, so Python's `{name}` has no value after it");
                        after = Some(Stmt::Assert { cond, msg: Some(msg), span: span.clone() });
                    }
                }
            }
        }
        match &mut s {
            Stmt::Let { names, .. } => bound.extend(names.iter().map(|n| n.name.clone())),
            Stmt::Assign { name, .. } => {
                bound.insert(name.name.clone());
            }
            _ => {}
        }
        for inner in s.blocks_mut() {
            block(ids, inner, &bound);
        }
        // A rewritten loop's name is bound for what follows (before it, or by the loop).
        bound.extend(rewritten);
        out.push(s);
        out.extend(after);
    }
    b.stmts = out;
}

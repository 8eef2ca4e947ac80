//! Python's `return` inside a loop, rewritten after parsing into a flag, the values to return and
//! `break`s, which the lowering takes (`passes/src/lower_ast/returns.rs` lowers `return`s in `if`
//! branches, not in loops):
//!
//! ```text
//! fn first_negative(v: f64[N]) -> i64 {      fn first_negative(v: f64[N]) -> i64 {
//!                                                let return.done = false;
//!                                                let return.0 = i64(0);
//!     for k in range(len(v)) {                   for k in range(len(v)) {
//!         if v[k] < 0 {                              if v[k] < 0 {
//!             return k;                 =>               return.0 = k; return.done = true; break;
//!         }                                          }
//!     }                                          }
//!                                                if return.done { return return.0; }
//!     return -1;                                 return -1;
//! }                                          }
//! ```
//!
//! A `return` in a loop inside another loop breaks out of each: after every inner loop that
//! holds one comes `if return.done { break; }`, and after the outermost one the `if` that returns.
//! Python's semantics are kept: the function returns the values the `return` computed, when it ran,
//! and nothing after it runs (a `while` condition is not evaluated again after a `break`). Each
//! result needs an initial value of its declared type: `T(0)` for a scalar `T`, `zeros((d0, ..),
//! dtype=T)` for an array whose sizes are written in the type (`f64[N, M - 1]`); a function with a
//! result of a size `?` or rank-generic (`f64[...]`) keeps its `return` in a loop, still E0905. The
//! names (`return.done`, `return.K`) have a dot, which no program can write
//! ([`crate::syntax::is_synthesized`]).

use crate::ast::{Block, DimExpr, Expr, ExprKind, Function, Ident, Program, Stmt, TypeExpr};
use crate::builtin::qualified;
use crate::syntax::mk;
use std::cell::Cell;

/// Rewrites every function with a `return` inside a loop (see the module's docs).
pub fn loop_returns(program: &mut Program) {
    let ids = Cell::new(program.num_exprs);
    for f in &mut program.functions {
        rewrite_function(&ids, f);
    }
    program.num_exprs = ids.get();
}

/// Whether `stmts` hold a `return` inside a loop (`in_loop`: they are a loop's body, or inside one).
fn loop_return(stmts: &[Stmt], in_loop: bool) -> bool {
    stmts.iter().any(|s| match s {
        Stmt::Return { .. } => in_loop,
        Stmt::If { then_block, else_block, .. } => {
            loop_return(&then_block.stmts, in_loop)
                || else_block.as_ref().is_some_and(|b| loop_return(&b.stmts, in_loop))
        }
        Stmt::For { body, .. } | Stmt::While { body, .. } => loop_return(&body.stmts, true),
        _ => false,
    })
}

/// Whether every `return` of `stmts` gives `n` values (else the checker's E0307 says which).
fn returns_give(stmts: &[Stmt], n: usize) -> bool {
    stmts.iter().all(|s| match s {
        Stmt::Return { values, .. } => values.len() == n,
        Stmt::If { then_block, else_block, .. } => {
            returns_give(&then_block.stmts, n) && else_block.as_ref().is_none_or(|b| returns_give(&b.stmts, n))
        }
        Stmt::For { body, .. } | Stmt::While { body, .. } => returns_give(&body.stmts, n),
        _ => true,
    })
}

/// `d` as an `i64` expression of the size symbols (`None` for `?` and `...`).
fn dim_value(ids: &Cell<u32>, d: &DimExpr) -> Option<Expr> {
    use crate::ast::BinOp;
    let bin = |ids: &Cell<u32>, op, a: &DimExpr, b: &DimExpr, span: &crate::ast::Span| {
        let kind = ExprKind::Binary(op, Box::new(dim_value(ids, a)?), Box::new(dim_value(ids, b)?));
        Some(mk(ids, kind, span.clone()))
    };
    match d {
        DimExpr::Lit(v, span) => Some(mk(ids, ExprKind::Int(*v), span.clone())),
        DimExpr::Sym(s) => Some(mk(ids, ExprKind::Var(s.clone()), s.span.clone())),
        DimExpr::Add(a, b, span) => bin(ids, BinOp::Add, a, b, span),
        DimExpr::Sub(a, b, span) => bin(ids, BinOp::Sub, a, b, span),
        DimExpr::Mul(a, b, span) => bin(ids, BinOp::Mul, a, b, span),
        DimExpr::Exists(_) | DimExpr::AnyRank(_) => None,
    }
}

/// An initial value of type `t`: `T(0)`, or `zeros((d0, ..), dtype=T)`; `None` where a size is
/// not written in the type.
fn initial_value(ids: &Cell<u32>, t: &TypeExpr) -> Option<Expr> {
    let at = t.span.clone();
    let ident = |name: String| Ident { name, span: at.clone() };
    match &t.dims {
        None => {
            let zero = mk(ids, ExprKind::Int(0), at.clone());
            let kind = ExprKind::Call { func: ident(t.dtype.name().to_string()), args: vec![zero], kwargs: vec![] };
            Some(mk(ids, kind, at.clone()))
        }
        Some(dims) if dims.is_empty() => None,
        Some(dims) => {
            let sizes = dims.iter().map(|d| dim_value(ids, d)).collect::<Option<Vec<_>>>()?;
            let shape = mk(ids, ExprKind::Tuple(sizes), at.clone());
            let dtype = mk(ids, ExprKind::DTypeName(t.dtype), at.clone());
            let kind = ExprKind::Call {
                func: ident(qualified("zeros")),
                args: vec![shape],
                kwargs: vec![(ident("dtype".into()), dtype)],
            };
            Some(mk(ids, kind, at.clone()))
        }
    }
}

fn rewrite_function(ids: &Cell<u32>, f: &mut Function) {
    if !loop_return(&f.body.stmts, false) || !returns_give(&f.body.stmts, f.results.len()) {
        return;
    }
    let Some(inits) = f.results.iter().map(|t| initial_value(ids, t)).collect::<Option<Vec<_>>>() else { return };
    let at = f.name.span.clone();
    let names = Names {
        done: Ident { name: "return.done".into(), span: at.clone() },
        values: (0..inits.len()).map(|k| Ident { name: format!("return.{k}"), span: at.clone() }).collect(),
    };
    rewrite_block(ids, &mut f.body, false, &names);
    let mut lets = vec![Stmt::Let {
        names: vec![names.done.clone()],
        value: mk(ids, ExprKind::Bool(false), at.clone()),
        span: at.clone(),
    }];
    for (n, v) in names.values.iter().zip(inits) {
        lets.push(Stmt::Let { names: vec![n.clone()], value: v, span: at.clone() });
    }
    f.body.stmts.splice(0..0, lets);
}

/// The flag and the values' variables.
struct Names {
    done: Ident,
    values: Vec<Ident>,
}

/// Rewrites the `return`s inside loops of `b` (`in_loop`: `b` is inside a loop).
fn rewrite_block(ids: &Cell<u32>, b: &mut Block, in_loop: bool, names: &Names) {
    let stmts = std::mem::take(&mut b.stmts);
    for s in stmts {
        match s {
            Stmt::Return { values, span } if in_loop => {
                for (n, v) in names.values.iter().zip(values) {
                    b.stmts.push(Stmt::Assign { name: n.clone(), value: v, span: span.clone() });
                }
                let yes = mk(ids, ExprKind::Bool(true), span.clone());
                b.stmts.push(Stmt::Assign { name: names.done.clone(), value: yes, span: span.clone() });
                b.stmts.push(Stmt::Break { span });
            }
            Stmt::If { cond, mut then_block, mut else_block, span } => {
                rewrite_block(ids, &mut then_block, in_loop, names);
                if let Some(e) = &mut else_block {
                    rewrite_block(ids, e, in_loop, names);
                }
                b.stmts.push(Stmt::If { cond, then_block, else_block, span });
            }
            Stmt::For { var, start, end, step, mut body, span } => {
                let returns = loop_return(&body.stmts, true);
                rewrite_block(ids, &mut body, true, names);
                b.stmts.push(Stmt::For { var, start, end, step, body, span: span.clone() });
                if returns {
                    b.stmts.push(after_loop(ids, in_loop, names, span));
                }
            }
            Stmt::While { cond, mut body, span } => {
                let returns = loop_return(&body.stmts, true);
                rewrite_block(ids, &mut body, true, names);
                b.stmts.push(Stmt::While { cond, body, span: span.clone() });
                if returns {
                    b.stmts.push(after_loop(ids, in_loop, names, span));
                }
            }
            s => b.stmts.push(s),
        }
    }
}

/// What follows a loop that holds a `return`: `if return.done { break; }` inside another loop,
/// else `if return.done { return return.0, ..; }`.
fn after_loop(ids: &Cell<u32>, in_loop: bool, names: &Names, span: crate::ast::Span) -> Stmt {
    let var = |ids: &Cell<u32>, n: &Ident| mk(ids, ExprKind::Var(n.clone()), span.clone());
    let then = if in_loop {
        Stmt::Break { span: span.clone() }
    } else {
        Stmt::Return { values: names.values.iter().map(|n| var(ids, n)).collect(), span: span.clone() }
    };
    Stmt::If {
        cond: var(ids, &names.done),
        then_block: Block { stmts: vec![then], span: span.clone() },
        else_block: None,
        span,
    }
}

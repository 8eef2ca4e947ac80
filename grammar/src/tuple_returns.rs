//! Python's `return f(x)` of a function `f` of the program with several results, in a function
//! with as many results (`return newton(1.0)`, `docs/language.md`, "Functions"), rewritten after
//! parsing as the destructuring it means:
//!
//! ```text
//! return newton(1.0);   =>   let (return.call.0.S, return.call.1.S) = newton(1.0);
//!                            return (return.call.0.S, return.call.1.S);
//! ```
//!
//! (`S` the call's offset; the names have a dot, which no program can write). Each result keeps
//! its type, so another declared type is the checker's error at the `return` as for any value.

use crate::ast::{Block, Expr, ExprKind, Ident, Program, Stmt};
use crate::syntax::mk;
use std::cell::Cell;
use std::collections::HashMap;

/// Rewrites every `return f(..);` of a function of the program with as many results as the
/// function returning it has, when that is two or more (see the module's docs).
pub fn tuple_returns(program: &mut Program) {
    let results: HashMap<String, usize> =
        program.functions.iter().map(|f| (f.name.name.clone(), f.results.len())).collect();
    let ids = Cell::new(program.num_exprs);
    for f in &mut program.functions {
        if f.results.len() >= 2 {
            block(&ids, &results, f.results.len(), &mut f.body);
        }
    }
    program.num_exprs = ids.get();
}

/// The returns of `b` and of the blocks inside it.
fn block(ids: &Cell<u32>, results: &HashMap<String, usize>, count: usize, b: &mut Block) {
    let mut out = Vec::with_capacity(b.stmts.len());
    for mut s in std::mem::take(&mut b.stmts) {
        match &mut s {
            Stmt::For { body, .. } | Stmt::While { body, .. } => block(ids, results, count, body),
            Stmt::If { then_block, else_block, .. } => {
                block(ids, results, count, then_block);
                if let Some(e) = else_block {
                    block(ids, results, count, e);
                }
            }
            Stmt::Return { values, span } => {
                if let [Expr { kind: ExprKind::Call { func, .. }, span: at, .. }] = values.as_slice() {
                    if results.get(&func.name) == Some(&count) {
                        let names: Vec<Ident> = (0..count)
                            .map(|k| Ident { name: format!("return.call.{k}.{}", at.start), span: at.clone() })
                            .collect();
                        let vars = names.iter().map(|n| mk(ids, ExprKind::Var(n.clone()), at.clone())).collect();
                        let call = values.pop().expect("one value");
                        out.push(Stmt::Let { names, value: call, span: span.clone() });
                        *values = vars;
                    }
                }
            }
            _ => {}
        }
        out.push(s);
    }
    b.stmts = out;
}

//! Python's `min(it, key=k)` and `max(it, key=k)` (`docs/language.md`, "Python lists"), rewritten
//! after parsing, before [`crate::lambda::lambdas`] (which refuses a lambda passed as a value):
//! the item of `it` whose key is least (greatest), the first of equal ones, as Python's loop
//! keeps its first item and replaces it by a later one only where `key(v) < key(best)` (`>`).
//!
//! The keys are the list comprehension `ks = [key(v).item() for v in it]` (`k` a one-parameter
//! lambda, whose body is the element with its parameter as the comprehension's variable, or a
//! name of a function, a bound lambda or a builtin, called), so each key is a scalar (`.item()`:
//! an array key of another size than one is Python's error comparing arrays, here the run-time
//! size error of `item`). Python's comparisons are false with NaN, so a NaN key never replaces
//! the best and a NaN first key is never replaced: the position is `argmin(where(isnan(ks),
//! ks[0], ks))` (`argmax`), NaN keys taking the first key's value (which is never better than the
//! first item itself) and a NaN first key making NumPy's `argmin` give its first NaN, 0. An empty
//! `it` is the comprehension's run-time error (Python's ValueError). The result is the item at
//! that position: of `range(a, b, s)` Python's `int` `a + s * i`, of an array `it[i]`.
//! Other iterables (`zip`, `enumerate`, a generator) and other keywords (`default=`) stay E0114 or
//! E0202.

use crate::ast::{BinOp, Expr, ExprKind, Ident, Index, Program, Span};
use crate::builtin::qualified;
use crate::syntax::{fresh_copy, mk, ForTarget};
use std::cell::Cell;
use std::collections::HashSet;

/// Rewrites every `min(it, key=k)` and `max(it, key=k)` (see the module's docs). A function of
/// the program named `min` or `max` keeps its calls.
pub fn key_extrema(program: &mut Program) {
    let own: HashSet<String> = program.functions.iter().map(|f| f.name.name.clone()).collect();
    let ids = Cell::new(program.num_exprs);
    for f in &mut program.functions {
        f.for_each_expr_mut(&mut |e| {
            let ExprKind::Call { func, args, kwargs } = &e.kind else { return };
            let arg = match func.name.as_str() {
                "min" => "argmin",
                "max" => "argmax",
                _ => return,
            };
            if own.contains(&func.name) || args.len() != 1 {
                return;
            }
            let [(k, key)] = kwargs.as_slice() else { return };
            if k.name != "key" || !iterable(&args[0]) {
                return;
            }
            if let Some(v) = rewrite(&ids, arg, &args[0], key, &e.span) {
                *e = v;
            }
        });
    }
    program.num_exprs = ids.get();
}

/// Whether `it` is an iterable this module takes: `range(..)` or a value that is no call of
/// Python's other iterations (`zip`, `enumerate`, `reversed`, a comprehension or generator).
fn iterable(it: &Expr) -> bool {
    match &it.kind {
        ExprKind::Call { func, .. } => {
            func.name == "range"
                || !(matches!(
                    func.name.as_str(),
                    "zip" | "enumerate" | "reversed" | "sorted" | "map" | "filter" | "list" | "tuple"
                ) || func.name.starts_with(crate::comprehension::GENERATOR)
                    || func.name == crate::comprehension::LIST
                    || func.name == crate::lambda::LAMBDA)
        }
        _ => true,
    }
}

/// `min(it, key=key)` (`arg` `argmin`) or `max` (`argmax`), at `at`; `None` where `key` is no
/// one-parameter lambda or name.
fn rewrite(ids: &Cell<u32>, arg: &str, it: &Expr, key: &Expr, at: &Span) -> Option<Expr> {
    let call = |f: &str, args: Vec<Expr>| {
        mk(
            ids,
            ExprKind::Call { func: Ident { name: f.to_string(), span: at.clone() }, args, kwargs: vec![] },
            at.clone(),
        )
    };
    // The key of one item, and the comprehension's variable.
    let (elt, var) = match &key.kind {
        ExprKind::Call { func, args, kwargs } if func.name == crate::lambda::LAMBDA && kwargs.is_empty() => {
            match args.as_slice() {
                [Expr { kind: ExprKind::Var(p), .. }, body] => (body.clone(), p.clone()),
                _ => return None,
            }
        }
        ExprKind::Var(name) => {
            let var = Ident { name: format!("key.{}", at.start), span: at.clone() };
            let item = mk(ids, ExprKind::Var(var.clone()), at.clone());
            (call(&name.name, vec![item]), var)
        }
        _ => return None,
    };
    let keys = |ids: &Cell<u32>| {
        let scalar = crate::py_lists::item(ids, fresh_copy(ids, &elt), at.clone());
        let clause = (ForTarget::Name(var.clone()), fresh_copy(ids, it), None);
        crate::comprehension::comprehension(ids, None, scalar, vec![clause], at.clone()).ok()
    };
    let (ks, first, all) = (keys(ids)?, keys(ids)?, keys(ids)?);
    let zero = mk(ids, ExprKind::Int(0), at.clone());
    let first = mk(ids, ExprKind::Subscript { base: Box::new(first), index: vec![Index::At(zero)] }, at.clone());
    let nan = call(&qualified("isnan"), vec![ks]);
    let kept = call(&qualified("where"), vec![nan, first, all]);
    let i = call(&qualified(arg), vec![kept]);
    Some(match &it.kind {
        ExprKind::Call { func, args, .. } if func.name == "range" => {
            // Python's `int` item of `range(a, b, s)`: `a + s * i`.
            let pos = match args.as_slice() {
                [_] => i,
                [a, _] => mk(ids, ExprKind::Binary(BinOp::Add, Box::new(fresh_copy(ids, a)), Box::new(i)), at.clone()),
                [a, _, s] => {
                    let step =
                        mk(ids, ExprKind::Binary(BinOp::Mul, Box::new(fresh_copy(ids, s)), Box::new(i)), at.clone());
                    mk(ids, ExprKind::Binary(BinOp::Add, Box::new(fresh_copy(ids, a)), Box::new(step)), at.clone())
                }
                _ => return None,
            };
            call("int", vec![pos])
        }
        _ => {
            mk(ids, ExprKind::Subscript { base: Box::new(fresh_copy(ids, it)), index: vec![Index::At(i)] }, at.clone())
        }
    })
}

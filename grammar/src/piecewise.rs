//! NumPy's `piecewise(x, condlist, funclist)` (issue 31), rewritten as the program is parsed (from
//! [`crate::spellings::rewrite_call`], before lambdas are inlined). NumPy starts from
//! `zeros_like(x)` and, for each condition in order, writes `f(x[c])` (or the number `f`) where it
//! holds, converted to `x`'s dtype, so a later condition wins; one function more than conditions is
//! the default, for the elements where none holds. Here each value is computed on the whole `x`
//! and chosen with `where`: `y = where(c_k, array(f_k(x), dtype=x.dtype), y)`, the same where `f_k`
//! is elementwise, which [`crate::call_of_call::elementwise`] decides of a `lambda` written in the
//! list (operators and NumPy's elementwise math functions). `condlist` is a list written out (or
//! one condition), `funclist` a list written out of such lambdas and numbers. `x` and the
//! conditions are evaluated once (a lambda called in place, [`crate::call_of_call::CALL`]). Any
//! other call stays, for the checker's error (E0202), which names the arrayc way.

use crate::ast::{DType, Expr, ExprKind, Ident, UnOp};
use crate::call_of_call::{elementwise, CALL};
use crate::compositions::Build;
use crate::lambda::LAMBDA;
use std::cell::Cell;
use std::collections::HashMap;

/// The rewrite of `e`, a call of `piecewise` (see the module's docs), in place.
pub fn rewrite(ids: &Cell<u32>, e: &mut Expr) {
    let ExprKind::Call { args, kwargs, .. } = &e.kind else { return };
    let ([x, condlist, funclist], true) = (args.as_slice(), kwargs.is_empty()) else { return };
    let conds: Vec<&Expr> = match &condlist.kind {
        ExprKind::List(items) | ExprKind::Tuple(items) => items.iter().collect(),
        _ => vec![condlist],
    };
    let (ExprKind::List(funcs) | ExprKind::Tuple(funcs)) = &funclist.kind else { return };
    if conds.is_empty() || (funcs.len() != conds.len() && funcs.len() != conds.len() + 1) {
        return;
    }
    let b = Build { ids, at: e.span.clone() };
    let fresh = ids.get();
    let xp = b.kw(&format!("piecewise.{fresh}.x"));
    let cps: Vec<Ident> = (0..conds.len()).map(|k| b.kw(&format!("piecewise.{fresh}.c{k}"))).collect();
    let var = |p: &Ident| b.e(ExprKind::Var(p.clone()));
    // Each function's values on the whole of `x`.
    let mut values = Vec::with_capacity(funcs.len());
    for f in funcs {
        let v = match &f.kind {
            ExprKind::Int(_) | ExprKind::Float(_) | ExprKind::Bool(_) => b.copy(f),
            ExprKind::Unary(UnOp::Neg, n) if matches!(n.kind, ExprKind::Int(_) | ExprKind::Float(_)) => b.copy(f),
            ExprKind::Call { func, args: parts, .. } if func.name == LAMBDA && parts.len() == 2 => {
                let ExprKind::Var(p) = &parts[0].kind else { return };
                if !elementwise(&parts[1], std::slice::from_ref(&p.name), false) {
                    return;
                }
                let mut body = b.copy(&parts[1]);
                crate::lambda::substitute(&mut body, &HashMap::from([(p.name.clone(), var(&xp))]));
                body
            }
            _ => return,
        };
        values.push(v);
    }
    let Ok(dtype) = crate::syntax::attribute(ids, var(&xp), b.kw("dtype"), b.at.clone()) else { return };
    let mut selected: Vec<Expr> = cps.iter().map(var).collect();
    if funcs.len() == conds.len() + 1 {
        let any = cps.iter().map(var).reduce(|a, c| b.bin(crate::ast::BinOp::Or, a, c));
        let none = any.map(|a| b.e(ExprKind::Unary(UnOp::Not, Box::new(a))));
        selected.extend(none);
    }
    let mut y = b.call("zeros_like", vec![var(&xp)], vec![]);
    for (c, v) in selected.into_iter().zip(values) {
        let v = b.call("array", vec![v], vec![(b.kw("dtype"), b.copy(&dtype))]);
        y = b.call("where", vec![c, v, y], vec![]);
    }
    let params = [vec![xp], cps].concat();
    let lambda = crate::lambda::lambda(ids, params, y, b.at.clone());
    // NumPy's `asarray(condlist, dtype=bool)`.
    let bool_of =
        |c: &Expr| b.call("asarray", vec![b.copy(c)], vec![(b.kw("dtype"), b.e(ExprKind::DTypeName(DType::Bool)))]);
    let args = [vec![lambda, b.copy(x)], conds.iter().map(|c| bool_of(c)).collect()].concat();
    *e = b.e(ExprKind::Call { func: b.kw(CALL), args, kwargs: vec![] });
}

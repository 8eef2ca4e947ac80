//! NumPy's `np.apply_along_axis(f, k, x)` of a function that is no NumPy function along an axis
//! (a lambda, a lambda bound to a name, a function of the program), for a 2-d `x`: rewritten
//! after parsing, before [`crate::lambda::lambdas`] (which refuses a lambda passed as a value), as
//! NumPy computes it, `f` of each 1-d slice along axis `k`, the results stacked where the slices
//! were:
//!
//! - `k` 1 (or -1): `np.array([f(r) for r in x])`, `(a,)` for a scalar `f`, `(a, L)` for one of
//!   `L` values;
//! - `k` 0 (or -2): `np.array([f(c) for c in x.T]).T`, `(b,)` or `(L, b)`.
//!
//! Before the statement, `assert np.ndim(x) == 2` (a run-time error naming the line for another
//! rank, where NumPy would apply `f` along the axis of an n-d array). NumPy's functions along an
//! axis by name (`np.sum`, `np.sort`, ..) stay `crate::compositions`' `f(x, axis=k)`; another `k`
//! or keywords stay the builtin's error, which names the arrayc way.

use crate::ast::{BinOp, Block, Expr, ExprKind, Ident, Program, Span, Stmt};
use crate::builtin::qualified;
use crate::syntax::{fresh_copy, mk, ForTarget};
use std::cell::Cell;

/// Rewrites every `apply_along_axis` of a function (see the module's docs).
pub fn apply_along_axis(program: &mut Program) {
    let ids = Cell::new(program.num_exprs);
    for f in &mut program.functions {
        block(&ids, &mut f.body);
    }
    program.num_exprs = ids.get();
}

fn block(ids: &Cell<u32>, b: &mut Block) {
    let mut i = 0;
    while i < b.stmts.len() {
        let mut checks = vec![];
        for e in b.stmts[i].own_exprs_mut() {
            e.for_each_mut(&mut |e| {
                if let Some((v, x)) = rewrite(ids, e) {
                    checks.push(rank_check(ids, x, &e.span));
                    *e = v;
                }
            });
        }
        for inner in b.stmts[i].blocks_mut() {
            block(ids, inner);
        }
        let n = checks.len();
        if n > 0 {
            // (An empty splice still moves the block's tail: quadratic in a long block.)
            b.stmts.splice(i..i, checks);
        }
        i += n + 1;
    }
}

/// `assert np.ndim(x) == 2, ..` at `at`.
fn rank_check(ids: &Cell<u32>, x: Expr, at: &Span) -> Stmt {
    let func = Ident { name: qualified("ndim"), span: at.clone() };
    let ndim = mk(ids, ExprKind::Call { func, args: vec![x], kwargs: vec![] }, at.clone());
    let two = mk(ids, ExprKind::Int(2), at.clone());
    let cond = mk(ids, ExprKind::Binary(BinOp::Eq, Box::new(ndim), Box::new(two)), at.clone());
    let msg = "ValueError: arrayc's `apply_along_axis` of a function takes a 2-d array: for another rank, loop \
               over the other axes"
        .to_string();
    Stmt::Assert { cond, msg: Some(msg), span: at.clone() }
}

/// The rewrite of `e` when it is `apply_along_axis(f, k, x)` of a function (see the module's docs),
/// with `x`.
fn rewrite(ids: &Cell<u32>, e: &Expr) -> Option<(Expr, Expr)> {
    let ExprKind::Call { func, args, kwargs } = &e.kind else { return None };
    let name = func.name.strip_prefix(crate::builtin::QUALIFIED).unwrap_or(&func.name);
    let ([f, k, x], true) = (args.as_slice(), name == "apply_along_axis" && kwargs.is_empty()) else {
        return None;
    };
    let rows = match crate::check::literal_int(k)? {
        1 | -1 => true,
        0 | -2 => false,
        _ => return None,
    };
    let at = e.span.clone();
    // The value of one slice, and the comprehension's variable.
    let (elt, var) = match &f.kind {
        ExprKind::Call { func, args, kwargs } if func.name == crate::lambda::LAMBDA && kwargs.is_empty() => {
            match args.as_slice() {
                [Expr { kind: ExprKind::Var(p), .. }, body] => (body.clone(), p.clone()),
                _ => return None,
            }
        }
        ExprKind::Var(g) if !crate::compositions::along_axis(&g.name) => {
            let var = Ident { name: format!("along.{}", at.start), span: at.clone() };
            let item = mk(ids, ExprKind::Var(var.clone()), at.clone());
            let func = Ident { name: g.name.clone(), span: g.span.clone() };
            (mk(ids, ExprKind::Call { func, args: vec![item], kwargs: vec![] }, at.clone()), var)
        }
        _ => return None,
    };
    let transpose = |ids: &Cell<u32>, v: Expr| {
        let func = Ident { name: qualified("transpose"), span: at.clone() };
        mk(ids, ExprKind::Call { func, args: vec![v], kwargs: vec![] }, at.clone())
    };
    let it = if rows { fresh_copy(ids, x) } else { transpose(ids, fresh_copy(ids, x)) };
    let clause = (ForTarget::Name(var), it, None);
    let list = crate::comprehension::comprehension(ids, None, elt, vec![clause], at.clone()).ok()?;
    let func = Ident { name: qualified("array"), span: at.clone() };
    let array = mk(ids, ExprKind::Call { func, args: vec![list], kwargs: vec![] }, at.clone());
    Some((if rows { array } else { transpose(ids, array) }, fresh_copy(ids, x)))
}

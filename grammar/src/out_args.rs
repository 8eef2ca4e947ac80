//! NumPy's `out=` argument (issue 31), rewritten once the program is parsed, before
//! [`crate::writes`]: a call `np.f(args, out=d)` (a ufunc, a reduction, a scan, `clip`, `dot`,
//! `matmul`, any builtin) writes its result into the array `d` and returns `d`. Where the call is
//! a whole statement, `np.f(args, out=d);` becomes `copyto(d, np.f(args));` (NumPy casts into
//! `out` by the `same_kind` rule, as `copyto` does: a float result into an integer `d` is E0320);
//! as the value of an assignment or a `return`, the `copyto` comes first and the value is `d`
//! (`w = np.add(a, b, out=d)` binds `w` to `d`, which aliases it, as NumPy's). A ufunc's
//! `where=m` with `out=` selects the elements written (`copyto(d, np.f(args), where=m)`: the
//! others keep `d`'s values, NumPy's rule); a reduction's `where=` stays its own. `out=(d,)` is
//! `out=d`, and `out=None` the default. Anywhere else (inside a larger expression, a condition)
//! the call keeps `out=`, for the checker's E0502.

use crate::ast::{Block, Expr, ExprKind, Ident, Program, Stmt};
use crate::builtin::{qualified, Builtin, QUALIFIED};
use crate::syntax::fresh_copy;
use std::cell::Cell;
use std::collections::HashSet;

/// Rewrites every call with `out=` of `program` that is a statement, an assignment's value or a
/// `return`'s one value (see the module's documentation). A bare call of a function of the
/// program stays.
pub fn out_args(program: &mut Program) {
    let functions: HashSet<String> = program.functions.iter().map(|f| f.name.name.clone()).collect();
    let ids = Cell::new(program.num_exprs);
    for f in &mut program.functions {
        block(&ids, &functions, &mut f.body);
    }
    program.num_exprs = ids.get();
}

fn block(ids: &Cell<u32>, functions: &HashSet<String>, b: &mut Block) {
    for mut s in std::mem::take(&mut b.stmts) {
        for inner in s.blocks_mut() {
            block(ids, functions, inner);
        }
        let value = match &mut s {
            Stmt::Expr(e) | Stmt::Let { value: e, .. } | Stmt::Assign { value: e, .. } => Some(e),
            Stmt::Return { values, .. } if values.len() == 1 => values.first_mut(),
            _ => None,
        };
        if let Some(write) = value.and_then(|e| written(ids, functions, e)) {
            b.stmts.push(write);
            if matches!(s, Stmt::Expr(_)) {
                continue;
            }
        }
        b.stmts.push(s);
    }
}

/// Where `e` is a builtin's call with `out=d`: `e` replaced by `d` and the statement
/// `copyto(d, call)` that writes the call's result (without `out=`), else `None`.
fn written(ids: &Cell<u32>, functions: &HashSet<String>, e: &mut Expr) -> Option<Stmt> {
    let ExprKind::Call { func, kwargs, .. } = &e.kind else { return None };
    let name = match func.name.strip_prefix(QUALIFIED) {
        Some(n) => n.to_string(),
        None if !functions.contains(&func.name) => func.name.trim_start_matches('.').to_string(),
        None => return None,
    };
    let at = kwargs.iter().position(|(k, _)| k.name == "out")?;
    let out = match &kwargs[at].1.kind {
        ExprKind::Tuple(items) if items.len() == 1 => items[0].clone(),
        ExprKind::NoneLit => return None,
        _ => kwargs[at].1.clone(),
    };
    let span = e.span.clone();
    let value = std::mem::replace(e, fresh_copy(ids, &out));
    let ExprKind::Call { func, mut args, mut kwargs } = value.kind else { unreachable!("matched above") };
    kwargs.remove(at);
    // A ufunc's `where=` selects what is written; a reduction's is its own.
    let reduction = Builtin::from_name(&name).is_some_and(|b| b.reduces_axis_tuples());
    let mut copy_kwargs = vec![];
    if !reduction {
        if let Some(w) = kwargs.iter().position(|(k, _)| k.name == "where") {
            copy_kwargs.push(kwargs.remove(w));
        }
    }
    let call = match crate::syntax::operator_ufunc(&name, &mut args, &kwargs) {
        Some(kind) => kind,
        None => ExprKind::Call { func, args, kwargs },
    };
    let call = Expr { id: value.id, kind: call, span: span.clone() };
    let func = Ident { name: qualified("copyto"), span: span.clone() };
    let copy = ExprKind::Call { func, args: vec![out, call], kwargs: copy_kwargs };
    Some(Stmt::Expr(crate::syntax::mk(ids, copy, span)))
}

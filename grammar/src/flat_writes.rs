//! NumPy's writes through an array's flat iterator (issue 31), rewritten as they are parsed:
//! `x.flat[i] = v;`, `x.flat[i] op= v;` and `x.flat = v;` write `x`'s elements in row-major order
//! (`i` an integer, negative from the end, a slice, an index array or a mask, as for a 1-d array).
//! NumPy's `x.flat` writes into `x` itself, whatever its strides; arrayc's `ravel(x)` is a view of
//! `x` only where `x` is contiguous (decided at run time), so the write goes through a flat copy
//! that is written back: `let t = flatten(x); t[i] = v; x[...] = reshape(t, x.shape);`. `x` is a
//! name (of an array or of a view, which writes through). Reads of `x.flat` are `ravel(x)`
//! ([`crate::syntax::attribute`]). Writes through `x.T[i]` go through the transpose, a view
//! ([`transposed_write`]).

use crate::ast::{BinOp, Expr, ExprKind, Ident, Index, Span, Stmt};
use crate::builtin::qualified;
use crate::lexer::LexError;
use crate::syntax::{index_tuple, mk};
use std::cell::Cell;

/// `target.attr[index] = value;` (`op`: `target.attr[index] op= value;`), or `target.attr =
/// value;` without an index, as statements (see the module docs); an `attr` other than `flat` is
/// the unknown attribute's error.
pub fn flat_assign(
    ids: &Cell<u32>,
    target: Ident,
    attr: Ident,
    index: Option<Vec<Index>>,
    op: Option<BinOp>,
    value: Expr,
    span: Span,
) -> Result<Vec<Stmt>, LexError> {
    if attr.name != "flat" {
        return Err(LexError::Attribute { name: attr.name, span: attr.span });
    }
    let at = target.span.start..attr.span.end;
    let e = |kind: ExprKind| mk(ids, kind, at.clone());
    let call = |name: &str, args: Vec<Expr>| {
        mk(
            ids,
            ExprKind::Call { func: Ident { name: qualified(name), span: at.clone() }, args, kwargs: vec![] },
            at.clone(),
        )
    };
    let var = |i: &Ident| ExprKind::Var(i.clone());
    let temp = Ident { name: format!("flat.{}", span.start), span: at.clone() };
    let copy = Stmt::Let { names: vec![temp.clone()], value: call("flatten", vec![e(var(&target))]), span: at.clone() };
    let index = match index {
        Some(index) => index_tuple(ids, index),
        None => vec![Index::Ellipsis(at.clone())],
    };
    let write = match op {
        None => Stmt::SetItem { target: temp.clone(), index, value, span: span.clone() },
        Some(op) => Stmt::AugAssign { target: temp.clone(), index, op, value, span: span.clone() },
    };
    let shape = mk(
        ids,
        ExprKind::Call {
            func: Ident { name: ".shape".to_string(), span: at.clone() },
            args: vec![e(var(&target))],
            kwargs: vec![],
        },
        at.clone(),
    );
    let back = call("reshape", vec![e(var(&temp)), shape]);
    let store = Stmt::SetItem { target, index: vec![Index::Ellipsis(at.clone())], value: back, span };
    Ok(vec![copy, write, store])
}

/// `x.T[index] = value;` (`op=` too): NumPy's write through the transpose, a view of `x`:
/// `let t = transpose(x); t[index] = value;`.
pub fn transposed_write(
    ids: &Cell<u32>,
    target: Ident,
    attr: Span,
    index: Vec<Index>,
    op: Option<BinOp>,
    value: Expr,
    span: Span,
) -> Vec<Stmt> {
    let at = target.span.start..attr.end;
    let x = mk(ids, ExprKind::Var(target), at.clone());
    let func = Ident { name: qualified("transpose"), span: at.clone() };
    let view = mk(ids, ExprKind::Call { func, args: vec![x], kwargs: vec![] }, at.clone());
    let temp = Ident { name: format!("T.{}", span.start), span: at.clone() };
    let bind = Stmt::Let { names: vec![temp.clone()], value: view, span: at };
    let index = index_tuple(ids, index);
    let write = match op {
        None => Stmt::SetItem { target: temp, index, value, span },
        Some(op) => Stmt::AugAssign { target: temp, index, op, value, span },
    };
    vec![bind, write]
}

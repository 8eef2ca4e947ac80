//! NumPy calls along several axes or in another order, rewritten as the program is parsed into
//! compositions of builtins (issue 31, from [`crate::spellings::rewrite_call`]):
//! - `roll(x, (s0, s1, ..), axis=(a0, a1, ..))`: one `roll` per axis in turn (NumPy rolls each
//!   axis by its shift; a single shift or axis is broadcast against the other tuple, and shifts of
//!   one axis named twice add up, as rolling twice does);
//! - `reshape(x, shape, order='F')`: NumPy's column-major reshape, the transpose of the row-major
//!   reshape of `x`'s transpose to the reversed shape (`order='C'` is the default, dropped);
//! - `trace(x, offset=k)`: the sum of `diagonal(x, k)`;
//! - `block([a, b, ..])` and `block([[a, b], [c, d], ..])`: the items joined along the last axis
//!   (as `atleast_1d`) and, nested, the rows of 2-d items (as `atleast_2d`) joined along the
//!   second last;
//! - `linalg.multi_dot([a, b, c, ..])`: the products from the left, `dot(dot(a, b), c)` (NumPy
//!   chooses the cheapest order, which changes the rounding only).
//!
//! A call this module cannot rewrite (a shape or a count known only at run time) stays as it is,
//! for the checker's error.

use crate::ast::{Expr, ExprKind, Ident};
use crate::compositions::Build;
use std::cell::Cell;

/// The rewrite of `e`, a call of `name` (without `np.`), where it is one of the module docs';
/// `true` where `e` was rewritten.
pub fn rewrite(ids: &Cell<u32>, name: &str, e: &mut Expr) -> bool {
    let ExprKind::Call { args, kwargs, .. } = &mut e.kind else { return false };
    let b = Build { ids, at: e.span.clone() };
    let new = match name {
        "roll" => roll(&b, args, kwargs),
        "reshape" => fortran_reshape(&b, args, kwargs),
        "trace" => trace_offset(&b, args, kwargs),
        "linalg.multi_dot" if args.len() == 1 && kwargs.is_empty() => multi_dot(&b, &args[0]),
        "block" if args.len() == 1 && kwargs.is_empty() => block(&b, &args[0]),
        _ => None,
    };
    let Some(new) = new else { return false };
    e.kind = new.kind;
    true
}

/// The items of a tuple or list literal, or the one expression.
fn items(e: &Expr) -> Vec<&Expr> {
    match &e.kind {
        ExprKind::Tuple(items) | ExprKind::List(items) => items.iter().collect(),
        _ => vec![e],
    }
}

/// `roll(x, shift, axis)` where the shift or the axis (by keyword or third by position) is a
/// tuple: `roll(roll(x, s0, axis=a0), s1, axis=a1)..`; pairs broadcast as NumPy's (one of the two
/// of length 1). `None` for other calls, and for tuples of different lengths (NumPy's error, the
/// checker's E0503).
fn roll(b: &Build, args: &[Expr], kwargs: &[(Ident, Expr)]) -> Option<Expr> {
    let axis = match (kwargs, args) {
        ([(k, a)], [_, _]) if k.name == "axis" => a,
        ([], [_, _, a]) => a,
        _ => return None,
    };
    let tuple = |e: &Expr| matches!(e.kind, ExprKind::Tuple(_) | ExprKind::List(_));
    if !tuple(&args[1]) && !tuple(axis) {
        return None;
    }
    let (shifts, axes) = (items(&args[1]), items(axis));
    let n = shifts.len().max(axes.len());
    if (shifts.len() != n && shifts.len() != 1) || (axes.len() != n && axes.len() != 1) || n == 0 {
        return None;
    }
    let mut x = b.copy(&args[0]);
    for i in 0..n {
        let s = b.copy(shifts[i.min(shifts.len() - 1)]);
        let a = b.copy(axes[i.min(axes.len() - 1)]);
        x = b.call("roll", vec![x, s], vec![(b.kw("axis"), a)]);
    }
    Some(x)
}

/// `reshape(x, shape, order='F')` (the shape a tuple or list literal, or the sizes as arguments):
/// `transpose(reshape(transpose(x), reversed shape))`; `order='C'` is dropped. `None` where the
/// order is neither or the shape is not written out.
fn fortran_reshape(b: &Build, args: &[Expr], kwargs: &[(Ident, Expr)]) -> Option<Expr> {
    let [(k, order)] = kwargs else { return None };
    let order = match &order.kind {
        ExprKind::Str(o) | ExprKind::Var(Ident { name: o, .. }) if k.name == "order" => o.as_str(),
        _ => return None,
    };
    let (x, sizes) = args.split_first()?;
    let sizes: Vec<&Expr> = match sizes {
        [one] => match &one.kind {
            ExprKind::Tuple(_) | ExprKind::List(_) | ExprKind::Int(_) | ExprKind::Unary(..) => items(one),
            _ => return None,
        },
        [] => return None,
        many => many.iter().collect(),
    };
    let mut sizes: Vec<Expr> = sizes.into_iter().map(|s| b.copy(s)).collect();
    match order {
        "C" => Some(b.call("reshape", vec![b.copy(x), b.e(ExprKind::Tuple(sizes))], vec![])),
        "F" => {
            sizes.reverse();
            let t = b.call("transpose", vec![b.copy(x)], vec![]);
            let r = b.call("reshape", vec![t, b.e(ExprKind::Tuple(sizes))], vec![]);
            Some(b.call("transpose", vec![r], vec![]))
        }
        _ => None,
    }
}

/// `trace(x, offset=k)` (or `k` second by position): `sum(diagonal(x, k))`, the diagonal's own
/// rewrite ([`crate::spellings::rewrite_call`]: a view of `x` for an integer literal `k`; NumPy's
/// `trace` sums in `sum`'s dtype). `None` for other calls.
fn trace_offset(b: &Build, args: &[Expr], kwargs: &[(Ident, Expr)]) -> Option<Expr> {
    let (x, k) = match (args, kwargs) {
        ([x, k], []) => (x, k),
        ([x], [(n, k)]) if n.name == "offset" => (x, k),
        _ => return None,
    };
    let mut d = b.call("diagonal", vec![b.copy(x), b.copy(k)], vec![]);
    crate::spellings::rewrite_call(b.ids, "diagonal", &mut d);
    Some(b.call("sum", vec![d], vec![]))
}

/// `linalg.multi_dot([a, b, c, ..])` of a list or tuple literal of at least two arrays:
/// `dot(dot(a, b), c)..`. `None` for fewer (NumPy's ValueError, the checker's error).
fn multi_dot(b: &Build, list: &Expr) -> Option<Expr> {
    let (ExprKind::List(items) | ExprKind::Tuple(items)) = &list.kind else { return None };
    let (first, rest) = items.split_first()?;
    if rest.is_empty() {
        return None;
    }
    Some(rest.iter().fold(b.copy(first), |acc, m| b.call("dot", vec![acc, b.copy(m)], vec![])))
}

/// NumPy's `block` of a list literal of arrays (`concatenate` of `atleast_1d`s along axis -1) or
/// of a list of such lists (each row the `concatenate` of `atleast_2d`s along -1, the rows along
/// -2), NumPy's rule for these depths. `None` for other nestings (the checker's error).
fn block(b: &Build, list: &Expr) -> Option<Expr> {
    let ExprKind::List(rows) = &list.kind else { return None };
    let nested = |e: &Expr| matches!(e.kind, ExprKind::List(_));
    let join = |items: Vec<Expr>, axis: i64| {
        let axis = b.e(ExprKind::Unary(crate::ast::UnOp::Neg, Box::new(b.int(axis))));
        b.call("concatenate", vec![b.e(ExprKind::Tuple(items))], vec![(b.kw("axis"), axis)])
    };
    if rows.is_empty() {
        return None;
    }
    if !rows.iter().any(nested) {
        return Some(join(rows.iter().map(|a| b.call("atleast_1d", vec![b.copy(a)], vec![])).collect(), 1));
    }
    let mut joined = vec![];
    for row in rows {
        let ExprKind::List(items) = &row.kind else { return None };
        if items.is_empty() || items.iter().any(nested) {
            return None;
        }
        joined.push(join(items.iter().map(|a| b.call("atleast_2d", vec![b.copy(a)], vec![])).collect(), 1));
    }
    Some(join(joined, 2))
}

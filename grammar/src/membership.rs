//! Python's membership test, `k in (1, 2, 3)`, `v in x`, `k not in xs`: a comparison (the level of
//! `==`, chaining as the others do), rewritten at parse time into what arrayc already has.
//!
//! Of a tuple or list written out, `k in (a, b, c)` is Python's `k == a or k == b or k == c` (a
//! `bool`; of an array `k`, `or` is NumPy's "truth value of an array is ambiguous", arrayc's error
//! for `or` of arrays); `k in ()` is `false`. Of any other right operand, an array `x`,
//! `v in x` is NumPy's `x.__contains__(v)`, `(x == v).any()`. `not in` is the negation.

use crate::ast::{BinOp, BoolOp, Expr, ExprKind, Ident, Span};
use crate::builtin::qualified;
use crate::syntax::{bool_op, comparison, mk};
use std::cell::Cell;

/// A comparison operator as written: one of the six of [`BinOp`], `in` or `not in`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cmp {
    /// `==`, `!=`, `<`, `<=`, `>`, `>=`.
    Op(BinOp),
    /// `in`.
    In,
    /// `not in`.
    NotIn,
}

/// `a cmp b`, one comparison (of a chain, one link): the six operators are
/// [`crate::syntax::comparison`], `in` and `not in` the membership test (the module's docs).
pub fn compare(ids: &Cell<u32>, a: Expr, cmp: Cmp, b: Expr, span: Span) -> Expr {
    match cmp {
        Cmp::Op(op) => comparison(ids, a, op, b, span),
        Cmp::In => contains(ids, a, b, span),
        Cmp::NotIn => {
            let c = contains(ids, a, b, span.clone());
            bool_op(ids, BoolOp::Not, c, None, span)
        }
    }
}

/// `k in b`: an `or` of `==` over the items of a tuple or list written out, else `any(b == k)`.
fn contains(ids: &Cell<u32>, k: Expr, b: Expr, span: Span) -> Expr {
    // `x.dtype.kind in 'iu'`: Python's substring test (`crate::dtype_queries`).
    let (k, b) = match crate::dtype_queries::kind_in(ids, k, b, &span) {
        Ok(test) => return test,
        Err(operands) => *operands,
    };
    match b.kind {
        ExprKind::Tuple(items) | ExprKind::List(items) => {
            let mut items = items.into_iter();
            let Some(first) = items.next() else { return mk(ids, ExprKind::Bool(false), span) };
            let eq = |ids: &Cell<u32>, k: Expr, item: Expr| {
                let s = item.span.clone();
                comparison(ids, k, BinOp::Eq, item, s)
            };
            let rest: Vec<Expr> = items.collect();
            let copies: Vec<Expr> = rest.iter().map(|_| crate::syntax::fresh_copy(ids, &k)).collect();
            let start = eq(ids, k, first);
            copies.into_iter().zip(rest).fold(start, |acc, (k, item)| {
                let c = eq(ids, k, item);
                bool_op(ids, BoolOp::Or, acc, Some(c), span.clone())
            })
        }
        _ => {
            let bs = b.span.clone();
            let eq = mk(ids, ExprKind::Binary(BinOp::Eq, Box::new(b), Box::new(k)), bs);
            let func = Ident { name: qualified("any"), span: span.clone() };
            mk(ids, ExprKind::Call { func, args: vec![eq], kwargs: vec![] }, span)
        }
    }
}

//! Small helpers used by the generated parser.

use crate::ast::{Expr, ExprId, ExprKind, Span};
use std::cell::Cell;

/// Builds an expression with the next dense [`ExprId`] from the counter `ids`.
pub fn mk(ids: &Cell<u32>, kind: ExprKind, span: Span) -> Expr {
    let id = ids.get();
    ids.set(id + 1);
    Expr { id: ExprId(id), kind, span }
}

/// The values of `return e;`: the items of a tuple `e` (`return (a, b);`), else `e` alone. The
/// tuple itself leaves the tree, so its [`ExprId`] is given back to `ids` to keep the ids dense: it
/// is always the last one taken, since the tuple is the last expression before the `;`.
pub fn return_values(ids: &Cell<u32>, e: Expr) -> Vec<Expr> {
    match e.kind {
        ExprKind::Tuple(items) => {
            if e.id.0 + 1 == ids.get() {
                ids.set(e.id.0);
            }
            items
        }
        _ => vec![e],
    }
}

//! Small helpers used by the generated parser.

use crate::ast::{Expr, ExprId, ExprKind, Span};
use std::cell::Cell;

/// Builds an expression with the next dense [`ExprId`] from the counter `ids`.
pub fn mk(ids: &Cell<u32>, kind: ExprKind, span: Span) -> Expr {
    let id = ids.get();
    ids.set(id + 1);
    Expr { id: ExprId(id), kind, span }
}

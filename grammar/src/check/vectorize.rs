//! NumPy's `np.vectorize(f)` takes its result's dtype from `f`'s result on the first element
//! (`crate::call_of_call`): where a conditional expression of `f` gives a number literal in one
//! branch and a computed value in the other (`t * t if t > 0 else 0.0`), the parser wraps it in
//! `vectorize.branches(..)`, and the dtype is the data's only where the branches' dtypes differ
//! as NumPy's scalars (a Python `int` literal is `int64`, a `float` `float64`, a `bool` `bool`):
//! E0215 there (`t * t if t > 0 else 0.0` of an `int64` `t`), none where they agree (of a
//! `float64` `t`).

use super::Checker;
use crate::ast::{DType, Expr, ExprKind};
use crate::diag::Diagnostic;
use crate::types::Ty;

impl Checker {
    /// `vectorize.branches(a if c else b)`: the conditional expression's type, E0215 where its
    /// branches' NumPy scalar dtypes differ.
    pub(super) fn vectorize_branches(&mut self, args: &[Expr]) -> Ty {
        let t = self.value(&args[0]);
        let ExprKind::IfElse(parts) = &args[0].kind else { return t };
        let scalar_dtype = |c: &Checker, e: &Expr| match &e.kind {
            ExprKind::Int(_) => Some(DType::I64),
            ExprKind::Float(_) => Some(DType::F64),
            ExprKind::Bool(_) => Some(DType::Bool),
            ExprKind::Unary(crate::ast::UnOp::Neg, v) if matches!(v.kind, ExprKind::Int(_)) => Some(DType::I64),
            ExprKind::Unary(crate::ast::UnOp::Neg, v) if matches!(v.kind, ExprKind::Float(_)) => Some(DType::F64),
            _ => c.types.get(e.id.0 as usize).and_then(Ty::dtype),
        };
        let (a, b) = (scalar_dtype(self, &parts[1]), scalar_dtype(self, &parts[2]));
        if let (Some(a), Some(b)) = (a, b) {
            if a != b {
                self.err(
                    Diagnostic::error(
                        "E0215",
                        format!(
                            "NumPy's `np.vectorize` takes its dtype from the result on the first element: here it \
                             depends on the data (`{}` or `{}`)",
                            a.numpy_name(),
                            b.numpy_name()
                        ),
                        args[0].span.clone(),
                        "called here",
                    )
                    .with_help(
                        "write both branches of the same type (`1.0` for `1`), or give the dtype, `np.vectorize(f, \
                         otypes=[np.float64])`",
                    ),
                );
                return Ty::Error;
            }
        }
        t
    }
}

//! The checker's side of NumPy's questions about dtypes ([`crate::dtype_queries`]): it checks the
//! operands, reports the questions' errors (E0323, E0324), types the answers (a `bool`, a Python
//! `int`, a scalar of a float dtype), and tells which branch of an `if` on one is taken
//! ([`Checker::static_truth`]), so that only that branch is checked.

use super::Checker;
use crate::ast::{always_returns, DType, Expr, Stmt};
use crate::dtype_queries::{self as q, Limit, QueryError, Types};
use crate::types::Ty;

/// The checker while it checks a question: each value operand is checked here.
struct Checking<'a>(&'a mut Checker);

impl Types for Checking<'_> {
    fn value_dtype(&mut self, e: &Expr) -> Option<DType> {
        self.0.value(e).dtype()
    }

    fn python_number(&mut self, e: &Expr) -> bool {
        self.0.weak_of(e).is_some()
    }

    fn is_array(&mut self, e: &Expr) -> bool {
        matches!(self.0.types.get(e.id.0 as usize), Some(Ty::Array(..)))
    }

    fn operand(&mut self, e: &Expr) {
        self.0.set_ty(e.id, Ty::Unit);
    }
}

/// The checker after it checked an expression: the types it recorded.
struct Recorded<'a>(&'a Checker);

impl Types for Recorded<'_> {
    fn value_dtype(&mut self, e: &Expr) -> Option<DType> {
        self.0.types.get(e.id.0 as usize).and_then(Ty::dtype)
    }

    fn python_number(&mut self, e: &Expr) -> bool {
        self.0.weak_of(e).is_some()
    }

    fn is_array(&mut self, e: &Expr) -> bool {
        matches!(self.0.types.get(e.id.0 as usize), Some(Ty::Array(..)))
    }
}

impl Checker {
    fn answer<T>(&mut self, r: Result<T, QueryError>, ty: impl FnOnce(T) -> Ty) -> Ty {
        match r {
            Ok(v) => ty(v),
            Err(d) => {
                if let Some(d) = d {
                    self.err(*d);
                }
                Ty::Error
            }
        }
    }

    /// `np.issubdtype(a, b, relation)` (`q::REL`): a `bool` ([`q::relation`]).
    pub(super) fn dtype_relation(&mut self, args: &[Expr]) -> Ty {
        let r = q::relation(args, &mut Checking(self));
        self.answer(r, |_| Ty::Scalar(DType::Bool))
    }

    /// `np.finfo(a, what)` (`q::LIMIT`): a Python `int`, or a scalar of the float dtype ([`q::limit`]).
    pub(super) fn dtype_limit(&mut self, args: &[Expr]) -> Ty {
        let r = q::limit(args, &mut Checking(self));
        self.answer(r, |l| match l {
            Limit::Int(_) => Ty::Scalar(DType::I64),
            Limit::Float(d, _) => Ty::Scalar(d),
        })
    }

    /// The dtype a dtype operand names (a side of `x.dtype == ..`, a `dtype=` argument), checked;
    /// `None` after an error (reported).
    pub(super) fn dtype_operand_of(&mut self, e: &Expr) -> Option<DType> {
        let r = q::dtype_of(e, &mut Checking(self));
        match r {
            Ok(d) => Some(d),
            Err(d) => {
                if let Some(d) = d {
                    self.err(*d);
                }
                None
            }
        }
    }

    /// Whether the (checked) statement `s` is an `if` on a question about dtypes whose branch taken
    /// returns on every path: Python runs nothing after it, so the rest of its block is not checked
    /// (`if np.issubdtype(x.dtype, np.integer) { return x // 2; } return x / 2;`).
    pub(super) fn returns_at_compile_time(&self, s: &Stmt) -> bool {
        let Stmt::If { cond, then_block, else_block, .. } = s else { return false };
        match self.static_truth(cond) {
            Some(true) => always_returns(&then_block.stmts),
            Some(false) => else_block.as_ref().is_some_and(|e| always_returns(&e.stmts)),
            None => false,
        }
    }

    /// A side of `x.dtype == b` written as a dtype operand ([`q::side`]), checked; errors reported.
    pub(super) fn dtype_side(&mut self, e: &Expr) {
        let r = q::side(e, &mut Checking(self));
        self.answer(r, |_| Ty::Unit);
    }

    /// The value of the (checked) condition `c` where it is decided at compile time
    /// ([`q::static_truth`]).
    pub(crate) fn static_truth(&self, c: &Expr) -> Option<bool> {
        q::static_truth(c, &mut Recorded(self))
    }
}

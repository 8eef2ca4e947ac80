//! The lowering's side of NumPy's questions about dtypes (`arrayc_grammar::dtype_queries`): each
//! answer is a constant, evaluated by the same rule the checker used, from the checked types; an
//! `if` (or `a if c else b`) on one lowers only the branch taken ([`Lowerer::static_truth`]).

use crate::lower_ast::{LResult, Lowerer};
use arrayc_core::ops::Scalar;
use arrayc_dialect::ir::ValueId;
use arrayc_grammar::ast::{DType, Expr};
use arrayc_grammar::builtin::Builtin;
use arrayc_grammar::dtype_queries::{self as q, Limit, QueryError, Types};
use arrayc_grammar::types::Ty;

/// The checked types, as the questions read them.
struct Lowered<'l, 'a>(&'l Lowerer<'a>);

impl Types for Lowered<'_, '_> {
    fn value_dtype(&mut self, e: &Expr) -> Option<DType> {
        self.0.ty_of(e).dtype()
    }

    fn python_number(&mut self, e: &Expr) -> bool {
        self.0.checked.weak_of(e).is_some()
    }

    fn is_array(&mut self, e: &Expr) -> bool {
        matches!(self.0.ty_of(e), Ty::Array(..))
    }
}

impl Lowerer<'_> {
    /// The value of the condition `c` where a question about dtypes decides it.
    pub(crate) fn static_truth(&self, c: &Expr) -> Option<bool> {
        q::static_truth(c, &mut Lowered(self))
    }

    /// `x.dtype == y` (`dtype==`), `q::REL` or `q::LIMIT` of `args` (`e` the call): a
    /// constant.
    pub(crate) fn dtype_query(&mut self, b: Builtin, args: &[Expr], e: &Expr) -> LResult<ValueId> {
        let failed = |l: &Self, d: QueryError| {
            d.unwrap_or_else(|| l.error("E0323", &e.span, "a question about a dtype arrayc does not know", ""))
        };
        let value = match b {
            Builtin::DTypeLimit => match q::limit(args, &mut Lowered(self)) {
                Ok(Limit::Int(v)) => Scalar::I64(v),
                Ok(Limit::Float(DType::F32, v)) => Scalar::F32(v as f32),
                Ok(Limit::Float(_, v)) => Scalar::F64(v),
                Err(d) => return Err(failed(self, d)),
            },
            Builtin::DTypeRel => match q::relation(args, &mut Lowered(self)) {
                Ok(v) => Scalar::Bool(v),
                Err(d) => return Err(failed(self, d)),
            },
            _ => match q::same_dtype(args, &mut Lowered(self)) {
                Ok(v) => Scalar::Bool(v),
                Err(d) => return Err(failed(self, d)),
            },
        };
        Ok(self.constant(value))
    }
}

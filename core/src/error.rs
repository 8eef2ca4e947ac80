//! Error types the compiler's layers share: a compiler bug ([`InternalError`]) and NumPy's errors
//! of scalar arithmetic ([`ScalarError`]). User errors with a source place are the front end's
//! `Diagnostic`s and the executor's `ExecError`; a launch's are `arrayc_runtime::launch::LaunchError`.

use crate::DType;

/// A compiler bug: an invariant between passes that does not hold (a module that does not verify
/// after a pass, a kernel the back end cannot compile, MLIR rejecting what arrayc built). Never the
/// user's fault, so its message says so and asks for a report. The drivers print it and exit with
/// status 1, like a user error; it is never a panic.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InternalError {
    /// What went wrong, for the report (the pass, the kernel, the checker's or MLIR's words).
    pub what: String,
}

impl InternalError {
    /// An internal error saying `what` went wrong.
    pub fn new(what: impl std::fmt::Display) -> InternalError {
        InternalError { what: what.to_string() }
    }
}

impl std::fmt::Display for InternalError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "internal error: {}\nnote: this is a bug in arrayc, not in your program; please report it with the \
             program and the command that showed it",
            self.what
        )
    }
}

impl std::error::Error for InternalError {}

/// Why a scalar operation has no value ([`semantics::scalar_binary`](crate::semantics::scalar_binary)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScalarError {
    /// NumPy's `ValueError` for an integer `**` with a negative exponent
    /// ([`NEGATIVE_INT_POWER`](crate::semantics::NEGATIVE_INT_POWER)).
    NegativeIntPower,
    /// Operands of two dtypes: the lowering casts first, so this is a compiler bug.
    MixedDtypes(DType, DType),
}

impl std::fmt::Display for ScalarError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ScalarError::NegativeIntPower => f.write_str(crate::semantics::NEGATIVE_INT_POWER),
            ScalarError::MixedDtypes(a, b) => {
                write!(f, "{}", InternalError::new(format!("scalar operands of different dtypes ({a:?}, {b:?})")))
            }
        }
    }
}

impl std::error::Error for ScalarError {}

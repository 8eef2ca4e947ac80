//! Host values the executor passes around, and the interface through which it launches kernels.

use crate::array::{Scalar, View};
use crate::launch::LaunchError;

/// A run-time value of an SSA value: a host scalar or a view.
#[derive(Clone)]
pub enum RtValue {
    Scalar(Scalar),
    View(View),
}

impl RtValue {
    /// The scalar, if this is one.
    pub fn scalar(&self) -> Option<Scalar> {
        match self {
            RtValue::Scalar(s) => Some(*s),
            RtValue::View(_) => None,
        }
    }
    /// The view, if this is one.
    pub fn view(&self) -> Option<&View> {
        match self {
            RtValue::View(v) => Some(v),
            RtValue::Scalar(_) => None,
        }
    }
}

/// Launches compiled kernels. `args` are the kernel function's parameters in order (views and
/// scalars, as in the `func.call` that launches it). Implemented by the JIT in `arrayc-passes`.
///
/// Errors: [`LaunchError::Invalid`], a message for the user (a shape mismatch between a kernel's
/// views, for example), to which the executor adds the source location of the launching operation;
/// [`LaunchError::Fault`], which names its own.
pub trait KernelLauncher {
    fn launch(&self, kernel: &str, args: &[RtValue]) -> Result<(), LaunchError>;
}

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
///
/// A launcher whose kernels run in memory of their own (a GPU, `crate::gpu`) keeps copies of the
/// arrays there; the executor then tells it when the host reads or writes array elements
/// ([`device_memory`](Self::device_memory) true), so that each side sees the other's writes (the
/// SYNC of Kristensen et al. 2016, Sec. IV). The defaults suit a launcher that runs kernels on the
/// host's memory.
pub trait KernelLauncher {
    fn launch(&self, kernel: &str, args: &[RtValue]) -> Result<(), LaunchError>;

    /// Whether kernels run on copies of the arrays in memory of their own, so that the executor must
    /// call the methods below.
    fn device_memory(&self) -> bool {
        false
    }

    /// The host is about to read elements of `v`: bring the host copy of its base array up to date.
    fn host_read(&self, _v: &View) -> Result<(), LaunchError> {
        Ok(())
    }

    /// The host is about to write elements of `v`: bring the host copy up to date, and consider the
    /// other copy stale.
    fn host_write(&self, _v: &View) -> Result<(), LaunchError> {
        Ok(())
    }

    /// `v` is a new base array with unspecified contents: neither copy needs to be copied to the
    /// other before a kernel writes it.
    fn fresh(&self, _v: &View) {}

    /// `arr.exchange` (pass `distribute`): the next launch that reads `v` reads elements of it
    /// that other ranks of a distributed run own. Nothing to do in one process.
    fn exchange(&self, _v: &View) -> Result<(), LaunchError> {
        Ok(())
    }

    /// `arr.allreduce` (pass `distribute`): `v` holds the ranks' partial results of a reduction or
    /// a scatter-add, to combine with `kind`. Nothing to do in one process.
    fn allreduce(&self, _v: &View, _kind: arrayc_core::ReduceKind) -> Result<(), LaunchError> {
        Ok(())
    }

    /// Waits for every kernel launched so far, for a launcher whose launches are asynchronous (the
    /// GPU, `crate::gpu`), and reports the first fault among them, which names its own source
    /// position. The executor calls it where the host must not go on past a fault: before it prints,
    /// before it reports an error of its own, and at the end of a run; `host_read` and `host_write`
    /// wait too. Nothing to do where launches are synchronous.
    ///
    /// Errors: [`LaunchError::Fault`] of the first launch that faulted; [`LaunchError::Invalid`]
    /// for a device error.
    fn finish(&self) -> Result<(), LaunchError> {
        Ok(())
    }

    /// `(bytes, launches)` of the kernels launched so far (`crate::array::Traffic`), when counted.
    fn traffic(&self) -> Option<(u64, u64)> {
        None
    }

    /// Where the time of a launcher with memory of its own went so far ([`device_memory`](Self::device_memory)
    /// true): its copies between host and device and its kernels.
    fn device_time(&self) -> Option<DeviceTime> {
        None
    }
}

/// The copies and kernel runs of a launcher with memory of its own (the GPU), as `--time` reports
/// them: bytes copied each way, and seconds of wall time spent in the copies and in the kernels
/// (from the launch that found the device idle to the end of the wait for it, launch latency
/// included). Copies wait for the kernels queued before them, and the kernels' time runs while the
/// host goes on, so the two times do not add up with the host's own work to the run phase.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct DeviceTime {
    /// Bytes copied from the host to the device.
    pub to_device: u64,
    /// Bytes copied from the device to the host.
    pub to_host: u64,
    /// Seconds spent in the copies, both ways.
    pub copy_s: f64,
    /// Seconds during which the device had kernels queued or running, as the host saw it: from a
    /// launch that found it idle to the end of the next wait.
    pub kernel_s: f64,
}

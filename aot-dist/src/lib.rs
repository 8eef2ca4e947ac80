//! The run time of an executable made by `arrayc build --distributed`: the run of `arrayc-aot`
//! ([`arrayc_aot::main_with`]) on every rank of an MPI job, `mpirun -n P ./exe --arg ...` (issue
//! 30's SPMD model: every rank runs the same host program, no master), with the kernels launched
//! through [`arrayc_dist::Session`] exactly as `arrayc run --distributed` does. Its `main` calls
//! [`arrayc_aot_dist_main`]. It links the system's MPI, which `libarrayc_aot.a` does not, so plain
//! executables need no MPI.
//!
//! The crate is empty when compiled for its own unit tests (whose harness has a `main` of its own);
//! executables are tested end to end under `mpirun` (`tests/examples/test_distributed.py`).
#![cfg(not(test))]

use arrayc_aot::{EntryRun, Spread};
use arrayc_dist::Session;
use arrayc_runtime::launch::CpuKernels;
use arrayc_runtime::value::RtValue;

/// One rank of the job.
struct Rank(Session);

impl Spread for Rank {
    fn prints(&self) -> bool {
        self.0.prints()
    }
    fn run(
        &self,
        cpu: &CpuKernels,
        args: &[RtValue],
        time: bool,
        before_abort: &mut dyn FnMut(),
        body: &mut EntryRun,
    ) -> Result<(Vec<RtValue>, Vec<String>), String> {
        self.0.run(cpu, args, time, before_abort, body)
    }
}

/// The entry point of a distributed executable (its generated `main` calls it): starts MPI on this
/// rank and runs the program as [`arrayc_aot::main_with`] does; returns the exit status.
#[no_mangle]
pub extern "C" fn arrayc_aot_dist_main(
    _argc: std::ffi::c_int,
    _argv: *const *const std::ffi::c_char,
) -> std::ffi::c_int {
    arrayc_aot::main_with(&|| Ok(Box::new(Rank(Session::start()?))))
}

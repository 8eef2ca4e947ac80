//! Distributed runs of arrayc programs over MPI (issue 30): every rank runs the same host program
//! (SPMD, no master, as Ramba and Heat; not Bohrium's master that broadcasts every instruction) and
//! launches its kernels through [`launcher::DistKernels`], which runs each kernel on the rows its
//! rank owns of a block distribution along axis 0 ([`blocks`]) and moves the data that needs.
//!
//! MPI comes from the system's OpenMPI through the `mpi` crate (rsmpi); [`Mpi`] initialises it
//! once per process and stops every rank when one fails ([`Mpi::abort`], and a panic hook).

pub mod blocks;
pub mod launcher;
pub mod session;

pub use launcher::{placement, read_own_blocks, DistKernels, DistStats, Placement, DEFAULT_MIN_BYTES};
pub use session::Session;

use mpi::topology::SimpleCommunicator;
use mpi::traits::*;

/// MPI, initialised for this process (finalised when dropped). MPI is called from the thread that
/// initialised it only (`MPI_THREAD_FUNNELED`).
pub struct Mpi {
    _universe: mpi::environment::Universe,
    world: SimpleCommunicator,
}

impl Mpi {
    /// Initialises MPI and installs a panic hook that aborts every rank after the panic's message
    /// (a panic on one rank would otherwise leave the others waiting for it forever). Errors: MPI
    /// was initialised before in this process.
    pub fn init() -> Result<Mpi, String> {
        let (universe, _) = mpi::initialize_with_threading(mpi::Threading::Funneled)
            .ok_or("MPI was already initialised in this process")?;
        let world = universe.world();
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            previous(info);
            end_job(101);
        }));
        Ok(Mpi { _universe: universe, world })
    }

    /// The world communicator: every rank of the run.
    pub fn world(&self) -> &SimpleCommunicator {
        &self.world
    }

    /// This process's rank, from 0.
    pub fn rank(&self) -> usize {
        self.world.rank() as usize
    }

    /// The number of ranks.
    pub fn size(&self) -> usize {
        self.world.size() as usize
    }

    /// Stops every rank of the run with exit status `code` ([`end_job`]): after an error on one
    /// rank, which the others may be waiting for.
    pub fn abort(&self, code: i32) -> ! {
        end_job(code)
    }

    /// Waits until every rank has called it (collective).
    pub fn barrier(&self) {
        self.world.barrier()
    }

    /// Every rank's `stats`, in rank order (collective).
    pub fn all_stats(&self, stats: DistStats) -> Vec<DistStats> {
        let mine = stats.to_words();
        let mut all = vec![0u64; mine.len() * self.size()];
        self.world.all_gather_into(&mine[..], &mut all[..]);
        all.chunks(mine.len()).map(DistStats::from_words).collect()
    }

    /// The ranks on this machine (OpenMPI's `OMPI_COMM_WORLD_LOCAL_SIZE`, else 1): the driver
    /// divides the cores among them.
    pub fn local_ranks() -> usize {
        std::env::var("OMPI_COMM_WORLD_LOCAL_SIZE").ok().and_then(|s| s.parse().ok()).filter(|&n| n > 0).unwrap_or(1)
    }
}

/// Ends this rank at once with exit status `code`, without `MPI_Finalize`, so that the launcher
/// ends every other rank: OpenMPI's `mpirun` aborts the whole job when a rank exits without
/// finalising ("Per user-direction, the job has been aborted"), as `MPI_Abort` would. Not
/// `MPI_Abort` itself: with OpenMPI 4.1.4 (Debian 12) `mpirun` then crashed in
/// `PMIx_server_finalize` or hung after the ranks had ended in 15 of 50 runs of the fault tests on
/// the loaded 2-core machine, after an exit in 3 of 50 (docs/distributed.md, *Errors*). Standard
/// output and error are flushed first (the message naming the rank must arrive).
pub fn end_job(code: i32) -> ! {
    use std::io::Write;
    let _ = std::io::stdout().flush();
    let _ = std::io::stderr().flush();
    // SAFETY: `_exit` ends the process without running destructors or `atexit` handlers (MPI's
    // would try to finalise with ranks still waiting in collectives).
    unsafe { libc::_exit(code) }
}

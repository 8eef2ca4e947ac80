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
pub use session::{min_bytes_from_env, Session};

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
            // SAFETY: MPI_Abort on the world communicator, which MPI keeps valid until finalised.
            unsafe { mpi::ffi::MPI_Abort(mpi::ffi::RSMPI_COMM_WORLD, 101) };
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

    /// Stops every rank of the run with exit status `code` (`MPI_Abort`): after an error on one
    /// rank, which the others may be waiting for.
    pub fn abort(&self, code: i32) -> ! {
        self.world.abort(code)
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

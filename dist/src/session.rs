//! One rank's side of a distributed run, shared by `arrayc run --distributed` and the executables
//! of `arrayc build --distributed` (`mpirun -n P ./exe`): MPI started, the cores of this machine
//! divided among its ranks, the split size ([`min_bytes_from_env`]), each rank reading only its own
//! blocks of `.npy` arguments, the run of the host program on [`DistKernels`], an error on one rank
//! stopping every rank, and the `--time` lines.

use crate::{read_own_blocks, DistKernels, Mpi, DEFAULT_MIN_BYTES};
use arrayc_runtime::launch::CpuKernels;
use arrayc_runtime::value::{KernelLauncher, RtValue};

/// The environment variable giving the smallest array (bytes) a distributed run splits among the
/// ranks (default [`DEFAULT_MIN_BYTES`]).
const MIN_BYTES_VAR: &str = "ARRAYC_DIST_MIN_BYTES";

/// The smallest array, in bytes, that a distributed run splits among the ranks: `$ARRAYC_DIST_MIN_BYTES`,
/// else [`DEFAULT_MIN_BYTES`]. Errors: a value that is not a number of bytes (the message names the
/// variable and the value).
fn min_bytes_from_env() -> Result<u64, String> {
    match std::env::var(MIN_BYTES_VAR) {
        Err(_) => Ok(DEFAULT_MIN_BYTES),
        Ok(v) => v.trim().parse().map_err(|_| format!("error: {MIN_BYTES_VAR} must be a number of bytes, not `{v}`")),
    }
}

/// One rank of an MPI job running an arrayc program (SPMD: every rank runs the same host program).
pub struct Session {
    mpi: Mpi,
    min_bytes: u64,
}

impl Session {
    /// Starts MPI for this process, divides this machine's cores among its ranks (rayon's global
    /// pool, unless `RAYON_NUM_THREADS` is set), and makes `.npy` arguments of at least
    /// `$ARRAYC_DIST_MIN_BYTES` bytes be read only where this rank owns them. Call it before the
    /// arguments are read, on the thread that runs the program (MPI is called from that thread
    /// only). Errors: a bad `$ARRAYC_DIST_MIN_BYTES`; MPI failing or already started.
    pub fn start() -> Result<Session, String> {
        let min_bytes = min_bytes_from_env()?;
        let mpi = Mpi::init().map_err(|e| format!("error: cannot start MPI: {e}"))?;
        if std::env::var_os("RAYON_NUM_THREADS").is_none() {
            let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
            let threads = (cores / Mpi::local_ranks()).max(1);
            // Fails only when the pool already exists, which then keeps its size.
            let _ = rayon::ThreadPoolBuilder::new().num_threads(threads).build_global();
        }
        read_own_blocks(mpi.size(), mpi.rank(), min_bytes);
        Ok(Session { mpi, min_bytes })
    }

    /// MPI of this process (rank, size, barriers).
    pub fn mpi(&self) -> &Mpi {
        &self.mpi
    }

    /// Whether this rank prints and writes the results: rank 0.
    pub fn prints(&self) -> bool {
        self.mpi.rank() == 0
    }

    /// Runs `body` (the host program's entry function, returning its results) with a
    /// [`DistKernels`] over `cpu`'s kernels, after recording the `.npy` arguments among `args` as
    /// each rank's own blocks, then gathers every result to rank 0, which alone prints and writes
    /// them ([`DistKernels::gather_result`]; the other ranks' copies are then stale). Returns the
    /// results and, when `time`, the `--time` lines of every rank (an all-gather: every rank must
    /// pass the same `time`).
    ///
    /// Errors: `body`'s error, or a failed gather, returned as it is in a job of one rank. In a
    /// job of several ranks the others may be waiting for this one, so the error is printed naming
    /// the rank, `before_abort` runs (removing partial outputs), and every rank stops
    /// ([`crate::end_job`], exit 1).
    pub fn run(
        &self,
        cpu: &CpuKernels,
        args: &[RtValue],
        time: bool,
        before_abort: impl FnOnce(),
        body: impl FnOnce(&dyn KernelLauncher) -> Result<Vec<RtValue>, String>,
    ) -> Result<(Vec<RtValue>, Vec<String>), String> {
        let dist = DistKernels::new(cpu, self.mpi.world(), self.min_bytes);
        // `.npy` arguments: each rank read its own blocks (`read_own_blocks`).
        args.iter().filter_map(RtValue::view).for_each(|v| dist.register_read(v));
        let gathered = body(&dist).and_then(|results| {
            for v in results.iter().filter_map(RtValue::view) {
                dist.gather_result(v).map_err(|e| format!("error: {e}"))?;
            }
            Ok(results)
        });
        let value = match gathered {
            Ok(v) => v,
            Err(e) if self.mpi.size() > 1 => {
                eprintln!("{} (rank {} of {})", e.trim_end(), self.mpi.rank(), self.mpi.size());
                before_abort();
                self.mpi.abort(1)
            }
            Err(e) => return Err(e),
        };
        let lines = if time { time_lines(&self.mpi.all_stats(dist.stats())) } else { vec![] };
        Ok((value, lines))
    }
}

/// `--time`'s line for each rank's statistics, in rank order.
fn time_lines(stats: &[crate::DistStats]) -> Vec<String> {
    stats
        .iter()
        .enumerate()
        .map(|(r, s)| {
            let unplanned = match s.unplanned {
                0 => String::new(),
                n => format!("; {n} elements received without an arr.exchange"),
            };
            format!(
                "distributed: rank {r}: {} bytes sent in {} exchanges; {} launches on its own rows, {} whole; \
                 {} gathers ({} bytes sent){unplanned}",
                s.bytes_sent, s.exchanges, s.owned_launches, s.whole_launches, s.gathers, s.gather_bytes
            )
        })
        .collect()
}

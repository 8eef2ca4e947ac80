//! The hand-written MPI reference of `arrayc run --distributed` (issue 30, the "C/MPI" peer of the
//! distributed benchmark, benchmarks/distributed.py): examples/heat.arr's Jacobi sweep written
//! directly against rsmpi, as an HPC programmer would. Block rows of the (n+2) x (n+2) grid per
//! rank with one ghost row above and below, one exchange with each neighbour per sweep
//! (`MPI_Sendrecv` of one row), the 5-point update into a second buffer, and an all-reduce of the
//! summed absolute change for the stopping test; one thread per rank.
//!
//! Usage: mpirun -n P target/release/examples/heat_mpi N MAX_ITER
//! Prints (rank 0) `sweeps S delta D seconds T` (T: the sweeps only, after a barrier).

use mpi::point_to_point::send_receive_into;
use mpi::traits::*;

fn main() {
    let universe = mpi::initialize().expect("MPI initialises once");
    let world = universe.world();
    let (p, me) = (world.size() as usize, world.rank() as usize);
    let args: Vec<usize> = std::env::args().skip(1).map(|a| a.parse().expect("N and MAX_ITER are integers")).collect();
    let (n, max_iter) = (args[0], args[1]);
    let w = n + 2;
    // Interior rows 1..=n split in blocks; the boundary rows 0 and n+1 belong to the edge ranks.
    let (q, extra) = (n / p, n % p);
    let lo = 1 + me * q + me.min(extra);
    let rows = q + usize::from(me < extra);
    // Local rows: ghost, rows lo..lo+rows, ghost.
    let mut grid = vec![0.0f64; (rows + 2) * w];
    if lo == 1 {
        grid[..w].fill(40.0); // the top boundary, held at 40
    }
    let mut work = grid.clone();
    let (up, down) = (me.checked_sub(1), (me + 1 < p).then_some(me + 1));
    let (mut delta, mut it) = (1.0f64, 0);
    world.barrier();
    let t0 = std::time::Instant::now();
    while delta > 0.0 && it < max_iter {
        // Ghost rows from the neighbours (the boundary rows stay as they are at the edges).
        if let Some(u) = up {
            let (ghost, mine) = grid.split_at_mut(w);
            let u = world.process_at_rank(u as i32);
            send_receive_into(&mine[..w], &u, &mut ghost[..], &u);
        }
        if let Some(d) = down {
            let (mine, ghost) = grid[w..].split_at_mut(rows * w);
            let d = world.process_at_rank(d as i32);
            send_receive_into(&mine[(rows - 1) * w..rows * w], &d, &mut ghost[..w], &d);
        }
        let mut local = 0.0;
        for i in 1..=rows {
            for j in 1..=n {
                let c = i * w + j;
                let v = 0.2 * (grid[c] + grid[c - w] + grid[c + w] + grid[c - 1] + grid[c + 1]);
                local += (v - grid[c]).abs();
                work[c] = v;
            }
        }
        for i in 1..=rows {
            grid[i * w + 1..i * w + 1 + n].copy_from_slice(&work[i * w + 1..i * w + 1 + n]);
        }
        world.all_reduce_into(&local, &mut delta, mpi::collective::SystemOperation::sum());
        it += 1;
    }
    world.barrier();
    if me == 0 {
        println!("sweeps {it} delta {delta} seconds {}", t0.elapsed().as_secs_f64());
    }
}

//! The inputs of the LogGP-style projection of `arrayc run --distributed` (issue 30,
//! benchmarks/loggp.py, docs/distributed.md): what this MPI costs between two ranks, and what
//! arrayc's per-launch planning costs at P ranks.
//!
//! * `pingpong`: ranks 0 and 1 bounce a message of B bytes (8 bytes, then 8 KiB .. 16 MiB);
//!   each round trip is timed on its own, and half the median round trip is the one-way time.
//! * `overhead`: the time a blocking send of 8 bytes takes to return on rank 0 (o_s, an eager
//!   send: it returns once the message is handed to MPI) and the time the receive takes on rank 1
//!   once `MPI_Iprobe` says the message is there (o_r); medians.
//! * `allreduce` / `allgather`: one `f64` per rank over all P ranks (arrayc combines a reduction's
//!   partial results with an all-gather of one value per rank); each call after a barrier, median
//!   of rank 0's times.
//! * `plan` (rank 0 alone, no MPI): the block arithmetic of dist/src/blocks.rs that the launcher
//!   does for each of heat's two launches per sweep at P ranks, every rank computing every rank's
//!   needs (`transfers` of the grid's five stencil views and of the temporary's own rows, and
//!   `deliveries` of the interior written), for n = 2000 and 20000; median over repetitions.
//!
//! Usage: mpirun -n P target/release/examples/mpi_probe [REPS]   (P >= 2; REPS scales the counts)
//! Prints (rank 0) one line per measurement, `key value` pairs, times in microseconds.

use arrayc_dist::blocks::{deliveries, owned_rows, transfers, BaseLayout, Runs};
use mpi::collective::SystemOperation;
use mpi::traits::*;
use std::time::Instant;

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn micros(t: Instant) -> f64 {
    t.elapsed().as_secs_f64() * 1e6
}

/// Half the median round trip of `reps` bounces of `bytes` bytes between ranks 0 and 1.
fn ping_pong<C: Communicator>(world: &C, me: i32, bytes: usize, reps: usize) -> Option<f64> {
    let mut buf = vec![0u8; bytes];
    let mut times = Vec::with_capacity(reps);
    for _ in 0..reps + reps / 10 {
        match me {
            0 => {
                let t = Instant::now();
                world.process_at_rank(1).send(&buf[..]);
                world.process_at_rank(1).receive_into(&mut buf[..]);
                times.push(micros(t) / 2.0);
            }
            1 => {
                world.process_at_rank(0).receive_into(&mut buf[..]);
                world.process_at_rank(0).send(&buf[..]);
            }
            _ => {}
        }
    }
    // The first tenth warms up (buffers, pages, the shared-memory segments).
    (me == 0).then(|| median(times.split_off(reps / 10)))
}

/// (o_s, o_r): the medians of an 8-byte send's and (once it has arrived) receive's time.
fn overheads<C: Communicator>(world: &C, me: i32, reps: usize) -> (f64, f64) {
    let (mut os, mut or) = (vec![], vec![]);
    let mut x = [0.0f64];
    for _ in 0..reps {
        match me {
            0 => {
                let t = Instant::now();
                world.process_at_rank(1).send(&x[..]);
                os.push(micros(t));
                world.process_at_rank(1).receive_into(&mut x[..]);
            }
            1 => {
                while world.process_at_rank(0).immediate_probe().is_none() {}
                let t = Instant::now();
                world.process_at_rank(0).receive_into(&mut x[..]);
                or.push(micros(t));
                world.process_at_rank(0).send(&x[..]);
            }
            _ => {}
        }
    }
    // Rank 1's median goes to rank 0.
    let mut r = [if me == 1 { median(or) } else { 0.0 }];
    if me == 1 {
        world.process_at_rank(0).send(&r[..]);
    } else if me == 0 {
        world.process_at_rank(1).receive_into(&mut r[..]);
    }
    (if me == 0 { median(os) } else { 0.0 }, r[0])
}

/// Rank 0's median time of `reps` collectives `f`, each after a barrier.
fn collective<C: Communicator>(world: &C, reps: usize, mut f: impl FnMut()) -> f64 {
    let mut times = Vec::with_capacity(reps);
    for _ in 0..reps {
        world.barrier();
        let t = Instant::now();
        f();
        times.push(micros(t));
    }
    median(times)
}

/// The median time (µs) of the planning of heat's two launches of one sweep at `p` ranks with an
/// n x n interior (grid of (n+2) x (n+2)), as the launcher calls blocks.rs.
fn plan(n: i64, p: usize, reps: usize) -> (f64, usize) {
    let w = n + 2;
    let grid = BaseLayout::even(w, w);
    let inner = [n, n];
    let strides = [w, 1];
    // The anchor: the interior `grid[1:-1, 1:-1]` (launch 2 writes it; launch 1 is anchored on
    // its input of the same rows); the rows of it each rank computes.
    let rows: Vec<(i64, i64)> = (0..p).map(|r| owned_rows(w + 1, n, w, &grid, p, r).expect("rows")).collect();
    // The temporary `work` (n x n) takes those rows as its blocks.
    let cuts: Vec<i64> = std::iter::once(0).chain(rows.iter().map(|r| r.1)).collect();
    let work = BaseLayout { rows: n, row_len: n, cuts: Some(cuts.into()) };
    // center, north, south, west, east.
    let views = [w + 1, 1, 2 * w + 1, w, w + 2];
    let mut times = Vec::with_capacity(reps);
    let mut moved = 0;
    for _ in 0..reps {
        let t = Instant::now();
        // Launch 1: work = 0.2 * (...), delta = sum(...): reads the grid's five views.
        let needs: Vec<Vec<Runs>> = rows
            .iter()
            .map(|&r| views.iter().filter_map(|&o| Runs::of(o, &inner, &strides, Some(r))).collect())
            .collect();
        let t1 = transfers(&grid, p, &needs);
        // Launch 2: center[:] = work: reads work's own rows, writes the interior in place.
        let needs: Vec<Vec<Runs>> =
            rows.iter().map(|&r| Runs::of(0, &inner, &[n, 1], Some(r)).into_iter().collect()).collect();
        let t2 = transfers(&work, p, &needs);
        let t3 = deliveries(&grid, p, (w + 1, &inner, &strides), &rows);
        times.push(micros(t));
        moved = t1.iter().chain(&t2).chain(&t3).map(|t| t.range.1 - t.range.0).sum::<i64>() as usize;
    }
    (median(times), moved)
}

fn main() {
    let universe = mpi::initialize().expect("MPI initialises once");
    let world = universe.world();
    let (p, me) = (world.size(), world.rank());
    let scale: usize = std::env::args().nth(1).map_or(1, |a| a.parse().expect("REPS is an integer"));
    assert!(p >= 2, "mpi_probe needs at least 2 ranks");
    let out = |line: String| {
        if me == 0 {
            println!("{line}");
        }
    };
    out(format!("ranks {p}"));
    let (os, or) = overheads(&world, me, 2000 * scale);
    out(format!("overhead bytes 8 send_us {os:.3} recv_us {or:.3}"));
    let sizes = std::iter::once(8).chain((13..=24).map(|k| 1usize << k));
    for bytes in sizes {
        // About 64 MiB moved per size, at least 10 and at most 5000 round trips.
        let reps = ((64 << 20) / bytes).clamp(10, 5000) * scale;
        world.barrier();
        if let Some(t) = ping_pong(&world, me, bytes, reps) {
            out(format!("pingpong bytes {bytes} reps {reps} oneway_us {t:.3}"));
        }
    }
    let reps = 2000 * scale;
    let x = [me as f64];
    let mut y = [0.0f64];
    let t = collective(&world, reps, || world.all_reduce_into(&x[..], &mut y[..], SystemOperation::sum()));
    out(format!("allreduce ranks {p} bytes 8 reps {reps} us {t:.3}"));
    let mut all = vec![0.0f64; p as usize];
    let t = collective(&world, reps, || world.all_gather_into(&x[..], &mut all[..]));
    out(format!("allgather ranks {p} bytes 8 reps {reps} us {t:.3}"));
    if me == 0 {
        for n in [2000, 20000] {
            for k in 0..=10 {
                let q = 1usize << k;
                let reps = (4096 >> k).clamp(3, 200);
                let (t, moved) = plan(n, q, reps);
                println!("plan n {n} ranks {q} reps {reps} us {t:.3} elements_moved {moved}");
            }
        }
    }
}

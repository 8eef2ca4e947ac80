# RUN: %arrayc fuse-report --distributed %s | FileCheck %s --check-prefix=REPORT
# RUN: env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 ARRAYC_DIST_MIN_BYTES=0 ARRAYC_DIST_TRACE=1 RAYON_NUM_THREADS=1 mpirun -n 2 --oversubscribe --timeout 120 %arrayc run --distributed %s 2>&1 >/dev/null | FileCheck %s
# RUN: env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 ARRAYC_DIST_MIN_BYTES=0 RAYON_NUM_THREADS=1 mpirun -n 2 --oversubscribe --timeout 120 %arrayc run --distributed %s | FileCheck %s --check-prefix=TWO
# RUN: %arrayc run %s | FileCheck %s --check-prefix=ONE
fn main(n: i64 = 8) -> (f64[n, n], f64) {
    let g = zeros(n, n);
    g[0, :] = 1.0;
    let w = 0.25 * (g[:-2, 1:-1] + g[2:, 1:-1] + g[1:-1, :-2] + g[1:-1, 2:]);
    g[1:-1, 1:-1] = w;
    return (g, sum(g));
}

# The kernels of one process, each with where it runs under --distributed.
# REPORT: exchange {{.*}}; add
# REPORT: reduce {{.*}}; allreduce
# REPORT: distributed (run --distributed): the same kernels on every rank
# REPORT: @kernel{{[0-9]+}}_{{.*}}: on each rank's own rows
# REPORT: reduce{{.*}}: on each rank's own rows; its reductions combined across ranks in rank order

# Two ranks, 8 rows each owning 4. The stencil's block runs along g[1:-1, :-2], the view centred
# in g's rows (rows 0..3 and 3..6 of its 6: g's rows 1..4 and 4..7, its owners'): each rank reads
# the one halo row of the other, the six columns its views use (12 elements in all), and the 6x6
# temporary takes those rows as its blocks, so the copy into g[1:-1, 1:-1] reads nothing.
# CHECK: @kernel{{[0-9]+}}_add_add_add_mul: rows [(0, 3), (3, 6)]
# CHECK-NEXT: exchange: 12 elements of a base array of 8 rows (all ranks)
# CHECK-NEXT: @kernel{{[0-9]+}}_copy: rows [(0, 3), (3, 6)]
# CHECK-NEXT: @kernel{{[0-9]+}}_reduce
# The results, printed by rank 0 only, are one process's.
# TWO: result 1: 9.5
# TWO-NOT: result
# ONE: result 1: 9.5

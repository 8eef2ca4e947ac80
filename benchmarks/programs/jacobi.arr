# Jacobi solver (bh107/benchpress at c16e8ec, benchmarks/jacobi/python_numpy/jacobi.py):
# an n x n integer grid, data[i, j] = (j * (i + 2) + 2) // n, whose border is fixed; each
# sweep replaces the interior by (4 * (sum of the 4 axis neighbours) + (sum of the 4
# diagonal neighbours)) / 20, truncated to an integer by the write into the i64 grid, and
# stops when the summed absolute change (the residual) is at most 0.01 * (n - 2)^2, or after
# max_iterations sweeps (0: no limit; at n = 16, 32 or 100 the truncating sweeps never bring
# the residual below its bound, at n = 1000 they do after 462 sweeps).
# Deviations from the NumPy spelling:
# * The original is Python 2, where `/` of integer arrays floors: its grid is int64 and each
#   sweep truncates. This port keeps that behaviour, writing Python 2's `/` as `//` (as its
#   Python 3 reference does). (With true division the initial grid, bilinear in i and j, is
#   already a fixed point of the stencil and every run stops after one sweep.)
# * bohrium.stdviews' `no_border(data, 1)`, `grid(data, 1)` and `diagonals(data, 1)` (lists of
#   views built from tuples of slices) are written out as the views they give, in their order;
#   Python's builtin `sum` of a list of views is their sum left to right (from 0, which
#   changes nothing).
# * The bound `(10**-2) * (active.shape[0]**2)`: Python's `10**-2` is the float 0.01, while
#   arrayc's `**` follows NumPy's integer rule ("integers to negative integer powers are not
#   allowed"), so it is written `0.01 * f64(active.shape[0] ** 2)`.
# * `break` out of the while loop (arrayc has no `break`) is the loop's condition: the
#   original breaks when max_iterations is non-zero and reached, at the end of a sweep.
# Results: the number of sweeps and the grid.
fn jacobi(n: i64 = 32, max_iterations: i64 = 50) -> (i64, i64[n, n]) {
    let v = arange(n);
    let data = (v * (v[newaxis, :].T + 2) + 2) // n;
    let active = data[1:-1, 1:-1];
    # grid(data, 1): up, left, right, down
    let g0 = data[:-2, 1:-1];
    let g1 = data[1:-1, :-2];
    let g2 = data[1:-1, 2:];
    let g3 = data[2:, 1:-1];
    # diagonals(data, 1): up-left, up-right, down-left, down-right
    let d0 = data[:-2, :-2];
    let d1 = data[:-2, 2:];
    let d2 = data[2:, :-2];
    let d3 = data[2:, 2:];
    let fak = 1.0 / 20.0;
    let residual = 110000000.0;
    let iterations = 0;
    while residual > 0.01 * f64(active.shape[0] ** 2) & (max_iterations == 0 | iterations < max_iterations) {
        let update = (4 * (g0 + g1 + g2 + g3) + (d0 + d1 + d2 + d3)) * fak;
        residual = sum(abs(update - active));
        active[:] = update;
        iterations += 1;
    }
    return (iterations, data);
}

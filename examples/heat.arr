# Heat equation: Jacobi iteration of the 5-point stencil on an (n+2) x (n+2) grid.
# The outer ring is a fixed (Dirichlet) boundary: the top row is held at 40.0, the
# other three edges at 0.0. The n x n interior starts at 0.0.
# Each sweep replaces the interior by the average of itself and its four neighbours
# (weights 0.2), and stops when the summed absolute change `delta` is at most
# `epsilon` or after `max_iter` sweeps.
# Results: the whole grid (boundary included), the number of sweeps, the last delta.
# With the defaults the loop runs all 1000 sweeps (delta is still about 22 then);
# e.g. n=10, epsilon=0.01 converges after 239 sweeps.
fn heat(n: i64 = 100, epsilon: f64 = 0.005, max_iter: i64 = 1000) -> (f64[n+2, n+2], i64, f64) {
    let grid = zeros(n + 2, n + 2);
    grid[0, :] = 40.0;
    let center = grid[1:-1, 1:-1];
    let north = grid[:-2, 1:-1];
    let south = grid[2:, 1:-1];
    let west = grid[1:-1, :-2];
    let east = grid[1:-1, 2:];
    let delta = epsilon + 1.0;
    let it = 0;
    while delta > epsilon & it < max_iter {
        let work = 0.2 * (center + north + south + east + west);
        delta = sum(abs(work - center));
        center[:] = work;
        it += 1;
    }
    return (grid, it, delta);
}

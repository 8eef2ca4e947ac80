# Successive over-relaxation (SOR) for the Laplace equation, red-black ordering.
# The grid is (n+2) x (n+2) with a fixed (Dirichlet) boundary: the top row is held at
# 40.0, the other three edges at 0.0; the n x n interior starts at 0.0. n must be even.
# The interior splits into four interleaved sub-grids of (n/2) x (n/2) points, taken with
# step-2 slices (grid row/column 1, 3, ... is "odd", 2, 4, ... is "even"):
#   red:   r1 = g[odd, odd] = g[1:-1:2, 1:-1:2],   r2 = g[even, even] = g[2:-1:2, 2:-1:2]
#   black: b1 = g[odd, even] = g[1:-1:2, 2:-1:2],  b2 = g[even, odd] = g[2:-1:2, 1:-1:2]
# The four neighbours of every point of a sub-grid are again step-2 views (of the other
# colour, or of the boundary). One sweep updates the red points, then the black points
# (which already see the new red values), each by
#   u = omega * (0.25 * (north + south + west + east) - x);   x += u
# with over-relaxation factor omega. delta is the sum of |u| over the four updates (each
# update's sum(abs(u)) is stored in parts[k] right after the update, delta = sum(parts));
# the sweeps stop when delta <= epsilon or after max_iter sweeps.
# Results: the whole grid (boundary included), the number of sweeps, the last delta.
# With epsilon = 0 the loop runs exactly max_iter sweeps (the benchmark setting).
fn sor(n: i64 = 100, omega: f64 = 1.5, epsilon: f64 = 0.005, max_iter: i64 = 1000) -> (f64[n+2, n+2], i64, f64) {
    let grid = zeros(n + 2, n + 2);
    grid[0, :] = 40.0;
    # the four sub-grids
    let r1 = grid[1:-1:2, 1:-1:2];
    let r2 = grid[2:-1:2, 2:-1:2];
    let b1 = grid[1:-1:2, 2:-1:2];
    let b2 = grid[2:-1:2, 1:-1:2];
    # neighbours that are not themselves sub-grids: rows/columns 0, 2, ..., n-2 ("odd - 1")
    # and 3, 5, ..., n+1 ("even + 1")
    let r1_north = grid[:-2:2, 1:-1:2];
    let r1_west = grid[1:-1:2, :-2:2];
    let r2_south = grid[3::2, 2:-1:2];
    let r2_east = grid[2:-1:2, 3::2];
    let b1_north = grid[:-2:2, 2:-1:2];
    let b1_east = grid[1:-1:2, 3::2];
    let b2_south = grid[3::2, 1:-1:2];
    let b2_west = grid[2:-1:2, :-2:2];
    let parts = zeros(4);
    let delta = epsilon + 1.0;
    let it = 0;
    while delta > epsilon & it < max_iter {
        # red: r1 (odd, odd) and r2 (even, even); their neighbours are black or boundary
        let u1 = omega * (0.25 * (r1_north + b2 + r1_west + b1) - r1);
        r1 += u1;
        parts[0] = sum(abs(u1));
        let u2 = omega * (0.25 * (b1 + r2_south + b2 + r2_east) - r2);
        r2 += u2;
        parts[1] = sum(abs(u2));
        # black: b1 (odd, even) and b2 (even, odd); their neighbours are the new red points
        let u3 = omega * (0.25 * (b1_north + r2 + r1 + b1_east) - b1);
        b1 += u3;
        parts[2] = sum(abs(u3));
        let u4 = omega * (0.25 * (r1 + b2_south + b2_west + r2) - b2);
        b2 += u4;
        parts[3] = sum(abs(u4));
        delta = sum(parts);
        it += 1;
    }
    return (grid, it, delta);
}

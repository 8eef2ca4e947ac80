# 27-point stencil (Benchpress "27 Point Stencil", Kristensen et al. 2016, Table I).
# An n x n x n grid whose outer layer is a fixed boundary: the face grid[0, :, :] is held
# at 100.0, the other five faces at 0.0; the interior starts at 0.0.
# Each iteration replaces the interior by the mean of the 27 views of the grid shifted by
# -1, 0, +1 along each axis (the cell itself and its 26 neighbours), written back into
# the same array: as in NumPy, the right-hand side is evaluated completely before the
# write (a Jacobi sweep, not Gauss-Seidel).
# Results: the whole grid after `iterations` sweeps (boundary included) and the mean of
# its interior.
fn stencil27(n: i64 = 32, iterations: i64 = 10) -> (f64[n, n, n], f64) {
    let grid = zeros(n, n, n);
    grid[0, :, :] = 100.0;
    for it in 0..iterations {
        # summed left to right: z offset outermost, then y, then x
        grid[1:-1, 1:-1, 1:-1] = (
            grid[:-2, :-2, :-2] + grid[:-2, :-2, 1:-1] + grid[:-2, :-2, 2:] +
            grid[:-2, 1:-1, :-2] + grid[:-2, 1:-1, 1:-1] + grid[:-2, 1:-1, 2:] +
            grid[:-2, 2:, :-2] + grid[:-2, 2:, 1:-1] + grid[:-2, 2:, 2:] +
            grid[1:-1, :-2, :-2] + grid[1:-1, :-2, 1:-1] + grid[1:-1, :-2, 2:] +
            grid[1:-1, 1:-1, :-2] + grid[1:-1, 1:-1, 1:-1] + grid[1:-1, 1:-1, 2:] +
            grid[1:-1, 2:, :-2] + grid[1:-1, 2:, 1:-1] + grid[1:-1, 2:, 2:] +
            grid[2:, :-2, :-2] + grid[2:, :-2, 1:-1] + grid[2:, :-2, 2:] +
            grid[2:, 1:-1, :-2] + grid[2:, 1:-1, 1:-1] + grid[2:, 1:-1, 2:] +
            grid[2:, 2:, :-2] + grid[2:, 2:, 1:-1] + grid[2:, 2:, 2:]
        ) / 27.0;
    }
    return (grid, mean(grid[1:-1, 1:-1, 1:-1]));
}

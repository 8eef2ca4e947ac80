# Conway's Game of Life (Benchpress "Game of Life", Kristensen et al. 2016, Table I).
# The n x n world lives in the interior of an (n+2) x (n+2) grid whose outer ring is
# a padding of dead cells (0.0) that never changes, so cells beyond the edge count as dead.
# Cells hold 1.0 (alive) or 0.0 (dead); initially a cell is alive when
# random(n, n, seed=seed) < 0.35.
# Each generation sums the eight neighbour views of the padded grid; a live cell
# survives with 2 or 3 live neighbours, a dead cell is born with exactly 3, and
# the interior is overwritten with the new generation (`cells[:] = ...`).
# Results: the whole grid after `iterations` generations (padding included) and the
# number of live cells.
fn gameoflife(n: i64 = 64, iterations: i64 = 10, seed: i64 = 1) -> (f64[n+2, n+2], i64) {
    let grid = zeros(n + 2, n + 2);
    let cells = grid[1:-1, 1:-1];
    cells[:] = random(n, n, seed=seed) < 0.35;
    # the eight neighbours: up-left, up, up-right, left, right, down-left, down, down-right
    let ul = grid[:-2, :-2];
    let um = grid[:-2, 1:-1];
    let ur = grid[:-2, 2:];
    let ml = grid[1:-1, :-2];
    let mr = grid[1:-1, 2:];
    let dl = grid[2:, :-2];
    let dm = grid[2:, 1:-1];
    let dr = grid[2:, 2:];
    for i in 0..iterations {
        let neighbours = ul + um + ur + ml + mr + dl + dm + dr;
        let alive = cells == 1.0;
        let survive = alive & (neighbours == 2.0 | neighbours == 3.0);
        let birth = ~alive & neighbours == 3.0;
        cells[:] = survive | birth;
    }
    return (grid, i64(sum(cells)));
}

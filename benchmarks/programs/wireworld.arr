# Wireworld (bh107/benchpress at c16e8ec, benchmarks/wireworld/python_numpy/wireworld.py):
# a cellular automaton of empty cells (0), electron heads (2), tails (4) and conductors (8)
# on a (10 size + 2)^2 grid whose border stays empty, its interior the 10 x 10 pattern below
# tiled size x size times. The number of head neighbours NC (of the 8 around each cell) is
# counted once, before the loop, as in the original (which never recounts it); each of the
# `iterations` steps then turns a conductor with 1 or 2 head neighbours into a head (1, then
# doubled), a head into a tail, a tail into a conductor and keeps other conductors, by the
# original's masks and in-place products: 8 -> 4 -> 8 (conductor), 2 -> 4 (tail),
# 4 -> 8 (conductor), new heads 1 -> 2.
# Deviations from the NumPy spelling:
# * The world is np.uint8, which arrayc lacks: here i32 (every value is at most 16, so the
#   in-place operations give the same numbers); `np.array(MASK * 1, np.uint8)` is
#   `i32(mask * 1)`.
# * `np.tile(pattern, (size, size))` (arrayc's tile takes one integer, repeating along the
#   last axis) is `tile(tile(pattern, size).T, size).T`.
# * bohrium.stdviews' `no_border(world, 1)` and `D2P8(world)` (views built from tuples of
#   slices) are written out as the views they give, in their order; Python's builtin `sum` of
#   the list of boolean arrays `v == 2` starts from the int 0, hence `0 + ...` (an i64 count).
# Result: the interior of the world after `iterations` steps.
fn wireworld(size: i64 = 4, iterations: i64 = 10) -> i32[10 * size, 10 * size] {
    let pattern = array([
        [4, 2, 8, 8, 8, 8, 8, 8, 8, 8],
        [8, 0, 0, 0, 8, 0, 0, 0, 0, 0],
        [0, 0, 0, 8, 8, 8, 0, 0, 0, 0],
        [8, 0, 0, 0, 8, 0, 0, 0, 0, 0],
        [2, 4, 8, 8, 0, 8, 8, 8, 8, 8],
        [4, 2, 8, 8, 8, 8, 8, 8, 8, 8],
        [8, 0, 0, 0, 8, 0, 0, 0, 0, 0],
        [0, 0, 0, 8, 8, 8, 0, 0, 0, 0],
        [8, 0, 0, 0, 8, 0, 0, 0, 0, 0],
        [2, 4, 8, 8, 0, 8, 8, 8, 8, 8]]);
    let world = zeros(size * 10 + 2, size * 10 + 2, dtype=i32);
    world[1:-1, 1:-1] = tile(tile(pattern, size).T, size).T;
    let sim = world[1:-1, 1:-1];
    # D2P8(world): the 8 neighbours, row by row
    let nc = 0 + (world[:-2, :-2] == 2) + (world[:-2, 1:-1] == 2) + (world[:-2, 2:] == 2) +
        (world[1:-1, :-2] == 2) + (world[1:-1, 2:] == 2) +
        (world[2:, :-2] == 2) + (world[2:, 1:-1] == 2) + (world[2:, 2:] == 2);
    for it in range(iterations) {
        let mask = (nc == 1 & sim == 8) | (nc == 2 & sim == 8);   # conductor -> head
        sim *= ~mask;
        sim += i32(mask * 1);
        mask = sim == 8;                                          # the other conductors
        sim *= ~mask;
        sim += i32(mask * 4);
        sim *= 2;
    }
    return sim;
}

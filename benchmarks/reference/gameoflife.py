"""NumPy reference for benchmarks/programs/gameoflife.arr (Conway's Game of Life on a
zero-padded grid, eight neighbour views, birth with 3 and survival with 2 or 3 neighbours)."""
import numpy as np

from arrayc_random import random


def gameoflife(n=64, iterations=10, seed=1):
    grid = np.zeros((n + 2, n + 2))
    cells = grid[1:-1, 1:-1]
    cells[:] = random(n, n, seed=seed) < 0.35  # 1.0 alive, 0.0 dead
    ul, um, ur = grid[:-2, :-2], grid[:-2, 1:-1], grid[:-2, 2:]
    ml, mr = grid[1:-1, :-2], grid[1:-1, 2:]
    dl, dm, dr = grid[2:, :-2], grid[2:, 1:-1], grid[2:, 2:]
    for _ in range(iterations):
        neighbours = ul + um + ur + ml + mr + dl + dm + dr
        alive = cells == 1.0
        survive = alive & ((neighbours == 2.0) | (neighbours == 3.0))
        birth = ~alive & (neighbours == 3.0)
        cells[:] = survive | birth
    return grid, np.int64(np.sum(cells))

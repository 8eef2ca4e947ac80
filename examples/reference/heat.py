"""NumPy reference for examples/heat.arr (Jacobi 5-point stencil, hot top row)."""
import numpy as np


def heat(n=100, epsilon=0.005, max_iter=1000):
    grid = np.zeros((n + 2, n + 2))
    grid[0, :] = 40.0  # hot top row; the other edges stay 0.0
    center = grid[1:-1, 1:-1]
    north = grid[:-2, 1:-1]
    south = grid[2:, 1:-1]
    west = grid[1:-1, :-2]
    east = grid[1:-1, 2:]
    delta = epsilon + 1.0
    it = 0
    while delta > epsilon and it < max_iter:
        # same association as the program: ((((c + n) + s) + e) + w)
        work = 0.2 * (center + north + south + east + west)
        delta = float(np.sum(np.abs(work - center)))
        center[:] = work
        it += 1
    return grid, it, delta

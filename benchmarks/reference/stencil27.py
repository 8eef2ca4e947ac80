"""NumPy reference for benchmarks/programs/stencil27.arr (Jacobi sweeps of the 27-point mean
on a 3-D grid with one face held at 100.0)."""
import numpy as np


def stencil27(n=32, iterations=10):
    grid = np.zeros((n, n, n))
    grid[0, :, :] = 100.0  # hot face; the other faces stay 0.0
    shifts = (slice(None, -2), slice(1, -1), slice(2, None))  # offsets -1, 0, +1
    for _ in range(iterations):
        total = None
        for sz in shifts:  # same association as the program: z outermost, then y, then x
            for sy in shifts:
                for sx in shifts:
                    v = grid[sz, sy, sx]
                    total = v if total is None else total + v
        grid[1:-1, 1:-1, 1:-1] = total / 27.0  # the sum is complete before the write
    return grid, np.float64(np.mean(grid[1:-1, 1:-1, 1:-1]))

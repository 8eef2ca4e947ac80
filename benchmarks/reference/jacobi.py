"""NumPy reference for benchmarks/programs/jacobi.arr: bh107/benchpress (c16e8ec)
benchmarks/jacobi/python_numpy/jacobi.py in Python 3, without the harness. Python 2's `/` of
integer arrays is written `//` (the original's grid is int64); bohrium.stdviews' grid() and
diagonals() are written out as their views, in their order."""
import numpy as np


def jacobi(n=32, max_iterations=50):
    v = np.arange(n)
    data = (v * (v[np.newaxis, :].T + 2) + 2) // n
    active = data[1:-1, 1:-1]
    g = [data[:-2, 1:-1], data[1:-1, :-2], data[1:-1, 2:], data[2:, 1:-1]]
    d = [data[:-2, :-2], data[:-2, 2:], data[2:, :-2], data[2:, 2:]]
    fak = 1.0 / 20
    residual = 110000000
    iterations = 0
    while residual > (10**-2) * (active.shape[0] ** 2):
        update = (4 * sum(g) + sum(d)) * fak
        residual = np.sum(abs(update - active))
        active[:] = update
        iterations += 1
        if max_iterations and iterations >= max_iterations:
            break
    return np.int64(iterations), data

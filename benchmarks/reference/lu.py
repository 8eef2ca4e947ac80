"""NumPy reference for benchmarks/programs/lu.arr (Doolittle LU without pivoting)."""
import numpy as np

from arrayc_random import random


def lu(n=100, seed=1):
    a = random(n, n, seed=seed)
    a[np.diag_indices(n)] += float(n)  # strictly diagonally dominant
    u = a.copy()
    l = np.identity(n)
    for c in range(1, n):
        l[c:, c - 1] = u[c:, c - 1] / u[c - 1, c - 1:c]
        u[c:, c - 1:] -= l[c:, c - 1][:, np.newaxis] * u[c - 1, c - 1:]
    return l, u

"""NumPy reference for benchmarks/programs/gauss.arr (Gauss elimination without pivoting)."""
import numpy as np

from arrayc_random import random


def gauss(n=100, seed=1):
    a = random(n, n, seed=seed)
    a[np.diag_indices(n)] += float(n)  # strictly diagonally dominant
    for c in range(1, n):
        a[c:, c - 1:] -= (a[c:, c - 1] / a[c - 1, c - 1:c])[:, np.newaxis] * a[c - 1, c - 1:]
    a /= np.diagonal(a)[:, np.newaxis].copy()
    return (a,)

"""NumPy reference for examples/features/transposed_views.arr."""
import numpy as np

from arrayc_random import random


def reshape3():
    r = np.zeros((4, 3, 2))
    r[:] = np.arange(4)[:, None, None] * 100.0 + np.arange(3)[:, None] * 10.0 + np.arange(2) * 1.0
    return r


def transposed_views(n=4, m=3):
    x = np.arange(n) * 1.0
    pairwise = x[np.newaxis, :].T - x
    a = random(n, m, seed=5)
    at = a.T
    b = np.zeros((n, n))
    d = np.einsum("ii->i", b)  # a writable view of the diagonal (np.diagonal's is read-only)
    d[:] = 1.0
    d[1:] += x[1:]
    s = random(n, n, seed=6)
    s[:] = s.T
    s += s.T
    t3 = np.transpose(reshape3())
    trace = float(np.sum(np.diagonal(s)))
    g = a.T[:, :m] * 2.0
    return pairwise, a, at, np.diagonal(b).copy(), s, t3, trace, g

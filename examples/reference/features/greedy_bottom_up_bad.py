"""NumPy reference for examples/features/greedy_bottom_up_bad.arr."""
import numpy as np


def greedy_bottom_up_bad(n=1000, m=500):
    xs = 1.0 + np.arange(n) * 0.000001
    idx = (np.arange(n)[:, np.newaxis] * 7 + np.arange(m)) % n
    large = xs[idx]
    return np.sum(large, axis=1) + np.prod(large, axis=1)

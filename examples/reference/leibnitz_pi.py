"""NumPy reference for examples/leibnitz_pi.arr (Leibniz series for pi)."""
import numpy as np


def leibnitz_pi(n=1000000):
    k = np.arange(n)  # int64
    # (-1.0) ** k is float64 (+1.0 / -1.0); 2 * k + 1 stays int64; the division gives float64.
    return (4.0 * float(np.sum((-1.0) ** k / (2 * k + 1))),)

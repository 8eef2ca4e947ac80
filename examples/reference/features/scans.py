"""NumPy reference for examples/features/scans.arr."""
import numpy as np


def scans(n=9, m=5):
    x = np.arange(n) * 0.5 - 1.0
    c = np.cumsum(x * 2.0) + 1.0
    p = np.cumprod(np.arange(n) % 3 + 1)
    g = (np.arange(n)[:, np.newaxis] * 3 + np.arange(m)) % 7 * 0.25
    rows = np.cumsum(g, axis=0)
    cols = np.cumprod(g[:, ::-1] + 0.5, axis=-1)
    both = np.cumsum(np.cumsum(g, axis=1), axis=0)
    return c, p, rows, cols, both


def arg_reductions(n=9, m=5):
    g = (np.arange(n)[:, np.newaxis] * 3 + np.arange(m)) % 7 * 0.25
    lo = np.argmin(g, axis=0)
    hi = np.argmax(g, axis=1)
    flat = int(np.argmax(g[1:, :]))
    return lo, hi, flat

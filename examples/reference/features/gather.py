"""NumPy reference for examples/features/gather.arr."""
import numpy as np


def gather(n=10):
    x = np.arange(n) * 0.5 + 1.0
    idx = (np.arange(6) * 7) % n - 4
    a = x[idx] * 2.0 - x[0:6]
    t = np.arange(12) * 3
    j2 = np.arange(2)[:, np.newaxis] * 3 + np.arange(3)
    b = t[j2[:, ::-1]]
    m = np.arange(5)[:, np.newaxis] * 10.0 + np.arange(3)
    rows = m[np.arange(4) % 2 * 2 - 1]
    s = float(np.sum(x[idx % 3]))
    c = m[j2 % 5]
    cols = np.take(m, np.arange(4) % 3 - 1, axis=1)
    return a, b, rows, s, c, cols

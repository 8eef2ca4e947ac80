"""NumPy reference for examples/features/broadcast.arr."""
import numpy as np


def broadcast(n=4, m=3):
    x = np.linspace(0.0, 1.0, n)
    y = np.arange(m) + 1.0
    outer = x[:, np.newaxis] * y[np.newaxis, :]
    plus = x[:, np.newaxis] + y
    s2 = np.arange(2) + 1
    t3 = outer[np.newaxis, :, :] * s2[:, np.newaxis, np.newaxis]
    col = x[:, np.newaxis]
    q = outer[..., np.newaxis] - x[np.newaxis, np.newaxis, :]
    kn = np.arange(n)
    km = np.arange(m)
    ii = kn[:, np.newaxis] * 10 + km
    bb = x[:, np.newaxis] * 3.0 > y - 0.45
    g = np.zeros((n, m))
    g[:, 1:] = y[1:]
    g[1:, :] += x[1:, np.newaxis]
    g[0, :] -= 0.5
    return outer, plus, t3, col, q, ii, bb, g

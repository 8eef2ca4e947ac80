"""NumPy reference for examples/features/setitem_overlap.arr.

NumPy's `__setitem__` evaluates the right-hand side into a temporary first, and its
in-place ufuncs detect memory overlap between inputs and output and copy (NumPy >= 1.13),
so plain NumPy code gives the intended semantics.
"""
import numpy as np


def setitem_overlap(n=8):
    a = np.arange(n) + 1.0
    a[1:] = a[:-1]
    b = np.arange(n) + 1.0
    b[:-1] = b[1:]
    c = np.arange(n) + 1.0
    c[::-1] = c
    d = np.arange(n) + 1.0
    d[1:] += d[:-1]
    f = np.arange(n) + 1.0
    f[2:] = f[:-2] * f[1:-1] + f[2:]
    g = np.arange(n) + 1.0
    g[:-1] -= g[1:] * 0.5

    k = np.arange(n)
    h1 = k[:, np.newaxis] * n + k
    h1[1:, 1:] = h1[:-1, :-1]
    h2 = k[:, np.newaxis] * n + k
    h2[::-1, :] = h2
    h3 = k[:, np.newaxis] * n + k
    h3[1:, :] += h3[:-1, :]

    p = np.arange(n) * 2.0
    v = p[2:]
    p[:-2] = v
    v[:] = p[:-2] + 1.0
    return a, b, c, d, f, g, h1, h2, h3, p

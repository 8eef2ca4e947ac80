"""NumPy reference for examples/synthetic.arr (Kristensen et al. 2016, Fig. 3)."""
import numpy as np


def _seven(a, b, d, e):
    a += d[:-1]
    a[:] = d[:-1]
    b += e[:-1]
    b[:] = e[:-1]
    t = a * b
    d[1:] = np.maximum(t, e[1:])
    e[1:] = np.minimum(t, d[1:])
    return t


def synthetic():
    a, b, d, e = np.zeros(4), np.zeros(4), np.zeros(5), np.zeros(5)
    _seven(a, b, d, e)
    return (d,)


def synthetic_nonzero(scale=1.0):
    a = np.arange(4) + 0.5
    b = np.ones(4)
    d = np.linspace(-1.0, 3.0, 5) * scale
    e = (5.0 - np.arange(5)) * scale
    t = _seven(a, b, d, e)
    return d, e, a, b, t

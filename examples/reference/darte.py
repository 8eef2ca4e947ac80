"""NumPy reference for examples/darte.arr (Kristensen et al. 2016, Fig. 21(a), Darte and Huard's
fragment): Fortran's E(0:N+1) is e[0:n+2]."""
import numpy as np


def darte(n=8):
    e = np.linspace(0.0, 1.0, n + 2)
    a = np.zeros(n)
    a[:] = e[:n]
    b = a * 2.0 + 3.0
    c = b + 99.0
    d = a[::-1] + a
    e[1:n + 1] = b + c * d
    f = e[1:n + 1] * 4.0 + 2.0
    g = e[1:n + 1] * 8.0 - 3.0
    h = f + g * e[2:]
    return a, e, h

"""NumPy reference for examples/features/creation.arr."""
import numpy as np

from arrayc_random import random


def creation(n=5, seed=11):
    a1 = np.arange(n)
    a2 = np.arange(2, n + 3)
    a3 = np.arange(10, 0, -3)
    a4 = np.arange(0.5, 5.0, 0.5)
    a5 = np.arange(-1.0, 1.0, 0.25)
    a6 = np.arange(1, 3, 0.5)
    l1 = np.linspace(0.0, 1.0, n)
    l2 = np.linspace(2.0, -2.0, 9)
    l3 = np.linspace(0, 10, 6)
    f1 = np.full((2, 3), 7.5)
    f2 = np.full(n, 4)
    f3 = np.full(3, True)
    f4 = np.full((2, 2), 1, dtype=np.float32)
    o1 = np.ones(3, dtype=np.int64)
    z1 = np.zeros((2, 2), dtype=np.bool_)
    o2 = np.ones(n)
    e1 = np.empty(3)
    e1[:] = 2.0

    src = np.arange(n) * 1.5
    cp = src.copy()
    cv = src[::-1].copy()
    cp[0] = -1.0
    src[1] = 100.0
    src[-1] = 42.0

    r2 = random(2, 3, seed=seed)
    r1 = random(6, seed=seed)
    r0 = random(4)
    return (a1, a2, a3, a4, a5, a6, l1, l2, l3, f1, f2, f3, f4, o1, z1, o2, e1, src, cp, cv, r2, r1, r0)

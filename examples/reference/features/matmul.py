"""NumPy reference for examples/features/matmul.arr."""
import numpy as np

from arrayc_random import random


def matmul(n=5, k=7, m=3):
    a = random(n, k, seed=1)
    b = random(k, m, seed=2)
    plain = a @ b
    at = random(k, n, seed=3)
    transposed = at.T @ b[::-1, :] * 2.0 + 1.0
    single = a.astype(np.float32) @ b.astype(np.float32)
    mixed = a.astype(np.float32) @ b
    big = random(2 * n, 3 * k, seed=4)
    stepped = big[::2, ::-3] @ b
    chain = (a @ b) @ b.T
    outer = a[:, :1] @ b[:1, :]
    row = np.ones((1, n)) @ plain
    ints = (a * 10.0).astype(np.int64) @ (b * 10.0).astype(np.int64)
    mv = a @ np.ones(k) * 0.5
    return plain, transposed, single, mixed, stepped, chain, outer, row, ints, mv

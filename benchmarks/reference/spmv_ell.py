"""NumPy reference for benchmarks/programs/spmv_ell.arr: power iteration with an ELLPACK sparse
matrix (k nonzeros per row: values and column indices)."""
import numpy as np

from arrayc_random import random


def spmv_ell(n=1000, k=8, iterations=3, seed=1):
    vals = random(n, k, seed=seed) - 0.5
    cols = (random(n, k, seed=seed + 1) * float(n)).astype(np.int64)
    x = random(n, seed=seed + 2)
    for _ in range(iterations):
        y = np.sum(vals * x[cols], axis=1)
        x = y / np.sqrt(np.sum(y * y))
    return (x,)

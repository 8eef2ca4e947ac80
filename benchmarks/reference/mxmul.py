"""NumPy reference for benchmarks/programs/mxmul.arr: bh107/benchpress (c16e8ec)
benchmarks/mxmul/python_numpy/mxmul.py in Python 3, without the harness (C += x @ y by
broadcasting and add.reduce, `iterations` times)."""
import numpy as np


def mxmul(n=32, iterations=1):
    nelements = np.float64(n * n)
    x = np.arange(nelements, dtype=np.float64) / nelements
    x.shape = (n, n)
    y = np.arange(n**2, dtype=np.float64) / nelements
    y.shape = (n, n)
    c = np.zeros_like(x)
    for _ in range(iterations):
        c += np.add.reduce(x[:, np.newaxis] * np.transpose(y), -1)
    return (c,)

"""NumPy reference for benchmarks/programs/knn_naive.arr: bh107/benchpress (c16e8ec)
benchmarks/knn_naive/python_numpy/knn_naive.py in Python 3, without the harness; the random
data from arrayc_random, the unused neighbour count K left out."""
import numpy as np

from arrayc_random import random


def knn_naive(n=1000, f=10, seed=1):
    data = random(f, n + 1, seed=seed)
    x = np.empty((f, 1))
    x[:, :] = 0.5
    return (np.sum(np.sqrt((data - x) ** 2)),)

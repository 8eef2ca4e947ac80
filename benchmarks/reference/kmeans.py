"""NumPy reference for benchmarks/programs/kmeans.arr: Lloyd's k-means, centres initially the first
k points; an empty cluster keeps its centre."""
import numpy as np

from arrayc_random import random


def kmeans(n=1000, d=2, k=8, iterations=4, seed=1):
    p = random(n, d, seed=seed)
    c = p[0:k, :].copy()
    labels = np.zeros(n, dtype=np.int64)
    for _ in range(iterations):
        dist = np.sum((p[:, np.newaxis, :] - c[np.newaxis, :, :]) ** 2, axis=2)
        labels = np.argmin(dist, axis=1)
        counts = np.zeros(k)
        np.add.at(counts, labels, 1.0)
        sums = np.zeros((k, d))
        np.add.at(sums, labels, p)
        c = np.where(counts[:, np.newaxis] > 0.0, sums / np.maximum(counts, 1.0)[:, np.newaxis], c)
    return (c, labels)

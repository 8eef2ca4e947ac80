"""NumPy reference for benchmarks/programs/histogram.arr: bincount of a skewed sample, counts and
sums of weights per bin."""
import numpy as np

from arrayc_random import random


def histogram(n=1000, bins=64, seed=1):
    u = random(n, seed=seed)
    w = random(n, seed=seed + 1) * 2.0 - 1.0
    b = (u * u * float(bins)).astype(np.int64)
    counts = np.bincount(b, minlength=bins)
    sums = np.bincount(b, w, minlength=bins)
    return (counts, sums, sums / np.maximum(counts.astype(np.float64), 1.0))

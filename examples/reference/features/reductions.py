"""NumPy reference for examples/features/reductions.arr."""
import numpy as np

from arrayc_random import random


def reductions(seed=3):
    x = random(2, 3, 4, seed=seed) * 2.0 - 0.5
    p = 1.0 + x * 0.1
    i0, i1, i2 = np.arange(2), np.arange(3), np.arange(4)
    t = i0[:, np.newaxis, np.newaxis] * 100 + i1[:, np.newaxis] * 10 + i2 - 50
    bm = x > 0.5
    xf = x.astype(np.float32)
    return (
        float(np.sum(x)), np.sum(x, axis=0), np.sum(x, axis=1), np.sum(x, axis=2), np.sum(x, axis=-1),
        float(np.prod(p)), np.prod(p, axis=1),
        float(np.min(x)), np.min(x, axis=0), float(np.max(x)), np.max(x, axis=2),
        float(np.mean(x)), np.mean(x, axis=-2),
        int(np.sum(t)), np.sum(t, axis=1), np.prod(t % 5 + 1, axis=2), np.min(t, axis=0),
        int(np.max(t)), float(np.mean(t)), np.mean(t, axis=2),
        int(np.sum(bm)), np.sum(bm, axis=0),
        np.sum(xf), np.sum(xf, axis=1),  # float32 scalar / array
    )

"""NumPy reference for benchmarks/programs/filter_points.arr: the points inside the unit circle
(boolean-mask filters), their radii and mean radius, and the upper half of them."""
import numpy as np

from arrayc_random import random


def filter_points(n=1000, seed=1):
    x = random(n, seed=seed) * 2.0 - 1.0
    y = random(n, seed=seed + 1) * 2.0 - 1.0
    inside = x * x + y * y < 1.0
    xs = x[inside]
    ys = y[inside]
    r = np.sqrt(xs * xs + ys * ys)
    return (r, float(np.mean(r)), xs[ys > 0.0])

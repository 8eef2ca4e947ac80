"""NumPy reference for benchmarks/programs/convolve.arr: bh107/benchpress's convolve
(benchpress/benchmarks/convolve/python_numpy/convolve.py) in Python 3 for ndims = 2.
The original calls `scipy.signal.convolve(image, image_filter)`; SciPy is not a dependency of
these tests, so its full-mode result is computed here by its definition (the direct method, each
filter value times the shifted image), which SciPy's FFT method matches to rounding."""
import numpy as np

from arrayc_random import random


def _full_convolve(image, image_filter):
    n, m = image.shape[0], image_filter.shape[0]
    r = np.zeros((n + m - 1, n + m - 1))
    for i in range(m):
        for j in range(m):
            r[i:i + n, j:j + n] += image * image_filter[i, j]
    return r


def convolve_filter(image_size=64, filter_size=5, iterations=2, seed=1):
    image = random(image_size, image_size, seed=seed)
    image_filter = random(filter_size, filter_size, seed=seed + 1)
    r = np.zeros((image_size + filter_size - 1,) * 2)
    for _ in range(iterations):
        r = _full_convolve(image, image_filter)
    return (r,)

"""NumPy reference for benchmarks/programs/convolve1d.arr: bh107/benchpress's convolve1d
(benchpress/benchmarks/convolve1d/python_numpy/convolve1d.py) in Python 3, `iterations` times
`np.convolve` of a random image with a random filter; inputs from arrayc_random."""
import numpy as np

from arrayc_random import random


def convolve1d(image_size=1000, filter_size=10, iterations=10, seed=1):
    image = random(image_size, seed=seed)
    image_filter = random(filter_size, seed=seed + 1)
    r = np.zeros(image_size + filter_size - 1)
    for _ in range(iterations):
        r = np.convolve(image, image_filter)
    return (r,)

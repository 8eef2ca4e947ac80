"""NumPy reference for benchmarks/programs/convolve_2d.arr: bh107/benchpress (c16e8ec)
benchmarks/convolve_2d/python_numpy/convolve_2d.py in Python 3, without the harness; the
photo it read is an image of random levels (arrayc_random.integers), and bohrium.stdviews'
cartesian() is written out as the list of shifted views it gives."""
import itertools

import numpy as np

from arrayc_random import integers


def gen_2d_filter(size, weight, datatype=np.float32):
    kernel = np.zeros((size, size), dtype=datatype)
    totalsum = 0
    kernelrad = size // 2
    caleuler = 1.0 / (2.0 * np.pi * weight**2)
    for filter_y in range(-kernelrad, kernelrad + 1, 1):
        for filter_x in range(-kernelrad, kernelrad + 1, 1):
            distance = ((filter_x * filter_x) + (filter_y * filter_y)) / (2 * (weight * weight))
            kernel[filter_y + kernelrad, filter_x + kernelrad] = caleuler * np.exp(-distance)
            totalsum += kernel[filter_y + kernelrad, filter_x + kernelrad]
    kernel *= 1.0 / totalsum
    return kernel


def cartesian(x, size):
    """The views of x shifted by 0 .. size-1 along every axis, first axis outermost."""
    bounds = [slice(i, -size + 1 + i or None) for i in range(size)]
    return [x[s] for s in itertools.product(bounds, repeat=x.ndim)]


def convolve_2d(n=64, fsize=5, seed=1):
    rgb = np.array(integers(0, 256, n, n, 3, seed=seed), dtype=np.float32)
    tones = np.array((0.3, 0.6, 0.11), dtype=np.float32)
    image = np.add.reduce(rgb * tones[np.newaxis, np.newaxis, :], axis=2)
    image_filter = gen_2d_filter(fsize, 13.0)
    views = cartesian(image, len(image_filter))
    return (sum(d[0] * d[1] for d in zip(views, image_filter.flatten())),)

"""NumPy reference for benchmarks/programs/convolve_3d.arr: bh107/benchpress (c16e8ec)
benchmarks/convolve_3d/python_numpy/convolve_3d.py in Python 3, without the harness; the
random image from arrayc_random, bohrium.stdviews' cartesian() written out (as in
convolve_2d's reference)."""
import numpy as np

from arrayc_random import random
from reference.convolve_2d import cartesian


def gen_3d_filter(size, weight, datatype=np.float32):
    kernel = np.zeros((size, size, size), dtype=datatype)
    totalsum = 0
    kernelrad = size // 2
    caleuler = 1.0 / (2.0 * np.pi * weight**2)
    for filter_z in range(-kernelrad, kernelrad + 1, 1):
        for filter_y in range(-kernelrad, kernelrad + 1, 1):
            for filter_x in range(-kernelrad, kernelrad + 1, 1):
                distance = ((filter_x * filter_x) + (filter_y * filter_y) + (filter_z * filter_z)) / (2 * (weight * weight))
                kernel[filter_z + kernelrad, filter_y + kernelrad, filter_x + kernelrad] = caleuler * np.exp(-distance)
                totalsum += kernel[filter_z + kernelrad, filter_y + kernelrad, filter_x + kernelrad]
    kernel *= 1.0 / totalsum
    return kernel


def convolve_3d(n=24, fsize=5, seed=1):
    image = random(n, n, n, seed=seed)
    image_filter = gen_3d_filter(fsize, 13.0)
    views = cartesian(image, len(image_filter))
    return (sum(d[0] * d[1] for d in zip(views, image_filter.flatten())),)

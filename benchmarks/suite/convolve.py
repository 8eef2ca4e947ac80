"""Convolution Filter (any dimensional): bh107/benchpress (master), benchpress/benchmarks/convolve/
python_numpy/convolve.py; `scipy.signal.convolve` of a random 2-d image with a random filter,
repeated, written as the direct method (issue 31)."""
import functools

import numpy as np

from arrayc_random import random

PROGRAM = "benchmarks/programs/convolve.arr"
ENTRY = "convolve_filter"
REFERENCE = "benchmarks/reference/convolve.py"
SMALL = dict(image_size=64, filter_size=5, iterations=2, seed=1)
# Benchpress's test size 1000*10*2*10: 100 shifted multiply-adds of a 1000 x 1000 image per
# iteration; NumPy takes about 0.6 s per iteration here, so 4 instead of 10.
LARGE = dict(image_size=1000, filter_size=10, iterations=4, seed=1)
# each shift-and-add streams the image and the output window once: memory traffic.
MEMORY_BOUND = True
RTOL = 1e-9
ATOL = 0.0


def numexpr(image_size, filter_size, iterations, seed):
    """The shift-and-add of the reference with each update in numexpr."""
    import numexpr as ne

    image = random(image_size, image_size, seed=seed)
    image_filter = random(filter_size, filter_size, seed=seed + 1)
    n, m = image_size, filter_size
    r = None
    for _ in range(iterations):
        r = np.zeros((n + m - 1, n + m - 1))
        for i in range(m):
            for j in range(m):
                w = r[i:i + n, j:j + n]
                f = image_filter[i, j]
                w[:] = ne.evaluate("w + image * f")
    return (r,)


@functools.lru_cache(maxsize=None)
def _jitted():
    import jax
    import jax.numpy as jnp

    jax.config.update("jax_enable_x64", True)

    @jax.jit
    def full(image, image_filter):
        n, m = image.shape[0], image_filter.shape[0]
        r = jnp.zeros((n + m - 1, n + m - 1))
        for i in range(m):
            for j in range(m):
                r = r.at[i:i + n, j:j + n].add(image * image_filter[i, j])
        return r

    return full


def jax(image_size, filter_size, iterations, seed):
    import jax.numpy as jnp

    full = _jitted()  # first: it enables float64 before the inputs are converted
    image = jnp.asarray(random(image_size, image_size, seed=seed))
    image_filter = jnp.asarray(random(filter_size, filter_size, seed=seed + 1))
    r = None
    for _ in range(iterations):
        r = full(image, image_filter)
    return (np.asarray(r),)

"""Convolution Filter 1D: bh107/benchpress (master), benchpress/benchmarks/convolve1d/python_numpy/
convolve1d.py; `np.convolve` of a random image with a random filter, repeated (issue 31)."""
import functools

import numpy as np

from arrayc_random import random

PROGRAM = "benchmarks/programs/convolve1d.arr"
ENTRY = "convolve1d"
REFERENCE = "benchmarks/reference/convolve1d.py"
SMALL = dict(image_size=1000, filter_size=10, iterations=10, seed=1)
# Benchpress's perf_check size is 1000000*100*100; NumPy's direct convolution of 10^6 by 100
# values takes 40 to 100 ms, so fewer iterations keep a run near 2 s. arrayc's convolve is a host
# operation (arr.convolve, runtime/src/convolve.rs, register-blocked): at LARGE 0.53 s against
# NumPy's 1.60 s on a loaded 2-core machine (5.2 s against 4.0 s with a pass over stored outputs per
# tap, 38 s when a fused kernel gathered both arrays per position; benchmarks/REPORT.md,
# "convolve (issue 31)").
LARGE = dict(image_size=1_000_000, filter_size=100, iterations=40, seed=1)
# 100 multiply-adds per output value: compute-bound.
MEMORY_BOUND = False
RTOL = 1e-9
ATOL = 0.0

numexpr = None
NUMEXPR_WHY = "numexpr has no convolution (nor any operation across elements); the benchmark is one np.convolve"


@functools.lru_cache(maxsize=None)
def _jitted():
    import jax
    import jax.numpy as jnp

    jax.config.update("jax_enable_x64", True)
    return jax.jit(jnp.convolve)


def jax(image_size, filter_size, iterations, seed):
    import jax.numpy as jnp

    full = _jitted()  # first: it enables float64 before the inputs are converted
    image = jnp.asarray(random(image_size, seed=seed))
    image_filter = jnp.asarray(random(filter_size, seed=seed + 1))
    r = None
    for _ in range(iterations):
        r = full(image, image_filter)
    return (np.asarray(r),)

"""Naive kNN distance kernel (bh107/benchpress at c16e8ec,
benchmarks/knn_naive/python_numpy/knn_naive.py; readme size --size=20000000*10*4): the sum of
sqrt((data - x)**2) over f features of n + 1 random points."""
import functools

import numpy as np

from arrayc_random import random

PROGRAM = "benchmarks/programs/knn_naive.arr"
ENTRY = "knn_naive"
REFERENCE = "benchmarks/reference/knn_naive.py"
SMALL = dict(n=1000, f=10, seed=1)
# 10 x 10,000,001 points (763 MiB): NumPy's kernel takes about 1 s (three temporaries of the
# data's size). Note: generating the data with the NumPy model of `random` (arrayc_random)
# takes about a minute in the reference, numexpr and jax versions (the harness's memo_random
# does it once; arrayc's own `random` takes well under a second), so time the kernel apart
# from the set-up. The readme's 20,000,001 points would need 1.5 GiB per temporary.
LARGE = dict(n=10000000, f=10, seed=1)
MEMORY_BOUND = True
RTOL = 1e-9
ATOL = 0.0


def _inputs(n, f, seed):
    return random(f, n + 1, seed=seed), np.full((f, 1), 0.5)


def numexpr(n, f, seed):
    import numexpr as ne

    data, x = _inputs(n, f, seed)
    return (np.float64(ne.evaluate("sum(sqrt((data - x)**2))")),)


@functools.lru_cache(maxsize=None)
def _jitted():
    import jax
    import jax.numpy as jnp

    jax.config.update("jax_enable_x64", True)
    return jax.jit(lambda data, x: jnp.sum(jnp.sqrt((data - x) ** 2)))


def jax(n, f, seed):
    return (np.float64(_jitted()(*_inputs(n, f, seed))),)

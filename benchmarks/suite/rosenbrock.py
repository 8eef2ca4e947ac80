"""Rosenbrock (Benchpress; Kristensen et al. 2016, Table I): the Rosenbrock function summed over
consecutive pairs of a random n-vector. Program and reference are `examples/rosenbrock.arr`."""
import functools

import numpy as np

from arrayc_random import random

PROGRAM = "examples/rosenbrock.arr"
ENTRY = "rosenbrock"
REFERENCE = "examples/reference/rosenbrock.py"
SMALL = dict(n=100000, seed=1)  # as in tests/examples/test_examples.py
# 1e8 elements: x is 763 MiB; NumPy about 1 s here with x given (the harness memoizes the NumPy
# model of `random`, which takes ~25 s at this size; arrayc draws x in its own kernel, timed).
LARGE = dict(n=100_000_000, seed=7)
# Not counted as memory-bound: the arrayc program draws x with Philox4x32-10 in a kernel (tens of
# integer operations per element) before the element-wise part and the sum stream over it.
MEMORY_BOUND = False
RTOL = 1e-9
ATOL = 0.0


def numexpr(n, seed):
    """The summand and the sum in one numexpr expression over two views of x."""
    import numexpr as ne

    x = random(n, seed=seed) * 4.0 - 2.0
    x0, x1 = x[:-1], x[1:]
    return (float(ne.evaluate("sum(100.0 * (x1 - x0 ** 2) ** 2 + (1.0 - x0) ** 2)")),)


@functools.lru_cache(maxsize=None)
def _jitted():
    import jax
    import jax.numpy as jnp

    jax.config.update("jax_enable_x64", True)

    @jax.jit
    def run(x):
        return jnp.sum(100.0 * (x[1:] - x[:-1] ** 2) ** 2 + (1.0 - x[:-1]) ** 2)

    return run


def jax(n, seed):
    import jax.numpy as jnp

    x = jnp.asarray(random(n, seed=seed) * 4.0 - 2.0)  # made in NumPy, outside jit
    return (_jitted()(x),)

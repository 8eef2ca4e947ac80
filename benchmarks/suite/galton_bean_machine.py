"""Galton Bean Machine: bh107/benchpress (master), benchpress/benchmarks/galton_bean_machine/
python_numpy/galton_bean_machine.py; the final positions of beans that step left or right at
random through rows of pins (issue 31)."""
import functools

import numpy as np

from arrayc_random import random

PROGRAM = "benchmarks/programs/galton_bean_machine.arr"
ENTRY = "galton_bean_machine"
REFERENCE = "benchmarks/reference/galton_bean_machine.py"
# Benchpress's test size 1000*100.
SMALL = dict(num_beans=1000, height=100, seed=1)
# 10^6 beans of 100 rows (Benchpress's perf_check: 5000000*100): 800 MB of random numbers,
# NumPy about 1.6 s for the sign and the sum on a loaded 2-core machine. Note: the NumPy model of
# `random` (arrayc_random) takes about 30 s more at this size in the reference, numexpr and jax
# versions (arrayc generates them inside its one fused kernel), so time the machine apart from
# the set-up.
LARGE = dict(num_beans=1_000_000, height=100, seed=1)
# arrayc generates the random numbers inside the kernel that sums them: only the result is
# stored, and the time is the generator's arithmetic.
MEMORY_BOUND = False
RTOL = 1e-9
ATOL = 0.0


def numexpr(num_beans, height, seed):
    """The steps in numexpr (it has no sign: a where), the sum per bean in NumPy (numexpr's sum
    reduces one axis only as the last operation of an expression, which it cannot fuse here)."""
    import numexpr as ne

    u = random(num_beans, height, seed=seed)
    steps = ne.evaluate("where(u > 0.5, 1.0, where(u < 0.5, -1.0, 0.0))")
    return (np.sum(steps, axis=1),)


@functools.lru_cache(maxsize=None)
def _jitted():
    import jax
    import jax.numpy as jnp

    jax.config.update("jax_enable_x64", True)
    return jax.jit(lambda u: jnp.sum(jnp.sign(u - 0.5), axis=1))


def jax(num_beans, height, seed):
    return (np.asarray(_jitted()(random(num_beans, height, seed=seed))),)

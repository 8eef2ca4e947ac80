"""Monte Carlo pi (Benchpress; Kristensen et al. 2016, Table I: 10^8 samples, 20 iterations)."""
import functools

import numpy as np

from arrayc_random import random

PROGRAM = "benchmarks/programs/montecarlo_pi.arr"
ENTRY = "montecarlo_pi"
REFERENCE = "benchmarks/reference/montecarlo_pi.py"
SMALL = dict(n=20000, iterations=5, seed=0)
# The numbers come from arrayc's counter-based Philox4x32-10 `random`; its NumPy model
# (arrayc_random, used by the reference, numexpr and jax versions alike) costs about
# 0.1 us per number on this machine and is nearly all of a NumPy run, so a ~2 s run draws
# 2 x 8 x 10^6 numbers: arrays of 8 MiB, far from the paper's 10^8 samples x 20.
LARGE = dict(n=1000000, iterations=8, seed=0)
# Not memory-bound: fused, the whole iteration is one kernel with no array traffic
# (Bohrium cost 1 element); it is bound by the ~20 multiplications of Philox per number
# and the square root (the paper, Sec. VI, finds this benchmark computation bound too).
MEMORY_BOUND = False
RTOL = 1e-9
ATOL = 0.0


def numexpr(n, iterations, seed):
    import numexpr as ne

    estimates = np.zeros(iterations)
    for i in range(iterations):
        x = random(n, seed=seed + 2 * i)
        y = random(n, seed=seed + 2 * i + 1)
        count = ne.evaluate("sum(where(sqrt(x * x + y * y) <= 1.0, 1, 0))")
        estimates[i] = 4 * int(count) / n
    return np.float64(np.sum(estimates) / iterations), estimates


@functools.lru_cache(maxsize=None)
def _jitted():
    import jax
    import jax.numpy as jnp

    jax.config.update("jax_enable_x64", True)

    @functools.partial(jax.jit, static_argnames=("n",))
    def estimate(xs, ys, n):
        # one estimate per row (iteration)
        inside = jnp.sqrt(xs * xs + ys * ys) <= 1.0
        return 4 * jnp.sum(inside, axis=1) / n

    return estimate


def jax(n, iterations, seed):
    xs = np.stack([random(n, seed=seed + 2 * i) for i in range(iterations)])
    ys = np.stack([random(n, seed=seed + 2 * i + 1) for i in range(iterations)])
    estimates = np.asarray(_jitted()(xs, ys, n))
    return np.float64(np.sum(estimates) / iterations), estimates

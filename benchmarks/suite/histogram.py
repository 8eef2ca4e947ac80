"""Histograms with bincount (issue 13's histogram benchmark): counts and sums of weights per bin of
a skewed sample."""
import functools

import numpy as np

from arrayc_random import random

PROGRAM = "benchmarks/programs/histogram.arr"
ENTRY = "histogram"
REFERENCE = "benchmarks/reference/histogram.py"
SMALL = dict(n=100_000, bins=64, seed=1)
# 40M samples (two f64 inputs of 320 MB); NumPy about a second.
LARGE = dict(n=40_000_000, bins=256, seed=1)
# bincount adds in index order (one thread in arrayc, as in NumPy): not bandwidth-bound.
MEMORY_BOUND = False
RTOL = 1e-9
ATOL = 0.0


def numexpr(n, bins, seed):
    """The bin index in numexpr, the counting in NumPy's bincount (numexpr has none)."""
    import numexpr as ne

    u = random(n, seed=seed)
    w = random(n, seed=seed + 1)
    w = ne.evaluate("w * 2.0 - 1.0")
    b = ne.evaluate("u * u * bins").astype(np.int64)
    counts = np.bincount(b, minlength=bins)
    sums = np.bincount(b, w, minlength=bins)
    return (counts, sums, sums / np.maximum(counts.astype(np.float64), 1.0))


@functools.lru_cache(maxsize=None)
def _jitted():
    import jax
    import jax.numpy as jnp

    jax.config.update("jax_enable_x64", True)

    @functools.partial(jax.jit, static_argnames=("bins",))
    def run(u, w, bins):
        w = w * 2.0 - 1.0
        b = (u * u * bins).astype(jnp.int64)
        # `length` must be static under jit: every index is below `bins` (u < 1).
        counts = jnp.bincount(b, length=bins)
        sums = jnp.bincount(b, w, length=bins)
        return counts, sums, sums / jnp.maximum(counts.astype(jnp.float64), 1.0)

    return run


def jax(n, bins, seed):
    import jax.numpy as jnp

    return _jitted()(jnp.asarray(random(n, seed=seed)), jnp.asarray(random(n, seed=seed + 1)), bins)

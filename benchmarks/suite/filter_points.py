"""Boolean-mask filters (issue 13's filter-heavy benchmark): the points of a square inside the unit
circle, their radii, and a filter of the filtered points."""
import functools

import numpy as np

from arrayc_random import random

PROGRAM = "benchmarks/programs/filter_points.arr"
ENTRY = "filter_points"
REFERENCE = "benchmarks/reference/filter_points.py"
SMALL = dict(n=100_000, seed=1)
# 30M points (two f64 inputs of 240 MB); NumPy about a second.
LARGE = dict(n=30_000_000, seed=1)
# A filter's positions are a chunked scan and its scatter parallel (NumPy's runs on one thread).
MEMORY_BOUND = False
RTOL = 1e-9
ATOL = 0.0


def numexpr(n, seed):
    """The mask and the radii in numexpr, the filters in NumPy (numexpr has none)."""
    import numexpr as ne

    x = random(n, seed=seed)
    y = random(n, seed=seed + 1)
    x = ne.evaluate("x * 2.0 - 1.0")
    y = ne.evaluate("y * 2.0 - 1.0")
    inside = ne.evaluate("x * x + y * y < 1.0")
    xs = x[inside]
    ys = y[inside]
    r = ne.evaluate("sqrt(xs * xs + ys * ys)")
    return (r, float(np.mean(r)), xs[ys > 0.0])


@functools.lru_cache(maxsize=None)
def _jitted():
    import jax
    import jax.numpy as jnp

    jax.config.update("jax_enable_x64", True)

    @jax.jit
    def mask(x, y):
        x = x * 2.0 - 1.0
        y = y * 2.0 - 1.0
        return x, y, x * x + y * y < 1.0

    @jax.jit
    def radii(xs, ys):
        r = jnp.sqrt(xs * xs + ys * ys)
        return r, jnp.mean(r), ys > 0.0

    return mask, radii


def jax(n, seed):
    """Boolean indexing has a data-dependent shape, which `jax.jit` cannot trace: the filters run
    eagerly between two jitted parts, as a JAX user would write it."""
    import jax.numpy as jnp

    mask, radii = _jitted()
    x, y, inside = mask(jnp.asarray(random(n, seed=seed)), jnp.asarray(random(n, seed=seed + 1)))
    xs, ys = x[inside], y[inside]
    r, m, upper = radii(xs, ys)
    return (r, m, xs[upper])

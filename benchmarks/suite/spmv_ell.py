"""Sparse matrix-vector products in ELLPACK format, power iteration (issue 13's gather-heavy
benchmark: `x[cols]` gathers k elements of x per row)."""
import functools

import numpy as np

from arrayc_random import random

PROGRAM = "benchmarks/programs/spmv_ell.arr"
ENTRY = "spmv_ell"
REFERENCE = "benchmarks/reference/spmv_ell.py"
SMALL = dict(n=1000, k=8, iterations=3, seed=1)
# 4M rows, 8 nonzeros each: vals and cols are 256 MiB each, x 32 MiB (beyond any cache), so every
# gather of x misses; NumPy about a second per product here (the gathered n x k temporary).
LARGE = dict(n=4_000_000, k=8, iterations=4, seed=1)
# Random gathers are bound by memory latency, not bandwidth: no roofline target.
MEMORY_BOUND = False
RTOL = 1e-9
ATOL = 0.0


def _inputs(n, k, seed):
    vals = random(n, k, seed=seed) - 0.5
    cols = (random(n, k, seed=seed + 1) * float(n)).astype(np.int64)
    return vals, cols, random(n, seed=seed + 2)


def numexpr(n, k, iterations, seed):
    """The gather in NumPy (numexpr has none), the product and its row sums in numexpr."""
    import numexpr as ne

    vals, cols, x = _inputs(n, k, seed)
    for _ in range(iterations):
        g = x[cols]
        y = ne.evaluate("sum(vals * g, axis=1)")
        x = ne.evaluate("y / sqrt(s)", local_dict=dict(y=y, s=float(ne.evaluate("sum(y * y)"))))
    return (x,)


@functools.lru_cache(maxsize=None)
def _jitted():
    import jax
    import jax.numpy as jnp
    from jax import lax

    jax.config.update("jax_enable_x64", True)

    @functools.partial(jax.jit, static_argnames=("iterations",))
    def run(vals, cols, x, iterations):
        def body(_, x):
            y = jnp.sum(vals * x[cols], axis=1)
            return y / jnp.sqrt(jnp.sum(y * y))

        return lax.fori_loop(0, iterations, body, x)

    return run


def jax(n, k, iterations, seed):
    import jax.numpy as jnp

    vals, cols, x = _inputs(n, k, seed)  # made in NumPy, outside jit
    return (_jitted()(jnp.asarray(vals), jnp.asarray(cols), jnp.asarray(x), iterations),)

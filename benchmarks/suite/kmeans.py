"""k-means clustering, Lloyd's algorithm (issue 13's benchmark of argmin and per-cluster sums)."""
import functools

import numpy as np

from arrayc_random import random

PROGRAM = "benchmarks/programs/kmeans.arr"
ENTRY = "kmeans"
REFERENCE = "benchmarks/reference/kmeans.py"
SMALL = dict(n=20_000, d=2, k=8, iterations=4, seed=1)
# 2M points in 4 dimensions, 16 centres, 5 steps; NumPy a few seconds.
LARGE = dict(n=2_000_000, d=4, k=16, iterations=5, seed=1)
MEMORY_BOUND = False
# The centres are sums of up to n points, added in point order by both sides.
RTOL = 1e-9
ATOL = 0.0


def numexpr(n, d, k, iterations, seed):
    """The distances in numexpr (its axis sum), argmin and the per-cluster sums in NumPy."""
    import numexpr as ne

    p = random(n, d, seed=seed)
    c = p[0:k, :].copy()
    labels = np.zeros(n, dtype=np.int64)
    for _ in range(iterations):
        a = p[:, np.newaxis, :]
        b = c[np.newaxis, :, :]
        dist = ne.evaluate("sum((a - b) ** 2, axis=2)")
        labels = np.argmin(dist, axis=1)
        counts = np.zeros(k)
        np.add.at(counts, labels, 1.0)
        sums = np.zeros((k, d))
        np.add.at(sums, labels, p)
        c = np.where(counts[:, np.newaxis] > 0.0, sums / np.maximum(counts, 1.0)[:, np.newaxis], c)
    return (c, labels)


@functools.lru_cache(maxsize=None)
def _jitted():
    import jax
    import jax.numpy as jnp
    from jax import lax

    jax.config.update("jax_enable_x64", True)

    @functools.partial(jax.jit, static_argnames=("k", "iterations"))
    def run(p, k, iterations):
        def step(_, state):
            c, _labels = state
            dist = jnp.sum((p[:, None, :] - c[None, :, :]) ** 2, axis=2)
            labels = jnp.argmin(dist, axis=1)
            counts = jnp.zeros(k).at[labels].add(1.0)
            sums = jnp.zeros((k, p.shape[1])).at[labels].add(p)
            c = jnp.where(counts[:, None] > 0.0, sums / jnp.maximum(counts, 1.0)[:, None], c)
            return c, labels

        return lax.fori_loop(0, iterations, step, (p[0:k], jnp.zeros(p.shape[0], dtype=jnp.int64)))

    return run


def jax(n, d, k, iterations, seed):
    import jax.numpy as jnp

    return _jitted()(jnp.asarray(random(n, d, seed=seed)), k, iterations)

"""Gauss elimination (Benchpress `gauss`; Kristensen et al. 2016, Table I): reduce a diagonally
dominant n x n matrix to upper-triangular form with a unit diagonal, one loop-dependent in-place
view update per column, then divide every row by its diagonal element."""
import functools

import numpy as np

from arrayc_random import random

PROGRAM = "benchmarks/programs/gauss.arr"
ENTRY = "gauss"
REFERENCE = "benchmarks/reference/gauss.py"
SMALL = dict(n=37, seed=3)
# 1500 x 1500 (17 MiB): the sum over c of (n - c)^2 is n^3 / 3 = 1.1e9 element updates.
# NumPy: about 2 s here. The matrix fits in the last-level cache, so this is not memory-bound.
LARGE = dict(n=1500, seed=1)
MEMORY_BOUND = False
RTOL = 1e-9
ATOL = 1e-12
WHY = ("eliminated entries are a - (a / p) * p: zero up to rounding, and the JAX version (masked "
       "whole-matrix updates) rounds them differently (1e-18 instead of 0); the matrix is O(1) to O(n)")


def dominant_matrix(n, seed):
    """The benchmark's input (also LU's): random n x n plus n on the diagonal."""
    a = random(n, n, seed=seed)
    a[np.diag_indices(n)] += float(n)
    return a


def numexpr(n, seed):
    """The rank-1 update of each step as one numexpr expression written into the view."""
    import numexpr as ne

    a = dominant_matrix(n, seed)
    for c in range(1, n):
        f = (a[c:, c - 1] / a[c - 1, c - 1:c])[:, np.newaxis]
        rows, pivot = a[c:, c - 1:], a[c - 1, c - 1:]
        ne.evaluate("rows - f * pivot", out=rows)
    a /= np.diagonal(a)[:, np.newaxis].copy()
    return (a,)


@functools.lru_cache(maxsize=None)
def _jitted():
    import jax
    import jax.numpy as jnp
    from jax import lax

    jax.config.update("jax_enable_x64", True)

    @jax.jit
    def run(a):
        n = a.shape[0]
        idx = jnp.arange(n)

        def step(c, a):
            # JAX needs static shapes: the update covers the whole matrix, masked to rows >= c
            # and columns >= c - 1 (what a JAX user writes for a loop-dependent slice).
            f = jnp.where(idx >= c, a[:, c - 1] / a[c - 1, c - 1], 0.0)
            row = jnp.where(idx >= c - 1, a[c - 1, :], 0.0)
            return a - f[:, None] * row[None, :]

        a = lax.fori_loop(1, n, step, a)
        return a / jnp.diagonal(a)[:, None]

    return run


def jax(n, seed):
    return (_jitted()(dominant_matrix(n, seed)),)

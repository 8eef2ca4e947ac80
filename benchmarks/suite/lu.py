"""LU factorisation (Benchpress `lu`; Kristensen et al. 2016, Table I): Doolittle elimination
without pivoting of a diagonally dominant matrix into unit lower-triangular l and upper-triangular
u; l starts as the identity written through its diagonal view."""
import functools

import numpy as np

from suite.gauss import dominant_matrix as _matrix

PROGRAM = "benchmarks/programs/lu.arr"
ENTRY = "lu"
REFERENCE = "benchmarks/reference/lu.py"
SMALL = dict(n=37, seed=3)
# 1500 x 1500: n^3 / 3 = 1.1e9 element updates of u plus the column stores into l; NumPy about
# 2 s here. The matrices fit in the last-level cache, so this is not memory-bound.
LARGE = dict(n=1500, seed=1)
MEMORY_BOUND = False
RTOL = 1e-9
ATOL = 1e-12
WHY = ("eliminated entries are a - (a / p) * p: zero up to rounding, and the JAX version (masked "
       "whole-matrix updates) rounds them differently (1e-18 instead of 0); the matrix is O(1) to O(n)")


def numexpr(n, seed):
    """The rank-1 update of u as one numexpr expression written into the view."""
    import numexpr as ne

    u = _matrix(n, seed)
    l = np.identity(n)
    for c in range(1, n):
        l[c:, c - 1] = u[c:, c - 1] / u[c - 1, c - 1:c]
        rows, f, pivot = u[c:, c - 1:], l[c:, c - 1][:, np.newaxis], u[c - 1, c - 1:]
        ne.evaluate("rows - f * pivot", out=rows)
    return l, u


@functools.lru_cache(maxsize=None)
def _jitted():
    import jax
    import jax.numpy as jnp
    from jax import lax

    jax.config.update("jax_enable_x64", True)

    @jax.jit
    def run(u):
        n = u.shape[0]
        idx = jnp.arange(n)

        def step(c, lu):
            l, u = lu
            # Static shapes: masked whole-matrix updates stand for the loop-dependent slices.
            f = jnp.where(idx >= c, u[:, c - 1] / u[c - 1, c - 1], 0.0)
            l = l.at[:, c - 1].set(jnp.where(idx >= c, f, l[:, c - 1]))
            row = jnp.where(idx >= c - 1, u[c - 1, :], 0.0)
            return l, u - f[:, None] * row[None, :]

        return lax.fori_loop(1, n, step, (jnp.identity(n), u))

    return run


def jax(n, seed):
    return _jitted()(_matrix(n, seed))

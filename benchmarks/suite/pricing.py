"""American put on a binomial tree (bh107/benchpress at c16e8ec,
benchmarks/pricing/python_numpy/pricing.py, NumPy version of Rolf Poulsen's R code; its size
--size=252): element-by-element backward induction through an (n+1) x (n+1) tree."""
import functools

import numpy as np

PROGRAM = "benchmarks/programs/pricing.arr"
ENTRY = "pricing"
REFERENCE = "benchmarks/reference/pricing.py"
SMALL = dict(magic_number=32)
# 1000 steps: 500,500 scalar updates in Python loops, about 1.5 s in NumPy (the original's
# 252 steps take about 0.08 s)
LARGE = dict(magic_number=1000)
MEMORY_BOUND = False
RTOL = 1e-9
ATOL = 0.0
NUMEXPR_WHY = "the benchmark is a loop of scalar updates, with no array expression to give numexpr"
numexpr = None


@functools.lru_cache(maxsize=None)
def _jitted():
    import jax
    import jax.numpy as jnp

    jax.config.update("jax_enable_x64", True)

    @functools.partial(jax.jit, static_argnames=("n",))
    def run(n):
        dt = 1.0 / n
        u = np.exp(0.07 * dt + 0.20 * np.sqrt(dt))
        d = np.exp(0.07 * dt - 0.20 * np.sqrt(dt))
        R = np.exp(0.03 * dt)
        q = (R - d) / (u - d)
        asc = jnp.arange(0, n + 1)
        put = jnp.zeros((n + 1, n + 1)).at[:, n].set(jnp.maximum(100.0 - 100.0 * (u**asc) * (d ** (n - asc)), 0))

        def column(k, put):
            i = n - 1 - k

            def cell(j, put):
                s = 100.0 * u * (j - 1) * (d ** (i - j))
                value = jnp.maximum(jnp.maximum(100.0 - s, 0.0), (q * put[j + 1, i + 1] + (1 - q) * put[j, i + 1]) / R)
                return put.at[j, i].set(value)

            return jax.lax.fori_loop(0, i + 1, cell, put)

        put = jax.lax.fori_loop(0, n, column, put)
        return put, put[0, 0]

    return run


def jax(magic_number):
    put, price = _jitted()(int(1.0 * magic_number))
    return np.asarray(put), np.float64(price)

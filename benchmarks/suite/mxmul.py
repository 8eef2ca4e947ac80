"""Matrix multiplication by broadcasting (bh107/benchpress at c16e8ec,
benchmarks/mxmul/python_numpy/mxmul.py; its suite size --size=1000): C += the sum along the
last axis of x[:, newaxis] * y.T, an n x n x n temporary in NumPy."""
import functools

import numpy as np

PROGRAM = "benchmarks/programs/mxmul.arr"
ENTRY = "mxmul"
REFERENCE = "benchmarks/reference/mxmul.py"
SMALL = dict(n=32, iterations=2)
# n = 400: NumPy's n^3 temporary is 512 MiB and takes about 0.9 s per round; 2 rounds.
LARGE = dict(n=400, iterations=2)
MEMORY_BOUND = False
RTOL = 1e-9
ATOL = 0.0


def _inputs(n):
    x = (np.arange(n * n, dtype=np.float64) / np.float64(n * n)).reshape(n, n)
    return x, x.copy()


def numexpr(n, iterations):
    import numexpr as ne

    x, y = _inputs(n)
    a, b = x[:, np.newaxis], np.transpose(y)
    c = np.zeros_like(x)
    for _ in range(iterations):
        c += ne.evaluate("sum(a * b, axis=2)")
    return (c,)


@functools.lru_cache(maxsize=None)
def _jitted():
    import jax
    import jax.numpy as jnp

    jax.config.update("jax_enable_x64", True)

    @functools.partial(jax.jit, static_argnames=("iterations",))
    def run(x, y, iterations):
        c = jnp.zeros_like(x)
        for _ in range(iterations):
            c = c + jnp.sum(x[:, jnp.newaxis] * jnp.transpose(y), axis=-1)
        return c

    return run


def jax(n, iterations):
    return (np.asarray(_jitted()(*_inputs(n), iterations)),)

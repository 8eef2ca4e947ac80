"""Heat equation (Benchpress; Kristensen et al. 2016, Table I): Jacobi sweeps of the 5-point
stencil on an (n+2) x (n+2) grid with a hot top row, until the summed absolute change is at most
epsilon or max_iter sweeps. Program and reference are the example `examples/heat.arr`."""
import functools

import numpy as np

PROGRAM = "examples/heat.arr"
ENTRY = "heat"
REFERENCE = "examples/reference/heat.py"
SMALL = dict(n=10, epsilon=0.01, max_iter=2000)  # converges after 239 sweeps (test_examples.py)
# A 5802 x 5802 grid (257 MiB, beyond any cache); epsilon = 0 never converges, so exactly
# max_iter sweeps run. NumPy: about 0.55 s per sweep here (six temporaries of the grid's size).
LARGE = dict(n=5800, epsilon=0.0, max_iter=4)
MEMORY_BOUND = True  # a few additions per element read: a stencil streams memory
RTOL = 1e-9
ATOL = 0.0


def numexpr(n, epsilon, max_iter):
    """The sweep and the delta as numexpr expressions; the copy into the interior in NumPy."""
    import numexpr as ne

    grid = np.zeros((n + 2, n + 2))
    grid[0, :] = 40.0
    c = grid[1:-1, 1:-1]
    no, so = grid[:-2, 1:-1], grid[2:, 1:-1]
    we, ea = grid[1:-1, :-2], grid[1:-1, 2:]
    delta = epsilon + 1.0
    it = 0
    while delta > epsilon and it < max_iter:
        work = ne.evaluate("0.2 * ((((c + no) + so) + ea) + we)")
        delta = float(ne.evaluate("sum(abs(work - c))"))
        c[:] = work
        it += 1
    return grid, it, delta


@functools.lru_cache(maxsize=None)
def _jitted():
    import jax
    import jax.numpy as jnp
    from jax import lax

    jax.config.update("jax_enable_x64", True)

    @functools.partial(jax.jit, static_argnames=("n",))
    def run(n, epsilon, max_iter):
        grid = jnp.zeros((n + 2, n + 2)).at[0, :].set(40.0)

        def cond(state):
            _, it, delta = state
            return (delta > epsilon) & (it < max_iter)

        def body(state):
            g, it, _ = state
            c = g[1:-1, 1:-1]
            work = 0.2 * (c + g[:-2, 1:-1] + g[2:, 1:-1] + g[1:-1, 2:] + g[1:-1, :-2])
            delta = jnp.sum(jnp.abs(work - c))
            return g.at[1:-1, 1:-1].set(work), it + 1, delta

        return lax.while_loop(cond, body, (grid, jnp.int64(0), epsilon + 1.0))

    return run


def jax(n, epsilon, max_iter):
    import jax.numpy as jnp

    return _jitted()(n, jnp.float64(epsilon), jnp.int64(max_iter))

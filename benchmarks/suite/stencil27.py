"""27-point stencil (Benchpress; Kristensen et al. 2016, Table I: 350^3 = 4.2875 x 10^7
elements, 20 iterations)."""
import functools

import numpy as np

PROGRAM = "benchmarks/programs/stencil27.arr"
ENTRY = "stencil27"
REFERENCE = "benchmarks/reference/stencil27.py"
SMALL = dict(n=32, iterations=10)
# 330^3 elements: a 287 MiB grid. NumPy needs about 1.1-1.5 s per sweep here (26 additions
# of 3-D strided views, each a temporary of the grid's size), so 2 sweeps instead of the
# paper's 20 keep a run near 2.5-3 s.
LARGE = dict(n=330, iterations=2)
MEMORY_BOUND = True
RTOL = 1e-9
ATOL = 0.0

# offsets -1, 0, +1 along an axis, as slices of the whole grid
_SHIFTS = (slice(None, -2), slice(1, -1), slice(2, None))


def _initial(n):
    grid = np.zeros((n, n, n))
    grid[0, :, :] = 100.0
    return grid


def numexpr(n, iterations):
    import numexpr as ne

    grid = _initial(n)
    views = {f"g{i}": grid[sz, sy, sx]
             for i, (sz, sy, sx) in enumerate((a, b, c) for a in _SHIFTS for b in _SHIFTS for c in _SHIFTS)}
    expr = "(" + " + ".join(views) + ") / 27.0"
    for _ in range(iterations):
        # into a new array first: numexpr's output must not overlap its inputs
        grid[1:-1, 1:-1, 1:-1] = ne.evaluate(expr, local_dict=views)
    return grid, np.float64(np.mean(grid[1:-1, 1:-1, 1:-1]))


@functools.lru_cache(maxsize=None)
def _jitted():
    import jax
    import jax.numpy as jnp

    jax.config.update("jax_enable_x64", True)

    @functools.partial(jax.jit, static_argnames=("iterations",))
    def run(grid, iterations):
        def sweep(_, g):
            total = None
            for sz in _SHIFTS:
                for sy in _SHIFTS:
                    for sx in _SHIFTS:
                        v = g[sz, sy, sx]
                        total = v if total is None else total + v
            return g.at[1:-1, 1:-1, 1:-1].set(total / 27.0)

        g = jax.lax.fori_loop(0, iterations, sweep, grid)
        return g, jnp.mean(g[1:-1, 1:-1, 1:-1])

    return run


def jax(n, iterations):
    grid, m = _jitted()(_initial(n), iterations)
    return np.asarray(grid), np.float64(m)

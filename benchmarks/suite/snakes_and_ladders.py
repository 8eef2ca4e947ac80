"""Snakes and Ladders: bh107/benchpress (master), benchpress/benchmarks/snakes_and_ladders/
python_numpy/snakes_and_ladders.py (by Natalino Busa); powers of the transition matrix of a
board without snakes or ladders (issue 31)."""
import functools
import importlib.util
from pathlib import Path

import numpy as np

PROGRAM = "benchmarks/programs/snakes_and_ladders.arr"
ENTRY = "snakes_and_ladders"
REFERENCE = "benchmarks/reference/snakes_and_ladders.py"
# Benchpress's test size 100*10.
SMALL = dict(size=100, iterations=10)
# one 1001 x 1001 matrix product per iteration (2 GFLOP), NumPy about 0.24 s each here.
LARGE = dict(size=1000, iterations=8)
# matrix products: compute-bound.
MEMORY_BOUND = False
RTOL = 1e-9
ATOL = 0.0

numexpr = None
NUMEXPR_WHY = "the work is matrix products (np.dot), which numexpr does not do"


def _nullgame(size):
    """The reference's transition matrix (built by Python loops, as the original)."""
    path = Path(__file__).resolve().parents[2] / REFERENCE
    spec = importlib.util.spec_from_file_location("ref_snakes_and_ladders", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.nullgame(size)


@functools.lru_cache(maxsize=None)
def _jitted():
    import jax
    import jax.numpy as jnp

    jax.config.update("jax_enable_x64", True)

    @functools.partial(jax.jit, static_argnames=("iterations",))
    def play(p, iterations):
        size = p.shape[0] - 1

        def step(k, state):
            a, pr_end, m = state
            return a + m[0], pr_end.at[k].set(m[0, size]), jnp.dot(m, p)

        a, pr_end, _ = jax.lax.fori_loop(
            0, iterations, step, (jnp.zeros(size + 1), jnp.zeros(iterations), p))
        return a, pr_end

    return play


def jax(size, iterations):
    a, pr_end = _jitted()(_nullgame(size), iterations)
    return np.asarray(a), np.asarray(pr_end)

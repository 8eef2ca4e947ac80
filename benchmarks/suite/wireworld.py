"""Wireworld (bh107/benchpress at c16e8ec, benchmarks/wireworld/python_numpy/wireworld.py; its
suite size --size=250*10): a 10 x 10 wire pattern tiled size x size times, stepped by masks
and in-place products from a head-neighbour count taken once before the loop."""
import functools

import numpy as np

PROGRAM = "benchmarks/programs/wireworld.arr"
ENTRY = "wireworld"
REFERENCE = "benchmarks/reference/wireworld.py"
SMALL = dict(size=4, iterations=10)
# the original's size: a 2502 x 2502 uint8 world, 10 steps, about 1.5 s in NumPy
LARGE = dict(size=250, iterations=10)
MEMORY_BOUND = True
RTOL = 1e-9
ATOL = 0.0

# one step as a single expression: a conductor with 1 or 2 head neighbours becomes a head,
# the other conductors stay, heads and tails double (0 stays 0)
_STEP = "where(((nc == 1) | (nc == 2)) & (sim == 8), 2, where(sim == 8, 8, sim * 2))"


def _initial(size):
    from reference.wireworld import wireworld_init

    world = wireworld_init(size).astype(np.int32)
    stencil = [world[a, b] for a in (slice(0, -2), slice(1, -1), slice(2, None))
               for b in (slice(0, -2), slice(1, -1), slice(2, None))]
    stencil.pop(4)
    return world[1:-1, 1:-1], sum([v == 2 for v in stencil])


def numexpr(size, iterations):
    import numexpr as ne

    sim, nc = _initial(size)
    for _ in range(iterations):
        sim = ne.evaluate(_STEP).astype(np.int32)
    return (sim,)


@functools.lru_cache(maxsize=None)
def _jitted():
    import jax
    import jax.numpy as jnp

    jax.config.update("jax_enable_x64", True)

    @functools.partial(jax.jit, static_argnames=("iterations",))
    def run(sim, nc, iterations):
        def step(_, sim):
            head = ((nc == 1) | (nc == 2)) & (sim == 8)
            return jnp.where(head, 2, jnp.where(sim == 8, 8, sim * 2)).astype(jnp.int32)

        return jax.lax.fori_loop(0, iterations, step, sim)

    return run


def jax(size, iterations):
    return (np.asarray(_jitted()(*_initial(size), iterations)),)

"""N-dimensional dense stencil (bh107/benchpress at c16e8ec,
benchmarks/ndstencil/python_numpy/ndstencil.py; readme sizes --size=25*10*D), at D = 3: the
core of a world of 2^size core elements replaced by the mean of its 3^D shifted views."""
import functools
import itertools

import numpy as np

PROGRAM = "benchmarks/programs/ndstencil.arr"
ENTRY = "ndstencil"
REFERENCE = "benchmarks/reference/ndstencil.py"
SMALL = dict(size=12, iterations=10)
# 2^24 core elements: a 258^3 world (131 MiB); NumPy needs about 1.4 s per step (27 additions
# of views of the world's size), so 2 steps.
LARGE = dict(size=24, iterations=2)
MEMORY_BOUND = True
RTOL = 1e-9
ATOL = 0.0

_SHIFTS = (slice(None, -2), slice(1, -1), slice(2, None))


def _world(size):
    from reference.ndstencil import create_shape, create_world

    return create_world(create_shape(3, size), 0.0, 255.0)


def numexpr(size, iterations):
    import numexpr as ne

    world = _world(size)
    views = {f"v{k}": world[s] for k, s in enumerate(itertools.product(_SHIFTS, repeat=3))}
    expr = "(" + " + ".join(views) + ") * (1.0 / 27)"
    for _ in range(iterations):
        world[1:-1, 1:-1, 1:-1] = ne.evaluate(expr, local_dict=views)
    return (world,)


@functools.lru_cache(maxsize=None)
def _jitted():
    import jax
    import jax.numpy as jnp

    jax.config.update("jax_enable_x64", True)

    @functools.partial(jax.jit, static_argnames=("iterations",))
    def run(world, iterations):
        def step(_, w):
            total = 0
            for s in itertools.product(_SHIFTS, repeat=3):
                total = total + w[s]
            return w.at[1:-1, 1:-1, 1:-1].set(total * (1.0 / 27))

        return jax.lax.fori_loop(0, iterations, step, world)

    return run


def jax(size, iterations):
    return (np.asarray(_jitted()(_world(size), iterations)),)

"""NBody (Benchpress `nbody`; Kristensen et al. 2016, Table I): all-pairs gravity (G = 1) with
pairwise differences x - x[newaxis, :].T, the diagonal of the force matrices zeroed through a
diagonal view, forces summed along axis 0, explicit Euler steps."""
import functools

import numpy as np

from arrayc_random import random

PROGRAM = "benchmarks/programs/nbody.arr"
ENTRY = "nbody"
REFERENCE = "benchmarks/reference/nbody.py"
SMALL = dict(n=37, steps=4, seed=3)
# 3000 bodies: 9e6 pairs, a dozen 72 MiB matrices per step in NumPy; about 0.4 s per step.
LARGE = dict(n=3000, steps=5, seed=1)
MEMORY_BOUND = False  # a square root and a division per pair: compute-bound once fused
RTOL = 1e-9
ATOL = 1e-15
WHY = ("the velocities start at 0 and after a few steps some components are sums of forces that "
       "nearly cancel; atol 1e-15 (a few ulps of the O(1) positions) absorbs reassociation there")


def _bodies(n, seed):
    return [random(n, seed=seed + k) for k in range(3)] + [random(n, seed=seed + 3) + 0.5]


def numexpr(n, steps, seed):
    """The pair terms as numexpr expressions; sums and updates in NumPy."""
    import numexpr as ne

    dt = 0.001
    x, y, z, m = _bodies(n, seed)
    vx, vy, vz = np.zeros(n), np.zeros(n), np.zeros(n)
    xc, yc, zc, mc = (a[:, np.newaxis] for a in (x, y, z, m))
    for _ in range(steps):
        f = ne.evaluate("mc * m / ((x - xc)**2 + (y - yc)**2 + (z - zc)**2)**1.5")
        np.fill_diagonal(f, 0.0)
        for v, p, pc in ((vx, x, xc), (vy, y, yc), (vz, z, zc)):
            v -= np.sum(ne.evaluate("f * (p - pc)"), axis=0) * dt / m
        x += vx * dt
        y += vy * dt
        z += vz * dt
    return x, y, z, vx, vy, vz


@functools.lru_cache(maxsize=None)
def _jitted():
    import jax
    import jax.numpy as jnp
    from jax import lax

    jax.config.update("jax_enable_x64", True)

    @functools.partial(jax.jit, static_argnames=("steps",))
    def run(x, y, z, m, steps):
        dt = 0.001
        n = x.shape[0]
        off = ~jnp.eye(n, dtype=bool)
        pm = m * m[:, None]

        def step(_, s):
            x, y, z, vx, vy, vz = s
            dx, dy, dz = x - x[:, None], y - y[:, None], z - z[:, None]
            r = jnp.sqrt(dx * dx + dy * dy + dz * dz)
            f = jnp.where(off, pm / (r * r * r), 0.0)
            vx = vx - jnp.sum(f * dx, axis=0) * dt / m
            vy = vy - jnp.sum(f * dy, axis=0) * dt / m
            vz = vz - jnp.sum(f * dz, axis=0) * dt / m
            return x + vx * dt, y + vy * dt, z + vz * dt, vx, vy, vz

        zero = jnp.zeros(n)
        return lax.fori_loop(0, steps, step, (x, y, z, zero, zero, zero))

    return run


def jax(n, steps, seed):
    x, y, z, m = _bodies(n, seed)
    return _jitted()(x, y, z, m, steps)

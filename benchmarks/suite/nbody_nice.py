"""NBody Nice: planets attracting each other and many massless asteroids (Benchpress
"NBody Nice"; Kristensen et al. 2016, Table I: 40 planets, 2e6 asteroids, 20 iterations)."""
import functools

import numpy as np

from arrayc_random import random

PROGRAM = "benchmarks/programs/nbody_nice.arr"
ENTRY = "nbody_nice"
REFERENCE = "benchmarks/reference/nbody_nice.py"
SMALL = dict(n=1000, planets=10, steps=10, seed=3)
# The paper's 40 planets and 20 steps; 1e5 asteroids (the paper's 2e6 would take NumPy
# about 35 s here). The planets x asteroids arrays have 4e6 elements (31 MiB).
LARGE = dict(n=100000, planets=40, steps=20, seed=3)
# Per planet-asteroid pair: a sqrt, a division and about 20 other flops on data that
# fused kernels never write back.
MEMORY_BOUND = False
RTOL = 1e-9
ATOL = 0.0


def _init(n, planets, seed):
    pp = random(3, planets, seed=seed) * 2.0 - 1.0
    pv = (random(3, planets, seed=seed + 1) - 0.5) * 0.2
    pm = (random(planets, seed=seed + 2) + 0.5) / float(planets)
    ap = random(3, n, seed=seed + 3) * 4.0 - 2.0
    av = np.zeros((3, n))
    return pp, pv, pm, ap, av


def numexpr(n=1000, planets=10, steps=10, seed=3):
    import numexpr as ne

    dt, eps2 = 0.001, 0.01
    pp, pv, pm, ap, av = _init(n, planets, seed)
    pmr = pm[np.newaxis, :]   # mass of the attracting planet j, along axis 1
    pmc = pm[:, np.newaxis]   # mass of the attracting planet i, along axis 0
    for _ in range(steps):
        px, py, pz = pp[0], pp[1], pp[2]
        dx = px[np.newaxis, :] - px[:, np.newaxis]
        dy = py[np.newaxis, :] - py[:, np.newaxis]
        dz = pz[np.newaxis, :] - pz[:, np.newaxis]
        w = ne.evaluate("pmr / ((dx*dx + dy*dy + dz*dz + eps2) * sqrt(dx*dx + dy*dy + dz*dz + eps2))")
        pv[0] += dt * ne.evaluate("sum(w * dx, axis=1)")
        pv[1] += dt * ne.evaluate("sum(w * dy, axis=1)")
        pv[2] += dt * ne.evaluate("sum(w * dz, axis=1)")
        pxc, pyc, pzc = px[:, np.newaxis], py[:, np.newaxis], pz[:, np.newaxis]
        ax, ay, az = ap[0][np.newaxis, :], ap[1][np.newaxis, :], ap[2][np.newaxis, :]
        ex = ne.evaluate("pxc - ax")
        ey = ne.evaluate("pyc - ay")
        ez = ne.evaluate("pzc - az")
        q2 = ne.evaluate("ex*ex + ey*ey + ez*ez + eps2")
        wa = ne.evaluate("pmc / (q2 * sqrt(q2))")
        av[0] += dt * ne.evaluate("sum(wa * ex, axis=0)")
        av[1] += dt * ne.evaluate("sum(wa * ey, axis=0)")
        av[2] += dt * ne.evaluate("sum(wa * ez, axis=0)")
        ne.evaluate("pp + dt * pv", out=pp)
        ne.evaluate("ap + dt * av", out=ap)
    return pp, pv, ap, av


@functools.lru_cache(maxsize=None)
def _jitted():
    import jax
    import jax.numpy as jnp
    from jax import lax

    jax.config.update("jax_enable_x64", True)

    @jax.jit
    def run(pp, pv, pm, ap, av, steps):
        dt, eps2 = 0.001, 0.01

        def step(_, state):
            pp, pv, ap, av = state
            d = pp[:, jnp.newaxis, :] - pp[:, :, jnp.newaxis]           # [c, i, j] = p_j - p_i
            r2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2] + eps2
            w = pm[jnp.newaxis, :] / (r2 * jnp.sqrt(r2))
            pv = pv + dt * jnp.sum(w[jnp.newaxis] * d, axis=2)
            e = pp[:, :, jnp.newaxis] - ap[:, jnp.newaxis, :]           # [c, i, k] = p_i - a_k
            q2 = e[0] * e[0] + e[1] * e[1] + e[2] * e[2] + eps2
            wa = pm[:, jnp.newaxis] / (q2 * jnp.sqrt(q2))
            av = av + dt * jnp.sum(wa[jnp.newaxis] * e, axis=1)
            return pp + dt * pv, pv, ap + dt * av, av

        return lax.fori_loop(0, steps, step, (pp, pv, ap, av))

    return run


def jax(n=1000, planets=10, steps=10, seed=3):
    pp, pv, pm, ap, av = _init(n, planets, seed)
    return _jitted()(pp, pv, pm, ap, av, steps)

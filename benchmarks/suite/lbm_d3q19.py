"""Lattice Boltzmann D3Q19 (BGK) in a periodic box around a sphere with bounce-back
(Benchpress "Lattice Boltzmann D3Q19"; Kristensen et al. 2016, Table I: 3.375e6 floats,
20 iterations)."""
import functools

import numpy as np

from arrayc_random import random

PROGRAM = "benchmarks/programs/lbm_d3q19.arr"
ENTRY = "lbm_d3q19"
REFERENCE = "benchmarks/reference/lbm_d3q19.py"
SMALL = dict(nx=32, ny=16, nz=16, iterations=10, omega=1.2, seed=7)
# 64^3 cells (F is 19 x 64^3 f64, 38 MiB), the paper's 20 iterations: a NumPy run takes
# about 2 s here. 122^3 cells (F of 256 MiB) would take NumPy about 2 s per iteration.
LARGE = dict(nx=64, ny=64, nz=64, iterations=20, omega=1.2, seed=7)
MEMORY_BOUND = True
RTOL = 1e-9
ATOL = 1e-14
WHY = ("ux, uy, uz are sums of +-populations (about 0.03 each) divided by rho, and cancel "
       "to about 1e-8 at some cells: another summation order (XLA's reductions, or a "
       "parallel reduction) moves such a value by about 1e-17, above rtol 1e-9 of it; "
       "atol 1e-14 is still 2e-13 of the flow speed 0.05")

# Lattice velocities, weights and opposite directions: the reference's.
from reference.lbm_d3q19 import C, OPP, W  # noqa: E402

CF = C.astype(np.float64)[:, :, None, None, None]   # [19, 3, 1, 1, 1]


def _setup(nx, ny, nz, seed):
    x = np.arange(nx, dtype=np.float64)[:, None, None] - 0.25 * nx
    y = np.arange(ny, dtype=np.float64)[:, None] - 0.5 * ny
    z = np.arange(nz, dtype=np.float64) - 0.5 * nz
    radius = 0.25 * ny
    mask = x * x + y * y + z * z < radius * radius
    rho = 1.0 + 0.02 * (random(nx, ny, nz, seed=seed) - 0.5)
    ux = np.where(mask, 0.0, 0.05)
    usq = ux * ux
    f = np.empty((19, nx, ny, nz))
    for q in range(19):
        cu = float(C[q, 0]) * ux
        f[q] = W[q] * rho * (1.0 + 3.0 * cu + 4.5 * cu * cu - 1.5 * usq)
    return mask, f


def _moments_np(f):
    rho = np.sum(f, axis=0)
    return (rho, np.sum(f * CF[:, 0], axis=0) / rho, np.sum(f * CF[:, 1], axis=0) / rho,
            np.sum(f * CF[:, 2], axis=0) / rho)


def numexpr(nx=32, ny=16, nz=16, iterations=10, omega=1.2, seed=7):
    import numexpr as ne

    mask, f = _setup(nx, ny, nz, seed)
    g = np.empty_like(f)
    for _ in range(iterations):
        for q in range(19):
            g[q] = np.roll(f[q], shift=tuple(C[q]), axis=(0, 1, 2))
        rho, ux, uy, uz = _moments_np(g)
        usq = ne.evaluate("ux * ux + uy * uy + uz * uz")
        for q in range(19):
            sx, sy, sz = (float(c) for c in C[q])
            wq = W[q]
            gq, go = g[q], g[OPP[q]]
            ne.evaluate("where(mask, go, gq + omega * (wq * rho * (1.0 + 3.0 * (sx * ux + sy * uy + sz * uz)"
                        " + 4.5 * (sx * ux + sy * uy + sz * uz) * (sx * ux + sy * uy + sz * uz)"
                        " - 1.5 * usq) - gq))", out=f[q])
    return (f,) + _moments_np(f)


@functools.lru_cache(maxsize=None)
def _jitted():
    import jax
    import jax.numpy as jnp
    from jax import lax

    jax.config.update("jax_enable_x64", True)

    def moments(f):
        rho = jnp.sum(f, axis=0)
        u = [jnp.sum(f * CF[:, d], axis=0) / rho for d in range(3)]
        return rho, u[0], u[1], u[2]

    @jax.jit
    def run(f, mask, omega, iterations):
        cf = jnp.asarray(CF)
        w = jnp.asarray(W)[:, None, None, None]

        def step(_, f):
            g = jnp.stack([jnp.roll(f[q], shift=tuple(int(c) for c in C[q]), axis=(0, 1, 2))
                           for q in range(19)])
            rho, ux, uy, uz = moments(g)
            cu = cf[:, 0] * ux + cf[:, 1] * uy + cf[:, 2] * uz
            usq = ux * ux + uy * uy + uz * uz
            feq = w * rho * (1.0 + 3.0 * cu + 4.5 * cu * cu - 1.5 * usq)
            return jnp.where(mask, g[OPP], g + omega * (feq - g))

        f = lax.fori_loop(0, iterations, step, f)
        return (f,) + moments(f)

    return run


def jax(nx=32, ny=16, nz=16, iterations=10, omega=1.2, seed=7):
    mask, f = _setup(nx, ny, nz, seed)
    return _jitted()(f, mask, omega, iterations)

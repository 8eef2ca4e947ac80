"""NumPy reference for benchmarks/programs/lbm_d3q19.arr: D3Q19 lattice Boltzmann (BGK)
in a periodic box around a spherical obstacle with bounce-back; streaming by np.roll."""
import numpy as np

from arrayc_random import random

# lattice velocities (q and q+1 opposite for odd q) and weights
C = np.array([
    (0, 0, 0),
    (1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0), (0, 0, 1), (0, 0, -1),
    (1, 1, 0), (-1, -1, 0), (1, -1, 0), (-1, 1, 0),
    (1, 0, 1), (-1, 0, -1), (1, 0, -1), (-1, 0, 1),
    (0, 1, 1), (0, -1, -1), (0, 1, -1), (0, -1, 1),
])
W = np.array([1.0 / 3.0] + [1.0 / 18.0] * 6 + [1.0 / 36.0] * 12)
OPP = np.array([0] + [q + 1 if q % 2 else q - 1 for q in range(1, 19)])
assert (C[OPP] == -C).all()


def _col(v):
    """A length-19 vector as f64[19, 1, 1, 1]."""
    return np.asarray(v, dtype=np.float64)[:, None, None, None]


def _moments(f):
    rho = np.sum(f, axis=0)
    u = [np.sum(f * _col(C[:, d]), axis=0) / rho for d in range(3)]
    return rho, u[0], u[1], u[2]


def _equilibrium(rho, ux, uy, uz):
    cu = _col(C[:, 0]) * ux + _col(C[:, 1]) * uy + _col(C[:, 2]) * uz
    usq = ux * ux + uy * uy + uz * uz
    return _col(W) * rho * (1.0 + 3.0 * cu + 4.5 * cu * cu - 1.5 * usq)


def lbm_d3q19(nx=32, ny=16, nz=16, iterations=10, omega=1.2, seed=7):
    x = np.arange(nx, dtype=np.float64)[:, None, None] - 0.25 * nx
    y = np.arange(ny, dtype=np.float64)[:, None] - 0.5 * ny
    z = np.arange(nz, dtype=np.float64) - 0.5 * nz
    radius = 0.25 * ny
    mask = x * x + y * y + z * z < radius * radius          # the sphere

    rho = 1.0 + 0.02 * (random(nx, ny, nz, seed=seed) - 0.5)
    ux = np.where(mask, 0.0, 0.05)
    zero = np.zeros((nx, ny, nz))
    f = _equilibrium(rho, ux, zero, zero)
    for _ in range(iterations):
        g = np.empty_like(f)
        for q in range(19):
            g[q] = np.roll(f[q], shift=tuple(C[q]), axis=(0, 1, 2))
        rho, ux, uy, uz = _moments(g)
        feq = _equilibrium(rho, ux, uy, uz)
        f = np.where(mask, g[OPP], g + omega * (feq - g))
    rho, ux, uy, uz = _moments(f)
    return f, rho, ux, uy, uz

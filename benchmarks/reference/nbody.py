"""NumPy reference for benchmarks/programs/nbody.arr (all-pairs gravity, Euler steps, G = 1)."""
import numpy as np

from arrayc_random import random


def nbody(n=100, steps=10, seed=1):
    dt = 0.001
    x = random(n, seed=seed)
    y = random(n, seed=seed + 1)
    z = random(n, seed=seed + 2)
    m = random(n, seed=seed + 3) + 0.5
    vx, vy, vz = np.zeros(n), np.zeros(n), np.zeros(n)
    pm = m * m[np.newaxis, :].T
    with np.errstate(divide="ignore", invalid="ignore"):  # the diagonal is 0/0, then set to 0
        for _ in range(steps):
            dx = x - x[np.newaxis, :].T
            dy = y - y[np.newaxis, :].T
            dz = z - z[np.newaxis, :].T
            r = (dx * dx + dy * dy + dz * dz) ** 0.5
            f = pm / (r * r * r)
            fx, fy, fz = f * dx, f * dy, f * dz
            for g in (fx, fy, fz):
                np.fill_diagonal(g, 0.0)
            vx -= np.sum(fx, axis=0) * dt / m
            vy -= np.sum(fy, axis=0) * dt / m
            vz -= np.sum(fz, axis=0) * dt / m
            x += vx * dt
            y += vy * dt
            z += vz * dt
    return x, y, z, vx, vy, vz

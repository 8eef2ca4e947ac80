"""NumPy reference for benchmarks/programs/nbody_nice.arr: planets attract each other and
massless asteroids (G = 1, softening eps2), symplectic Euler steps."""
import numpy as np

from arrayc_random import random


def nbody_nice(n=1000, planets=10, steps=10, seed=3):
    dt = 0.001
    eps2 = 0.01
    pp = random(3, planets, seed=seed) * 2.0 - 1.0            # planet positions
    pv = (random(3, planets, seed=seed + 1) - 0.5) * 0.2      # planet velocities
    pm = (random(planets, seed=seed + 2) + 0.5) / float(planets)  # planet masses
    ap = random(3, n, seed=seed + 3) * 4.0 - 2.0              # asteroid positions
    av = np.zeros((3, n))                                     # asteroid velocities
    for _ in range(steps):
        # planet-planet: d[c, i, j] = p_c[j] - p_c[i]; the i == j terms are exactly 0
        d = pp[:, np.newaxis, :] - pp[:, :, np.newaxis]
        r2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2] + eps2
        w = pm[np.newaxis, :] / (r2 * np.sqrt(r2))
        for c in range(3):
            pv[c] += dt * np.sum(w * d[c], axis=1)
        # planet-asteroid: e[c, i, k] = p_c[i] - a_c[k]
        e = pp[:, :, np.newaxis] - ap[:, np.newaxis, :]
        q2 = e[0] * e[0] + e[1] * e[1] + e[2] * e[2] + eps2
        wa = pm[:, np.newaxis] / (q2 * np.sqrt(q2))
        for c in range(3):
            av[c] += dt * np.sum(wa * e[c], axis=0)
        pp += dt * pv
        ap += dt * av
    return pp, pv, ap, av

"""Water-ice simulation: temperature and salinity of a sheet of sea ice under seasonal
forcing (Benchpress "Water-Ice Simulation"; Kristensen et al. 2016, Table I: 6.4e5 floats,
20 iterations). The model is described in the program's header comment."""
import functools
import math

import numpy as np

from arrayc_random import random

PROGRAM = "benchmarks/programs/water_ice.arr"
ENTRY = "water_ice"
REFERENCE = "benchmarks/reference/water_ice.py"
SMALL = dict(nl=32, nw=1000, steps=20, year=20, seed=5)
# 100 layers x 20000 columns (2e6 floats, 15 MiB per array), one year of 20 steps. About
# 40 element-wise passes per step: a NumPy run takes about 2 s; arrays of 256 MiB would
# take NumPy about half a minute.
LARGE = dict(nl=100, nw=20000, steps=20, year=20, seed=5)
MEMORY_BOUND = True
RTOL = 1e-9
ATOL = 0.0


def _init(nl, nw, seed):
    z = np.linspace(0.0, 1.0, nl)[:, np.newaxis]
    t = -15.0 + 13.2 * z + 0.5 * (random(nl, nw, seed=seed) - 0.5)
    s = 4.0 + 6.0 * z + 2.0 * random(nl, nw, seed=seed + 1)
    cover = 0.6 + 0.4 * random(nw, seed=seed + 2)
    absorb = np.exp(-z / 0.1)
    t[-1, :] = -1.8
    return t, s, cover, absorb


def _forcing(i, year):
    season = float(i % year) / float(year)
    if season < 0.5:
        return -20.0 - 15.0 * math.sin(2.0 * math.pi * season), 0.0
    x = math.sin(2.0 * math.pi * (season - 0.5))
    return -5.0 + 4.0 * x, 0.05 * x


def numexpr(nl=32, nw=1000, steps=20, year=20, seed=5):
    import numexpr as ne

    t, s, cover, absorb = _init(nl, nw, seed)
    hist = np.zeros((steps, nw))
    ab = absorb[1:-1]
    for i in range(steps):
        air, solar = _forcing(i, year)
        tf = ne.evaluate("-0.0575 * s + 1.710523e-3 * s**1.5 - 2.154996e-4 * (s * s)")
        tf0 = tf[0]
        t[0, :] = ne.evaluate("where(air * cover < tf0, air * cover, tf0)")
        k = ne.evaluate("1.0 - 0.0576 * s / (abs(t) + 0.01)")
        k = ne.evaluate("where(k > 0.2, k, 0.2)")
        c = ne.evaluate("1.0 + 8.6 * s / (t * t + 0.01)")
        k0, k1, t0, t1 = k[:-1], k[1:], t[:-1], t[1:]
        flux = ne.evaluate("0.5 * (k0 + k1) * (t1 - t0)")
        f0, f1, tm, cm, tfm = flux[:-1], flux[1:], t[1:-1], c[1:-1], tf[1:-1]
        new = ne.evaluate("tm + (0.4 * (f1 - f0) + solar * ab) / cm")
        t[1:-1] = ne.evaluate("where(new < tfm, new, tfm)")
        phi = ne.evaluate("s * (0.0532 + 4.919 / (abs(t) + 0.01)) * 0.01")
        phi = ne.evaluate("where(phi < 1.0, phi, 1.0)")
        ne.evaluate("s - 0.05 * where(phi > 0.05, phi - 0.05, 0.0) * sqrt(abs(t)) * s", out=s)
        hist[i, :] = np.mean(t, axis=0)
    return t, s, hist


@functools.lru_cache(maxsize=None)
def _jitted():
    import jax
    import jax.numpy as jnp
    from jax import lax

    jax.config.update("jax_enable_x64", True)

    @jax.jit
    def run(t, s, cover, absorb, hist, year):
        steps = hist.shape[0]

        def step(i, state):
            t, s, hist = state
            season = (i % year) / year
            x = jnp.sin(2.0 * jnp.pi * season)
            y = jnp.sin(2.0 * jnp.pi * (season - 0.5))
            winter = season < 0.5
            air = jnp.where(winter, -20.0 - 15.0 * x, -5.0 + 4.0 * y)
            solar = jnp.where(winter, 0.0, 0.05 * y)
            tf = -0.0575 * s + 1.710523e-3 * s ** 1.5 - 2.154996e-4 * (s * s)
            t = t.at[0, :].set(jnp.minimum(air * cover, tf[0]))
            k = jnp.maximum(1.0 - 0.0576 * s / (jnp.abs(t) + 0.01), 0.2)
            c = 1.0 + 8.6 * s / (t * t + 0.01)
            flux = 0.5 * (k[:-1] + k[1:]) * (t[1:] - t[:-1])
            inner = t[1:-1] + (0.4 * (flux[1:] - flux[:-1]) + solar * absorb[1:-1]) / c[1:-1]
            t = t.at[1:-1].set(jnp.minimum(inner, tf[1:-1]))
            phi = jnp.minimum(s * (0.0532 + 4.919 / (jnp.abs(t) + 0.01)) * 0.01, 1.0)
            s = s - 0.05 * jnp.maximum(phi - 0.05, 0.0) * jnp.sqrt(jnp.abs(t)) * s
            hist = hist.at[i, :].set(jnp.mean(t, axis=0))
            return t, s, hist

        return lax.fori_loop(0, steps, step, (t, s, hist))

    return run


def jax(nl=32, nw=1000, steps=20, year=20, seed=5):
    t, s, cover, absorb = _init(nl, nw, seed)
    return _jitted()(t, s, cover, absorb, np.zeros((steps, nw)), year)

"""Quasi Crystal simulation: bh107/benchpress (master), benchpress/benchmarks/quasicrystal/
python_numpy/quasicrystal.py; the sum of k plane waves in log-polar coordinates, drawn at a
number of phases (issue 31)."""
import functools

import numpy as np

PROGRAM = "benchmarks/programs/quasicrystal.arr"
ENTRY = "quasicrystal"
REFERENCE = "benchmarks/reference/quasicrystal.py"
# Benchpress's test size 5*37*64*5.
SMALL = dict(k=5, stripes=37, n=64, iterations=5)
# 1000 x 1000 pixels: NumPy about 2 s, a third of it the set-up.
LARGE = dict(k=5, stripes=37, n=1000, iterations=25)
# per phase, two k x n x n arrays are read for a few flops per element: memory traffic.
MEMORY_BOUND = True
RTOL = 1e-9
ATOL = 0.0


def _waves(k, stripes, n):
    d = np.arange(-n / 2, n / 2, dtype=np.float64)
    xv, yv = np.meshgrid(d, d)
    theta = np.arctan2(yv, xv)
    with np.errstate(divide="ignore"):
        r = np.log(np.sqrt(xv * xv + yv * yv))
    r[np.isinf(r)] = 0
    inner = (theta * np.cos(np.arange(0, np.pi, np.pi / k))[:, None, None]
             - r * np.sin(np.arange(0, np.pi, np.pi / k))[:, None, None]) * stripes
    return np.cos(inner), np.sin(inner)


def numexpr(k, stripes, n, iterations):
    """The set-up in NumPy, each phase's wave sum in numexpr (its sum reduces all axes, so the sum
    over the waves is NumPy's)."""
    import numexpr as ne

    cinner, sinner = _waves(k, stripes, n)
    image = np.empty((n, n))
    for phase in np.arange(0, 2 * np.pi, 2 * np.pi / iterations):
        c, s = np.cos(phase), np.sin(phase)
        image[:] = np.sum(ne.evaluate("cinner * c - sinner * s"), axis=0) + k
    return (image,)


@functools.lru_cache(maxsize=None)
def _jitted():
    import jax
    import jax.numpy as jnp

    jax.config.update("jax_enable_x64", True)

    @functools.partial(jax.jit, static_argnames=("k", "stripes", "n"))
    def crystal(phases, k, stripes, n):
        d = jnp.arange(-n / 2, n / 2, dtype=jnp.float64)
        xv, yv = jnp.meshgrid(d, d)
        theta = jnp.arctan2(yv, xv)
        r = jnp.log(jnp.sqrt(xv * xv + yv * yv))
        r = jnp.where(jnp.isinf(r), 0.0, r)
        angles = jnp.arange(0, jnp.pi, jnp.pi / k)
        inner = (theta * jnp.cos(angles)[:, None, None] - r * jnp.sin(angles)[:, None, None]) * stripes
        cinner, sinner = jnp.cos(inner), jnp.sin(inner)

        def draw(i, image):
            return jnp.sum(cinner * jnp.cos(phases[i]) - sinner * jnp.sin(phases[i]), axis=0) + k

        return jax.lax.fori_loop(0, phases.shape[0], draw, jnp.zeros((n, n)))

    return crystal


def jax(k, stripes, n, iterations):
    phases = np.arange(0, 2 * np.pi, 2 * np.pi / iterations)
    return (np.asarray(_jitted()(phases, k, stripes, n)),)

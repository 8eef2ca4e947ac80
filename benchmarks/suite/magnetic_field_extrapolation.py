"""Magnetic Field Extrapolation: bh107/benchpress (master), benchpress/benchmarks/
magnetic_field_extrapolation/python_numpy/magnetic_field_extrapolation.py; a linear force-free
field above a windowed magnetogram, summed from its double sine series through 4-d and 5-d
broadcast products (issue 31)."""
import functools
import importlib.util
from pathlib import Path

import numpy as np

from arrayc_random import random

PROGRAM = "benchmarks/programs/magnetic_field_extrapolation.arr"
ENTRY = "magnetic_field_extrapolation"
REFERENCE = "benchmarks/reference/magnetic_field_extrapolation.py"
# Benchpress's test size 16*16*10.
SMALL = dict(n=16, iterations=10, seed=1)
# n^5 = 3.4e7 elements per 5-d product; NumPy about 0.9 s per iteration here.
LARGE = dict(n=32, iterations=2, seed=1)
# NumPy materialises the n^4 and n^5 products; arrayc fuses them into their sums, whose time
# is the arithmetic.
MEMORY_BOUND = False
RTOL = 1e-9
ATOL = 1e-14
WHY = ("the field is a sum of sine products that cancel to about 1e-16 on the boundaries "
       "(sin(pi) is 1.2e-16, not 0), where a sum in another order (a GPU's reduction tree) "
       "differs from NumPy's by such an absolute amount; the CPU and gpu-emulated runs match "
       "with the default tolerances (at most 1e-15 apart at SMALL)")


def _reference():
    path = Path(__file__).resolve().parents[2] / REFERENCE
    spec = importlib.util.spec_from_file_location("ref_magnetic_field_extrapolation", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def numexpr(n, iterations, seed):
    """The reference with the 5-d products and their sum over the last axis in numexpr (numexpr
    reduces one axis, as the last operation of an expression)."""
    import numexpr as ne

    ref = _reference()
    B_x0 = random(n, n, seed=seed)
    out = None
    for _ in range(iterations):
        Bw = ref.window(B_x0)
        x = np.linspace(0.0, 0.25, num=n, endpoint=False)
        y = np.linspace(0.0, 1.0, num=n)
        z = np.linspace(0.0, 1.0, num=n)
        u = np.arange(n, dtype=np.float64)
        sy = np.sin(np.pi * u * y[:, None])
        sz = np.sin(np.pi * u * z[:, None])
        cy = u * np.cos(np.pi * u * y[:, None])
        cz = u * np.cos(np.pi * u * z[:, None])
        P = (Bw * sy[:, :, None])[:, None]
        Q = sz[:, None]
        C = 4.0 / (n - 1.0) ** 2 * np.sum(ne.evaluate("sum(P * Q, axis=3)"), -1)
        l = np.pi ** 2 * ((u ** 2)[:, None] + u ** 2)
        l[0, 0] = 1.0
        r = np.sqrt(l)
        sincos = sy[:, None, :, None] * cz[None, :, None, :]
        cossin = cy[:, None, :, None] * sz[None, :, None, :]
        temp_x = C * sy[:, None, :, None] * sz[None, :, None, :]
        temp_y = C / l * (0.0 * np.pi * sincos - r * np.pi * cossin)
        temp_z = C / l * (0.0 * np.pi * cossin + r * np.pi * sincos)
        E = np.exp(-r * x[:, None, None])[:, None, None]
        out = []
        for T in (temp_x, temp_y, temp_z):
            out.append(np.sum(ne.evaluate("sum(T * E, axis=4)"), -1))
    return tuple(out)


@functools.lru_cache(maxsize=None)
def _jitted():
    import jax
    import jax.numpy as jnp

    jax.config.update("jax_enable_x64", True)

    @jax.jit
    def field(B_x0):
        n = B_x0.shape[0]
        wl = jnp.ones(n)
        a = 0.37
        b = int(np.ceil(a * (n - 1) / 2))
        wl = wl.at[:b].set(0.5 * (1 + jnp.cos(jnp.pi * (2 * jnp.arange(b) / (a * (n - 1)) - 1))))
        wl = wl.at[-b:].set(0.5 * (1 + jnp.cos(jnp.pi * (2 * jnp.arange(b - 1, -1, -1) / (a * (n - 1)) - 1))))
        wl = wl * wl
        B = B_x0 * jnp.sqrt(wl + wl[:, None])
        x = jnp.linspace(0.0, 0.25, num=n, endpoint=False)
        y = jnp.linspace(0.0, 1.0, num=n)
        z = jnp.linspace(0.0, 1.0, num=n)
        u = jnp.arange(n, dtype=jnp.float64)
        sy = jnp.sin(jnp.pi * u * y[:, None])
        sz = jnp.sin(jnp.pi * u * z[:, None])
        C = 4.0 / (n - 1.0) ** 2 * jnp.sum((B * sy[:, :, None])[:, None] * sz[:, None], axis=(-1, -2))
        l = jnp.pi ** 2 * ((u ** 2)[:, None] + u ** 2)
        l = l.at[0, 0].set(1.0)
        r = jnp.sqrt(l)
        sincos = sy[:, None, :, None] * (u * jnp.cos(jnp.pi * u * z[:, None]))[None, :, None, :]
        cossin = (u * jnp.cos(jnp.pi * u * y[:, None]))[:, None, :, None] * sz[None, :, None, :]
        temp_x = C * sy[:, None, :, None] * sz[None, :, None, :]
        temp_y = C / l * (-r * jnp.pi * cossin)
        temp_z = C / l * (r * jnp.pi * sincos)
        E = jnp.exp(-r * x[:, None, None])[:, None, None]
        return tuple(jnp.sum(T * E, axis=(-1, -2)) for T in (temp_x, temp_y, temp_z))

    return field


def jax(n, iterations, seed):
    B_x0 = random(n, n, seed=seed)
    out = None
    for _ in range(iterations):
        out = _jitted()(B_x0)
    return tuple(np.asarray(o) for o in out)

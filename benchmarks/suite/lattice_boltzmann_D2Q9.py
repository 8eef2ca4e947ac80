"""The Lattice Boltzmann Methods D2Q9: bh107/benchpress (master), benchpress/benchmarks/
lattice_boltzmann_D2Q9/python_numpy/lattice_boltzmann_D2Q9.py (Jonas Latt, 2006); channel flow
past a cylinder (issue 31)."""
import functools
import importlib.util
from pathlib import Path

import numpy as np

PROGRAM = "benchmarks/programs/lattice_boltzmann_D2Q9.arr"
ENTRY = "lattice_boltzmann_D2Q9"
REFERENCE = "benchmarks/reference/lattice_boltzmann_D2Q9.py"
SMALL = dict(height=50, width=100, iterations=10)
# 500 x 1000 cells: NumPy about 0.45 s per step here.
LARGE = dict(height=500, width=1000, iterations=5)
# a few passes over the nine distributions per step, a few flops each: memory traffic.
MEMORY_BOUND = True
RTOL = 1e-9
ATOL = 0.0


def _reference():
    path = Path(__file__).resolve().parents[2] / REFERENCE
    spec = importlib.util.spec_from_file_location("ref_lattice_boltzmann_D2Q9", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def numexpr(height, width, iterations):
    """The reference's step with the equilibrium and the collision of each direction in numexpr
    (the boundaries and the streaming are slices, NumPy's)."""
    import numexpr as ne

    ref = _reference()
    t, cx, cy, opp, u_max = ref.t, ref.cx, ref.cy, ref.opp, ref.uMax
    f_in, omega, bb, col = ref.cylinder(height, width)
    lx, ly = width, height
    cx_3d = np.asarray(cx)[:, None, None]
    cy_3d = np.asarray(cy)[:, None, None]
    for _ in range(iterations):
        rho = np.sum(f_in, axis=0)
        ux = np.sum(cx_3d * f_in, axis=0) / rho
        uy = np.sum(cy_3d * f_in, axis=0) / rho
        L, y = ly - 2.0, col - 0.5
        ux[0, 1:ly - 1] = 4 * u_max / L ** 2 * (y * L - y ** 2)
        uy[0, 1:ly - 1] = 0
        t12 = f_in[[0, 2, 4], 0, 1:ly - 1].sum(axis=0) + 2 * f_in[[3, 6, 7], 0, 1:ly - 1].sum(axis=0)
        rho[0, 1:ly - 1] = 1 / (1 - ux[0, 1:ly - 1]) * t12
        rho[lx - 1, 1:ly - 1] = 4.0 / 3 * rho[lx - 2, 1:ly - 1] - 1.0 / 3 * rho[lx - 3, 1:ly - 1]
        uy[lx - 1, 1:ly - 1] = 0
        ux[lx - 1, 1:ly - 1] = 4.0 / 3 * ux[lx - 2, 1:ly - 1] - 1.0 / 3 * ux[lx - 3, 1:ly - 1]
        f_eq = np.empty((9, lx, ly))
        f_out = np.empty((9, lx, ly))
        for i in range(9):
            ci, di, ti, fi = cx[i], cy[i], t[i], f_in[i]
            f_eq[i] = ne.evaluate("rho * ti * (1 + 3 * (ci * ux + di * uy) + 4.5 * (ci * ux + di * uy) ** 2"
                                  " - 1.5 * (ux ** 2 + uy ** 2))")
            fe = f_eq[i]
            f_out[i] = ne.evaluate("fi - omega * (fi - fe)")
        for i in range(9):
            s = 18 * t[i] * cx[i] * cy[i]
            f_out[i, 0, 1:ly - 1] = f_eq[i, 0, 1:ly - 1] + s * (
                f_in[7, 0, 1:ly - 1] - f_in[6, 0, 1:ly - 1] - f_eq[7, 0, 1:ly - 1] + f_eq[6, 0, 1:ly - 1])
            f_out[i, lx - 1, 1:ly - 1] = f_eq[i, lx - 1, 1:ly - 1] + s * (
                f_in[5, lx - 1, 1:ly - 1] - f_in[8, lx - 1, 1:ly - 1]
                - f_eq[5, lx - 1, 1:ly - 1] + f_eq[8, lx - 1, 1:ly - 1])
            fo, fb = f_out[i], f_in[opp[i]]
            f_out[i] = ne.evaluate("where(bb, fb, fo)")
        for i in range(9):
            f_in[i] = np.roll(np.roll(f_out[i], cx[i], axis=0), cy[i], axis=1)
    return (f_in,)


@functools.lru_cache(maxsize=None)
def _jitted():
    import jax
    import jax.numpy as jnp

    jax.config.update("jax_enable_x64", True)
    ref = _reference()
    t = jnp.asarray(ref.t)[:, None, None]
    cx = jnp.asarray(ref.cx)[:, None, None]
    cy = jnp.asarray(ref.cy)[:, None, None]
    opp, u_max = list(ref.opp), ref.uMax

    @functools.partial(jax.jit, static_argnames=("iterations",))
    def run(f_in, omega, bb, col, iterations):
        lx, ly = f_in.shape[1], f_in.shape[2]
        L, y = ly - 2.0, col - 0.5

        def step(_, f_in):
            rho = jnp.sum(f_in, axis=0)
            ux = jnp.sum(cx * f_in, axis=0) / rho
            uy = jnp.sum(cy * f_in, axis=0) / rho
            ux = ux.at[0, 1:ly - 1].set(4 * u_max / L ** 2 * (y * L - y ** 2))
            uy = uy.at[0, 1:ly - 1].set(0.0)
            t12 = f_in[jnp.array([0, 2, 4]), 0, 1:ly - 1].sum(0) + 2 * f_in[jnp.array([3, 6, 7]), 0, 1:ly - 1].sum(0)
            rho = rho.at[0, 1:ly - 1].set(1 / (1 - ux[0, 1:ly - 1]) * t12)
            rho = rho.at[lx - 1, 1:ly - 1].set(4.0 / 3 * rho[lx - 2, 1:ly - 1] - 1.0 / 3 * rho[lx - 3, 1:ly - 1])
            uy = uy.at[lx - 1, 1:ly - 1].set(0.0)
            ux = ux.at[lx - 1, 1:ly - 1].set(4.0 / 3 * ux[lx - 2, 1:ly - 1] - 1.0 / 3 * ux[lx - 3, 1:ly - 1])
            cu = 3 * (cx * ux + cy * uy)
            f_eq = rho * t * (1 + cu + 0.5 * cu ** 2 - 1.5 * (ux ** 2 + uy ** 2))
            f_out = f_in - omega * (f_in - f_eq)
            s = 18 * t * cx * cy
            f_out = f_out.at[:, 0, 1:ly - 1].set(f_eq[:, 0, 1:ly - 1] + s[:, :, 0] * (
                f_in[7, 0, 1:ly - 1] - f_in[6, 0, 1:ly - 1] - f_eq[7, 0, 1:ly - 1] + f_eq[6, 0, 1:ly - 1]))
            f_out = f_out.at[:, lx - 1, 1:ly - 1].set(f_eq[:, lx - 1, 1:ly - 1] + s[:, :, 0] * (
                f_in[5, lx - 1, 1:ly - 1] - f_in[8, lx - 1, 1:ly - 1]
                - f_eq[5, lx - 1, 1:ly - 1] + f_eq[8, lx - 1, 1:ly - 1]))
            f_out = f_out * ~bb + f_in[jnp.array(opp)] * bb
            return jnp.stack([jnp.roll(jnp.roll(f_out[i], ref.cx[i], axis=0), ref.cy[i], axis=1)
                              for i in range(9)])

        return jax.lax.fori_loop(0, iterations, step, f_in)

    return run


def jax(height, width, iterations):
    f_in, omega, bb, col = _reference().cylinder(height, width)
    return (np.asarray(_jitted()(f_in, omega, bb, col, iterations)),)

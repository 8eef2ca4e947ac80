"""European payer swaptions in the LIBOR market model (bh107/benchpress at c16e8ec,
benchmarks/lmm_swaption_vec/python_numpy/lmm_swaption_vec.py, after Andersen 1999, Table 1;
its readme size --size=4000): 16 swaptions, each priced over n antithetic pairs of simulated
forward-rate paths."""
import functools

import numpy as np

from arrayc_random import normal

PROGRAM = "benchmarks/programs/lmm_swaption_vec.arr"
ENTRY = "lmm_swaption_vec"
REFERENCE = "benchmarks/reference/lmm_swaption_vec.py"
SMALL = dict(n=1000, seed=1)
# the readme's 4000 pairs of paths: about 1.4 s in NumPy, plus about 1 s to generate the
# normal numbers with the NumPy model of `normal` (arrayc_random)
LARGE = dict(n=4000, seed=1)
MEMORY_BOUND = False
RTOL = 1e-9
ATOL = 0.0

from reference.lmm_swaption_vec import Te_all, Ts_all, delta, f_0, lamb_all, theta  # noqa: E402


def _products(seed):
    """(k, ts, Te, lamb) of each swaption, k its seed offset, in the original's order."""
    k = 0
    for Te, lamb, Ts in zip(Te_all, lamb_all, Ts_all):
        for ts in Ts:
            yield k, ts, Te, lamb
            k += 1


def _price(swaption, n):
    pair = (swaption[0:n] + swaption[n:]) / 2
    return [[np.average(pair) * 10000], [np.std(pair) / np.sqrt(n) * 10000]]


def numexpr(n, seed):
    import numexpr as ne

    swaptions = np.zeros((2, 1))
    for k, ts, Te, lamb in _products(seed):
        steps = 2 * ts
        eps_tmp = normal(steps, n, seed=seed + k)
        eps = np.concatenate((eps_tmp, -eps_tmp), axis=1)
        F_kk = np.zeros((steps + 1, 2 * n))
        F_kk[0, :] = f_0
        F_kN = np.full((2 * Te, 2 * n), f_0)
        for t in range(1, steps + 1):
            F = F_kN[1:, :]
            mu = np.cumsum(ne.evaluate("lamb * (delta * F) / (1 + delta * F)"), axis=0)
            e = eps[t - 1, :]
            F_kN = ne.evaluate("F * exp(lamb * mu * delta - 0.5 * lamb * lamb * delta + lamb * e * sqrt(delta))")
            F_kk[t, :] = F_kN[0, :]
        zcb = np.ones((int((Te - ts) / delta) + 1, 2 * n))
        for j in range(len(zcb) - 1):
            zcb[j + 1, :] = zcb[j, :] / (1 + delta * F_kN[j, :])
        swap_Ts = np.maximum(1 - zcb[-1, :] - theta * delta * np.sum(zcb[1:, :], axis=0), 0)
        B_Ts = np.prod(1 + delta * F_kk[:int(ts / delta), :], axis=0)
        swaptions = np.append(swaptions, _price(swap_Ts / B_Ts, n), axis=1)
    return (swaptions,)


@functools.lru_cache(maxsize=None)
def _jitted(ts, Te, lamb):
    import jax
    import jax.numpy as jnp

    jax.config.update("jax_enable_x64", True)

    @jax.jit
    def run(eps):
        F_kN = jnp.full((2 * Te, eps.shape[1]), f_0)
        F_kk = [F_kN[0]]
        for t in range(1, 2 * ts + 1):
            F = F_kN[1:, :]
            mu = jnp.cumsum(lamb * (delta * F) / (1 + delta * F), axis=0)
            F_kN = F * jnp.exp(lamb * mu * delta - 0.5 * lamb * lamb * delta + lamb * eps[t - 1, :] * np.sqrt(delta))
            F_kk.append(F_kN[0])
        zcb = jnp.concatenate([jnp.ones((1, eps.shape[1])), jnp.cumprod(1 / (1 + delta * F_kN[:int((Te - ts) / delta)]), axis=0)])
        swap_Ts = jnp.maximum(1 - zcb[-1, :] - theta * delta * jnp.sum(zcb[1:, :], axis=0), 0)
        return swap_Ts / jnp.prod(1 + delta * jnp.stack(F_kk[:int(ts / delta)]), axis=0)

    return run


def jax(n, seed):
    swaptions = np.zeros((2, 1))
    for k, ts, Te, lamb in _products(seed):
        eps_tmp = normal(2 * ts, n, seed=seed + k)
        swaption = np.asarray(_jitted(ts, Te, lamb)(np.concatenate((eps_tmp, -eps_tmp), axis=1)))
        swaptions = np.append(swaptions, _price(swaption, n), axis=1)
    return (swaptions,)

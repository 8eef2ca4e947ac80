"""NumPy reference for benchmarks/programs/lmm_swaption_vec.arr: bh107/benchpress (c16e8ec)
benchmarks/lmm_swaption_vec/python_numpy/lmm_swaption_vec.py (European payer swaptions in the
LIBOR market model, Andersen 1999, Table 1) in Python 3, without the harness; the normal
numbers of the k-th swaption from arrayc_random.normal with seed + k."""
import numpy as np

from arrayc_random import normal

delta = 0.5
f_0 = 0.06
theta = 0.06
Ts_all = [[1, 2, 3], [2, 3, 4], [5, 6, 7, 8, 9], [10, 12, 14, 16, 18]]
Te_all = [4, 5, 10, 20]
lamb_all = [0.2, 0.2, 0.15, 0.1]


def lmm_swaption_vec(n=1000, seed=1):
    N = n
    swaptions = np.zeros((2, 1))

    def mu(F):
        tmp = lamb * (delta * F[1:, :]) / (1 + delta * F[1:, :])  # Andreasen style
        mu = np.zeros((tmp.shape))
        mu[0, :] += tmp[0, :]
        for i in range(mu.shape[0] - 1):
            mu[i + 1, :] = mu[i, :] + tmp[i + 1, :]
        return mu

    k = 0  # the swaption's number, for its seed
    for i in range(len(Te_all)):
        Te = Te_all[i]
        lamb = lamb_all[i]
        Ts = Ts_all[i]
        for ts in Ts:
            time_structure = np.arange(0, ts + delta, delta)
            maturity_structure = np.arange(0, Te, delta)

            eps_tmp = normal(len(time_structure) - 1, N, seed=seed + k, loc=0.0, scale=1.0)
            k += 1
            eps = np.concatenate((eps_tmp, -eps_tmp), axis=1)
            F_kk = np.zeros((len(time_structure), 2 * N))
            F_kk[0, :] += f_0
            F_kN = np.ones((len(maturity_structure), 2 * N)) * f_0
            for t in range(1, len(time_structure), 1):
                F_kN_new = F_kN[1:, :] * np.exp(lamb * mu(F_kN) * delta - 0.5 * lamb * lamb * delta + lamb * eps[t - 1, :] * np.sqrt(delta))
                F_kk[t, :] = F_kN_new[0, :]
                F_kN = F_kN_new

            zcb = np.ones((int((Te - ts) / delta) + 1, 2 * N))
            for j in range(len(zcb) - 1):
                zcb[j + 1, :] = zcb[j, :] / (1 + delta * F_kN[j, :])
            swap_Ts = np.maximum(1 - zcb[-1, :] - theta * delta * np.sum(zcb[1:, :], axis=0), 0)
            B_Ts = np.ones((2 * N))
            for j in range(int(ts / delta)):
                B_Ts *= (1 + delta * F_kk[j, :])
            swaption = swap_Ts / B_Ts
            swaptions = np.append(swaptions, [[np.average((swaption[0:N] + swaption[N:]) / 2) * 10000],
                                              [np.std((swaption[0:N] + swaption[N:]) / 2) / np.sqrt(N) * 10000]], axis=1)
    return (swaptions,)

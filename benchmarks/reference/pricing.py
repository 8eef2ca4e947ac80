"""NumPy reference for benchmarks/programs/pricing.arr: bh107/benchpress (c16e8ec)
benchmarks/pricing/python_numpy/pricing.py (an American put on a binomial tree) in Python 3,
without the harness, returning the tree and its root."""
import math

import numpy as np


def pricing(magic_number=32):
    S0 = 100.0
    r = 0.03
    alpha = 0.07
    sigma = 0.20
    expiry = 1.0
    strike = 100.0

    n = int(expiry * magic_number)
    dt = expiry / n
    u = math.exp(alpha * dt + sigma * math.sqrt(dt))
    d = math.exp(alpha * dt - sigma * math.sqrt(dt))
    R = math.exp(r * dt)
    q = (R - d) / (u - d)

    asc = np.array(range(0, n + 1))
    desc = np.array(range(n, -1, -1))

    put = np.zeros((n + 1, n + 1))
    put[:, n] = np.maximum(strike - S0 * (u**asc) * (d**desc), 0)
    for i in range(n - 1, -1, -1):
        for j in range(0, i + 1):
            S = S0 * u * (j - 1) * (d ** (i - j))
            put[j, i] = max(max(strike - S, 0.0), (q * put[j + 1, i + 1] + (1 - q) * put[j, i + 1]) / R)
    return put, np.float64(put[0, 0])

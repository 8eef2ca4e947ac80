"""NumPy reference for benchmarks/programs/montecarlo_pi.arr (Monte Carlo pi: the fraction
of uniform points of the unit square inside the quarter circle, averaged over iterations)."""
import numpy as np

from arrayc_random import random


def montecarlo_pi(n=100000, iterations=10, seed=0):
    estimates = np.zeros(iterations)
    total = 0.0
    for i in range(iterations):
        x = random(n, seed=seed + 2 * i)
        y = random(n, seed=seed + 2 * i + 1)
        count = np.sum(np.sqrt(x * x + y * y) <= 1.0)  # int64
        estimate = 4 * count / n
        estimates[i] = estimate
        total += estimate
    return np.float64(total / iterations), estimates

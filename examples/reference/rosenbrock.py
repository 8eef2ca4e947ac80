"""NumPy reference for examples/rosenbrock.arr (Rosenbrock function of a random vector)."""
import numpy as np

from arrayc_random import random


def rosenbrock(n=1000000, seed=7):
    x = random(n, seed=seed) * 4.0 - 2.0  # uniform in [-2, 2)
    return (float(np.sum(100.0 * (x[1:] - x[:-1] ** 2) ** 2 + (1.0 - x[:-1]) ** 2)),)

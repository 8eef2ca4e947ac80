"""NumPy reference for benchmarks/programs/snakes_and_ladders.arr: bh107/benchpress's
snakes_and_ladders (benchpress/benchmarks/snakes_and_ladders/python_numpy/snakes_and_ladders.py,
by Natalino Busa) in Python 3, float64, without the plots; returns the accumulated marginal
probabilities and the probabilities of ending after each iteration."""
import numpy as np


def nullgame(size):
    p = np.zeros((size + 1, size + 1))
    for i in range(size + 1):
        for j in range(6):
            if i + j < size:
                p[i][i + j + 1] = 1.0 / 6.0
    p[size][size] = 1
    p[size - 1][size] = 6.0 / 6.0
    p[size - 2][size] = 5.0 / 6.0
    p[size - 3][size] = 4.0 / 6.0
    p[size - 4][size] = 3.0 / 6.0
    p[size - 5][size] = 2.0 / 6.0
    p[size - 6][size] = 1.0 / 6.0
    return p


def snakes_and_ladders(size=100, iterations=10):
    a = np.zeros(size + 1)
    p = nullgame(size)
    m = p  # the initial matrix is p
    pr_end = np.zeros(iterations)
    for k in range(iterations):
        pr_end[k] = m[0][size]
        a = a + m[0]
        m = np.dot(m, p)
    return (a, pr_end)

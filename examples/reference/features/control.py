"""NumPy reference for examples/features/control.arr."""
import numpy as np

from arrayc_random import random


def stats(x):
    return float(np.min(x)), float(np.max(x)), float(np.mean(x))


def split_sign(x):
    return np.maximum(x, 0.0), np.minimum(x, 0.0)


def window3(x):
    return x[:-2] + x[1:-1] + x[2:]


def last_and_range(x):
    lo, hi, _ = stats(x)
    return x.shape[0] - 1, hi - lo


def collatz(n):
    m, steps = n, 0
    while m != 1:
        m = int(m / 2) if m % 2 == 0 else 3 * m + 1
        steps += 1
    return steps


def control(n=12, seed=5, start=27, threshold=1.0):
    x = random(n, seed=seed) - 0.5
    lo, hi, avg = stats(x)
    pos, neg = split_sign(x)
    win = window3(x)
    last, spread = last_and_range(x)
    steps = collatz(start)

    fib = np.zeros(n, dtype=np.int64)
    fib[1] = 1
    for i in range(2, n):
        fib[i] = fib[i - 1] + fib[i - 2]

    small = below = above = 0
    for i in range(n):
        xi = float(x[i])
        if abs(xi) < 0.1:
            small += 1
        elif xi < 0.0:
            below += 1
        else:
            above += 1

    j, acc = 0, 0.0
    while j < n and acc <= threshold:
        acc += abs(float(x[j]))
        j += 1

    tri = 0.0
    for a in range(4):
        for b in range(a, 4):
            tri += float(a * b) * 0.5
    return (lo, hi, avg, pos, neg, win, last, spread, steps, fib, small, below, above, j, acc, tri)

"""NumPy reference for examples/features/greedy_top_down_bad.arr."""
import numpy as np


def greedy_top_down_bad(n=1000000):
    xs = np.arange(n) * 0.5
    bs = xs * 2.0
    cs = bs + 1.0
    ds = np.arange(n) + bs[0]
    es = cs + ds
    return float(np.sum(es))

"""NumPy reference for examples/features/views.arr."""
import numpy as np


def views():
    a = np.arange(10)
    rev = a[::-1]
    last3 = a[-3:]
    back2 = a[-2:1:-2]
    step3 = a[1:-1:3]
    clipped = a[-100:3]
    down = a[7:2:-1]
    every3 = a[::-3]
    elem = int(a[-4])

    r = np.arange(4)
    c = np.arange(5)
    m = r[:, np.newaxis] * 10 + c
    m2 = m[::-1, 1::2]
    m3 = m[-1:0:-2, ::-2]

    b = m.astype(np.float64)
    v = b[1:, ::-2]
    v[:] = -1.0
    v[0, :] += 100.0
    b[::-1, 1] = np.arange(4)

    z = np.arange(10)
    inner = z[2:9]
    w = inner[::-2]
    w[:] = -7
    w[-1] = 55
    return rev, last3, back2, step3, clipped, down, every3, elem, m, m2, m3, b, z, w

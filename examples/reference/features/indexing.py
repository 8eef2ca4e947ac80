"""NumPy reference for examples/features/indexing.arr."""
import numpy as np


def indexing():
    i0, i1, i2 = np.arange(2), np.arange(3), np.arange(4)
    t = i0[:, np.newaxis, np.newaxis] * 100 + i1[:, np.newaxis] * 10 + i2
    r1 = t[1]
    r2 = t[:, 2]
    r3 = t[-1, :, 0]
    r4 = t[..., -1]
    r5 = int(t[1, 2, 3])
    r6 = t[0, -1]
    r7 = t[1, ::-1, 1:3]

    f = np.zeros((2, 3, 4))
    f[1] = 1.0
    f[0, 2] = np.arange(4)
    f[:, 1, -1] = 7.0
    f[1, 0, 0] = 9.5
    f[..., 1] += 0.25

    s = np.zeros(6)
    for i in range(6):
        s[i] = float(i * i)
    acc = 0.0
    for i in range(6):
        acc += float(s[-1 - i]) * float(i + 1)
    row = r1[1 - 2]
    return t, r1, r2, r3, r4, r5, r6, r7, f, s, acc, row

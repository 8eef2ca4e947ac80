"""NumPy reference for examples/features/elementwise.arr.

Literals of the program are Python scalars here, which NumPy 2 treats as "weak" just like
arrayc's literals (NEP 50), so the result dtypes come out the same.
"""
import numpy as np


def elementwise(n=7):
    x = np.linspace(-3.0, 3.0, n)
    k = np.arange(n) - 3
    kp = np.arange(n)

    w1 = np.where(x > 0.0, x, -x * 0.5)
    w2 = np.where(x < -1.5, -1, 1)
    mn = np.minimum(x, 1.0)
    mx = np.maximum(x, -x * x + 1.0)

    ab = np.abs(x)
    sq = np.sqrt(np.abs(x))
    ex = np.exp(x)
    lg = np.log(np.abs(x) + 1.0)
    sn = np.sin(x)
    cs = np.cos(x)
    th = np.tanh(x)

    rf = x % 2.0
    ri = k % 3
    rneg = x % -1.25

    c1 = (x * 0.7).astype(np.int64)
    c2 = k.astype(np.bool_)
    c3 = (x > 0.0).astype(np.float64)
    c4 = x.astype(np.float32)
    c5 = (k > 0).astype(np.int64)

    p1 = k ** 2
    p2 = kp ** 3
    p3 = 2 ** kp
    p4 = x ** 2
    p5 = np.abs(x) ** 0.5
    p6 = (np.abs(x) + 1.0) ** x
    p7 = x ** kp
    p8 = (-1.0) ** kp
    p9 = -x ** 2

    yf = c4 * 2.0 + 1
    zf = c4 * c4 - c4 / 3.0
    mixed1 = c4 + k
    mixed2 = c4 + x

    b1 = (x > 0.0) & (k % 2 == 0)
    b2 = ~(x < 1.0) | (x == -3.0)
    b3 = (x >= 0.0) != (k <= 0)
    dv = k / 4
    ng = -k
    return (w1, w2, mn, mx, ab, sq, ex, lg, sn, cs, th, rf, ri, rneg, c1, c2, c3, c4, c5,
            p1, p2, p3, p4, p5, p6, p7, p8, p9, yf, zf, mixed1, mixed2, b1, b2, b3, dv, ng)

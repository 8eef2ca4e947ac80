"""NumPy reference for benchmarks/programs/quasicrystal.arr: bh107/benchpress's quasicrystal
(benchpress/benchmarks/quasicrystal/python_numpy/quasicrystal.py) in Python 3, float64; the image
of the last phase is the result."""
import numpy as np


def quasicrystal(k=5, stripes=37, n=64, iterations=5):
    phases = np.arange(0, 2 * np.pi, 2 * np.pi / iterations)
    image = np.empty((n, n))
    d = np.arange(-n / 2, n / 2, dtype=np.float64)

    xv, yv = np.meshgrid(d, d)
    theta = np.arctan2(yv, xv)
    with np.errstate(divide="ignore"):  # log 0 at the origin, set to 0 below
        r = np.log(np.sqrt(xv * xv + yv * yv))
    r[np.isinf(r) == True] = 0  # noqa: E712 (the original's spelling)

    tcos = theta * np.cos(np.arange(0, np.pi, np.pi / k))[:, np.newaxis, np.newaxis]
    rsin = r * np.sin(np.arange(0, np.pi, np.pi / k))[:, np.newaxis, np.newaxis]
    inner = (tcos - rsin) * stripes

    cinner = np.cos(inner)
    sinner = np.sin(inner)

    for phase in phases:
        image[:] = np.sum(cinner * np.cos(phase) - sinner * np.sin(phase), axis=0) + k
    return (image,)

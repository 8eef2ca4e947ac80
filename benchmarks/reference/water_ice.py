"""NumPy reference for benchmarks/programs/water_ice.arr: temperature and salinity of a
sheet of sea ice (nl layers x nw columns) under seasonal forcing, with brine-dependent
conductivity and heat capacity, vertical heat diffusion and gravity drainage of brine."""
import math

import numpy as np

from arrayc_random import random


def freezing_point(s):
    """UNESCO (1983) freezing point of sea water at surface pressure, deg C."""
    return -0.0575 * s + 1.710523e-3 * s ** 1.5 - 2.154996e-4 * (s * s)


def water_ice(nl=32, nw=1000, steps=20, year=20, seed=5):
    z = np.linspace(0.0, 1.0, nl)[:, np.newaxis]          # depth, 0 at the surface
    t = -15.0 + 13.2 * z + 0.5 * (random(nl, nw, seed=seed) - 0.5)
    s = 4.0 + 6.0 * z + 2.0 * random(nl, nw, seed=seed + 1)
    cover = 0.6 + 0.4 * random(nw, seed=seed + 2)          # snow: share of air temperature
    absorb = np.exp(-z / 0.1)                              # solar absorption profile
    t[-1, :] = -1.8                                        # ocean at its freezing point
    hist = np.zeros((steps, nw))
    for i in range(steps):
        season = float(i % year) / float(year)
        if season < 0.5:   # winter
            air = -20.0 - 15.0 * math.sin(2.0 * math.pi * season)
            solar = 0.0
        else:              # summer
            air = -5.0 + 4.0 * math.sin(2.0 * math.pi * (season - 0.5))
            solar = 0.05 * math.sin(2.0 * math.pi * (season - 0.5))
        tf = freezing_point(s)
        t[0, :] = np.minimum(air * cover, tf[0])
        k = np.maximum(1.0 - 0.0576 * s / (np.abs(t) + 0.01), 0.2)    # conductivity
        c = 1.0 + 8.6 * s / (t * t + 0.01)                             # heat capacity
        kf = 0.5 * (k[:-1] + k[1:])                                    # at layer faces
        flux = kf * (t[1:] - t[:-1])
        t[1:-1] = np.minimum(t[1:-1] + (0.4 * (flux[1:] - flux[:-1]) + solar * absorb[1:-1]) / c[1:-1],
                             tf[1:-1])
        phi = np.minimum(s * (0.0532 + 4.919 / (np.abs(t) + 0.01)) * 0.01, 1.0)  # brine volume
        s -= 0.05 * np.maximum(phi - 0.05, 0.0) * np.abs(t) ** 0.5 * s         # drainage
        hist[i, :] = np.mean(t, axis=0)
    return t, s, hist

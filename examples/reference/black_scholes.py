"""NumPy reference for examples/black_scholes.arr (mean European call price per expiry time)."""
import math

import numpy as np

from arrayc_random import random


def cnd(d):
    """Standard normal CDF, Abramowitz-Stegun 26.2.17 polynomial (Horner form)."""
    a1, a2, a3, a4, a5 = 0.31938153, -0.356563782, 1.781477937, -1.821255978, 1.330274429
    l = np.abs(d)
    k = 1.0 / (1.0 + 0.2316419 * l)
    poly = k * (a1 + k * (a2 + k * (a3 + k * (a4 + k * a5))))
    w = 1.0 - 0.3989422804014327 * np.exp(-l * l / 2.0) * poly  # 1/sqrt(2 pi)
    return np.where(d < 0.0, 1.0 - w, w)


def black_scholes(n=100000, steps=20, seed=42):
    s = random(n, seed=seed) * 4.0 + 58.0  # stock prices, uniform in [58, 62)
    x, r, v = 65.0, 0.08, 0.3  # strike, risk-free rate, volatility
    prices = np.zeros(steps)
    for i in range(steps):
        t = float(i + 1) / 365.0  # one day, two days, ... (in years)
        d1 = (np.log(s / x) + (r + v * v / 2.0) * t) / (v * math.sqrt(t))
        d2 = d1 - v * math.sqrt(t)
        call = s * cnd(d1) - x * math.exp(-r * t) * cnd(d2)
        prices[i] = np.sum(call) / float(n)
    return (prices,)

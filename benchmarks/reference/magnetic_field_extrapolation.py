"""NumPy reference for benchmarks/programs/magnetic_field_extrapolation.arr: bh107/benchpress's
magnetic_field_extrapolation (benchpress/benchmarks/magnetic_field_extrapolation/python_numpy/
magnetic_field_extrapolation.py) in Python 3; the input magnetogram from arrayc_random; returns
the field (Bx, By, Bz) of the last iteration."""
import math

import numpy as np

from arrayc_random import random


def window(B, a=0.37):
    assert len(B.shape) == 2
    assert B.shape[0] == B.shape[1]
    n = B.shape[0]
    wl = np.ones_like(B[0])
    b = int(np.ceil((a * (n - 1) / 2)))
    wl[:b] = 0.5 * (1 + np.cos(math.pi * (2 * np.arange(b) / (a * (n - 1)) - 1)))
    wl[-b:] = 0.5 * (1 + np.cos(math.pi * (2 * np.arange(b - 1, -1, -1) / (a * (n - 1)) - 1)))
    wl *= wl
    w = np.sqrt(wl + wl[:, None])
    return B * w


def calcB(B_x0, alpha=0.0, x_min=0.0, x_max=0.25, y_min=0.0, y_max=1.0, z_min=0.0, z_max=1.0):
    n = len(B_x0)
    x = np.linspace(x_min, x_max, num=n, endpoint=False).astype(B_x0.dtype, copy=False)
    y = np.linspace(y_min, y_max, num=n).astype(B_x0.dtype, copy=False)
    z = np.linspace(z_min, z_max, num=n).astype(B_x0.dtype, copy=False)
    u = np.arange(n, dtype=B_x0.dtype)

    C = 4.0 / (n - 1.0) ** 2 * np.sum(np.sum(
        (B_x0 * np.sin(math.pi / y_max * u * y[:, None])[:, :, None])[:, None] * np.sin(
            math.pi / z_max * u * z[:, None])[:, None], -1), -1)
    l = np.pi ** 2 * ((u ** 2 / y_max)[:, None] + (u ** 2 / z_max))
    l[0, 0] = 1.0
    r = np.sqrt(l - alpha ** 2)

    sincos = np.sin(math.pi / y_max * u * y[:, None])[:, None, :, None] * (u * np.cos(
        math.pi / z_max * u * z[:, None]))[None, :, None, :]
    cossin = (u * np.cos(math.pi / y_max * u * y[:, None]))[:, None, :, None] * np.sin(
        math.pi / z_max * u * z[:, None])[None, :, None, :]
    temp_x = C * np.sin(math.pi / y_max * u * y[:, None])[:, None, :, None] * np.sin(
        math.pi / z_max * u * z[:, None])[None, :, None, :]
    temp_y = C / l * (alpha * math.pi / z_max * sincos - r * math.pi / y_max * cossin)
    temp_z = C / l * (alpha * math.pi / y_max * cossin + r * math.pi / z_max * sincos)
    exprx = np.exp((-r * x[:, None, None]))

    Bx = np.sum(np.sum(temp_x * exprx[:, None, None], -1), -1)
    By = np.sum(np.sum(temp_y * exprx[:, None, None], -1), -1)
    Bz = np.sum(np.sum(temp_z * exprx[:, None, None], -1), -1)
    return (Bx, By, Bz)


def magnetic_field_extrapolation(n=16, iterations=10, seed=1):
    B_x0 = random(n, n, seed=seed)
    Rx = Ry = Rz = np.zeros((n, n, n))
    for _ in range(iterations):
        Rx, Ry, Rz = calcB(window(B_x0))
    return (Rx, Ry, Rz)

"""NumPy reference for benchmarks/programs/ndstencil.arr: bh107/benchpress (c16e8ec)
benchmarks/ndstencil/python_numpy/ndstencil.py in Python 3, without the harness; rank-generic
as the original, called with dims=3 as the arrayc program is written."""
import itertools as it

import numpy as np


def create_shape(dims, size=20):
    shape = []
    for _ in range(dims):
        ds = size // dims
        shape.append(2**ds + 2)
        dims -= 1
        size -= ds
    return shape


def create_world(shape, core_v, edge_v, dtype=np.float64):
    w = np.empty(shape, dtype=dtype)
    w[:] = w.dtype.type(edge_v)
    w[tuple(it.starmap(slice, it.repeat((1, -1), len(w.shape))))][:] = w.dtype.type(core_v)
    return w


def solve(stencil, world, iterations):
    fac = 1.0 / len(stencil)
    for _ in range(iterations):
        stencil[len(stencil) // 2][:] = sum(stencil) * fac
    return world


def ndstencil(size=12, iterations=10, dims=3):
    world = create_world(create_shape(dims, size), 0.0, 255.0)
    stencil = [world[tuple(slice(a, b) for a, b in s)]
               for s in it.product([(0, -2), (1, -1), (2, None)], repeat=world.ndim)]
    return (solve(stencil, world, iterations),)

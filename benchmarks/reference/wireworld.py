"""NumPy reference for benchmarks/programs/wireworld.arr: bh107/benchpress (c16e8ec)
benchmarks/wireworld/python_numpy/wireworld.py in Python 3, without the harness, its np.uint8
world kept; bohrium.stdviews' no_border() and D2P8() written out as their views. The result is
returned as int32, the dtype of the arrayc program's world (arrayc has no uint8)."""
import numpy as np

PATTERN = np.array([
    [4, 2, 8, 8, 8, 8, 8, 8, 8, 8],
    [8, 0, 0, 0, 8, 0, 0, 0, 0, 0],
    [0, 0, 0, 8, 8, 8, 0, 0, 0, 0],
    [8, 0, 0, 0, 8, 0, 0, 0, 0, 0],
    [2, 4, 8, 8, 0, 8, 8, 8, 8, 8],
    [4, 2, 8, 8, 8, 8, 8, 8, 8, 8],
    [8, 0, 0, 0, 8, 0, 0, 0, 0, 0],
    [0, 0, 0, 8, 8, 8, 0, 0, 0, 0],
    [8, 0, 0, 0, 8, 0, 0, 0, 0, 0],
    [2, 4, 8, 8, 0, 8, 8, 8, 8, 8],
])


def wireworld_init(size):
    data = np.zeros((size * 10 + 2, size * 10 + 2), dtype=np.uint8)
    data[1:-1, 1:-1] = np.tile(PATTERN, (size, size))
    return data


def wireworld(size=4, iterations=10):
    world = wireworld_init(size)
    sim = world[1:-1, 1:-1]
    stencil = [world[a, b] for a in (slice(0, -2), slice(1, -1), slice(2, None))
               for b in (slice(0, -2), slice(1, -1), slice(2, None))]
    stencil.pop(4)  # D2P8: the 3 x 3 views without the centre
    nc = sum([v == 2 for v in stencil])
    for _ in range(iterations):
        mask = ((nc == 1) & (sim == 8)) | ((nc == 2) & (sim == 8))
        sim *= ~mask
        sim += np.array(mask * 1, np.uint8)
        mask = sim == 8
        sim *= ~mask
        sim += np.array(mask * 4, np.uint8)
        sim *= 2
    return (sim.astype(np.int32),)

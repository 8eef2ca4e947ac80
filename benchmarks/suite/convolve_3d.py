"""3-D convolution with a Gaussian filter (bh107/benchpress at c16e8ec,
benchmarks/convolve_3d/python_numpy/convolve_3d.py; a 512^3 random image, its example filter
size --size=25): the sum of the fsize^3 shifted views of an f64 image times the f32 filter's
weights."""
import functools

import numpy as np

from arrayc_random import random

PROGRAM = "benchmarks/programs/convolve_3d.arr"
ENTRY = "convolve_3d"
REFERENCE = "benchmarks/reference/convolve_3d.py"
SMALL = dict(n=24, fsize=5, seed=1)
# a 128^3 image (16 MiB) and a 5^3 filter: 125 multiply-adds of 124^3 views, about 1.5 s in
# NumPy, plus about 0.4 s to generate the image with the NumPy model of `random`. (The
# original's 512^3 image with a 25^3 filter would take NumPy hours.)
LARGE = dict(n=128, fsize=5, seed=1)
MEMORY_BOUND = True
RTOL = 1e-9
ATOL = 0.0


def _inputs(n, fsize, seed):
    from reference.convolve_3d import gen_3d_filter

    return random(n, n, n, seed=seed), gen_3d_filter(fsize, 13.0)


def numexpr(n, fsize, seed):
    import numexpr as ne

    image, kernel = _inputs(n, fsize, seed)
    m = n - fsize + 1
    result = np.zeros((m, m, m))
    for i in range(fsize):
        for j in range(fsize):
            for k in range(fsize):
                v, w = image[i:i + m, j:j + m, k:k + m], np.float64(kernel[i, j, k])
                result = ne.evaluate("result + v * w")
    return (result,)


@functools.lru_cache(maxsize=None)
def _jitted():
    import jax
    import jax.numpy as jnp

    jax.config.update("jax_enable_x64", True)

    @jax.jit
    def run(image, kernel):
        fsize = kernel.shape[0]
        m = image.shape[0] - fsize + 1
        weights = kernel.astype(jnp.float64)

        def add(t, result):
            i, j, k = t // (fsize * fsize), t // fsize % fsize, t % fsize
            return result + jax.lax.dynamic_slice(image, (i, j, k), (m, m, m)) * weights[i, j, k]

        return jax.lax.fori_loop(0, fsize**3, add, jnp.zeros((m, m, m)))

    return run


def jax(n, fsize, seed):
    return (np.asarray(_jitted()(*_inputs(n, fsize, seed))),)

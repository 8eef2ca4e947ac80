"""2-D convolution with a Gaussian filter (bh107/benchpress at c16e8ec,
benchmarks/convolve_2d/python_numpy/convolve_2d.py; its example size --size=25, the filter's
side): the sum of the fsize^2 shifted views of an f32 grey-scale image times the filter's
weights. The photo the original read is an image of random levels here."""
import functools

import numpy as np

from arrayc_random import integers

PROGRAM = "benchmarks/programs/convolve_2d.arr"
ENTRY = "convolve_2d"
REFERENCE = "benchmarks/reference/convolve_2d.py"
SMALL = dict(n=64, fsize=5, seed=1)
# an 800 x 800 image and the example's 25 x 25 filter: 625 multiply-adds of 776^2 f32 views,
# about 1.6 s in NumPy, plus about 0.8 s to generate the image with the NumPy model of
# `integers` (arrayc_random).
LARGE = dict(n=800, fsize=25, seed=1)
MEMORY_BOUND = True
RTOL = 1e-9
ATOL = 0.0


def _inputs(n, fsize, seed):
    from reference.convolve_2d import gen_2d_filter

    rgb = np.array(integers(0, 256, n, n, 3, seed=seed), dtype=np.float32)
    image = np.add.reduce(rgb * np.array((0.3, 0.6, 0.11), dtype=np.float32), axis=2)
    return image, gen_2d_filter(fsize, 13.0)


def numexpr(n, fsize, seed):
    import numexpr as ne

    image, kernel = _inputs(n, fsize, seed)
    m = n - fsize + 1
    result = np.zeros((m, m), dtype=np.float32)
    for i in range(fsize):
        for j in range(fsize):
            v, k = image[i:i + m, j:j + m], kernel[i, j]
            result = ne.evaluate("result + v * k")
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

        def add(k, state):
            # each product is added in the next iteration, so that XLA cannot contract the
            # f32 multiply and add into an FMA (NumPy rounds the product, then the sum)
            result, product = state
            i, j = k // fsize, k % fsize
            return result + product, jax.lax.dynamic_slice(image, (i, j), (m, m)) * kernel[i, j]

        zero = jnp.zeros((m, m), dtype=jnp.float32)
        result, product = jax.lax.fori_loop(0, fsize * fsize, add, (zero, zero))
        return result + product

    return run


def jax(n, fsize, seed):
    return (np.asarray(_jitted()(*_inputs(n, fsize, seed))),)

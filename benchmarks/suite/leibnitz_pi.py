"""Leibnitz pi (Benchpress; Kristensen et al. 2016, Table I): pi from n terms of the Leibniz
series. Program and reference are the example `examples/leibnitz_pi.arr`."""
import functools

import numpy as np

PROGRAM = "examples/leibnitz_pi.arr"
ENTRY = "leibnitz_pi"
REFERENCE = "examples/reference/leibnitz_pi.py"
SMALL = dict(n=100000)  # as in tests/examples/test_examples.py
# 1e8 terms: NumPy about 1.6-2 s here (k is 763 MiB, and four temporaries of its size).
LARGE = dict(n=100_000_000)
# Fused, nothing is stored: one pow and one division per element, no memory traffic.
MEMORY_BOUND = False
RTOL = 1e-9
ATOL = 0.0
# No looser tolerance at LARGE: arrayc (sequential sums per parallel chunk), NumPy (pairwise)
# and XLA sum the 1e8 alternating terms in different orders, but agree to ~1e-14 here.


def numexpr(n):
    """The terms and their sum in one numexpr expression."""
    import numexpr as ne

    k = np.arange(n)
    return (4.0 * float(ne.evaluate("sum((-1.0) ** k / (2 * k + 1))")),)


@functools.lru_cache(maxsize=None)
def _jitted():
    import jax
    import jax.numpy as jnp

    jax.config.update("jax_enable_x64", True)

    @functools.partial(jax.jit, static_argnames=("n",))
    def run(n):
        k = jnp.arange(n)  # int64 with x64
        return 4.0 * jnp.sum((-1.0) ** k / (2 * k + 1))

    return run


def jax(n):
    return (_jitted()(n),)

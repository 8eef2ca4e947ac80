"""Black-Scholes (Benchpress; Kristensen et al. 2016, Table I): the mean price of a European
call option over n random stock prices, for `steps` expiry times one day apart.
Program and reference are the example `examples/black_scholes.arr`."""
import functools
import math

import numpy as np

from arrayc_random import random

PROGRAM = "examples/black_scholes.arr"
ENTRY = "black_scholes"
REFERENCE = "examples/reference/black_scholes.py"
SMALL = dict(n=20000, steps=10, seed=3)  # as in tests/examples/test_examples.py
# 8e6 prices, 4 expiry times: NumPy about 2.3 s here (~0.55 s per step: ~30 operations over
# the 2 x n array d). d is 128 MiB; the operations are log/exp/sqrt-heavy, so the run is not
# sized for the memory roofline.
LARGE = dict(n=8_000_000, steps=4, seed=1)
# Not memory-bound once fused: per element, one log, two exp and a division per row of d
# (plus arrayc's in-kernel Philox `random`) against 8-16 bytes of traffic.
MEMORY_BOUND = False
RTOL = 1e-9
ATOL = 0.0

X, R, V = 65.0, 0.08, 0.3  # strike, risk-free rate, volatility
A = (0.31938153, -0.356563782, 1.781477937, -1.821255978, 1.330274429)  # Abramowitz-Stegun 26.2.17


def numexpr(n, steps, seed):
    """The NumPy reference with every element-wise line as one numexpr expression; np.sum for
    the mean (numexpr's own sum is single-threaded)."""
    import numexpr as ne

    x, r, v = X, R, V

    def cnd(d):
        a1, a2, a3, a4, a5 = A  # locals: numexpr looks names up in the calling frame
        l = ne.evaluate("abs(d)")
        k = ne.evaluate("1.0 / (1.0 + 0.2316419 * l)")
        w = ne.evaluate("1.0 - 0.3989422804014327 * exp(-l * l / 2.0)"
                        " * (k * (a1 + k * (a2 + k * (a3 + k * (a4 + k * a5)))))")
        return ne.evaluate("where(d < 0.0, 1.0 - w, w)")

    s = random(n, seed=seed) * 4.0 + 58.0
    prices = np.zeros(steps)
    for i in range(steps):
        t = float(i + 1) / 365.0
        sqrt_t = math.sqrt(t)
        d1 = ne.evaluate("(log(s / x) + (r + v * v / 2.0) * t) / (v * sqrt_t)")
        d2 = ne.evaluate("d1 - v * sqrt_t")
        c1, c2 = cnd(d1), cnd(d2)
        disc = x * math.exp(-r * t)
        call = ne.evaluate("s * c1 - disc * c2")
        prices[i] = np.sum(call) / float(n)
    return (prices,)


@functools.lru_cache(maxsize=None)
def _jitted():
    import jax
    import jax.numpy as jnp
    from jax import lax

    jax.config.update("jax_enable_x64", True)

    def cnd(d):
        a1, a2, a3, a4, a5 = A
        l = jnp.abs(d)
        k = 1.0 / (1.0 + 0.2316419 * l)
        poly = k * (a1 + k * (a2 + k * (a3 + k * (a4 + k * a5))))
        w = 1.0 - 0.3989422804014327 * jnp.exp(-l * l / 2.0) * poly
        return jnp.where(d < 0.0, 1.0 - w, w)

    @functools.partial(jax.jit, static_argnames=("steps",))
    def run(s, steps):
        n = s.shape[0]

        def step(i, prices):
            t = (i + 1).astype(jnp.float64) / 365.0
            d1 = (jnp.log(s / X) + (R + V * V / 2.0) * t) / (V * jnp.sqrt(t))
            d2 = d1 - V * jnp.sqrt(t)
            call = s * cnd(d1) - X * jnp.exp(-R * t) * cnd(d2)
            return prices.at[i].set(jnp.sum(call) / float(n))

        return lax.fori_loop(0, steps, step, jnp.zeros(steps))

    return run


def jax(n, steps, seed):
    import jax.numpy as jnp

    run = _jitted()
    s = jnp.asarray(random(n, seed=seed) * 4.0 + 58.0)  # inputs made in NumPy, outside jit
    return (run(s, steps),)

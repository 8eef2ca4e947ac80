"""NumPy model of the arrayc random-number contract (independent of the Rust runtime).

Contract (docs/language.md, `random`):
  * Philox4x32-10: 10 rounds on a 4x32-bit counter with a 2x32-bit key.
    Round: (hi0, lo0) = M0 * c0, (hi1, lo1) = M1 * c2 (32x32 -> 64-bit products),
           c = [hi1 ^ c1 ^ k0, lo1, hi0 ^ c3 ^ k1, lo0];
    then the key is bumped: k0 += W0, k1 += W1 (mod 2**32).
  * uniform(seed, k): counter = [k & 0xffffffff, k >> 32, 0, 0],
    key = [seed & 0xffffffff, seed >> 32] (seed as a 64-bit two's-complement word);
    out = philox(counter, key); bits = ((out0 << 32) | out1) >> 11; value = bits * 2**-53.
  * random(shape, seed): element k in row-major order is uniform(seed, k).

Everything is computed vectorised with uint64 NumPy arrays holding 32-bit words.
"""
import numpy as np

M0 = np.uint64(0xD2511F53)
M1 = np.uint64(0xCD9E8D57)
W0 = 0x9E3779B9
W1 = 0xBB67AE85
MASK32 = np.uint64(0xFFFFFFFF)
SHIFT32 = np.uint64(32)
MASK64 = (1 << 64) - 1


def philox4x32_10(counter, key):
    """counter: four arrays (or ints) of 32-bit words; key: two ints. Returns four uint64 arrays."""
    c0, c1, c2, c3 = (np.asarray(c, dtype=np.uint64) & MASK32 for c in counter)
    k0 = int(key[0]) & 0xFFFFFFFF
    k1 = int(key[1]) & 0xFFFFFFFF
    for _ in range(10):
        p0 = M0 * c0  # < 2**64, exact in uint64
        p1 = M1 * c2
        hi0, lo0 = p0 >> SHIFT32, p0 & MASK32
        hi1, lo1 = p1 >> SHIFT32, p1 & MASK32
        c0, c1, c2, c3 = (hi1 ^ c1 ^ np.uint64(k0), lo1, hi0 ^ c3 ^ np.uint64(k1), lo0)
        k0 = (k0 + W0) & 0xFFFFFFFF
        k1 = (k1 + W1) & 0xFFFFFFFF
    return c0, c1, c2, c3


def uniform(seed, k):
    """Value(s) in [0, 1) for element index/indices k (int or integer array) under `seed`."""
    s = int(seed) & MASK64
    k = np.asarray(k, dtype=np.uint64)
    counter = (k & MASK32, k >> SHIFT32, np.zeros_like(k), np.zeros_like(k))
    o0, o1, _, _ = philox4x32_10(counter, (s & 0xFFFFFFFF, s >> 32))
    bits = ((o0 << SHIFT32) | o1) >> np.uint64(11)
    return bits.astype(np.float64) * 2.0 ** -53  # bits < 2**53: the conversion is exact


def random(*shape, seed=0):
    """Like arrayc `random(d0, d1, ..., seed=s)`: f64 array, element k (row-major) = uniform(seed, k)."""
    shape = tuple(int(d) for d in shape)
    n = int(np.prod(shape, dtype=np.int64)) if shape else 1
    return uniform(seed, np.arange(n, dtype=np.uint64)).reshape(shape)


def normal(*shape, seed=0, loc=0.0, scale=1.0):
    """Like arrayc `normal(d0, ..., seed=s, loc=, scale=)`: Box-Muller on the uniforms of `random`,
    element k (row-major) from u(2k) and u(2k + 1):
    loc + scale * sqrt(-2 * log(1 - u(2k))) * cos(2*pi * u(2k + 1)), in that order of operations."""
    u = random(*shape, 2, seed=seed)
    u1, u2 = u[..., 0], u[..., 1]
    z = np.sqrt(-2.0 * np.log(1.0 - u1)) * np.cos(2.0 * np.pi * u2)
    return loc + scale * z


def integers(low, high, *shape, seed=0):
    """Like arrayc `integers(low, high, d0, ..., seed=s)`: int64, element k = low + floor(u(k) * (high - low))."""
    if high <= low:
        raise ValueError("low >= high")
    u = random(*shape, seed=seed)
    return (np.floor(u * float(high - low)).astype(np.int64) + np.int64(low))

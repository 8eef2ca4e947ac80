"""NumPy's everyday idioms of issue 31, fifth set, against NumPy (docs/language.md, "Builtin
functions" and "NumPy's random API"): `gcd`/`lcm` (negatives, zeros, broadcasting, promotion,
the longest Euclid chains of each dtype), `partition`/`argpartition` (NumPy's guarantee: the
element at `kth` in its sorted place, smaller before, larger after), random permutations and picks
(`permutation`, `shuffle`, `choice`: arrayc's generator is not NumPy's, so properties, not values),
and writes through `x.flat`; on the CPU and on the GPU kernels (emulated, and the GPU where there
is one)."""
import numpy as np
import pytest

from arrayc_examples import TARGETS, assert_check_error, assert_same, run_fails, run_ok, run_source


def fibonacci(n):
    f = [0, 1]
    while len(f) <= n:
        f.append(f[-1] + f[-2])
    return f


@pytest.mark.parametrize("target", TARGETS)
def test_gcd_lcm_match_numpy(target, tmp_path):
    """`gcd`/`lcm` of negatives and zeros, broadcast against a row and a Python int, promoted
    (`i32` with a literal stays `i32`, `u8` with `i64` is `i64`), and the longest Euclid chains:
    consecutive Fibonacci numbers near the top of `i64` and `i32`, and of `u8`."""
    rng = np.random.default_rng(7)
    a = rng.integers(-40, 40, (5, 6))
    a[0, :3] = 0
    b = rng.integers(-60, 60, 6)
    b[0] = 0
    f = fibonacci(93)
    fa = np.array([f[91], f[90], f[92], -f[92], 2**62, -2**63], dtype=np.int64)
    fb = np.array([f[90], f[91], f[91], f[91], 3**39, 6], dtype=np.int64)
    i32a = np.array([f[45], f[46], -12, 0], dtype=np.int32)
    i32b = np.array([f[44], f[45], 18, 0], dtype=np.int32)
    u8a = np.array([233, 144, 0, 255], dtype=np.uint8)
    u8b = np.array([144, 233, 7, 85], dtype=np.uint8)
    src = """fn main(a: i64[r, c], b: i64[c], fa: i64[k], fb: i64[k], i32a: i32[m], i32b: i32[m], u8a: u8[m], u8b: u8[m]) ->
        (i64[r, c], i64[r, c], i64[r, c], i64[k], i32[m], i32[m], u8[m], i64[m], i64, i64[k]) {
    return (np.gcd(a, b), np.lcm(a, b), np.gcd(a, 12), np.gcd(fa, fb), np.gcd(i32a, i32b), np.lcm(i32a, 4),
            np.gcd(u8a, u8b), np.gcd(u8a, i64(i32b)), np.lcm(-4, 6), np.gcd(fb, fa));
}
"""
    ins = dict(a=a, b=b, fa=fa, fb=fb, i32a=i32a, i32b=i32b, u8a=u8a, u8b=u8b)
    got = run_ok(src, ins, tmp_path, target)
    want = [np.gcd(a, b), np.lcm(a, b), np.gcd(a, 12), np.gcd(fa, fb), np.gcd(i32a, i32b), np.lcm(i32a, np.int32(4)),
            np.gcd(u8a, u8b), np.gcd(u8a, i32b.astype(np.int64)), np.lcm(np.int64(-4), np.int64(6)), np.gcd(fb, fa)]
    for k, (g, w) in enumerate(zip(got, want)):
        assert_same(g, w, f"result {k}")


def test_gcd_errors(tmp_path):
    """A float or bool operand, and `u64` with a signed integer, are NumPy's TypeError: E0301."""
    for args, words in [("x, 2", "float"), ("k > 0, k > 1", "bools"), ("u, k", "u64")]:
        src = f"fn main(x: f64[n], k: i64[n], u: u64[n]) -> i64 {{\n    let g = np.gcd({args});\n    return 0;\n}}\n"
        assert_check_error(src, "E0301", "", tmp_path)


def partitioned(values, kth, axis=-1):
    """Whether `values` is partitioned at `kth` along `axis` as NumPy guarantees."""
    v = np.moveaxis(values, axis, -1)
    n = v.shape[-1]
    k = kth % n
    s = np.sort(v, axis=-1)
    return (np.array_equal(v[..., k], s[..., k], equal_nan=True)
            and np.all(v[..., :k] <= v[..., k:k + 1]) and np.all(v[..., k + 1:] >= v[..., k:k + 1]))


@pytest.mark.parametrize("target", TARGETS)
def test_partition_matches_numpy_guarantee(target, tmp_path):
    """`partition`/`argpartition` with a positive, a negative and a run-time `kth`, along the last
    axis and `axis=0`, `x.argpartition`, ties: the element at `kth` is the sorted one, smaller
    ones before, larger after (NumPy's guarantee), and `argpartition` gives positions of `x`."""
    rng = np.random.default_rng(3)
    x = rng.integers(0, 5, 9).astype(np.float64)
    m = rng.standard_normal((4, 7))
    src = """fn main(x: f64[n], m: f64[r, c], k: i64) -> (f64[n], i64[n], f64[n], f64[r, c], i64[r, c], i64[n], f64[n]) {
    return (np.partition(x, 3), np.argpartition(x, -2), np.partition(x, k), np.partition(m, 1, axis=0),
            np.argpartition(m, 5), x.argpartition(k), np.partition(x, kth=0));
}
"""
    got = run_ok(src, dict(x=x, m=m), tmp_path, target, flags=["--arg", "k=6"])
    p, ap, pk, pm, apm, apk, p0 = [np.asarray(g) for g in got]
    assert p.dtype == np.float64 and ap.dtype == np.int64
    assert partitioned(p, 3) and np.array_equal(np.sort(p), np.sort(x))
    assert sorted(ap) == list(range(9)) and partitioned(x[ap], -2)
    assert partitioned(pk, 6) and partitioned(p0, 0)
    assert partitioned(pm, 1, axis=0) and np.array_equal(np.sort(pm, axis=0), np.sort(m, axis=0))
    assert partitioned(np.take_along_axis(m, apm, axis=1), 5)
    assert partitioned(x[apk], 6)


def test_partition_errors(tmp_path):
    """A `kth` outside the axis is NumPy's ValueError: E0503 where known, else at run time; a
    list of `kth`s is E0503."""
    assert_check_error("fn main() -> f64[?] {\n    return np.partition(np.zeros(5), 5);\n}\n", "E0503", "out of bounds", tmp_path)
    assert_check_error("fn main(x: f64[n]) -> f64[n] {\n    return np.partition(x, [1, 2]);\n}\n", "E0503", "several", tmp_path)
    src = "fn main(x: f64[n], k: i64) -> f64[n] {\n    return np.partition(x, k);\n}\n"
    x = np.arange(4.0)
    for k in (4, -5):
        proc, _ = run_source(src, dict(x=x), tmp_path, flags=["--arg", f"k={k}"])
        assert proc.returncode != 0 and "kth out of bounds" in proc.stderr, proc.stderr
    for k in (3, -4):
        proc, got = run_source(src, dict(x=x), tmp_path, flags=["--arg", f"k={k}"])
        assert proc.returncode == 0, proc.stderr


@pytest.mark.parametrize("target", TARGETS)
def test_random_permutations_and_picks(target, tmp_path):
    """`permutation` of an integer (a literal, `len`, a parameter) and of arrays (1-d, rows of a
    2-d), `shuffle` in place (a name and a view), `choice` with and without replacement, of an
    integer and of an array, `size=None` a scalar, the legacy functions: permutations of their
    input, distinct picks without replacement, NumPy's dtypes and shapes."""
    x = np.linspace(-1.0, 2.0, 10)
    m = np.arange(12.0).reshape(4, 3)
    src = """fn main(x: f64[n], m: f64[r, c], k: i64) -> (i64[?], f64[?], i64[?], f64[?, ?], f64[n], f64[r, c], i64[?], f64[?],
        i64[?], i64, f64, i64[?], f64[?], i64[?, ?]) {
    rng = np.random.default_rng(42);
    a = rng.permutation(10);
    b = rng.permutation(x);
    c = rng.permutation(len(x));
    d = rng.permutation(m);
    s = x.copy();
    rng.shuffle(s);
    t = m.copy();
    rng.shuffle(t[1:, :]);
    e = rng.choice(k, size=6, replace=False);
    f = rng.choice(x, 20);
    g = rng.choice(100, 7, replace=True);
    h = rng.choice(k);
    i = rng.choice(x, replace=False);
    j = np.random.permutation(k);
    l = np.random.choice(x, size=5, replace=False);
    np.random.shuffle(l);
    o = rng.choice(k, size=(2, 3), replace=False);
    return (a, b, c, d, s, t, e, f, g, h, i, j, l, o);
}
"""
    got = run_ok(src, dict(x=x, m=m), tmp_path, target, flags=["--arg", "k=9"])
    a, b, c, d, s, t, e, f, g, h, i, j, l, o = [np.asarray(v) for v in got]
    assert a.dtype == np.int64 and np.array_equal(np.sort(a), np.arange(10))
    assert b.dtype == np.float64 and np.array_equal(np.sort(b), x)
    assert np.array_equal(np.sort(c), np.arange(10))
    assert d.shape == (4, 3) and sorted(map(tuple, d)) == sorted(map(tuple, m))
    assert np.array_equal(np.sort(s), x)
    assert np.array_equal(t[0], m[0]) and sorted(map(tuple, t[1:])) == sorted(map(tuple, m[1:]))
    assert e.shape == (6,) and len(set(e)) == 6 and np.all((0 <= e) & (e < 9))
    assert f.shape == (20,) and np.all(np.isin(f, x))
    assert g.dtype == np.int64 and g.shape == (7,) and np.all((0 <= g) & (g < 100))
    assert h.shape == () and 0 <= h < 9 and i.shape == () and i in x
    assert np.array_equal(np.sort(j), np.arange(9))
    assert l.shape == (5,) and len(set(l)) == 5 and np.all(np.isin(l, x))
    assert o.shape == (2, 3) and len(set(o.ravel())) == 6
    # A generator's draws are independent streams: the permutations differ (of 10! orders).
    assert not np.array_equal(a, c)
    # Determinism: the same seed gives the same values on another run.
    again = run_ok(src, dict(x=x, m=m), tmp_path / "again", target, flags=["--arg", "k=9"])
    for v, w in zip(got, again):
        np.testing.assert_array_equal(v, w)


def test_random_errors(tmp_path):
    """`choice`'s `axis=` other than 0 and a non-literal `replace` are E0503 (`p=` is
    test_numpy_surface7's); an unknown method is E0202 naming the generator as written."""
    head = "fn main(x: f64[n], w: f64[n], r: bool) -> f64[?] {\n    rng = np.random.default_rng(1);\n"
    assert_check_error(head + "    return rng.choice(x, 3, p=w, axis=1);\n}\n", "E0503", "`axis=`", tmp_path)
    assert_check_error(head + "    return rng.choice(x, 3, replace=r);\n}\n", "E0503", "replace", tmp_path)
    assert_check_error("fn main() -> f64 {\n    return np.random.default_rng(1).gamma(2.0);\n}\n", "E0202",
                       "np.random.default_rng(..).gamma", tmp_path)


def test_choice_without_replacement_too_many(tmp_path):
    """`choice(n, size, replace=False)` with `size > n` is NumPy's ValueError: a run-time error."""
    src = "fn main(k: i64) -> i64[?] {\n    rng = np.random.default_rng(1);\n    return rng.choice(5, k, replace=False);\n}\n"
    proc, _ = run_source(src, {}, tmp_path, flags=["--arg", "k=6"])
    assert proc.returncode != 0 and "panicked" not in proc.stderr, proc.stderr


@pytest.mark.parametrize("target", TARGETS)
def test_flat_writes_match_numpy(target, tmp_path):
    """Writes through `x.flat`: an index (negative too), a slice, a step, an index array, `+=`,
    the whole of it, into a 2-d array and through a transposed view (not contiguous: NumPy's
    `flat` writes into the base), as NumPy."""
    m = np.arange(12.0).reshape(3, 4)
    v = np.arange(5.0)
    idx = np.array([0, 5, 11])
    src = """fn main(m: f64[r, c], v: f64[n], idx: i64[k]) -> (f64[r, c], f64[n], f64[r, c], f64[r, c]) {
    a = m.copy();
    a.flat[5] = -1.0;
    a.flat[-1] = -2.0;
    a.flat[1:4] = 7.0;
    a.flat[idx] += 100.0;
    w = v.copy();
    w.flat[::2] = 0.0;
    b = m.copy();
    t = b.T;
    t.flat[1] = 50.0;
    t.flat[6:8] = -5.0;
    z = m.copy();
    z.flat = 3.0;
    return (a, w, b, z);
}
"""
    got = run_ok(src, dict(m=m, v=v, idx=idx), tmp_path, target)
    a = m.copy()
    a.flat[5] = -1.0
    a.flat[-1] = -2.0
    a.flat[1:4] = 7.0
    a.flat[idx] += 100.0
    w = v.copy()
    w.flat[::2] = 0.0
    b = m.copy()
    t = b.T
    t.flat[1] = 50.0
    t.flat[6:8] = -5.0
    z = m.copy()
    z.flat = 3.0
    for k, (g, want) in enumerate(zip(got, [a, w, b, z])):
        assert_same(g, want, f"result {k}")


@pytest.mark.parametrize("target", TARGETS)
def test_transpose_writes_match_numpy(target, tmp_path):
    """Writes through `x.T[..]` (a view of `x`): an element, a row of the transpose (a column of
    `x`), `+=` with broadcasting, a mask."""
    m = np.arange(12.0).reshape(3, 4)
    src = """fn main(m: f64[r, c]) -> (f64[r, c], f64[r, c]) {
    a = m.copy();
    a.T[0, 1] = -1.0;
    a.T[2] = 9.0;
    a.T[1:] += np.arange(3.0);
    b = m.copy();
    b.T[b.T > 6.0] = 0.0;
    return (a, b);
}
"""
    got = run_ok(src, dict(m=m), tmp_path, target)
    a = m.copy()
    a.T[0, 1] = -1.0
    a.T[2] = 9.0
    a.T[1:] += np.arange(3.0)
    b = m.copy()
    b.T[b.T > 6.0] = 0.0
    for k, (g, want) in enumerate(zip(got, [a, b])):
        assert_same(g, want, f"result {k}")


@pytest.mark.parametrize("target", TARGETS)
def test_fromfunction_matches_numpy(target, tmp_path):
    """`np.fromfunction` of a lambda in the call, of a lambda's name and of a function of the
    program; 1-d, 2-d, 3-d, run-time sizes, `dtype=int`, a function of one coordinate only."""
    src = """fn g(i: f64[a, b], j: f64[a, b]) -> f64[a, b] { return i - j; }
fn main(n: i64, m: i64) -> (f64[?, ?], f64[?, ?], i64[?, ?], f64[?, ?], f64[?, ?, ?], f64[?, ?], f64[?]) {
    f = lambda i, j: i + 2 * j;
    return (np.fromfunction(f, (3, 4)), np.fromfunction(lambda i, j: i * j, (n, m)),
            np.fromfunction(lambda i, j: i == j, (3, 3), dtype=int).astype(int),
            np.fromfunction(lambda i, j: i, (2, 3)), np.fromfunction(lambda i, j, k: i + j * k, (2, 3, 4)),
            np.fromfunction(g, shape=(2, 2)), np.fromfunction(lambda i: i ** 2, (n,)));
}
"""
    n, m = np.int64(4), np.int64(5)
    got = run_ok(src, dict(n=n, m=m), tmp_path, target)
    want = [np.fromfunction(lambda i, j: i + 2 * j, (3, 4)), np.fromfunction(lambda i, j: i * j, (n, m)),
            np.fromfunction(lambda i, j: i == j, (3, 3), dtype=int).astype(int),
            np.fromfunction(lambda i, j: i, (2, 3)), np.fromfunction(lambda i, j, k: i + j * k, (2, 3, 4)),
            np.fromfunction(lambda i, j: i - j, (2, 2)), np.fromfunction(lambda i: i ** 2, (n,))]
    for k, (g, w) in enumerate(zip(got, want)):
        assert_same(g, w, f"result {k}")


@pytest.mark.parametrize("target", TARGETS)
def test_resize_unwrap_match_numpy(target, tmp_path):
    """`np.resize` to a larger and a smaller size, 1-d and 2-d targets, a 2-d source; `np.unwrap`
    of a phase with jumps (both signs, exactly `pi` too), 1-d and along the last axis of 2-d."""
    rng = np.random.default_rng(5)
    x = rng.standard_normal(5)
    m = rng.standard_normal((2, 3))
    p = np.cumsum(rng.uniform(-4, 4, 12))
    p[3] = p[2] + np.pi
    q = np.cumsum(rng.uniform(-4, 4, (3, 6)), axis=1)
    src = """fn main(x: f64[n], m: f64[a, b], p: f64[k], q: f64[r, c]) -> (f64[?], f64[?, ?], f64[?], f64[?, ?], f64[?], f64[?, ?]) {
    return (np.resize(x, 12), np.resize(x, (3, 4)), np.resize(x, 3), np.resize(m, (4, 2)), np.unwrap(p), np.unwrap(q));
}
"""
    got = run_ok(src, dict(x=x, m=m, p=p, q=q), tmp_path, target)
    want = [np.resize(x, 12), np.resize(x, (3, 4)), np.resize(x, 3), np.resize(m, (4, 2)), np.unwrap(p), np.unwrap(q)]
    for k, (g, w) in enumerate(zip(got, want)):
        assert_same(g, w, f"result {k}")


def test_flat_write_errors(tmp_path):
    """Another attribute as a target is E0003; an index out of range is NumPy's IndexError at run
    time."""
    assert_check_error("fn main(x: f64[n]) -> f64[n] {\n    x.real[0] = 1.0;\n    return x;\n}\n", "E0003", "real", tmp_path)
    run_fails("fn main(x: f64[n]) -> f64[n] {\n    y = x.copy();\n    y.flat[7] = 1.0;\n    return y;\n}\n",
              dict(x=np.zeros(3)), tmp_path, "")


@pytest.mark.parametrize("target", TARGETS)
def test_matrix_power_of_a_run_time_exponent(target, tmp_path):
    """`linalg.matrix_power(a, k)` with `k` read at run time: NumPy's values for `k` = 0 (the
    identity of `a`'s dtype), 1, 5, 6 (`f64` and `i64` matrices) and negative (the power of the
    inverse), in a loop over `k` too."""
    rng = np.random.default_rng(11)
    a = rng.standard_normal((4, 4)) + 3 * np.eye(4)
    ai = rng.integers(-2, 3, (3, 3))
    src = """fn main(a: f64[n, n], ai: i64[m, m], k: i64, j: i64) -> (f64[n, n], i64[m, m], f64[n, n], f64[n, n], i64[m, m]) {
    let acc = np.zeros((n, n));
    for t in range(k + 1) {
        acc += np.linalg.matrix_power(a, t);
    }
    let z = np.linalg.matrix_power(ai, k - k);
    return (np.linalg.matrix_power(a, k), np.linalg.matrix_power(ai, k), np.linalg.matrix_power(a, j), acc, z);
}
"""
    for k, j in [(5, -2), (6, -1), (1, -3), (0, 0)]:
        got = run_ok(src, dict(a=a, ai=ai), tmp_path / f"k{k}", target, flags=["--arg", f"k={k}", "--arg", f"j={j}"])
        mp = np.linalg.matrix_power
        want = [mp(a, k), mp(ai, k), mp(a, j), sum(mp(a, t) for t in range(k + 1)), mp(ai, 0)]
        for g, w in zip(got[1:2] + got[4:], want[1:2] + want[4:]):
            assert_same(g, w, f"k={k}")
        for g, w in zip(got[0:1] + got[2:4], want[0:1] + want[2:4]):
            g = np.asarray(g)
            assert g.dtype == w.dtype and g.shape == w.shape
            np.testing.assert_allclose(g, w, rtol=1e-10, atol=1e-10)


def test_matrix_power_run_time_errors(tmp_path):
    """A negative run-time power of an integer matrix (a float in NumPy) and a non-square matrix
    are run-time errors; a float exponent is E0301 (NumPy's TypeError)."""
    src = "fn main(a: i64[n, m], k: i64) -> i64[n, m] {\n    return np.linalg.matrix_power(a, k);\n}\n"
    for shape, k, words in [((3, 3), -1, "negative power"), ((2, 3), 2, "square")]:
        proc, _ = run_source(src, dict(a=np.ones(shape, dtype=np.int64)), tmp_path, flags=["--arg", f"k={k}"])
        assert proc.returncode != 0 and words in proc.stderr, proc.stderr
    assert_check_error("fn main(a: f64[n, n], k: f64) -> f64[n, n] {\n    return np.linalg.matrix_power(a, k);\n}\n",
                       "E0301", "", tmp_path)


@pytest.mark.parametrize("target", TARGETS)
def test_histogram2d_matches_numpy(target, tmp_path):
    """`histogram2d` with a count for both axes, a pair of counts, `range=` (values outside it
    left out, values on the last edge in the last bin), edge arrays, an `i64` sample: the counts
    and both edge arrays, as NumPy's."""
    rng = np.random.default_rng(5)
    x = rng.standard_normal(40)
    y = rng.standard_normal(40)
    x[:3] = [1.0, -1.0, 2.5]
    y[:3] = [2.0, -2.0, 0.0]
    xi = rng.integers(0, 6, 40)
    ex = np.array([-2.0, -0.5, 0.0, 1.0, 3.0])
    src = """fn main(x: f64[n], y: f64[n], xi: i64[n], ex: f64[k]) -> (f64[?, ?], f64[?], f64[?], f64[?, ?], f64[?, ?], f64[?], f64[?, ?], f64[?, ?]) {
    let (h, xe, ye) = np.histogram2d(x, y);
    let h2 = np.histogram2d(x, y, bins=(4, 3))[0];
    let (h3, xe3, ye3) = np.histogram2d(x, y, bins=4, range=((-1.0, 1.0), (-2.0, 2.0)));
    let h4 = np.histogram2d(x, y, (ex, 3))[0];
    let h5 = np.histogram2d(xi, y, bins=[6, 2])[0];
    return (h, xe, ye, h2, h3, ye3, h4, h5);
}
"""
    got = run_ok(src, dict(x=x, y=y, xi=xi, ex=ex), tmp_path, target)
    h, xe, ye = np.histogram2d(x, y)
    h3, xe3, ye3 = np.histogram2d(x, y, bins=4, range=((-1.0, 1.0), (-2.0, 2.0)))
    want = [h, xe, ye, np.histogram2d(x, y, bins=(4, 3))[0], h3, ye3, np.histogram2d(x, y, (ex, 3))[0],
            np.histogram2d(xi, y, bins=[6, 2])[0]]
    for k, (g, w) in enumerate(zip(got, want)):
        assert_same(g, w, f"result {k}")


@pytest.mark.parametrize("target", TARGETS)
def test_nanmedian_matches_numpy(target, tmp_path):
    """`nanmedian` over everything and along each axis (by keyword and position, negative,
    `keepdims=True`), with lines of odd and even counts of numbers, a line of NaNs only (NaN, where
    NumPy warns), infinities, `f32` (kept) and `i64` (`f64`) inputs."""
    import warnings

    x = np.array([[1.0, np.nan, 3.0, 2.0, np.inf], [np.nan] * 5, [5.0, 4.0, np.nan, np.nan, -1.0],
                  [0.5, -np.inf, 2.0, 8.0, 1.0]])
    xf = x.astype(np.float32)
    xi = np.array([[3, 1, 2], [9, 7, 8]], dtype=np.int64)
    src = """fn main(x: f64[n, m], xf: f32[n, m], xi: i64[p, q]) -> (f64, f64[m], f64[n], f64[n, 1], f32[n], f64[q], f64) {
    return (np.nanmedian(x), np.nanmedian(x, axis=0), np.nanmedian(x, -1), np.nanmedian(x, axis=1, keepdims=True),
            np.nanmedian(xf, axis=1), np.nanmedian(xi, axis=0), np.nanmedian(xi));
}
"""
    got = run_ok(src, dict(x=x, xf=xf, xi=xi), tmp_path, target)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        want = [np.nanmedian(x), np.nanmedian(x, axis=0), np.nanmedian(x, -1), np.nanmedian(x, axis=1, keepdims=True),
                np.nanmedian(xf, axis=1), np.nanmedian(xi, axis=0), np.nanmedian(xi)]
    for k, (g, w) in enumerate(zip(got, want)):
        assert_same(g, np.asarray(w), f"result {k}")


def test_nanmedian_of_a_tuple_of_axes_names_the_way(tmp_path):
    assert_check_error("fn main(x: f64[n, m]) -> f64 { return np.nanmedian(x, axis=(0, 1)); }", "E0202",
                       "reshape first", tmp_path)

"""Python's call of a call (issue 31; docs/language.md, "Calls of calls", grammar/src/call_of_call.rs)
and NumPy's `np.piecewise` (grammar/src/piecewise.rs), against NumPy run on the same inputs:
`np.vectorize(f)(a, b)` of lambdas (elementwise, branching, of several broadcast arguments,
`otypes=`), of the program's functions that branch and of a name bound to it, `np.poly1d(c)(x)`,
`p.deriv()(x)`, `p.integ()(x)`, `(lambda v: ..)(x)`; on the CPU and on the GPU kernels
(emulated, and the GPU where there is one). The refusals are E0215."""
import numpy as np
import pytest

from arrayc_examples import TARGETS, assert_same, run_fails, run_ok

RNG = np.random.default_rng(41)
X = RNG.standard_normal(9)
Y = RNG.standard_normal(9)
M = RNG.standard_normal((3, 4))
K = RNG.integers(-5, 5, 7)
X32 = RNG.standard_normal(6).astype(np.float32)
INPUTS = dict(x=X, y=Y, m=M, k=K, x32=X32)
SIG = "x: f64[n], y: f64[n], m: f64[r, c], k: i64[j], x32: f32[h]"


def sgn(v):
    if v > 0:
        return 1.0
    else:
        return -v


def clamp(a, c):
    if a > c:
        return c
    return a


FNS = """
fn sgn(v: f64) -> f64 { if v > 0.0 { return 1.0; } else { return -v; } }
fn clamp(a: f64, c: f64) -> f64 { if a > c { return c; } return a; }
"""


@pytest.mark.parametrize("target", TARGETS)
def test_vectorize_matches_numpy(target, tmp_path):
    src = FNS + f"""fn main({SIG}) -> (f64[?], f64[?], f64[?, ?], f64[?], f64[?, ?], i64[?], bool[?], f32[?], f64[?],
        i64[?], f64[?], f64[?], f64[?], f64[?, ?], f64[?], f64[?], f64[?]) {{
    g = np.vectorize(lambda v: v + 1.0);
    sq = lambda v: v * v - 1.0;
    c = 3.0;
    return (np.vectorize(lambda v: v * 2.0 + 1.0)(x), np.vectorize(lambda a, b: a * b - 1.0)(x, y),
            np.vectorize(lambda a, b: a + b)(m, m[0]), np.vectorize(lambda v: v if v > 0 else -v)(x),
            np.vectorize(lambda v: 1.0 if v > 0 else 0.0)(m), np.vectorize(lambda v: v * 3)(k),
            np.vectorize(lambda v: v > 0)(x), np.vectorize(lambda v: v * 2.0)(x32), np.vectorize(lambda v: 1.5)(x),
            np.vectorize(lambda v: v * 2.5, otypes=[np.int64])(x), np.vectorize(lambda v: v * 2, otypes=[float])(k),
            np.vectorize(sq)(x), g(x), np.vectorize(sgn)(m), np.vectorize(clamp)(x, y),
            np.vectorize(lambda v: v * c)(x), np.vectorize(lambda a, b: a if a > b else b)(x, y));
}}
"""
    got = run_ok(src, INPUTS, tmp_path, target)
    x, y, m, k, x32 = X, Y, M, K, X32
    sq = lambda v: v * v - 1.0  # noqa: E731
    c = 3.0
    want = [np.vectorize(lambda v: v * 2.0 + 1.0)(x), np.vectorize(lambda a, b: a * b - 1.0)(x, y),
            np.vectorize(lambda a, b: a + b)(m, m[0]), np.vectorize(lambda v: v if v > 0 else -v)(x),
            np.vectorize(lambda v: 1.0 if v > 0 else 0.0)(m), np.vectorize(lambda v: v * 3)(k),
            np.vectorize(lambda v: v > 0)(x), np.vectorize(lambda v: v * 2.0)(x32), np.vectorize(lambda v: 1.5)(x),
            np.vectorize(lambda v: v * 2.5, otypes=[np.int64])(x), np.vectorize(lambda v: v * 2, otypes=[float])(k),
            np.vectorize(sq)(x), np.vectorize(lambda v: v + 1.0)(x), np.vectorize(sgn)(m), np.vectorize(clamp)(x, y),
            np.vectorize(lambda v: v * c)(x), np.vectorize(lambda a, b: a if a > b else b)(x, y)]
    for i, (g, w) in enumerate(zip(got, want)):
        assert np.asarray(g).dtype == w.dtype and np.asarray(g).shape == w.shape, f"result {i}"
        np.testing.assert_allclose(g, w, rtol=1e-6 if w.dtype == np.float32 else 1e-12, err_msg=f"result {i}")


@pytest.mark.parametrize("target", TARGETS)
def test_vectorize_number_arguments_are_numpy_scalars(target, tmp_path):
    """NumPy converts a Python number argument with `asanyarray`: `f32 * 2` is `f64` there."""
    src = f"""fn main({SIG}) -> (f64[?], f64[?]) {{
    return (np.vectorize(lambda a, b: a * b)(x32, 2), np.vectorize(lambda a, b: a + b)(k, 2.5));
}}
"""
    got = run_ok(src, INPUTS, tmp_path, target)
    want = [np.vectorize(lambda a, b: a * b)(X32, 2), np.vectorize(lambda a, b: a + b)(K, 2.5)]
    for i, (g, w) in enumerate(zip(got, want)):
        assert_same(g, w, f"result {i}")


@pytest.mark.parametrize("target", TARGETS)
def test_poly1d_and_lambda_called_in_place_match_numpy(target, tmp_path):
    t = np.sort(RNG.random(9)) * 10
    src = f"""fn main({SIG}, t: f64[q]) -> (f64[?], f64[?], f64[?], f64[?], f64[?], f64[?], f64[?], f64[?]) {{
    p = np.poly1d([2.0, 1.0, 0.5, -1.0]);
    return (np.poly1d([1.0, -2.0, 3.0])(x), np.poly1d([1, 2, 3])(x), p(x), p.deriv()(x), p.deriv(2)(x),
            np.poly1d([3.0, 2.0, 1.0]).integ()(x), np.poly1d(np.polyfit(t, y, 2))(t), (lambda v: v * 2.0 + 1.0)(y));
}}
"""
    got = run_ok(src, dict(INPUTS, t=t), tmp_path, target)
    x, y = X, Y
    p = np.poly1d([2.0, 1.0, 0.5, -1.0])
    want = [np.poly1d([1.0, -2.0, 3.0])(x), np.poly1d([1, 2, 3])(x), p(x), p.deriv()(x), p.deriv(2)(x),
            np.poly1d([3.0, 2.0, 1.0]).integ()(x), np.poly1d(np.polyfit(t, y, 2))(t), y * 2.0 + 1.0]
    for i, (g, w) in enumerate(zip(got, want)):
        assert np.asarray(g).dtype == w.dtype and np.asarray(g).shape == w.shape, f"result {i}"
        np.testing.assert_allclose(g, w, rtol=1e-9, atol=1e-12, err_msg=f"result {i}")


@pytest.mark.parametrize("target", TARGETS)
def test_piecewise_matches_numpy(target, tmp_path):
    src = f"""fn main({SIG}) -> (f64[?], f64[?], f64[?], f64[?], i64[?], f64[?, ?], i64[?], f32[?], f64[?]) {{
    return (np.piecewise(x, [x < 0, x >= 0], [lambda v: -v, lambda v: v]), np.piecewise(x, [x < 0, x > 1], [-1.0, 1.0]),
            np.piecewise(x, [x < 0], [lambda v: -v, lambda v: v * 2]), np.piecewise(x, [x < 1, x < 0], [1.0, 2.0]),
            np.piecewise(k, [k < 0, k > 2], [lambda v: -v, 7]), np.piecewise(m, [m < 0], [0.0, lambda v: v ** 2]),
            np.piecewise(k, [k < 0], [lambda v: v * 0.5, 1]), np.piecewise(x32, [x32 < 0], [lambda v: v * 2.0, 5.0]),
            np.piecewise(x, x < 0, [lambda v: np.sqrt(np.abs(v)), lambda v: np.exp(-v)]));
}}
"""
    got = run_ok(src, INPUTS, tmp_path, target)
    x, m, k, x32 = X, M, K, X32
    want = [np.piecewise(x, [x < 0, x >= 0], [lambda v: -v, lambda v: v]), np.piecewise(x, [x < 0, x > 1], [-1.0, 1.0]),
            np.piecewise(x, [x < 0], [lambda v: -v, lambda v: v * 2]), np.piecewise(x, [x < 1, x < 0], [1.0, 2.0]),
            np.piecewise(k, [k < 0, k > 2], [lambda v: -v, 7]), np.piecewise(m, [m < 0], [0.0, lambda v: v ** 2]),
            np.piecewise(k, [k < 0], [lambda v: v * 0.5, 1]), np.piecewise(x32, [x32 < 0], [lambda v: v * 2.0, 5.0]),
            np.piecewise(x, x < 0, [lambda v: np.sqrt(np.abs(v)), lambda v: np.exp(-v)])]
    for i, (g, w) in enumerate(zip(got, want)):
        assert np.asarray(g).dtype == w.dtype and np.asarray(g).shape == w.shape, f"result {i}"
        np.testing.assert_allclose(g, w, rtol=1e-6 if w.dtype == np.float32 else 1e-12, err_msg=f"result {i}")


@pytest.mark.parametrize("body, words", [
    # NumPy's dtype would be the first element's result's: int64 where x[0] > 0.
    ("return np.vectorize(lambda v: 1 if v > 0 else v * 0.5)(x);", "E0215"),
    ("return np.vectorize(lambda v: v, signature='()->()')(x);", "E0215"),
    ("return np.frompyfunc(lambda v: v, 1, 1)(x);", "E0215"),
    ("p = np.poly1d([1.0, 2.0]); return p * 2.0;", "E0215"),
    ("return np.sum(x)(y);", "E0215"),
])
def test_calls_of_calls_arrayc_cannot_do_are_refused(body, words, tmp_path):
    run_fails(f"fn main({SIG}) -> f64[?] {{ {body} }}\n", INPUTS, tmp_path, words)


@pytest.mark.parametrize("target", TARGETS)
def test_slice_objects_match_numpy(target, tmp_path):
    """Slice objects bound to names (grammar/src/slice_objects.rs): `slice(..)`, a tuple of them,
    `np.s_[..]`, `np.index_exp[..]`, in reads and writes, also in a loop's body."""
    t3 = RNG.standard_normal((2, 3, 4))
    src = f"""fn main({SIG}, t3: f64[a, b, d]) -> (f64[?], f64[?, ?], f64[?], f64[?, ?], f64[?], f64[?, ?], f64[?, ?],
        f64[?, ?], f64[?, ?], f64[?], f64[?, ?]) {{
    sl = slice(1, -1);
    ev = slice(None, None, 2);
    idx = (slice(None), 0);
    r = slice(1, 3);
    c = slice(0, 4, 2);
    s2 = np.s_[1:, :3];
    e0 = np.s_[..., 0];
    z = x.copy();
    z[r] = 0.0;
    w = m.copy();
    for i in range(2) {{
        w[i, c] = -1.0;
    }}
    return (x[sl], m[ev], m[idx], m[r, c], x[np.s_[1:3]], m[np.s_[:, ::2]], m[s2], m[np.index_exp[1:3]], t3[e0], z, w);
}}
"""
    got = run_ok(src, dict(INPUTS, t3=t3), tmp_path, target)
    x, m = X, M
    sl, ev, idx, r, c = slice(1, -1), slice(None, None, 2), (slice(None), 0), slice(1, 3), slice(0, 4, 2)
    z = x.copy()
    z[r] = 0.0
    w = m.copy()
    for i in range(2):
        w[i, c] = -1.0
    want = [x[sl], m[ev], m[idx], m[r, c], x[np.s_[1:3]], m[np.s_[:, ::2]], m[np.s_[1:, :3]], m[np.index_exp[1:3]],
            t3[np.s_[..., 0]], z, w]
    for i, (g, w_) in enumerate(zip(got, want)):
        assert_same(g, w_, f"result {i}")


@pytest.mark.parametrize("body", [
    "sl = slice(1, 3); n = len(sl); return x;",
    "idx = (slice(None), 0); return m[idx, 1];",
])
def test_slice_objects_used_as_values_are_refused(body, tmp_path):
    run_fails(f"fn main({SIG}) -> f64[?] {{ {body} }}\n", INPUTS, tmp_path, "E0329")

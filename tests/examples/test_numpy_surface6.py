"""NumPy's everyday idioms of issue 31, sixth set, against NumPy (docs/language.md, "Builtin
functions"): `percentile`/`quantile` with each of NumPy's thirteen `method=`s, and
`nanpercentile`/`nanquantile` (lines of NaNs, `axis=`, a 1-d `q`); on the CPU and on the GPU
kernels (emulated, and the GPU where there is one)."""
import numpy as np
import pytest

from arrayc_examples import TARGETS, assert_check_error, assert_same, run_fails, run_ok

METHODS = ["inverted_cdf", "averaged_inverted_cdf", "closest_observation", "interpolated_inverted_cdf", "hazen",
           "weibull", "linear", "median_unbiased", "normal_unbiased", "lower", "higher", "midpoint", "nearest"]
TAKES = ["inverted_cdf", "closest_observation", "lower", "higher", "nearest"]


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("method", METHODS)
def test_quantile_methods_match_numpy(target, method, tmp_path):
    """Each method on f64 data with ties and infinities (a 1-d `q` of every region: 0, tiny, the
    halves NumPy's `nearest` rounds to even, 1), along either axis and flattened; an `i64` array
    (the methods that take an element keep `i64`); `f32` with a scalar `q` (stays `f32`) and with
    an `f32` array `q`; `percentile` of a scalar; a line holding a NaN is NaN."""
    rng = np.random.default_rng(11)
    m = np.round(rng.standard_normal((5, 8)), 1)
    m[1, 2] = m[1, 3]
    m[3, 0] = np.inf
    m[4, 5] = np.nan
    xi = rng.integers(-50, 50, 9)
    x32 = rng.standard_normal(7).astype(np.float32)
    q = np.array([0.0, 0.01, 0.125, 0.25, 0.375, 0.5, 0.6, 0.875, 0.99, 1.0])
    q32 = q.astype(np.float32)
    it = "i64" if method in TAKES else "f64"
    src = f"""fn main(m: f64[r, c], xi: i64[n], x32: f32[k], q: f64[p], q32: f32[p]) ->
        (f64[p, r], f64[p, c], f64[p], {it}[p], f32, f32[p], {it}, f64[r]) {{
    return (np.quantile(m, q, axis=1, method="{method}"), np.quantile(m, q, axis=0, method="{method}"),
            np.quantile(m[0:4], q, method="{method}"), np.quantile(xi, q, method="{method}"),
            np.percentile(x32, 30, method="{method}"), np.quantile(x32, q32, method="{method}"),
            np.percentile(xi, 37.5, method="{method}"), np.percentile(m, 90, axis=1, method="{method}"));
}}
"""
    got = run_ok(src, dict(m=m, xi=xi, x32=x32, q=q, q32=q32), tmp_path, target)
    want = [np.quantile(m, q, axis=1, method=method), np.quantile(m, q, axis=0, method=method),
            np.quantile(m[0:4], q, method=method), np.quantile(xi, q, method=method),
            np.percentile(x32, 30, method=method), np.quantile(x32, q32, method=method),
            np.percentile(xi, 37.5, method=method), np.percentile(m, 90, axis=1, method=method)]
    for k, (g, w) in enumerate(zip(got, want)):
        assert_same(g, w, f"{method}: result {k}")


@pytest.mark.parametrize("target", TARGETS)
def test_nanquantile_matches_numpy(target, tmp_path):
    """`nanpercentile`/`nanquantile` of a 3-d array along each axis (lines with NaNs, one of NaNs
    only: NaN), flattened, of a 1-d array, with a 1-d `q` leading, with `method=`; of integers
    (`quantile` itself) and of `f32`."""
    rng = np.random.default_rng(5)
    a = rng.standard_normal((3, 4, 6))
    a[rng.random(a.shape) < 0.3] = np.nan
    a[1, 2, :] = np.nan
    a[0, :, 3] = np.nan
    x = a[0, 0].copy()
    xi = rng.integers(-9, 9, 6)
    x32 = a[2, 1].astype(np.float32)
    q = np.array([0.1, 0.5, 0.95])
    src = """fn main(a: f64[s, r, c], x: f64[c], xi: i64[c], x32: f32[c], q: f64[p]) ->
        (f64[s, r], f64[s, c], f64[r, c], f64[p, s, c], f64, f64[p], i64[p], f32, f64[s, r], f64[2, s, r]) {
    return (np.nanpercentile(a, 40, axis=2), np.nanquantile(a, 0.3, axis=1), np.nanmedian(a, axis=0) * 0.0 + np.nanpercentile(a, 50, axis=0),
            np.nanquantile(a, q, axis=1), np.nanpercentile(a, 75), np.nanquantile(x, q),
            np.nanquantile(xi, q, method="nearest"), np.nanpercentile(x32, 60),
            np.nanquantile(a, 0.7, axis=-1, method="lower"), np.nanpercentile(a, [5.0, 50.0], axis=2, method="hazen"));
}
"""
    got = run_ok(src, dict(a=a, x=x, xi=xi, x32=x32, q=q), tmp_path, target)
    with np.testing.suppress_warnings() as sup:
        sup.filter(RuntimeWarning)
        want = [np.nanpercentile(a, 40, axis=2), np.nanquantile(a, 0.3, axis=1),
                np.nanmedian(a, axis=0) * 0.0 + np.nanpercentile(a, 50, axis=0),
                np.nanquantile(a, q, axis=1), np.nanpercentile(a, 75), np.nanquantile(x, q),
                np.nanquantile(xi, q, method="nearest"), np.nanpercentile(x32, 60),
                np.nanquantile(a, 0.7, axis=-1, method="lower"), np.nanpercentile(a, [5.0, 50.0], axis=2, method="hazen")]
    for k, (g, w) in enumerate(zip(got, want)):
        assert_same(g, w, f"result {k}")


def test_quantile_errors(tmp_path):
    """A method NumPy does not have is E0503 naming NumPy's methods; a `q` out of range is a
    run-time error naming NumPy's ValueError."""
    src = "fn main(x: f64[n]) -> f64 {\n    return np.percentile(x, 50, method=\"closest\");\n}\n"
    assert_check_error(src, "E0503", "not one of NumPy's methods", tmp_path)
    src = "fn main(x: f64[n]) -> f64 {\n    return np.nanpercentile(x, 101, method=\"lower\");\n}\n"
    run_fails(src, dict(x=np.ones(4)), tmp_path / "q", "Percentiles must be in the range [0, 100]")


@pytest.mark.parametrize("target", TARGETS)
def test_average_weights_along_axis_and_returned(target, tmp_path):
    """`average` with NumPy's 1-d weights along `axis=k` (first, last, middle of a 3-d array,
    negative axis, `i64` data with `f32` weights: `f64`), and `returned=true`: the sum of the
    weights of the average's shape (without weights the count averaged, of its dtype)."""
    rng = np.random.default_rng(3)
    m = rng.standard_normal((4, 5))
    a = rng.standard_normal((3, 4, 5))
    mi = rng.integers(-9, 9, (4, 5))
    w5 = rng.uniform(0.1, 1, 5)
    w4 = rng.uniform(0.1, 1, 4)
    w32 = w5.astype(np.float32)
    m32 = m.astype(np.float32)
    src = """fn main(m: f64[r, c], a: f64[s, r, c], mi: i64[r, c], w5: f64[c], w4: f64[r], w32: f32[c], m32: f32[r, c]) ->
        (f64[r], f64[c], f64[s, c], f64[s, r], f64[r], f64[r], f64[r], f64, f64, f32[c], f32[c], f64[s, c], f64[s, c]) {
    let (avg, sw) = np.average(m, axis=1, weights=w5, returned=true);
    let (t, ts) = np.average(m, weights=m * 0.0 + 2.0, returned=true);
    let (u, us) = np.average(m32, axis=0, returned=true);
    let (v, vs) = np.average(a, axis=1, weights=w4, returned=true);
    return (np.average(m, axis=-1, weights=w5), np.average(m, axis=0, weights=w4), v,
            np.average(a, axis=2, weights=w5), np.average(mi, axis=1, weights=w32), avg, sw, t, ts, u, us, vs,
            np.average(a, axis=1, weights=w4, returned=false));
}
"""
    got = run_ok(src, dict(m=m, a=a, mi=mi, w5=w5, w4=w4, w32=w32, m32=m32), tmp_path, target)
    avg, sw = np.average(m, axis=1, weights=w5, returned=True)
    t, ts = np.average(m, weights=m * 0.0 + 2.0, returned=True)
    u, us = np.average(m32, axis=0, returned=True)
    v, vs = np.average(a, axis=1, weights=w4, returned=True)
    want = [np.average(m, axis=-1, weights=w5), np.average(m, axis=0, weights=w4), v, np.average(a, axis=2, weights=w5),
            np.average(mi, axis=1, weights=w32), avg, sw, t, ts, u, us, vs, np.average(a, axis=1, weights=w4)]
    for k, (g, w) in enumerate(zip(got, want)):
        np.testing.assert_allclose(g, w, rtol=1e-14, err_msg=f"result {k}")
        assert np.asarray(g).dtype == np.asarray(w).dtype and np.shape(g) == np.shape(w), f"result {k}"


def test_average_weights_errors(tmp_path):
    """1-d weights of another size than `x.shape[k]` (known), or without `axis=`, are E0503
    (NumPy's ValueError / TypeError); sizes known only at run time are checked then, naming the
    line (a size-1 `w` would otherwise broadcast)."""
    for call in ["np.average(np.ones((4, 5)), axis=0, weights=np.ones(5))", "np.average(m, weights=w)"]:
        src = f"fn main(m: f64[r, c], w: f64[c]) -> f64 {{\n    let a = {call};\n    return 0.0;\n}}\n"
        assert_check_error(src, "E0503", "weights", tmp_path)
    src = "fn main(m: f64[r, c], w: f64[k]) -> f64[?] {\n    return np.average(m, axis=0, weights=w);\n}\n"
    for w in (np.ones(5), np.ones(1)):
        run_fails(src, dict(m=np.ones((4, 5)), w=w), tmp_path, "Length of weights not compatible")
    assert_same(run_ok(src, dict(m=np.arange(20.0).reshape(4, 5), w=np.arange(1.0, 5.0)), tmp_path)[0],
                np.average(np.arange(20.0).reshape(4, 5), axis=0, weights=np.arange(1.0, 5.0)), "run-time sizes")


@pytest.mark.parametrize("target", TARGETS)
def test_vecdot_and_math_isclose_match_numpy(target, tmp_path):
    """`np.vecdot` of 2-d with 1-d (broadcast), 1-d with 1-d (a scalar), along `axis=0`, of
    `i32` (stays `i32`) and `np.linalg.vecdot`; `math.isclose` with its defaults and keywords, of
    equal infinities, an infinity and a number, NaN, and ints, as Python's."""
    rng = np.random.default_rng(8)
    m = rng.standard_normal((4, 5))
    w = rng.standard_normal(5)
    mi = rng.integers(-100, 100, (3, 4)).astype(np.int32)
    s = np.array([1.0, 1.0 + 1e-10, np.inf, np.nan, 0.0, 1e-9, 100.0, 100.5])
    src = """fn main(m: f64[r, c], w: f64[c], mi: i32[a, b], s: f64[k]) ->
        (f64[r], f64, f64[c], i32[a], f64[r], bool, bool, bool, bool, bool, bool, bool, bool, bool) {
    return (np.vecdot(m, w), np.vecdot(w, w), np.vecdot(m, m, axis=0), np.vecdot(mi, mi), np.linalg.vecdot(m, w),
            math.isclose(s[0], s[1]), math.isclose(s[0], s[1], rel_tol=1e-12), math.isclose(s[2], s[2]),
            math.isclose(s[2], s[6]), math.isclose(s[3], s[3]), math.isclose(s[4], s[5]),
            math.isclose(s[4], s[5], abs_tol=1e-8), math.isclose(s[6], s[7], rel_tol=0.01), math.isclose(3, 3));
}
"""
    got = run_ok(src, dict(m=m, w=w, mi=mi, s=s), tmp_path, target)
    import math
    want = [np.vecdot(m, w), np.vecdot(w, w), np.vecdot(m, m, axis=0), np.vecdot(mi, mi), np.linalg.vecdot(m, w)]
    for k, (g, v) in enumerate(zip(got[:5], want)):
        np.testing.assert_allclose(g, v, rtol=1e-13, err_msg=f"result {k}")
        assert np.asarray(g).dtype == v.dtype and np.shape(g) == np.shape(v), f"result {k}"
    close = [math.isclose(s[0], s[1]), math.isclose(s[0], s[1], rel_tol=1e-12), math.isclose(s[2], s[2]),
             math.isclose(s[2], s[6]), math.isclose(s[3], s[3]), math.isclose(s[4], s[5]),
             math.isclose(s[4], s[5], abs_tol=1e-8), math.isclose(s[6], s[7], rel_tol=0.01), math.isclose(3, 3)]
    assert [bool(g) for g in got[5:]] == close


@pytest.mark.parametrize("target", TARGETS)
def test_quantile_keepdims_matches_numpy(target, tmp_path):
    """`keepdims=true` of `percentile`, `quantile`, `nanpercentile`, `nanquantile`: the reduced
    axes kept with size 1, after the quantiles' axis of a 1-d `q`; of every axis too."""
    rng = np.random.default_rng(2)
    a = rng.standard_normal((3, 4, 5))
    a[1, 2, :] = np.nan
    a[0, 0, 1] = np.nan
    m = rng.standard_normal((4, 5))
    q = np.array([0.2, 0.5, 0.9])
    src = """fn main(a: f64[s, r, c], m: f64[r, c], q: f64[p]) ->
        (f64[1, c], f64[p, 1, 1], f64[s, 1, c], f64[p, s, r, 1], f64[1, 1, 1], f64[p, 1, c]) {
    return (np.percentile(m, 40, axis=0, keepdims=true), np.quantile(m, q, keepdims=true),
            np.nanpercentile(a, 30, axis=1, keepdims=true), np.nanquantile(a, q, axis=-1, keepdims=true, method="weibull"),
            np.nanquantile(a, 0.5, keepdims=true), np.quantile(m, q, axis=0, keepdims=true, method="nearest"));
}
"""
    got = run_ok(src, dict(a=a, m=m, q=q), tmp_path, target)
    with np.testing.suppress_warnings() as sup:
        sup.filter(RuntimeWarning)
        want = [np.percentile(m, 40, axis=0, keepdims=True), np.quantile(m, q, keepdims=True),
                np.nanpercentile(a, 30, axis=1, keepdims=True), np.nanquantile(a, q, axis=-1, keepdims=True, method="weibull"),
                np.nanquantile(a, 0.5, keepdims=True), np.quantile(m, q, axis=0, keepdims=True, method="nearest")]
    for k, (g, w) in enumerate(zip(got, want)):
        assert_same(g, w, f"result {k}")

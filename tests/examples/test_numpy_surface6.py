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

"""NumPy's everyday idioms of issue 31, third set, against NumPy (docs/language.md, "Builtin
functions" and "Other spellings of builtins"): `vsplit`/`hsplit` (views, sections, errors), the
window functions `hanning`/`hamming`/`blackman`/`bartlett` (literal and run-time sizes, 0 and 1
points), `nanvar`/`nanstd` (`axis=`, `ddof=`, `keepdims=`, all-NaN rows, infinities, `f32`,
integers), on the CPU and on the GPU kernels (emulated, and the GPU where there is one)."""
import warnings

import numpy as np
import pytest

from arrayc_examples import TARGETS, assert_check_error, run_source


def run_ok(src, inputs, tmp_path, target, flags=()):
    proc, got = run_source(src, inputs, tmp_path, flags=["--target", target, *flags])
    assert proc.returncode == 0, f"{src}\n{proc.stderr}"
    return got


def assert_close(got, want, what, rtol=1e-12):
    """`got` has NumPy's dtype and shape, and its values within `rtol` (NaN where NumPy's)."""
    got, want = np.asarray(got), np.asarray(want)
    assert got.dtype == want.dtype and got.shape == want.shape, f"{what}: {got.dtype}{got.shape}, NumPy {want.dtype}{want.shape}"
    np.testing.assert_allclose(got, want, rtol=rtol, atol=0, equal_nan=True, err_msg=what)


@pytest.mark.parametrize("target", TARGETS)
def test_vsplit_hsplit_match_numpy(target, tmp_path):
    """`vsplit` along axis 0, `hsplit` along axis 1 (of a 1-d array, axis 0; of a 3-d array, axis 1),
    by a count and by split points; the sections are views (a write reaches the argument)."""
    src = """fn main(m: f64[r, c], v: i64[n], t: f64[a, b, d]) -> (f64[?, ?], f64[?, ?], f64[?, ?], f64[?, ?],
        i64[?], f64[?, ?, ?], f64[?, ?], f64[?, ?, ?], f64[r, c]) {
    let (top, bottom) = np.vsplit(m, 2);
    let parts = np.hsplit(m, 3);
    parts[1][0, 0] = 100.0;
    return (top, bottom, parts[1], np.hsplit(m, [1, 4])[2], np.hsplit(v, 4)[3], np.hsplit(t, 2)[1],
            np.vsplit(m, [1])[1], np.vsplit(t, [1, 2])[0], m);
}
"""
    rng = np.random.default_rng(1)
    m, v, t = rng.standard_normal((4, 6)), rng.integers(-9, 9, 8), rng.standard_normal((2, 4, 3))
    got = run_ok(src, {"m": m, "v": v, "t": t}, tmp_path, target)
    mm = m.copy()
    parts = np.hsplit(mm, 3)
    parts[1][0, 0] = 100.0
    top, bottom = np.vsplit(mm, 2)
    want = [top, bottom, parts[1], np.hsplit(mm, [1, 4])[2], np.hsplit(v, 4)[3], np.hsplit(t, 2)[1],
            np.vsplit(mm, [1])[1], np.vsplit(t, [1, 2])[0], mm]
    for i, (g, w) in enumerate(zip(got, want)):
        assert_close(g, w, f"result {i}", rtol=0)


def test_vsplit_hsplit_errors_match_numpy(tmp_path):
    """NumPy's ValueErrors: `vsplit` of a 1-d array, an unequal division of a known size."""
    assert_check_error("fn main(v: f64[6]) -> f64[3] {\n    return np.vsplit(v, 2)[0];\n}\n",
                       "E0405", "2 or more dimensions", tmp_path)
    with pytest.raises(ValueError):
        np.vsplit(np.zeros(6), 2)
    assert_check_error("fn main(m: f64[2, 5]) -> f64[2, ?] {\n    return np.hsplit(m, 2)[0];\n}\n",
                       "E0503", "equal division", tmp_path)
    with pytest.raises(ValueError):
        np.hsplit(np.zeros((2, 5)), 2)


WINDOWS = ["hanning", "hamming", "blackman", "bartlett"]


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("w", WINDOWS)
def test_windows_match_numpy(w, target, tmp_path):
    """Literal sizes (odd, even, 1, 0) and run-time sizes (including 1, 0 and negative)."""
    src = f"""fn main(k: i64) -> (f64[?], f64[?], f64[?], f64[?], f64[?]) {{
    return (np.{w}(7), np.{w}(8), np.{w}(1), np.{w}(0), np.{w}(k));
}}
"""
    for k in [12, 5, 2, 1, 0, -3]:
        got = run_ok(src, {}, tmp_path / str(k), target, ["--arg", f"k={k}"])
        f = getattr(np, w)
        for i, (g, m) in enumerate(zip(got, [7, 8, 1, 0, k])):
            assert_close(g, f(m), f"{w}({m}) (result {i})", rtol=1e-14)


def nan_data(dtype):
    rng = np.random.default_rng(7)
    x = rng.standard_normal((4, 5)).astype(dtype)
    x[0, 1] = x[2, 2] = x[2, 4] = np.nan
    x[3, :] = np.nan  # an all-NaN row
    x[1, 3] = np.inf  # an infinity: its deviation is NaN (inf - inf), as NumPy's
    return x


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("dt", ["f64", "f32"])
def test_nanvar_nanstd_match_numpy(dt, target, tmp_path):
    """Every axis, `ddof=`, `keepdims=`, an axis by position and a tuple of axes; NaN where the
    count less `ddof` is not positive; `f32` stays `f32`."""
    src = f"""fn main(x: {dt}[r, c], y: {dt}[r, c]) -> ({dt}, {dt}, {dt}[?], {dt}[?], {dt}[?], {dt}[?, ?], {dt}[?],
        {dt}, {dt}[?], {dt}) {{
    return (np.nanvar(y), np.nanstd(y, ddof=1), np.nanvar(x, axis=0), np.nanstd(x, axis=1),
            np.nanvar(x, 1, ddof=1), np.nanvar(x, axis=1, keepdims=True), np.nanstd(x, axis=0, ddof=2),
            np.nanvar(x), np.nanvar(x, axis=-1, ddof=4), np.nanstd(x, axis=(0, 1)));
}}
"""
    x = nan_data(np.dtype(dt.replace("f", "float")))
    y = np.where(np.isinf(x), 1, x).astype(x.dtype)
    got = run_ok(src, {"x": x, "y": y}, tmp_path, target)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        want = [np.nanvar(y), np.nanstd(y, ddof=1), np.nanvar(x, axis=0), np.nanstd(x, axis=1),
                np.nanvar(x, 1, ddof=1), np.nanvar(x, axis=1, keepdims=True), np.nanstd(x, axis=0, ddof=2),
                np.nanvar(x), np.nanvar(x, axis=-1, ddof=4), np.nanstd(x, axis=(0, 1))]
    rtol = 1e-5 if dt == "f32" else 1e-12
    for i, (g, w) in enumerate(zip(got, want)):
        assert_close(g, w, f"result {i}", rtol=rtol)


@pytest.mark.parametrize("target", TARGETS)
def test_nanvar_of_integers_matches_numpy(target, tmp_path):
    """Of integers (no NaNs), NumPy's `var` in `f64`."""
    src = """fn main(v: i64[n], m: i32[r, c]) -> (f64, f64[?], f64) {
    return (np.nanvar(v), np.nanstd(m, axis=0), np.nanvar(m, ddof=1));
}
"""
    rng = np.random.default_rng(2)
    v, m = rng.integers(-50, 50, 9), rng.integers(-5, 5, (3, 4)).astype(np.int32)
    got = run_ok(src, {"v": v, "m": m}, tmp_path, target)
    want = [np.nanvar(v), np.nanstd(m, axis=0), np.nanvar(m, ddof=1)]
    for i, (g, w) in enumerate(zip(got, want)):
        assert_close(g, w, f"result {i}")


@pytest.mark.parametrize("target", TARGETS)
def test_diag_indices_and_indices_match_numpy(target, tmp_path):
    """`diag_indices` as an index (a gather and a scatter), bound by `let`, of 3 dimensions;
    `indices` of literal and run-time sizes; a tuple literal as the whole index."""
    src = """fn main(m: f64[r, c], t: f64[a, a, a], n: i64) -> (f64[?], i64[?], f64[?], i64[?, ?, ?], i64[?, ?],
        i64[?, ?, ?, ?], f64[r, c], f64[?]) {
    let (i, j) = np.diag_indices(n);
    m[np.diag_indices(2)] = -1.0;
    return (m[np.diag_indices(n)], j, t[np.diag_indices(2, ndim=3)], np.indices((2, n)), np.indices((n,)),
            np.indices([2, 1, 3]), m, m[(i, j)]);
}
"""
    rng = np.random.default_rng(4)
    m, t, n = rng.standard_normal((3, 4)), rng.standard_normal((2, 2, 2)), 3
    got = run_ok(src, {"m": m, "t": t}, tmp_path, target, ["--arg", f"n={n}"])
    mm = m.copy()
    i, j = np.diag_indices(n)
    mm[np.diag_indices(2)] = -1.0
    want = [mm[np.diag_indices(n)], j, t[np.diag_indices(2, ndim=3)], np.indices((2, n)), np.indices((n,)),
            np.indices([2, 1, 3]), mm, mm[(i, j)]]
    for k, (g, w) in enumerate(zip(got, want)):
        assert_close(g, w, f"result {k}", rtol=0)


SLIDING = """fn main(x: f64[N], m: f64[A, B, C], g: f64[H, W], w: i64) -> (f64[?, ?], f64[?, ?], f64[?, ?, ?, ?], f64[?, ?, ?, ?], f64[?, ?, ?, ?], f64[?], f64[?, ?]) {
    a = np.lib.stride_tricks.sliding_window_view(x, w);
    b = sliding_window_view(x, (3,));
    c = np.lib.stride_tricks.sliding_window_view(m, 2, axis=1);
    d = np.lib.stride_tricks.sliding_window_view(m, 2, axis=-1);
    e = np.lib.stride_tricks.sliding_window_view(g, (2, 3));
    f = np.lib.stride_tricks.sliding_window_view(x, 4).max(axis=1);
    z = np.lib.stride_tricks.sliding_window_view(x, 0);
    return a, b, c, d, e, f, z;
}
"""


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("w", [1, 3, 7])
def test_sliding_window_view_matches_numpy(w, target, tmp_path):
    """NumPy's `np.lib.stride_tricks.sliding_window_view` (a view there, the same values gathered
    here): 1-d windows, `(w,)`, along an axis of a 3-d array (positive and negative), 2-d windows,
    a reduction over the windows, zero-sized windows; `w` equal to the length too."""
    from numpy.lib.stride_tricks import sliding_window_view as swv
    rng = np.random.default_rng(w)
    x, m, g = rng.standard_normal(7), rng.standard_normal((2, 4, 3)), rng.standard_normal((4, 5))
    proc, res = run_source(SLIDING, {"x": x, "m": m, "g": g}, tmp_path, flags=("--target", target, "--arg", f"w={w}"))
    assert proc.returncode == 0, proc.stderr
    want = [swv(x, w), swv(x, (3,)), swv(m, 2, axis=1), swv(m, 2, axis=-1), swv(g, (2, 3)), swv(x, 4).max(axis=1),
            swv(x, 0)]
    for got, want in zip(res, want):
        assert got.shape == want.shape and got.dtype == want.dtype
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("w,words", [(8, "out of bounds"), (-1, "negative")])
def test_sliding_window_view_of_a_bad_size_is_a_run_time_error(w, words, tmp_path):
    """NumPy raises ValueError for a window larger than the array or negative; arrayc stops with
    an error naming the line (a gather past the end, the size of `ones`)."""
    src = "fn main(x: f64[N], w: i64) -> f64[?, ?] {\n    return np.lib.stride_tricks.sliding_window_view(x, w);\n}\n"
    proc, _ = run_source(src, {"x": np.zeros(7)}, tmp_path, flags=("--arg", f"w={w}"))
    assert proc.returncode != 0 and ":2:" in proc.stderr and words in proc.stderr, proc.stderr
    assert "panicked" not in proc.stderr


def test_sliding_window_view_of_2d_needs_a_size_per_axis(tmp_path):
    """NumPy: "Since axis is `None`, must provide window_shape for all dimensions of `x`"."""
    src = "fn main(g: f64[H, W]) -> f64[?, ?, ?] {\n    return np.lib.stride_tricks.sliding_window_view(g, 2);\n}\n"
    assert_check_error(src, "E0405", "axis", tmp_path)


@pytest.mark.parametrize("target", TARGETS)
def test_lexsort_matches_numpy(target, tmp_path):
    """NumPy's `lexsort` of 2, 3 and 4 keys (tuple and list), with ties and NaN (sorted last):
    the last key first, remaining ties in their order."""
    rng = np.random.default_rng(11)
    a, b, c = (rng.integers(0, 3, 40).astype(np.float64) for _ in range(3))
    b[[3, 17]] = np.nan
    d = rng.integers(0, 2, 40)
    src = """fn main(a: f64[N], b: f64[N], c: f64[N], d: i64[N]) -> (i64[N], i64[N], i64[N], i64[N]) {
    return np.lexsort((a, b)), np.lexsort([c, a, b]), np.lexsort((d, c, b, a)), lexsort((a,));
}
"""
    proc, res = run_source(src, {"a": a, "b": b, "c": c, "d": d}, tmp_path, flags=("--target", target))
    assert proc.returncode == 0, proc.stderr
    want = [np.lexsort((a, b)), np.lexsort([c, a, b]), np.lexsort((d, c, b, a)), np.lexsort((a,))]
    for got, w in zip(res, want):
        np.testing.assert_array_equal(got, w)


def test_lexsort_of_a_2d_array_names_the_arrayc_way(tmp_path):
    src = "fn main(k: f64[2, N]) -> i64[N] {\n    return np.lexsort(k);\n}\n"
    assert_check_error(src, "E0202", "lexsort((a[0], a[1]))", tmp_path)

"""NumPy's everyday functions composed of arrayc's operations against NumPy (docs/language.md,
"Builtin functions"): `diff`, `outer`, `eye`, `identity`, the views `swapaxes` and `moveaxis`,
`trace`, the NaN-ignoring reductions `nansum`, `nanmax`, `nanmin`, `nanmean`, `median` and
`linalg.norm` (also spelled `np.linalg.norm`), `isclose`, `allclose`, `ptp`, `average`, `flatnonzero`,
`argwhere`, `unique`, `searchsorted`, `percentile`, `quantile` and `nonzero`, and NumPy's everyday idioms
`digitize`, `interp`, `histogram`, `triu_indices`, `tril_indices`, `ix_` (issue 31), on several dtypes and shapes (empty ones and sizes known only at
run time), on the CPU and on the GPU kernels (emulated, and the GPU where there is one). Then the
checker's errors, each naming the place, and the run time's."""
import warnings

import numpy as np
import pytest

from arrayc_examples import DTYPES, TARGETS, assert_check_error, assert_run_time_error, run_source, sum_dtype

# (arrayc expression, NumPy function of the inputs, arrayc result type): `a` is `T[n, m]`, `c` is
# `T[n, m, k]`, `v` is `T[n]`. In the types, T is the input's dtype, S `sum`'s and F `mean`'s.
CASES = [
    ("diff(a)", lambda a, c, v: np.diff(a), "T[n, ?]"),
    ("diff(a, 2, axis=0)", lambda a, c, v: np.diff(a, 2, axis=0), "T[?, m]"),
    ("diff(c, n=3, axis=-2)", lambda a, c, v: np.diff(c, n=3, axis=-2), "T[n, ?, k]"),
    ("np.diff(v, 0)", lambda a, c, v: np.diff(v, 0), "T[n]"),
    ("diff(v, n=1)", lambda a, c, v: np.diff(v, n=1), "T[?]"),
    ("outer(v, a[:1, :])", lambda a, c, v: np.outer(v, a[:1, :]), "T[n, ?]"),
    ("outer(a, v)", lambda a, c, v: np.outer(a, v), "T[?, n]"),
    ("swapaxes(a, 0, 1)", lambda a, c, v: np.swapaxes(a, 0, 1), "T[m, n]"),
    ("c.swapaxes(-1, 0)", lambda a, c, v: c.swapaxes(-1, 0), "T[k, m, n]"),
    ("moveaxis(c, 0, -1)", lambda a, c, v: np.moveaxis(c, 0, -1), "T[m, k, n]"),
    ("np.moveaxis(c, (0, 1), (2, 0))", lambda a, c, v: np.moveaxis(c, (0, 1), (2, 0)), "T[m, k, n]"),
    ("trace(a)", lambda a, c, v: np.trace(a), "S"),
    ("a.trace()", lambda a, c, v: a.trace(), "S"),
    ("nansum(a)", lambda a, c, v: np.nansum(a), "S"),
    ("np.nansum(c, axis=(0, 2))", lambda a, c, v: np.nansum(c, axis=(0, 2)), "S[m]"),
    ("nanmean(a, axis=1)", lambda a, c, v: np.nanmean(a, axis=1), "F[n]"),
    ("linalg.norm(a)", lambda a, c, v: np.linalg.norm(a), "F"),
    ("np.linalg.norm(c, axis=1)", lambda a, c, v: np.linalg.norm(c, axis=1), "F[n, k]"),
    ("np.linalg.norm(c, axis=(1, 2))", lambda a, c, v: np.linalg.norm(c, axis=(1, 2)), "F[n]"),
    ("linalg.norm(v)", lambda a, c, v: np.linalg.norm(v), "F"),
    ("linalg.norm(v, ord=1)", lambda a, c, v: np.linalg.norm(v, ord=1), "F"),
    ("np.linalg.norm(a, axis=1, ord=np.inf)", lambda a, c, v: np.linalg.norm(a, axis=1, ord=np.inf), "F[n]"),
    ("np.linalg.norm(c, ord=2, axis=-1)", lambda a, c, v: np.linalg.norm(c, ord=2, axis=-1), "F[n, m]"),
    ("isclose(c, a[:, :, newaxis])", lambda a, c, v: np.isclose(c, a[:, :, None]), "B[n, m, k]"),
    ("isclose(a, 0.5, rtol=0.5, atol=0.25)", lambda a, c, v: np.isclose(a, 0.5, rtol=0.5, atol=0.25), "B[n, m]"),
    ("np.isclose(v, a[:, 1], equal_nan=true)", lambda a, c, v: np.isclose(v, a[:, 1], equal_nan=True), "B[n]"),
    ("isclose(1.5, v)", lambda a, c, v: np.isclose(1.5, v), "B[n]"),
    ("isclose(v, 2)", lambda a, c, v: np.isclose(v, 2), "B[n]"),
    ("allclose(a, a)", lambda a, c, v: np.allclose(a, a), "B"),
    ("np.allclose(c, c, equal_nan=true)", lambda a, c, v: np.allclose(c, c, equal_nan=True), "B"),
    ("allclose(v, a[:, 0], atol=1)", lambda a, c, v: np.allclose(v, a[:, 0], atol=1), "B"),
    ("average(c, axis=1, weights=c * 0 + 2)", lambda a, c, v: np.average(c, axis=1, weights=c * 0 + 2), "F[n, k]"),
    ("flatnonzero(a)", lambda a, c, v: np.flatnonzero(a), "I[?]"),
    ("np.flatnonzero(c > 0)", lambda a, c, v: np.flatnonzero(c > 0), "I[?]"),
    ("argwhere(v)", lambda a, c, v: np.argwhere(v), "I[?, 1]"),
    ("argwhere(a)", lambda a, c, v: np.argwhere(a), "I[?, 2]"),
    ("np.argwhere(c)", lambda a, c, v: np.argwhere(c), "I[?, 3]"),
    ("unique(a)", lambda a, c, v: np.unique(a), "T[?]"),
    ("np.unique(v)", lambda a, c, v: np.unique(v), "T[?]"),
    ("unique(c[:, 1, :])", lambda a, c, v: np.unique(c[:, 1, :]), "T[?]"),
    ("unique(v) * 1", lambda a, c, v: np.unique(v) * 1, "P[?]"),
    # A fused consumer of each kind of result.
    ("diff(a, axis=0) * 2", lambda a, c, v: np.diff(a, axis=0) * 2, "P[?, m]"),
    ("outer(v, v) + 1", lambda a, c, v: np.outer(v, v) + 1, "P[n, n]"),
]
# Cases that reduce with no identity (NumPy raises for an empty slice): only of non-empty arrays.
NONEMPTY_CASES = [
    ("nanmax(a)", lambda a, c, v: np.nanmax(a), "T"),
    ("nanmin(c, axis=-1)", lambda a, c, v: np.nanmin(c, axis=-1), "T[n, m]"),
    ("np.nanmax(c, axis=(0, 1))", lambda a, c, v: np.nanmax(c, axis=(0, 1)), "T[k]"),
    ("nanmean(v)", lambda a, c, v: np.nanmean(v), "F"),
    ("linalg.norm(v, ord=-inf)", lambda a, c, v: np.linalg.norm(v, ord=-np.inf), "F"),
    ("median(a)", lambda a, c, v: np.median(a), "F"),
    ("np.median(c, axis=1)", lambda a, c, v: np.median(c, axis=1), "F[n, k]"),
    ("median(v, 0)", lambda a, c, v: np.median(v, 0), "F"),
    ("c.swapaxes(0, 2)[0] * 1", lambda a, c, v: c.swapaxes(0, 2)[0] * 1, "P[m, n]"),
]
# `ptp` of non-empty arrays of numbers (NumPy's `-` of bools is a TypeError).
NUMBER_NONEMPTY_CASES = [
    ("ptp(a)", lambda a, c, v: np.ptp(a), "T"),
    ("np.ptp(c, axis=-1)", lambda a, c, v: np.ptp(c, axis=-1), "T[n, m]"),
    ("ptp(c, axis=(0, 2))", lambda a, c, v: np.ptp(c, axis=(0, 2)), "T[m]"),
    ("average(a)", lambda a, c, v: np.average(a), "F"),
    ("np.average(c, axis=(0, 2))", lambda a, c, v: np.average(c, axis=(0, 2)), "F[m]"),
    ("average(v, weights=v * 0 + 1)", lambda a, c, v: np.average(v, weights=v * 0 + 1), "F"),
]

SHAPES = [(5, 4, 3), (1, 6, 2), (3, 3, 1), (0, 4, 2), (37, 11, 5)]
TESTED_DTYPES = ["f64", "f32", "i64", "i32", "u8", "bool"]


def names(dt):
    """The result dtypes the cases name: T the input's, S of a sum, F of a mean or norm, P of `* 2`
    and `+ 1` (NumPy's promotion with a Python int), B a bool, I an `i64`."""
    p = "i64" if dt == "bool" else dt
    return {"T": dt, "S": sum_dtype(dt), "F": "f32" if dt == "f32" else "f64", "P": p, "B": "bool", "I": "i64"}


def inputs(dt, shape, rng):
    """Random inputs of dtype `dt`: small integers (quarters for floats), with NaNs in float ones,
    among them a whole row of `a` and a whole line of `c` along its last axis."""
    n, m, k = shape

    def draw(*s):
        x = rng.integers(-9, 10, s)
        if dt == "bool":
            return x > 0
        if dt in ("f64", "f32"):
            x = (x / 4).astype(DTYPES[dt])
            x[rng.random(s) < 0.2] = np.nan
            return x
        if dt == "u8":
            return (x + 9).astype(np.uint8)
        return x.astype(DTYPES[dt])

    a, c, v = draw(n, m), draw(n, m, k), draw(n)
    if dt in ("f64", "f32") and n > 1:
        a[1, :] = np.nan
        c[1, 0, :] = np.nan
    return {"a": a, "c": c, "v": v}


def assert_matches(got, want, dt, what):
    """`got` has NumPy's dtype and shape and its values: equal for integers and bools, close for
    floats (sums and norms may round differently), NaN where NumPy has NaN."""
    assert got.dtype == want.dtype and got.shape == want.shape, f"{what}: {got.dtype}{got.shape}, NumPy {want.dtype}{want.shape}"
    if want.dtype.kind == "f":
        rtol = 1e-5 if dt == "f32" or want.dtype == np.float32 else 1e-12
        np.testing.assert_allclose(got, want, rtol=rtol, atol=rtol, equal_nan=True, err_msg=what)
    else:
        np.testing.assert_array_equal(got, want, err_msg=what)


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("dt", TESTED_DTYPES)
@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: "x".join(map(str, s)))
def test_numpy_functions_match_numpy(shape, dt, target, tmp_path):
    rng = np.random.default_rng(sum(shape) * 11 + len(dt))
    ins = inputs(dt, shape, rng)
    nm = names(dt)
    cases = CASES + (NONEMPTY_CASES if 0 not in shape else [])
    cases += NUMBER_NONEMPTY_CASES if 0 not in shape and dt != "bool" else []
    types = [nm[t[0]] + t[1:] for _, _, t in cases]
    src = (
        f"fn main(a: {dt}[n, m], c: {dt}[n, m, k], v: {dt}[n]) -> ({', '.join(types)}) {{\n"
        f"    return ({', '.join(e for e, _, _ in cases)});\n}}\n"
    )
    proc, got = run_source(src, ins, tmp_path, flags=["--target", target])
    assert proc.returncode == 0, f"{src}\n{proc.stderr}"
    for g, (e, f, _) in zip(got, cases):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # NumPy's all-NaN slices
            want = np.asarray(f(ins["a"], ins["c"], ins["v"]))
        assert_matches(g, want, dt, e)


@pytest.mark.parametrize("target", TARGETS)
def test_eye_and_identity_match_numpy(target, tmp_path):
    src = """fn main(n: i64, m: i64, k: i64) -> (f64[n, n], f64[n, m], f32[n, m], i64[3, 5], bool[n, m], u8[4, 2], f64[n, n], i32[n, n], f64[0, 3], f64[n, m], f64[n, n], f32[n, n]) {
    return (eye(n), eye(n, m), eye(n, m, k, dtype=f32), np.eye(3, 5, k=-1, dtype=np.int64), eye(n, m, k=-k, dtype=bool),
            eye(4, 2, 7, dtype=u8), identity(n), np.identity(n, dtype=np.int32), eye(0, 3), eye(n, m, k=m),
            np.eye(n, k=k), eye(n, k=-1, dtype=f32));
}
"""
    for n, m, k in [(4, 6, 2), (5, 3, 1), (0, 2, 0), (1, 1, 0)]:
        flags = ["--target", target] + [a for p, v in (("n", n), ("m", m), ("k", k)) for a in ("--arg", f"{p}={v}")]
        proc, got = run_source(src, {}, tmp_path / f"{n}{m}{k}", flags=flags)
        assert proc.returncode == 0, proc.stderr
        want = [np.eye(n), np.eye(n, m), np.eye(n, m, k, dtype=np.float32), np.eye(3, 5, k=-1, dtype=np.int64),
                np.eye(n, m, k=-k, dtype=bool), np.eye(4, 2, 7, dtype=np.uint8), np.identity(n),
                np.identity(n, dtype=np.int32), np.eye(0, 3), np.eye(n, m, k=m), np.eye(n, k=k),
                np.eye(n, k=-1, dtype=np.float32)]
        for i, (g, w) in enumerate(zip(got, want)):
            assert g.dtype == w.dtype and g.shape == w.shape, f"result {i}: {g.dtype}{g.shape}, NumPy {w.dtype}{w.shape}"
            np.testing.assert_array_equal(g, w, err_msg=f"result {i}")


@pytest.mark.parametrize("target", TARGETS)
def test_nan_reductions_of_all_nan_slices(target, tmp_path):
    """NumPy's all-NaN behaviour (it also warns): `nanmax`/`nanmin`/`nanmean` NaN, `nansum` 0;
    infinities are values, not NaNs."""
    src = """fn main(x: f64[n, m], y: f32[m]) -> (f64[n], f64[n], f64[n], f64[n], f32, f32, f32, f32) {
    return (nanmax(x, axis=1), nanmin(x, axis=1), nanmean(x, axis=1), nansum(x, axis=1),
            nanmax(y), nanmin(y), nanmean(y), nansum(y));
}
"""
    x = np.array([[np.nan, np.nan, np.nan], [np.nan, -np.inf, np.nan], [1.5, np.nan, np.inf], [-2.0, 3.0, 0.5]])
    y = np.full(3, np.nan, dtype=np.float32)
    proc, got = run_source(src, {"x": x, "y": y}, tmp_path, flags=["--target", target])
    assert proc.returncode == 0, proc.stderr
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        want = [np.nanmax(x, axis=1), np.nanmin(x, axis=1), np.nanmean(x, axis=1), np.nansum(x, axis=1),
                np.nanmax(y), np.nanmin(y), np.nanmean(y), np.nansum(y)]
    for i, (g, w) in enumerate(zip(got, want)):
        w = np.asarray(w)
        assert g.dtype == w.dtype and g.shape == w.shape, f"result {i}"
        np.testing.assert_array_equal(g, w, err_msg=f"result {i}")


@pytest.mark.parametrize("target", TARGETS)
def test_isclose_of_infinities_nans_and_tolerances(target, tmp_path):
    """NumPy's `isclose` at the edges: equal infinities are close, opposite ones and an infinity
    against a number are not, NaN only with `equal_nan=true`; the tolerances at run time (`rtol`
    a parameter) and in `f32` (`b`'s float dtype); `allclose` of all those."""
    src = """fn main(x: f64[n], y: f64[n], p: f32[n], q: f32[n], r: f64) -> (bool[n], bool[n], bool[n], bool[n], bool[n], bool, bool, bool[n]) {
    return (isclose(x, y), isclose(x, y, equal_nan=true), isclose(x, y, rtol=r, atol=0), isclose(p, q),
            isclose(p, y, atol=r), allclose(x, x, equal_nan=true), allclose(p, q, rtol=r), isclose(y, q, equal_nan=false));
}
"""
    inf, nan = np.inf, np.nan
    x = np.array([inf, -inf, inf, nan, nan, 1.0, 1.0, 1e-9, 0.0, 100.0, 100.0, -0.0, 1e300])
    y = np.array([inf, -inf, -inf, nan, 1.0, nan, inf, 0.0, 1e-8, 100.001, 100.0011, 0.0, 1.0000001e300])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # 1e300 overflows f32: inf
        p, q = x.astype(np.float32), (y * 1.0000001).astype(np.float32)
    r = 1e-3
    proc, got = run_source(src, {"x": x, "y": y, "p": p, "q": q}, tmp_path, flags=["--target", target, "--arg", f"r={r}"])
    assert proc.returncode == 0, proc.stderr
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        want = [np.isclose(x, y), np.isclose(x, y, equal_nan=True), np.isclose(x, y, rtol=r, atol=0), np.isclose(p, q),
                np.isclose(p, y, atol=r), np.allclose(x, x, equal_nan=True), np.allclose(p, q, rtol=r),
                np.isclose(y, q, equal_nan=False)]
    for i, (g, w) in enumerate(zip(got, want)):
        w = np.asarray(w)
        assert g.dtype == w.dtype and g.shape == w.shape, f"result {i}"
        np.testing.assert_array_equal(g, w, err_msg=f"result {i}")


@pytest.mark.parametrize("target", TARGETS)
def test_ufunc_outer_accumulate_and_byte_attributes_match_numpy(target, tmp_path):
    """Binary ufuncs' `outer` (operators and functions, ranks 0 to 2, an expression as `b`),
    `maximum.accumulate`/`minimum.accumulate` (default axis 0, `axis=1`, integers, a NaN that
    propagates) and `x.itemsize`, `x.nbytes`."""
    src = """fn main(x: f64[4, 5], v: f64[n], k: i64[n], f: f32[3]) -> (f64[4, 5, 3], f64[n, n], bool[n, 4, 5], f64[n, n], f64[3], i64[n, n], f64[n, n], f64[4, 5], f64[4, 5], i64[n], f64[n], i64, i64, i64) {
    let w = v.copy();
    w[2] = nan;
    return (np.add.outer(x, v[:3] * 2.0), np.maximum.outer(v, v), np.less.outer(v, x), np.hypot.outer(v, k),
            np.subtract.outer(1.0, v[:3]), np.multiply.outer(k, k), np.logaddexp.outer(v, w),
            np.minimum.accumulate(x), np.maximum.accumulate(x, axis=1), np.maximum.accumulate(k),
            np.minimum.accumulate(w), x.nbytes, f.itemsize, k.nbytes + f.nbytes);
}
"""
    rng = np.random.default_rng(5)
    x, v = rng.standard_normal((4, 5)), rng.standard_normal(6)
    k, f = rng.integers(-9, 9, 6), rng.standard_normal(3).astype(np.float32)
    proc, got = run_source(src, {"x": x, "v": v, "k": k, "f": f}, tmp_path, flags=["--target", target])
    assert proc.returncode == 0, proc.stderr
    # LLVM's "loop not vectorized" remarks once reached stderr for min/max scans.
    assert "remark" not in proc.stderr, proc.stderr
    w = v.copy()
    w[2] = np.nan
    want = [np.add.outer(x, v[:3] * 2.0), np.maximum.outer(v, v), np.less.outer(v, x), np.hypot.outer(v, k),
            np.subtract.outer(1.0, v[:3]), np.multiply.outer(k, k), np.logaddexp.outer(v, w),
            np.minimum.accumulate(x), np.maximum.accumulate(x, axis=1), np.maximum.accumulate(k),
            np.minimum.accumulate(w), x.nbytes, f.itemsize, k.nbytes + f.nbytes]
    for i, (g, wt) in enumerate(zip(got, want)):
        wt = np.asarray(wt)
        assert g.dtype == wt.dtype and g.shape == wt.shape, f"result {i}: {g.dtype}{g.shape}, NumPy {wt.dtype}{wt.shape}"
        np.testing.assert_allclose(g, wt, rtol=1e-15, atol=0, err_msg=f"result {i}")


@pytest.mark.parametrize("target", TARGETS)
def test_array_equal_divmod_and_tuple_forms_match_numpy(target, tmp_path):
    """`array_equal` (shapes that differ at compile time give `false`; `equal_nan=true`; mixed
    dtypes compared promoted), `array_equiv` (broadcast), and `divmod`'s pair taken apart by
    `let (q, r) = ...` and by `[0]`, `[1]`, on arrays and scalars."""
    src = """fn main(x: f64[n], y: f64[n], k: i64[n], m: f64[2, n]) -> (bool, bool, bool, bool, bool, bool, bool, bool, f64[n], f64[n], i64[n], i64, f64) {
    let (q, r) = np.divmod(x, 0.75);
    let (a, b) = divmod(7, -2);
    return (np.array_equal(x, x), np.array_equal(x, y), np.array_equal(x, m), np.array_equal(x, x, equal_nan=true),
            np.array_equal(k, np.floor(x)), array_equiv(m, x), array_equiv(x, x[0]), np.array_equal(1.0, 1),
            q, r, np.divmod(k, 3)[0], a * 10 + b, divmod(x[1], -0.5)[1]);
}
"""
    x = np.array([1.0, -2.5, np.nan, 3.0, -0.0, 7.25])
    y = x.copy()
    y[3] = 3.5
    k = np.floor(np.nan_to_num(x)).astype(np.int64)
    m = np.stack([x, x])
    proc, got = run_source(src, {"x": x, "y": y, "k": k, "m": m}, tmp_path, flags=["--target", target])
    assert proc.returncode == 0, proc.stderr
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        qw, rw = np.divmod(x, 0.75)
        a, b = np.divmod(7, -2)
        want = [np.array_equal(x, x), np.array_equal(x, y), np.array_equal(x, m), np.array_equal(x, x, equal_nan=True),
                np.array_equal(k, np.floor(x)), np.array_equiv(m, x), np.array_equiv(x, x[0]), np.array_equal(1.0, 1),
                qw, rw, np.divmod(k, 3)[0], np.int64(a * 10 + b), np.divmod(x[1], -0.5)[1]]
    for i, (g, w) in enumerate(zip(got, want)):
        w = np.asarray(w)
        assert g.dtype == w.dtype and g.shape == w.shape, f"result {i}: {g.dtype}{g.shape}, NumPy {w.dtype}{w.shape}"
        np.testing.assert_array_equal(g, w, err_msg=f"result {i}")


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("dt", ["f64", "f32", "i64", "u8"])
@pytest.mark.parametrize("n,m", [(10, 9), (0, 4), (6, 0), (1, 1), (300, 57)])
def test_searchsorted_matches_numpy(n, m, dt, target, tmp_path):
    """`searchsorted` of sorted arrays with many ties (and for floats infinities and NaNs, which sort
    last) against values of several shapes, of the same dtype, of `i64`, and scalars, both sides."""
    rng = np.random.default_rng(n * 7 + m + len(dt))
    a = np.sort(rng.integers(0, 6, n)).astype(DTYPES[dt])
    v = rng.integers(-1, 8, m).astype(DTYPES[dt])
    w = rng.integers(-1, 8, (m, 3))
    if dt in ("f64", "f32"):
        a = np.sort(np.concatenate([a[: n // 2], np.resize([np.nan, np.inf, -np.inf], n - n // 2)])).astype(DTYPES[dt])
        v = np.concatenate([v[: m // 2], np.resize([np.nan, np.inf, -np.inf, 2.5], m - m // 2)]).astype(DTYPES[dt])
    src = f"""fn main(a: {dt}[n], v: {dt}[m], w: i64[m, 3]) -> (i64[m], i64[m], i64[m, 3], i64[m, 3], i64, i64, i64[n]) {{
    return (searchsorted(a, v), searchsorted(a, v, side=right), np.searchsorted(a, w), searchsorted(a, w, side=left),
            searchsorted(a, 3), searchsorted(a, 2.5, side=right), searchsorted(a, a, side=right));
}}
"""
    proc, got = run_source(src, {"a": a, "v": v, "w": w}, tmp_path, flags=["--target", target])
    assert proc.returncode == 0, proc.stderr
    want = [np.searchsorted(a, v), np.searchsorted(a, v, side="right"), np.searchsorted(a, w), np.searchsorted(a, w, side="left"),
            np.searchsorted(a, 3), np.searchsorted(a, 2.5, side="right"), np.searchsorted(a, a, side="right")]
    for i, (g, w_) in enumerate(zip(got, want)):
        w_ = np.asarray(w_)
        assert g.dtype == w_.dtype and g.shape == w_.shape, f"result {i}: {g.dtype}{g.shape}, NumPy {w_.dtype}{w_.shape}"
        np.testing.assert_array_equal(g, w_, err_msg=f"result {i}")


# (arrayc expression, NumPy function of the inputs): `x` is `T[n]`, `a` `T[n, m]`, `c` `T[n, m, k]`,
# `q` an `f64` (a Python float in NumPy, 37.5), `qs` an `f64[4]` of percentiles.
QUANTILE_CASES = [
    ("percentile(x, 0)", lambda x, a, c, q, qs: np.percentile(x, 0)),
    ("percentile(x, 25)", lambda x, a, c, q, qs: np.percentile(x, 25)),
    ("np.percentile(x, 50)", lambda x, a, c, q, qs: np.percentile(x, 50)),
    ("percentile(x, 99.9)", lambda x, a, c, q, qs: np.percentile(x, 99.9)),
    ("percentile(x, 100)", lambda x, a, c, q, qs: np.percentile(x, 100)),
    ("percentile(x, q)", lambda x, a, c, q, qs: np.percentile(x, q)),
    ("percentile(x, 100.0 - q)", lambda x, a, c, q, qs: np.percentile(x, 100.0 - q)),
    ("quantile(x, 0.0)", lambda x, a, c, q, qs: np.quantile(x, 0.0)),
    ("quantile(x, 0.25)", lambda x, a, c, q, qs: np.quantile(x, 0.25)),
    ("np.quantile(x, 0.999)", lambda x, a, c, q, qs: np.quantile(x, 0.999)),
    ("quantile(x, 1.0)", lambda x, a, c, q, qs: np.quantile(x, 1.0)),
    ("quantile(x, q / 100)", lambda x, a, c, q, qs: np.quantile(x, q / 100)),
    # An integer `q` of `quantile` is an index: the element itself, of `x`'s dtype.
    ("quantile(x, 1)", lambda x, a, c, q, qs: np.quantile(x, 1)),
    ("quantile(a, 0, axis=1)", lambda x, a, c, q, qs: np.quantile(a, 0, axis=1)),
    ("percentile(a, 12.5)", lambda x, a, c, q, qs: np.percentile(a, 12.5)),
    ("percentile(a, 50, axis=0)", lambda x, a, c, q, qs: np.percentile(a, 50, axis=0)),
    ("percentile(a, 25, axis=1)", lambda x, a, c, q, qs: np.percentile(a, 25, axis=1)),
    ("np.percentile(a, 99.9, axis=-1)", lambda x, a, c, q, qs: np.percentile(a, 99.9, axis=-1)),
    ("percentile(a, q, 0, method=linear)", lambda x, a, c, q, qs: np.percentile(a, q, 0, method="linear")),
    ("quantile(c, 0.3, axis=0)", lambda x, a, c, q, qs: np.quantile(c, 0.3, axis=0)),
    ("quantile(c, 0.75, axis=1)", lambda x, a, c, q, qs: np.quantile(c, 0.75, axis=1)),
    ("percentile(c, q, axis=-1)", lambda x, a, c, q, qs: np.percentile(c, q, axis=-1)),
    ("percentile(c, 66.6)", lambda x, a, c, q, qs: np.percentile(c, 66.6)),
    # A 1-d `q` (a list, or an array) leads the result.
    ("percentile(x, [0, 25, 50, 99.9, 100])", lambda x, a, c, q, qs: np.percentile(x, [0, 25, 50, 99.9, 100])),
    ("percentile(a, qs, axis=0)", lambda x, a, c, q, qs: np.percentile(a, qs, axis=0)),
    ("np.quantile(c, [0.1, 0.5, 0.9], axis=1)", lambda x, a, c, q, qs: np.quantile(c, [0.1, 0.5, 0.9], axis=1)),
    ("quantile(c, qs / 100, axis=-1)", lambda x, a, c, q, qs: np.quantile(c, qs / 100, axis=-1)),
    ("quantile(a, f32(qs / 100))", lambda x, a, c, q, qs: np.quantile(a, (qs / 100).astype(np.float32))),
    ("quantile(a, [0, 1], axis=1)", lambda x, a, c, q, qs: np.quantile(a, [0, 1], axis=1)),
    ("percentile(x, 50) - median(x)", lambda x, a, c, q, qs: np.percentile(x, 50) - np.median(x)),
]


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("dt", ["f64", "f32", "i64", "i32", "u8"])
@pytest.mark.parametrize("shape", [(1, 1, 1), (2, 3, 1), (5, 4, 3), (10, 9, 8), (1, 7, 2)], ids=lambda s: "x".join(map(str, s)))
def test_percentile_and_quantile_match_numpy(shape, dt, target, tmp_path):
    """`percentile` and `quantile` (NumPy's method `linear`) of several dtypes and shapes, with
    ties and (in floats) NaNs and infinities, of every element and along each axis, scalar and
    1-d `q`: NumPy's dtypes, shapes and values, exactly (NumPy's `_lerp`)."""
    rng = np.random.default_rng(sum(shape) * 13 + len(dt))
    n, m, k = shape

    def draw(*s):
        v = rng.integers(0, 7, s) * 3 + rng.integers(0, 2, s)
        if dt in ("f64", "f32"):
            v = (v / 7 - 1).astype(DTYPES[dt])
            if v.size > 3:
                v.flat[rng.integers(0, v.size, 2)] = [np.inf, -np.inf]
            return v
        return v.astype(DTYPES[dt])

    x, a, c = draw(n), draw(n, m), draw(n, m, k)
    if dt in ("f64", "f32") and n > 1:
        a[1, 0] = np.nan
        c[0, 1, :] = np.nan
    q, qs = 37.5, np.array([0.0, 12.5, 99.9, 100.0])
    ins = {"x": x, "a": a, "c": c, "qs": qs}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # inf - inf in NumPy's `_lerp`
        want = [np.asarray(f(x, a, c, q, qs)) for _, f, in QUANTILE_CASES]
    types = [w.dtype.name.replace("float", "f").replace("uint", "u").replace("int", "i") for w in want]
    types = [t + ("[" + ", ".join(map(str, w.shape)) + "]" if w.ndim else "") for t, w in zip(types, want)]
    src = (
        f"fn main(x: {dt}[{n}], a: {dt}[{n}, {m}], c: {dt}[{n}, {m}, {k}], q: f64, qs: f64[4]) -> ({', '.join(types)}) {{\n"
        f"    return ({', '.join(e for e, _ in QUANTILE_CASES)});\n}}\n"
    )
    proc, got = run_source(src, ins, tmp_path, flags=["--target", target, "--arg", f"q={q}"])
    assert proc.returncode == 0, f"{src}\n{proc.stderr}"
    for g, w, (e, _) in zip(got, want, QUANTILE_CASES):
        assert g.dtype == w.dtype and g.shape == w.shape, f"{e}: {g.dtype}{g.shape}, NumPy {w.dtype}{w.shape}"
        np.testing.assert_array_equal(g, w, err_msg=e)


@pytest.mark.parametrize("target", TARGETS)
def test_median_of_empty_arrays_is_nan(target, tmp_path):
    """NumPy's `median` of an empty array or axis is NaN (it also warns), of every dtype's float."""
    src = """fn main(x: f64[n], a: i64[p, m], b: f32[m, p]) -> (f64, f64[m], f32[m], f64, f32, f64[p]) {
    return (median(x), median(a, axis=0), np.median(b, axis=-1), median(a), median(b), median(a, axis=1));
}
"""
    x, a, b = np.zeros(0), np.zeros((0, 3), dtype=np.int64), np.zeros((3, 0), dtype=np.float32)
    proc, got = run_source(src, {"x": x, "a": a, "b": b}, tmp_path, flags=["--target", target])
    assert proc.returncode == 0, proc.stderr
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        want = [np.median(x), np.median(a, axis=0), np.median(b, axis=-1), np.median(a), np.median(b), np.median(a, axis=1)]
    for i, (g, w) in enumerate(zip(got, want)):
        w = np.asarray(w)
        assert g.dtype == w.dtype and g.shape == w.shape, f"result {i}: {g.dtype}{g.shape}, NumPy {w.dtype}{w.shape}"
        np.testing.assert_array_equal(g, w, err_msg=f"result {i}")


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("n", [0, 1, 7, 300])
def test_nonzero_matches_numpy(n, target, tmp_path):
    """`nonzero` in the forms arrayc's tuples allow: `nonzero(x)[0]`, `let (idx,) = nonzero(x);`,
    Python's `idx, = np.nonzero(x)` (of a declared `idx`), the method, and a 2-d array's pair of
    index arrays; NaN is nonzero."""
    src = """fn main(x: f64[n], a: i64[n, 3], c: u8[2, n, 2]) -> (i64[?], i64[?], i64[?], i64[?], i64[?], i64[?], i64[?], i64[?], i64[?], f64[?]) {
    let (idx,) = np.nonzero(x);
    let pos = flatnonzero(x);
    pos, = np.nonzero(x > 0.0);
    let (i, j) = nonzero(a);
    return (idx, pos, nonzero(x)[0], x.nonzero()[-1], i, j, nonzero(c)[0], nonzero(c)[1], nonzero(c)[2], x[nonzero(x)[0]]);
}
"""
    rng = np.random.default_rng(n)
    x = rng.integers(-2, 3, n).astype(np.float64)
    x[rng.random(n) < 0.1] = np.nan
    a = rng.integers(0, 2, (n, 3))
    c = rng.integers(0, 2, (2, n, 2)).astype(np.uint8)
    proc, got = run_source(src, {"x": x, "a": a, "c": c}, tmp_path, flags=["--target", target])
    assert proc.returncode == 0, proc.stderr
    (idx,) = np.nonzero(x)
    want = [idx, np.nonzero(x > 0.0)[0], np.nonzero(x)[0], x.nonzero()[-1], *np.nonzero(a), *np.nonzero(c), x[np.nonzero(x)[0]]]
    for i, (g, w) in enumerate(zip(got, want)):
        assert g.dtype == w.dtype and g.shape == w.shape, f"result {i}: {g.dtype}{g.shape}, NumPy {w.dtype}{w.shape}"
        np.testing.assert_array_equal(g, w, err_msg=f"result {i}")


@pytest.mark.parametrize("target", TARGETS[:2])
def test_swapaxes_and_moveaxis_are_views(target, tmp_path):
    """Writes through `swapaxes` and `moveaxis` change the argument, as through NumPy's views."""
    src = """fn main(c: f64[n, m, k]) -> f64[n, m, k] {
    let s = swapaxes(c, 0, 2);
    s[1, 0, :] = -1.0;
    let t = moveaxis(c, -1, 0);
    t[0, 1, 2] = 7.0;
    return c;
}
"""
    c = np.arange(24, dtype=np.float64).reshape(2, 3, 4)
    proc, got = run_source(src, {"c": c}, tmp_path, flags=["--target", target])
    assert proc.returncode == 0, proc.stderr
    want = c.copy()
    np.swapaxes(want, 0, 2)[1, 0, :] = -1.0
    np.moveaxis(want, -1, 0)[0, 1, 2] = 7.0
    np.testing.assert_array_equal(got[0], want)


@pytest.mark.parametrize("target", TARGETS[:2])
def test_result_shapes_in_the_signature(target, tmp_path):
    """The checker's shapes: `diff` shrinks a symbolic size by `n` (`n-1`, `n-2`) and a literal one
    to at least 0; `outer` of 1-d arrays is `(n, m)` (a scalar is one element), `identity(n)`
    `(n, n)`."""
    src = """fn main(x: f64[n], y: i64[m]) -> (f64[n-1], f64[n-2], f64[0], f64[n, m], f64[n, n], f64[2, 3], f64[1, m], i64[m, 1]) {
    return (diff(x), np.diff(x, n=2), diff(x[:3], 5), outer(x, y), identity(n), eye(2, 3, k=5), outer(2.5, y), outer(y, 3));
}
"""
    x, y = np.array([1.0, 4.0, 9.0, 16.0]), np.array([1, 2, 3])
    proc, got = run_source(src, {"x": x, "y": y}, tmp_path, flags=["--target", target])
    assert proc.returncode == 0, proc.stderr
    want = [np.diff(x), np.diff(x, n=2), np.diff(x[:3], 5), np.outer(x, y), np.identity(4), np.eye(2, 3, k=5),
            np.outer(2.5, y), np.outer(y, 3)]
    for i, (g, w) in enumerate(zip(got, want)):
        assert g.dtype == w.dtype and g.shape == w.shape, f"result {i}"
        np.testing.assert_array_equal(g, w, err_msg=f"result {i}")


@pytest.mark.parametrize(
    "src,code,words",
    [
        ("fn f(x: f64[n, m]) -> f64[n, ?] { return diff(x, axis=2); }", "E0405", "axis 2 is out of range"),
        ("fn f(x: f64[n, m]) -> f64[n, ?] { return diff(x, 1, -3); }", "E0405", "axis -3 is out of range"),
        ("fn f(x: f64) -> f64 { return diff(x); }", "E0503", "`diff` needs an array"),
        ("fn f(x: f64[n]) -> f64[?] { return diff(x, -1); }", "E0503", "order must be non-negative"),
        ("fn f(x: f64[n], k: i64) -> f64[?] { return diff(x, k); }", "E0503", "must be an integer literal"),
        ("fn f(x: f64[n], k: i64) -> f64[?] { return diff(x, n=k); }", "E0503", "`n=` must be an integer literal"),
        ("fn f(x: f64[n]) -> f64[?] { return diff(x, 1, n=2); }", "E0502", "`n` twice"),
        ("fn f(x: f64[n, m]) -> f64[m, n] { return swapaxes(x, 0, 2); }", "E0405", "axis 2 is out of range"),
        ("fn f(x: f64[n, m], k: i64) -> f64[m, n] { return x.swapaxes(0, k); }", "E0503", "must be integer literals"),
        ("fn f(x: f64[n, m, k]) -> f64[m, k, n] { return moveaxis(x, (0, 1), 2); }", "E0503", "same number of elements"),
        ("fn f(x: f64[n, m, k]) -> f64[m, k, n] { return moveaxis(x, (0, 0), (1, 2)); }", "E0503", "repeated axis 0"),
        ("fn f(x: f64[n, m, k]) -> f64[m, k, n] { return moveaxis(x, 0, 3); }", "E0405", "axis 3 is out of range"),
        ("fn f(x: f64[n]) -> f64 { return trace(x); }", "E0503", "`trace` needs a 2-d array"),
        ("fn f(x: f64[n, m, k]) -> f64 { return x.trace(); }", "E0503", "`trace` needs a 2-d array"),
        ("fn f(x: f64[n, m]) -> f64[n] { return nansum(x, axis=2); }", "E0405", "axis 2 is out of range"),
        ("fn f(x: f64[n, m]) -> f64 { return nanmax(x, axis=(0, 0)); }", "E0503", "duplicate value 0"),
        ("fn f(x: f64[n, m]) -> f64 { return np.trace(x, keepdims=true); }", "E0502", "no keyword argument `keepdims`"),
        ("fn f(x: f64[n, m]) -> f64[m] { return linalg.norm(x, axis=-3); }", "E0405", "axis -3 is out of range"),
        ("fn f(x: f64[n, n]) -> f64[n, n] { return np.linalg.eig(x); }", "E0202", "linalg.eig"),
        ("fn f(x: f64[n]) -> f64 { return linalg.norm(x, ord=3); }", "E0503", "must be `1`, `2`, `inf` or `-inf`"),
        ("fn f(x: f64[n, m, k]) -> f64 { return linalg.norm(x, ord=1); }", "E0503", "with this `ord`: not supported"),
        ("fn f(x: f64[n, m]) -> f64 { return linalg.norm(x, ord='fro', axis=0); }", "E0503", "not supported"),
        ("fn f(x: f64[n]) -> f64 { return linalg.norm(x, 2, 0, 1); }", "E0501", "takes 1 argument"),
        ("fn f() -> f64[?, 3] { return eye(-1, 3); }", "E0503", "negative dimensions are not allowed"),
        ("fn f() -> f64[?, ?] { return eye(2.5); }", "E0406", "must be an integer scalar"),
        ("fn f(x: f64[n]) -> f64[?, n] { return outer((1.0, 2.0), x); }", "E0309", "a tuple used as one value"),
        ("fn f(x: f64[n, m]) -> f64 { return median(x, axis=(0, 1)); }", "E0503", "must be one integer literal"),
        ("fn f(x: f64[n, m]) -> f64[n] { return median(x, axis=-3); }", "E0405", "axis -3 is out of range"),
        ("fn f(x: f64[2], y: f64[3]) -> bool[2] { return isclose(x, y); }", "E0401", "cannot be broadcast together"),
        ("fn f(x: f64[n], y: f64[n]) -> bool[n] { return isclose(x, y, rtol=x); }", "E0503", "`rtol=` must be a numeric scalar"),
        ("fn f(x: f64[n], y: f64[n]) -> bool { return allclose(x, y, equal_nan=1); }", "E0503", "`equal_nan=` must be `true` or `false`"),
        ("fn f(x: f64[n], y: f64[n]) -> bool { return allclose(x, y, 1e-3); }", "E0501", "takes 2 arguments"),
        ("fn f(x: f64[n], y: f64[n]) -> bool[n] { return isclose(x, y, tol=1e-3); }", "E0502", "no keyword argument `tol`"),
        ("fn f(x: bool[n, m]) -> bool { return ptp(x); }", "E0503", "`ptp` of a bool array"),
        ("fn f(x: f64) -> f64[?] { return unique(x); }", "E0503", "`unique` needs an array"),
        ("fn f(x: f64[n, m], v: f64) -> i64 { return searchsorted(x, v); }", "E0503", "needs a sorted 1-d array first"),
        ("fn f(x: f64[n], v: f64) -> i64 { return searchsorted(x, v, side=middle); }", "E0503", "`side=` must be `left` or `right`"),
        ("fn f(x: f64[n], v: f64) -> i64 { return searchsorted(x, v, sorter=x); }", "E0406", "an index must be an integer"),
        ("fn f(x: f64[n]) -> i64[?] { return flatnonzero(x, 0); }", "E0501", "takes 1 argument"),
        ("fn f(x: f64[n]) -> f64[?] { return unique(x, return_counts=1); }", "E0503", "`return_counts=` must be `true` or `false`"),
        ("fn f(x: f64[n]) -> f64[?] { return unique(x, equal_nan=false); }", "E0502", "no keyword argument `equal_nan`"),
        ("fn f(x: f64[n, m]) -> f64[n] { return ptp(x, axis=2); }", "E0405", "axis 2 is out of range"),
        ("fn f(x: f64[4, m], w: f64[3]) -> f64[m] { return average(x, axis=0, weights=w); }", "E0503", "must have `x`'s shape"),
        ("fn f(x: f64[n], w: f64) -> f64 { return average(x, weights=w); }", "E0503", "`weights=` of `average` must be an array"),
        ("fn f(x: f64[n, m]) -> f64[n] { return average(x, axis=(1, 1)); }", "E0503", "duplicate value 1"),
        ("fn f(x: f64[n]) -> f64 { return percentile(x, 50, method=closest); }", "E0503", "not one of NumPy's methods"),
        ("fn f(x: f64[n]) -> f64 { return quantile(x, 0.5, method=foo); }", "E0503", "not one of NumPy's methods"),
        ("fn f(x: f64[n]) -> f64 { return percentile(x, 50, interpolation=linear); }", "E0502", "no keyword argument `interpolation`"),
        ("fn f(x: bool[n]) -> f64 { return percentile(x, 50); }", "E0503", "`percentile` of a bool array"),
        ("fn f(x: f64) -> f64 { return quantile(x, 0.5); }", "E0503", "`quantile` needs an array"),
        ("fn f(x: f64[n], q: f64[2, 2]) -> f64[2, 2] { return percentile(x, q); }", "E0503", "must be a number or a 1-d array"),
        ("fn f(x: f64[n]) -> f64 { return quantile(x, true); }", "E0503", "must be a number or a 1-d array"),
        ("fn f(x: f64[n, m]) -> f64 { return percentile(x, 50, axis=(0, 1)); }", "E0503", "must be one integer literal"),
        ("fn f(x: f64[n, m]) -> f64[n] { return quantile(x, 0.5, axis=2); }", "E0405", "axis 2 is out of range"),
        ("fn f(x: f64[n]) -> f64 { return percentile(x); }", "E0501", "takes 2 arguments"),
        ("fn f(x: f64[n]) -> i64[?] { let idx = nonzero(x); return idx; }", "E0309", "use `flatnonzero(x)`"),
        ("fn f(x: f64[n]) -> i64[?] { return np.nonzero(x) + 1; }", "E0309", "`nonzero` gives a tuple of 1 index array"),
        ("fn f(x: f64[n, m]) -> i64 { return len(nonzero(x)); }", "E0309", "let (i, j) = nonzero(x);"),
        ("fn f(x: f64[n]) -> i64[?] { return nonzero(x)[1]; }", "E0309", "indexed other than by one integer literal in range"),
        ("fn f(x: f64[n]) -> i64[?] { return nonzero(x)[:]; }", "E0309", "indexed other than by one integer literal"),
        ("fn f(x: f64[n, m]) -> i64[?] { let (i,) = nonzero(x); return i; }", "E0309", "cannot destructure 2 values into 1 name"),
        ("fn f(x: f64) -> i64[?] { return nonzero(x)[0]; }", "E0503", "`nonzero` needs an array"),
        ("fn f(x: f64[n]) -> i64[?] { return nonzero(x, 0)[0]; }", "E0501", "takes 1 argument"),
        ("fn f(x: f64[n], y: f64[m]) -> bool { return array_equal(x, y); }", "E0503", "compare `a.shape` first"),
        ("fn f(x: f64[n]) -> f64 { return np.subtract.reduce(x); }", "E0108", "`maximum.accumulate`"),
        ("fn f(x: f64[n]) -> f64[n, n] { return np.add.outer(x); }", "E0501", "takes 2 arguments"),
        ("fn f(x: f64) -> f64 { return np.maximum.accumulate(x); }", "E0408", "needs an array"),
        ("fn f(x: f64[n, m]) -> f64[n, m] { return np.minimum.accumulate(x, axis=2); }", "E0405", "out of range"),
        ("fn f(x: f64[n]) -> i64 { return x.bytes; }", "E0003", "`x.nbytes`"),
        ("fn f(x: f64[2], y: f64[3]) -> bool[2, 3] { return np.logical_and.outer(x, y, x); }", "E0501", "takes 2 arguments"),
        ("fn f(x: f64[2], y: f64[3]) -> bool { return array_equiv(x, y); }", "E0401", "cannot be broadcast together"),
        ("fn f(x: f64[n]) -> bool { return array_equal(x, x, 1); }", "E0501", "takes 2 arguments"),
        ("fn f(x: bool[n]) -> bool[n] { return np.positive(x); }", "E0503", "`positive` of a bool"),
        ("fn f(x: f64[n]) -> f64[n] { return np.cbrt(x, x); }", "E0501", "takes 1 argument"),
        ("fn f(x: f64[n]) -> f64[n] { return np.heaviside(x); }", "E0501", "takes 2 arguments"),
        ("fn f(x: f64[2], y: f64[3]) -> f64[2] { return np.logaddexp(x, y); }", "E0401", "cannot be broadcast together"),
        ("fn f(x: f64[n]) -> f64[n] { let q = np.divmod(x, 2.0); return q; }", "E0309", "a tuple used as one value"),
        ("fn f(x: f64[n]) -> f64[n] { return np.divmod(x, 2.0)[2]; }", "E0309", "in range"),
    ],
)
def test_checker_errors(src, code, words, tmp_path):
    assert_check_error(src, code, words, tmp_path)


@pytest.mark.parametrize(
    "src,args,message",
    [
        ("fn f(n: i64) -> f64[n, n] {\n    return eye(n);\n}", {"n": -2}, "eye: negative dimensions are not allowed"),
        ("fn f(x: f64[n]) -> f64 {\n    return nanmax(x);\n}", {"x": np.zeros(0)}, "zero-size array"),
        ("fn f(x: f64[n], q: f64) -> f64 {\n    return percentile(x, q);\n}", {"x": np.ones(3), "q": 100.5},
         "Percentiles must be in the range [0, 100]"),
        ("fn f(x: f64[n], q: f64) -> f64 {\n    return percentile(x, q);\n}", {"x": np.ones(3), "q": "nan"},
         "Percentiles must be in the range [0, 100]"),
        ("fn f(x: i64[n]) -> f64 {\n    return percentile(x, -1);\n}", {"x": np.ones(3, dtype=np.int64)},
         "Percentiles must be in the range [0, 100]"),
        ("fn f(x: f64[n]) -> f64[2] {\n    return percentile(x, [50, 101]);\n}", {"x": np.ones(3)},
         "Percentiles must be in the range [0, 100]"),
        ("fn f(x: f32[n, m]) -> f32[m] {\n    return quantile(x, 1.5, axis=0);\n}", {"x": np.ones((2, 2), dtype=np.float32)},
         "Quantiles must be in the range [0, 1]"),
        ("fn f(x: f64[n], q: f64[k]) -> f64[k] {\n    return quantile(x, q);\n}", {"x": np.ones(3), "q": np.array([0.5, -0.25])},
         "Quantiles must be in the range [0, 1]"),
        ("fn f(x: u8[n], q: i64) -> u8 {\n    return quantile(x, q);\n}", {"x": np.ones(3, dtype=np.uint8), "q": 2},
         "Quantiles must be in the range [0, 1]"),
        ("fn f(x: f64[n]) -> f64 {\n    return percentile(x, 50);\n}", {"x": np.zeros(0)},
         "percentile: of an empty array or axis (NumPy's IndexError"),
        ("fn f(x: i64[n, m]) -> f64[n] {\n    return quantile(x, 0.5, axis=1);\n}", {"x": np.zeros((2, 0), dtype=np.int64)},
         "quantile: of an empty array or axis"),
        ("fn f(x: f64[n], w: i64[n]) -> f64 {\n    return average(x, weights=w);\n}", {"x": np.ones(3), "w": np.array([1, -1, 0])},
         "weights sum to zero"),
        ("fn f(x: f64[n, m], w: f64[n, m]) -> f64[n] {\n    return average(x, axis=1, weights=w);\n}",
         {"x": np.ones((2, 3)), "w": np.array([[1.0, 2.0, 3.0], [0.0, 0.0, 0.0]])}, "weights sum to zero"),
        ("fn f(x: i64[n, m]) -> i64[n] {\n    return ptp(x, axis=1);\n}", {"x": np.zeros((2, 0), dtype=np.int64)}, "zero-size array"),
    ],
)
def test_run_time_errors_name_the_line(src, args, message, tmp_path):
    assert_run_time_error(src, args, message, tmp_path)


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("dt", ["f64", "f32", "i64", "i32", "u8"])
@pytest.mark.parametrize("n", [0, 1, 9, 40])
def test_digitize_interp_histogram_match_numpy(n, dt, target, tmp_path):
    """NumPy's `digitize` (both sides, list and array bins, increasing and decreasing, values on the edges), `interp` (samples
    hit exactly, both ends clamped, `left=`/`right=`, one sample, a scalar `x`) and `histogram`
    (`bins=`, `range=`, positional bins, the default range, values outside the range and on the
    last edge), on numbers of several dtypes, an empty array included."""
    rng = np.random.default_rng(n + len(dt))
    x = rng.integers(-12, 13, n)
    x = (x / 4).astype(DTYPES[dt]) if dt in ("f64", "f32") else (x + 12 if dt == "u8" else x).astype(DTYPES[dt])
    m = rng.integers(-9, 10, (3, 4)).astype(DTYPES[dt]) if dt != "u8" else rng.integers(0, 9, (3, 4)).astype(np.uint8)
    ft = "f32" if dt == "f32" else "f64"  # NumPy's edges: the data's float dtype
    src = f"""fn main(x: {dt}[n], m: {dt}[3, 4], xp: f64[5], fp: f64[5]) -> (i64[n], i64[n], i64[3, 4], i64, f64[n], f64[n], f64[3, 4], f64, f64[n], i64[4], {ft}[5], i64[3], i64[10], {ft}[11], i64[n], i64[n]) {{
    let (h, e) = np.histogram(m, bins=4, range=(-2.0, 2.5));
    let (d, de) = histogram(m);
    return (np.digitize(x, [-1.0, 0.0, 0.75, 2.0]), digitize(x, xp, right=true), np.digitize(m, [0, 1, 5], True),
            digitize(1.0, xp), np.interp(x, xp, fp), interp(x, [-1.0, 0.0, 2.0], [3.0, -1.0, 5.0], left=-9.0, right=9),
            np.interp(m, xp, fp), interp(0.3, xp, fp), interp(x, [0.5], [2.0]),
            h, e, np.histogram(m, 3)[0], d, de, np.digitize(x, [2.0, 0.0, 0.0, -1.5]), digitize(x, [2.0, 0.0, 0.0, -1.5], right=True));
}}
"""
    xp = np.array([-2.0, -0.5, 0.0, 1.25, 3.0])
    fp = np.array([1.0, -2.0, 4.0, 0.5, 7.0])
    proc, got = run_source(src, {"x": x, "m": m, "xp": xp, "fp": fp}, tmp_path, flags=["--target", target])
    assert proc.returncode == 0, proc.stderr
    want = [np.digitize(x, [-1.0, 0.0, 0.75, 2.0]), np.digitize(x, xp, right=True), np.digitize(m, [0, 1, 5], True),
            np.digitize(1.0, xp), np.interp(x, xp, fp), np.interp(x, [-1.0, 0.0, 2.0], [3.0, -1.0, 5.0], left=-9.0, right=9),
            np.interp(m, xp, fp), np.interp(0.3, xp, fp), np.interp(x, [0.5], [2.0]),
            *np.histogram(m, bins=4, range=(-2.0, 2.5)), np.histogram(m, 3)[0], *np.histogram(m),
            np.digitize(x, [2.0, 0.0, 0.0, -1.5]), np.digitize(x, [2.0, 0.0, 0.0, -1.5], right=True)]
    for k, (g, w) in enumerate(zip(got, want)):
        w = np.asarray(w)
        w = w.astype(np.int64) if w.dtype.kind == "i" else w
        assert g.dtype == w.dtype and g.shape == w.shape, f"result {k}: {g.dtype}{g.shape}, NumPy {w.dtype}{w.shape}"
        np.testing.assert_allclose(g, w, rtol=1e-12, atol=1e-12, err_msg=f"result {k}")


@pytest.mark.parametrize("target", TARGETS)
def test_tri_indices_and_ix_match_numpy(target, tmp_path):
    """`triu_indices`/`tril_indices` with `k` (positional, keyword, negative, past the corner), `m=`
    and at run time, destructured and as a whole index `x[np.triu_indices(n)]`; `ix_` of lists and
    arrays as a whole index (a gather of the cross product), and its views."""
    src = """fn main(x: f64[4, 5], c: i64[3, 3, 2], j: i64, w: i64[2]) -> (i64[10], i64[10], f64[10], f64[?], i64[?], f64[6], f64[?, ?], i64[2, 1, 2], i64[1, 2], f64[?], i64[0]) {
    let (r, q) = np.triu_indices(4);
    return (r, q, x[np.triu_indices(4)], x[np.tril_indices(4, -1, 5)], triu_indices(j, k=1, m=5)[1],
            x[np.tril_indices(3, k=0)], x[np.ix_([3, 1, 1], w)], c[np.ix_([2, 0], [1], [1, 0])], np.ix_([0, 1], [2, 3])[1],
            x[np.triu_indices(j, j - 1, 5)], triu_indices(3, k=5)[0]);
}
"""
    rng = np.random.default_rng(3)
    x, c, w = rng.standard_normal((4, 5)), rng.integers(-9, 10, (3, 3, 2)), np.array([4, 0])
    j = 3
    proc, got = run_source(src, {"x": x, "c": c, "w": w}, tmp_path, flags=["--target", target, "--arg", f"j={j}"])
    assert proc.returncode == 0, proc.stderr
    want = [*np.triu_indices(4), x[np.triu_indices(4)], x[np.tril_indices(4, -1, 5)], np.triu_indices(j, k=1, m=5)[1],
            x[np.tril_indices(3, k=0)], x[np.ix_([3, 1, 1], w)], c[np.ix_([2, 0], [1], [1, 0])], np.ix_([0, 1], [2, 3])[1],
            x[np.triu_indices(j, j - 1, 5)], np.triu_indices(3, k=5)[0]]
    for k, (g, wv) in enumerate(zip(got, want)):
        wv = np.asarray(wv)
        wv = wv.astype(np.int64) if wv.dtype.kind == "i" else wv
        assert g.dtype == wv.dtype and g.shape == wv.shape, f"result {k}: {g.dtype}{g.shape}, NumPy {wv.dtype}{wv.shape}"
        np.testing.assert_array_equal(g, wv, err_msg=f"result {k}")
    # Assigned to: a scatter through the index arrays.
    src = """fn main(x: f64[4, 5]) -> f64[4, 5] {
    x[np.triu_indices(4, 1)] = 0.0;
    x[np.ix_([0, 2], [1, 3])] = -1.0;
    return x;
}
"""
    proc, got = run_source(src, {"x": x}, tmp_path, flags=["--target", target])
    assert proc.returncode == 0, proc.stderr
    want = x.copy()
    want[np.triu_indices(4, 1)] = 0.0
    want[np.ix_([0, 2], [1, 3])] = -1.0
    np.testing.assert_array_equal(got[0], want)


@pytest.mark.parametrize("target", TARGETS)
def test_reduction_dtype_and_bincount_weights_match_numpy(target, tmp_path):
    """`sum(x, dtype=d)` (function, method, with `axis=`), `prod` and `mean` with `dtype=`, and
    `bincount(i, weights=w)`: NumPy's dtypes and values."""
    src = """fn main(x: f64[4, 5], i: i64[8], v: f64[8], u: u8[6]) -> (f32, f32, f64[5], f32, f32[4], f64, i32, f64[?], u64, i64) {
    return (x.sum(dtype=np.float32), np.sum(x, dtype="float32"), np.sum(i.reshape(2, 4), axis=0, dtype=np.float64)[:4].sum() + x.sum(axis=0) * 0.0,
            np.mean(x, dtype=np.float32), x.mean(axis=1, dtype=f32), i.prod(dtype=np.float64), np.sum(i, dtype=np.int32),
            np.bincount(i, weights=v), u.sum(dtype=np.uint64), np.sum(u, dtype=np.int64));
}
"""
    rng = np.random.default_rng(5)
    x, i, v, u = rng.standard_normal((4, 5)), rng.integers(0, 6, 8), rng.standard_normal(8), rng.integers(0, 255, 6).astype(np.uint8)
    proc, got = run_source(src, {"x": x, "i": i, "v": v, "u": u}, tmp_path, flags=["--target", target])
    assert proc.returncode == 0, proc.stderr
    want = [x.sum(dtype=np.float32), np.sum(x, dtype="float32"),
            np.sum(i.reshape(2, 4), axis=0, dtype=np.float64)[:4].sum() + x.sum(axis=0) * 0.0,
            np.mean(x, dtype=np.float32), x.mean(axis=1, dtype=np.float32), i.prod(dtype=np.float64), np.sum(i, dtype=np.int32),
            np.bincount(i, weights=v), u.sum(dtype=np.uint64), np.sum(u, dtype=np.int64)]
    for k, (g, w) in enumerate(zip(got, want)):
        w = np.asarray(w)
        assert g.dtype == w.dtype and g.shape == w.shape, f"result {k}: {g.dtype}{g.shape}, NumPy {w.dtype}{w.shape}"
        np.testing.assert_allclose(g, w, rtol=1e-5 if w.dtype == np.float32 else 1e-12, err_msg=f"result {k}")


@pytest.mark.parametrize(
    "src,code,words",
    [
        ("fn f(x: f64[n], b: f64[k, 2]) -> i64[n] { return digitize(x, b); }", "E0503", "bins of `digitize` must be a 1-d"),
        ("fn f(x: f64[n], b: f64[k]) -> i64[n] { return digitize(x, b, right=1); }", "E0503", "must be `true` or `false`"),
        ("fn f(x: f64[n], b: f64[k]) -> i64[n] { return digitize(x, b, 2); }", "E0503", "`right` of `digitize`"),
        ("fn f(x: bool[n], b: f64[k]) -> i64[n] { return digitize(x, b); }", "E0503", "needs numbers"),
        ("fn f(x: f64[n]) -> f64[n] { return interp(x, [1.0, 2.0], [1.0, 2.0, 3.0]); }", "E0401", "not of the same length"),
        ("fn f(x: f64[n], p: f64[k, 2]) -> f64[n] { return interp(x, p, p); }", "E0503", "sample points `xp`"),
        ("fn f(x: f64[n], p: f64[k]) -> f64[n] { return interp(x, p, p, left=p); }", "E0503", "numeric scalar"),
        ("fn f(x: f64[n]) -> i64[?] { return histogram(x, bins=0)[0]; }", "E0503", "must be positive"),
        ("fn f(x: f64[n]) -> i64[?] { return histogram(x, range=(2.0, 1.0))[0]; }", "E0503", "max must be larger than min"),
        ("fn f(x: f64[n]) -> i64[?] { return histogram(x, range=1.0)[0]; }", "E0503", "a pair `(lo, hi)`"),
        ("fn f(x: f64[n]) -> i64[?] { return histogram(x, bins=4, normed=true)[0]; }", "E0502", "no keyword argument `normed`"),
        ("fn f(x: f64) -> i64[?] { return histogram(x)[0]; }", "E0503", "needs an array"),
        ("fn f(n: f64) -> i64[?] { return triu_indices(n)[0]; }", "E0", "the size `n` of `triu_indices`"),
        ("fn f(n: i64) -> i64[?] { return tril_indices(n, k=0.5)[0]; }", "E0", "`k`"),
        ("fn f(x: f64[n, m]) -> f64[?, ?] { return x[np.ix_([0.5], [1])]; }", "E0503", "`ix_` needs 1-d integer index arrays"),
        ("fn f(x: f64[n, m]) -> f64 { return x.sum(dtype=bool); }", "E0503", "`dtype=` of `sum` must be a numeric dtype"),
        ("fn f(x: f64[n, m]) -> i64 { return x.mean(dtype=np.int64); }", "E0503", "`dtype=` of `mean` must be a float dtype"),
    ],
)
def test_idiom_checker_errors(src, code, words, tmp_path):
    assert_check_error(src, code, words, tmp_path)


@pytest.mark.parametrize(
    "src,args,message",
    [
        ("fn f(x: f64[n], p: f64[k]) -> f64[n] {\n    return interp(x, p, p);\n}",
         {"x": np.zeros(3), "p": np.zeros(0)}, "array of sample points is empty"),
        ("fn f(x: f64[n], p: f64[k], q: f64[j]) -> f64[n] {\n    return interp(x, p, q);\n}",
         {"x": np.zeros(3), "p": np.zeros(2), "q": np.zeros(3)}, "fp and xp are not of the same length"),
        ("fn f(x: f64[n], b: i64) -> i64[?] {\n    return histogram(x, b)[0];\n}",
         {"x": np.zeros(3), "b": 0}, "`bins` must be positive"),
        ("fn f(x: f64[n], lo: f64) -> i64[?] {\n    return histogram(x, range=(lo, 0.0))[0];\n}",
         {"x": np.zeros(3), "lo": 1.0}, "max must be larger than min"),
        ("fn f(n: i64) -> i64[?] {\n    return triu_indices(n)[0];\n}",
         {"n": -1}, "negative dimensions are not allowed"),
        ("fn f(x: f64[n], b: f64[k]) -> i64[n] {\n    return digitize(x, b);\n}",
         {"x": np.zeros(3), "b": np.array([1.0, 2.0, 0.0])}, "bins must be monotonically increasing or decreasing"),
    ],
)
def test_idiom_run_time_errors_name_the_line(src, args, message, tmp_path):
    assert_run_time_error(src, args, message, tmp_path)


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("dt", ["f64", "f32", "i64", "u8", "bool"])
@pytest.mark.parametrize("shape", [(5, 4, 3), (1, 6, 2), (0, 4, 2)], ids=lambda s: "x".join(map(str, s)))
def test_unique_parts_match_numpy(shape, dt, target, tmp_path):
    """`unique(x, return_index=, return_inverse=, return_counts=)`: NumPy 2's tuple of the parts
    asked for (the inverse in `x`'s shape), NaNs counted as one, against NumPy."""
    rng = np.random.default_rng(sum(shape) * 3 + len(dt))
    ins = inputs(dt, shape, rng)
    a, v = ins["a"], ins["v"]
    src = f"""fn main(a: {dt}[n, m], v: {dt}[n]) -> ({dt}[?], i64[?], i64[n, m], i64[?], {dt}[?], i64[?], {dt}[?], i64[n]) {{
    let (u, i, inv, c) = unique(a, return_index=True, return_inverse=True, return_counts=True);
    let (w, cw) = np.unique(v, return_counts=True);
    let (x, ix) = unique(v, return_inverse=true);
    return (u, i, inv, c, w, cw, x, ix);
}}
"""
    proc, got = run_source(src, {"a": a, "v": v}, tmp_path, flags=["--target", target])
    assert proc.returncode == 0, proc.stderr
    want = [*np.unique(a, return_index=True, return_inverse=True, return_counts=True),
            *np.unique(v, return_counts=True), *np.unique(v, return_inverse=True)]
    for k, (g, w) in enumerate(zip(got, want)):
        assert_matches(np.asarray(g), np.asarray(w), dt, f"result {k}")

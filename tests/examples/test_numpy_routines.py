"""NumPy's everyday routines of issue 31 against NumPy (docs/language.md, "Builtin functions"):
`tri`, `nanargmin`/`nanargmax`, on several dtypes and shapes (empty ones, all-NaN slices), on the
CPU and on the GPU kernels (emulated, and the GPU where there is one); then the checker's errors
and the run time's, each naming the line."""
import numpy as np
import pytest

from arrayc_examples import DTYPES, TARGETS, assert_check_error, assert_run_time_error, run_source


def assert_same(got, want, what):
    """`got` has NumPy's dtype, shape and values exactly (NaN where NumPy's)."""
    got, want = np.asarray(got), np.asarray(want)
    assert got.dtype == want.dtype and got.shape == want.shape, f"{what}: {got.dtype}{got.shape}, NumPy {want.dtype}{want.shape}"
    np.testing.assert_array_equal(got, want, err_msg=what)


@pytest.mark.parametrize("target", TARGETS)
def test_tri_matches_numpy(target, tmp_path):
    src = """fn main(n: i64, m: i64, k: i64) -> (f64[n, n], f64[n, m], f32[n, m], i64[3, 5], bool[n, m], u8[4, 2], f64[n, m], i32[n, n], f64[0, 3]) {
    return (tri(n), tri(n, m), tri(n, m, k, dtype=f32), np.tri(3, 5, k=-1, dtype=np.int64), tri(n, m, k=-k, dtype=bool),
            tri(4, 2, 7, dtype=u8), tri(n, m, m), np.tri(n, k=k, dtype=np.int32), tri(0, 3));
}
"""
    for n, m, k in [(4, 6, 2), (5, 3, 1), (0, 2, 0), (1, 1, 0), (3, 4, -5)]:
        flags = ["--target", target] + [a for p, v in (("n", n), ("m", m), ("k", k)) for a in ("--arg", f"{p}={v}")]
        proc, got = run_source(src, {}, tmp_path / f"{n}{m}{k}", flags=flags)
        assert proc.returncode == 0, proc.stderr
        want = [np.tri(n), np.tri(n, m), np.tri(n, m, k, dtype=np.float32), np.tri(3, 5, k=-1, dtype=np.int64),
                np.tri(n, m, k=-k, dtype=bool), np.tri(4, 2, 7, dtype=np.uint8), np.tri(n, m, m),
                np.tri(n, k=k, dtype=np.int32), np.tri(0, 3)]
        for i, (g, w) in enumerate(zip(got, want)):
            assert_same(g, w, f"result {i} of n={n} m={m} k={k}")


NAN_ARG_CASES = [
    ("nanargmax(x)", lambda x: np.nanargmax(x), "i64"),
    ("np.nanargmin(x)", lambda x: np.nanargmin(x), "i64"),
    ("nanargmax(x, axis=1)", lambda x: np.nanargmax(x, axis=1), "i64[n]"),
    ("nanargmin(x, axis=0)", lambda x: np.nanargmin(x, axis=0), "i64[m]"),
    ("nanargmax(x, -2)", lambda x: np.nanargmax(x, -2), "i64[m]"),
    ("nanargmin(x[0])", lambda x: np.nanargmin(x[0]), "i64"),
]


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("dt", ["f64", "f32", "i64", "i32", "u8", "bool"])
@pytest.mark.parametrize("shape", [(3, 4), (1, 1), (6, 5)], ids=lambda s: "x".join(map(str, s)))
def test_nanargmin_nanargmax_match_numpy(shape, dt, target, tmp_path):
    """Ties (small integers), NaNs in floats (no slice all NaN), infinities (`-inf` in `nanargmax`
    loses to every number but ties with a NaN's replacement, first position wins)."""
    rng = np.random.default_rng(sum(shape) * 5 + len(dt))
    x = rng.integers(-3, 4, shape)
    if dt == "bool":
        x = x > 0
    elif dt in ("f64", "f32"):
        x = x.astype(DTYPES[dt])
        x[rng.random(shape) < 0.3] = np.nan
        x[:, 0] = np.where(np.arange(shape[0]) % 2 == 0, -np.inf, np.inf)
        x[0, -1] = 1.0  # no all-NaN column or row
        x[-1, :] = np.where(np.isnan(x[-1, :]), 2.0, x[-1, :])
    elif dt == "u8":
        x = (x + 3).astype(np.uint8)
    else:
        x = x.astype(DTYPES[dt])
    src = (
        f"fn main(x: {dt}[n, m]) -> ({', '.join(t for _, _, t in NAN_ARG_CASES)}) {{\n"
        f"    return ({', '.join(e for e, _, _ in NAN_ARG_CASES)});\n}}\n"
    )
    proc, got = run_source(src, {"x": x}, tmp_path, flags=["--target", target])
    assert proc.returncode == 0, f"{src}\n{x}\n{proc.stderr}"
    for g, (e, f, _) in zip(got, NAN_ARG_CASES):
        assert_same(g, f(x), e)


@pytest.mark.parametrize(
    "src, args, message",
    [
        ("fn f(x: f64[n, m]) -> i64[m] {\n    return nanargmax(x, axis=0);\n}\n",
         {"x": np.array([[1.0, np.nan], [2.0, np.nan]])}, "All-NaN slice encountered"),
        ("fn f(x: f32[n]) -> i64 {\n    return nanargmin(x);\n}\n",
         {"x": np.full(3, np.nan, dtype=np.float32)}, "All-NaN slice encountered"),
        # NumPy checks NaNs only of a non-empty array: an empty one is `argmax`'s error.
        ("fn f(x: f64[n, m]) -> i64[m] {\n    return nanargmax(x, axis=0);\n}\n",
         {"x": np.zeros((0, 3))}, "attempt to get argmax of an empty sequence"),
        ("fn f(x: i64[n]) -> i64 {\n    return nanargmin(x);\n}\n",
         {"x": np.zeros(0, dtype=np.int64)}, "attempt to get argmin of an empty sequence"),
        ("fn f(n: i64) -> f64[n, n] {\n    return tri(n);\n}\n", {"n": -1}, "tri: negative dimensions are not allowed"),
    ],
)
def test_run_time_errors(src, args, message, tmp_path):
    assert_run_time_error(src, args, message, tmp_path)


def test_all_nan_slices_are_value_errors_in_numpy():
    """The references of the run-time errors above."""
    with pytest.raises(ValueError, match="All-NaN slice encountered"):
        np.nanargmax(np.array([[1.0, np.nan], [2.0, np.nan]]), axis=0)
    with pytest.raises(ValueError, match="attempt to get argmax of an empty sequence"):
        np.nanargmax(np.zeros((0, 3)), axis=0)


@pytest.mark.parametrize(
    "src, code, words",
    [
        ("fn f(x: f64) -> i64 { return nanargmax(x); }", "E0408", "`nanargmax` needs an array"),
        ("fn f(x: f64[n]) -> i64 { return nanargmin(x, axis=1); }", "E0", "axis"),
        ("fn f() -> f64[2, 2] { return tri(-2); }", "E0503", "negative dimensions"),
        ("fn f(x: f64) -> f64[2, 2] { return tri(x); }", "E0", "the number of rows of `tri`"),
    ],
)
def test_checker_errors(src, code, words, tmp_path):
    assert_check_error(src, code, words, tmp_path)

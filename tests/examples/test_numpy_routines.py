"""NumPy's everyday routines of issue 31 against NumPy (docs/language.md, "Builtin functions"):
`tri`, `nanargmin`/`nanargmax`, `geomspace` (within an ulp, exact endpoints), `vander`, `polyval`, on several dtypes and shapes (empty ones, all-NaN slices), on the
CPU and on the GPU kernels (emulated, and the GPU where there is one); then the checker's errors
and the run time's, each naming the line."""
import numpy as np
import pytest

from arrayc_examples import DTYPES, TARGETS, assert_check_error, assert_run_time_error, run_source, ulps_apart


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


@pytest.mark.parametrize("target", TARGETS)
def test_geomspace_matches_numpy(target, tmp_path):
    """NumPy's formula (log10, linspace, power, the exact endpoints, the sign of `start`): every
    element within an ulp of NumPy's (bit for bit with NumPy up to 2.4.5; 2.4.6 computes `power`
    with its own vectorised code, an ulp from the C library's `pow` that arrayc calls), the
    endpoints exact, over random bounds of both signs and sizes."""
    src = """fn main(a: f64, b: f64, n: i64) -> (f64[n], f64[n], f64[50]) {
    return (geomspace(a, b, n), np.geomspace(a, b, num=n, endpoint=false), geomspace(a, b));
}
"""
    rng = np.random.default_rng(3)
    bounds = [(1.0, 1000.0, 4), (-2.5, -1e5, 7), (3.0, 7.0, 5), (2.0, 8.0, 1), (1.0, 2.0, 0), (1e-300, 1e300, 9),
              (0.1, 0.7, 33), (5.0, -8.0, 3)]
    bounds += [(float(s1 * 10 ** rng.uniform(-5, 5)), float(s1 * 10 ** rng.uniform(-5, 5)), int(rng.integers(2, 60)))
               for s1 in (1, -1) for _ in range(6)]
    for k, (a, b, n) in enumerate(bounds):
        flags = ["--target", target] + [x for p, v in (("a", repr(a)), ("b", repr(b)), ("n", n)) for x in ("--arg", f"{p}={v}")]
        proc, got = run_source(src, {}, tmp_path / str(k), flags=flags)
        assert proc.returncode == 0, proc.stderr
        with np.errstate(invalid="ignore"):
            want = [np.geomspace(a, b, n), np.geomspace(a, b, num=n, endpoint=False), np.geomspace(a, b)]
        for i, (g, w) in enumerate(zip(got, want)):
            what = f"result {i} of geomspace({a!r}, {b!r}, {n})"
            assert g.dtype == w.dtype and g.shape == w.shape, what
            assert ulps_apart(g, w, 1).all(), f"{what}: {g} vs NumPy's {w}"
            assert g[:1].tolist() == w[:1].tolist(), f"{what}: first element"
            if i != 1:
                assert g[-1:].tolist() == w[-1:].tolist(), f"{what}: last element"


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("dt", ["f64", "f32", "i64", "i32", "u8", "bool"])
def test_vander_matches_numpy(dt, target, tmp_path):
    """NumPy's dtypes (`promote_types(dtype, int)`), its running products (exact floats), `N`
    given or not, 0 and 1 columns, increasing or not, an empty `x`."""
    src = f"""fn main(x: {dt}[n], k: i64) -> (R[n, n], R[n, 3], R[n, k], R[n, 0], R[n, 1], R[n, 5]) {{
    return (vander(x), vander(x, 3, increasing=true), np.vander(x, N=k), vander(x, 0), vander(x, 1), vander(x, 5, increasing=false));
}}
"""
    r = np.promote_types(DTYPES[dt], np.int64)
    src = src.replace("R[", next(k for k, v in DTYPES.items() if v == r) + "[")
    rng = np.random.default_rng(len(dt))
    for n in (4, 0, 1, 9):
        x = rng.integers(-3, 4, n)
        x = x > 0 if dt == "bool" else (x + 3).astype(np.uint8) if dt == "u8" else (x * 0.75).astype(DTYPES[dt]) if dt[0] == "f" else x.astype(DTYPES[dt])
        proc, got = run_source(src, {"x": x}, tmp_path / str(n), flags=["--target", target, "--arg", "k=6"])
        assert proc.returncode == 0, f"{src}\n{proc.stderr}"
        want = [np.vander(x), np.vander(x, 3, increasing=True), np.vander(x, N=6), np.vander(x, 0), np.vander(x, 1),
                np.vander(x, 5, increasing=False)]
        for i, (g, w) in enumerate(zip(got, want)):
            assert_same(g, w, f"result {i} of n={n}")


@pytest.mark.parametrize(
    "src, args, message",
    [
        ("fn f(a: f64) -> f64[50] {\n    return geomspace(a, 10.0);\n}\n", {"a": 0.0}, "Geometric sequence cannot include zero"),
        ("fn f(a: f64) -> f64[5] {\n    return geomspace(1.0, a, 5);\n}\n", {"a": -0.0}, "Geometric sequence cannot include zero"),
        ("fn f(x: f64[n], k: i64) -> f64[n, k] {\n    return vander(x, k);\n}\n", {"x": np.ones(2), "k": -1},
         "vander: negative dimensions are not allowed"),
    ],
)
def test_geomspace_vander_run_time_errors(src, args, message, tmp_path):
    assert_run_time_error(src, args, message, tmp_path)


@pytest.mark.parametrize(
    "src, code, words",
    [
        ("fn f(x: f64[n, m]) -> f64[n, n] { return vander(x); }", "E0503", "`vander` needs a 1-d array"),
        ("fn f(x: f64) -> f64[1, 1] { return vander(x); }", "E0503", "`vander` needs a 1-d array"),
        ("fn f(x: f64[n]) -> f64[n, 2] { return vander(x, -2); }", "E0503", "negative dimensions"),
        ("fn f(x: f64[n]) -> f64[n, 2] { return vander(x, 2.0); }", "E0", "`N` of `vander`"),
        ("fn f(x: f64[n]) -> f64[n, n] { return vander(x, increasing=1); }", "E0503", "`increasing=` must be `true` or `false`"),
        ("fn f(x: f64[n]) -> f64[50] { return geomspace(x, 2.0); }", "E0503", "`geomspace` needs numeric scalar bounds"),
        ("fn f() -> f64[50] { return geomspace(1.0, 2.0, base=2.0); }", "E0502", "base"),
    ],
)
def test_geomspace_vander_checker_errors(src, code, words, tmp_path):
    assert_check_error(src, code, words, tmp_path)


@pytest.mark.parametrize("target", TARGETS)
def test_polyval_matches_numpy_bit_for_bit(target, tmp_path):
    """NumPy's Horner loop (`y = 0; y = y * x + p[j]`): the same roundings, so every element equal
    to NumPy's; NaN at infinities (`0 * inf`) as NumPy's; the dtypes promoted as arrays; literal
    and parameter coefficients, array and scalar `x`, an empty `x`."""
    src = """fn main(x: f64[n], i: i32[n], f: f32[n], p: f64[4], q: i64[3]) -> (f64[n], f64[n], i64[n], f64[n], f64, f32[n], f64[n], i64, u8[n]) {
    return (polyval(p, x), polyval([3.0, 0.0, 1.0], x), np.polyval(q, i), polyval(q, x), polyval(p, 2.5), polyval(f32(p), f),
            polyval(p, f), polyval([1, 2], 3), polyval(u8([2, 1]), u8(i)));
}
"""
    rng = np.random.default_rng(5)
    p = rng.normal(size=4)
    q = np.array([2, -3, 7])
    for n in (0, 5, 40):
        x = rng.normal(size=n) * 3
        if n:
            x[0], x[-1] = np.inf, np.nan
        i = rng.integers(-1000, 1000, n).astype(np.int32)
        f = rng.normal(size=n).astype(np.float32)
        proc, got = run_source(src, {"x": x, "i": i, "f": f, "p": p, "q": q}, tmp_path / str(n), flags=["--target", target])
        assert proc.returncode == 0, proc.stderr
        with np.errstate(invalid="ignore", over="ignore"):
            want = [np.polyval(p, x), np.polyval([3.0, 0.0, 1.0], x), np.polyval(q, i), np.polyval(q, x), np.polyval(p, 2.5),
                    np.polyval(p.astype(np.float32), f), np.polyval(p, f), np.polyval([1, 2], 3),
                    np.polyval(np.array([2, 1], np.uint8), i.astype(np.uint8))]
        for k, (g, w) in enumerate(zip(got, want)):
            assert_same(g, w, f"result {k} of n={n}")


@pytest.mark.parametrize(
    "src, words",
    [
        ("fn f(p: f64[2, 2], x: f64[m]) -> f64[m] { return polyval(p, x); }", "`polyval` needs a 1-d array"),
        ("fn f(p: f64[0], x: f64[m]) -> f64[m] { return polyval(p, x); }", "`polyval` needs a 1-d array of coefficients (1 to 256"),
        ("fn f(p: f64, x: f64[m]) -> f64[m] { return polyval(p, x); }", "`polyval` needs a 1-d array"),
    ],
)
def test_polyval_checker_errors(src, words, tmp_path):
    assert_check_error(src, "E0503", words, tmp_path)

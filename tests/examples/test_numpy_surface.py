"""NumPy's main-namespace surface of issue 31 against NumPy (docs/language.md, "Builtin functions"
and "Other spellings of builtins"): `atleast_1d`/`atleast_2d`/`atleast_3d` (shapes and views),
`modf` (signs of zeros, infinities, NaN), the statement `fill_diagonal` (tall, wide, n-d, cycled
and converted values), NumPy 2's array-API names and the compositions of builtins (`nanprod`,
`nancumsum`, `isposinf`, `diagflat`, `ediff1d`, `tril_indices_from`, `extract`, `astype`, ...), on
several dtypes, on the CPU and on the GPU kernels (emulated, and the GPU where there is one); then
the checker's errors, the run time's, and the help of the names arrayc still lacks."""
import warnings

import numpy as np
import pytest

from arrayc_examples import DTYPES, TARGETS, assert_check_error, assert_run_time_error, run_source, ulps_apart


def assert_same(got, want, what, signs=False):
    """`got` has NumPy's dtype, shape and values exactly (NaN where NumPy's; with `signs`, the sign
    of each zero and NaN too)."""
    got, want = np.asarray(got), np.asarray(want)
    assert got.dtype == want.dtype and got.shape == want.shape, f"{what}: {got.dtype}{got.shape}, NumPy {want.dtype}{want.shape}"
    np.testing.assert_array_equal(got, want, err_msg=what)
    if signs:
        np.testing.assert_array_equal(np.signbit(got), np.signbit(want), err_msg=f"{what}: signs")


def run_ok(src, inputs, tmp_path, target, flags=()):
    proc, got = run_source(src, inputs, tmp_path, flags=["--target", target, *flags])
    assert proc.returncode == 0, f"{src}\n{proc.stderr}"
    return got


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("dt", ["f64", "i32", "bool"])
def test_atleast_shapes_and_views_match_numpy(dt, target, tmp_path):
    """NumPy's shapes of every rank from a scalar to 4-d, and writes through the views reach the
    argument (a new array of a scalar)."""
    src = f"""fn main(s: {dt}, z: {dt}[], v: {dt}[n], m: {dt}[n, k], t: {dt}[a, b, c], q: {dt}[a, b, c, n]) ->
        ({dt}[1], {dt}[1, 1], {dt}[1, 1, 1], {dt}[1], {dt}[1, 1], {dt}[1, 1, 1], {dt}[n], {dt}[1, n], {dt}[1, n, 1],
         {dt}[n, k], {dt}[n, k], {dt}[n, k, 1], {dt}[a, b, c], {dt}[a, b, c], {dt}[a, b, c, n], {dt}[n], {dt}[n, k]) {{
    let v3 = np.atleast_3d(v);
    v3[0, 1, 0] = s;
    let m2 = atleast_2d(m);
    m2[1, 0] = s;
    return (atleast_1d(s), atleast_2d(s), np.atleast_3d(s), atleast_1d(z), atleast_2d(z), atleast_3d(z),
            atleast_1d(v), atleast_2d(v), v3, atleast_1d(m), m2, atleast_3d(m), atleast_2d(t), atleast_3d(t),
            np.atleast_3d(q), v, m);
}}
"""
    rng = np.random.default_rng(3)
    n, k, a, b, c = 3, 2, 2, 3, 4
    mk = lambda *shape: (rng.integers(0, 3, shape) * 1).astype(DTYPES[dt])
    s = DTYPES[dt](1)
    inputs = {"z": np.asarray(mk()), "v": mk(n), "m": mk(n, k), "t": mk(a, b, c), "q": mk(a, b, c, n)}
    flags = ["--arg", f"s={'true' if dt == 'bool' else 1}"]
    got = run_ok(src, inputs, tmp_path, target, flags)
    v, m = inputs["v"].copy(), inputs["m"].copy()
    np.atleast_3d(v)[0, 1, 0] = s
    np.atleast_2d(m)[1, 0] = s
    want = [np.atleast_1d(s), np.atleast_2d(s), np.atleast_3d(s), np.atleast_1d(inputs["z"]),
            np.atleast_2d(inputs["z"]), np.atleast_3d(inputs["z"]), np.atleast_1d(v), np.atleast_2d(v),
            np.atleast_3d(v), np.atleast_1d(m), np.atleast_2d(m), np.atleast_3d(m), np.atleast_2d(inputs["t"]),
            np.atleast_3d(inputs["t"]), np.atleast_3d(inputs["q"]), v, m]
    assert len(got) == len(want)
    for i, (g, w) in enumerate(zip(got, want)):
        assert_same(g, w, f"result {i}")


MODF_VALUES = np.array([-0.5, 0.0, -0.0, np.inf, -np.inf, np.nan, -3.0, 2.25, 1e300, -7.75, 5e-324, -1.5e16 - 0.5])


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("dt", ["f64", "f32", "i64", "i32", "u8", "bool"])
def test_modf_matches_numpy(dt, target, tmp_path):
    """Both parts with `x`'s sign (`-0.0` included), infinities and NaN as NumPy's; integers in
    `f64` (NumPy's `float16` of `u8` and `bool` is `f64` in arrayc, as `sqrt`'s)."""
    fd = "f32" if dt == "f32" else "f64"
    src = f"""fn main(x: {dt}[n], m: {dt}[n, 2]) -> ({fd}[n], {fd}[n], {fd}[n, 2], {fd}, {fd}, f64, f64) {{
    let (f, i) = np.modf(x);
    let (p, q) = modf(-0.5);
    return (f, i, modf(m)[1], modf(x[0])[0], modf(x[1])[1], p, q);
}}
"""
    if dt in ("f64", "f32"):
        x = MODF_VALUES.astype(DTYPES[dt])
    elif dt == "bool":
        x = np.arange(12) % 3 == 0
    else:
        x = (np.arange(12) * 37 - (0 if dt == "u8" else 200)).astype(DTYPES[dt])
    m = np.stack([x, x[::-1]], axis=1)
    with np.errstate(invalid="ignore"):
        got = run_ok(src, {"x": x, "m": m}, tmp_path, target)
        ref = x if dt in ("f64", "f32") else x.astype(np.float64)
        mref = m if dt in ("f64", "f32") else m.astype(np.float64)
        f, i = np.modf(ref)
        want = [f, i, np.modf(mref)[1], np.modf(ref[0])[0], np.modf(ref[1])[1], *np.modf(-0.5)]
    for k, (g, w) in enumerate(zip(got, want)):
        assert_same(g, w, f"result {k}", signs=True)


FILL_CASES = [
    # (a's shape, a's dtype, val, what)
    ((4, 4), np.float64, 2.5, "square, scalar"),
    ((5, 3), np.float64, np.array([1.0, 2.0]), "tall, cycled"),
    ((2, 5), np.float64, np.array([1.0, 2.0, 3.0]), "wide, longer value"),
    ((4, 4), np.int64, np.array([1.5, -2.5, 7.9]), "float into int (truncated)"),
    ((3, 3), np.bool_, 2.0, "bool target"),
    ((3, 3, 3), np.float64, np.array([7.0, 8.0]), "3-d"),
    ((2, 2, 2, 2), np.int32, np.array([[1, 2], [3, 4]]), "4-d, 2-d value flattened"),
    ((3, 3), np.uint8, np.array([300, 5]), "u8 target, wrapped"),
    ((3, 3), np.float64, np.zeros(0), "empty value"),
    ((0, 2), np.float64, np.array([1.0, 2.0]), "no rows"),
    ((3, 0), np.float32, np.array([1.0]), "no columns"),
    ((1, 1), np.float32, np.array([4.0, 5.0]), "one element"),
]


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("shape, dtype, val, what", FILL_CASES, ids=[c[3] for c in FILL_CASES])
def test_fill_diagonal_matches_numpy(shape, dtype, val, what, target, tmp_path):
    dt = next(k for k, v in DTYPES.items() if v == dtype)
    vt = "f64" if np.ndim(val) == 0 else f"{next(k for k, v in DTYPES.items() if v == np.asarray(val).dtype)}[{', '.join('p' + str(i) for i in range(np.ndim(val)))}]"
    sizes = ", ".join(f"d{i}" for i in range(len(shape)))
    src = f"""fn main(a: {dt}[{sizes}], v: {vt}) -> {dt}[{sizes}] {{
    fill_diagonal(a, v);
    return a;
}}
"""
    a = (np.arange(int(np.prod(shape))).reshape(shape) % 3 == 1).astype(dtype)
    inputs = {"a": a}
    flags = []
    if np.ndim(val) == 0:
        flags = ["--arg", f"v={val!r}"]
    else:
        inputs["v"] = np.asarray(val)
    got = run_ok(src, inputs, tmp_path, target, flags)
    want = a.copy()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        np.fill_diagonal(want, np.asarray(val).astype(dtype) if np.ndim(val) else val)
    assert_same(got[0], want, what)


@pytest.mark.parametrize("target", TARGETS)
def test_fill_diagonal_of_views_and_in_loops(target, tmp_path):
    """Through a view (a block of the array, a transposed array), in a loop, and read after."""
    src = """fn main(a: f64[n, n]) -> (f64[n, n], f64[n, n], f64) {
    let b = copy(a);
    fill_diagonal(a[1:, 1:], 9.0);
    for k in range(3) {
        fill_diagonal(b.T, f64(k));
    }
    fill_diagonal(b[:, 2:], [5.0, 6.0]);
    return (a, b, sum(diagonal(a)));
}
"""
    a = np.arange(25.0).reshape(5, 5)
    got = run_ok(src, {"a": a}, tmp_path, target)
    wa, wb = a.copy(), a.copy()
    np.fill_diagonal(wa[1:, 1:], 9.0)
    for k in range(3):
        np.fill_diagonal(wb.T, float(k))
    np.fill_diagonal(wb[:, 2:], [5.0, 6.0])
    for g, w, what in zip(got, [wa, wb, np.sum(np.diagonal(wa))], ["a", "b", "sum"]):
        assert_same(g, w, what)


SPELLINGS = [
    # (arrayc expression, its result type given x: T[n], m: T[n, n]; NumPy's function of (x, m))
    ("np.acos(x / 10.0)", "F[n]", lambda x, m: np.acos(x / 10.0)),
    ("np.asin(x / 10.0)", "F[n]", lambda x, m: np.asin(x / 10.0)),
    ("np.atan(x)", "F[n]", lambda x, m: np.atan(x)),
    ("np.acosh(x + 1.0)", "F[n]", lambda x, m: np.acosh(x + 1.0)),
    ("np.asinh(x)", "F[n]", lambda x, m: np.asinh(x)),
    ("np.atanh(x / 10.0)", "F[n]", lambda x, m: np.atanh(x / 10.0)),
    ("np.atan2(x, 2.0)", "F[n]", lambda x, m: np.atan2(x, 2.0)),
    ("np.pow(x, 2)", "T[n]", lambda x, m: np.pow(x, 2)),
    ("np.concat([x, x])", "T[2 * n]", lambda x, m: np.concat([x, x])),
    ("np.concat((m, m), 1)", "T[n, 2 * n]", lambda x, m: np.concat((m, m), 1)),
    ("np.permute_dims(m, (1, 0))", "T[n, n]", lambda x, m: np.permute_dims(m, (1, 0))),
    ("np.row_stack((x, x))", "T[2, n]", lambda x, m: np.vstack((x, x))),
    ("np.fix(x / 3.0)", "F[n]", lambda x, m: np.fix(x / 3.0)),
    ("np.fix(x)", "T[n]", lambda x, m: np.fix(x)),
    ("np.nanprod(m, 0)", "P[n]", lambda x, m: np.nanprod(m, 0)),
    ("np.nanprod(x)", "P", lambda x, m: np.nanprod(x)),
    ("np.nancumsum(m, axis=1)", "P[n, n]", lambda x, m: np.nancumsum(m, axis=1)),
    ("np.nancumsum(m)", "P[?]", lambda x, m: np.nancumsum(m)),
    ("np.nancumprod(x)", "P[n]", lambda x, m: np.nancumprod(x)),
    ("np.isposinf(x)", "bool[n]", lambda x, m: np.isposinf(x)),
    ("np.isneginf(m)", "bool[n, n]", lambda x, m: np.isneginf(m)),
    ("np.diagflat(m[:2, :2])", "T[4, 4]", lambda x, m: np.diagflat(m[:2, :2])),
    ("np.diagflat(x, 1)", "T[n + 1, n + 1]", lambda x, m: np.diagflat(x, 1)),
    ("np.ediff1d(m)", "T[?]", lambda x, m: np.ediff1d(m)),
    ("m[np.tril_indices_from(m)]", "T[?]", lambda x, m: m[np.tril_indices_from(m)]),
    ("m[np.triu_indices_from(m, 1)]", "T[?]", lambda x, m: m[np.triu_indices_from(m, 1)]),
    ("np.extract(m > 1, m)", "T[?]", lambda x, m: np.extract(m > 1, m)),
    ("np.astype(x, np.float32)", "f32[n]", lambda x, m: np.astype(x, np.float32)),
    ("np.astype(m, 'int64')", "i64[n, n]", lambda x, m: np.astype(m, "int64")),
]

# The spellings computed by the C library's functions: NumPy 2.4.6 computes some of them (`acos`)
# with its own vectorised code, an ulp from the C library's, so these are compared within an ulp.
LIBM_SPELLINGS = {e for e, _, _ in SPELLINGS[:7]}


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("dt", ["f64", "f32", "i64", "u8"])
def test_spellings_match_numpy(dt, target, tmp_path):
    """NumPy 2's array-API names and the compositions of builtins: NumPy's values and dtypes (NaN,
    infinities and negative values in the floats)."""
    float_dt = dt if dt in ("f64", "f32") else "f64"
    prod_dt = {"i64": "i64", "u8": "u64"}.get(dt, dt)
    cases = [(e, t.replace("F", float_dt).replace("T", dt).replace("P", prod_dt), f)
             for e, t, f in SPELLINGS]
    if dt == "u8":
        # NumPy's float16 of these (arrayc's f64, as `sqrt`'s: other values).
        cases = [c for c in cases if c[0] not in ("np.atan(x)", "np.asinh(x)", "np.atan2(x, 2.0)")]
    src = (f"fn main(x: {dt}[n], m: {dt}[n, n]) -> ({', '.join(t for _, t, _ in cases)}) {{\n"
           f"    return ({', '.join(e for e, _, _ in cases)});\n}}\n")
    n = 4
    x = (np.arange(n) * 3 - (0 if dt == "u8" else 5)).astype(DTYPES[dt])
    m = (np.arange(n * n).reshape(n, n) % 5 - (0 if dt == "u8" else 2)).astype(DTYPES[dt])
    if dt in ("f64", "f32"):
        x[0], x[2] = np.inf, -np.inf
        m[1, 1], m[2, 0] = np.nan, np.nan
    got = run_ok(src, {"x": x, "m": m}, tmp_path, target)
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        for g, (e, _, f) in zip(got, cases):
            want = f(x, m)
            if want.dtype == np.float16:
                want = want.astype(np.float64)
            if e in LIBM_SPELLINGS:
                assert g.dtype == want.dtype and g.shape == want.shape, e
                assert ulps_apart(g, want, 1).all(), f"{e}: {g} vs NumPy's {want}"
            else:
                assert_same(g, want, e)


@pytest.mark.parametrize("target", TARGETS)
def test_bitwise_array_api_names(target, tmp_path):
    src = """fn main(i: i64[n], u: u8[n], b: bool[n]) -> (i64[n], u8[n], bool[n], i64[n]) {
    return (np.bitwise_left_shift(i, 2), np.bitwise_right_shift(u, 1), np.bitwise_invert(b), np.bitwise_invert(i));
}
"""
    i, u, b = np.arange(-3, 3), np.arange(250, 256).astype(np.uint8), np.arange(6) % 2 == 0
    got = run_ok(src, {"i": i, "u": u, "b": b}, tmp_path, target)
    want = [np.bitwise_left_shift(i, 2), np.bitwise_right_shift(u, 1), np.bitwise_invert(b), np.bitwise_invert(i)]
    for g, w in zip(got, want):
        assert_same(g, w, "bitwise")


@pytest.mark.parametrize(
    "src, code, words",
    [
        ("fn f(x: f64[n]) { fill_diagonal(x, 1.0); }", "E0503", "at least 2 dimensions"),
        ("fn f(x: f64) { fill_diagonal(x, 1.0); }", "E0503", "at least 2 dimensions"),
        ("fn f(x: f64[3, 3, 2]) { fill_diagonal(x, 1.0); }", "E0401", "all its sizes equal"),
        ("fn f(x: f64[n, n]) { fill_diagonal(x, 1.0, wrap=true); }", "E0503", "wrap=true"),
        ("fn f(x: f64[n, n]) { fill_diagonal(x, 1.0, wrap=1); }", "E0503", "`wrap=` must be `true` or `false`"),
        ("fn f(x: f64[n]) -> f64[n] { return modf(x); }", "E0309", "2 results used as a single value"),
        ("fn f(x: f64[n]) -> f64[n] { return atleast_1d(x, x); }", "E0501", "atleast_1d"),
        ("fn f(x: f64[n]) -> f64[n] { return np.trapz(x); }", "E0202", "trapezoid"),
        ("fn f(x: f64[n, m]) -> f64 { return np.nanmedian(x, axis=(0, 1)); }", "E0202", "nanmedian"),
    ],
)
def test_checker_errors(src, code, words, tmp_path):
    assert_check_error(src, code, words, tmp_path)


def test_fill_diagonal_of_unequal_sizes_is_a_run_time_error(tmp_path):
    src = "fn f(x: f64[a, b, c]) -> f64[a, b, c] {\n    fill_diagonal(x, 1.0);\n    return x;\n}\n"
    assert_run_time_error(src, {"x": np.zeros((2, 2, 3))}, "All dimensions of input must be of equal length", tmp_path)
    with pytest.raises(ValueError, match="All dimensions of input must be of equal length"):
        np.fill_diagonal(np.zeros((2, 2, 3)), 1.0)


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("dt", ["f64", "i32"])
def test_matrix_transpose_dsplit_rollaxis_match_numpy(dt, target, tmp_path):
    """`matrix_transpose` (a view: a write reaches the argument), `dsplit` and `rollaxis` of
    nonnegative literals (before, at and after the axis) on 2-d, 3-d and 4-d arrays."""
    src = f"""fn main(m: {dt}[a, b], t: {dt}[a, b, c], q: {dt}[a, b, c, e]) ->
        ({dt}[b, a], {dt}[a, c, b], {dt}[a, b, 2], {dt}[a, b, 2], {dt}[c, a, b], {dt}[a, c, b], {dt}[b, a, c],
         {dt}[b, c, a, e], {dt}[a, b, c, e], {dt}[a, b, e, c], {dt}[e, a, b, c], {dt}[a, b]) {{
    let v = np.matrix_transpose(m);
    v[0, 1] = {dt}(7);
    let (d0, d1) = np.dsplit(t, 2);
    return (v, np.matrix_transpose(t), d0, d1, np.rollaxis(t, 2), np.rollaxis(t, 2, 1), np.rollaxis(t, 0, 2),
            np.rollaxis(q, 0, 3), np.rollaxis(q, 1, 2), np.rollaxis(q, 3, 2), np.rollaxis(q, 3), m);
}}
"""
    rng = np.random.default_rng(5)
    m = rng.integers(-9, 9, (2, 3)).astype(DTYPES[dt])
    t = rng.integers(-9, 9, (2, 3, 4)).astype(DTYPES[dt])
    q = rng.integers(-9, 9, (2, 3, 4, 5)).astype(DTYPES[dt])
    got = run_ok(src, {"m": m, "t": t, "q": q}, tmp_path, target)
    wm = m.copy()
    v = np.matrix_transpose(wm)
    v[0, 1] = 7
    d0, d1 = np.dsplit(t, 2)
    want = [v, np.matrix_transpose(t), d0, d1, np.rollaxis(t, 2), np.rollaxis(t, 2, 1), np.rollaxis(t, 0, 2),
            np.rollaxis(q, 0, 3), np.rollaxis(q, 1, 2), np.rollaxis(q, 3, 2), np.rollaxis(q, 3), wm]
    assert len(got) == len(want)
    for i, (g, w) in enumerate(zip(got, want)):
        assert_same(g, w, f"result {i}")


@pytest.mark.parametrize(
    "src, code, words",
    [
        ("fn f(x: f64[n]) -> f64[n] { return np.matrix_transpose(x); }", "E0405", ""),
        ("fn f(x: f64[n, 4]) -> f64[n, 2] { let (a, b) = np.dsplit(x, 2); return a; }", "E0405", ""),
        ("fn f(x: f64[n, 4]) -> f64[4, n] { return np.rollaxis(x, -1); }", "E0202", "moveaxis"),
    ],
)
def test_matrix_transpose_dsplit_rollaxis_errors(src, code, words, tmp_path):
    assert_check_error(src, code, words, tmp_path)

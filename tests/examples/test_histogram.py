"""NumPy's binning routines against NumPy 2.4 (docs/language.md, "Builtin functions"; issue 31):
`histogram` (an integer `bins` or given edges, `range=`, `weights=`, `density=`),
`histogram_bin_edges`, `digitize` (increasing and decreasing bins, both sides), `interp` (both
ends, `left=`/`right=`, NaN), and NumPy 2.1's `cumulative_sum`/`cumulative_prod`
(`include_initial=`), on several dtypes, with values exactly on the edges, NaNs and empty data, on
the CPU and on the GPU kernels (emulated, and the GPU where there is one); then the checker's and
the run time's errors."""
import numpy as np
import pytest

from arrayc_examples import DTYPES, TARGETS, assert_check_error, assert_run_time_error, run_source

# (arrayc expression, NumPy function of the inputs, result type, exact): `x` is `T[n]`, `m`
# `T[p, q]`, `b` `f64[k]` increasing edges (repeats allowed), `w` `f64[n]`, `wi` `i32[n]`. T is
# the data's dtype, E `f32` for `f32` data else `f64` (NumPy's edge dtype). `exact` false: equal
# within 1e-12 (NumPy's order of float additions differs: sorted cumulative sums, pairwise sums).
CASES = [
    ("histogram(x)[0]", lambda x, m, b, w, wi: np.histogram(x)[0], "i64[?]", True),
    ("histogram(x)[1]", lambda x, m, b, w, wi: np.histogram(x)[1], "E[?]", True),
    ("np.histogram(x, bins=7, range=(-2, 2.5))[0]", lambda x, m, b, w, wi: np.histogram(x, bins=7, range=(-2, 2.5))[0],
     "i64[?]", True),
    ("np.histogram(m, 3)[0]", lambda x, m, b, w, wi: np.histogram(m, 3)[0], "i64[?]", True),
    ("histogram(x, bins=b)[0]", lambda x, m, b, w, wi: np.histogram(x, bins=b)[0], "i64[?]", True),
    ("histogram(x, bins=b)[1]", lambda x, m, b, w, wi: np.histogram(x, bins=b)[1], "f64[?]", True),
    ("histogram(m, [0, 1, 1, 3])[0]", lambda x, m, b, w, wi: np.histogram(m, [0, 1, 1, 3])[0], "i64[?]", True),
    ("histogram(m, [0, 1, 1, 3])[1]", lambda x, m, b, w, wi: np.histogram(m, [0, 1, 1, 3])[1], "i64[?]", True),
    ("histogram(x, bins=4, weights=w)[0]", lambda x, m, b, w, wi: np.histogram(x, bins=4, weights=w)[0], "f64[?]", True),
    ("histogram(x, bins=4, weights=wi)[0]", lambda x, m, b, w, wi: np.histogram(x, bins=4, weights=wi)[0], "i32[?]", True),
    ("histogram(x, bins=b, weights=w)[0]", lambda x, m, b, w, wi: np.histogram(x, bins=b, weights=w)[0], "f64[?]", False),
    ("histogram(x, bins=b, weights=wi)[0]", lambda x, m, b, w, wi: np.histogram(x, bins=b, weights=wi)[0], "i32[?]", True),
    ("histogram(x, bins=5, density=true)[0]", lambda x, m, b, w, wi: np.histogram(x, bins=5, density=True)[0],
     "f64[?]", False),
    ("histogram(x, bins=b, weights=w, density=true)[0]",
     lambda x, m, b, w, wi: np.histogram(x, bins=b, weights=w, density=True)[0], "f64[?]", False),
    ("histogram_bin_edges(x, bins=6)", lambda x, m, b, w, wi: np.histogram_bin_edges(x, bins=6), "E[?]", True),
    ("np.histogram_bin_edges(m, 2, range=(0, 3))", lambda x, m, b, w, wi: np.histogram_bin_edges(m, 2, range=(0, 3)),
     "E[?]", True),
    ("histogram_bin_edges(x, bins=b)", lambda x, m, b, w, wi: np.histogram_bin_edges(x, bins=b), "f64[?]", True),
    # Fused consumers.
    ("sum(histogram(x, bins=3)[0]) + len(histogram(m)[1])",
     lambda x, m, b, w, wi: np.sum(np.histogram(x, bins=3)[0]) + len(np.histogram(m)[1]), "i64", True),
]
TESTED_DTYPES = ["f64", "f32", "i64", "i32", "u8"]
# (n, p, q, k): empty data, one edge, many values on the edges.
SIZES = [(12, 3, 4, 5), (0, 0, 2, 3), (1, 1, 1, 1), (300, 17, 9, 8)]


def inputs(dt, size, rng):
    """Halves (floats: many values exactly on edges, NaNs only where a range is given is tested
    separately), small integers; increasing edges with a repeat."""
    n, p, q, k = size

    def draw(*s):
        v = rng.integers(-4, 6, s)
        if dt in ("f64", "f32"):
            return (v / 2).astype(DTYPES[dt])
        if dt == "u8":
            return (v + 4).astype(np.uint8)
        return v.astype(DTYPES[dt])

    b = np.sort(rng.integers(-4, 8, k) / 2.0)
    if k > 2:
        b[1] = b[2]
    return {"x": draw(n), "m": draw(p, q), "b": b, "w": rng.random(n), "wi": rng.integers(-3, 9, n).astype(np.int32)}


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("dt", TESTED_DTYPES)
@pytest.mark.parametrize("size", SIZES, ids=lambda s: "x".join(map(str, s)))
def test_histogram_matches_numpy(size, dt, target, tmp_path):
    rng = np.random.default_rng(sum(size) * 5 + len(dt))
    ins = inputs(dt, size, rng)
    e = "f32" if dt == "f32" else "f64"
    types = [t.replace("E[", f"{e}[") for _, _, t, _ in CASES]
    src = (
        f"fn main(x: {dt}[n], m: {dt}[p, q], b: f64[k], w: f64[n], wi: i32[n]) -> ({', '.join(types)}) {{\n"
        f"    return ({', '.join(c for c, _, _, _ in CASES)});\n}}\n"
    )
    proc, got = run_source(src, ins, tmp_path, flags=["--target", target])
    assert proc.returncode == 0, f"{src}\n{proc.stderr}"
    for g, (c, fn, _, exact) in zip(got, CASES):
        with np.errstate(invalid="ignore", divide="ignore"):
            want = np.asarray(fn(*ins.values()))
        g = np.asarray(g)
        assert g.dtype == want.dtype and g.shape == want.shape, f"{c}: {g.dtype}{g.shape}, NumPy {want.dtype}{want.shape}"
        if exact:
            np.testing.assert_array_equal(g, want, err_msg=c)
        else:
            np.testing.assert_allclose(g, want, rtol=1e-12, atol=0, err_msg=c)


@pytest.mark.parametrize("target", TARGETS)
def test_histogram_edges_nan_and_weight_dtypes(target, tmp_path):
    """Values on every edge of equal bins (NumPy's arithmetic then its correction), the last edge in
    the last bin, NaN and infinities left out with `range=`, `f32` weights (`f32` sums), the
    widened range of equal data, and `f32` data with a `range=` (edges computed in `f64`)."""
    src = """fn main(x: f64[n], y: f64[k], w: f32[n], s: f32[k]) -> (i64[?], f64[?], f32[?], i64[?], f64[?], i64[?], f32[?], i64[?], f64[?]) {
    let (h, e) = histogram(x, bins=10, range=(0.0, 1.0));
    let (hs, es) = histogram(s, bins=3, range=(0, 1));
    let (hc, ec) = histogram(e * 0.0 + 2.0, bins=4);
    return (h, e, histogram(x, bins=10, range=(0.0, 1.0), weights=w)[0], hs, hc * 1.0 + ec[0],
            histogram(y, bins=[0.1, 0.3, 0.7])[0], es, hc, ec);
}
"""
    x = np.concatenate([np.linspace(0, 1, 11), np.linspace(0, 1, 31), [np.nan, np.inf, -np.inf, 1e-300, -0.0, 0.3]])
    y = np.array([0.1, 0.3, 0.7, np.nan, 0.30000000000000004, 0.2])
    w = np.linspace(-1, 2, len(x)).astype(np.float32)
    s = np.array([0.0, 1 / 3, 2 / 3, 1.0, np.nan, 0.5], dtype=np.float32)
    proc, got = run_source(src, {"x": x, "y": y, "w": w, "s": s}, tmp_path, flags=["--target", target])
    assert proc.returncode == 0, proc.stderr
    hc, ec = np.histogram(np.full(11, 2.0), bins=4)
    want = [*np.histogram(x, bins=10, range=(0.0, 1.0)), np.histogram(x, bins=10, range=(0.0, 1.0), weights=w)[0],
            np.histogram(s, bins=3, range=(0, 1))[0], hc * 1.0 + ec[0], np.histogram(y, bins=[0.1, 0.3, 0.7])[0],
            np.histogram(s, bins=3, range=(0, 1))[1], hc, ec]
    for k, (g, wnt) in enumerate(zip(got, want)):
        g, wnt = np.asarray(g), np.asarray(wnt)
        assert g.dtype == wnt.dtype and g.shape == wnt.shape, f"result {k}: {g.dtype}{g.shape}, NumPy {wnt.dtype}{wnt.shape}"
        np.testing.assert_array_equal(g, wnt, err_msg=f"result {k}")


@pytest.mark.parametrize("target", TARGETS)
def test_digitize_and_interp_at_the_boundaries(target, tmp_path):
    """`digitize` of increasing and decreasing bins (with repeats), values on the bins, NaN (after
    every bin, NumPy's order) and both sides; `interp` at, left and right of the samples, with
    `left=`/`right=`, NaN in `x`, repeated samples, and integer data."""
    src = """fn main(x: f64[n], b: f64[k], d: f64[k], xp: f64[j], fp: f64[j], i: i64[n]) -> (i64[n], i64[n], i64[n], i64[n], f64[n], f64[n], f64[n], i64[n]) {
    return (digitize(x, b), digitize(x, b, right=true), np.digitize(x, d), digitize(x, d, right=true),
            interp(x, xp, fp), np.interp(x, xp, fp, left=-5, right=7.5), interp(i, xp, fp), digitize(i, [0, 2, 2, 4]));
}
"""
    x = np.array([np.nan, -3.0, -1.0, 0.0, 0.5, 1.0, 2.0, 2.5, 4.0, 9.0, -0.0])
    b = np.array([-1.0, 0.0, 1.0, 1.0, 2.0, 4.0])
    d = b[::-1].copy()
    xp = np.array([-1.0, 0.0, 0.0, 2.0, 4.0])
    fp = np.array([3.0, -1.0, 1.0, 5.0, 0.5])
    i = np.array([-2, -1, 0, 1, 2, 3, 4, 5, 0, 2, 6])
    proc, got = run_source(src, {"x": x, "b": b, "d": d, "xp": xp, "fp": fp, "i": i}, tmp_path,
                           flags=["--target", target])
    assert proc.returncode == 0, proc.stderr
    want = [np.digitize(x, b), np.digitize(x, b, right=True), np.digitize(x, d), np.digitize(x, d, right=True),
            np.interp(x, xp, fp), np.interp(x, xp, fp, left=-5, right=7.5), np.interp(i, xp, fp),
            np.digitize(i, [0, 2, 2, 4])]
    for k, (g, wnt) in enumerate(zip(got, want)):
        g, wnt = np.asarray(g), np.asarray(wnt)
        assert g.dtype == wnt.dtype and g.shape == wnt.shape, f"result {k}: {g.dtype}{g.shape}, NumPy {wnt.dtype}{wnt.shape}"
        np.testing.assert_array_equal(g, wnt, err_msg=f"result {k}")


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("dt", ["f64", "f32", "i64", "i32", "u8", "bool"])
@pytest.mark.parametrize("shape", [(4, 5), (0, 3), (3, 0), (1, 1)], ids=lambda s: "x".join(map(str, s)))
def test_cumulative_sum_and_prod_match_numpy(shape, dt, target, tmp_path):
    """NumPy 2.1's `cumulative_sum` and `cumulative_prod` along each axis, with and without the
    initial value, of 1-d and 2-d arrays: `cumsum`'s dtypes, exact values (-0.0 kept)."""
    rng = np.random.default_rng(len(dt) + shape[0] * 3 + shape[1])
    v = rng.integers(-2, 3, shape)
    if dt == "bool":
        a = v > 0
    elif dt in ("f64", "f32"):
        a = (v / 2).astype(DTYPES[dt])
        a[v == 0] = -0.0
    elif dt == "u8":
        a = (v + 2).astype(np.uint8)
    else:
        a = v.astype(DTYPES[dt])
    r = a.ravel()
    s = np.cumulative_sum(a, axis=0).dtype
    sname = next(k for k, t in DTYPES.items() if t == s)
    src = f"""fn main(a: {dt}[p, q], r: {dt}[n]) -> ({sname}[p, q], {sname}[?, q], {sname}[p, ?], {sname}[n], {sname}[?], {sname}[?, q]) {{
    return (cumulative_sum(a, axis=0), np.cumulative_sum(a, axis=0, include_initial=true), cumulative_sum(a, axis=-1, include_initial=true),
            cumulative_sum(r), cumulative_prod(r, include_initial=true), np.cumulative_prod(a, axis=0, include_initial=true) + cumulative_sum(a, axis=0, include_initial=true));
}}
"""
    proc, got = run_source(src, {"a": a, "r": r}, tmp_path, flags=["--target", target])
    assert proc.returncode == 0, f"{src}\n{proc.stderr}"
    want = [np.cumulative_sum(a, axis=0), np.cumulative_sum(a, axis=0, include_initial=True),
            np.cumulative_sum(a, axis=-1, include_initial=True), np.cumulative_sum(r),
            np.cumulative_prod(r, include_initial=True),
            np.cumulative_prod(a, axis=0, include_initial=True) + np.cumulative_sum(a, axis=0, include_initial=True)]
    for k, (g, wnt) in enumerate(zip(got, want)):
        g, wnt = np.asarray(g), np.asarray(wnt)
        assert g.dtype == wnt.dtype and g.shape == wnt.shape, f"result {k}: {g.dtype}{g.shape}, NumPy {wnt.dtype}{wnt.shape}"
        np.testing.assert_array_equal(g, wnt, err_msg=f"result {k}")
        if g.dtype.kind == "f":
            np.testing.assert_array_equal(np.signbit(g), np.signbit(wnt), err_msg=f"result {k}: signs of zeros")


@pytest.mark.parametrize(
    "src, code, words",
    [
        ("fn f(x: f64[n], b: f64[k, 2]) -> i64[?] { return histogram(x, bins=b)[0]; }", "E0503",
         "the bins of `histogram` must be a 1-d numeric array"),
        ("fn f(x: f64[n], b: bool[k]) -> i64[?] { return histogram(x, b)[0]; }", "E0503", "1-d numeric array"),
        ("fn f(x: f64[n]) -> i64[?] { return histogram(x, bins=2.5)[0]; }", "E0406", "the bin count of `histogram`"),
        ("fn f(x: f64[n]) -> i64[?] { return histogram(x, bins=-1)[0]; }", "E0503", "must be positive"),
        ("fn f(x: f64[n]) -> i64[?] { return histogram(x, range=(0.0, inf))[0]; }", "E0503", "is not finite"),
        ("fn f(x: f64[n], w: bool[n]) -> bool[?] { return histogram(x, weights=w)[0]; }", "E0503",
         "`weights=` of `histogram` must be a numeric array of the data's shape"),
        ("fn f(x: f64[n], w: f64[n, 2]) -> f64[?] { return histogram(x, weights=w)[0]; }", "E0503", "weights should have the same shape"),
        ("fn f(x: f64[n]) -> f64[?] { return histogram(x, density=1)[0]; }", "E0503", "`density=` must be `true` or `false`"),
        ("fn f(x: f64) -> f64[?] { return histogram_bin_edges(x); }", "E0503", "`histogram_bin_edges` needs an array"),
        ("fn f(x: f64[n]) -> f64[?] { return histogram_bin_edges(x, bins=0); }", "E0503", "must be positive"),
        ("fn f(x: f64[n, m]) -> f64[?] { return cumulative_sum(x); }", "E0503", "needs `axis=`"),
        ("fn f(x: f64) -> f64[?] { return cumulative_sum(x); }", "E0408", "`cumulative_sum` needs an array"),
        ("fn f(x: f64[n]) -> f64[?] { return cumulative_prod(x, include_initial=1); }", "E0503",
         "`include_initial=` must be `true` or `false`"),
        ("fn f(x: f64[n]) -> f64[?] { return cumulative_sum(x, axis=1); }", "E0", "axis"),
    ],
)
def test_histogram_checker_errors(src, code, words, tmp_path):
    assert_check_error(src, code, words, tmp_path)


@pytest.mark.parametrize(
    "src,args,message",
    [
        ("fn f(x: f64[n], b: f64[k]) -> i64[?] {\n    return histogram(x, bins=b)[0];\n}",
         {"x": np.zeros(3), "b": np.array([0.0, 2.0, 1.0])}, "`bins` must increase monotonically, when an array"),
        ("fn f(x: f64[n], b: f64[k]) -> i64[?] {\n    return histogram(x, bins=b)[0];\n}",
         {"x": np.zeros(3), "b": np.zeros(0)}, "`bins` as an array needs at least one edge"),
        ("fn f(x: f64[n]) -> i64[?] {\n    return histogram(x)[0];\n}",
         {"x": np.array([1.0, np.nan])}, "autodetected range is not finite"),
        ("fn f(x: f64[n], hi: f64) -> f64[?] {\n    return histogram_bin_edges(x, range=(0.0, hi));\n}",
         {"x": np.zeros(3), "hi": "inf"}, "supplied range is not finite"),
        ("fn f(x: f64[n], w: f64[k]) -> f64[?] {\n    return histogram(x, weights=w)[0];\n}",
         {"x": np.zeros(3), "w": np.zeros(4)}, "weights should have the same shape as a"),
    ],
)
def test_histogram_run_time_errors_name_the_line(src, args, message, tmp_path):
    assert_run_time_error(src, args, message, tmp_path)

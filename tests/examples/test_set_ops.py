"""NumPy's set routines against NumPy (docs/language.md, "Builtin functions"; issue 31): `isin`
(`invert=`), `union1d`, `intersect1d`, `setdiff1d`, `setxor1d`, on every tested dtype, with
duplicates, NaNs, n-d and empty inputs and mixed dtypes, on the CPU and on the GPU kernels
(emulated, and the GPU where there is one); then the checker's errors. NumPy 2.4 has no `in1d`
(removed), so arrayc has none either."""
import numpy as np
import pytest

from arrayc_examples import DTYPES, TARGETS, assert_check_error, run_source

# (arrayc expression, NumPy function of the inputs, result type): `a` is `T[n, m]`, `v` `T[p]`,
# `w` `T[q]`, `f` `f64[q]`. T is the input's dtype, R that promoted with `f64`.
CASES = [
    ("isin(v, w)", lambda a, v, w, f: np.isin(v, w), "bool[p]"),
    ("np.isin(a, w)", lambda a, v, w, f: np.isin(a, w), "bool[n, m]"),
    ("isin(a, v, invert=true)", lambda a, v, w, f: np.isin(a, v, invert=True), "bool[n, m]"),
    ("isin(v, a)", lambda a, v, w, f: np.isin(v, a), "bool[p]"),
    ("isin(v, f)", lambda a, v, w, f: np.isin(v, f), "bool[p]"),
    ("isin(v, 2)", lambda a, v, w, f: np.isin(v, 2), "bool[p]"),
    ("union1d(v, w)", lambda a, v, w, f: np.union1d(v, w), "T[?]"),
    ("np.union1d(a, w)", lambda a, v, w, f: np.union1d(a, w), "T[?]"),
    ("union1d(v, f)", lambda a, v, w, f: np.union1d(v, f), "R[?]"),
    ("intersect1d(v, w)", lambda a, v, w, f: np.intersect1d(v, w), "T[?]"),
    ("intersect1d(a, v)", lambda a, v, w, f: np.intersect1d(a, v), "T[?]"),
    ("np.intersect1d(f, v)", lambda a, v, w, f: np.intersect1d(f, v), "R[?]"),
    ("setdiff1d(v, w)", lambda a, v, w, f: np.setdiff1d(v, w), "T[?]"),
    ("setdiff1d(a, v)", lambda a, v, w, f: np.setdiff1d(a, v), "T[?]"),
    ("np.setdiff1d(v, f)", lambda a, v, w, f: np.setdiff1d(v, f), "T[?]"),
    ("setxor1d(v, w)", lambda a, v, w, f: np.setxor1d(v, w), "T[?]"),
    ("setxor1d(a, w)", lambda a, v, w, f: np.setxor1d(a, w), "T[?]"),
    ("np.setxor1d(f, v)", lambda a, v, w, f: np.setxor1d(f, v), "R[?]"),
    # Fused consumers.
    ("sum(isin(a, w), axis=0)", lambda a, v, w, f: np.sum(np.isin(a, w), axis=0), "i64[m]"),
    ("len(union1d(v, w)) + len(setxor1d(v, w))",
     lambda a, v, w, f: len(np.union1d(v, w)) + len(np.setxor1d(v, w)), "i64"),
]
TESTED_DTYPES = ["f64", "f32", "i64", "i32", "u8", "bool"]
# (n, m, p, q): empty `a`, `v`, `w` each, and sizes with many duplicates.
SIZES = [(4, 3, 6, 5), (0, 3, 0, 4), (2, 2, 5, 0), (7, 5, 40, 33), (1, 1, 1, 1)]


def inputs(dt, size, rng):
    """Small integers (halves for floats, so many duplicates), NaNs in float ones."""
    n, m, p, q = size

    def draw(*s, d=dt):
        x = rng.integers(-4, 5, s)
        if d == "bool":
            return x > 0
        if d in ("f64", "f32"):
            x = (x / 2).astype(DTYPES[d])
            x[rng.random(s) < 0.15] = np.nan
            return x
        if d == "u8":
            return (x + 4).astype(np.uint8)
        return x.astype(DTYPES[d])

    return {"a": draw(n, m), "v": draw(p), "w": draw(q), "f": draw(q, d="f64")}


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("dt", TESTED_DTYPES)
@pytest.mark.parametrize("size", SIZES, ids=lambda s: "x".join(map(str, s)))
def test_set_routines_match_numpy(size, dt, target, tmp_path):
    rng = np.random.default_rng(sum(size) * 7 + len(dt))
    ins = inputs(dt, size, rng)
    r = np.result_type(DTYPES[dt], np.float64)
    rname = next(k for k, v in DTYPES.items() if v == r)
    types = [t.replace("T[", f"{dt}[").replace("R[", f"{rname}[") for _, _, t in CASES]
    src = (
        f"fn main(a: {dt}[n, m], v: {dt}[p], w: {dt}[q], f: f64[q]) -> ({', '.join(types)}) {{\n"
        f"    return ({', '.join(e for e, _, _ in CASES)});\n}}\n"
    )
    proc, got = run_source(src, ins, tmp_path, flags=["--target", target])
    assert proc.returncode == 0, f"{src}\n{proc.stderr}"
    for g, (e, fn, _) in zip(got, CASES):
        want = np.asarray(fn(ins["a"], ins["v"], ins["w"], ins["f"]))
        g = np.asarray(g)
        assert g.dtype == want.dtype and g.shape == want.shape, f"{e}: {g.dtype}{g.shape}, NumPy {want.dtype}{want.shape}"
        np.testing.assert_array_equal(g, want, err_msg=e)  # NaNs where NumPy's, exact values


@pytest.mark.parametrize("target", TARGETS)
def test_set_routines_of_nans_signed_zeros_and_mixed_dtypes(target, tmp_path):
    """NaN as NumPy treats it in each routine, -0.0 equal to 0.0 (which of the two is kept depends
    on the sort, in NumPy too: not compared), `isin` of an
    `f32` array and an `f64` scalar compared in `f64` (NumPy's `asarray`, not a weak scalar)."""
    src = """fn main(x: f64[n], y: f64[m], s: f32[k], i: i64[k], u: u8[k]) -> (f64[?], f64[?], f64[?], f64[?], bool[k], bool[k], f64[?], i64[?], i64[?]) {
    return (union1d(x, y), intersect1d(x, y), setdiff1d(x, y), setxor1d(x, y), isin(s, 0.1), isin(s, f32(0.1)),
            intersect1d(i, s), setdiff1d(i, u), union1d(i, u));
}
"""
    nan = np.nan
    x = np.array([nan, 1.0, -0.0, 2.0, nan, 2.0])
    y = np.array([nan, 0.0, 3.0, 3.0])
    s = np.array([0.1, 1.0, 2.5], dtype=np.float32)
    i = np.array([1, 3, 255], dtype=np.int64)
    u = np.array([255, 1, 0], dtype=np.uint8)
    proc, got = run_source(src, {"x": x, "y": y, "s": s, "i": i, "u": u}, tmp_path, flags=["--target", target])
    assert proc.returncode == 0, proc.stderr
    want = [np.union1d(x, y), np.intersect1d(x, y), np.setdiff1d(x, y), np.setxor1d(x, y), np.isin(s, 0.1),
            np.isin(s, np.float32(0.1)), np.intersect1d(i, s), np.setdiff1d(i, u), np.union1d(i, u)]
    for k, (g, w) in enumerate(zip(got, want)):
        g, w = np.asarray(g), np.asarray(w)
        assert g.dtype == w.dtype and g.shape == w.shape, f"result {k}: {g.dtype}{g.shape}, NumPy {w.dtype}{w.shape}"
        np.testing.assert_array_equal(g, w, err_msg=f"result {k}")


@pytest.mark.parametrize(
    "src, code, words",
    [
        ("fn f(x: f64) -> bool[?] { return isin(x, x); }", "E0503", "`isin` needs an array here"),
        ("fn f(x: f64[n]) -> f64[?] { return union1d(x, 1.0); }", "E0503", "`union1d` needs an array here"),
        ("fn f(x: f64[n]) -> f64[?] { return setdiff1d(2.0, x); }", "E0503", "`setdiff1d` needs an array here"),
        ("fn f(x: f64[n]) -> bool[n] { return isin(x, x, invert=1); }", "E0503", "`invert=` must be `true` or `false`"),
        ("fn f(x: f64[n]) -> f64[?] { return intersect1d(x, x, assume_unique=true); }", "E0502", "assume_unique"),
        ("fn f(x: f64[n]) -> f64[?] { return setxor1d(x); }", "E0501", "setxor1d"),
        ("fn f(x: f64[n]) -> bool[n] { return in1d(x, x); }", "E0202", "NumPy 2.4 removed `in1d`: write `isin(a, b)`"),
        ("fn f(x: f64[n]) -> bool[n] { return np.in1d(x, x); }", "E0202", "write `isin(a, b)`"),
    ],
)
def test_set_routine_errors(src, code, words, tmp_path):
    assert_check_error(src, code, words, tmp_path)

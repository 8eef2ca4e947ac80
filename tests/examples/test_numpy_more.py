"""More of NumPy's functions composed of arrayc's operations against NumPy (docs/language.md,
"Builtin functions"): `fmax`, `fmin` (NaN-ignoring), `tril`, `triu`, `nan_to_num`, and the keyword spellings
`linspace(start, stop, num=n)` and `clip(x, a_min=lo, a_max=hi)` (`min=`, `max=`), on several
dtypes and shapes (empty ones included), on the CPU and on the GPU kernels (emulated, and the GPU
where there is one). Then the checker's errors, each naming the place."""
import numpy as np
import pytest

from arrayc_examples import DTYPES, TARGETS, assert_check_error, check_source, run_source


def assert_same(got, want, what):
    want = np.asarray(want)
    assert got.dtype == want.dtype and got.shape == want.shape, f"{what}: {got.dtype}{got.shape} vs {want.dtype}{want.shape}"
    np.testing.assert_array_equal(got, want, err_msg=what)


def special(dt, shape, rng, seed):
    """An array of `dt` with NaNs and infinities (floats), negatives and zeros."""
    x = rng.integers(-4, 5, size=shape).astype(np.float64)
    if dt in ("f64", "f32") and x.size:
        flat = x.reshape(-1)
        picks = rng.choice(flat.size, size=min(flat.size, 3 + seed), replace=False)
        for p, v in zip(picks, [np.nan, np.inf, -np.inf, np.nan, -0.0]):
            flat[p] = v
    if dt == "bool":
        return x > 0
    return x.astype(DTYPES[dt])


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("dt", ["f64", "f32", "i64", "bool"])
@pytest.mark.parametrize("n", [0, 1, 5])
def test_fmax_fmin_match_numpy(n, dt, target, tmp_path):
    """`fmax`/`fmin` of arrays with NaNs in either or both, broadcast against a row and a column,
    and against Python scalars (NumPy 2's weak promotion)."""
    t = dt
    src = f"""fn main(a: {t}[n, 3], b: {t}[n, 3], r: {t}[3]) -> ({t}[n, 3], {t}[n, 3], {t}[n, 3], {t}[n, 3]) {{
    return (fmax(a, b), fmin(a, b), np.fmax(a, r), fmin(b, r));
}}
"""
    rng = np.random.default_rng(n)
    a, b, r = special(dt, (n, 3), rng, 0), special(dt, (n, 3), rng, 1), special(dt, (3,), rng, 2)
    if dt in ("f64", "f32") and n:
        a[0, 0] = b[0, 0] = np.nan  # both NaN: NaN
    proc, got = run_source(src, {"a": a, "b": b, "r": r}, tmp_path, flags=["--target", target])
    assert proc.returncode == 0, proc.stderr
    want = [np.fmax(a, b), np.fmin(a, b), np.fmax(a, r), np.fmin(b, r)]
    for i, (g, w) in enumerate(zip(got, want)):
        assert_same(g, w, f"result {i}")


@pytest.mark.parametrize("target", TARGETS)
def test_fmax_fmin_promote_and_fuse(target, tmp_path):
    """Mixed dtypes promote as NumPy's (`i64` with `f32` is `f64`), Python scalars are weak, and an
    fmax feeds a fused consumer."""
    src = """fn main(x: f32[n], i: i64[n], y: f64[n]) -> (f64[n], f32[n], f32[n], f64[n], f64[n]) {
    return (fmax(x, i), fmin(x, 2.5), fmax(1, x), fmin(y, x) * 2.0 + 1.0, fmax(i, 0.5));
}
"""
    x = np.array([np.nan, 1.0, -np.inf, 3.0, np.nan, 0.5], dtype=np.float32)
    i = np.array([1, 2, 3, -4, 5, 0], dtype=np.int64)
    y = np.array([np.nan, np.nan, 2.0, np.inf, 1.0, -0.0])
    proc, got = run_source(src, {"x": x, "i": i, "y": y}, tmp_path, flags=["--target", target])
    assert proc.returncode == 0, proc.stderr
    want = [np.fmax(x, i), np.fmin(x, 2.5), np.fmax(1, x), np.fmin(y, x) * 2.0 + 1.0, np.fmax(i, 0.5)]
    for k, (g, w) in enumerate(zip(got, want)):
        assert_same(g, w, f"result {k}")


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("dt", ["f64", "f32", "i64", "bool"])
@pytest.mark.parametrize("shape", [(4, 4), (3, 5), (5, 2), (0, 3), (2, 3, 4)])
def test_tril_triu_match_numpy(shape, dt, target, tmp_path):
    """`tril`/`triu` with `k` zero, positive, negative, out of range, positional, as `k=` and at
    run time (`j`), on square and non-square matrices, an empty one and a stack of them."""
    t = dt
    dims = ", ".join("abcdef"[i] for i in range(len(shape)))
    ty = f"{t}[{dims}]"
    src = f"""fn main(x: {ty}, j: i64) -> ({ty}, {ty}, {ty}, {ty}, {ty}, {ty}, {ty}, {ty}) {{
    return (tril(x), triu(x), tril(x, 1), np.triu(x, -1), tril(x, k=-2), triu(x, k=7), tril(x, -9), triu(x, j));
}}
"""
    rng = np.random.default_rng(len(shape))
    x = special(dt, shape, rng, 1)
    j = -1
    proc, got = run_source(src, {"x": x}, tmp_path, flags=["--target", target, "--arg", f"j={j}"])
    assert proc.returncode == 0, proc.stderr
    want = [np.tril(x), np.triu(x), np.tril(x, 1), np.triu(x, -1), np.tril(x, k=-2), np.triu(x, k=7),
            np.tril(x, -9), np.triu(x, j)]
    for k, (g, w) in enumerate(zip(got, want)):
        assert_same(g, w, f"result {k}")


@pytest.mark.parametrize("target", TARGETS)
def test_tril_of_a_vector_and_fused(target, tmp_path):
    """NumPy's `tril` of a 1-d array is the `(n, n)` array of its rows; a consumer fuses."""
    src = """fn main(v: f64[n], a: f64[n, m]) -> (f64[n, n], f64[n, n], f64[n, m]) {
    return (tril(v), triu(v, 1), tril(a * 2.0, 1) + 1.0);
}
"""
    v = np.array([1.0, np.nan, -np.inf, 4.0])
    a = np.arange(12.0).reshape(4, 3)
    proc, got = run_source(src, {"v": v, "a": a}, tmp_path, flags=["--target", target])
    assert proc.returncode == 0, proc.stderr
    want = [np.tril(v), np.triu(v, 1), np.tril(a * 2.0, 1) + 1.0]
    for k, (g, w) in enumerate(zip(got, want)):
        assert_same(g, w, f"result {k}")


@pytest.mark.parametrize("target", TARGETS)
def test_keyword_spellings_of_linspace_and_clip(target, tmp_path):
    """`linspace(start, stop, num=n)` (with `endpoint=`), `clip(x, a_min=lo, a_max=hi)` and NumPy 2's
    `min=`/`max=`, as the positional forms."""
    src = """fn main(x: f64[n], lo: f64[n]) -> (f64[5], f64[4], f64[0], f64[n], f64[n], f64[n], f64[n]) {
    return (linspace(0.0, 1.0, num=5), np.linspace(2, 3, num=4, endpoint=false), linspace(0, 1, num=0),
            clip(x, a_min=-1.0, a_max=2.0), np.clip(x, min=lo, max=1), clip(x, 0, a_max=0.5), clip(x, a_max=3, a_min=lo));
}
"""
    x = np.array([np.nan, -3.0, 0.25, 1.5, np.inf, -np.inf])
    lo = np.array([0.0, -4.0, 0.5, 2.0, 1.0, -1.0])
    proc, got = run_source(src, {"x": x, "lo": lo}, tmp_path, flags=["--target", target])
    assert proc.returncode == 0, proc.stderr
    want = [np.linspace(0.0, 1.0, num=5), np.linspace(2, 3, num=4, endpoint=False), np.linspace(0, 1, num=0),
            np.clip(x, a_min=-1.0, a_max=2.0), np.clip(x, min=lo, max=1), np.clip(x, 0, a_max=0.5),
            np.clip(x, a_max=3, a_min=lo)]
    for k, (g, w) in enumerate(zip(got, want)):
        assert_same(g, w, f"result {k}")


@pytest.mark.parametrize("target", TARGETS)
def test_clip_with_a_bound_left_out_matches_numpy(target, tmp_path):
    """NumPy 2's `clip` with one bound, or none, left out: `x.clip(lo)`, `x.clip(min=lo)`,
    `clip(x, max=hi)`, `x.clip(max=3)`, `clip(i)` (a copy), integer arrays with a float bound
    promoted as NumPy does."""
    src = """fn main(x: f64[n], lo: f64[n], i: i64[n]) -> (f64[n], f64[n], f64[n], f64[n], i64[n], f64[n], f64[n]) {
    return (x.clip(lo), x.clip(min=0), np.clip(x, max=lo), x.clip(max=3), np.clip(i), i.clip(min=0.5), clip(i, max=2.5));
}
"""
    x = np.array([np.nan, -3.0, 0.25, 1.5, np.inf, -np.inf])
    lo = np.array([0.0, -4.0, 0.5, 2.0, 1.0, -1.0])
    i = np.array([-3, 0, 1, 2, 5, 7])
    proc, got = run_source(src, {"x": x, "lo": lo, "i": i}, tmp_path, flags=["--target", target])
    assert proc.returncode == 0, proc.stderr
    want = [x.clip(lo), x.clip(min=0), np.clip(x, max=lo), x.clip(max=3), np.clip(i), i.clip(min=0.5),
            np.clip(i, max=2.5)]
    for k, (g, w) in enumerate(zip(got, want)):
        assert_same(g, w, f"result {k}")


@pytest.mark.parametrize("target", TARGETS)
def test_index_tricks_match_numpy(target, tmp_path):
    """NumPy's `r_` (arrays, number literals, slices), `c_`, `mgrid` (destructured, one slice,
    a float step making every grid float) and `ogrid`, against NumPy's own."""
    src = """fn main(v: f64[n], k: i64[m]) -> (f64[?], i64[?], f64[n, 2], i64[3, 4], i64[3, 4], f64[2, 3], i64[5], i64[3, 1], i64[1, 4], f64[?]) {
    x, y = np.mgrid[0:3, 0:4];
    g, h = np.mgrid[0:2, 0:1.5:0.5];
    p, q = np.ogrid[0:3, :4];
    let s = v[1] * 2.0;
    return (np.r_[v, 0.0, -1, 2:5, s], np.r_[k, 7], np.c_[v, v * 2], x, y, h, np.mgrid[0:10:2], p, q, np.r_[0:1:0.25]);
}
"""
    v = np.array([0.5, -1.5, 2.25])
    k = np.array([3, 1, 2, 8])
    proc, got = run_source(src, {"v": v, "k": k}, tmp_path, flags=["--target", target])
    assert proc.returncode == 0, proc.stderr
    x, y = np.mgrid[0:3, 0:4]
    g, h = np.mgrid[0:2, 0:1.5:0.5]
    p, q = np.ogrid[0:3, :4]
    want = [np.r_[v, 0.0, -1, 2:5, v[1] * 2.0], np.r_[k, 7], np.c_[v, v * 2], x, y, h, np.mgrid[0:10:2], p, q, np.r_[0:1:0.25]]
    for j, (g_, w) in enumerate(zip(got, want)):
        assert_same(g_, w, f"result {j}")
    proc = check_source("fn main(v: f64[n]) -> f64[?] {\n    return np.r_['0,2', v];\n}\n", tmp_path)
    assert proc.returncode == 1 and "np.r_[..]" in proc.stderr and "panicked" not in proc.stderr, proc.stderr


@pytest.mark.parametrize("target", TARGETS)
def test_diagonal_with_an_offset_matches_numpy(target, tmp_path):
    """`diagonal(x, k)`, `offset=k` and the method, above, below and on the main diagonal of a wide
    and a tall matrix, an offset past the last column (empty), and a write through the view."""
    src = """fn main(x: f64[R, C], t: f64[C, R]) -> (f64[?], f64[?], f64[?], f64[?], f64[?], f64[?], f64[R, C]) {
    let d = x.diagonal(1);
    d[:] = -1.0;
    return (np.diagonal(t, offset=1), diagonal(x, -1), x.diagonal(2), t.diagonal(offset=-2), diagonal(x, 0), diagonal(x, 9), x);
}
"""
    x = np.arange(20.0).reshape(4, 5)
    t = np.arange(20.0).reshape(5, 4) * 0.5
    proc, got = run_source(src, {"x": x, "t": t}, tmp_path, flags=["--target", target])
    assert proc.returncode == 0, proc.stderr
    y = x.copy()
    y[np.arange(4), np.arange(1, 5)] = -1.0
    want = [np.diagonal(t, offset=1), np.diagonal(y, -1), y.diagonal(2), t.diagonal(offset=-2), np.diagonal(y, 0),
            np.diagonal(y, 9), y]
    for k, (g, w) in enumerate(zip(got, want)):
        assert_same(g, w, f"result {k}")


@pytest.mark.parametrize("target", TARGETS)
def test_linspace_dtype_diff_prepend_and_ignored_keywords_match_numpy(target, tmp_path):
    """`linspace(.., dtype=int)` (NumPy 2 floors), `dtype=np.float32`; `diff` with `prepend=`/`append=`
    (scalars and arrays, along an axis); keywords that change nothing arrayc computes: `kind=` of
    `sort`/`argsort` (also the in-place method), `copy=True` of `array` and `astype`; `euler_gamma`."""
    src = """fn main(v: f64[N], x: f64[R, C]) -> (i64[4], i64[5], f32[3], f64[?], f64[?], f64[R, ?], f64[N], i64[N], f64[N], f64[N], f64) {
    let w = v.copy();
    w.sort(kind="stable");
    return (np.linspace(0, 10, 4, dtype=int), linspace(-3, 1, 5, dtype=np.int64), linspace(-1, 1, 3, dtype=np.float32),
            np.diff(v, prepend=0.0), diff(v, append=v[0], prepend=1), np.diff(x, axis=1, prepend=x[:, :1]),
            np.sort(v, kind='mergesort'), np.argsort(v, kind="stable"), np.array(v, copy=True),
            v.astype(np.float64, copy=True) + w, np.euler_gamma);
}
"""
    v = np.array([0.5, -1.25, 3.0, 0.5, -2.0])
    x = np.arange(12.0).reshape(3, 4) ** 2
    proc, got = run_source(src, {"v": v, "x": x}, tmp_path, flags=["--target", target])
    assert proc.returncode == 0, proc.stderr
    want = [np.linspace(0, 10, 4, dtype=int), np.linspace(-3, 1, 5, dtype=np.int64), np.linspace(-1, 1, 3, dtype=np.float32),
            np.diff(v, prepend=0.0), np.diff(v, append=v[0], prepend=1), np.diff(x, axis=1, prepend=x[:, :1]),
            np.sort(v, kind="mergesort"), np.argsort(v, kind="stable"), np.array(v, copy=True),
            v.astype(np.float64, copy=True) + np.sort(v), np.float64(np.euler_gamma)]
    for k, (g, w) in enumerate(zip(got, want)):
        assert_same(g, w, f"result {k}")


@pytest.mark.parametrize("target", TARGETS)
def test_nan_to_num_matches_numpy(target, tmp_path):
    """`nan_to_num` with the defaults (the dtype's largest finite values: `f32`'s for `f32`), with
    each replacement given (a literal, a run-time scalar), of integers and bools (unchanged), of an
    empty array and of a scalar; a consumer fuses."""
    src = """fn main(x: f64[n], p: f32[n], i: i64[n], b: bool[n], z: f64[0], r: f64, s: f64) -> (f64[n], f32[n], f64[n], f32[n], i64[n], bool[n], f64[0], f64, f64[n]) {
    return (nan_to_num(x), nan_to_num(p), np.nan_to_num(x, nan=-1.5, posinf=r, neginf=-7), nan_to_num(p, posinf=1, nan=r),
            nan_to_num(i, nan=3), nan_to_num(b), nan_to_num(z), nan_to_num(s), nan_to_num(x) * 0.5 + 1.0);
}
"""
    x = np.array([np.nan, np.inf, -np.inf, 1.0, -0.0, 2.5])
    p = x.astype(np.float32)
    i = np.array([1, -2, 3, 0, 5, 6], dtype=np.int64)
    b = i > 1
    z = np.zeros(0)
    r, s = 9.25, float("-inf")
    proc, got = run_source(src, {"x": x, "p": p, "i": i, "b": b, "z": z}, tmp_path,
                           flags=["--target", target, "--arg", f"r={r}", "--arg", f"s={s}"])
    assert proc.returncode == 0, proc.stderr
    want = [np.nan_to_num(x), np.nan_to_num(p), np.nan_to_num(x, nan=-1.5, posinf=r, neginf=-7),
            np.nan_to_num(p, posinf=1, nan=r), np.nan_to_num(i, nan=3), np.nan_to_num(b), np.nan_to_num(z),
            np.float64(np.nan_to_num(s)), np.nan_to_num(x) * 0.5 + 1.0]
    for k, (g, w) in enumerate(zip(got, want)):
        assert_same(g, w, f"result {k}")


@pytest.mark.parametrize(
    "src, code, words",
    [
        ("fn f(x: f64[n]) -> f64[n] { return fmax(x); }", "E0501", "takes 2 arguments"),
        ("fn f(x: f64[n], y: f64[m, 3]) -> f64[n] { return fmin(x, y); }", "E", "broadcast"),
        ("fn f(x: f64) -> f64 { return tril(x); }", "E0503", "`tril` needs an array"),
        ("fn f(x: f64[n, m]) -> f64[n, m] { return triu(x, 1.5); }", "E", "diagonal `k` of `triu`"),
        ("fn f(x: f64[n, m]) -> f64[n, m] { return tril(x, 1, k=2); }", "E0502", "`k` twice"),
        ("fn f(x: f64[n, m]) -> f64[n, m] { return tril(x, j=2); }", "E0502", "no keyword argument `j`"),
        ("fn f(x: f64[n]) -> f64[n] { return nan_to_num(x, 0.0); }", "E0501", "nan_to_num"),
        ("fn f(x: f64[n]) -> f64[n] { return nan_to_num(x, copy=false); }", "E0502", "no keyword argument `copy`"),
        ("fn f(x: f64[n]) -> f64[n] { return nan_to_num(x, nan=x); }", "E0503", "not a numeric scalar"),
        ("fn f() -> f64[5] { return linspace(0, 1, number=5); }", "E0502", "no keyword argument `number`"),
        ("fn f(x: f64[n]) -> f64[n] { return clip(x, a_min=0, hi=1); }", "E0502", "no keyword argument `hi`"),
        ("fn f(x: f64[n]) -> f64[n] { return clip(x, 0, 1, a_max=2); }", "E0502", "no keyword argument `a_max`"),
    ],
)
def test_checker_errors(src, code, words, tmp_path):
    assert_check_error(src, code, words, tmp_path)

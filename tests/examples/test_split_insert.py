"""NumPy's `split` and `array_split` against NumPy (docs/language.md, "Builtin functions"; issue
31): integer section counts and lists of split points, along axis 0 and `axis=`, on f64/f32/i64 with empty and uneven sizes,
through `let (p, q) = ...`, `p, q = ...` and indexing, on the CPU and the GPU kernels (emulated, and
the GPU where there is one); then the checker's errors and `split`'s run-time error."""
import numpy as np
import pytest

from arrayc_examples import DTYPES, TARGETS, assert_check_error, assert_run_time_error, run_source

TESTED_DTYPES = ["f64", "f32", "i64"]
# (n, m): `v` is `T[n]`, `a` `T[n, m]`; empty, uneven and single sizes.
SIZES = [(7, 4), (0, 4), (6, 0), (1, 1), (12, 6), (2, 5)]


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("dt", TESTED_DTYPES)
@pytest.mark.parametrize("size", SIZES, ids=lambda s: "x".join(map(str, s)))
def test_array_split_matches_numpy(size, dt, target, tmp_path):
    n, m = size
    rng = np.random.default_rng(n * 31 + m + len(dt))
    v = (rng.standard_normal(n) * 10).astype(DTYPES[dt])
    a = (rng.standard_normal((n, m)) * 10).astype(DTYPES[dt])
    src = f"""fn main(v: {dt}[n], a: {dt}[n, m]) -> ({dt}[?], {dt}[?], {dt}[?], {dt}[?], {dt}[?, m], {dt}[n, ?], {dt}[n, ?], {dt}[?]) {{
    let (p, q, r) = array_split(v, 3);
    s, t = np.array_split(a, 2, axis=-1);
    let u = array_split(v, 5)[4] * 2;
    return (p, q, r, u, np.array_split(a, 4)[1], s, t, array_split(v, 1)[0]);
}}
"""
    proc, got = run_source(src, {"v": v, "a": a}, tmp_path, flags=["--target", target])
    assert proc.returncode == 0, f"{src}\n{proc.stderr}"
    p, q, r = np.array_split(v, 3)
    s, t = np.array_split(a, 2, axis=-1)
    want = [p, q, r, np.array_split(v, 5)[4] * 2, np.array_split(a, 4)[1], s, t, np.array_split(v, 1)[0]]
    for k, (g, w) in enumerate(zip(got, want)):
        g = np.asarray(g)
        assert g.dtype == w.dtype and g.shape == w.shape, f"result {k}: {g.dtype}{g.shape}, NumPy {w.dtype}{w.shape}"
        np.testing.assert_array_equal(g, w, err_msg=f"result {k}")


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("dt", TESTED_DTYPES)
@pytest.mark.parametrize("size", [(6, 4), (0, 2), (12, 0)], ids=lambda s: "x".join(map(str, s)))
def test_split_matches_numpy(size, dt, target, tmp_path):
    n, m = size
    rng = np.random.default_rng(n * 17 + m)
    v = (rng.standard_normal(n) * 10).astype(DTYPES[dt])
    a = (rng.standard_normal((n, m)) * 10).astype(DTYPES[dt])
    src = f"""fn main(v: {dt}[n], a: {dt}[n, m]) -> ({dt}[?], {dt}[?], {dt}[?, m], {dt}[n, ?], {dt}, {dt}[3]) {{
    let (p, q) = split(v, 2);
    x, y = np.split(a, 2, axis=1);
    return (p, q, split(a, 3, axis=0)[2], y, sum(split(v, 6)[5]), split(arange(9).astype({dt}), 3)[1]);
}}
"""
    proc, got = run_source(src, {"v": v, "a": a}, tmp_path, flags=["--target", target])
    assert proc.returncode == 0, f"{src}\n{proc.stderr}"
    p, q = np.split(v, 2)
    want = [p, q, np.split(a, 3, axis=0)[2], np.split(a, 2, axis=1)[1], np.sum(np.split(v, 6)[5]),
            np.split(np.arange(9).astype(DTYPES[dt]), 3)[1]]
    for k, (g, w) in enumerate(zip(got, want)):
        g, w = np.asarray(g), np.asarray(w)
        assert g.dtype == w.dtype and g.shape == w.shape, f"result {k}: {g.dtype}{g.shape}, NumPy {w.dtype}{w.shape}"
        np.testing.assert_allclose(g, w, rtol=1e-6, err_msg=f"result {k}")


def test_split_of_an_unequal_division_is_a_run_time_error(tmp_path):
    """NumPy's ValueError, at run time when the size is a symbol."""
    with pytest.raises(ValueError, match="array split does not result in an equal division"):
        np.split(np.arange(7.0), 2)
    src = "fn main(v: f64[n]) -> f64[?] {\n    let (p, q) = split(v, 2);\n    return p;\n}\n"
    assert_run_time_error(src, {"v": np.arange(7.0)}, "array split does not result in an equal division", tmp_path)


@pytest.mark.parametrize(
    "src, code, words",
    [
        ("fn f(x: f64[7]) -> f64[?] { let (p, q) = split(x, 2); return p; }", "E0503",
         "array split does not result in an equal division: 7 elements into 2 sections"),
        ("fn f(x: f64[n, 5]) -> f64[n, ?] { return split(x, 2, axis=1)[0]; }", "E0503", "equal division"),
        ("fn f(x: f64[n]) -> f64[?] { return split(x, 0)[0]; }", "E0503", "positive integer literal"),
        ("fn f(x: f64[n]) -> f64[?] { return array_split(x, -2)[0]; }", "E0503", "positive integer literal"),
        ("fn f(x: f64[n], k: i64) -> f64[?] { return array_split(x, k)[0]; }", "E0503", "positive integer literal"),
        ("fn f(x: f64[n], k: i64) -> f64[?] { return split(x, [2, k])[0]; }", "E0503", "split points as a list"),
        ("fn f(x: f64) -> f64[?] { return split(x, 2)[0]; }", "E0503", "`split` needs an array"),
        ("fn f(x: f64[n]) -> f64[?] { return split(x, 2, axis=1)[0]; }", "E0", "axis"),
        ("fn f(x: f64[n]) -> f64[?] { return split(x); }", "E0501", "split"),
    ],
)
def test_split_errors(src, code, words, tmp_path):
    assert_check_error(src, code, words, tmp_path)


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("dt", TESTED_DTYPES)
@pytest.mark.parametrize("size", [(7, 4), (0, 3), (3, 9), (1, 1)], ids=lambda s: "x".join(map(str, s)))
def test_split_points_match_numpy(size, dt, target, tmp_path):
    """`split(x, [p0, p1, ..])` and `array_split` (alike): slice bounds, negative from the end, beyond
    it empty sections; sizes known (literal shapes) and symbolic."""
    n, m = size
    rng = np.random.default_rng(n * 7 + m)
    v = (rng.standard_normal(n) * 10).astype(DTYPES[dt])
    a = (rng.standard_normal((n, m)) * 10).astype(DTYPES[dt])
    for shapes in (("n", "m"), (str(n), str(m))):
        src = f"""fn main(v: {dt}[{shapes[0]}], a: {dt}[{shapes[0]}, {shapes[1]}]) -> ({dt}[?], {dt}[?], {dt}[?], {dt}[?, {shapes[1]}], {dt}[{shapes[0]}, ?], {dt}[{shapes[0]}, ?], {dt}[?], {dt}[?]) {{
    let (p, q, r) = np.split(v, [2, 5]);
    x, y = np.array_split(a, [-1], axis=1);
    let (s,) = split(v, []);
    return (p, q, r * 2, array_split(a, (1, 9))[2], x, y, s, split(v, [3, 1, -2, 8])[2]);
}}
"""
        proc, got = run_source(src, {"v": v, "a": a}, tmp_path / shapes[0], flags=["--target", target])
        assert proc.returncode == 0, f"{src}\n{proc.stderr}"
        p, q, r = np.split(v, [2, 5])
        x, y = np.array_split(a, [-1], axis=1)
        want = [p, q, r * 2, np.array_split(a, (1, 9))[2], x, y, np.split(v, [])[0], np.split(v, [3, 1, -2, 8])[2]]
        for k, (g, w) in enumerate(zip(got, want)):
            g = np.asarray(g)
            assert g.dtype == w.dtype and g.shape == w.shape, f"result {k}: {g.dtype}{g.shape}, NumPy {w.dtype}{w.shape}"
            np.testing.assert_array_equal(g, w, err_msg=f"result {k}")


@pytest.mark.parametrize("target", TARGETS)
def test_sections_are_views(target, tmp_path):
    """NumPy's sections are views of `x`: writing one writes `x`."""
    src = """fn main(v: f64[n]) -> (f64[n], f64[?]) {
    let w = copy(v);
    let (p, q) = split(w, 2);
    q[0] = 100.0;
    r, s, t = array_split(w, 3);
    t[:] = -1.0;
    let (head, tail) = split(w, [1]);
    head[0] = 50.0;
    return (w, p);
}
"""
    v = np.arange(7.0)[:6]
    proc, got = run_source(src, {"v": v}, tmp_path, flags=["--target", target])
    assert proc.returncode == 0, proc.stderr
    w = v.copy()
    p, q = np.split(w, 2)
    q[0] = 100.0
    np.array_split(w, 3)[2][:] = -1.0
    np.split(w, [1])[0][0] = 50.0
    np.testing.assert_array_equal(got[0], w)
    np.testing.assert_array_equal(got[1], p)

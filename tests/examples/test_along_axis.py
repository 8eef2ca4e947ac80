"""NumPy's `take_along_axis`, `put_along_axis` and `ravel_multi_index` against NumPy (docs/language.md,
"Builtin functions"; issue 31): along every axis (negative too), with `axis=None`, indices from
`argsort` and `argmax(keepdims=True)`, negative indices, broadcasting index arrays, on f64/f32/i64
and i32/u8 indices, on the CPU and the GPU kernels (emulated, and the GPU where there is one); then
the checker's errors and the run-time errors (out of range), each naming the line."""
import numpy as np
import pytest

from arrayc_examples import DTYPES, TARGETS, assert_check_error, assert_run_time_error, run_source

TESTED_DTYPES = ["f64", "f32", "i64"]
# (n, m): `a` is `T[n, m]`; single sizes (empty ones: `test_take_along_axis_of_empty_arrays`).
SIZES = [(5, 4), (1, 1), (7, 3)]


def assert_results(got, want):
    for k, (g, w) in enumerate(zip(got, want)):
        g, w = np.asarray(g), np.asarray(w)
        assert g.dtype == w.dtype and g.shape == w.shape, f"result {k}: {g.dtype}{g.shape}, NumPy {w.dtype}{w.shape}"
        np.testing.assert_array_equal(g, w, err_msg=f"result {k}")


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("dt", TESTED_DTYPES)
@pytest.mark.parametrize("size", SIZES, ids=lambda s: "x".join(map(str, s)))
def test_take_along_axis_matches_numpy(size, dt, target, tmp_path):
    n, m = size
    rng = np.random.default_rng(n * 13 + m + len(dt))
    a = (rng.standard_normal((n, m)) * 10).astype(DTYPES[dt])
    # Indices along axis 0 in [-n, n), i32 (converted as NumPy does), of shape (2, m).
    i0 = (rng.integers(-n, n, (2, m)) if n else np.zeros((2, m), np.int64)).astype(np.int32)
    src = f"""fn main(a: {dt}[n, m], i0: i32[2, m]) -> ({dt}[n, m], {dt}[n, 1], {dt}[2, m], {dt}[n, m], {dt}[?], i64[n, m]) {{
    let s = np.take_along_axis(a, np.argsort(a, axis=1), axis=1);
    let big = take_along_axis(a, argmax(a, axis=-1, keepdims=true), -1);
    let g = np.take_along_axis(a, i0, axis=0);
    let d = take_along_axis(a, argsort(a, axis=0), axis=-2);
    let f = np.take_along_axis(a, argsort(a, axis=None), axis=None);
    return (s, big, g * 2, d, f, take_along_axis(argsort(a), argsort(a, axis=1), 1));
}}
"""
    proc, got = run_source(src, {"a": a, "i0": i0}, tmp_path, flags=["--target", target])
    assert proc.returncode == 0, f"{src}\n{proc.stderr}"
    sa = lambda x, axis: np.argsort(x, axis=axis, kind="stable")
    want = [
        np.take_along_axis(a, sa(a, 1), axis=1),
        np.take_along_axis(a, np.argmax(a, axis=-1, keepdims=True), -1) if m else np.zeros((n, 1), a.dtype),
        np.take_along_axis(a, i0, axis=0) * 2 if n else np.zeros((2, m), a.dtype),
        np.take_along_axis(a, sa(a, 0), axis=-2),
        np.take_along_axis(a, sa(a, None), axis=None),
        np.take_along_axis(sa(a, -1), sa(a, 1), 1),
    ]
    assert_results(got, want)


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("size", [(0, 3), (3, 0)], ids=lambda s: "x".join(map(str, s)))
def test_take_along_axis_of_empty_arrays(size, target, tmp_path):
    a = np.ones(size)
    src = """fn main(a: f64[n, m]) -> (f64[n, m], f64[n, m]) {
    return (take_along_axis(a, argsort(a, axis=1), axis=1), take_along_axis(a, argsort(a, axis=0), axis=0));
}
"""
    proc, got = run_source(src, {"a": a}, tmp_path, flags=["--target", target])
    assert proc.returncode == 0, f"{src}\n{proc.stderr}"
    assert_results(got, [np.take_along_axis(a, np.argsort(a, axis=1), axis=1),
                         np.take_along_axis(a, np.argsort(a, axis=0), axis=0)])


@pytest.mark.parametrize("target", TARGETS)
def test_take_along_axis_broadcasts_and_3d(target, tmp_path):
    """The indices broadcast against the array off the axis (size 1 either side), on a 3-d array."""
    rng = np.random.default_rng(5)
    a = rng.standard_normal((3, 4, 5))
    i = rng.integers(-5, 5, (1, 4, 6))
    j = rng.integers(0, 3, (2, 1, 1)).astype(np.uint8)
    src = """fn main(a: f64[3, 4, 5], i: i64[1, 4, 6], j: u8[2, 1, 1]) -> (f64[3, 4, 6], f64[2, 4, 5], f64[3, 4, 1]) {
    return (np.take_along_axis(a, i, axis=2), np.take_along_axis(a, j, axis=0), np.take_along_axis(a, argmin(a, axis=2, keepdims=true), 2));
}
"""
    proc, got = run_source(src, {"a": a, "i": i, "j": j}, tmp_path, flags=["--target", target])
    assert proc.returncode == 0, f"{src}\n{proc.stderr}"
    assert_results(got, [np.take_along_axis(a, i, axis=2), np.take_along_axis(a, j, axis=0),
                         np.take_along_axis(a, np.argmin(a, axis=2, keepdims=True), 2)])


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("dt", TESTED_DTYPES)
def test_put_along_axis_matches_numpy(dt, target, tmp_path):
    rng = np.random.default_rng(len(dt))
    a = (rng.standard_normal((4, 6)) * 10).astype(DTYPES[dt])
    i1 = rng.integers(-6, 6, (4, 2))
    i0 = rng.integers(0, 4, (1, 6)).astype(np.int32)
    v = (rng.standard_normal((4, 1)) * 10).astype(DTYPES[dt])
    src = f"""fn main(a: {dt}[n, m], i1: i64[n, 2], i0: i32[1, m], v: {dt}[n, 1]) -> ({dt}[n, m], {dt}[n, m], {dt}[n, m]) {{
    let b = copy(a);
    np.put_along_axis(b, i1, v, axis=1);
    let c = copy(a);
    put_along_axis(c, i0, 3, axis=-2);
    let s = copy(a);
    put_along_axis(s, argsort(a, axis=1), arange(6).astype({dt}), 1);
    return (b, c, s);
}}
"""
    proc, got = run_source(src, {"a": a, "i1": i1, "i0": i0, "v": v}, tmp_path, flags=["--target", target])
    assert proc.returncode == 0, f"{src}\n{proc.stderr}"
    b, c, s = a.copy(), a.copy(), a.copy()
    np.put_along_axis(b, i1, v, axis=1)
    np.put_along_axis(c, i0, 3, axis=-2)
    np.put_along_axis(s, np.argsort(a, axis=1, kind="stable"), np.arange(6).astype(a.dtype), 1)
    assert_results(got, [b, c, s])


@pytest.mark.parametrize("target", TARGETS)
def test_ravel_multi_index_matches_numpy(target, tmp_path):
    rng = np.random.default_rng(3)
    i = rng.integers(0, 3, (5, 1))
    j = rng.integers(0, 4, (1, 6)).astype(np.int32)
    k = rng.integers(0, 7, 6).astype(np.uint8)
    src = """fn main(i: i64[5, 1], j: i32[1, 6], k: u8[6]) -> (i64[5, 6], i64[5, 6], i64, i64[6]) {
    return (np.ravel_multi_index((i, j), (3, 4)), ravel_multi_index((i, j, k), (3, 4, 7)), ravel_multi_index((2, 3), (3, 4)), ravel_multi_index((k,), (7,)));
}
"""
    proc, got = run_source(src, {"i": i, "j": j, "k": k}, tmp_path, flags=["--target", target])
    assert proc.returncode == 0, f"{src}\n{proc.stderr}"
    assert_results(got, [np.ravel_multi_index((i, j), (3, 4)), np.ravel_multi_index((i, j, k), (3, 4, 7)),
                         np.int64(np.ravel_multi_index((2, 3), (3, 4))), np.ravel_multi_index((k,), (7,))])


def test_out_of_range_indices_are_run_time_errors(tmp_path):
    """NumPy's IndexError (`take_along_axis`, `put_along_axis`) and ValueError (`ravel_multi_index`,
    `mode='raise'`: negative indices too), at run time, naming the line."""
    a = np.arange(12.0).reshape(3, 4)
    with pytest.raises(IndexError):
        np.take_along_axis(a, np.array([[4]]), axis=1)
    with pytest.raises(ValueError, match="invalid entry in coordinates array"):
        np.ravel_multi_index((np.array([-1]), np.array([0])), (3, 4))
    cases = [
        ("let t = take_along_axis(a, i, axis=1);", "index out of bounds"),
        ("put_along_axis(a, i, 0.0, axis=1);", "index out of bounds"),
        ("let r = ravel_multi_index((i, i), (3, 4));", "invalid entry in coordinates array"),
    ]
    for k, (stmt, message) in enumerate(cases):
        src = f"fn main(a: f64[3, 4], i: i64[1, 1]) -> f64[3, 4] {{\n    {stmt}\n    return a;\n}}\n"
        for bad in (np.array([[4]]), np.array([[-5]])):
            assert_run_time_error(src, {"a": a, "i": bad}, message, tmp_path / f"{k}{bad[0, 0]}")
    src = "fn main(a: f64[3, 4], i: i64[1, 1]) -> i64 {\n    return ravel_multi_index((0, -1), (3, 4));\n}\n"
    assert_run_time_error(src, {"a": a, "i": np.array([[0]])}, "invalid entry in coordinates array", tmp_path / "s")


@pytest.mark.parametrize(
    "src, code, words",
    [
        ("fn f(x: f64[n, m], i: i64[n]) -> f64[n] { return take_along_axis(x, i, axis=1); }", "E0409",
         "must have the same number of dimensions"),
        ("fn f(x: f64[n, m], i: f64[n, 1]) -> f64[n, 1] { return take_along_axis(x, i, axis=1); }", "E0406",
         "must be an integer array"),
        ("fn f(x: f64[n, m], i: bool[n, 1]) -> f64[n, 1] { return take_along_axis(x, i, axis=1); }", "E0406",
         "must be an integer array"),
        ("fn f(x: f64[4, 3], i: i64[2, 2]) -> f64[4, 2] { return take_along_axis(x, i, axis=1); }", "E0401",
         "do not broadcast"),
        ("fn f(x: f64[n, m], i: i64[n, 1]) -> f64[n, 1] { return take_along_axis(x, i, axis=2); }", "E0405",
         "axis"),
        ("fn f(x: f64[n, m], i: i64[n, 2]) -> f64[?] { return take_along_axis(x, i, axis=None); }", "E0409",
         "same number of dimensions"),
        ("fn f(x: f64[n], i: i64[n]) -> f64[n] { return take_along_axis(1.0, i); }", "E0408", "needs an array"),
        ("fn f(x: f64[n, m], i: i64[n, 1]) { put_along_axis(x, i, 1.0); }", "E0405", "needs `axis=`"),
        ("fn f(x: f64[n, m], i: i64[n, 1], v: f64[3]) { put_along_axis(x, i, v, axis=1); }", "E0401",
         "cannot be broadcast"),
        ("fn f(i: i64[n]) -> i64[n] { return ravel_multi_index((i, i), (3,)); }", "E0503", "one per size"),
        ("fn f(i: f64[n]) -> i64[n] { return ravel_multi_index((i,), (3,)); }", "E0406", "must be integers"),
        ("fn f(i: i64[3], j: i64[4]) -> i64[3] { return ravel_multi_index((i, j), (3, 4)); }", "E0401", "broadcast"),
    ],
)
def test_along_axis_errors(src, code, words, tmp_path):
    assert_check_error(src, code, words, tmp_path)

"""NumPy 2's `delete` and `insert` against NumPy (docs/language.md, "Builtin functions"; issue 31):
every kind of `obj` (an integer literal or run-time scalar, negative too, `slice(..)`, a list with
repeated and negative indices, an index array, a bool mask), along axis 0, 1, 2, -1 and without
`axis=` (flattened), on 1-d, 2-d and 3-d arrays of f64/i64/bool, with `values` broadcast (scalars,
a row, a column, NumPy's integer-`obj` rule that moves `values`' first axis to the axis), empty
results and empty arrays; on the CPU and the GPU kernels (emulated, and the GPU where there is one);
then the run-time errors (an index out of range, a mask of another length), each naming the line,
and the checker's errors."""
import numpy as np
import pytest

from arrayc_examples import DTYPES, TARGETS, assert_check_error, assert_run_time_error, run_source

TESTED_DTYPES = ["f64", "i64", "bool"]

# The arrays of every program: `v` `T[7]`, `a` `T[4, 5]`, `c` `T[2, 3, 4]`, the run-time index
# array `idx` and scalar `s`, masks along `v` and along `a`'s axis 1, and values to insert.
N, M, P = 7, 4, 5
IDX = np.array([0, -1, 2, 2, 3], dtype=np.int64)
S = 3


def inputs(dt, seed):
    rng = np.random.default_rng(seed)
    t = DTYPES[dt]

    def arr(*shape):
        if dt == "bool":
            return rng.random(shape) < 0.5
        return (rng.standard_normal(shape) * 10).astype(t) if dt == "f64" else rng.integers(-50, 50, shape).astype(t)

    return {
        "v": arr(N),
        "a": arr(M, P),
        "c": arr(2, 3, 4),
        "idx": IDX.copy(),
        "mv": rng.random(N) < 0.4,
        "ma": np.array([True, False, False, True, False]),
        "row": arr(P),
        "col": arr(M),
        "colm": arr(M, 1),
        "w": arr(len(IDX)),
        "plane": arr(2, 3),
    }


PARAMS = (
    "v: {T}[n], a: {T}[m, p], c: {T}[2, 3, 4], idx: i64[k], mv: bool[n], ma: bool[p], row: {T}[p], "
    "col: {T}[m], colm: {T}[m, 1], w: {T}[k], plane: {T}[2, 3], s: i64"
)

# (arrayc expression, its result type, NumPy's result from the inputs `d`).
DELETE_CASES = [
    ("delete(v, 2)", "{T}[?]", lambda d: np.delete(d["v"], 2)),
    ("np.delete(v, -1)", "{T}[?]", lambda d: np.delete(d["v"], -1)),
    ("delete(v, s)", "{T}[?]", lambda d: np.delete(d["v"], S)),
    ("delete(v, -s)", "{T}[?]", lambda d: np.delete(d["v"], -S)),
    ("delete(v, 0)", "{T}[?]", lambda d: np.delete(d["v"], 0)),
    ("delete(v, slice(2, 5))", "{T}[?]", lambda d: np.delete(d["v"], slice(2, 5))),
    ("delete(v, slice(None, None, 2))", "{T}[?]", lambda d: np.delete(d["v"], slice(None, None, 2))),
    ("delete(v, slice(-1, 0, -2))", "{T}[?]", lambda d: np.delete(d["v"], slice(-1, 0, -2))),
    ("delete(v, slice(4))", "{T}[?]", lambda d: np.delete(d["v"], slice(4))),
    ("delete(v, slice(s, None))", "{T}[?]", lambda d: np.delete(d["v"], slice(S, None))),
    ("delete(v, [1, 3, 3, -1])", "{T}[?]", lambda d: np.delete(d["v"], [1, 3, 3, -1])),
    ("delete(v, idx)", "{T}[?]", lambda d: np.delete(d["v"], IDX)),
    ("delete(v, mv)", "{T}[?]", lambda d: np.delete(d["v"], d["mv"])),
    ("delete(v, [4])", "{T}[?]", lambda d: np.delete(d["v"], [4])),
    ("delete(a, 1, axis=0)", "{T}[?, p]", lambda d: np.delete(d["a"], 1, axis=0)),
    ("delete(a, -1, 0)", "{T}[?, p]", lambda d: np.delete(d["a"], -1, 0)),
    ("delete(a, [0, 2], axis=1)", "{T}[m, ?]", lambda d: np.delete(d["a"], [0, 2], axis=1)),
    ("delete(a, ma, axis=1)", "{T}[m, ?]", lambda d: np.delete(d["a"], d["ma"], axis=1)),
    ("delete(a, slice(1, 3), axis=-1)", "{T}[m, ?]", lambda d: np.delete(d["a"], slice(1, 3), axis=-1)),
    ("delete(a, idx, axis=1)", "{T}[m, ?]", lambda d: np.delete(d["a"], IDX, axis=1)),
    ("delete(a, 3)", "{T}[?]", lambda d: np.delete(d["a"], 3)),
    ("delete(a, [0, 19, -20], axis=None)", "{T}[?]", lambda d: np.delete(d["a"], [0, 19, -20], axis=None)),
    ("delete(c, [0, 2], axis=2)", "{T}[2, 3, ?]", lambda d: np.delete(d["c"], [0, 2], axis=2)),
    ("delete(c, 1, axis=1)", "{T}[2, ?, 4]", lambda d: np.delete(d["c"], 1, axis=1)),
    ("delete(c, slice(0, 1), axis=0)", "{T}[?, 3, 4]", lambda d: np.delete(d["c"], slice(0, 1), axis=0)),
    ("delete(c, s, axis=2)", "{T}[2, 3, ?]", lambda d: np.delete(d["c"], S, axis=2)),
    ("delete(v, slice(None))", "{T}[?]", lambda d: np.delete(d["v"], slice(None))),
    ("delete(a, slice(0, 100), axis=1)", "{T}[m, ?]", lambda d: np.delete(d["a"], slice(0, 100), axis=1)),
    ("delete(v, slice(3, 3))", "{T}[?]", lambda d: np.delete(d["v"], slice(3, 3))),
    ("delete(v, 2)[1:]", "{T}[?]", lambda d: np.delete(d["v"], 2)[1:]),
]

INSERT_CASES = [
    ("insert(v, 2, 9)", "{T}[?]", lambda d, t: np.insert(d["v"], 2, 9)),
    ("np.insert(v, -1, 9)", "{T}[?]", lambda d, t: np.insert(d["v"], -1, 9)),
    ("insert(v, s, 1.5)", "{T}[?]", lambda d, t: np.insert(d["v"], S, 1.5)),
    ("insert(v, len(v), 4)", "{T}[?]", lambda d, t: np.insert(d["v"], N, 4)),
    ("insert(v, -7, 4)", "{T}[?]", lambda d, t: np.insert(d["v"], -7, 4)),
    ("insert(v, 1, [7, 8])", "{T}[?]", lambda d, t: np.insert(d["v"], 1, [7, 8])),
    ("insert(v, [1], [7, 8])", "{T}[?]", lambda d, t: np.insert(d["v"], [1], [7, 8])),
    ("insert(v, [2, 2], [6, 7])", "{T}[?]", lambda d, t: np.insert(d["v"], [2, 2], [6, 7])),
    ("insert(v, [0, 5, 1, 5, -2], 3)", "{T}[?]", lambda d, t: np.insert(d["v"], [0, 5, 1, 5, -2], 3)),
    ("insert(v, slice(2, 4), [7, 8])", "{T}[?]", lambda d, t: np.insert(d["v"], slice(2, 4), [7, 8])),
    ("insert(v, slice(None, None, 3), 0)", "{T}[?]", lambda d, t: np.insert(d["v"], slice(None, None, 3), 0)),
    ("insert(v, idx, 0)", "{T}[?]", lambda d, t: np.insert(d["v"], IDX, 0)),
    ("insert(v, idx, w)", "{T}[?]", lambda d, t: np.insert(d["v"], IDX, d["w"])),
    ("insert(v, mv, 5)", "{T}[?]", lambda d, t: np.insert(d["v"], d["mv"], 5)),
    ("insert(v, 3, row)", "{T}[?]", lambda d, t: np.insert(d["v"], 3, d["row"])),
    ("insert(a, 1, 6, axis=1)", "{T}[m, ?]", lambda d, t: np.insert(d["a"], 1, 6, axis=1)),
    ("insert(a, 1, col, axis=1)", "{T}[m, ?]", lambda d, t: np.insert(d["a"], 1, d["col"], axis=1)),
    ("insert(a, [1], colm, axis=1)", "{T}[m, ?]", lambda d, t: np.insert(d["a"], [1], d["colm"], axis=1)),
    ("insert(a, 1, colm, axis=1)", "{T}[m, ?]", lambda d, t: np.insert(d["a"], 1, d["colm"], axis=1)),
    ("insert(a, 2, row, axis=0)", "{T}[?, p]", lambda d, t: np.insert(d["a"], 2, d["row"], axis=0)),
    ("insert(a, [0, 4], row, axis=0)", "{T}[?, p]", lambda d, t: np.insert(d["a"], [0, 4], d["row"], axis=0)),
    ("insert(a, [3, 0, 3], colm, axis=-1)", "{T}[m, ?]", lambda d, t: np.insert(d["a"], [3, 0, 3], d["colm"], axis=-1)),
    ("insert(a, ma, 1, axis=1)", "{T}[m, ?]", lambda d, t: np.insert(d["a"], d["ma"], 1, axis=1)),
    ("insert(a, 3, 5)", "{T}[?]", lambda d, t: np.insert(d["a"], 3, 5)),
    ("insert(a, [0, 20], [1, 2])", "{T}[?]", lambda d, t: np.insert(d["a"], [0, 20], [1, 2])),
    ("insert(c, [1, 1], 0, axis=1)", "{T}[2, ?, 4]", lambda d, t: np.insert(d["c"], [1, 1], 0, axis=1)),
    ("insert(c, 0, plane, axis=2)", "{T}[2, 3, ?]", lambda d, t: np.insert(d["c"], 0, d["plane"], axis=2)),
    ("insert(c, idx, 2, axis=2)", "{T}[2, 3, ?]", lambda d, t: np.insert(d["c"], IDX, 2, axis=2)),
    ("insert(c, 1, c[0, 0], axis=0)", "{T}[?, 3, 4]", lambda d, t: np.insert(d["c"], 1, d["c"][0, 0], axis=0)),
    ("insert(v, slice(3, 3), 1)", "{T}[?]", lambda d, t: np.insert(d["v"], slice(3, 3), 1)),
]


def run_cases(cases, dt, target, tmp_path, seed, is_insert):
    d = inputs(dt, seed)
    T = dt
    types = ", ".join(ty.format(T=T) for _, ty, _ in cases)
    body = "\n".join(f"    let r{k} = {e};" for k, (e, _, _) in enumerate(cases))
    rets = ", ".join(f"r{k}" for k in range(len(cases)))
    src = f"fn main({PARAMS.format(T=T)}) -> ({types}) {{\n{body}\n    return ({rets});\n}}\n"
    proc, got = run_source(src, d, tmp_path, flags=["--target", target, "--arg", f"s={S}"])
    assert proc.returncode == 0, f"{src}\n{proc.stderr}"
    for k, (e, _, ref) in enumerate(cases):
        w = ref(d, DTYPES[dt]) if is_insert else ref(d)
        g = np.asarray(got[k])
        assert g.dtype == w.dtype and g.shape == w.shape, f"{e}: {g.dtype}{g.shape}, NumPy {w.dtype}{w.shape}"
        np.testing.assert_array_equal(g, w, err_msg=e)


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("dt", TESTED_DTYPES)
def test_delete_matches_numpy(dt, target, tmp_path):
    run_cases(DELETE_CASES, dt, target, tmp_path, 11 + len(dt), False)


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("dt", TESTED_DTYPES)
def test_insert_matches_numpy(dt, target, tmp_path):
    run_cases(INSERT_CASES, dt, target, tmp_path, 23 + len(dt), True)


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("n", [0, 1])
def test_insert_delete_of_tiny_arrays(n, target, tmp_path):
    """Arrays of 0 and 1 items: what NumPy allows of them (deleting nothing, inserting at 0 and
    at the end, into an empty axis of a 2-d array)."""
    v = np.arange(n, dtype=np.float64)
    a = np.ones((3, n), dtype=np.int64)
    src = """fn main(v: f64[n], a: i64[3, n]) -> (f64[?], f64[?], f64[?], f64[?], i64[3, ?], i64[3, ?], i64[?, n]) {
    return (delete(v, slice(1, 3)), insert(v, 0, 5), insert(v, len(v), [1, 2]), delete(v, v > 0.5),
            insert(a, 0, 7, axis=1), delete(a, slice(None), axis=1), delete(a, [0, 2], axis=0));
}
"""
    proc, got = run_source(src, {"v": v, "a": a}, tmp_path, flags=["--target", target])
    assert proc.returncode == 0, proc.stderr
    want = [np.delete(v, slice(1, 3)), np.insert(v, 0, 5), np.insert(v, n, [1, 2]), np.delete(v, v > 0.5),
            np.insert(a, 0, 7, axis=1), np.delete(a, slice(None), axis=1), np.delete(a, [0, 2], axis=0)]
    for k, (g, w) in enumerate(zip(got, want)):
        g = np.asarray(g)
        assert g.dtype == w.dtype and g.shape == w.shape, f"result {k}: {g.dtype}{g.shape}, NumPy {w.dtype}{w.shape}"
        np.testing.assert_array_equal(g, w, err_msg=f"result {k}")


@pytest.mark.parametrize(
    "src, args, numpy_call, message",
    [
        ("delete(v, 9)", {}, lambda v, i: np.delete(v, 9), "index 9 is out of bounds for axis 0 with size 7"),
        ("delete(v, s)", {"s": -8}, lambda v, i: np.delete(v, -8), "index -8 is out of bounds for axis 0 with size 7"),
        ("insert(v, s, 1.0)", {"s": 8}, lambda v, i: np.insert(v, 8, 1.0),
         "index 8 is out of bounds for axis 0 with size 7"),
        # (NumPy's general case wraps this index silently; arrayc keeps to `[-n, n]`.)
        ("insert(v, idx, 1.0)", {}, None, "index -9 is out of bounds for axis 0 with size 7"),
        ("delete(v, idx)", {}, lambda v, i: np.delete(v, i), "index out of bounds"),
    ],
)
def test_out_of_range_is_a_run_time_error(src, args, numpy_call, message, tmp_path):
    """NumPy's IndexError, naming the line; at run time, since the index or the size is a value."""
    v = np.arange(7.0)
    idx = np.array([1, -9], dtype=np.int64)
    if numpy_call is not None:
        with pytest.raises(IndexError):
            numpy_call(v, idx)
    prog = f"fn main(v: f64[n], idx: i64[k], s: i64 = 0) -> f64[?] {{\n    let r = {src};\n    return r;\n}}\n"
    assert_run_time_error(prog, {"v": v, "idx": idx, **args}, message, tmp_path)


def test_a_mask_of_another_length_is_a_run_time_error(tmp_path):
    with pytest.raises(ValueError, match="boolean array argument obj to delete"):
        np.delete(np.arange(7.0), np.ones(6, dtype=bool))
    prog = "fn main(v: f64[n], m: bool[k]) -> f64[?] {\n    let r = delete(v, m);\n    return r;\n}\n"
    assert_run_time_error(prog, {"v": np.arange(7.0), "m": np.ones(6, dtype=bool)},
                          "boolean array argument obj to delete must be one dimensional", tmp_path)


@pytest.mark.parametrize(
    "src, code, words",
    [
        ("fn f(x: f64[n]) -> f64[?] { return delete(x, 1.5); }", "E0406", "`delete`'s `obj` must be an integer"),
        ("fn f(x: f64[n], i: f64[k]) -> f64[?] { return delete(x, i); }", "E0406", "index array must have an integer"),
        ("fn f(x: f64[n], i: i64[2, 2]) -> f64[?] { return np.delete(x, i); }", "E0503", "1-d index array"),
        ("fn f(x: f64[n, m]) -> f64[n, ?] { return delete(x, 1, axis=2); }", "E0405", "axis 2 is out of range"),
        ("fn f(x: f64[n]) -> f64[?] { return insert(x, 1.0, 2.0); }", "E0406", "`insert`'s `obj` must be an integer"),
        ("fn f(x: f64[n], y: f64[2, 2]) -> f64[?] { return insert(x, 1, y); }", "E0503", "more than the array's 1"),
        ("fn f(x: f64[n]) -> f64[?] { return insert(x, [1, 2], [1.0, 2.0, 3.0]); }", "E0401", "do not broadcast"),
        ("fn f(x: f64[n, 3]) -> f64[?, 3] { return insert(x, 0, [1.0, 2.0], axis=0); }", "E0401", "do not broadcast"),
        ("fn f(x: f64[5]) -> f64[?] { return delete(x, [true, false]); }", "E0503", "match the axis length of 5"),
        ("fn f(x: f64[n]) -> f64[?] { return delete(x, slice(0.5, 2)); }", "E0406", "a bound of `slice`"),
        ("fn f(x: f64[n]) -> f64[?] { return insert(x, 1); }", "E0501", "insert"),
    ],
)
def test_insert_delete_errors(src, code, words, tmp_path):
    assert_check_error(src, code, words, tmp_path)

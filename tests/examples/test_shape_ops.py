"""Shape operations against NumPy (docs/language.md, "Builtin functions"): the views `flip`,
`expand_dims`, `squeeze` (writes through them change the argument, as NumPy's views do) and the new
arrays `concatenate`, `stack`, `vstack`, `hstack`, `dstack`, `column_stack`, `cross`, `append`, `roll`, `pad`, `tile`, `repeat`,
`meshgrid` (and `linspace(endpoint=false)`), NumPy's everyday idioms (issue 31): the views `fliplr`,
`flipud`, `rot90`, `transpose(x, axes)`, `roll` and `repeat` without an axis (flattened), `pad`'s
modes, `cumsum` of an n-d array, `argwhere`, `meshgrid(indexing="ij")`; on every dtype, with
mixed dtypes (NumPy's promotion), empty arrays and sizes known only at run time; on the CPU and on
the GPU kernels (emulated, and the GPU where there is one). Then the checker's errors and the run
time's, each naming the place."""
import warnings

import numpy as np
import pytest

from arrayc_examples import DTYPES, TARGETS, assert_check_error, assert_run_time_error, check_source, run_source, sum_dtype

# (arrayc expression, NumPy function of the inputs, arrayc result type): `a` is `T[n, m]`, `b` is
# `T[k, m]`, `v` is `T[n]`, `w` is `i64[n]`, `s` an i64 scalar (a shift or width known at run time).
CASES = [
    ("flip(a)", lambda a, b, v, w, s: np.flip(a), "T[n, m]"),
    ("flip(a, axis=-1)", lambda a, b, v, w, s: np.flip(a, axis=-1), "T[n, m]"),
    ("flip(v)", lambda a, b, v, w, s: np.flip(v), "T[n]"),
    ("expand_dims(a, axis=0)", lambda a, b, v, w, s: np.expand_dims(a, 0), "T[1, n, m]"),
    ("expand_dims(a, axis=-1)", lambda a, b, v, w, s: np.expand_dims(a, -1), "T[n, m, 1]"),
    ("squeeze(a[1:2, :], axis=0)", lambda a, b, v, w, s: np.squeeze(a[1:2, :], axis=0), "T[m]"),
    ("squeeze(expand_dims(v, axis=1), axis=-1)", lambda a, b, v, w, s: np.squeeze(v[:, None], axis=-1), "T[n]"),
    ("concatenate((a, b))", lambda a, b, v, w, s: np.concatenate((a, b)), "T[?, m]"),
    ("concatenate((a, b, a), axis=-2)", lambda a, b, v, w, s: np.concatenate((a, b, a), axis=-2), "T[?, m]"),
    ("concatenate((a, a), axis=1)", lambda a, b, v, w, s: np.concatenate((a, a), axis=1), "T[n, ?]"),
    ("concatenate((v, w))", lambda a, b, v, w, s: np.concatenate((v, w)), "P[?]"),
    ("stack((v, v, v))", lambda a, b, v, w, s: np.stack((v, v, v)), "T[3, n]"),
    ("stack((a, a), axis=2)", lambda a, b, v, w, s: np.stack((a, a), axis=2), "T[n, m, 2]"),
    ("stack((v, w), axis=-1)", lambda a, b, v, w, s: np.stack((v, w), axis=-1), "P[n, 2]"),
    ("vstack((v, v))", lambda a, b, v, w, s: np.vstack((v, v)), "T[2, n]"),
    ("vstack((a, b, a[0]))", lambda a, b, v, w, s: np.vstack((a, b, a[0])), "T[?, m]"),
    ("hstack((v, w, v))", lambda a, b, v, w, s: np.hstack((v, w, v)), "P[?]"),
    ("hstack((a, a))", lambda a, b, v, w, s: np.hstack((a, a)), "T[n, ?]"),
    ("dstack((v, w, v))", lambda a, b, v, w, s: np.dstack((v, w, v)), "P[1, n, 3]"),
    ("dstack((a, a * 3))", lambda a, b, v, w, s: np.dstack((a, a * 3)), "Q[n, m, 2]"),
    ("dstack((expand_dims(a, axis=-1), a))", lambda a, b, v, w, s: np.dstack((a[..., None], a)), "T[n, m, 2]"),
    ("column_stack((v, w))", lambda a, b, v, w, s: np.column_stack((v, w)), "P[n, 2]"),
    ("column_stack((a, v, a))", lambda a, b, v, w, s: np.column_stack((a, v, a)), "T[n, ?]"),
    ("append(v, w)", lambda a, b, v, w, s: np.append(v, w), "P[?]"),
    ("append(v, v[0])", lambda a, b, v, w, s: np.append(v, v[0]), "T[?]"),
    ("roll(v, s)", lambda a, b, v, w, s: np.roll(v, s), "T[n]"),
    ("roll(v, -s - 1)", lambda a, b, v, w, s: np.roll(v, -s - 1), "T[n]"),
    ("roll(a, 7, axis=1)", lambda a, b, v, w, s: np.roll(a, 7, axis=1), "T[n, m]"),
    ("roll(a, -1, axis=0)", lambda a, b, v, w, s: np.roll(a, -1, axis=0), "T[n, m]"),
    ("pad(v, 2)", lambda a, b, v, w, s: np.pad(v, 2), "T[?]"),
    ("pad(a, (1, s))", lambda a, b, v, w, s: np.pad(a, (1, s)), "T[?, ?]"),
    ("pad(a, ((0, 2), (s, 0)), constant_values=3)", lambda a, b, v, w, s: np.pad(a, ((0, 2), (s, 0)), constant_values=3),
     "T[?, ?]"),
    ("tile(v, 3)", lambda a, b, v, w, s: np.tile(v, 3), "T[?]"),
    ("tile(a, s)", lambda a, b, v, w, s: np.tile(a, s), "T[n, ?]"),
    ("tile(v, (2, 2))", lambda a, b, v, w, s: np.tile(v, (2, 2)), "T[?, ?]"),
    ("np.tile(a, (s, 1))", lambda a, b, v, w, s: np.tile(a, (s, 1)), "T[?, ?]"),
    ("tile(a, [2, 1, 3])", lambda a, b, v, w, s: np.tile(a, [2, 1, 3]), "T[?, ?, ?]"),
    ("tile(a, (2,))", lambda a, b, v, w, s: np.tile(a, (2,)), "T[n, ?]"),
    ("tile(v, (0, s))", lambda a, b, v, w, s: np.tile(v, (0, s)), "T[?, ?]"),
    ("tile(a, (1, 2)) + 1", lambda a, b, v, w, s: np.tile(a, (1, 2)) + 1, "Q[?, ?]"),
    ("repeat(v, s)", lambda a, b, v, w, s: np.repeat(v, s), "T[?]"),
    ("repeat(a, 3, axis=0)", lambda a, b, v, w, s: np.repeat(a, 3, axis=0), "T[?, m]"),
    ("a.repeat(0, axis=-1)", lambda a, b, v, w, s: np.repeat(a, 0, axis=-1), "T[n, 0]"),
    # NumPy's everyday idioms (issue 31).
    ("fliplr(a)", lambda a, b, v, w, s: np.fliplr(a), "T[n, m]"),
    ("np.flipud(a)", lambda a, b, v, w, s: np.flipud(a), "T[n, m]"),
    ("flipud(v)", lambda a, b, v, w, s: np.flipud(v), "T[n]"),
    ("rot90(a)", lambda a, b, v, w, s: np.rot90(a), "T[m, n]"),
    ("np.rot90(a, 2)", lambda a, b, v, w, s: np.rot90(a, 2), "T[n, m]"),
    ("rot90(a, k=-1, axes=(1, 0))", lambda a, b, v, w, s: np.rot90(a, k=-1, axes=(1, 0)), "T[m, n]"),
    ("rot90(a, 7)", lambda a, b, v, w, s: np.rot90(a, 7), "T[m, n]"),
    ("np.transpose(a, (1, 0))", lambda a, b, v, w, s: np.transpose(a, (1, 0)), "T[m, n]"),
    ("a.transpose(-1, 0)", lambda a, b, v, w, s: a.transpose(-1, 0), "T[m, n]"),
    ("transpose(expand_dims(a, axis=0), axes=(2, 0, 1))", lambda a, b, v, w, s: np.transpose(a[None], axes=(2, 0, 1)),
     "T[m, 1, n]"),
    ("expand_dims(a, axis=1).transpose((1, 2, 0))", lambda a, b, v, w, s: a[:, None].transpose((1, 2, 0)), "T[1, m, n]"),
    ("roll(a, s)", lambda a, b, v, w, s: np.roll(a, s), "T[n, m]"),
    ("np.roll(a, shift=-7)", lambda a, b, v, w, s: np.roll(a, shift=-7), "T[n, m]"),
    ("roll(v, shift=-3)", lambda a, b, v, w, s: np.roll(v, shift=-3), "T[n]"),
    ("roll(a, shift=-s, axis=1)", lambda a, b, v, w, s: np.roll(a, shift=-s, axis=1), "T[n, m]"),
    ("pad(v, 3, mode=\"edge\")", lambda a, b, v, w, s: np.pad(v, 3, mode="edge"), "T[?]"),
    ("pad(v, (s, 5), mode=\"wrap\")", lambda a, b, v, w, s: np.pad(v, (s, 5), mode="wrap"), "T[?]"),
    ("pad(v, (7, 1), mode=\"reflect\")", lambda a, b, v, w, s: np.pad(v, (7, 1), mode="reflect"), "T[?]"),
    ("np.pad(v, 4, mode=\"symmetric\")", lambda a, b, v, w, s: np.pad(v, 4, mode="symmetric"), "T[?]"),
    ("pad(a, ((2, 1), (0, 0)), mode=\"symmetric\")", lambda a, b, v, w, s: np.pad(a, ((2, 1), (0, 0)), mode="symmetric"),
     "T[?, ?]"),
    ("pad(a, ((1, s), (0, 0)), mode=\"edge\")", lambda a, b, v, w, s: np.pad(a, ((1, s), (0, 0)), mode="edge"), "T[?, ?]"),
    ("pad(a, ((5, 0), (0, 0)), mode=\"reflect\")", lambda a, b, v, w, s: np.pad(a, ((5, 0), (0, 0)), mode="reflect"),
     "T[?, ?]"),
    ("pad(a, 0, mode=\"wrap\")", lambda a, b, v, w, s: np.pad(a, 0, mode="wrap"), "T[?, ?]"),
    ("repeat(a, 2)", lambda a, b, v, w, s: np.repeat(a, 2), "T[?]"),
    ("a.repeat(s)", lambda a, b, v, w, s: a.repeat(s), "T[?]"),
    ("argwhere(a)", lambda a, b, v, w, s: np.argwhere(a), "I[?, 2]"),
    ("np.argwhere(expand_dims(a, axis=1))", lambda a, b, v, w, s: np.argwhere(a[:, None]), "I[?, 3]"),
    ("np.cumsum(a)", lambda a, b, v, w, s: np.cumsum(a), "R[?]"),
    ("a.cumprod()", lambda a, b, v, w, s: a.cumprod(), "R[?]"),
    # A fused consumer of each kind of result.
    ("concatenate((a, b)) * 2 + 1", lambda a, b, v, w, s: np.concatenate((a, b)) * 2 + 1, "Q[?, m]"),
    ("sum(pad(a, 1), axis=0)", lambda a, b, v, w, s: np.sum(np.pad(a, 1), axis=0), "R[?]"),
]

SHAPES = [(5, 4, 3), (2, 1, 2), (2, 0, 3), (37, 11, 5)]


def names(dt):
    """The result dtypes the cases name: T the input's, P promoted with i64, Q of `* 2 + 1`, R of a sum."""
    p = {v: k for k, v in DTYPES.items()}[np.result_type(DTYPES[dt], np.int64).type]
    q = "i64" if dt == "bool" else dt
    return {"T": dt, "P": p, "Q": q, "R": sum_dtype(q), "I": "i64"}


def inputs(dt, shape, rng):
    n, m, k = shape
    def draw(*s):
        x = rng.integers(-9, 10, s)
        if dt == "bool":
            return x > 0
        return x.astype(DTYPES[dt]) / 4 if dt in ("f64", "f32") else x.astype(DTYPES[dt])
    return {"a": draw(n, m), "b": draw(k, m), "v": draw(n), "w": rng.integers(-5, 5, n).astype(np.int64)}


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("dt", list(DTYPES))
@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: "x".join(map(str, s)))
def test_shape_operations_match_numpy(shape, dt, target, tmp_path):
    rng = np.random.default_rng(sum(shape) * 7 + len(dt))
    ins = inputs(dt, shape, rng)
    s = 2
    nm = names(dt)
    cases = [(e, f, t) for e, f, t in CASES if not (dt == "bool" and ("* 2" in e or "sum(" in e or "cumprod" in e))]
    types = [nm[t[0]] + t[1:] for _, _, t in cases]
    src = (
        f"fn main(a: {dt}[n, m], b: {dt}[k, m], v: {dt}[n], w: i64[n], s: i64) -> ({', '.join(types)}) {{\n"
        f"    return ({', '.join(e for e, _, _ in cases)});\n}}\n"
    )
    proc, got = run_source(src, ins, tmp_path, flags=["--target", target, "--arg", f"s={s}"])
    assert proc.returncode == 0, f"{src}\n{proc.stderr}"
    for g, (e, f, _) in zip(got, cases):
        want = np.asarray(f(ins["a"], ins["b"], ins["v"], ins["w"], s))
        assert g.dtype == want.dtype and g.shape == want.shape, f"{e}: {g.dtype}{g.shape}, NumPy {want.dtype}{want.shape}"
        np.testing.assert_array_equal(g, want, err_msg=e)


@pytest.mark.parametrize("target", TARGETS[:2])
def test_squeeze_without_an_axis_removes_every_size_1(target, tmp_path):
    src = "fn main(x: f64[1, 3, 1], y: f64[1, 1]) -> (f64[3], f64) { return (squeeze(x), squeeze(y)); }"
    x, y = np.arange(3.0).reshape(1, 3, 1), np.full((1, 1), 2.5)
    proc, got = run_source(src, {"x": x, "y": y}, tmp_path, flags=["--target", target])
    assert proc.returncode == 0, proc.stderr
    np.testing.assert_array_equal(got[0], np.squeeze(x))
    assert got[1] == np.squeeze(y)


@pytest.mark.parametrize("target", TARGETS[:2])
def test_writes_through_view_operations_change_the_argument(target, tmp_path):
    src = """fn main(a: f64[n, m]) -> f64[n, m] {
    let f = flip(a, axis=0);
    f[0, :] = -1.0;
    let e = expand_dims(a, axis=0);
    e[0, 1, 0] = 7.0;
    let q = squeeze(a[:, 1:2], axis=1);
    q[2] = 9.0;
    return a;
}
"""
    a = np.arange(20, dtype=np.float64).reshape(5, 4)
    proc, got = run_source(src, {"a": a}, tmp_path, flags=["--target", target])
    assert proc.returncode == 0, proc.stderr
    want = a.copy()
    np.flip(want, axis=0)[0, :] = -1.0
    np.expand_dims(want, 0)[0, 1, 0] = 7.0
    np.squeeze(want[:, 1:2], axis=1)[2] = 9.0
    np.testing.assert_array_equal(got[0], want)


@pytest.mark.parametrize(
    "src,code,words",
    [
        ("fn f(x: f64[3, 4]) -> f64[4] { return squeeze(x, axis=0); }", "E0405", "its size is 3, not 1"),
        ("fn f(x: f64[n, 4]) -> f64[4] { return squeeze(x); }", "E0405", "needs every size known"),
        ("fn f(x: f64[n], y: f64[n, 2]) -> f64[?] { return concatenate((x, y)); }", "E0401", "ranks 1, 2"),
        ("fn f(x: f64[3, 2], y: f64[3, 4]) -> f64[?, 2] { return concatenate((x, y)); }", "E0401", "along axis 1"),
        ("fn f(x: f64[n]) -> f64[?] { return concatenate(x); }", "E0401", "zero-dimensional arrays cannot be"),
        ("fn f(x: f64) -> f64[?] { return vstack(x); }", "E0503", "needs a tuple of arrays"),
        ("fn f(x: f64[n], y: f64[m]) -> f64[?] { return stack((x, y), axis=2); }", "E0405", "axis 2 is out of range"),
        ("fn f(x: f64[n], s: f64) -> f64[n] { return roll(x, s); }", "E0", "shift"),
        ("fn f(x: f64[n, m]) -> f64[?] { return append(x, 1.0); }", "E0503", "flattens"),
        ("fn f(x: f64[n, m]) -> f64[?, ?] { return pad(x, (1, 2, 3)); }", "E0503", "pad` widths"),
        ("fn f(x: f64[n]) -> f64[?] { return pad(x, -1); }", "E0503", "negative pad width"),
        ("fn f(x: f64[n]) -> f64[?] { return pad(x, 1, constant_values=x); }", "E0503", "must be a scalar"),
        ("fn f(x: f64) -> f64 { return flip(x); }", "E0503", "needs an array"),
        ("fn f(x: f64[n, 3], y: f64[n, 2]) -> f64[n, 3] { return cross(x, y); }", "E0503", "2 or 3 components"),
        ("fn f(x: f64[n, m]) -> f64[n, m] { return cross(x, x); }", "E0503", "must be known and equal"),
        ("fn f(x: bool[3]) -> bool[3] { return cross(x, x); }", "E0503", "bool vectors"),
        ("fn f(x: f64[n]) -> f64[n, 1] { return expand_dims(x); }", "E0405", "needs `axis=`"),
        ("fn f(x: f64[n, m]) -> f64[?] { let (a, b) = meshgrid(x, x); return a; }", "E0503", "needs 1-d arrays"),
        ("fn f(x: f64[n]) -> f64[?] { return tile(x, 1.5); }", "E0", "repetitions of `tile`"),
        ("fn f(x: f64[n]) -> f64[?, ?] { return tile(x, (2, 1.5)); }", "E0", "a repetition of `tile`"),
        ("fn f() -> f64[3] { return linspace(0, 1, 3, endpoint=1); }", "E0503", "must be `true` or `false`"),
        ("fn f(x: f64[n, m, k]) -> f64[?, ?, ?] { return transpose(x, (0, 0, 1)); }", "E0503", "axes (0, 0, 1) don't match"),
        ("fn f(x: f64[n, m, k]) -> f64[?, ?] { return np.transpose(x, (1, 0)); }", "E0503", "needs a permutation"),
        ("fn f(x: f64[n, m, k]) -> f64[?, ?, ?] { return x.transpose(2, 0, 3); }", "E0503", "don't match array"),
        ("fn f(x: f64[n, m], j: i64) -> f64[?, ?] { return transpose(x, (j, 0)); }", "E0503", "must be integer literals"),
        ("fn f(x: f64[n]) -> f64[n] { return fliplr(x); }", "E0503", "at least 2 dimensions"),
        ("fn f(x: f64) -> f64 { return flipud(x); }", "E0503", "needs an array"),
        ("fn f(x: f64[n, m]) -> f64[n, m] { return rot90(x, axes=(1, 1)); }", "E0503", "must be different"),
        ("fn f(x: f64[n, m]) -> f64[n, m] { return rot90(x, axes=(0, 2)); }", "E0405", "axis 2 is out of range"),
        ("fn f(x: f64[n, m]) -> f64[n, m] { return rot90(x, axes=(0, 1, 2)); }", "E0503", "a pair of integer literals"),
        ("fn f(x: f64[n]) -> f64[n] { return rot90(x); }", "E0503", "at least 2 dimensions"),
        ("fn f(x: f64[n, m], k: i64) -> f64[?, ?] { return rot90(x, k); }", "E0503", "must be integer literals"),
        ("fn f(x: f64[n]) -> f64[?] { return pad(x, 2, mode=\"median\"); }", "E0503", "`mode=` of `pad`"),
        ("fn f(x: f64[n]) -> f64[?] { return pad(x, 2, mode=\"edge\", constant_values=1.0); }", "E0502",
         "`constant_values` of `pad` with `mode=edge`"),
        ("fn f(x: f64[n]) -> f64[?, ?] { let (a, b) = meshgrid(x, x, indexing=\"ji\"); return a; }", "E0503",
         "`indexing=` must be"),
        ("fn f(x: f64[n]) -> f64[?] { return roll(x, shift=1.5); }", "E0", "shift"),
    ],
)
def test_checker_errors(src, code, words, tmp_path):
    assert_check_error(src, code, words, tmp_path)


@pytest.mark.parametrize(
    "src,args,message",
    [
        ("fn f(x: f64[n, m], y: f64[k, j]) -> f64[?, m] {\n    return concatenate((x, y));\n}",
         {"x": np.zeros((2, 3)), "y": np.zeros((2, 4))}, "along dimension 1 the array at index 1"),
        ("fn f(x: f64[n, m]) -> f64[m] {\n    return squeeze(x, axis=0);\n}",
         {"x": np.zeros((2, 3))}, "size not equal to one"),
        ("fn f(x: f64[n], w: i64) -> f64[?] {\n    return pad(x, (1, w));\n}",
         {"x": np.zeros(3), "w": -2}, "negative values"),
        ("fn f(x: f64[n], y: f64[m]) -> f64[2, n] {\n    return stack((x, y));\n}",
         {"x": np.zeros(3), "y": np.zeros(4)}, "must match"),
        ("fn f(x: f64[n], k: i64) -> f64[?] {\n    return tile(x, k);\n}",
         {"x": np.zeros(3), "k": -1}, "tile: negative dimensions are not allowed"),
        ("fn f(x: f64[n], k: i64) -> f64[?, ?] {\n    return tile(x, (k, 2));\n}",
         {"x": np.zeros(3), "k": -1}, "tile: negative dimensions are not allowed"),
        ("fn f(x: f64[n, m]) -> f64[?, ?] {\n    return pad(x, ((0, 0), (1, 1)), mode=\"reflect\");\n}",
         {"x": np.zeros((3, 0))}, "out of bounds"),
    ],
)
def test_run_time_errors_name_the_line(src, args, message, tmp_path):
    assert_run_time_error(src, args, message, tmp_path)


@pytest.mark.parametrize("target", TARGETS)
def test_meshgrid_matches_numpy(target, tmp_path):
    src = """fn main(x: f64[n], y: i64[m], z: bool[k]) -> (f64[m, n], i64[m, n], f64[m, n, k], i64[m, n, k], bool[m, n, k]) {
    let (xx, yy) = meshgrid(x, y);
    let (a, b, c) = meshgrid(x, y, z);
    return (xx, yy, a, b, c);
}
"""
    ins = {"x": np.arange(5.0) / 3, "y": np.arange(3) * 5 - 4, "z": np.array([True, False])}
    proc, got = run_source(src, ins, tmp_path, flags=["--target", target])
    assert proc.returncode == 0, proc.stderr
    want = list(np.meshgrid(ins["x"], ins["y"])) + list(np.meshgrid(ins["x"], ins["y"], ins["z"]))
    for g, w in zip(got, want):
        assert g.dtype == w.dtype
        np.testing.assert_array_equal(g, w)
    # NumPy's `indexing="ij"` (and the default spelled out, "xy").
    src = """fn main(x: f64[n], y: i64[m], z: bool[k]) -> (f64[n, m], i64[n, m], f64[n, m, k], bool[n, m, k], f64[m, n]) {
    let (xx, yy) = np.meshgrid(x, y, indexing="ij");
    let (a, b, c) = meshgrid(x, y, z, indexing="ij");
    let (p, q) = meshgrid(x, y, indexing="xy");
    return (xx, yy, a, c, p * 2.0 + q);
}
"""
    proc, got = run_source(src, ins, tmp_path, flags=["--target", target])
    assert proc.returncode == 0, proc.stderr
    ij2 = np.meshgrid(ins["x"], ins["y"], indexing="ij")
    ij3 = np.meshgrid(ins["x"], ins["y"], ins["z"], indexing="ij")
    p, q = np.meshgrid(ins["x"], ins["y"], indexing="xy")
    want = [ij2[0], ij2[1], ij3[0], ij3[2], p * 2.0 + q]
    for g, w in zip(got, want):
        assert g.dtype == w.dtype
        np.testing.assert_array_equal(g, w)


@pytest.mark.parametrize("target", TARGETS[:2])
@pytest.mark.parametrize("start,stop,num", [(0.5, 2.0, 7), (0, 1, 0), (3, 4, 1), (-1.0, 1e6, 1000), (2.0, -3.5, 33)])
def test_linspace_without_the_endpoint_matches_numpy(start, stop, num, target, tmp_path):
    src = f"fn main() -> (f64[{num}], f64[{num}]) {{\n" \
          f"    return (linspace({start}, {stop}, {num}, endpoint=false), linspace({start}, {stop}, {num}, endpoint=true));\n}}\n"
    proc, got = run_source(src, {}, tmp_path, flags=["--target", target])
    assert proc.returncode == 0, proc.stderr
    np.testing.assert_array_equal(got[0], np.linspace(start, stop, num, endpoint=False))
    np.testing.assert_array_equal(got[1], np.linspace(start, stop, num))


@pytest.mark.parametrize("target", TARGETS)
def test_cross_matches_numpy(target, tmp_path):
    """`cross` of 3-vectors (leading axes broadcast, a 1-d vector against rows, mixed dtypes, a
    fused consumer) and of 2-vectors (the `z` component: a scalar for two 1-d vectors)."""
    src = """fn main(a: f64[4, 3], b: f64[3], c: i64[2], d: f64[5, 2], e: f32[2], g: i32[4, 3]) -> (f64[4, 3], f64[3], f64, f64[5], f64[4, 3], f64[4, 3]) {
    return (cross(a, b), cross(b, a[1]), cross(e, c), cross(d, c), cross(a, a[::-1]) * 2.0, cross(g, a));
}
"""
    rng = np.random.default_rng(5)
    ins = {"a": rng.standard_normal((4, 3)), "b": rng.standard_normal(3), "c": np.array([2, -3]),
           "d": rng.standard_normal((5, 2)), "e": rng.standard_normal(2).astype(np.float32),
           "g": rng.integers(-9, 9, (4, 3)).astype(np.int32)}
    proc, res = run_source(src, ins, tmp_path, flags=("--target", target))
    assert proc.returncode == 0, proc.stderr
    a, b, c, d, e, g = (ins[k] for k in "abcdeg")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # NumPy 2 deprecates 2-vectors, still computes them
        want = [np.cross(a, b), np.cross(b, a[1]), np.cross(e, c), np.cross(d, c), np.cross(a, a[::-1]) * 2.0,
                np.cross(g, a)]
    for got, w in zip(res, want):
        assert got.shape == np.shape(w) and got.dtype == np.asarray(w).dtype, (got.dtype, np.asarray(w).dtype)
        np.testing.assert_allclose(got, w, rtol=1e-12, atol=1e-15)


@pytest.mark.parametrize("target", ["cpu", "gpu-emulated"])
def test_broadcast_to_matches_numpy(target, tmp_path):
    """`np.broadcast_to(x, shape)`: an array or a scalar, a tuple, an integer or `y.shape`, sizes
    known or not; a shape `x` does not broadcast to is E0401 (known sizes) or NumPy's error at run
    time."""
    src = """fn main(v: f64[8], x: f64[3, 4], n: i64, k: i32[4]) -> (f64[3, 8], f64[2, 3, 4], f64[3, 4], i64[5], f64[n, 8], i32[2, 4]) {
    return (np.broadcast_to(v, (3, 8)), np.broadcast_to(x, (2, 3, 4)), np.broadcast_to(x[0:1], x.shape),
            np.broadcast_to(7, 5), np.broadcast_to(v, (n, 8)) * 2.0, np.broadcast_to(k, (2, 4)));
}
"""
    v = np.arange(8.0) - 2.5
    x = np.arange(12.0).reshape(3, 4)
    k = np.arange(4, dtype=np.int32)
    proc, res = run_source(src, {"v": v, "x": x, "n": np.int64(2), "k": k}, tmp_path, flags=("--target", target))
    assert proc.returncode == 0, proc.stderr
    want = [np.broadcast_to(v, (3, 8)), np.broadcast_to(x, (2, 3, 4)), np.broadcast_to(x[0:1], x.shape),
            np.broadcast_to(7, 5), np.broadcast_to(v, (2, 8)) * 2.0, np.broadcast_to(k, (2, 4))]
    for got, w in zip(res, want):
        assert got.dtype == w.dtype and got.shape == w.shape
        np.testing.assert_array_equal(got, w)
    for body in ["return np.broadcast_to(v, 7);", "return np.broadcast_to(v, (2, 1, 9))[0, 0];"]:
        bad = check_source(f"fn main(v: f64[8]) -> f64[7] {{\n    {body}\n}}\n", tmp_path)
        assert bad.returncode == 1 and "E0401" in bad.stderr and "cannot broadcast" in bad.stderr, bad.stderr
    with pytest.raises(ValueError):
        np.broadcast_to(np.ones(8), (2, 7))
    proc, _ = run_source("fn main(v: f64[?], n: i64) -> f64[n, 7] {\n    return np.broadcast_to(v, (n, 7));\n}\n",
                         {"v": v, "n": np.int64(2)}, tmp_path / "late", flags=("--target", target))
    assert proc.returncode != 0 and ":2:" in proc.stderr, proc.stderr

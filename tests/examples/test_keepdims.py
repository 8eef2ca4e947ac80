"""NumPy spellings of issue 31 against NumPy (docs/language.md, "Builtin functions"): `keepdims=`
of the reductions (functions and methods; one axis, a tuple, every axis; `True` and `true`), used in
broadcasting expressions; `round(x, d)`, `around`, `x.round(d)`; `where(cond)` of one argument
(NumPy's `nonzero`); Python's `float(s)`, `int(s)`, `bool(s)` of scalars. On the CPU and the GPU
kernels (emulated, and the GPU where there is one). Then the checker's errors."""
import warnings

import numpy as np
import pytest

from arrayc_examples import TARGETS, assert_check_error, run_source

NAMES = {np.dtype(np.float64): "f64", np.dtype(np.float32): "f32", np.dtype(np.int64): "i64", np.dtype(np.bool_): "bool"}
NP = {"f64": np.float64, "i64": np.int64, "bool": np.bool_}

# (reduction, the dtypes it is tested on, whether it takes a tuple of axes)
REDUCTIONS = [
    ("sum", ("f64", "i64", "bool"), True),
    ("prod", ("f64", "i64"), True),
    ("max", ("f64", "i64", "bool"), True),
    ("min", ("f64", "i64", "bool"), True),
    ("mean", ("f64", "i64"), True),
    ("any", ("f64", "i64", "bool"), True),
    ("all", ("f64", "i64", "bool"), True),
    ("std", ("f64", "i64"), True),
    ("var", ("f64", "i64"), True),
    ("count_nonzero", ("f64", "i64", "bool"), True),
    ("nansum", ("f64",), True),
    ("nanmax", ("f64",), True),
    ("nanmin", ("f64",), True),
    ("nanmean", ("f64",), True),
    ("argmax", ("f64", "i64", "bool"), False),
    ("argmin", ("f64", "i64", "bool"), False),
    ("median", ("f64", "i64"), False),
]
SYMS = ["n", "m", "k"]


def np_call(f, x, axis, keepdims):
    fn = getattr(np, f)
    if f in ("argmax", "argmin", "count_nonzero") and axis is None and keepdims:
        return fn(x, axis=axis, keepdims=True) if f != "count_nonzero" else np.count_nonzero(x, axis=axis, keepdims=True)
    return fn(x, axis=axis, keepdims=keepdims)


def spellings(f, dt, tuples):
    """(arrayc expression, NumPy result function, rank) triples for reduction `f` on a `dt` array."""
    out = []
    for var, r in (("a", 2), ("c", 3)):
        axes = [0, 1, -1, None] + ([(0, -1)] if tuples else []) + ([(0, 1, 2)] if tuples and r == 3 else [])
        for i, ax in enumerate(axes):
            kw = "" if ax is None else f"axis={ax}, "
            kd = ["keepdims=True", "keepdims=true"][i % 2]
            spell = f"{f}({var}, {kw}{kd})" if (i + (f in ('count_nonzero', 'median', 'nansum', 'nanmax', 'nanmin', 'nanmean'))) % 2 == 0 or f in ("count_nonzero", "median") or f.startswith("nan") else f"{var}.{f}({kw}{kd})"
            if f in ("count_nonzero", "median") or f.startswith("nan"):
                spell = f"{f}({var}, {kw}{kd})"
            out.append((spell, (lambda ax=ax, var=var: (lambda ins: np_call(f, ins[var], ax, True))), r))
        # keepdims=False is the plain reduction
        out.append((f"{f}({var}, axis=0, keepdims=False)", (lambda var=var: (lambda ins: np_call(f, ins[var], 0, False))), r))
    return out


def result_type(want, syms):
    """The arrayc type of NumPy result `want` of an input of size symbols `syms` (no input size is 1):
    with keepdims, each axis is its symbol or 1; without (`axis=0`), the axes after the first."""
    if want.ndim == 0:
        return NAMES[want.dtype]
    dims = ["1" if d == 1 else s for d, s in zip(want.shape, syms)] if want.ndim == len(syms) else syms[1:]
    return f"{NAMES[want.dtype]}[{', '.join(dims)}]"


def inputs(dt, rng):
    a = rng.standard_normal((3, 4)) * 4
    c = rng.standard_normal((3, 4, 5)) * 4
    if dt == "f64":
        a[1, 2] = np.nan if False else a[1, 2]
        return {"a": a, "c": c}
    if dt == "i64":
        return {"a": np.round(a).astype(np.int64), "c": np.round(c).astype(np.int64)}
    return {"a": a > 0, "c": c > 0}


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("dt", ["f64", "i64", "bool"])
def test_keepdims_matches_numpy(dt, target, tmp_path):
    rng = np.random.default_rng(len(dt) + 7)
    ins = inputs(dt, rng)
    cases = [c for f, dts, tup in REDUCTIONS if dt in dts for c in spellings(f, dt, tup)]
    shapes = {2: ((3, 4), ["n", "m"]), 3: ((3, 4, 5), ["n", "m", "k"])}
    exprs, wants, types = [], [], []
    for e, f, r in cases:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            w = np.asarray(f()(ins))
        _, syms = shapes[r]
        exprs.append(e)
        wants.append(w)
        types.append(result_type(w, syms))
    src = (
        f"fn main(a: {dt}[n, m], c: {dt}[n, m, k]) -> ({', '.join(types)}) {{\n"
        f"    return ({', '.join(exprs)});\n}}\n"
    )
    proc, got = run_source(src, ins, tmp_path, flags=["--target", target])
    assert proc.returncode == 0, f"{src}\n{proc.stderr}"
    for g, w, e in zip(got, wants, exprs):
        assert g.shape == w.shape and g.dtype == w.dtype, f"{e}: {g.dtype}{g.shape}, NumPy {w.dtype}{w.shape}"
        np.testing.assert_allclose(g, w, rtol=1e-12, atol=0, err_msg=e)


@pytest.mark.parametrize("target", TARGETS)
def test_keepdims_broadcasts_as_numpy(target, tmp_path):
    src = """fn main(x: f64[n, m], c: f64[n, m, k]) -> (f64[n, m], f64[n, m], f64[n, m, k], f64[n, m], bool[n, m], f64[n, m]) {
    return (x - x.mean(axis=1, keepdims=True), (x - mean(x, axis=0, keepdims=true)) / x.std(axis=0, keepdims=True),
            c / sum(c, axis=(0, 2), keepdims=True), x - x.max(keepdims=True), x == max(x, axis=-1, keepdims=True),
            x * sum(x, axis=1, keepdims=False)[:, newaxis]);
}
"""
    rng = np.random.default_rng(3)
    x, c = rng.standard_normal((4, 6)), rng.standard_normal((4, 6, 3))
    proc, got = run_source(src, {"x": x, "c": c}, tmp_path, flags=["--target", target])
    assert proc.returncode == 0, proc.stderr
    want = [x - x.mean(axis=1, keepdims=True), (x - x.mean(axis=0, keepdims=True)) / x.std(axis=0, keepdims=True),
            c / c.sum(axis=(0, 2), keepdims=True), x - x.max(keepdims=True), x == x.max(axis=-1, keepdims=True),
            x * x.sum(axis=1)[:, None]]
    for i, (g, w) in enumerate(zip(got, want)):
        assert g.shape == w.shape and g.dtype == w.dtype, f"result {i}"
        np.testing.assert_allclose(g, w, rtol=1e-12, atol=1e-12, err_msg=f"result {i}")


@pytest.mark.parametrize("target", TARGETS)
def test_round_with_decimals_matches_numpy(target, tmp_path):
    src = """fn main(x: f64[n], y: f32[n], z: i64[n]) -> (f64[n], f64[n], f64[n], f64[n], f64[n], f32[n], f32[n], f32[n], i64[n], i64[n], f64[n], f64[n]) {
    return (round(x, -1), round(x, 0), around(x, 1), x.round(2), np.round(x, decimals=3),
            round(y, 1), y.round(2), np.around(y, -1), round(z, 2), z.round(0), x.round(decimals=1), around(x));
}
"""
    x = np.array([2.5, 0.125, -1.5, 15.0, -25.0, 2.675, 0.0, 1234.5678, -0.05, 3.5, 1e-3, -7.25])
    y = x.astype(np.float32)
    z = np.array([25, -15, 7, 0, 123, -5, 99, 100, 1, -1, 45, 55], dtype=np.int64)
    proc, got = run_source(src, {"x": x, "y": y, "z": z}, tmp_path, flags=["--target", target])
    assert proc.returncode == 0, proc.stderr
    want = [np.round(x, -1), np.round(x, 0), np.around(x, 1), x.round(2), np.round(x, decimals=3),
            np.round(y, 1), y.round(2), np.around(y, -1), np.round(z, 2), z.round(0), x.round(decimals=1), np.around(x)]
    for i, (g, w) in enumerate(zip(got, want)):
        assert g.dtype == w.dtype and g.shape == w.shape, f"result {i}: {g.dtype}, NumPy {w.dtype}"
        np.testing.assert_array_equal(g, w, err_msg=f"result {i}")


@pytest.mark.parametrize("target", TARGETS)
def test_where_of_one_argument_is_nonzero(target, tmp_path):
    src = """fn main(x: f64[n, m], v: i64[n]) -> (i64[?], i64[?], i64[?], i64[?], i64[?]) {
    let (i, j) = where(x > 0.5);
    let (k,) = np.where(v);
    return (i, j, k, where(x < 0.0)[1], where(v == 3)[0]);
}
"""
    rng = np.random.default_rng(5)
    x = rng.standard_normal((4, 5))
    v = np.array([0, 3, 0, 3], dtype=np.int64)
    proc, got = run_source(src, {"x": x, "v": v}, tmp_path, flags=["--target", target])
    assert proc.returncode == 0, proc.stderr
    i, j = np.where(x > 0.5)
    want = [i, j, np.where(v)[0], np.where(x < 0.0)[1], np.where(v == 3)[0]]
    for n, (g, w) in enumerate(zip(got, want)):
        np.testing.assert_array_equal(g, w, err_msg=f"result {n}")
        assert g.dtype == np.int64


@pytest.mark.parametrize("target", TARGETS)
def test_python_scalar_conversions(target, tmp_path):
    src = """fn main(x: f64[n], s: f64) -> (f64, i64, i64, i64, bool, bool, f64, i64, f64) {
    return (float(sum(x)), int(s), int(-s), int(x[1]), bool(sum(x) - sum(x)), bool(s), float(3), int(max(x)), float(len(x)) / 2.0);
}
"""
    x = np.array([1.5, -2.7, 4.25])
    for s in (2.7, -2.7, 0.5):
        proc, got = run_source(src, {"x": x}, tmp_path / str(s), flags=["--target", target, "--arg", f"s={s}"])
        assert proc.returncode == 0, proc.stderr
        want = [float(x.sum()), int(s), int(-s), int(x[1]), bool(x.sum() - x.sum()), bool(s), 3.0, int(x.max()), len(x) / 2]
        for i, (g, w) in enumerate(zip(got, want)):
            assert g.ndim == 0 and g.item() == w and type(g.item()) is type(w), f"result {i}: {g!r}, Python {w!r}"


@pytest.mark.parametrize(
    "body,code,words",
    [
        ("return sum(x, axis=0, keepdims=1);", "E0503", "`keepdims=` must be `true` or `false`"),
        ("return cumsum(x, axis=0, keepdims=true);", "E0502", "has no keyword argument `keepdims`"),
        ("return int(x);", "E0503", "astype(i64)"),
        ("return float(x);", "E0503", "astype(f64)"),
        ("return where(x > 0.0, x);", "E0501", "`where` takes 1 or 3 arguments but 2 were given"),
        ("return round(x, 1.5);", "E0503", "`round`'s decimals must be one integer literal"),
        ("return x[where(x > 0.0)];", "E0309", "tuple"),
    ],
)
def test_errors_name_the_place(body, code, words, tmp_path):
    assert_check_error(f"fn main(x: f64[n, m]) -> f64 {{\n    {body}\n}}\n", code, words, tmp_path)

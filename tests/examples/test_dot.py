"""`dot(a, b)` (NumPy `a @ b` for 1-d and 2-d operands) against NumPy: every combination of ranks,
the numeric dtypes and their promotion, empty inner axes, sizes that span several launch chunks,
every fusion algorithm; the run-time check of unaligned shapes (NumPy raises, broadcasting would
hide a size 1) and the checker's errors. Inputs are small multiples of 1/4, so every product sum
is exact and results equal NumPy's (BLAS) bit for bit whatever the order of summation."""
import numpy as np
import pytest

from arrayc_examples import TARGETS, check_source, run_source

DTYPES = {"f64": np.float64, "f32": np.float32, "i64": np.int64}


def values(dt, shape, rng):
    return (rng.integers(-8, 8, shape) / (1 if dt == "i64" else 4)).astype(DTYPES[dt])


def ty(dt, shape, syms):
    return f"{dt}[{', '.join(syms[:len(shape)])}]"


# (shape of a, shape of b)
SHAPES = [((5,), (5,)), ((0,), (0,)), ((3, 4), (4,)), ((4,), (4, 6)), ((3, 4), (4, 2)), ((1, 1), (1, 1)),
          ((70, 0), (0, 5)), ((300, 200), (200, 90)), ((2, 70_001), (70_001,)), ((70_001, 3), (3, 2)),
          # An n-d `a` with a 1-d `b`: the sum over `a`'s last axis (both of NumPy's products).
          ((6, 7, 3), (3,)), ((2, 3, 4, 5), (5,)), ((4, 0, 3), (3,)), ((3, 2, 0), (0,))]


@pytest.mark.parametrize("sa,sb", SHAPES)
@pytest.mark.parametrize("da,db", [("f64", "f64"), ("f32", "f32"), ("i64", "i64"), ("f32", "i64"), ("i64", "f64")])
def test_dot_matches_numpy(sa, sb, da, db, tmp_path):
    rng = np.random.default_rng(sum(sa) + 7 * sum(sb) + len(da + db))
    a, b = values(da, sa, rng), values(db, sb, rng)
    want = a @ b
    rd = {np.dtype(np.float64): "f64", np.dtype(np.float32): "f32", np.dtype(np.int64): "i64"}[want.dtype]
    rt = rd if want.ndim == 0 else f"{rd}[{', '.join(str(d) for d in want.shape)}]"
    src = f"fn main(a: {ty(da, sa, ['A0', 'A1', 'A2', 'A3'])}, b: {ty(db, sb, ['B0', 'B1'])}) -> {rt} {{\n    return dot(a, b);\n}}\n"
    proc, res = run_source(src, {"a": a, "b": b}, tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert res[0].dtype == want.dtype and res[0].shape == want.shape
    np.testing.assert_array_equal(res[0], want)


FUSED = """fn main(a: f64[N, K], b: f64[K, M], v: f64[M]) -> (f64[N], f64) {
    let c = dot(a * 2.0, b[:, ::-1]) + 1.0;
    let y = c @ v;
    return (y, y @ y);
}
"""


@pytest.mark.parametrize("algo", ["singleton", "greedy", "optimal"])
def test_fused_dots(algo, tmp_path):
    rng = np.random.default_rng(5)
    a, b, v = values("f64", (40, 30), rng), values("f64", (30, 20), rng), values("f64", (20,), rng)
    c = (a * 2.0) @ b[:, ::-1] + 1.0
    y = c @ v
    proc, res = run_source(FUSED, {"a": a, "b": b, "v": v}, tmp_path, flags=("--fuse", algo))
    assert proc.returncode == 0, proc.stderr
    np.testing.assert_array_equal(res[0], y)
    np.testing.assert_array_equal(res[1], y @ y)


def test_unaligned_shapes_are_an_error(tmp_path):
    """A size-1 inner axis must not broadcast: NumPy raises, so does arrayc, naming the line."""
    src = "fn main(a: f64[N, K], b: f64[L, M]) -> f64[N, M] {\n    return dot(a, b);\n}\n"
    with pytest.raises(ValueError):
        np.ones((2, 3)) @ np.ones((1, 4))
    proc, _ = run_source(src, {"a": np.ones((2, 3)), "b": np.ones((1, 4))}, tmp_path)
    assert proc.returncode == 1
    assert "prog.arr:2:5: error: dot: shapes not aligned: the last dimension of `a` has size 3, the first of `b` 1" \
        in proc.stderr


@pytest.mark.parametrize("body,code,hint", [
    ("let y = dot(x, x > 0.0);", "E0301", "bool"),
    ("let y = dot(x, 2.0);", "E0408", "needs arrays"),
    ("let y = x @ 2.0;", "E0408", "needs arrays"),
    ("let y = dot(x, zeros(2, 2, 2));", "E0403", "only 1-d and 2-d"),
    ("let y = dot(zeros(2, 2, 3), zeros(4));", "E0401", "not aligned"),
    ("let y = dot(zeros(3), zeros(4));", "E0401", "not aligned"),
])
def test_checker_errors(body, code, hint, tmp_path):
    """The checker's errors for `dot` and `@` (a program may define its own `dot`: test_shadowing.py)."""
    proc = check_source(f"fn main(x: f64[N]) {{ {body} }}\n", tmp_path)
    assert proc.returncode != 0
    assert code in proc.stderr and hint in proc.stderr, proc.stderr


@pytest.mark.parametrize("target", TARGETS)
def test_rgb_at_weights_is_numpys(target, tmp_path):
    """`rgb @ w` (an image's channels weighted: NumPy's matmul of an n-d and a 1-d array) and the
    same with `dot`, a method and a sliced view, against NumPy."""
    rng = np.random.default_rng(9)
    img = values("f64", (5, 7, 3), rng)
    w = np.array([0.25, 0.5, 0.25])
    src = """fn main(img: f64[h, w, c], wt: f64[c]) -> (f64[h, w], f64[h, w], f64[?, w]) {
    return (img @ wt, np.dot(img, wt), img[::2].dot(wt[::-1]));
}
"""
    proc, res = run_source(src, {"img": img, "wt": w}, tmp_path, flags=("--target", target))
    assert proc.returncode == 0, proc.stderr
    for got, want in zip(res, [img @ w, np.dot(img, w), img[::2].dot(w[::-1])]):
        assert got.shape == want.shape and got.dtype == want.dtype
        np.testing.assert_array_equal(got, want)

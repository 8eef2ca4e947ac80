"""Scans (`cumsum`, `cumprod`; 1-d whole array and `axis=k`) against NumPy: every dtype, ranks 1 to 3
and every axis (negative too), views (reversed, strided, transposed), empty arrays and empty axes,
sizes that span many launch chunks, fused producers and consumers under every fusion algorithm,
1 and 2 threads, and the emulated GPU mapping; float results must be bit-identical (a scan adds in
NumPy's order). And the checker's errors.
"""
import os

import numpy as np
import pytest

from arrayc_examples import ALGORITHMS, DTYPES, INTS, TARGETS, check_source, run_source, sum_dtype



def values(dt, shape, rng, prod=False):
    if dt == "bool":
        return rng.random(shape) < 0.5
    if dt in INTS:
        return rng.integers(-3 if prod else -1000, 4 if prod else 1000, shape).astype(DTYPES[dt])
    # cumprod: values near 1 keep products finite; any f64/f32 value is fine for bit equality.
    x = 1.0 + rng.standard_normal(shape) * 0.01 if prod else rng.standard_normal(shape) * 100
    return x.astype(DTYPES[dt])


def sym(shape):
    return ", ".join(f"N{a}" for a in range(len(shape)))


def result_type(dt, shape):
    rd = sum_dtype(dt)  # NumPy's upcast to its default integer
    return f"{rd}[{sym(shape)}]"


SHAPES = [(0,), (1,), (9,), (300_001,), (0, 4), (5, 4), (1, 9), (3, 4, 5), (2_000, 70), (70, 2_000)]


@pytest.mark.parametrize("fn", ["cumsum", "cumprod"])
@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_scans_match_numpy(fn, dt, shape, tmp_path):
    rng = np.random.default_rng(sum(shape) + len(dt) + len(fn))
    x = values(dt, shape, rng, prod=fn == "cumprod")
    r = len(shape)
    exprs = [f"{fn}(x)"] if r == 1 else []
    wants = [getattr(np, fn)(x)] if r == 1 else []
    for a in range(-r, r):
        exprs.append(f"{fn}(x, axis={a})")
        wants.append(getattr(np, fn)(x, axis=a))
    t = result_type(dt, shape)
    src = f"fn main(x: {dt}[{sym(shape)}]) -> ({', '.join([t] * len(exprs))}) {{\n    return ({', '.join(exprs)});\n}}\n"
    proc, res = run_source(src, {"x": x}, tmp_path)
    assert proc.returncode == 0, proc.stderr
    for e, got, want in zip(exprs, res, wants):
        assert got.dtype == want.dtype and got.shape == want.shape, e
        np.testing.assert_array_equal(got, want, err_msg=e)


VIEWS = """fn main(x: f64[N, 8]) -> (f64[N, 8], f64[8, N], f64[N], f64[4], f64[N, 8]) {
    let a = cumsum(x[::-1, :], axis=0);
    let b = cumprod(x.T * 0.001 + 1.0, axis=1);
    let c = cumsum(x[:, 3]);
    let d = cumsum(x[N - 1, ::-2] - x[0, ::2]);
    let e = x;
    e[1:, :] = cumsum(x[:-1, :], axis=1);        # a scan read by an overlapping write
    return (a, b, c, d, e);
}
"""


def test_scans_of_views(tmp_path):
    """Reversed, transposed, strided and 0-d-indexed views as scan inputs, and a scan whose result
    is written into its own input's base array."""
    x = np.random.default_rng(5).standard_normal((301, 8))
    proc, res = run_source(VIEWS, {"x": x}, tmp_path)
    assert proc.returncode == 0, proc.stderr
    e = x.copy()
    e[1:, :] = np.cumsum(x[:-1, :], axis=1)
    wants = [np.cumsum(x[::-1, :], axis=0), np.cumprod(x.T * 0.001 + 1.0, axis=1), np.cumsum(x[:, 3]),
             np.cumsum(x[-1, ::-2] - x[0, ::2]), e]
    for got, want in zip(res, wants):
        np.testing.assert_array_equal(got, want)


FUSED = """fn main(x: f64[N, M], y: f64[N, M]) -> (f64[N, M], f64[N], f64, f64[N, M]) {
    let c = cumsum(x * 2.0 - y, axis=1) / 3.0;
    let r = cumsum(abs(x[:, 0]));
    let s = sum(cumsum(y, axis=0));
    let p = cumprod(y * 0.001 + 1.0, axis=0) + cumsum(x, axis=0);
    return (c, r, s, p);
}
"""


def fused_reference(x, y):
    return [np.cumsum(x * 2.0 - y, axis=1) / 3.0, np.cumsum(np.abs(x[:, 0])), np.sum(np.cumsum(y, axis=0)),
            np.cumprod(y * 0.001 + 1.0, axis=0) + np.cumsum(x, axis=0)]


@pytest.mark.parametrize("algo", ALGORITHMS)
def test_fused_every_algorithm(algo, tmp_path):
    """Scans with elementwise producers and consumers, two scans along one axis and a reduction of a
    scan, under every fusion algorithm: equal to NumPy, bit for bit except the sum of a scan."""
    rng = np.random.default_rng(11)
    x, y = rng.standard_normal((700, 130)), rng.standard_normal((700, 130))
    proc, res = run_source(FUSED, {"x": x, "y": y}, tmp_path, flags=("--fuse", algo))
    assert proc.returncode == 0, proc.stderr
    want = fused_reference(x, y)
    for k in (0, 1, 3):
        np.testing.assert_array_equal(res[k], want[k])
    np.testing.assert_allclose(res[2], want[2], rtol=1e-12)


@pytest.mark.parametrize("threads", ["1", "2"])
@pytest.mark.parametrize("target", TARGETS)
def test_threads_and_emulated_gpu(threads, target, tmp_path):
    rng = np.random.default_rng(2)
    x, y = rng.standard_normal((333, 257)), rng.standard_normal((333, 257))
    env = dict(os.environ, RAYON_NUM_THREADS=threads, ARRAYC_GPU_EMULATION_GRID="2,3,32")
    proc, res = run_source(FUSED, {"x": x, "y": y}, tmp_path, flags=("--target", target), env=env)
    assert proc.returncode == 0, proc.stderr
    want = fused_reference(x, y)
    for k in (0, 1, 3):
        np.testing.assert_array_equal(res[k], want[k])


@pytest.mark.parametrize("src,code", [
    ("fn main() -> f64[3] { return cumsum(zeros(3), axis=1); }", "E0405"),
    ("fn main() -> f64 { return cumsum(2.0); }", "E0408"),
    ("fn main() -> f64[3] { return cumprod(zeros(3), zeros(3)); }", "E0501"),
])
def test_checker_errors(src, code, tmp_path):
    proc = check_source(src, tmp_path)
    assert proc.returncode != 0
    assert code in proc.stderr, proc.stderr


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("dt", ["f64", "f32"])
def test_cumsum_keeps_the_sign_of_zeros(dt, target, tmp_path):
    """A float `cumsum` starts from -0.0, the identity that keeps every element's sign, as NumPy's
    starts from the first element: `cumsum([-0.0, -0.0])` is `[-0.0, -0.0]`, a 0.0 then makes the
    sums 0.0. 1-d (one short and one longer than a launch chunk) and along both axes; the signs of
    the zeros must be NumPy's."""
    short = np.array([-0.0, -0.0, 0.0, -0.0, -1.0, 1.0, -0.0])
    long = np.full(300_001, -0.0)
    long[200_000] = 0.0
    m = np.full((4, 5), -0.0)
    m[2, 3] = 0.0
    xs = {"a": short.astype(DTYPES[dt]), "b": long.astype(DTYPES[dt]), "m": m.astype(DTYPES[dt])}
    src = (f"fn main(a: {dt}[N], b: {dt}[K], m: {dt}[R, C]) -> ({dt}[N], {dt}[K], {dt}[R, C], {dt}[R, C]) {{\n"
           "    return (cumsum(a), cumsum(b), cumsum(m, axis=0), cumsum(m, axis=1));\n}\n")
    env = dict(os.environ, ARRAYC_GPU_EMULATION_GRID="2,3,32")
    proc, res = run_source(src, xs, tmp_path, flags=("--target", target), env=env)
    assert proc.returncode == 0, proc.stderr
    wants = [np.cumsum(xs["a"]), np.cumsum(xs["b"]), np.cumsum(xs["m"], axis=0), np.cumsum(xs["m"], axis=1)]
    for k, (got, want) in enumerate(zip(res, wants)):
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(got, want)
        assert np.array_equal(np.signbit(got), np.signbit(want)), f"result {k}: signs of zeros differ"

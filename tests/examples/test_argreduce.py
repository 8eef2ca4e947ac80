"""Arg-reductions (`argmin`, `argmax`; whole array and `axis=k`) against NumPy: every dtype, ranks 1
to 3, ties (NumPy's first-occurrence rule), NaNs (the first NaN wins), sizes that span many launch
chunks, every fusion algorithm; and the errors: an empty extent (NumPy's ValueError, naming the
line) and the checker's axis and argument errors.
"""
import os

import numpy as np
import pytest

from arrayc_examples import ALGORITHMS, DTYPES, check_source, run_source



def values(dt, shape, rng):
    """Few distinct values, so that ties are common."""
    if dt == "bool":
        return rng.random(shape) < 0.3
    if dt == "i64":
        return rng.integers(-5, 5, shape, dtype=np.int64)
    return (rng.integers(-5, 5, shape) / 4).astype(DTYPES[dt])


def sym(shape):
    return ", ".join(f"N{a}" for a in range(len(shape)))


SHAPES = [(1,), (7,), (300_001,), (5, 4), (1, 9), (3, 4, 5), (2_000, 3)]


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("shape", SHAPES)
def test_arg_reductions_match_numpy(dt, shape, tmp_path):
    rng = np.random.default_rng(sum(shape) + len(dt))
    x = values(dt, shape, rng)
    r = len(shape)
    results, wants = [], []
    for fn in ["argmin", "argmax"]:
        results.append((f"{fn}(x)", "i64"))
        wants.append(getattr(np, fn)(x))
        for a in range(-r, r):
            rest = [f"N{k}" for k in range(r) if k != a % r]
            results.append((f"{fn}(x, axis={a})", f"i64[{', '.join(rest)}]" if rest else "i64"))
            wants.append(getattr(np, fn)(x, axis=a))
    src = (f"fn main(x: {dt}[{sym(shape)}]) -> ({', '.join(t for _, t in results)}) {{\n"
           f"    return ({', '.join(e for e, _ in results)});\n}}\n")
    proc, res = run_source(src, {"x": x}, tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert len(res) == len(wants)
    for (e, _), got, want in zip(results, res, wants):
        assert got.dtype == np.int64, e
        np.testing.assert_array_equal(got, want, err_msg=e)


def test_nans_win_first_occurrence(tmp_path):
    x = np.array([[3.0, np.nan, 1.0, np.nan], [2.0, 2.0, -1.0, 0.5], [np.nan, 9.0, -7.0, np.inf]])
    src = """fn main(x: f64[N, M]) -> (i64, i64, i64[M], i64[N], i64[M], i64[N]) {
    return (argmin(x), argmax(x), argmin(x, axis=0), argmin(x, axis=1), argmax(x, axis=0), argmax(x[:, ::-1], axis=1));
}
"""
    proc, res = run_source(src, {"x": x}, tmp_path)
    assert proc.returncode == 0, proc.stderr
    wants = [np.argmin(x), np.argmax(x), np.argmin(x, axis=0), np.argmin(x, axis=1), np.argmax(x, axis=0),
             np.argmax(x[:, ::-1], axis=1)]
    for got, want in zip(res, wants):
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("n", [9, 70_001])
def test_nan_first_middle_last_and_ties(n, tmp_path):
    """A NaN first, in the middle or last (the first NaN wins, even after an equal extreme value),
    ties of the extreme value (the first wins), -0.0 and 0.0 (equal: the first wins): over
    everything and along each axis, against NumPy."""
    rows = []
    for pos in (0, n // 2, n - 1):
        r = np.full(n, 1.0)
        r[n // 3] = -2.0
        r[n - 1 - n // 3] = -2.0
        r[pos] = np.nan
        rows.append(r)
    z = np.zeros(n)
    z[n // 2] = -0.0
    z[n // 4] = 0.0
    rows.append(z)
    rows.append(-z)
    x = np.stack(rows)
    src = """fn main(x: f64[N, M]) -> (i64, i64, i64[N], i64[N], i64[M], i64[M], i64, i64) {
    return (argmin(x), argmax(x), argmin(x, axis=1), argmax(x, axis=1), argmin(x, axis=0), argmax(x, axis=0),
            argmin(x[3:, :]), argmax(x[3:, :]));
}
"""
    proc, res = run_source(src, {"x": x}, tmp_path)
    assert proc.returncode == 0, proc.stderr
    wants = [np.argmin(x), np.argmax(x), np.argmin(x, axis=1), np.argmax(x, axis=1), np.argmin(x, axis=0),
             np.argmax(x, axis=0), np.argmin(x[3:]), np.argmax(x[3:])]
    for got, want in zip(res, wants):
        np.testing.assert_array_equal(got, want)


FUSED = """fn main(x: f64[N, M]) -> (i64[N], i64, f64) {
    let y = abs(x - 0.5) * 2.0;
    let k = argmax(y, axis=1);
    let j = argmin(x[::2, 1:]);
    return (k, j, y[argmin(y[0]), 0]);
}
"""


@pytest.mark.parametrize("algo", ALGORITHMS)
def test_fused_every_algorithm(algo, tmp_path):
    """Arg-reductions of computed arrays and of views, under every fusion algorithm."""
    rng = np.random.default_rng(3)
    x = rng.integers(-64, 64, (301, 70)) / 8.0
    proc, res = run_source(FUSED, {"x": x}, tmp_path, flags=("--fuse", algo))
    assert proc.returncode == 0, proc.stderr
    y = np.abs(x - 0.5) * 2.0
    wants = [np.argmax(y, axis=1), np.argmin(x[::2, 1:]), y[np.argmin(y[0]), 0]]
    for got, want in zip(res, wants):
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("expr,shape", [("argmin(x)", (0,)), ("argmax(x, axis=1)", (3, 0)),
                                        ("argmin(x, axis=0)", (0, 4))])
def test_empty_extent_is_an_error(expr, shape, tmp_path):
    fn = expr.split("(")[0]
    src = f"fn main(x: f64[{sym(shape)}]) -> i64 {{\n    let r = {expr};\n    return 0;\n}}\n"
    proc, _ = run_source(src, {"x": np.zeros(shape)}, tmp_path)
    assert proc.returncode != 0
    assert f"attempt to get {fn} of an empty sequence" in proc.stderr
    assert ":2:" in proc.stderr, proc.stderr


def test_argmin_along_an_empty_other_axis(tmp_path):
    """Only the reduced extent must be non-empty (NumPy: `argmin(zeros((0, 3)), axis=1)` is `[]`)."""
    src = "fn main(x: f64[N, M]) -> i64[N] {\n    return argmin(x, axis=1);\n}\n"
    proc, res = run_source(src, {"x": np.zeros((0, 3))}, tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert res[0].shape == (0,)


@pytest.mark.parametrize("src,code", [
    ("fn main() -> i64 { return argmin(zeros(3), axis=1); }", "E0405"),
    ("fn main() -> i64 { return argmax(2.0); }", "E0408"),
    ("fn main() -> i64 { return argmax(zeros(3), zeros(3)); }", "E0501"),
    ("fn main() -> i64 { return argmax(zeros(3), dtype=f64); }", "E0502"),
])
def test_checker_errors(src, code, tmp_path):
    proc = check_source(src, tmp_path)
    assert proc.returncode != 0
    assert code in proc.stderr, proc.stderr


def one_pass_inputs(n, rng):
    """Arrays of length `n` per dtype whose extremes, ties, NaNs and zeros sit at lane and chunk
    positions of the one-pass kernel (8 lanes, chunks of about 2^16 elements): `(name, array)`."""
    out = []
    f = rng.integers(-3, 4, n).astype(np.float64)
    for p in (n - 1, (n // 2 + 3) % n, 65_537 % n):
        f[p] = -9.0                                 # ties of the minimum: the first wins
    f[(n * 3) // 4] = 9.0
    out.append(("f64", f))
    g = f.copy()
    for p in sorted({n - 1, (n // 3 + 5) % n, 65_536 % n}, reverse=True):
        g[p] = np.nan                               # the first NaN wins
    out.append(("f64", g))
    z = np.full(n, 1.0)
    z[n // 2] = 0.0
    z[n // 5] = -0.0                                # -0.0 == 0.0: the first zero wins
    out.append(("f64", z))
    out.append(("f64", np.full(n, np.inf)))         # only the min's identity: position 0
    out.append(("f64", np.full(n, -np.inf)))
    out.append(("f32", g.astype(np.float32)))
    out.append(("f32", (-z).astype(np.float32)))
    i = rng.integers(-2**62, 2**62, n)
    i[n // 2] = np.iinfo(np.int64).min
    i[n - 1] = np.iinfo(np.int64).max
    out.append(("i64", i))
    out.append(("i64", np.full(n, np.iinfo(np.int64).max)))
    out.append(("i32", rng.integers(-3, 3, n).astype(np.int32)))
    u = rng.integers(0, 2**63, n, dtype=np.uint64) * np.uint64(2)
    u[n // 3] = np.uint64(2**64 - 1)                # above every signed i64: unsigned order
    out.append(("u64", u))
    out.append(("u8", rng.integers(0, 256, n).astype(np.uint8)))
    out.append(("bool", rng.random(n) < 0.999))
    return out


@pytest.mark.parametrize("target", ["cpu", "gpu-emulated"])
@pytest.mark.parametrize("n", [1, 7, 8, 9, 17, 131_075])
def test_one_pass_lanes_chunks_and_threads(n, target, tmp_path):
    """The one-pass arg-reductions (over everything and along the last axis: per-lane best values
    and positions, the lanes and the chunks combined in a fixed order) against NumPy, for lengths
    below, at and above the 8 lanes and across chunks, every dtype, NaNs, ties, signed zeros and
    arrays of the value reduction's identity; with 1 and 2 threads, bit for bit the same. Also in a
    kernel with other reductions of the same input (`min`, `sum`), and on `gpu-emulated`, where
    `expand-arg-reductions` composes them."""
    rng = np.random.default_rng(n)
    for k, (dt, x) in enumerate(one_pass_inputs(n, rng)):
        m = x[: (n // 3) * 3].reshape(3, -1) if n >= 3 else x.reshape(1, -1)
        src = (f"fn main(x: {dt}[N], m: {dt}[R, C]) -> (i64, i64, i64, i64[R], i64[R], {dt}) {{\n"
               f"    return (argmin(x), argmax(x), argmin(m), argmin(m, axis=1), argmax(m, axis=-1), min(x));\n}}\n")
        wants = [np.argmin(x), np.argmax(x), np.argmin(m), np.argmin(m, axis=1), np.argmax(m, axis=-1)]
        if dt not in ("f64", "f32"):
            wants.append(np.min(x))                 # (floats: IEEE's signed-zero rule, elsewhere)
        by_threads = []
        for threads in ("1", "2"):
            env = dict(os.environ, RAYON_NUM_THREADS=threads)
            proc, res = run_source(src, {"x": x, "m": m}, tmp_path / f"{k}-{threads}",
                                   flags=("--target", target), env=env)
            assert proc.returncode == 0, proc.stderr
            for got, want in zip(res, wants):
                np.testing.assert_array_equal(got, want, err_msg=f"{dt} case {k}, {threads} threads")
            by_threads.append(res)
        for one, two in zip(*by_threads):
            assert one.tobytes() == two.tobytes(), f"{dt} case {k}: 1 and 2 threads differ"

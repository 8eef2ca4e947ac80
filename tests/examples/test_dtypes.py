"""The integer dtypes beyond `i64` (issue 31: `i32`) against NumPy 2: promotion with every other
dtype and with weak literals (NEP 50, out-of-range literals refused as NumPy's OverflowError),
wrap-around, conversions, reductions (`sum` of `i32` upcast to `i64` as NumPy's default integer),
`.npy` files in both directions, printing, a `--lib` Python module and GPU PTX that ptxas accepts.
Every op on every dtype is in test_ops.py, the reductions along every axis in test_reductions.py.
"""
import subprocess

import numpy as np
import pytest

from arrayc_examples import RUN_TIMEOUT_S, arrayc_binary, check_source, run_source

NP = {"f64": np.float64, "f32": np.float32, "i64": np.int64, "i32": np.int32, "bool": np.bool_}
NAME = {v: k for k, v in NP.items()}
TARGETS = ["cpu", "gpu-emulated"]


def sample(dt, n, rng):
    """Values of `dt` that reach its extremes (integers) or mix signs and magnitudes (floats)."""
    if dt == "bool":
        return rng.random(n) < 0.5
    if dt in ("i64", "i32"):
        info = np.iinfo(NP[dt])
        v = rng.integers(info.min, info.max, n, endpoint=True, dtype=NP[dt])
        v[:4] = [info.min, info.max, -1, 0]
        return v
    return (rng.standard_normal(n) * 1000).astype(NP[dt])


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("other", list(NP))
def test_i32_promotes_with_every_dtype_like_numpy(other, target, tmp_path):
    """`i32 op other` and `other op i32` for `+ - * < ==` and `maximum`: the result dtype is
    `np.result_type`'s and the values NumPy's, integer overflow wrapping, kernel and host path."""
    rng = np.random.default_rng(7)
    a, b = sample("i32", 64, rng), sample(other, 64, rng)
    ops = [("+", np.add), ("-", np.subtract), ("*", np.multiply), ("<", np.less), ("==", np.equal)]
    cases = []
    for sym, fn in ops:
        cases += [(f"a {sym} b", f"a[i] {sym} b[i]", lambda fn=fn: fn(a, b)),
                  (f"b {sym} a", f"b[i] {sym} a[i]", lambda fn=fn: fn(b, a))]
    cases.append(("maximum(a, b)", "maximum(a[i], b[i])", lambda: np.maximum(a, b)))
    wants = []
    for _, _, f in cases:
        with np.errstate(all="ignore"):
            w = f()
        if other == "bool" and w.dtype == np.bool_ and cases[len(wants)][0][2] in "+-*":
            w = w.astype(np.int64)
        wants.append(w)
    lines, rets, types = [], [], []
    for k, ((kern, host, _), w) in enumerate(zip(cases, wants)):
        t = NAME[w.dtype.type]
        lines += [f"    let k{k} = {kern};", f"    let h{k} = zeros(N, dtype={t});",
                  f"    for i in 0..N {{ h{k}[i] = {host}; }}"]
        rets += [f"k{k}", f"h{k}"]
        types += [f"{t}[N]"] * 2
    src = f"fn main(a: i32[N], b: {other}[N]) -> ({', '.join(types)}) {{\n" + "\n".join(lines) + \
        f"\n    return ({', '.join(rets)});\n}}\n"
    proc, res = run_source(src, {"a": a, "b": b}, tmp_path, flags=("--target", target))
    assert proc.returncode == 0, src + proc.stderr
    for k, ((kern, _, _), w) in enumerate(zip(cases, wants)):
        for path, got in (("kernel", res[2 * k]), ("host", res[2 * k + 1])):
            assert got.dtype == w.dtype, f"{kern} ({path}): {got.dtype}, NumPy {w.dtype}"
            np.testing.assert_array_equal(got, w, err_msg=f"{kern} on i32, {other} ({path} path)")


@pytest.mark.parametrize("target", TARGETS)
def test_i32_weak_literals_wrap_reduce_and_convert_like_numpy(target, tmp_path):
    """Literals take `i32` (NEP 50), arithmetic wraps, `//` and `%` by zero give 0, shifts past 31
    give 0 or the sign; `sum`/`prod`/`cumsum` give `i64`, `min`/`max` keep `i32`, `mean` gives
    `f64`; conversions from `i64` wrap and from floats truncate; float functions give `f64`."""
    rng = np.random.default_rng(3)
    a = sample("i32", 1000, rng)
    b = rng.integers(-40, 40, 1000).astype(np.int32)
    c = sample("i64", 1000, rng)
    f = (rng.standard_normal(1000) * 1e6).astype(np.float32)
    src = """fn main(a: i32[N], b: i32[N], c: i64[N], f: f32[N]) -> (i32[N], i32[N], i32[N], i32[N], i32[N], i32[N], i32[N], i64, i64, i32, i32, f64, i64[N], f64[N], i32[N], i32[N], i32[N], f64[N], f64[N], i32[N], i32, i64[N]) {
    let s = 0;
    for i in 0..N { s = s + 1; }
    return (a * 3 + 2147483647, a - -2147483648, a // b, a % b, a << b, a >> b, ~a & 255 | 7 ^ a,
            sum(a), prod(b), max(a), min(a), mean(a), cumsum(a), sqrt(a), i32(c), i32(f), abs(a),
            a / b, a + 0.5, -a, i32(s) + 2147483647, sum(a, axis=0) + cumsum(b));
}
"""
    proc, res = run_source(src, {"a": a, "b": b, "c": c, "f": f}, tmp_path, flags=("--target", target))
    assert proc.returncode == 0, proc.stderr
    with np.errstate(all="ignore"):
        want = [a * np.int32(3) + np.int32(2147483647), a - np.int32(-2147483648), a // b, a % b, a << b, a >> b,
                ~a & 255 | 7 ^ a, np.sum(a), np.prod(b), np.max(a), np.min(a), np.mean(a), np.cumsum(a), np.sqrt(a),
                c.astype(np.int32), f.astype(np.int32), np.abs(a), a / b, a + 0.5, -a,
                np.int32(1000) + np.int32(2147483647), np.sum(a, axis=0) + np.cumsum(b)]
    assert len(res) == len(want)
    for k, (got, w) in enumerate(zip(res, want)):
        w = np.asarray(w)
        assert got.dtype == w.dtype, f"result {k}: {got.dtype}, NumPy {w.dtype}"
        if w.dtype.kind == "f":
            np.testing.assert_allclose(got, w, rtol=1e-15, err_msg=f"result {k}")
        else:
            np.testing.assert_array_equal(got, w, err_msg=f"result {k}")


@pytest.mark.parametrize("expr", ["x + 3000000000", "x * -2147483649", "2147483648 - x", "maximum(x, 3000000000)",
                                  "where(x > 0, x, -2147483649)", "clip(x, 0, 2147483648)", "fmod(x, 2147483648)",
                                  "y += 2147483648"])
def test_an_i32_literal_out_of_range_is_numpys_overflow_error(expr, tmp_path):
    """NumPy 2 raises OverflowError for a Python int outside int32's range beside an int32 array
    (an operator, a ufunc, `where`, `clip`, an in-place operator); arrayc refuses it at compile time
    (E0315), naming the line and a fix, without a panic."""
    env = {"x": np.zeros(2, np.int32), "y": np.zeros(2, np.int32), "maximum": np.maximum, "where": np.where,
           "clip": np.clip, "fmod": np.fmod}
    if expr.startswith(("where", "clip")):
        # NumPy does not raise there (`where` wraps the literal, `clip` compares exactly); arrayc
        # refuses the literal all the same rather than wrap it.
        exec(expr, env)
    else:
        with pytest.raises(OverflowError):
            exec(expr, env)
    body = f"let y = copy(x);\n    {expr};\n    return y;" if "+=" in expr else f"return {expr};"
    proc = check_source(f"fn main(x: i32[N]) -> i32[N] {{\n    {body}\n}}\n", tmp_path)
    assert proc.returncode == 1 and "panicked" not in proc.stderr, proc.stderr
    line = 3 if "+=" in expr else 2
    assert "E0315" in proc.stderr and f"e.arr:{line}:" in proc.stderr and "i64(x)" in proc.stderr, proc.stderr
    ok = check_source("fn main(x: i32[N]) -> i32[N] {\n    return x * -2147483648 + 2147483647;\n}\n", tmp_path)
    assert ok.returncode == 0, ok.stderr


def test_i32_npy_files_round_trip_with_numpy(tmp_path):
    """A `<i4` file NumPy wrote is read as `i32`, and the `.npy` files arrayc writes (`--out`, of
    contiguous, transposed, strided and reversed views) load in NumPy as int32, equal."""
    x = np.arange(-6, 6, dtype=np.int32).reshape(3, 4) * 178956970
    np.save(tmp_path / "x.npy", x)
    src = """fn main(x: i32[M, N]) -> (i32[M, N], i32[N, M], i32[M], i32[M, 2]) {
    return (x, x.T, x[:, 1], x[::-1, ::2]);
}
"""
    (tmp_path / "prog.arr").write_text(src)
    proc = subprocess.run([str(arrayc_binary()), "run", str(tmp_path / "prog.arr"), "--out", str(tmp_path / "out"),
                           "--arg", f"x=@{tmp_path / 'x.npy'}"], capture_output=True, text=True,
                          timeout=RUN_TIMEOUT_S, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    for k, want in enumerate([x, x.T, x[:, 1], x[::-1, ::2]]):
        got = np.load(tmp_path / "out" / f"result_{k}.npy")
        assert got.dtype == np.int32 and got.dtype.str == "<i4"
        np.testing.assert_array_equal(got, want)
    # The wrong dtype is a clean error naming the conversion.
    np.save(tmp_path / "y.npy", x.astype(np.int64))
    bad = subprocess.run([str(arrayc_binary()), "run", str(tmp_path / "prog.arr"), "--arg", f"x=@{tmp_path / 'y.npy'}"],
                         capture_output=True, text=True, timeout=RUN_TIMEOUT_S, cwd=tmp_path)
    assert bad.returncode != 0 and "astype(numpy.int32)" in bad.stderr and "panicked" not in bad.stderr, bad.stderr


def test_i32_prints_like_numpy(tmp_path):
    """`print` of an `i32` array and scalar: NumPy's `str`."""
    x = np.array([[-2147483648, 7], [2147483647, 0]], dtype=np.int32)
    src = "fn main(x: i32[M, N]) {\n    print(x);\n    print(x[0, 0]);\n}\n"
    proc, _ = run_source(src, {"x": x}, tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == f"{x}\n{x[0, 0]}\n"


def test_i32_scalar_arguments_and_defaults(tmp_path):
    """`--arg k=...` of an `i32` parameter and an `i32` default: NumPy's int32 arithmetic."""
    src = "fn main(x: i32[N], k: i32, d: i32 = -5) -> i32[N] {\n    return x * k + d;\n}\n"
    x = np.array([1, -2, 2**30], dtype=np.int32)
    proc, res = run_source(src, {"x": x}, tmp_path, flags=("--arg", "k=4"))
    assert proc.returncode == 0, proc.stderr
    assert res[0].dtype == np.int32
    np.testing.assert_array_equal(res[0], x * np.int32(4) + np.int32(-5))
    bad = check_source("fn main(x: i32[N], d: i32 = 2147483648) -> i32[N] {\n    return x + d;\n}\n", tmp_path)
    assert bad.returncode == 1 and "E0315" in bad.stderr, bad.stderr


def test_i32_python_module(tmp_path):
    """`arrayc build --lib`: the Python module takes and gives int32 arrays and scalars; an int64
    array is a TypeError naming the conversion."""
    from test_lib import build_lib

    (tmp_path / "ints.arr").write_text(
        "fn f(x: i32[N], k: i32) -> (i32[N], i64, i32) {\n    return (x * k + 1, sum(x), max(x));\n}\n")
    m = build_lib(tmp_path / "ints.arr", "ints", tmp_path)
    x = np.array([5, -7, 2**31 - 1], dtype=np.int32)
    y, s, mx = m.f(x[::-1], 3)
    assert y.dtype == np.int32 and s.dtype == np.int64 and mx.dtype == np.int32
    np.testing.assert_array_equal(y, x[::-1] * np.int32(3) + np.int32(1))
    assert s == np.sum(x) and mx == np.max(x)
    with pytest.raises(TypeError, match="int32"):
        m.f(x.astype(np.int64), 3)


def test_i32_kernel_compiles_to_ptx_that_ptxas_accepts(tmp_path):
    """The GPU path of `i32` kernels (elementwise with wrap-around, division, shifts, a reduction
    upcast to `i64`, min/max through 32-bit shuffles): PTX that NVIDIA's ptxas accepts for sm_90."""
    from test_gpu import emit_ptx

    prog = tmp_path / "ints.arr"
    prog.write_text("""fn main(a: i32[N], b: i32[N]) -> (i32[N], i64, i32, f64) {
    return ((a * 3 + 1) // b % 7 << 2 >> b, sum(a), max(a - b), mean(a));
}
""")
    nvcc, ptx = emit_ptx(prog, tmp_path)
    proc = subprocess.run([str(nvcc / "bin" / "ptxas"), "-arch=sm_90", str(ptx), "-o", str(tmp_path / "k.cubin")],
                          capture_output=True, text=True)
    assert proc.returncode == 0, f"ptxas rejected the PTX:\n{proc.stderr}"


def test_i32_executable(tmp_path):
    """`arrayc build` of a program with `i32` parameters and results: the executable reads a `<i4`
    file and an `i32` scalar argument and writes NumPy's int32 results."""
    (tmp_path / "ints.arr").write_text(
        "fn main(x: i32[N], k: i32) -> (i32[N], i64) {\n    return (x * k - 1, sum(x));\n}\n")
    exe = tmp_path / "ints"
    proc = subprocess.run([str(arrayc_binary()), "build", str(tmp_path / "ints.arr"), "-o", str(exe)],
                          capture_output=True, text=True, timeout=RUN_TIMEOUT_S)
    assert proc.returncode == 0, proc.stderr
    x = np.array([3, -4, 2**31 - 1, -(2**31)], dtype=np.int32)
    np.save(tmp_path / "x.npy", x)
    run = subprocess.run([str(exe), "--arg", f"x=@{tmp_path / 'x.npy'}", "--arg", "k=7", "--out", str(tmp_path / "out")],
                         capture_output=True, text=True, timeout=RUN_TIMEOUT_S)
    assert run.returncode == 0, run.stderr
    y, s = np.load(tmp_path / "out" / "result_0.npy"), np.load(tmp_path / "out" / "result_1.npy")
    assert y.dtype == np.int32 and s.dtype == np.int64
    np.testing.assert_array_equal(y, x * np.int32(7) - np.int32(1))
    assert s == np.sum(x)


@pytest.mark.parametrize("target", TARGETS)
def test_i32_scalars_index_slice_size_and_bound_loops(target, tmp_path):
    """An `i32` scalar is an index (negative too), a slice bound, a size, a `range` bound and an
    argument of `arange` (`int64`, as NumPy's) and `linspace`, as NumPy takes any integer there; an
    `i32` index array gathers and scatters as NumPy's (negative indices too)."""
    src = """fn main(x: f64[N], k: i32, j: i32) -> (f64, f64, f64[?], f64[?], i64, i64[?], f64[?]) {
    let s = 0;
    for i in range(j, k) { s = s + i; }
    return (x[k], x[-k], x[j:k], zeros(k), s, arange(j, k), linspace(j, k, 5));
}
"""
    x = np.arange(10.0) * 1.5
    proc, res = run_source(src, {"x": x}, tmp_path, flags=("--arg", "k=4", "--arg", "j=1", "--target", target))
    assert proc.returncode == 0, proc.stderr
    j, k = np.int32(1), np.int32(4)
    want = [x[4], x[-4], x[1:4], np.zeros(4), sum(range(1, 4)), np.arange(j, k), np.linspace(j, k, 5)]
    for got, w in zip(res, want):
        assert got.dtype == np.asarray(w).dtype
        np.testing.assert_array_equal(got, w)
    src = """fn main(x: f64[N], m: f64[R, C], idx: i32[M]) -> (f64[M], f64[N], f64[R, C], f64[M]) {
    let y = x[idx] * 2.0;
    x[idx] = -1.0;
    m[idx % 4, 1:3] = 7.0;
    return (y, x, m, m[idx % 4, idx % 5]);
}
"""
    idx = np.array([1, -5, 3, 9], dtype=np.int32)
    m = np.arange(20.0).reshape(4, 5)
    proc, res = run_source(src, {"x": x.copy(), "m": m.copy(), "idx": idx}, tmp_path / "gather",
                           flags=("--target", target))
    assert proc.returncode == 0, proc.stderr
    y = x[idx] * 2.0
    x[idx] = -1.0
    m[idx % 4, 1:3] = 7.0
    for got, w in zip(res, [y, x, m, m[idx % 4, idx % 5]]):
        assert got.dtype == w.dtype
        np.testing.assert_array_equal(got, w)

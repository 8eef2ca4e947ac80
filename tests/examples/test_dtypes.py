"""The integer dtypes beyond `i64` (issue 31: `i32`, `u8`, `u64`) against NumPy 2: promotion with every other
dtype and with weak literals (NEP 50, out-of-range literals refused as NumPy's OverflowError),
wrap-around, conversions, reductions (`sum` of `i32` upcast to `i64` as NumPy's default integer),
`.npy` files in both directions, printing, a `--lib` Python module and GPU PTX that ptxas accepts.
Every op on every dtype is in test_ops.py, the reductions along every axis in test_reductions.py.
"""
import subprocess

import numpy as np
import pytest

from arrayc_examples import DTYPES, INTS, RUN_TIMEOUT_S, arrayc_binary, check_source, run_source

NP = DTYPES
NAME = {v: k for k, v in NP.items()}
TARGETS = ["cpu", "gpu-emulated"]


def sample(dt, n, rng):
    """Values of `dt` that reach its extremes (integers) or mix signs and magnitudes (floats)."""
    if dt == "bool":
        return rng.random(n) < 0.5
    if dt in INTS:
        info = np.iinfo(NP[dt])
        v = rng.integers(info.min, info.max, n, endpoint=True, dtype=NP[dt])
        v[:4] = [info.min, info.max, info.max // 2 + 1, 0] if info.min == 0 else [info.min, info.max, -1, 0]
        return v
    return (rng.standard_normal(n) * 1000).astype(NP[dt])


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("other", list(NP))
@pytest.mark.parametrize("dt", ["i32", "i16", "i8", "u64", "u32", "u16", "u8"])
def test_int_promotes_with_every_dtype_like_numpy(dt, other, target, tmp_path):
    """`a op other` and `other op a` for `a` of every integer dtype but `i64` and `+ - * < ==` and
    `maximum`: the result dtype is `np.result_type`'s (`u64` with `i64` is `f64`, and so is their
    comparison; `u8` with `i8` is `i16`, `u32` with `i32` `i64`) and the values NumPy's, integer
    overflow wrapping, kernel and host path."""
    rng = np.random.default_rng(7)
    a, b = sample(dt, 64, rng), sample(other, 64, rng)
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
    src = f"fn main(a: {dt}[N], b: {other}[N]) -> ({', '.join(types)}) {{\n" + "\n".join(lines) + \
        f"\n    return ({', '.join(rets)});\n}}\n"
    proc, res = run_source(src, {"a": a, "b": b}, tmp_path, flags=("--target", target))
    assert proc.returncode == 0, src + proc.stderr
    for k, ((kern, _, _), w) in enumerate(zip(cases, wants)):
        for path, got in (("kernel", res[2 * k]), ("host", res[2 * k + 1])):
            assert got.dtype == w.dtype, f"{kern} ({path}): {got.dtype}, NumPy {w.dtype}"
            np.testing.assert_array_equal(got, w, err_msg=f"{kern} on {dt}, {other} ({path} path)")


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


@pytest.mark.parametrize("target", TARGETS)
def test_unsigned_wrap_divide_shift_reduce_and_convert_like_numpy(target, tmp_path):
    """`u8` and `u64` (issue 31): literals take the array's dtype, arithmetic and negation wrap,
    `//` and `%` are unsigned (by zero 0, as NumPy's, which also warns), shifts are logical (past
    the width 0), comparisons unsigned; `sum`/`prod`/`cumsum` give `u64`, `min`/`max` keep the
    dtype, `mean` gives `f64`; conversions from signed integers wrap and from floats are NumPy's
    on x86-64 (-1.0 to 255 and 2^64 - 1, NaN to 0 and 2^63, 2^64 to 0)."""
    rng = np.random.default_rng(5)
    a, b = sample("u8", 1000, rng), rng.integers(0, 12, 1000).astype(np.uint8)
    c, d = sample("u64", 1000, rng), rng.integers(0, 70, 1000).astype(np.uint64)
    b[:3] = 0
    d[:3] = 0
    i = sample("i64", 1000, rng)
    f = np.concatenate([[-1.0, 300.0, 2.0**63, 2.0**64, 1e30, np.nan, -np.inf, -0.5, 255.9, -3e19, 1.8e19],
                        rng.standard_normal(989) * 1e6])
    src = """fn main(a: u8[N], b: u8[N], c: u64[N], d: u64[N], i: i64[N], f: f64[N]) -> (u8[N], u8[N], u8[N], u8[N], u8[N], u8[N], bool[N], u8[N], u64[N], u64[N], u64[N], u64[N], u64[N], bool[N], u64, u64, u8, u8, f64, u64[N], u64, u64, u64, u8[N], u64[N], u8[N], u64[N], f64[N], u8[N], u64[N], u8, u64) {
    let s = u8(250);
    let t = u64(0);
    for k in 0..N { s = s + u8(1); t = t - u64(1); }
    return (a * 3 + 200, a // b, a % b, a << b, a >> b, -a, a > 127,
            ~a & 240 | 7 ^ a, c * 3 + 1, c // d, c % d, c >> d, c << d, c < d,
            sum(a), prod(b), max(a), min(a), mean(a), cumsum(a), sum(c), max(c), min(c),
            u8(i), u64(i), u8(f), u64(f), f64(c), abs(a), a ** b + c, s, t);
}
"""
    proc, res = run_source(src, {"a": a, "b": b, "c": c, "d": d, "i": i, "f": f}, tmp_path,
                           flags=("--target", target))
    assert proc.returncode == 0, proc.stderr
    with np.errstate(all="ignore"):
        want = [a * np.uint8(3) + np.uint8(200), a // b, a % b, a << b, a >> b, -a, a > 127,
                ~a & 240 | 7 ^ a, c * np.uint64(3) + np.uint64(1), c // d, c % d, c >> d, c << d, c < d,
                np.sum(a), np.prod(b), np.max(a), np.min(a), np.mean(a), np.cumsum(a), np.sum(c), np.max(c),
                np.min(c), i.astype(np.uint8), i.astype(np.uint64), f.astype(np.uint8), f.astype(np.uint64),
                c.astype(np.float64), np.abs(a), a ** b + c, np.uint8((250 + 1000) % 256), np.uint64(2**64 - 1000)]
    assert len(res) == len(want)
    for k, (got, w) in enumerate(zip(res, want)):
        w = np.asarray(w)
        assert got.dtype == w.dtype, f"result {k}: {got.dtype}, NumPy {w.dtype}"
        if w.dtype.kind == "f":
            np.testing.assert_allclose(got, w, rtol=1e-15, err_msg=f"result {k}")
        else:
            np.testing.assert_array_equal(got, w, err_msg=f"result {k}")


@pytest.mark.parametrize("dt,expr", [("u8", "x + 256"), ("u8", "x - -1"), ("u8", "maximum(x, 300)"),
                                     ("u64", "x + -1"), ("u64", "x * 18446744073709551616"), ("i8", "x + 200"),
                                     ("i8", "x - 129"), ("i16", "x * 40000"), ("u16", "x + 65536"), ("u32", "x - -1"),
                                     ("u32", "x + 4294967296")])
def test_an_unsigned_literal_out_of_range_is_numpys_overflow_error(dt, expr, tmp_path):
    """NumPy 2 raises OverflowError for a Python int outside an unsigned dtype's range beside such
    an array (a negative one too), or outside `int8`'s or `int16`'s; arrayc refuses it at compile
    time (E0315)."""
    env = {"x": np.zeros(2, NP[dt]), "maximum": np.maximum}
    with pytest.raises(OverflowError):
        exec(expr, env)
    if "18446744073709551616" in expr:
        return  # beyond i64: the lexer's own error (E0102-style), not a dtype question
    proc = check_source(f"fn main(x: {dt}[N]) -> {dt}[N] {{\n    return {expr};\n}}\n", tmp_path)
    assert proc.returncode == 1 and "panicked" not in proc.stderr, proc.stderr
    assert "E0315" in proc.stderr and "e.arr:2:" in proc.stderr, proc.stderr


@pytest.mark.parametrize("dt", ["u8", "u64", "i16", "i8", "u32", "u16"])
def test_unsigned_npy_files_round_trip_with_numpy(dt, tmp_path):
    """A `|u1`/`<u8`/`<i2`/`|i1`/`<u4`/`<u2` file NumPy wrote is read as `u8`/`u64`/`i16`/`i8`/
    `u32`/`u16`, and the files arrayc writes (of contiguous, transposed and strided views) load in
    NumPy with the same dtype, equal."""
    info = np.iinfo(NP[dt])
    x = (np.arange(12, dtype=np.uint64) * np.uint64(int(info.max) // 11)).astype(NP[dt]).reshape(3, 4)
    x[0, 0] = info.max
    np.save(tmp_path / "x.npy", x)
    (tmp_path / "prog.arr").write_text(
        f"fn main(x: {dt}[M, N]) -> ({dt}[M, N], {dt}[N, M], {dt}[M, 2]) {{\n    return (x, x.T, x[::-1, ::2]);\n}}\n")
    proc = subprocess.run([str(arrayc_binary()), "run", str(tmp_path / "prog.arr"), "--out", str(tmp_path / "out"),
                           "--arg", f"x=@{tmp_path / 'x.npy'}"], capture_output=True, text=True,
                          timeout=RUN_TIMEOUT_S, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    for k, want in enumerate([x, x.T, x[::-1, ::2]]):
        got = np.load(tmp_path / "out" / f"result_{k}.npy")
        assert got.dtype == NP[dt] and got.dtype.str == np.dtype(NP[dt]).str
        np.testing.assert_array_equal(got, want)
    np.save(tmp_path / "y.npy", x.astype(np.int64))
    bad = subprocess.run([str(arrayc_binary()), "run", str(tmp_path / "prog.arr"), "--arg", f"x=@{tmp_path / 'y.npy'}"],
                         capture_output=True, text=True, timeout=RUN_TIMEOUT_S, cwd=tmp_path)
    name = np.dtype(NP[dt]).name
    assert bad.returncode != 0 and f"astype(numpy.{name})" in bad.stderr and "panicked" not in bad.stderr, bad.stderr


def test_unsigned_prints_and_takes_arguments_like_numpy(tmp_path):
    """`print` of `u8`/`u64` arrays and scalars is NumPy's `str` (2^64 - 1 whole); `--arg` of
    unsigned scalars, a default, and an out-of-range default (E0315)."""
    x = np.array([[0, 255], [7, 128]], dtype=np.uint8)
    y = np.array([2**64 - 1, 3], dtype=np.uint64)
    src = "fn main(x: u8[M, N], y: u64[K], k: u64, j: u8 = 200) -> u64[K] {\n    print(x);\n    print(y);\n" \
          "    print(y[0]);\n    print(x[0, 1] + j);\n    return y * k + j;\n}\n"
    proc, res = run_source(src, {"x": x, "y": y}, tmp_path, flags=("--arg", "k=18446744073709551615"))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith(f"{x}\n{y}\n{y[0]}\n{(int(x[0, 1]) + 200) % 256}\n"), proc.stdout
    assert res[0].dtype == np.uint64
    np.testing.assert_array_equal(res[0], y * np.uint64(2**64 - 1) + np.uint64(200))
    bad = check_source("fn main(x: u8[N], d: u8 = 256) -> u8[N] {\n    return x + d;\n}\n", tmp_path)
    assert bad.returncode == 1 and "E0315" in bad.stderr, bad.stderr


def test_unsigned_python_module(tmp_path):
    """`arrayc build --lib`: the Python module takes and gives uint8/uint64 arrays and scalars
    (dtype codes 5 and 6); an int64 array is a TypeError naming the conversion."""
    from test_lib import build_lib

    (tmp_path / "uints.arr").write_text(
        "fn f(x: u8[N], k: u64) -> (u8[N], u64, u8, u64) {\n    return (x * 3 + 1, sum(x), max(x), k + 1);\n}\n")
    m = build_lib(tmp_path / "uints.arr", "uints", tmp_path)
    x = np.array([5, 200, 255], dtype=np.uint8)
    y, s, mx, k = m.f(x[::-1], 2**64 - 2)
    assert y.dtype == np.uint8 and s.dtype == np.uint64 and mx.dtype == np.uint8 and k.dtype == np.uint64
    np.testing.assert_array_equal(y, x[::-1] * np.uint8(3) + np.uint8(1))
    assert s == np.sum(x) and mx == np.max(x) and k == 2**64 - 1
    with pytest.raises(TypeError, match="uint8"):
        m.f(x.astype(np.int64), 3)


def test_unsigned_executable(tmp_path):
    """`arrayc build` of a program with `u8`/`u64` parameters and results: the executable reads a
    `|u1` file and a `u64` scalar argument and writes NumPy's uint8/uint64 results."""
    (tmp_path / "uints.arr").write_text(
        "fn main(x: u8[N], k: u64) -> (u8[N], u64) {\n    return (x * 7 - 1, sum(x) + k);\n}\n")
    exe = tmp_path / "uints"
    proc = subprocess.run([str(arrayc_binary()), "build", str(tmp_path / "uints.arr"), "-o", str(exe)],
                          capture_output=True, text=True, timeout=RUN_TIMEOUT_S)
    assert proc.returncode == 0, proc.stderr
    x = np.array([3, 0, 255, 128], dtype=np.uint8)
    np.save(tmp_path / "x.npy", x)
    run = subprocess.run([str(exe), "--arg", f"x=@{tmp_path / 'x.npy'}", "--arg", "k=18446744073709551000",
                          "--out", str(tmp_path / "out")], capture_output=True, text=True, timeout=RUN_TIMEOUT_S)
    assert run.returncode == 0, run.stderr
    y, s = np.load(tmp_path / "out" / "result_0.npy"), np.load(tmp_path / "out" / "result_1.npy")
    assert y.dtype == np.uint8 and s.dtype == np.uint64
    np.testing.assert_array_equal(y, x * np.uint8(7) - np.uint8(1))
    assert s == np.sum(x) + np.uint64(18446744073709551000)


def test_unsigned_kernel_compiles_to_ptx_that_ptxas_accepts(tmp_path):
    """The GPU path of `u8`/`u64` kernels (wrap-around, unsigned division and shifts, float
    conversions, `sum` upcast to `u64`, min/max of `u8` through 64-bit shuffles): PTX that NVIDIA's
    ptxas accepts for sm_90."""
    from test_gpu import emit_ptx

    prog = tmp_path / "uints.arr"
    prog.write_text("""fn main(a: u8[N], b: u64[N], f: f64[N]) -> (u8[N], u64[N], u64, u8, u64, f64, u8[N]) {
    return ((a * 3 + 1) // a % 7 << 2 >> a, b // b >> b, sum(a), max(a - a), min(b), mean(b), u8(f) + a ** a);
}
""")
    nvcc, ptx = emit_ptx(prog, tmp_path)
    proc = subprocess.run([str(nvcc / "bin" / "ptxas"), "-arch=sm_90", str(ptx), "-o", str(tmp_path / "k.cubin")],
                          capture_output=True, text=True)
    assert proc.returncode == 0, f"ptxas rejected the PTX:\n{proc.stderr}"


@pytest.mark.parametrize("use", ["x[k]", "x[k:]", "zeros(k)", "arange(k)", "range"])
def test_a_u64_index_bound_or_size_is_refused_naming_the_conversion(use, tmp_path):
    """A `u64` scalar as an index, slice bound, size, `range` bound or `arange` argument would be
    computed in `i64`, where 2^63 and more do not fit (NumPy raises OverflowError there, and its
    `arange` of a uint64 is float64): a compile-time error naming `i64(...)`, not a wrapped value;
    a `u8` serves as any integer does."""
    body = {"x[k]": "return x[k];", "x[k:]": "return sum(x[k:]);", "zeros(k)": "return sum(zeros(k));",
            "arange(k)": "return f64(sum(arange(k)));",
            "range": "let s = 0.0;\n    for i in 0..k { s = s + x[i]; }\n    return s;"}[use]
    proc = check_source(f"fn main(x: f64[N], k: u64) -> f64 {{\n    {body}\n}}\n", tmp_path)
    assert proc.returncode == 1 and "panicked" not in proc.stderr, proc.stderr
    assert "u64" in proc.stderr and "i64(...)" in proc.stderr and "e.arr:" in proc.stderr, proc.stderr
    src = f"fn main(x: f64[N], k: u8) -> f64 {{\n    {body}\n}}\n"
    x = np.arange(10.0)
    proc, res = run_source(src, {"x": x}, tmp_path, flags=("--arg", "k=3"))
    assert proc.returncode == 0, proc.stderr
    want = {"x[k]": x[3], "x[k:]": np.sum(x[3:]), "zeros(k)": 0.0, "arange(k)": 3.0, "range": np.sum(x[:3])}[use]
    assert res[0] == want


def test_narrow_ints_python_module_executable_and_prints(tmp_path):
    """`i16`, `i8`, `u32`, `u16` across the driver's edges: `print` as NumPy's `str`, `--arg`
    scalars (in range, and out of range refused), an `arrayc build` executable reading their
    `.npy` files, and a `--lib` Python module (dtype codes 7 to 10) that refuses an out-of-range
    scalar and a wrong dtype."""
    from test_lib import build_lib

    a = np.array([-32768, 7, 32767], dtype=np.int16)
    b = np.array([-128, 0, 127], dtype=np.int8)
    c = np.array([0, 2**31, 2**32 - 1], dtype=np.uint32)
    d = np.array([0, 40000, 65535], dtype=np.uint16)
    src = ("fn main(a: i16[N], b: i8[N], c: u32[N], d: u16[N], k: i8, m: u16) -> (i16[N], i8[N], u32[N], u16[N], i64) {\n"
           "    print(a);\n    print(b);\n    print(c);\n    print(d[1] + m);\n"
           "    return (a * 3 + k, b - k, c + 5, d * m, sum(a) + sum(b));\n}\n")
    (tmp_path / "w.arr").write_text(src)
    proc, res = run_source(src, {"a": a, "b": b, "c": c, "d": d}, tmp_path, flags=("--arg", "k=-7", "--arg", "m=3"))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith(f"{a}\n{b}\n{c}\n{d[1] + np.uint16(3)}\n"), proc.stdout
    with np.errstate(all="ignore"):
        want = [a * np.int16(3) + np.int8(-7), b - np.int8(-7), c + np.uint32(5), d * np.uint16(3), np.sum(a) + np.sum(b)]
    for got, w in zip(res, want):
        assert got.dtype == np.asarray(w).dtype
        np.testing.assert_array_equal(got, w)
    bad = subprocess.run([str(arrayc_binary()), "run", str(tmp_path / "w.arr"), "--arg", "k=200"],
                         capture_output=True, text=True, timeout=RUN_TIMEOUT_S)
    assert bad.returncode != 0 and "k=200" in bad.stderr and "panicked" not in bad.stderr, bad.stderr
    exe = tmp_path / "w"
    proc = subprocess.run([str(arrayc_binary()), "build", str(tmp_path / "w.arr"), "-o", str(exe)],
                          capture_output=True, text=True, timeout=RUN_TIMEOUT_S)
    assert proc.returncode == 0, proc.stderr
    for name, v in {"a": a, "b": b, "c": c, "d": d}.items():
        np.save(tmp_path / f"{name}.npy", v)
    args = [a for n in "abcd" for a in ("--arg", f"{n}=@{tmp_path / (n + '.npy')}")]
    run = subprocess.run([str(exe), *args, "--arg", "k=-7", "--arg", "m=3", "--out", str(tmp_path / "out")],
                         capture_output=True, text=True, timeout=RUN_TIMEOUT_S)
    assert run.returncode == 0, run.stderr
    for k, w in enumerate(want):
        got = np.load(tmp_path / "out" / f"result_{k}.npy")
        assert got.dtype == np.asarray(w).dtype
        np.testing.assert_array_equal(got, w)
    (tmp_path / "lib.arr").write_text("fn f(a: i16[N], k: i8, c: u32[N]) -> (i16[N], u32, u16) {\n"
                                      "    return (a + k, max(c), u16(k));\n}\n")
    m = build_lib(tmp_path / "lib.arr", "widths", tmp_path)
    y, mx, u = m.f(a[::-1], -3, c)
    assert y.dtype == np.int16 and mx.dtype == np.uint32 and u.dtype == np.uint16
    with np.errstate(all="ignore"):
        np.testing.assert_array_equal(y, a[::-1] + np.int8(-3))
    assert mx == 2**32 - 1 and u == np.int8(-3).astype(np.uint16)
    with pytest.raises(Exception, match="int8"):
        m.f(a, 300, c)
    with pytest.raises(TypeError, match="int16"):
        m.f(a.astype(np.int32), 1, c)


def test_narrow_int_kernels_compile_to_ptx_that_ptxas_accepts(tmp_path):
    """The GPU path of `i16`, `i8`, `u32`, `u16` kernels (wrap-around, division, shifts, float
    conversions both ways, `sum` upcast, min/max through 64-bit shuffles, `sqrt` of `u16` in
    `f32`): PTX that NVIDIA's ptxas accepts for sm_90."""
    from test_gpu import emit_ptx

    prog = tmp_path / "widths.arr"
    prog.write_text("""fn main(a: i16[N], b: i8[N], c: u32[N], d: u16[N], f: f64[N]) -> (i16[N], i8, u32[N], u16, i64, f32[N], u32[N], i8[N]) {
    return ((a * 3 + 1) // a % 7 << 2 >> a, max(b - b), c // c >> c, min(d), sum(a) + sum(b), sqrt(d), u32(f), i8(f) + b ** b);
}
""")
    nvcc, ptx = emit_ptx(prog, tmp_path)
    proc = subprocess.run([str(nvcc / "bin" / "ptxas"), "-arch=sm_90", str(ptx), "-o", str(tmp_path / "k.cubin")],
                          capture_output=True, text=True)
    assert proc.returncode == 0, f"ptxas rejected the PTX:\n{proc.stderr}"


@pytest.mark.parametrize("target", TARGETS)
def test_narrow_int_indices_bounds_and_sizes(target, tmp_path):
    """`i16`, `i8`, `u32`, `u16` values index as NumPy's: index arrays of a gather, a scatter and
    `take` (converted to `i64` in the kernel), scalars as an index, slice bounds, a size and a
    `range` bound."""
    x = np.arange(20.0)
    a = np.arange(-10, 10).astype(np.int16)
    c = (np.arange(20) * 7).astype(np.uint32)
    src = """fn main(x: f64[n], a: i16[n], c: u32[n], k: i8, m: u16) -> (f64[n], f64[n], f64[?], f64, f64[?], i64, f64[n]) {
    let y = copy(x);
    y[c % 10] = 1.5;
    let s = 0;
    for i in range(k) { s = s + i; }
    return (x[abs(a % 10)], y, zeros(m), x[k], x[k:m], s, np.take(x, u16(c % 5)));
}
"""
    k, m = np.int8(3), np.uint16(6)
    y = x.copy()
    y[c % 10] = 1.5
    want = [x[abs(a % 10)], y, np.zeros(m), x[k], x[k:m], sum(range(k)), np.take(x, (c % 5).astype(np.uint16))]
    proc, res = run_source(src, {"x": x, "a": a, "c": c}, tmp_path,
                           flags=("--target", target, "--arg", "k=3", "--arg", "m=6"))
    assert proc.returncode == 0, proc.stderr
    for i, (g, w) in enumerate(zip(res, want)):
        np.testing.assert_array_equal(g, w, err_msg=f"result {i}")


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("dt", INTS)
def test_comparisons_with_python_ints_are_exact(dt, target, tmp_path):
    """NumPy 2 compares an integer array with any Python int exactly: one outside the dtype's
    range is no OverflowError there (`x_i16 > 40000` is false everywhere, `x_u8 == -1` too), and
    a `uint64` beside a literal above 2^53 compares in `uint64`, not in `float64` (arrayc's
    `x_u64 == 9007199254740993` was true for 9007199254740992 as well). Kernel and host path."""
    info = np.iinfo(DTYPES[dt])
    x = np.array([info.min, info.max, 0, 1, -1 if info.min < 0 else 2, info.max // 2 + 1], dtype=DTYPES[dt])
    if dt == "u64":
        x = np.append(x, np.array([2**53, 2**53 + 1, 2**53 + 2], dtype=np.uint64))
    lits = [-1, 0, 200, -129, 40000, 3000000000, 9007199254740993, -(2**62)]
    ops = ["<", "==", ">=", "!="]
    cases = [(f"x {op} {v}", f"x[i] {op} {v}") for v in lits for op in ops] + [(f"{lits[4]} > x", f"{lits[4]} > x[i]")]
    lines, rets = [], []
    for k, (kern, host) in enumerate(cases):
        lines += [f"    let k{k} = {kern};", f"    let h{k} = zeros(N, dtype=bool);", f"    for i in 0..N {{ h{k}[i] = {host}; }}"]
        rets += [f"k{k}", f"h{k}"]
    src = f"fn main(x: {dt}[N]) -> ({', '.join(['bool[N]'] * len(rets))}) {{\n" + "\n".join(lines) + \
        f"\n    return ({', '.join(rets)});\n}}\n"
    proc, res = run_source(src, {"x": x}, tmp_path, flags=("--target", target))
    assert proc.returncode == 0, proc.stderr
    for k, (kern, _) in enumerate(cases):
        want = eval(kern, {"x": x})
        for path, got in (("kernel", res[2 * k]), ("host", res[2 * k + 1])):
            np.testing.assert_array_equal(got, want, err_msg=f"{kern} on {dt} ({path} path)")

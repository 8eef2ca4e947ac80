"""NumPy 2's weak Python scalars (NEP 50) beyond literals, against NumPy (docs/language.md, "Dtype
of a result"): `len(x)`, `x.shape[k]`, `x.ndim`, `x.size`, a size symbol, names unpacked from
`x.shape`, `range` variables, Python's arithmetic of them, `abs`/`min`/`max`/`int`/`float` of
them and variables assigned from them take the other operand's dtype, as NumPy's Python ints and
floats do; NumPy scalars (`np.int64(3)`, `x[0]`, a parameter `k: i64`, a sum of elements) stay
strong. Each program's results are compared, dtype included, with NumPy running the same Python
code on the same inputs; a Python int that does not fit the dtype it takes is NumPy's
OverflowError, a run-time error naming the line and the value. On the CPU and on the GPU
kernels (emulated, and the GPU where there is one)."""
import numpy as np
import pytest

from arrayc_examples import TARGETS, assert_check_error, assert_same, run_ok, run_source

DTYPES = ["f32", "f64", "i32", "i64", "u8", "u64", "bool"]
NP = {"f32": np.float32, "f64": np.float64, "i32": np.int32, "i64": np.int64, "u8": np.uint8, "u64": np.uint64,
      "bool": np.bool_}
ARRAYC = {np.dtype(v): k for k, v in NP.items()}

# Expressions of an array `x` (of `n` elements) and Python ints and floats, spelled alike in
# arrayc and Python: each is evaluated by NumPy with `n = x.shape[0]`.
EXPRS = [
    "x + len(x)",
    "x * x.shape[0]",
    "x + x.ndim",
    "x + x.size",
    "x * n",
    "x + (len(x) - 1) * 2",
    "x + len(x) // 2",
    "x + abs(1 - len(x))",
    "x + min(len(x), 3)",
    "x * max(x.ndim, 2)",
    "x + int(len(x) / 2)",
    "x + (len(x) if len(x) > 2 else 1)",
    "x / len(x)",
    "x / (len(x) * 100)",
    "x // (len(x) - 2)",
    "x % len(x)",
    "x * float(len(x))",
    "x * (len(x) / 4)",
    "x + 2 ** x.ndim",
    "np.maximum(x, len(x))",
    "np.minimum(x, x.ndim)",
    "np.where(x > 3, x, len(x))",
]
SIGNED_EXPRS = ["x * -x.ndim", "x + (x.ndim - len(x))"]
# NumPy's float functions of `u8` and `bool` give `float16`, arrayc's `f32` (docs/language.md).
FLOAT_FN_EXPRS = ["np.copysign(x, len(x))", "np.copysign(x, -x.ndim)"]


def inputs(dt):
    rng = np.random.default_rng(5)
    if dt == "bool":
        return rng.integers(0, 2, 5).astype(bool)
    return rng.integers(0, 40, 5).astype(NP[dt])


def arrayc_type(a):
    """arrayc's spelling of the type of NumPy's result `a` (of `n` elements or a scalar)."""
    a = np.asarray(a)
    d = ARRAYC[a.dtype]
    return d if a.ndim == 0 else f"{d}[{', '.join('n' if s == 5 else str(s) for s in a.shape)}]"


@pytest.mark.parametrize("target", TARGETS[:2])
@pytest.mark.parametrize("dt", DTYPES)
def test_weak_sources_take_the_arrays_dtype(dt, target, tmp_path):
    """Every source of Python numbers beside an array of each dtype, in operators and in NumPy's
    `maximum`, `minimum`, `where` and `copysign`: NumPy's dtype and values."""
    x = inputs(dt)
    exprs = EXPRS + (SIGNED_EXPRS if dt not in ("u8", "u64") else [])
    exprs += FLOAT_FN_EXPRS if dt not in ("u8", "bool") else []
    want = [eval(e, {"np": np}, {"x": x, "n": x.shape[0]}) for e in exprs]
    results = ", ".join(arrayc_type(w) for w in want)
    src = f"fn main(x: {dt}[n]) -> ({results}) {{\n    return ({', '.join(exprs)});\n}}\n"
    got = run_ok(src, {"x": x}, tmp_path, target)
    for g, w, e in zip(got, want, exprs):
        assert_same(g, w, f"{dt}: {e}")


def loops(x, a):
    """The Python of `LOOPS`."""
    m = len(x)
    z = x * 1
    for k in range(1, 4):
        z = z * k
    t = 0
    for k in range(3):
        t = t + k
    h = 1
    for k in range(2):
        h *= k + 2
    r, c = a.shape
    y = x + 0
    for k in range(2):
        y += k
    return x * m, z, x + t, x * h, a * r + c, y, x - m // 2


LOOPS = """fn main(x: {d}[n], a: {d}[p, q]) -> ({r}) {{
    m = len(x);
    z = x * 1;
    for k in range(1, 4) {{
        z = z * k;
    }}
    t = 0;
    for k in range(3) {{
        t = t + k;
    }}
    h = 1;
    for k in range(2) {{
        h *= k + 2;
    }}
    r, c = a.shape;
    y = x + 0;
    for k in range(2) {{
        y += k;
    }}
    return (x * m, z, x + t, x * h, a * r + c, y, x - m // 2);
}}
"""


@pytest.mark.parametrize("target", TARGETS[:2])
@pytest.mark.parametrize("dt", [d for d in DTYPES if d != "bool"])
def test_weak_variables_and_loops(dt, target, tmp_path):
    """Variables assigned from Python numbers, loop-carried ones, `range` variables and names
    unpacked from `a.shape` stay weak: NumPy's dtypes (`x - m // 2` of unsigned `x` wraps)."""
    x = inputs(dt)
    a = np.arange(6).reshape(2, 3).astype(NP[dt])
    want = loops(x, a)
    src = LOOPS.format(d=dt, r=", ".join(arrayc_type(w).replace("[2, 3]", "[p, q]") for w in want))
    got = run_ok(src, {"x": x, "a": a}, tmp_path, target)
    for k, (g, w) in enumerate(zip(got, want)):
        assert_same(g, w, f"{dt}: result {k}")


@pytest.mark.parametrize("target", TARGETS[:2])
def test_u8_loops_wrap(target, tmp_path):
    """`u = u + k` and `u += k` of a `range` variable on `u8` arrays: `u8` results that wrap, as
    NumPy's (the Python int itself fits `u8`)."""
    u = np.array([0, 7, 200, 255], dtype=np.uint8)
    src = """fn main(u: u8[n]) -> (u8[n], u8[n]) {
    v = u + 0;
    w = u + 0;
    for k in range(250, 256) {
        v = v + k;
        w += k;
    }
    return (v, w);
}
"""
    v = u + 0
    w = u + 0
    for k in range(250, 256):
        v = v + k
        w += k
    got = run_ok(src, {"u": u}, tmp_path, target)
    assert_same(got[0], v, "v = v + k")
    assert_same(got[1], w, "w += k")


@pytest.mark.parametrize("dt, expr, value", [
    ("u8", "x + len(x) * 100", 500),
    ("u8", "x * (len(x) + 251)", 256),
    ("u8", "x + (1 - len(x))", -4),
    ("u64", "x + (x.ndim - len(x))", -4),
    ("i32", "x + len(x) * 1000000000", 5000000000),
    ("u8", "x[0] + len(x) * 100", 500),
    ("u8", "np.maximum(x, len(x) * 100)", 500),
])
def test_python_int_out_of_bounds_is_overflow_error(dt, expr, value, tmp_path):
    """A Python int that does not fit the dtype it takes: NumPy's OverflowError, arrayc's run-time
    error naming the line (3) and the value; exit status non-zero."""
    x = inputs(dt)
    with pytest.raises(OverflowError, match=f"Python integer {value} out of bounds"):
        eval(expr, {"np": np}, {"x": x})
    ret = f"{dt}[n]" if "[0]" not in expr else dt
    src = f"fn main(x: {dt}[n]) -> {ret} {{\n    m = 1;\n    return {expr};\n}}\n"
    proc, _ = run_source(src, {"x": x}, tmp_path)
    assert proc.returncode != 0, proc.stderr
    assert f"prog.arr:3:" in proc.stderr, proc.stderr
    assert f"Python integer {value} out of bounds for {np.dtype(NP[dt]).name}" in proc.stderr, proc.stderr
    assert "panicked" not in proc.stderr


def test_in_place_overflow_error(tmp_path):
    """`u += k` with a `k` beyond `u8`: NumPy's OverflowError at the statement's line."""
    u = np.array([1, 2], dtype=np.uint8)
    src = "fn main(u: u8[n]) -> u8[n] {\n    for k in range(254, 258) {\n        u += k;\n    }\n    return u;\n}\n"
    with pytest.raises(OverflowError, match="Python integer 256 out of bounds for uint8"):
        v = u.copy()
        for k in range(254, 258):
            v += k
    proc, _ = run_source(src, {"u": u}, tmp_path)
    assert proc.returncode != 0 and "prog.arr:3:" in proc.stderr, proc.stderr
    assert "Python integer 256 out of bounds for uint8" in proc.stderr, proc.stderr


@pytest.mark.parametrize("target", TARGETS[:2])
def test_element_writes_of_python_ints(target, tmp_path):
    """`u[0] = k`, `u[mask] = k`, `u[idx] = k` of Python ints that fit `u8`: NumPy's values."""
    u = np.array([5, 250, 7, 9], dtype=np.uint8)
    src = """fn main(u: u8[n]) -> u8[n] {
    u[0] = len(u) * 50;
    u[u > 8] = len(u) + 1;
    u[np.array([1, 3])] = u.ndim;
    return u;
}
"""
    want = u.copy()
    want[0] = len(want) * 50
    want[want > 8] = len(want) + 1
    want[np.array([1, 3])] = want.ndim
    got = run_ok(src, {"u": u}, tmp_path, target)
    assert_same(got[0], want, "writes")


@pytest.mark.parametrize("write", ["u[0] = len(u) * 100;", "u[u > 8] = len(u) * 100;", "u[:] = -len(u);"])
def test_element_write_overflow_error(write, tmp_path):
    """Writing a Python int beyond `u8` into a `u8` array: NumPy's OverflowError, a run-time error
    naming the line; a literal is E0315 at compile time."""
    u = np.array([5, 250, 7, 9], dtype=np.uint8)
    with pytest.raises(OverflowError, match="out of bounds for uint8"):
        exec(write.rstrip(";"), {}, {"u": u.copy()})
    src = f"fn main(u: u8[n]) -> u8[n] {{\n    {write}\n    return u;\n}}\n"
    proc, _ = run_source(src, {"u": u}, tmp_path)
    assert proc.returncode != 0 and "prog.arr:2:" in proc.stderr, proc.stderr
    assert "out of bounds for uint8" in proc.stderr and "panicked" not in proc.stderr, proc.stderr
    assert_check_error("fn main(u: u8[n]) -> u8[n] {\n    u[0] = 300;\n    return u;\n}\n", "E0315",
                       "300", tmp_path)


@pytest.mark.parametrize("target", TARGETS[:2])
def test_comparisons_are_exact(target, tmp_path):
    """Comparisons with a Python int beyond the array's dtype compare the exact values (NumPy 2,
    no OverflowError); a Python float beside `f32` compares in `f32` (`x == 0.1` is NumPy's
    `x == float32(0.1)`), a literal too."""
    u = np.array([0, 7, 200, 255], dtype=np.uint8)
    x = np.array([0.1, 0.2, 0.3, 1.0], dtype=np.float32)
    src = """fn main(u: u8[n], x: f32[n]) -> (bool[n], bool[n], bool[n], bool[n], bool[n], bool) {
    v = float(1) / 10;
    return (u < len(u) * 100, u > -len(u), x == v, x == 0.1, x >= len(x) / 40, x[1] == 2 * v);
}
"""
    v = float(1) / 10
    want = (u < len(u) * 100, u > -len(u), x == v, x == 0.1, x >= len(x) / 40, x[1] == 2 * v)
    got = run_ok(src, {"u": u, "x": x}, tmp_path, target)
    for k, (g, w) in enumerate(zip(got, want)):
        assert_same(g, w, f"result {k}")


@pytest.mark.parametrize("target", TARGETS[:2])
def test_where_casts_python_ints_as_numpy(target, tmp_path):
    """NumPy's `where` casts a Python int to the array's dtype unsafely (no OverflowError:
    `where(c, x_u8, 300)` holds 44), unlike the operators and `maximum`."""
    u = np.array([5, 250, 7], dtype=np.uint8)
    src = """fn main(u: u8[n]) -> u8[n] {
    return np.where(u > 6, u, len(u) * 100);
}
"""
    got = run_ok(src, {"u": u}, tmp_path, target)
    assert_same(got[0], np.where(u > 6, u, len(u) * 100), "where")


@pytest.mark.parametrize("target", TARGETS[:2])
def test_numpy_scalars_stay_strong(target, tmp_path):
    """NumPy scalars promote by their dtype: `x32 * np.int64(3)` and `x32 * k` (a parameter
    `k: i64`) are `f64`, `u8 + x[0]` of an `i64` array `i64`, and a variable that a loop makes a
    NumPy scalar (`s = 0` ... `s = s + xi[i]`) is one at every use."""
    x = np.array([0.5, 1.5, 2.5], dtype=np.float32)
    u = np.array([1, 2, 250], dtype=np.uint8)
    xi = np.array([3, -4, 5], dtype=np.int64)
    k = 2
    src = """fn main(x: f32[n], u: u8[n], xi: i64[n], k: i64) -> (f64[n], f64[n], i64[n], i64[n], f64[n]) {
    s = 0;
    for i in range(len(xi)) {
        s = s + xi[i];
    }
    return (x * np.int64(3), x * k, u + xi[0], u + s, x * xi.sum());
}
"""
    s = 0
    for i in range(len(xi)):
        s = s + xi[i]
    want = (x * np.int64(3), x * np.int64(k), u + xi[0], u + s, x * xi.sum())
    got = run_ok(src, {"x": x, "u": u, "xi": xi, "k": k}, tmp_path, target)
    for i, (g, w) in enumerate(zip(got, want)):
        assert_same(g, w, f"result {i}")


@pytest.mark.parametrize("target", TARGETS[:2])
def test_python_bools(target, tmp_path):
    """Python's bools (`True`, `len(x) > 3`, `not c`) beside a NumPy value are NumPy's `bool`
    (`u8 + True` is `uint8`), but arithmetic of two of them is Python's `int`: `True + True` is
    `2`, where NumPy's `np.True_ + np.True_` is `True` (as `(x[0] > 0) + (x[1] > 0)` stays)."""
    x = np.array([0.5, -1.5, 2.5, 4.0])
    u = np.array([1, 2, 250], dtype=np.uint8)
    src = """fn main(x: f64[n], u: u8[m]) -> (i64, i64, i64, bool, f64, bool, u8[m], i64, f64) {
    flag = len(x) > 3;
    return (True + True, flag * (len(u) > 2), (not (x[0] > 0)) + (not (x[1] > 0)),
            (x[0] > 0) + (x[1] > 0), True / True + flag, flag & (len(x) < 9), u + True,
            sum([True, flag, len(x) == 4]), (len(x) > 2) + 1.5);
}
"""
    flag = len(x) > 3
    want = (True + True, flag * (len(u) > 2), (not (x[0] > 0)) + (not (x[1] > 0)),
            (x[0] > 0) + (x[1] > 0), True / True + flag, flag & (len(x) < 9), u + True,
            sum([True, flag, len(x) == 4]), (len(x) > 2) + 1.5)
    got = run_ok(src, {"x": x, "u": u}, tmp_path, target)
    for i, (g, w) in enumerate(zip(got, want)):
        assert_same(g, np.asarray(w), f"result {i}")


def test_bitwise_not_of_a_python_bool_is_refused(tmp_path):
    """Python's `~True` is the int -2 (NumPy's `~np.True_` is `False`): refused, naming `not`."""
    src = """fn main(x: f64[n]) -> bool {
    return ~(len(x) > 3);
}
"""
    assert_check_error(src, "E0301", "not b", tmp_path)

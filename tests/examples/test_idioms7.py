"""NumPy's everyday idioms of issue 31, seventh set of idioms: numerical methods as a NumPy user
writes them, against Python and NumPy (docs/language.md): Python's `math` functions with Python's
conversions (`float` arguments, a weak Python `float` result), `math.factorial`, `math.gcd`,
`min`/`max` of an iterable with `key=`, Python's `pow`, `lstsq`'s `int32` rank, and the errors
E0330/E0331 that name the arrayc way; on the CPU and on the GPU kernels (emulated, and the GPU
where there is one)."""
import math

import numpy as np
import pytest

from arrayc_examples import TARGETS, assert_check_error, assert_same, run_fails, run_ok


def python(src, **inputs):
    """Runs the Python body `src` (a function's statements) with `inputs` bound: its value."""
    g = dict(inputs, np=np, math=math)
    exec("def _f():\n" + "".join("    " + line + "\n" for line in src.strip("\n").split("\n")), g)
    return g["_f"]()


@pytest.mark.parametrize("target", TARGETS)
def test_math_functions_convert_as_python(target, tmp_path):
    """`math`'s float functions read `float32` and integer scalars as Python's `float` and give a
    Python `float`, weak in promotion (`math.sqrt(2.0) * x32` stays `float32`); `math.pow` and
    `math.fmod` of integers are floats; `math.log(x, b)`; `math.gcd`; `math.factorial` in a
    series (Taylor's sine, e)."""
    rng = np.random.default_rng(71)
    x32 = rng.standard_normal(6).astype(np.float32)
    v = rng.random(6) + 0.5
    src = """fn sin_taylor(v: f64[N], terms: i64 = 10) -> f64[N] {
    total = np.zeros_like(v);
    for k in range(terms) {
        total += (-1) ** k * v ** (2 * k + 1) / math.factorial(2 * k + 1);
    }
    return total;
}
fn main(x32: f32[n], v: f64[n]) -> (f64, f32[n], f32[n], f64, f64, f64, f64, f64, i64, f64[n], f64, i64, f64, bool) {
    s = 0.0;
    for k in range(15) {
        s += 1.0 / math.factorial(k);
    }
    return (math.sqrt(x32[0] ** 2), math.sqrt(2.0) * x32, math.cos(v[1]) * x32, math.pow(2, 3), math.fmod(7, 3),
            math.log(8, 2), math.exp(x32[2]), math.atan2(1, 2), math.gcd(48, -36), sin_taylor(v), s,
            math.factorial(20), math.hypot(3, 4), math.isnan(x32[0]));
}
"""
    got = run_ok(src, dict(x32=x32, v=v), tmp_path, target)
    want = python("""
s = 0.0
for k in range(15):
    s += 1.0 / math.factorial(k)
total = np.zeros_like(v)
for k in range(10):
    total += (-1) ** k * v ** (2 * k + 1) / math.factorial(2 * k + 1)
return (math.sqrt(x32[0] ** 2), math.sqrt(2.0) * x32, math.cos(v[1]) * x32, math.pow(2, 3), math.fmod(7, 3),
        math.log(8, 2), math.exp(x32[2]), math.atan2(1, 2), math.gcd(48, -36), total, s,
        math.factorial(20), math.hypot(3, 4), math.isnan(x32[0]))
""", x32=x32, v=v)
    for i, (g, w) in enumerate(zip(got, want)):
        w = np.asarray(w)
        if i in (2, 9, 10):
            # Transcendental functions: NumPy's and arrayc's agree to rounding.
            assert np.asarray(g).dtype == w.dtype and np.asarray(g).shape == w.shape, f"result {i}"
            np.testing.assert_allclose(g, w, rtol=1e-6 if w.dtype == np.float32 else 1e-14, err_msg=f"result {i}")
        else:
            assert_same(g, w, f"result {i}")


@pytest.mark.parametrize("k", [-1, 21])
def test_factorial_outside_int64_fails(k, tmp_path):
    """`math.factorial(n)` of a negative `n` (Python's ValueError) or of one whose value is beyond
    `int64` is a run-time error, never a wrapped value."""
    src = "fn main(k: i64) -> i64 { return math.factorial(k); }\n"
    run_fails(src, {"k": np.int64(k)}, tmp_path, "out of bounds")


def test_math_errors_name_the_arrayc_way(tmp_path):
    """A `math` function of an array is Python's TypeError; a `math` function arrayc has not is
    E0330, whose help names NumPy's way."""
    assert_check_error("fn f(v: f64[n]) -> f64[n] { return math.sqrt(v); }\n", "E0503", "converts a scalar", tmp_path)
    assert_check_error("fn f(v: f64[n]) -> f64 { return math.fsum(v); }\n", "E0330", "np.sum(x)", tmp_path)
    assert_check_error("fn f(p: f64[n], q: f64[n]) -> f64 { return math.dist(p, q); }\n", "E0330",
                       "np.linalg.norm(p - q)", tmp_path)
    assert_check_error("fn f(a: i64, b: i64) -> i64 { return math.comb(a, b); }\n", "E0330", "int64", tmp_path)


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("case", ["plain", "nan_first", "nan_middle", "ties"])
def test_min_max_key_match_python(case, target, tmp_path):
    """`min`/`max` of `range(..)` or of an array with `key=` (a lambda, a builtin's name, a bound
    lambda, a function of the program) as Python's: the first best item, NaN keys never winning
    and a NaN first key never replaced; the `range` item a weak Python `int`."""
    rng = np.random.default_rng(73)
    x = rng.standard_normal(8)
    k = rng.integers(-3, 3, 8)
    if case == "nan_first":
        x[0] = np.nan
    elif case == "nan_middle":
        x[[2, 5]] = np.nan
    elif case == "ties":
        x[[1, 4, 6]] = x.max() + 1.0
    x32 = rng.standard_normal(8).astype(np.float32)
    src = """fn sq(v: f64) -> f64 { return v * v; }
fn main(x: f64[n], k: i64[n], x32: f32[n]) -> (i64, i64, i64, i64, i64, f64, f64, f32[n], i64, i64, f64) {
    d = np.abs(x - 0.5);
    g = lambda j: -d[j];
    return (min(range(len(x)), key=lambda i: d[i]), max(range(1, n, 2), key=lambda i: x[i]),
            max(range(n - 1, -1, -3), key=lambda i: k[i]), max(range(n), key=g), min(range(n), key=lambda i: k[i]),
            max(x, key=abs), min(x, key=sq), min(range(n), key=lambda i: x[i]) * x32,
            max(range(n), key=lambda i: x[i] > 0), max(k, key=lambda v: v % 3), min(x[2:], key=lambda v: -v));
}
"""
    got = run_ok(src, dict(x=x, k=k, x32=x32), tmp_path, target)
    n = len(x)
    want = python("""
d = np.abs(x - 0.5)
g = lambda j: -d[j]
sq = lambda v: v * v
return (min(range(len(x)), key=lambda i: d[i]), max(range(1, n, 2), key=lambda i: x[i]),
        max(range(n - 1, -1, -3), key=lambda i: k[i]), max(range(n), key=g), min(range(n), key=lambda i: k[i]),
        max(x, key=abs), min(x, key=sq), min(range(n), key=lambda i: x[i]) * x32,
        max(range(n), key=lambda i: x[i] > 0), max(k, key=lambda v: v % 3), min(x[2:], key=lambda v: -v))
""", x=x, k=k, x32=x32, n=n)
    for i, (g, w) in enumerate(zip(got, want)):
        assert_same(g, np.asarray(w), f"result {i}")


def test_min_max_key_errors_as_python(tmp_path):
    """An empty iterable (Python's ValueError) and an array key of several elements (Python's
    ValueError comparing arrays) are run-time errors."""
    src = "fn main(x: f64[n]) -> i64 { return min(range(0), key=lambda i: x[i]); }\n"
    run_fails(src, {"x": np.ones(3)}, tmp_path, "error")
    src = "fn main(m: f64[r, c]) -> i64 { return max(range(r), key=lambda i: m[i]); }\n"
    run_fails(src, {"m": np.ones((3, 2))}, tmp_path, "error")


@pytest.mark.parametrize("target", TARGETS)
def test_python_pow_and_lstsq_rank(target, tmp_path):
    """Python's bare `pow(a, b)` is `a ** b` (`pow(2, -1)` is `0.5`); `lstsq`'s rank is NumPy's
    `int32`."""
    rng = np.random.default_rng(79)
    t = np.sort(rng.random(10)) * 10
    x = rng.standard_normal(10)
    src = """fn main(t: f64[n], x: f64[n]) -> (i64, f64, f64, f64[n], f64[?], i32) {
    A = np.column_stack((np.ones_like(t), t, t ** 2));
    coef, res, rank, sv = np.linalg.lstsq(A, x, rcond=None);
    return (pow(3, 4), pow(2, -1), pow(2.0, 0.5), pow(x, 2), coef, rank);
}
"""
    got = run_ok(src, dict(t=t, x=x), tmp_path, target)
    A = np.column_stack((np.ones_like(t), t, t ** 2))
    coef, res, rank, sv = np.linalg.lstsq(A, x, rcond=None)
    want = [pow(3, 4), pow(2, -1), pow(2.0, 0.5), pow(x, 2), coef, rank]
    for i, (g, w) in enumerate(zip(got, want)):
        w = np.asarray(w)
        if i == 4:
            assert np.asarray(g).dtype == w.dtype and np.asarray(g).shape == w.shape
            np.testing.assert_allclose(g, w, rtol=1e-9)
        else:
            assert_same(g, w, f"result {i}")


def test_refused_calls_name_the_arrayc_way(tmp_path):
    """E0331: Python's three-argument `pow`, NumPy's `unique_values` (order unspecified) and
    `nextafter`, each naming the arrayc way."""
    assert_check_error("fn f(a: i64, b: i64) -> i64 { return pow(a, b, 7); }\n", "E0331", "a ** b % m", tmp_path)
    assert_check_error("fn f(k: i64[n]) -> i64[?] { return np.unique_values(k); }\n", "E0331", "np.unique(x)", tmp_path)
    assert_check_error("fn f(v: f64) -> f64 { return np.nextafter(v, 2.0); }\n", "E0331", "np.ldexp", tmp_path)


@pytest.mark.parametrize("target", TARGETS)
def test_sorted_of_tolist_and_rank(target, tmp_path):
    """`sorted(x.tolist())` is `sorted(x)`, an empty `x` too; `sorted` of a 2-d array is Python's
    error comparing rows (arrayc sorted each row before)."""
    x = np.random.default_rng(83).standard_normal(7)
    src = """fn main(x: f64[n]) -> (f64[?], f64[?], f64[?]) {
    return (np.array(sorted(x.tolist())), np.array(sorted(x, reverse=True)), np.array(sorted(x[:0])));
}
"""
    got = run_ok(src, dict(x=x), tmp_path, target)
    want = [np.array(sorted(x.tolist())), np.array(sorted(x, reverse=True)), np.array(sorted(x[:0]))]
    for i, (g, w) in enumerate(zip(got, want)):
        assert_same(g, w, f"result {i}")
    assert_check_error("fn f(m: f64[r, c]) -> f64[?, ?] { return np.array(sorted(m)); }\n", "E0302",
                       "the truth value of an array is ambiguous", tmp_path)


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("case", ["plain", "nan_first", "nan_middle", "ties"])
def test_list_index_of_extreme_matches_python(case, target, tmp_path):
    """`l = x.tolist(); l.index(max(l))` (`min` too) as Python's: the first extreme item, NaN
    never winning unless first; the list a snapshot (a later write into `x` is not seen)."""
    rng = np.random.default_rng(89)
    x = rng.standard_normal(7)
    k = rng.integers(-2, 3, 7)
    if case == "nan_first":
        x[0] = np.nan
    elif case == "nan_middle":
        x[[1, 4]] = np.nan
    elif case == "ties":
        x[[2, 5]] = x.min() - 1.0
    src = """fn main(x: f64[n], k: i64[n]) -> (i64, i64, i64, i64, i64) {
    l = x.tolist();
    kl = k.tolist();
    x[0] = 100.0;
    return (l.index(max(l)), l.index(min(l)), kl.index(max(kl)), kl.index(min(kl)), len(l));
}
"""
    got = run_ok(src, dict(x=x, k=k), tmp_path, target)
    want = python("""
l = x.tolist()
kl = k.tolist()
x[0] = 100.0
return (l.index(max(l)), l.index(min(l)), kl.index(max(kl)), kl.index(min(kl)), len(l))
""", x=x.copy(), k=k)
    for i, (g, w) in enumerate(zip(got, want)):
        assert_same(g, np.asarray(w), f"result {i}")


@pytest.mark.parametrize("target", TARGETS)
def test_linspace_of_float32_bounds_is_float32(target, tmp_path):
    """NumPy's `linspace` dtype is `result_type(start, stop, float)`: `float32` bounds (with a
    Python number too) give `float32`, computed in it (arrayc gave `float64` before)."""
    x32 = np.array([0.1, 2.7, -3.3], np.float32)
    src = """fn main(x32: f32[n]) -> (f32[?], f32[?], f32[?], f64[?], f32[?], f32[?], f32[?]) {
    return (np.linspace(x32[0], x32[1], 7), np.linspace(x32[2], 1, 5), np.linspace(x32[0], 1.5, 4), np.linspace(0, 1, 3),
            np.linspace(x32[0], x32[1], 6, endpoint=False), np.linspace(x32[1], x32[1], 1), np.linspace(x32[0], 2.0 * x32[1] / 1.0, 3) * 1.0);
}
"""
    got = run_ok(src, dict(x32=x32), tmp_path, target)
    want = [np.linspace(x32[0], x32[1], 7), np.linspace(x32[2], 1, 5), np.linspace(x32[0], 1.5, 4), np.linspace(0, 1, 3),
            np.linspace(x32[0], x32[1], 6, endpoint=False), np.linspace(x32[1], x32[1], 1),
            np.linspace(x32[0], 2.0 * x32[1] / 1.0, 3) * 1.0]
    for i, (g, w) in enumerate(zip(got, want)):
        assert_same(g, w, f"result {i}")


@pytest.mark.parametrize("target", TARGETS)
def test_linspace_of_array_bounds_matches_numpy(target, tmp_path):
    """NumPy's `linspace` of array bounds: the samples along a new first axis, the bounds
    broadcast, bit for bit (a zero step among others switches every sample to NumPy's
    `i / div * delta`), without the endpoint, one and no samples, `float32` and integer bounds."""
    rng = np.random.default_rng(97)
    a = rng.standard_normal(3)
    c = rng.standard_normal(3)
    c[1] = a[1]
    m = rng.standard_normal((2, 3))
    a32 = rng.standard_normal(3).astype(np.float32)
    k = rng.integers(-5, 5, 3)
    src = """fn main(a: f64[n], c: f64[n], m: f64[r, n], a32: f32[n], k: i64[n]) -> (f64[?, ?], f64[?, ?], f64[?, ?], f64[?, ?],
        f64[?, ?], f64[?, ?, ?], f32[?, ?], f64[?, ?], f64[?, ?]) {
    return (np.linspace(a, c, 5), np.linspace(np.zeros(3), np.ones(3) * 2, 5), np.linspace(0, c, 4, endpoint=False),
            np.linspace(a, 1.0, 1), np.linspace(a, c, 0), np.linspace(m, m[0], 3), np.linspace(a32, 1, 4),
            np.linspace(k, 2 * k, 3), np.linspace(a, c, 6, endpoint=False));
}
"""
    got = run_ok(src, dict(a=a, c=c, m=m, a32=a32, k=k), tmp_path, target)
    want = [np.linspace(a, c, 5), np.linspace(np.zeros(3), np.ones(3) * 2, 5), np.linspace(0, c, 4, endpoint=False),
            np.linspace(a, 1.0, 1), np.linspace(a, c, 0), np.linspace(m, m[0], 3), np.linspace(a32, 1, 4),
            np.linspace(k, 2 * k, 3), np.linspace(a, c, 6, endpoint=False)]
    for i, (g, w) in enumerate(zip(got, want)):
        assert_same(g, w, f"result {i}")
    assert_check_error("fn f(a: f64[3], b: f64[4]) -> f64[?, ?] { return np.linspace(a, b, 5); }\n", "E0401",
                       "do not broadcast", tmp_path)


@pytest.mark.parametrize("target", TARGETS)
def test_linspace_axis_matches_numpy(target, tmp_path):
    """`linspace(.., axis=k)`: the samples moved to axis `k` (negative from the end), as NumPy's."""
    rng = np.random.default_rng(101)
    a, c, m = rng.standard_normal(3), rng.standard_normal(3), rng.standard_normal((2, 3))
    src = """fn main(a: f64[n], c: f64[n], m: f64[r, n]) -> (f64[?, ?], f64[?, ?, ?], f64[?, ?, ?], f64[?], f64[?, ?]) {
    return (np.linspace(a, c, 4, axis=1), np.linspace(m, m[0], 3, axis=-1), np.linspace(m, 0.0, 5, axis=1),
            np.linspace(0.0, 1.0, 3, axis=-1), np.linspace(a, c, 4, axis=-1) * 2.0);
}
"""
    got = run_ok(src, dict(a=a, c=c, m=m), tmp_path, target)
    want = [np.linspace(a, c, 4, axis=1), np.linspace(m, m[0], 3, axis=-1), np.linspace(m, 0.0, 5, axis=1),
            np.linspace(0.0, 1.0, 3, axis=-1), np.linspace(a, c, 4, axis=-1) * 2.0]
    for i, (g, w) in enumerate(zip(got, want)):
        assert_same(g, w, f"result {i}")
    assert_check_error("fn f(a: f64[3]) -> f64[?, ?] { return np.linspace(a, 1.0, 5, axis=2); }\n", "E0405",
                       "out of range", tmp_path)


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("n", [0, 4])
def test_loop_variable_after_the_loop_as_python(n, target, tmp_path):
    """Python's `for` variable is the function's: bound before, it keeps the last value (arrayc
    left the old value before: a wrong result), or the old one after no iteration; read after
    without a binding before, it is the last value (`break` included), a run-time error where the
    loop ran none; a comprehension's variable stays its own."""
    x = np.random.default_rng(103).standard_normal(6)
    src = """fn main(n: i64, x: f64[k]) -> (i64, i64, f64, i64) {
    i = 5;
    for i in range(n) {
        y = 1;
    }
    s = 0.0;
    for m in range(10, 0, -3) {
        s += m;
    }
    t = 7;
    w = [t for t in range(2)];
    for j in range(3) {
        if x[j] > 100.0 {
            break;
        }
    }
    return (i, m, s + j, t);
}
"""
    got = run_ok(src, dict(n=np.int64(n), x=x), tmp_path, target)
    want = python("""
i = 5
for i in range(n):
    y = 1
s = 0.0
for m in range(10, 0, -3):
    s += m
t = 7
w = [t for t in range(2)]
for j in range(3):
    if x[j] > 100.0:
        break
return (i, m, s + j, t)
""", n=n, x=x)
    for i, (g, w) in enumerate(zip(got, want)):
        assert_same(g, np.asarray(w), f"result {i}")
    src = "fn main(n: i64) -> i64 {\n    for it in range(n) {\n        y = 1;\n    }\n    return it;\n}\n"
    if n == 0:
        run_fails(src, {"n": np.int64(n)}, tmp_path, "UnboundLocalError")
    else:
        assert_same(run_ok(src, {"n": np.int64(n)}, tmp_path, target)[0], np.int64(n - 1), "it")

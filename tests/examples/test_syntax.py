"""NumPy's everyday syntax (issue 31), each compared with NumPy: the operators `//`, `^`, `<<`, `>>`,
`&`, `|`, `~` on integers (and their augmented forms), on the CPU and on the emulated GPU target.

Every operator on every dtype and edge value, on the CPU, is in `test_ops.py`; here the same
comparison runs on `--target gpu-emulated` (and `gpu` where there is one), and the operators
are combined as a NumPy user writes them (precedence, fusion, in-place forms)."""
import numpy as np
import pytest

from arrayc_examples import TARGETS, assert_check_error, assert_run_time_error, assert_same, check_source, run_ok, run_source
from test_ops import BINARY, UNARY, run_cases

NEW_BINARY = [row for row in BINARY if row[0].split()[1] in ("//", "^", "<<", ">>", "&", "|")]
NEW_UNARY = [row for row in UNARY if row[0].startswith("~")]


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("dt", ["f64", "f32", "i64", "i32", "bool"])
def test_new_operators_match_numpy_on_every_target(dt, target, tmp_path):
    """`//` (all dtypes), `^ << >> & |` and `~` (integers and bools) on the kernel and host paths of
    `target`, every pair of edge values (zero divisors, negative operands, shift counts outside
    0..63 or 0..31, i64 and i32 extremes), against NumPy bit for bit."""
    for sub, table, unary in (("bin", NEW_BINARY, False), ("un", NEW_UNARY, True)):
        if unary and dt in ("f64", "f32"):
            continue  # `~` of a float is an error, as NumPy's TypeError
        (tmp_path / sub).mkdir()
        run_cases(dt, table, unary, tmp_path / sub, ("--target", target))


@pytest.mark.parametrize("target", TARGETS)
def test_operators_combine_with_pythons_precedence(target, tmp_path):
    """A fused expression of the new operators, with Python's precedence among them (`|` < `^` < `&`
    < shifts < `+`), the floor-division identity `a == (a // b) * b + a % b`, and the augmented
    forms `//=`, `%=`, `^=`, `<<=`, `>>=`, `&=`, `|=` on arrays and scalars."""
    rng = np.random.default_rng(31)
    a = rng.integers(-1000, 1000, 257)
    b = rng.integers(-9, 10, 257)
    b[b == 0] = 3
    x = rng.standard_normal(257) * 10
    src = """fn main(a: i64[N], b: i64[N], x: f64[N]) -> (i64[N], i64[N], i64[N], f64[N], i64[N], i64) {
    let p = a | b ^ a & 7 << 2 + 1 >> 1;
    let ident = (a // b) * b + a % b;
    let c = copy(a);
    c //= b;
    c %= 7;
    c ^= a;
    c <<= 3;
    c >>= 1;
    c &= 255;
    c |= 1024;
    let d = -x // 0.75;
    let s = 0;
    for i in 0..N { s ^= a[i] // 3 << 1; }
    return (p, ident, c, d, ~a, s);
}
"""
    proc, res = run_source(src, {"a": a, "b": b, "x": x}, tmp_path, flags=("--target", target))
    assert proc.returncode == 0, proc.stderr
    c = a.copy()
    c //= b
    c %= 7
    c ^= a
    c <<= 3
    c >>= 1
    c &= 255
    c |= 1024
    s = 0
    for v in a:
        s ^= int(v) // 3 << 1
    want = [a | b ^ a & 7 << 2 + 1 >> 1, a, c, -x // 0.75, ~a, s]
    for got, w in zip(res, want):
        w = np.asarray(w)
        assert got.dtype == w.dtype
        np.testing.assert_array_equal(got, w)


@pytest.mark.parametrize("target", TARGETS)
def test_float_literals_and_named_constants_match_numpy(target, tmp_path):
    """`9.`, `1.e2`, and `pi`, `e`, `inf`, `nan` as NumPy's `np.pi`, ... (Python floats: weak, so an
    `f32` array times `pi` stays `f32`), in kernels and on the host; a variable named `e` shadows
    the constant."""
    x = np.linspace(-2, 2, 101).astype(np.float32)
    src = """fn main(x: f32[N]) -> (f32[N], f64[N], f64, f64, bool, f64) {
    let y = x * pi + 9.;
    let z = where(f64(x) > 1.e0, inf, -inf) + where(x > 1.5, nan, 0.0);
    let s = pi + e;
    let m = 0.0;
    for i in 0..N { m = maximum(m, f64(x[i]) * e); }
    let e = 2.;
    return (y, z, s, m, isnan(nan), e);
}
"""
    proc, res = run_source(src, {"x": x}, tmp_path, flags=("--target", target))
    assert proc.returncode == 0, proc.stderr
    want = [
        x * np.pi + 9.0,
        np.where(x.astype(np.float64) > 1e0, np.inf, -np.inf) + np.where(x > 1.5, np.nan, 0.0),
        np.pi + np.e,
        np.max(x.astype(np.float64) * np.e),
        np.isnan(np.nan),
        2.0,
    ]
    for got, w in zip(res, want):
        w = np.asarray(w)
        assert got.dtype == w.dtype, (got.dtype, w.dtype)
        np.testing.assert_array_equal(got, w)


@pytest.mark.parametrize("target", TARGETS)
def test_attributes_and_methods_match_numpy(target, tmp_path):
    """`x.shape[k]` (negative `k` too), `x.ndim`, `x.size`, `len(x)` as NumPy's (known statically
    here, and read at run time for a filter's result), and the method forms of the reductions,
    scans, arg-reductions, `astype` and `copy`, each against NumPy's method of the same name."""
    rng = np.random.default_rng(7)
    x = rng.standard_normal((5, 7))
    src = """fn main(x: f64[N, M]) -> (i64, i64, i64, i64, i64, i64, f64, f64[M], f64, f64, f64[N], f64, i64, i64[M], f64[N, M], f32[N, M], f64[N, M]) {
    let p = x[x > 0.0];
    let c = x.copy();
    c[0, 0] = 100.0;
    return (x.shape[0], x.shape[-1], x.ndim, x.size, len(x), len(p) + p.size + p.shape[0],
            x.sum(), x.sum(axis=0), x.mean(), x.max(), x.min(axis=1), x.prod(), x.argmin(),
            x.argmax(axis=0), x.cumsum(axis=1), x.astype(f32), x);
}
"""
    proc, res = run_source(src, {"x": x}, tmp_path, flags=("--target", target))
    assert proc.returncode == 0, proc.stderr
    p = x[x > 0.0]
    want = [x.shape[0], x.shape[-1], x.ndim, x.size, len(x), len(p) + p.size + p.shape[0],
            x.sum(), x.sum(axis=0), x.mean(), x.max(), x.min(axis=1), x.prod(), x.argmin(),
            x.argmax(axis=0), x.cumsum(axis=1), x.astype(np.float32), x]
    for i, (got, w) in enumerate(zip(res, want)):
        w = np.asarray(w)
        assert got.dtype == w.dtype, (i, got.dtype, w.dtype)
        np.testing.assert_allclose(got, w, rtol=1e-12, err_msg=f"result {i}")


@pytest.mark.parametrize("target", ["cpu", "gpu-emulated"])
def test_for_range_matches_python(target, tmp_path):
    """`for i in range(n)`, `range(a, b)`, `range(a, b, step)` with positive, negative, run-time
    steps and empty ranges visit Python's `range`'s values in its order (each loop records them
    into an array; the arrays are compared with Python's), and a zero step given at run time is
    Python's ValueError, naming the line."""
    cases = [(5,), (2, 6), (10, 0, -3), (0, 7, 2), (7, 0, -2), (3, 2), (-4, 4, 3), (0, -5, -1), (5, 5, -1)]
    lines, rets = [], []
    for k, args in enumerate(cases):
        header = ", ".join(str(a) if j < 2 or len(args) < 3 else f"s{k}" for j, a in enumerate(args))
        lines.append(f"    let r{k} = full(12, -99);\n    let n{k} = 0;\n"
                     f"    for i in range({header}) {{ r{k}[n{k}] = i; n{k} += 1; }}")
        rets.append(f"r{k}")
    params = ", ".join(f"s{k}: i64 = {args[2]}" for k, args in enumerate(cases) if len(args) == 3)
    src = (f"fn main({params}) -> ({', '.join(['i64[12]'] * len(cases))}) {{\n" + "\n".join(lines)
           + f"\n    return ({', '.join(rets)});\n}}\n")
    proc, res = run_source(src, {}, tmp_path, flags=("--target", target))
    assert proc.returncode == 0, proc.stderr
    for args, got in zip(cases, res):
        want = np.full(12, -99)
        vals = list(range(*args))
        want[: len(vals)] = vals
        np.testing.assert_array_equal(got, want, err_msg=f"range{args}")
    bad = "fn main(s: i64 = 0) -> i64 {\n    let t = 0;\n    for i in range(0, 3, s) { t += i; }\n    return t;\n}\n"
    proc, _ = run_source(bad, {}, tmp_path / "zero", flags=("--target", target))
    assert proc.returncode == 1 and "prog.arr:3:" in proc.stderr, proc.stderr
    with pytest.raises(ValueError) as err:
        range(0, 3, 0)
    assert str(err.value) in proc.stderr, proc.stderr


@pytest.mark.parametrize("target", ["cpu", "gpu-emulated"])
def test_tuple_loops_and_tuple_comparisons_match_python(target, tmp_path):
    """`for a in (-1, 0, 1)` (a tuple of number literals, as a list) and Python's comparison of
    tuples written out: `(a, b) != (0, 0)` is `a != 0 or b != 0`, `==` all equal, tuples of
    different lengths never equal (Conway's neighbour sum, as NumPy code writes it)."""
    src = """fn main(g: i64[R, C]) -> (i64[R, C], i64, bool, bool) {
    let n = zeros_like(g);
    let hits = 0;
    for a in (-1, 0, 1) {
        for b in (-1, 0, 1) {
            if (a, b) != (0, 0) {
                n += roll(roll(g, a, 0), b, 1);
            }
            if (a, b) == (1, -1) { hits += 10; }
        }
    }
    return (n, hits, (1, 2) == (1, 2, 3), (1, 2) != (1, 2, 3));
}
"""
    g = (np.arange(30).reshape(5, 6) % 3 == 0).astype(np.int64)
    proc, res = run_source(src, {"g": g}, tmp_path, flags=("--target", target))
    assert proc.returncode == 0, proc.stderr
    n = sum(np.roll(np.roll(g, a, 0), b, 1) for a in (-1, 0, 1) for b in (-1, 0, 1) if (a, b) != (0, 0))
    hits = sum(10 for a in (-1, 0, 1) for b in (-1, 0, 1) if (a, b) == (1, -1))
    np.testing.assert_array_equal(res[0], n)
    assert (int(res[1]), bool(res[2]), bool(res[3])) == (hits, (1, 2) == (1, 2, 3), (1, 2) != (1, 2, 3))


@pytest.mark.parametrize("update", ["total += row;", "total = total + row;"])
def test_a_scalar_rebound_to_an_array_says_how_to_declare_it(update, tmp_path):
    """`total = 0` then `total += row` (Python rebinds `total` to an array): E0303 whose help is
    the declaration to write, of the array's shape and dtype."""
    src = f"fn main(x: f64[R, C]) -> f64[C] {{\n    let total = 0;\n    for row in x {{\n        {update}\n    }}\n    return total;\n}}\n"
    proc = check_source(src, tmp_path)
    assert proc.returncode == 1 and "E0303" in proc.stderr, proc.stderr
    assert "`total = zeros((C,), dtype=f64)`" in proc.stderr and "panicked" not in proc.stderr, proc.stderr


@pytest.mark.parametrize("target", ["cpu", "gpu-emulated"])
def test_unpacking_an_array_matches_numpy(target, tmp_path):
    """Python's unpacking of an array along its first axis (`x, y = pts.T`, `let (a, b) = m;`):
    rows of a 2-d array as views (a write through one shows in the array, as in NumPy), the elements
    of a 1-d array as scalars, a first axis of run-time size checked then (NumPy's ValueError)."""
    src = """fn main(m: f64[2, 3], pts: f64[N, 2], q: f64[K, 3]) -> (f64[3], f64[N], f64, f64[K, 3], f64[3]) {
    let (r0, r1) = q;
    let (a, b) = m;
    x, y = pts.T;
    let (s, t) = m[0, :2];
    r0[0] = 100.0;
    return (a - b, x * y + 1.0, s + t, q, r1 * 2.0);
}
"""
    m = np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    pts = np.arange(8.0).reshape(4, 2)
    q = np.array([[1.0, -2.0, 3.5], [0.5, 4.0, -1.0]])
    proc, res = run_source(src, {"m": m, "pts": pts, "q": q}, tmp_path, flags=("--target", target))
    assert proc.returncode == 0, proc.stderr
    a, b = m
    x, y = pts.T
    s, t = m[0, :2]
    w = q.copy()
    r0, r1 = w
    r0[0] = 100.0
    for k, (got, want) in enumerate(zip(res, [a - b, x * y + 1.0, s + t, w, r1 * 2.0])):
        np.testing.assert_array_equal(got, want, err_msg=f"result {k}")
    (tmp_path / "err").mkdir()
    assert_run_time_error(src, {"m": m, "pts": pts, "q": np.zeros((3, 3))},
                          "cannot unpack an array of 3 items along its first axis into 2 names", tmp_path / "err")
    proc = check_source("fn main(m: f64[3, 2]) -> f64[2] {\n    let (a, b) = m;\n    return a;\n}\n", tmp_path)
    assert proc.returncode == 1 and "E0309" in proc.stderr and "an array of 3 along its first axis" in proc.stderr, \
        proc.stderr


@pytest.mark.parametrize("target", ["cpu", "gpu-emulated"])
def test_tuple_assignment_matches_python(target, tmp_path):
    """Python's tuple assignment: the right side is evaluated first (a swap, a Fibonacci step),
    element swaps through subscripts, a call's results, and NumPy's behaviour when the values are
    views (`x[0], x[1] = x[1], x[0]` leaves both rows equal in NumPy too)."""
    x = np.arange(12.0).reshape(4, 3)
    v = np.array([5, 1, 4, 2, 3])
    src = """fn step(a: i64, b: i64) -> (i64, i64) { return (b, a + b); }
fn main(x: f64[4, 3], v: i64[5]) -> (i64, i64, i64, i64, i64[5], f64[4, 3], f64, f64) {
    let a = 0;
    let b = 1;
    for i in range(10) { a, b = b, a + b; }
    let c = 3;
    let d = 4;
    (c, d) = step(c, d);
    for i in range(1, 5) {
        for j in range(4, i - 1, -1) {
            if v[j - 1] > v[j] { v[j - 1], v[j] = v[j], v[j - 1]; }
        }
    }
    x[0], x[1] = x[1], x[0];
    x[2], x[3] = copy(x[3]), copy(x[2]);
    let (p, q) = (x[0, 0], 2.5);
    return (a, b, c, d, v, x, p, q);
}
"""
    proc, res = run_source(src, {"x": x, "v": v}, tmp_path, flags=("--target", target))
    assert proc.returncode == 0, proc.stderr
    a, b = 0, 1
    for _ in range(10):
        a, b = b, a + b
    c, d = 4, 7
    w = v.copy()
    for i in range(1, 5):
        for j in range(4, i - 1, -1):
            if w[j - 1] > w[j]:
                w[j - 1], w[j] = w[j], w[j - 1]
    y = x.copy()
    y[0], y[1] = y[1], y[0]
    y[2], y[3] = y[3].copy(), y[2].copy()
    want = [a, b, c, d, w, y, y[0, 0], 2.5]
    for got, w_ in zip(res, want):
        np.testing.assert_array_equal(got, np.asarray(w_))


@pytest.mark.parametrize("target", ["cpu", "gpu-emulated"])
def test_chained_subscript_targets_match_numpy(target, tmp_path):
    """`p[i][j] = v` and `p[i][j] op= v`: Python reads `p[i]`, then assigns into it, so the write
    reaches `p` where `p[i]` is a view (integers, slices) and is lost where it is a copy (an index
    array or a mask), as in NumPy."""
    src = """fn main(p: f64[4, 4], idx: i64[2]) -> (f64[4, 4], f64[3, 3, 3]) {
    p[1][2] = 5.0;
    p[3][1:][::2] += 2.0;
    p[idx][0] = 100.0;
    p[p > 4.0][0] = -1.0;
    let c = zeros(3, 3, 3);
    for i in range(3) {
        c[i][i][2 - i] = f64(i + 1);
        c[1:][i % 2] *= 2.0;
    }
    return (p, c);
}
"""
    p = np.zeros((4, 4))
    idx = np.array([0, 2])
    proc, res = run_source(src, {"p": p.copy(), "idx": idx}, tmp_path, flags=("--target", target))
    assert proc.returncode == 0, proc.stderr
    p[1][2] = 5.0
    p[3][1:][::2] += 2.0
    p[idx][0] = 100.0
    p[p > 4.0][0] = -1.0
    c = np.zeros((3, 3, 3))
    for i in range(3):
        c[i][i][2 - i] = float(i + 1)
        c[1:][i % 2] *= 2.0
    np.testing.assert_array_equal(res[0], p)
    np.testing.assert_array_equal(res[1], c)
    bad = check_source("fn main(p: f64[4]) -> f64[4] {\n    p[1][2] = 5.0;\n    return p;\n}\n", tmp_path)
    assert bad.returncode == 1 and "E0408" in bad.stderr and "into a scalar" in bad.stderr, bad.stderr
    assert "chain." not in bad.stderr, bad.stderr


@pytest.mark.parametrize("target", ["cpu", "gpu-emulated"])
def test_like_constructors_arange_dtype_and_positional_axis_match_numpy(target, tmp_path):
    """`zeros_like`, `ones_like`, `full_like` (the array's shape and dtype, or `dtype=`; the value
    cast), `arange(..., dtype=)`, and an axis passed positionally as NumPy allows
    (`sum(x, -1)`, `x.sum(0)`, `max(x, 1)`, `concatenate((a, b), 0)`, `take(x, idx, 1)`)."""
    src = """fn main(x: f64[3, 2], k: i32[4], idx: i64[2]) -> (f64[3, 2], i64[3, 2], f32[3, 2], f64[3, 2], i32[4], f64[3], f64[2], f64[3], f32[5], f64[2, 2], f64[3, 2], f64[7]) {
    let e = empty_like(x);
    e[...] = 1.5;
    return (zeros_like(x), ones_like(x, dtype=i64), full_like(x, 2.5, dtype=f32), full_like(x, 7), full_like(k, 3.9),
            sum(x, -1), x.sum(0), max(x, 1), arange(5, dtype=f32), concatenate((x[:1, :], x[2:, :]), 0),
            e * take(x, idx, 1), arange(0.5, 4.0, 0.5, dtype=f64));
}
"""
    x = np.arange(6.0).reshape(3, 2) - 2.5
    k = np.arange(4, dtype=np.int32)
    idx = np.array([1, 0])
    proc, res = run_source(src, {"x": x, "k": k, "idx": idx}, tmp_path, flags=("--target", target))
    assert proc.returncode == 0, proc.stderr
    e = np.full_like(x, 1.5)
    want = [np.zeros_like(x), np.ones_like(x, dtype=np.int64), np.full_like(x, 2.5, dtype=np.float32),
            np.full_like(x, 7), np.full_like(k, 3.9), np.sum(x, -1), x.sum(0), np.max(x, 1),
            np.arange(5, dtype=np.float32), np.concatenate((x[:1, :], x[2:, :]), 0), e * np.take(x, idx, 1),
            np.arange(0.5, 4.0, 0.5, dtype=np.float64)]
    for got, w in zip(res, want):
        assert got.dtype == w.dtype and got.shape == w.shape, (got.dtype, w.dtype, got.shape, w.shape)
        np.testing.assert_array_equal(got, w)
    for body, words in [("return full_like(x, x);", "needs a scalar fill value"),
                        ("return zeros_like(1.0);", "needs an array"),
                        ("let a = arange(3, dtype=bool); return x;", "dtype=bool")]:
        bad = check_source(f"fn main(x: f64[3]) -> f64[3] {{\n    {body}\n}}\n", tmp_path)
        assert bad.returncode == 1 and "E0503" in bad.stderr and words in bad.stderr, bad.stderr


@pytest.mark.parametrize("target", ["cpu", "gpu-emulated"])
def test_numpy_module_spellings_match_numpy(target, tmp_path):
    """NumPy code keeps its `np.` spelling: `np.f(..)`, `np.pi`, `np.float32` as a dtype,
    `np.newaxis` and `None`, `np.add.at(..);` as a statement, sizes as one tuple."""
    src = """fn main(x: f64[8], m: f64[4, 5], k: i64[8]) -> (f64[8], f64[4, 1, 5], f64, f32[8], i32[3], f64[4], f64[5], f64[4, 5, 1], f64[2, 3]) {
    np.add.at(x, k % 3, 1.0);
    let a = m[:, np.newaxis];
    return (x, a, np.pi * 2, x.astype(np.float32), np.zeros(3, dtype=np.int32), np.sum(m, 1), numpy.max(m, axis=0),
            m[..., None], np.full((2, 3), np.e));
}
"""
    x = np.arange(8.0)
    m = np.arange(20.0).reshape(4, 5)
    k = np.arange(8) * 5
    proc, res = run_source(src, {"x": x.copy(), "m": m, "k": k}, tmp_path, flags=("--target", target))
    assert proc.returncode == 0, proc.stderr
    np.add.at(x, k % 3, 1.0)
    want = [x, m[:, np.newaxis], np.float64(np.pi * 2), x.astype(np.float32), np.zeros(3, dtype=np.int32),
            np.sum(m, 1), np.max(m, axis=0), m[..., None], np.full((2, 3), np.e)]
    for got, w in zip(res, want):
        assert got.dtype == w.dtype and got.shape == np.shape(w), (got.dtype, w.dtype)
        np.testing.assert_array_equal(got, w)


@pytest.mark.parametrize("target", ["cpu", "gpu-emulated"])
def test_chained_assignment_matches_python(target, tmp_path):
    """`a = b = e`: `e` evaluated once and assigned to every target left to right (names and
    subscripts); an array is shared, not copied, so a write through one name is seen through the
    other, as in Python; a literal is weak in each target (`x = n = 0`); `let a = b = e` declares."""
    src = """fn main(x: f64[4], y: f64[3]) -> (f64[4], f64[4], f64[3], f64, i64, f64, f64[4]) {
    let a = b = x * 2.0;
    a[0] = -1.0;
    let s = 5.0;
    let n = 3;
    s = n = 0;
    x[1] = y[2] = s + 7.5;
    let c = zeros(4);
    c = b = a + 1.0;
    let u = 1.0;
    let v = u = w = sum(y);
    return (a, b, y, s, n, v, c);
}
"""
    x = np.arange(4.0)
    y = np.ones(3)
    proc, res = run_source(src, {"x": x.copy(), "y": y.copy()}, tmp_path, flags=("--target", target))
    assert proc.returncode == 0, proc.stderr
    a = b = x * 2.0
    a[0] = -1.0
    s = 5.0
    n = 3
    s = n = 0
    x[1] = y[2] = s + 7.5
    c = b = a + 1.0
    u = 1.0
    v = u = w = np.sum(y)
    assert (u, w) == (v, v)
    want = [a, b, y, float(s), n, v, c]
    for got, w_ in zip(res, want):
        np.testing.assert_array_equal(got, np.asarray(w_))
    bad = check_source("fn main(x: f64[3]) {\n    let a = x[0] = 1.0;\n}\n", tmp_path)
    assert bad.returncode == 1 and "E0107" in bad.stderr and "declare each name" in bad.stderr, bad.stderr


@pytest.mark.parametrize("target", ["cpu", "gpu-emulated"])
def test_for_over_arrays_matches_python(target, tmp_path):
    """`for v in x` iterates axis 0 as Python does: scalars of a 1-d array, view rows of a 2-d one
    (a write into the row reaches `x`); over an array literal and over an expression evaluated once."""
    src = """fn main(x: f64[5], m: f64[3, 4]) -> (f64, f64[4], f64[3, 4], i64, f64) {
    let s = 0.0;
    for v in x { s += v * v; }
    let acc = zeros(4);
    for row in m {
        acc += row;
        row[0] = 9.0;
    }
    let t = 0;
    for k in [0, 2, 4] { t = t * 10 + k; }
    let p = 1.0;
    for q in x[1:] * 2.0 { p *= q; }
    return (s, acc, m, t, p);
}
"""
    x = np.linspace(0.5, 2.5, 5)
    m = np.arange(12.0).reshape(3, 4)
    proc, res = run_source(src, {"x": x, "m": m.copy()}, tmp_path, flags=("--target", target))
    assert proc.returncode == 0, proc.stderr
    s = 0.0
    for v in x:
        s += v * v
    acc = np.zeros(4)
    for row in m:
        acc += row
        row[0] = 9.0
    t = 0
    for k in [0, 2, 4]:
        t = t * 10 + k
    p = 1.0
    for q in x[1:] * 2.0:
        p *= q
    for got, w in zip(res, [s, acc, m, t, p]):
        np.testing.assert_allclose(got, np.asarray(w), rtol=1e-15)


@pytest.mark.parametrize("target", ["cpu", "gpu-emulated"])
def test_ufunc_methods_match_numpy(target, tmp_path):
    """`add.reduce` & co. with NumPy's default axis 0 (not `sum`'s all axes), positional and keyword
    axes, `accumulate`, `add.at`; a ufunc method arrayc lacks is E0108 naming the arrayc way."""
    src = """fn main(x: f64[3, 4], b: bool[3, 4], idx: i64[5]) -> (f64[4], f64[3], f64[4], f64[3], f64[4], bool[4], bool[3], f64[3, 4], f64[3, 4], f64[6]) {
    let h = zeros(6);
    add.at(h, idx, 1.5);
    return (add.reduce(x), add.reduce(x, 1), multiply.reduce(x), maximum.reduce(x, axis=1), minimum.reduce(x),
            logical_and.reduce(b), logical_or.reduce(b, -1), add.accumulate(x), multiply.accumulate(x, 1), h);
}
"""
    rng = np.random.default_rng(31)
    x = rng.standard_normal((3, 4))
    b = x > -0.5
    idx = np.array([0, 5, 0, 2, 5])
    proc, res = run_source(src, {"x": x, "b": b, "idx": idx}, tmp_path, flags=("--target", target))
    assert proc.returncode == 0, proc.stderr
    h = np.zeros(6)
    np.add.at(h, idx, 1.5)
    want = [np.add.reduce(x), np.add.reduce(x, 1), np.multiply.reduce(x), np.maximum.reduce(x, axis=1),
            np.minimum.reduce(x), np.logical_and.reduce(b), np.logical_or.reduce(b, -1), np.add.accumulate(x),
            np.multiply.accumulate(x, 1), h]
    for got, w in zip(res, want):
        assert got.shape == w.shape and got.dtype == w.dtype, (got.shape, w.shape, got.dtype, w.dtype)
        np.testing.assert_allclose(got, w, rtol=1e-14)
    bad = check_source("fn main(x: f64[3]) -> f64 {\n    return subtract.reduce(x);\n}\n", tmp_path)
    assert bad.returncode == 1 and "E0108" in bad.stderr and "add.reduce" in bad.stderr, bad.stderr


@pytest.mark.parametrize("target", ["cpu", "gpu-emulated"])
def test_conditional_expressions_match_python(target, tmp_path):
    """`a if c else b`: Python's precedence (loosest, right-nested), the promotion of two scalars,
    arrays, and only the chosen branch evaluated (an out-of-bounds index or a call that prints in
    the other branch has no effect); an array condition is an error naming `where(c, a, b)`."""
    src = """fn noisy(v: f64) -> f64 {
    print(777);
    return v;
}

fn main(x: f64[4], ks: i64[1]) -> (f64, f64, f64[4], f64, f64[4], i64, f64) {
    let n = len(x) - 1;
    let a = 1.0 if n > 0 else 2.0;
    let b = n if n < 0 else 0.5;
    let c = x * 2.0 if n > 2 else x - 1.0;
    let idx = ks[0];
    let d = x[idx] if idx < 4 else -1.0;
    let e = (x if n > 5 else -x) + 1.0;
    let f = 1 if n > 5 else 2 if n > 1 else 3;
    let g = noisy(5.0) if n < 0 else noisy(6.0);
    return (a, b, c, d, e, f, g);
}
"""
    x = np.array([0.5, -1.0, 2.0, 3.5])
    proc, res = run_source(src, {"x": x, "ks": np.array([10])}, tmp_path, flags=("--target", target))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.count("777") == 1, proc.stdout
    n = len(x) - 1
    idx = 10
    want = [1.0 if n > 0 else 2.0, n if n < 0 else 0.5, x * 2.0 if n > 2 else x - 1.0,
            x[idx] if idx < 4 else -1.0, (x if n > 5 else -x) + 1.0, 1 if n > 5 else 2 if n > 1 else 3, 6.0]
    for got, w in zip(res, want):
        np.testing.assert_array_equal(got, np.asarray(w))
    for body, code, words in [("return 1.0 if x > 0.0 else 2.0;", "E0302", "where(c, a, b)"),
                              ("return x if len(x) > 1 else 2.0;", "E0316", "branches of `a if c else b`")]:
        bad = check_source(f"fn main(x: f64[3]) -> f64 {{\n    {body}\n}}\n", tmp_path)
        assert bad.returncode == 1 and code in bad.stderr and words in bad.stderr, bad.stderr


@pytest.mark.parametrize("target", ["cpu", "gpu-emulated"])
def test_pythons_boolean_operators_elif_and_shape_unpacking_match_python(target, tmp_path):
    """Python's `and`, `or`, `not` (their precedence: `not` > `and` > `or`, all looser than the
    comparisons), short-circuiting (an out-of-bounds index or a printing call on the side not taken
    has no effect), `True`/`False`, `elif` chains, `**=`, and `let (n, m) = x.shape;` / `n, m =
    x.shape;`, the same code run by Python and NumPy; array operands and wrong counts are errors."""
    src = """fn noisy(b: bool) -> bool {
    print(777);
    return b;
}

fn grade(s: f64) -> i64 {
    let g = 0;
    if s >= 0.9 { g = 4; } elif s >= 0.7 { g = 3; } elif s >= 0.5 { g = 2; } else { g = 1; }
    return g;
}

fn main(x: f64[3, 4], k: i64 = 7) -> (bool, bool, bool, bool, bool, bool, i64, i64, i64, f64[3, 4], f64) {
    let (n, m) = x.shape;
    let r = 0;
    let c = 0;
    r, c = x.shape;
    let a = k < n and x[k, 0] > 0.0;
    let b = k >= n or x[k, 0] > 0.0;
    let t = not k > 2 and True or False;
    let u = not (k > 2 and True or False);
    let v = noisy(False) and noisy(True);
    let w = noisy(True) or noisy(False);
    let g = grade(x[0, 0]) * 1000 + grade(x[1, 1]) * 100 + grade(x[2, 2]) * 10 + grade(0.1);
    let p = 2.0;
    p **= 3;
    let y = x.copy();
    y **= 2;
    while not (r <= 0) and c > 0 {
        r -= 1;
    }
    return (a, b, t, u, v, w, n * 10 + m, r * 10 + c, g, y, p);
}
"""
    x = np.array([[0.95, -1.0, 2.0, 3.5], [0.1, 0.75, 0.2, -0.3], [1.5, 2.5, 0.55, 0.0]])
    k = 7
    proc, res = run_source(src, {"x": x}, tmp_path, flags=("--target", target))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.count("777") == 2, proc.stdout  # the left operand of `v` and of `w` only

    def grade(s):
        return 4 if s >= 0.9 else 3 if s >= 0.7 else 2 if s >= 0.5 else 1

    n, m = x.shape
    r, c = x.shape
    while not (r <= 0) and c > 0:
        r -= 1
    want = [k < n and x[k, 0] > 0.0, k >= n or x[k, 0] > 0.0, not k > 2 and True or False,
            not (k > 2 and True or False), False and True, True or False, n * 10 + m, r * 10 + c,
            grade(x[0, 0]) * 1000 + grade(x[1, 1]) * 100 + grade(x[2, 2]) * 10 + grade(0.1), x ** 2, 8.0]
    for got, w in zip(res, want):
        np.testing.assert_array_equal(got, np.asarray(w))
    for body, code, words in [("return x > 0.0 and x < 1.0;", "E0302", "write `&`"),
                              ("return not x;", "E0302", "write `~`"),
                              ("return len(x) or True;", "E0302", "`x != 0`"),
                              ("let (a, b) = x.shape; return a > b;", "E0309", "1 size of `.shape` into 2 names")]:
        bad = check_source(f"fn main(x: f64[3]) -> bool {{\n    {body}\n}}\n", tmp_path)
        assert bad.returncode == 1 and code in bad.stderr and words in bad.stderr, bad.stderr


@pytest.mark.parametrize("target", ["cpu", "gpu-emulated"])
def test_for_enumerate_and_zip_match_python(target, tmp_path):
    """`for k, v in enumerate(x)`, `enumerate(x, start)`, `for (a, b) in zip(x, y)` with arrays of
    different lengths (the shortest wins) and three arrays, rows of a 2-d array as views (writes
    reach the array), `break`/`continue` inside; the same loops in Python. Several names over
    anything else is E0110."""
    src = """fn main(x: f64[6], i: i64[4], m: f64[3, 2]) -> (f64, f64, f64, f64, i64, f64[3, 2]) {
    let a = 0.0;
    for k, v in enumerate(x) { a += k * v; }
    let b = 0.0;
    for (k, v) in enumerate(x[1:], 10) { b += k * v; }
    let c = 0.0;
    for u, w in zip(x, i) { c += u * w; }
    let d = 0.0;
    for (u, w, z) in zip(x[::-1], i, x) { d += u * w - z; }
    let s = 0;
    for k, v in enumerate(i) {
        if k == 1 { continue; }
        if v > 5 { break; }
        s += v * (k + 1);
    }
    for r, row in enumerate(m) { row[:] = row * r; }
    return (a, b, c, d, s, m);
}
"""
    x = np.array([0.5, -1.0, 2.0, 3.5, -2.25, 1.0])
    i = np.array([3, 9, 4, 7])
    m = np.arange(6.0).reshape(3, 2)
    proc, res = run_source(src, {"x": x, "i": i, "m": m}, tmp_path, flags=("--target", target))
    assert proc.returncode == 0, proc.stderr
    s = 0
    for k, v in enumerate(i):
        if k == 1:
            continue
        if v > 5:
            break
        s += v * (k + 1)
    mm = m.copy()
    for r, row in enumerate(mm):
        row[:] = row * r
    want = [sum(k * v for k, v in enumerate(x)), sum(k * v for k, v in enumerate(x[1:], 10)),
            sum(u * w for u, w in zip(x, i)), sum(u * w - z for u, w, z in zip(x[::-1], i, x)), s, mm]
    for got, w in zip(res, want):
        np.testing.assert_allclose(got, np.asarray(w), rtol=1e-15)
    for body in ["for a, b in x { print(a); }", "for a, b in zip(x) { print(a); }",
                 "for a, b, c in enumerate(x) { print(a); }"]:
        bad = check_source(f"fn main(x: f64[3]) {{\n    {body}\n}}\n", tmp_path)
        assert bad.returncode == 1 and "E0110" in bad.stderr and "enumerate(x)" in bad.stderr, bad.stderr


@pytest.mark.parametrize("target", ["cpu", "gpu-emulated"])
def test_string_keyword_values_match_numpy(target, tmp_path):
    """NumPy's string spellings of keyword values, double and single quoted: `mode="same"`,
    `mode='valid'`, `method="linear"`, `side="right"`, `dtype="float32"`/`"int32"`; a string
    anywhere else is E0317, an unknown word keeps its builtin's error."""
    src = """fn main(a: f64[7], v: f64[3]) -> (f64[7], f64[5], f64, i64, f32[3], i32[2]) {
    let s = np.convolve(a, v, mode="same");
    let w = np.convolve(a, v, mode='valid');
    let p = np.percentile(a, 40, method="linear");
    let k = np.searchsorted(np.sort(a), 0.5, side="right");
    return (s, w, p, k, np.zeros(3, dtype="float32"), np.ones(2, dtype='int32'));
}
"""
    a = np.array([0.5, -1.0, 2.0, 3.5, -2.25, 1.0, 0.5])
    v = np.array([1.0, -2.0, 0.25])
    proc, res = run_source(src, {"a": a, "v": v}, tmp_path, flags=("--target", target))
    assert proc.returncode == 0, proc.stderr
    want = [np.convolve(a, v, mode="same"), np.convolve(a, v, mode="valid"), np.percentile(a, 40, method="linear"),
            np.searchsorted(np.sort(a), 0.5, side="right"), np.zeros(3, dtype="float32"), np.ones(2, dtype="int32")]
    for got, w in zip(res, want):
        assert got.dtype == np.asarray(w).dtype
        np.testing.assert_allclose(got, w, rtol=1e-15)
    for body, code, words in [('let s = "x =";', "E0317", "a string literal"),
                              ('print(np.convolve(a, a, mode="nope"));', "E0503", "`mode=`")]:
        bad = check_source(f"fn main(a: f64[3]) {{\n    {body}\n}}\n", tmp_path)
        assert bad.returncode == 1 and code in bad.stderr and words in bad.stderr, bad.stderr


@pytest.mark.parametrize("target", ["cpu", "gpu-emulated"])
def test_early_return_matches_python(target, tmp_path):
    """Python's early `return` in `if` branches: `if` without `else` followed by more statements,
    `elif` chains that return, nested `if`s, a `return` with several values, arrays of run-time
    sizes, `return;` in a function without results, statements after a `return` that never run;
    the same functions run by Python. A `return` inside a loop of a function with a result of a size
    `?` is E0905."""
    src = """fn clamp_abs(x: f64) -> f64 {
    if x > 10.0 { return 10.0; }
    if x < -10.0 {
        return -10.0;
    } elif x < 0.0 {
        return -x;
    }
    let y = x * 0.5;
    if y > 2.0 {
        if y > 4.0 { return y * 100.0; }
        return y * 10.0;
    }
    return y;
    print(555);
}

fn diffs(v: f64[?]) -> (f64[?], i64) {
    if len(v) < 3 { return (v * 0.0, 0); }
    let w = v[1:] - v[:-1];
    for i in range(2) { w += 1.0; }
    return (w, 1);
}

fn report(k: i64) {
    if k < 0 {
        print(-1);
        return;
    }
    print(k * 2);
}

fn main(xs: f64[9], a: f64[5], b: f64[2]) -> (f64[9], f64[4], i64, f64[2], i64) {
    let out = zeros(9);
    for i in range(9) { out[i] = clamp_abs(xs[i]); }
    let (w1, k1) = diffs(a);
    let (w2, k2) = diffs(b);
    report(-3);
    report(4);
    return (out, w1, k1, w2, k2);
}
"""

    def clamp_abs(x):
        if x > 10.0:
            return 10.0
        if x < -10.0:
            return -10.0
        elif x < 0.0:
            return -x
        y = x * 0.5
        if y > 2.0:
            if y > 4.0:
                return y * 100.0
            return y * 10.0
        return y

    def diffs(v):
        if len(v) < 3:
            return v * 0.0, 0
        w = v[1:] - v[:-1]
        for _ in range(2):
            w += 1.0
        return w, 1

    xs = np.array([12.0, -11.0, -3.5, 0.0, 1.5, 5.0, 9.0, 3.0, 7.5])
    a = np.array([1.0, 4.0, 9.0, 16.0, 25.0])
    b = np.array([1.0, 2.0])
    proc, res = run_source(src, {"xs": xs, "a": a, "b": b}, tmp_path, flags=("--target", target))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split()[:2] == ["-1", "8"] and "555" not in proc.stdout, proc.stdout
    want = [np.array([clamp_abs(x) for x in xs]), *diffs(a), *diffs(b)]
    for got, w in zip(res, want):
        np.testing.assert_array_equal(got, np.asarray(w))
    # A `return` in a loop is Python's where the result's type gives its sizes (test_syntax_idioms.py);
    # of a result of a size `?` it is E0905.
    bad = check_source("fn f(x: f64) -> f64[?] {\n    while x > 0.0 { return zeros(2); }\n    return zeros(1);\n}\n",
                       tmp_path)
    assert bad.returncode == 1 and "E0905" in bad.stderr and "inside a loop" in bad.stderr, bad.stderr


@pytest.mark.parametrize("target", ["cpu", "gpu-emulated"])
def test_print_of_strings_matches_python(target, tmp_path):
    """`print` of string literals among values, as Python prints them (separated by spaces, both
    quote styles, non-ASCII text), every argument evaluated before anything is printed."""
    src = """fn noisy(x: f64) -> f64 {
    print("inside");
    return x * 2.0;
}

fn main(v: f64[3]) {
    let it = 3;
    print("iteration", it, "error:", v[0], 'say "hi"');
    print("done");
    print(v, "é ünï", noisy(v[1]));
}
"""
    v = np.array([0.25, -1.5, 2.0])
    proc, _ = run_source(src, {"v": v}, tmp_path, flags=("--target", target))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == ["iteration 3 error: 0.25 say \"hi\"", "done", "inside",
                                        f"{v} é ünï {v[1] * 2.0}"], proc.stdout


@pytest.mark.parametrize("target", ["cpu", "gpu-emulated"])
def test_scalar_types_lists_of_arrays_and_fill_match_numpy(target, tmp_path):
    """`np.float64(3)`, `np.int32(x)`, `np.float32(1) / 3` as casts, `x.astype("float32")`,
    `np.concatenate([a, b], axis=1)`, `np.stack([v, v], 1)`, `np.vstack([..])` with lists, and
    `x.fill(v);`, against NumPy."""
    src = """fn main(x: f64[2, 3], v: f64[3]) -> (f64, i32, f32, f32[2, 3], f64[2, 6], f64[3, 2], f64[2, 3], f64[4]) {
    let a = np.empty(4);
    a.fill(2.5);
    return (np.float64(3) / 2, np.int32(v[2]), np.float32(1) / 3, x.astype("float32"),
            np.concatenate([x, x], axis=1), np.stack([v, v], 1), np.vstack([v, v]), a);
}
"""
    x = np.array([[0.5, -1.0, 2.0], [3.5, -2.25, 1.0]])
    v = np.array([1.0, -2.0, 7.75])
    proc, res = run_source(src, {"x": x, "v": v}, tmp_path, flags=("--target", target))
    assert proc.returncode == 0, proc.stderr
    a = np.empty(4)
    a.fill(2.5)
    want = [np.float64(3) / 2, np.int32(v[2]), np.float32(1) / 3, x.astype("float32"), np.concatenate([x, x], axis=1),
            np.stack([v, v], 1), np.vstack([v, v]), a]
    for got, w in zip(res, want):
        assert got.dtype == np.asarray(w).dtype, (got.dtype, w)
        np.testing.assert_array_equal(got, w)


@pytest.mark.parametrize("target", ["cpu", "gpu-emulated"])
def test_assert_matches_python(target, tmp_path):
    """`assert c;` and `assert c, "message";`: passing asserts change nothing, a failing one stops
    the run with Python's `AssertionError: message` naming its line (no result files); an array
    condition is E0302 naming `all`."""
    ok = """fn main(v: f64[3]) -> f64 {
    assert len(v) == 3;
    assert all(abs(v) < 100.0), "values too large";
    return sum(v);
}
"""
    v = np.array([0.5, -1.0, 2.0])
    proc, res = run_source(ok, {"v": v}, tmp_path, flags=("--target", target))
    assert proc.returncode == 0, proc.stderr
    np.testing.assert_array_equal(res[0], v.sum())
    bad = 'fn main(v: f64[3]) -> f64 {\n    assert v[0] > 5.0, "first value must exceed 5";\n    return sum(v);\n}\n'
    (tmp_path / "bad").mkdir()
    assert_run_time_error(bad, {"v": v}, "AssertionError: first value must exceed 5", tmp_path / "bad")
    arr = check_source("fn main(v: f64[3]) {\n    assert v > 0.0;\n}\n", tmp_path)
    assert arr.returncode == 1 and "E0302" in arr.stderr and "assert all(" in arr.stderr, arr.stderr


@pytest.mark.parametrize("target", ["cpu", "gpu-emulated"])
def test_bool_arithmetic_matches_numpy(target, tmp_path):
    """NumPy's `+` and `*` of bools are logical or and and (bool results, so a sum of masks is a
    mask, not an index array), in place too, of arrays and of scalars; `mask + 1` is an integer;
    `-` of bools is E0301 as NumPy's TypeError."""
    src = """fn main(a: bool[6], b: bool[6], x: f64[6]) -> (bool[6], bool[6], bool, bool[6], bool[6], i64[6], f64[?]) {
    let m = copy(a);
    m += b;
    let n = copy(a);
    n *= b;
    return (a + b, a * b, a[0] + b[1], m, n, a + 1, x[a + b]);
}
"""
    a = np.array([True, False, True, False, False, True])
    b = np.array([False, False, True, True, False, False])
    x = np.arange(6.0) * 1.5
    proc, res = run_source(src, {"a": a, "b": b, "x": x}, tmp_path, flags=("--target", target))
    assert proc.returncode == 0, proc.stderr
    m = a.copy()
    m += b
    n = a.copy()
    n *= b
    want = [a + b, a * b, a[0] + b[1], m, n, a + 1, x[a + b]]
    for got, w in zip(res, want):
        assert got.dtype == np.asarray(w).dtype, (got.dtype, w)
        np.testing.assert_array_equal(got, w)
    bad = check_source("fn main(a: bool[3]) -> bool[3] {\n    return a - a;\n}\n", tmp_path)
    assert bad.returncode == 1 and "E0301" in bad.stderr and "a ^ b" in bad.stderr, bad.stderr


@pytest.mark.parametrize("target", ["cpu", "gpu-emulated"])
def test_operator_ufuncs_as_functions_match_numpy(target, tmp_path):
    """NumPy's operator ufuncs called as functions (`np.add`, `np.true_divide`, `np.remainder`,
    `np.greater_equal`, `np.left_shift`, `np.invert`, ...), bare or with `np.`, and `amax`, `amin`,
    `absolute`, against NumPy: values and dtypes."""
    exprs = ["np.add(v, 1.0)", "np.subtract(i, 1)", "np.multiply(v, 2)", "np.divide(i, 2)", "np.true_divide(i, 4)",
             "np.floor_divide(i, 3)", "np.mod(i, 3)", "np.remainder(v, -0.75)", "np.negative(v)", "np.invert(i)",
             "np.equal(i, 3)", "np.not_equal(i, 3)", "np.less(v, 0)", "np.less_equal(v, 0)", "np.greater(v, 0)",
             "np.greater_equal(v, 0)", "np.bitwise_and(i, 6)", "np.bitwise_or(i, 6)", "np.bitwise_xor(i, 6)",
             "np.left_shift(i, 2)", "np.right_shift(i, 1)", "np.amax(v)", "np.amin(i)", "np.absolute(v)"]
    v = np.array([1.5, -2.25, 0.0, 3.0])
    i = np.array([-7, 3, 0, 5])
    want = [eval(e, {"np": np, "v": v, "i": i}) for e in exprs]
    types = [("bool" if w.dtype == bool else {"float64": "f64", "int64": "i64"}[str(w.dtype)]) + ("[4]" if w.ndim else "")
             for w in map(np.asarray, want)]
    body = ", ".join(e if k % 2 else e.removeprefix("np.") for k, e in enumerate(exprs))
    src = f"fn main(v: f64[4], i: i64[4]) -> ({', '.join(types)}) {{\n    return ({body});\n}}\n"
    proc, res = run_source(src, {"v": v, "i": i}, tmp_path, flags=("--target", target))
    assert proc.returncode == 0, proc.stderr
    for got, w, e in zip(res, want, exprs):
        assert got.dtype == np.asarray(w).dtype, e
        np.testing.assert_array_equal(got, w, err_msg=e)


@pytest.mark.parametrize("target", ["cpu", "gpu-emulated"])
def test_pythons_min_and_max_of_scalars_match_python(target, tmp_path):
    """A bare `min(a, b, ...)` / `max(a, b, ...)` of scalars is Python's builtin: the first value
    unless a later one is smaller (larger), so NaN and signed zeros resolve as Python's; the
    arguments' promoted dtype (an `i32` with a literal stays `i32`); in `range`; `max(x, 1)` of an
    array stays NumPy's axis reduction. An array argument is E0318, a keyword E0502."""
    src = """fn main(x: f64[3, 2], k: i32, n: i64) -> (i64, f64, i32, f64[3], f64, f64, f64, f64, i64, i64) {
    let nan = np.nan;
    let g = 0;
    for i in range(min(n, 4)) { g += i; }
    return (min(n, 3), max(0.5, n - 10, -2.0), min(k, 3), max(x, 1), min(nan, 1.0), min(1.0, nan),
            max(-0.0, 0.0), min(0.0, -0.0), g, max(n - 9, -n, 0 - 3));
}
"""
    x = np.arange(6.0).reshape(3, 2) - 2.5
    proc, res = run_source(src, {"x": x, "k": np.int32(5), "n": 7}, tmp_path, flags=("--target", target))
    assert proc.returncode == 0, proc.stderr
    k, n, nan = np.int32(5), 7, float("nan")
    want = [min(n, 3), max(0.5, n - 10, -2.0), np.int32(min(k, 3)), np.max(x, 1), min(nan, 1.0), min(1.0, nan),
            max(-0.0, 0.0), min(0.0, -0.0), sum(range(min(n, 4))), max(n - 9, -n, 0 - 3)]
    dtypes = [np.int64, np.float64, np.int32, np.float64, np.float64, np.float64, np.float64, np.float64, np.int64,
              np.int64]
    for got, w, d in zip(res, want, dtypes):
        assert got.dtype == d, (got.dtype, d)
        np.testing.assert_array_equal(got, w)
        assert np.signbit(got).tolist() == np.signbit(w).tolist()
    # A scalar parameter's `.npy` is 0-d and of its dtype, else the error names both and the fix.
    proc, _ = run_source(src, {"x": x, "k": np.int64(5), "n": 7}, tmp_path / "wrong", flags=("--target", target))
    assert proc.returncode == 1 and "holds a 0-d i64 array but `k` is a i32 scalar" in proc.stderr, proc.stderr
    assert "numpy.int32(value)" in proc.stderr, proc.stderr
    for body, code, words in [("let a = min(x, x);", "E0318", "np.minimum(a, b)"),
                              ("let a = max(1.0, x);", "E0318", "np.max(x, axis=k)"),
                              ("let a = min(1.0, 2.0, key=3);", "E0502", "no keyword `key`")]:
        bad = check_source(f"fn main(x: f64[3]) -> f64 {{\n    {body}\n    return 0.0;\n}}\n", tmp_path)
        assert bad.returncode == 1 and code in bad.stderr and words in bad.stderr, bad.stderr


@pytest.mark.parametrize("target", ["cpu", "gpu-emulated"])
def test_a_boolean_index_beside_slices_and_integers_matches_numpy(target, tmp_path):
    """A 1-d mask beside other entries selects along its own axis, as NumPy's `nonzero(mask)[0]`
    there: `x[:, k]`, `x[1, k]`, `m[:, k, :]`, a filter then a column mask, and as a target
    (`y[:, k] = v`, `y[1:, k] = y[1:, k] + v`). A mask whose size is not its axis's is NumPy's
    IndexError (at run time) or E0401 (known sizes); a 2-d mask beside other entries E0409."""
    src = """fn main(x: f64[4, 5], m: f64[3, 3, 2]) -> (f64[4, ?], f64[?, ?], f64[?], f64[3, ?, 2], f64[4, 5]) {
    let k = x[0] > 0.0;
    let y = x * 1.0;
    y[:, k] = -1.0;
    y[1:, k] = y[1:, k] + 10.0;
    y[2, k] *= 3.0;
    return (x[:, k], x[x[:, 0] > 0.0][:, k], x[1, k], m[:, m[0, :, 0] > 0.0, :], y);
}
"""
    rng = np.random.default_rng(7)
    x, m = rng.standard_normal((4, 5)), rng.standard_normal((3, 3, 2))
    proc, res = run_source(src, {"x": x, "m": m}, tmp_path, flags=("--target", target))
    assert proc.returncode == 0, proc.stderr
    k = x[0] > 0
    y = x * 1.0
    y[:, k] = -1.0
    y[1:, k] = y[1:, k] + 10.0
    y[2, k] *= 3.0
    for got, w in zip(res, [x[:, k], x[x[:, 0] > 0][:, k], x[1, k], m[:, m[0, :, 0] > 0, :], y]):
        assert got.shape == w.shape
        np.testing.assert_array_equal(got, w)
    bad = "fn main(x: f64[?, ?], k: bool[?]) -> f64[?, ?] {\n    return x[:, k];\n}\n"
    with pytest.raises(IndexError, match="boolean index did not match"):
        np.ones((4, 5))[:, np.ones(3, bool)]
    assert_run_time_error(bad, {"x": np.ones((4, 5)), "k": np.ones(3, bool)},
                          "boolean index did not match indexed array along axis 1; size of axis is 5", tmp_path / "bad")
    for body, code in [("return x[:, x[:, 0] > 0.0];", "E0401"),
                       ("return x[x > 0.0, 0];", "E0409")]:
        proc = check_source(f"fn main(x: f64[4, 5]) -> f64[4, 5] {{\n    {body}\n}}\n", tmp_path)
        assert proc.returncode == 1 and code in proc.stderr and "panicked" not in proc.stderr, proc.stderr


@pytest.mark.parametrize("target", ["cpu", "gpu-emulated"])
def test_assignment_declares_as_in_python(target, tmp_path):
    """`x = e` of a name not in scope declares it, as Python's first assignment does (no `let`):
    arrays and scalars, rebinding after it, tuple targets (`a, b = np.meshgrid(..)`, `q, r = ..`,
    `idx, = np.nonzero(..)`), a name local to a loop body, and a name shadowing a constant (`e`);
    the same code run by Python. A name declared by `let` inside a block and used after it is E0201,
    whose note says why and whose help says to assign it before (a name first assigned by `y = e`
    there is the function's: test_function_scope.py)."""
    src = """fn main(v: f64[5]) -> (f64[5], f64, i64, f64[3, 5], f64) {
    y = v * 2.0;
    y = y + 1.0;
    idx, = np.nonzero(v > 0.0);
    q, r = 7.5, 2.0;
    a, b = np.meshgrid(v, v[:3]);
    s = 0.0;
    for i in range(5) {
        t = v[i] * 2.0;
        s = s + t;
    }
    e = 3.0;
    return (y, s + q + r, len(idx), a + b, e);
}
"""
    v = np.array([0.5, -1.0, 2.0, 0.0, 3.5])

    def main(v):
        y = v * 2.0
        y = y + 1.0
        idx, = np.nonzero(v > 0.0)
        q, r = 7.5, 2.0
        a, b = np.meshgrid(v, v[:3])
        s = 0.0
        for i in range(5):
            t = v[i] * 2.0
            s = s + t
        e = 3.0
        return (y, s + q + r, len(idx), a + b, e)

    proc, res = run_source(src, {"v": v}, tmp_path, flags=("--target", target))
    assert proc.returncode == 0, proc.stderr
    for got, w in zip(res, main(v)):
        np.testing.assert_array_equal(got, w)
    # Assigned in one branch only (both branches: `test_names_assigned_in_every_branch_match_python`).
    bad = "fn main(c: bool) -> f64 {\n    if c {\n        let y = 1.0;\n    } else {\n        print(c);\n    }\n    return y;\n}\n"
    proc = check_source(bad, tmp_path)
    assert proc.returncode == 1 and "E0201" in proc.stderr and "assign it before that block too" in proc.stderr, proc.stderr


@pytest.mark.parametrize("target", ["cpu", "gpu-emulated"])
def test_python_types_as_dtypes_matmul_and_norm_keepdims_match_numpy(target, tmp_path):
    """`dtype=int`, `dtype=float`, `x.astype(int)` (Python's types, as NumPy reads them), `np.matmul`
    (`dot` of 1-d and 2-d operands), and `linalg.norm(..., keepdims=True)`, against NumPy."""
    src = """fn main(x: f64[4, 5], v: f64[5]) -> (i64[3, 2], f64[2], i64[4, 5], f64[4, 4], f64[4], f64[4, 5], f64[1, 1]) {
    return (np.zeros((3, 2), dtype=int), np.ones(2, dtype=float), x.astype(int), np.matmul(x, x.T), np.matmul(x, v),
            x / np.linalg.norm(x, axis=1, keepdims=True), np.linalg.norm(x, keepdims=True));
}
"""
    rng = np.random.default_rng(3)
    x, v = rng.standard_normal((4, 5)) * 3, rng.standard_normal(5)
    proc, res = run_source(src, {"x": x, "v": v}, tmp_path, flags=("--target", target))
    assert proc.returncode == 0, proc.stderr
    want = [np.zeros((3, 2), dtype=int), np.ones(2, dtype=float), x.astype(int), np.matmul(x, x.T), np.matmul(x, v),
            x / np.linalg.norm(x, axis=1, keepdims=True), np.linalg.norm(x, keepdims=True)]
    for got, w in zip(res, want):
        assert got.dtype == w.dtype and got.shape == w.shape, (got.dtype, w.dtype, got.shape, w.shape)
        np.testing.assert_allclose(got, w, rtol=1e-13)


@pytest.mark.parametrize("target", ["cpu", "gpu-emulated"])
def test_none_arguments_and_shape_tuples_match_numpy(target, tmp_path):
    """Python's `None` where NumPy's default is `None` (`axis=None` given by keyword or position,
    `dtype=None`, `out=None`, `ord=None`), `axis=None` of `sort` and `argsort` (the flattened
    array) and of a ufunc's `reduce` (every axis, where the default is axis 0), `clip` with `None`
    for a bound, and `x.shape` as the sizes of a new array; anywhere else `None` is E0319."""
    src = """fn main(x: f64[3, 4], i: i64[5]) -> (f64, f64, f64[12], i64[12], f64, f64[4], f64[5], f64[3, 4], i64[5], i64, f64, f32[3, 4], f64[3, 4], f64[4], f64[3]) {
    return (np.sum(x, None), x.sum(axis=None, out=None), np.sort(x, axis=None), np.argsort(x, axis=None),
            np.add.reduce(x, axis=None), np.add.reduce(x), np.clip(i, None, 2.5), np.clip(x, 0.5, None),
            np.clip(i, None, None), np.argmax(x, None), np.linalg.norm(x[0], ord=None, axis=None),
            np.ones(x.shape, dtype=np.float32), np.full(x.shape, 2.0) + x, np.zeros(x[0].shape, dtype=None),
            np.mean(x, axis=1, dtype=None));
}
"""
    x = np.array([[0.3, -1.5, 2.0, 0.1], [4.0, 0.6, -0.2, 1.1], [2.5, 0.7, 3.3, -0.9]])
    i = np.arange(5) - 1
    proc, res = run_source(src, {"x": x, "i": i}, tmp_path, flags=("--target", target))
    assert proc.returncode == 0, proc.stderr
    want = [np.sum(x, None), x.sum(axis=None, out=None), np.sort(x, axis=None), np.argsort(x, axis=None),
            np.add.reduce(x, axis=None), np.add.reduce(x), np.clip(i, None, 2.5), np.clip(x, 0.5, None),
            np.clip(i, None, None), np.argmax(x, None), np.linalg.norm(x[0], ord=None, axis=None),
            np.ones(x.shape, dtype=np.float32), np.full(x.shape, 2.0) + x, np.zeros(x[0].shape, dtype=None),
            np.mean(x, axis=1, dtype=None)]
    for got, w in zip(res, want):
        assert got.dtype == w.dtype and got.shape == np.shape(w), (got.dtype, w.dtype, got.shape, np.shape(w))
        np.testing.assert_allclose(got, w, rtol=1e-14)
    for body in ["let y = None; return x;", "return np.diff(x, axis=None);", "return x + None;",
                 "return np.stack((x, x), axis=None);"]:
        bad = check_source(f"fn main(x: f64[3]) -> f64[3] {{\n    {body}\n}}\n", tmp_path)
        assert bad.returncode == 1 and "E0319" in bad.stderr and "`None` is not a value" in bad.stderr, bad.stderr
        assert "E0503" not in bad.stderr, bad.stderr


@pytest.mark.parametrize("target", ["cpu", "gpu-emulated"])
def test_chained_comparisons_match_python(target, tmp_path):
    """Python's chained comparison `a < b < c` is `a < b and b < c` (of scalars; of arrays it is
    NumPy's error, E0302 as `and`)."""
    src = """fn main(v: f64[4], k: i64) -> (bool, bool, bool, bool, bool, i64) {
    let n = 0;
    for j in range(4) {
        if 0.0 <= v[j] < 1.0 {
            n += 1;
        }
    }
    return (0 < v[0] < 1, v[0] < v[1] <= v[2] != v[3], 0 <= k < 8, -1.0 < v[1] > 0.5, v[3] < v[2] < v[1], n);
}
"""
    for v, k in [(np.array([0.5, 0.7, 0.7, 0.1]), 3), (np.array([1.5, -0.7, 0.2, 0.1]), 8), (np.array([0.5, 0.7, 0.9, 0.9]), -1)]:
        proc, res = run_source(src, {"v": v, "k": np.int64(k)}, tmp_path, flags=("--target", target))
        assert proc.returncode == 0, proc.stderr
        want = [0 < v[0] < 1, v[0] < v[1] <= v[2] != v[3], 0 <= k < 8, -1.0 < v[1] > 0.5, v[3] < v[2] < v[1],
                sum(1 for j in range(4) if 0.0 <= v[j] < 1.0)]
        assert [r.item() for r in res] == [bool(w) if isinstance(w, (bool, np.bool_)) else w for w in want], (res, want)
    bad = check_source("fn main(v: f64[8]) -> bool[8] {\n    return 0 < v < 1;\n}\n", tmp_path)
    assert bad.returncode == 1 and "E0302" in bad.stderr and "ambiguous" in bad.stderr, bad.stderr


@pytest.mark.parametrize("target", ["cpu", "gpu-emulated"])
def test_names_assigned_in_every_branch_match_python(target, tmp_path):
    """Python's function scope for names first assigned in every branch of an `if`/`elif`/`else`
    whose branches only assign them: declared after the `if`, each branch's value (a later value
    reads an earlier name's value of its branch); an arrayc `let` in a block still shadows only
    there (E0201 after it); a name assigned in one branch only is the function's, Python's
    UnboundLocalError where the branch was not taken (test_function_scope.py)."""
    src = """fn main(v: f64[8], k: i64) -> (f64[8], f64, i64, f64) {
    if k > 2 {
        y = v * 2.0;
        s = sum(y);
    } elif k == 2 {
        y = v[::-1] * 1.0;
        s = 1.5;
    } else {
        y = v + 1.0;
        s = y[0];
    }
    let t = 0;
    if k > 0 {
        let t = 5;
    } else {
        let t = 6;
    }
    if v[0] > 0.0 {
        m = 3;
    } else {
        m = 4;
    }
    return (y, s, t + m, s * 2.0);
}
"""
    v = np.array([0.5, 0.7, 0.7, 0.1, 2.0, 3.0, 4.0, 5.0])
    for k in (1, 2, 3):
        proc, res = run_source(src, {"v": v, "k": np.int64(k)}, tmp_path, flags=("--target", target))
        assert proc.returncode == 0, proc.stderr
        if k > 2:
            y = v * 2.0
            s = np.sum(y)
        elif k == 2:
            y = v[::-1] * 1.0
            s = 1.5
        else:
            y = v + 1.0
            s = y[0]
        np.testing.assert_array_equal(res[0], y)
        assert res[1] == s and res[2] == 0 + 3 and res[3] == s * 2.0, (res, s)
    bad = check_source("fn main(v: f64[8]) -> f64 {\n    if v[0] > 0.0 {\n        let y = 1.0;\n    }\n    return y;\n}\n", tmp_path)
    assert bad.returncode == 1 and "E0201" in bad.stderr and "assigned inside a block" in bad.stderr, bad.stderr
    bad = check_source("fn main(v: f64[8]) -> f64 {\n    if v[0] > 0.0 {\n        y = 1.0;\n    } else {\n        y = v;\n    }\n    return y;\n}\n", tmp_path)
    assert bad.returncode == 1 and "E0316" in bad.stderr, bad.stderr


@pytest.mark.parametrize("target", ["cpu", "gpu-emulated"])
def test_pythons_round_of_a_scalar_matches_python(target, tmp_path):
    """A bare `round(s)` of one scalar is Python's: an int, half to even; with `ndigits`, of an
    array, or as `np.round` it is NumPy's (the dtype kept); NaN and infinity are run-time errors."""
    src = """fn main(v: f64[8], k: i64, f: f32) -> (i64, i64, i64, f64, f64[8], f64, i64, i64, i64) {
    return (round(v[0] * 10.0), round(2.5), round(-3.5), round(v[1], 1), round(v), np.round(v[2]), round(k),
            round(f), round(v[2]) * 3);
}
"""
    v = np.array([0.55, 0.77, 2.5, -1.5, 3.5, 0.5, 1.5, -0.5])
    proc, res = run_source(src, {"v": v, "k": np.int64(7), "f": np.float32(-2.5)}, tmp_path, flags=("--target", target))
    assert proc.returncode == 0, proc.stderr
    want = [round(v[0] * 10.0), round(2.5), round(-3.5), round(v[1], 1), np.round(v), np.round(v[2]), round(7),
            round(float(np.float32(-2.5))), round(v[2]) * 3]
    for got, w in zip(res, want):
        assert got.dtype == np.asarray(w).dtype and np.array_equal(got, w), (got, w)
    for value in [np.nan, np.inf, 1e19]:
        with pytest.raises((ValueError, OverflowError)):
            int(round(value)) if value < 1e19 else np.int64(round(value))
        assert_run_time_error("fn main(s: f64) -> i64 {\n    return round(s);\n}\n", {"s": np.float64(value)},
                              "round: cannot convert float NaN or infinity", tmp_path / f"bad{value}")


@pytest.mark.parametrize("target", ["cpu", "gpu-emulated"])
def test_nonzero_tuples_as_indices_match_numpy(target, tmp_path):
    """`x[np.where(m)]`, `x[np.nonzero(m)]`, `x[m.nonzero()]` (the whole index) are `x[m]` for a
    mask over `x`'s leading axes: a filter, and as a target a masked write or update."""
    src = """fn main(x: f64[4, 5], v: f64[8]) -> (f64[?], f64[?], f64[?], f64[?, 5], f64[4, 5], f64[?]) {
    let y = x.copy();
    y[np.where(y > 0.5)] = 0.0;
    y[np.nonzero(x < 0.2)] *= 2.0;
    return (v[np.where(v > 0)], x[np.nonzero(x > 1.0)], v[(v > 0).nonzero()], x[np.where(x[:, 0] > 0.2)], y,
            v[np.nonzero(v)]);
}
"""
    x = np.arange(20.0).reshape(4, 5) * 0.1
    v = np.array([0.5, -0.7, 0.7, 0.0, 2.0, -3.0, 4.0, 5.0])
    proc, res = run_source(src, {"x": x, "v": v}, tmp_path, flags=("--target", target))
    assert proc.returncode == 0, proc.stderr
    y = x.copy()
    y[np.where(y > 0.5)] = 0.0
    y[np.nonzero(x < 0.2)] *= 2.0
    want = [v[np.where(v > 0)], x[np.nonzero(x > 1.0)], v[(v > 0).nonzero()], x[np.where(x[:, 0] > 0.2)], y,
            v[np.nonzero(v)]]
    for got, w in zip(res, want):
        assert got.shape == w.shape
        np.testing.assert_array_equal(got, w)


@pytest.mark.parametrize("target", ["cpu", "gpu-emulated"])
def test_shape_tuples_as_sizes_of_every_builtin_that_takes_sizes(target, tmp_path):
    """`x.shape` where NumPy takes a shape: `unravel_index(k, x.shape)`, and the sizes of
    `normal`, `integers`, `random`, `empty` (their values are arrayc's generator's: shapes and
    ranges checked)."""
    src = """fn main(x: f64[3, 4]) -> (i64, i64, f64[3, 4], i64[3, 4], f64[3, 4], f64[3, 4]) {
    let (r, c) = np.unravel_index(np.argmax(x), x.shape);
    let e = np.empty(x.shape);
    e[...] = 1.0;
    return (r, c, normal(x.shape, seed=1), integers(0, 5, x.shape), random(x.shape), e);
}
"""
    x = np.array([[0.3, -1.5, 2.0, 0.1], [4.0, 0.6, -0.2, 1.1], [2.5, 0.7, 9.3, -0.9]])
    proc, res = run_source(src, {"x": x}, tmp_path, flags=("--target", target))
    assert proc.returncode == 0, proc.stderr
    r, c = np.unravel_index(np.argmax(x), x.shape)
    assert (res[0], res[1]) == (r, c)
    assert [a.shape for a in res[2:]] == [x.shape] * 4
    assert res[3].min() >= 0 and res[3].max() < 5 and 0 <= res[4].min() and res[4].max() < 1
    np.testing.assert_array_equal(res[5], np.ones(x.shape))


def test_none_slice_bounds_are_left_out(tmp_path):
    """A `None` bound of a slice is the bound left out, as in Python: `v[None:3]`, `v[::None]`."""
    src = "fn main(v: f64[8]) -> (f64[3], f64[4], f64[8], f64[2]) {\n    return (v[None:3], v[None:None:2], v[::None], v[-2:None]);\n}\n"
    v = np.arange(8.0) * 1.5
    proc, res = run_source(src, {"v": v}, tmp_path)
    assert proc.returncode == 0, proc.stderr
    for got, w in zip(res, [v[None:3], v[None:None:2], v[::None], v[-2:None]]):
        np.testing.assert_array_equal(got, w)


@pytest.mark.parametrize("target", ["cpu", "gpu-emulated"])
def test_dtype_attribute_as_a_dtype_argument_matches_numpy(target, tmp_path):
    """`x.dtype` where NumPy takes a dtype: `dtype=x.dtype` of constructors and conversions, and
    `x.astype(y.dtype)`; anywhere else it is E0207, which names `dtype=x.dtype`."""
    src = """fn main(x: f32[3], k: i32[2]) -> (f32[4], i32[3], f32[3], i32[2, 2], i32[3], f32[2], u8[2]) {
    return (np.zeros(4, dtype=x.dtype), np.ones_like(x, dtype=k.dtype), np.arange(3, dtype=x.dtype),
            np.full((2, 2), 7, dtype=k.dtype), x.astype(k.dtype), k.astype(x.dtype), np.array(k, dtype=(k > 0).astype(np.uint8).dtype));
}
"""
    x = np.array([0.5, 1.5, -2.5], dtype=np.float32)
    k = np.array([3, -4], dtype=np.int32)
    proc, res = run_source(src, {"x": x, "k": k}, tmp_path, flags=("--target", target))
    assert proc.returncode == 0, proc.stderr
    want = [np.zeros(4, dtype=x.dtype), np.ones_like(x, dtype=k.dtype), np.arange(3, dtype=x.dtype),
            np.full((2, 2), 7, dtype=k.dtype), x.astype(k.dtype), k.astype(x.dtype),
            np.array(k, dtype=(k > 0).astype(np.uint8).dtype)]
    for got, w in zip(res, want):
        assert got.dtype == w.dtype, (got.dtype, w.dtype)
        np.testing.assert_array_equal(got, w)
    bad = check_source("fn main(x: f32[3]) -> f32 {\n    return x.dtype;\n}\n", tmp_path)
    assert bad.returncode == 1 and "E0207" in bad.stderr and "dtype=x.dtype" in bad.stderr, bad.stderr


@pytest.mark.parametrize("target", TARGETS)
def test_python_int_scalars_rebound_to_floats_match_python(target, tmp_path):
    """A scalar declared from a Python integer literal and later assigned a float (`total = 0` ...
    `total += v[k]`, `s = s + v[k]`, `h = 1` ... `h *= x_f32`) has the float dtype from its
    declaration on, as Python's value has from that assignment on (NumPy 2: a Python int beside a
    `float32` is `float32`); an integer-only one stays `i64`. `return a, b;` is Python's tuple."""
    src = """fn main(v: f64[N], w: f32[N]) -> (f64, i64, f32, f64, f64) {
    s = 0;
    n = 0;
    h = 1;
    for k in range(N) {
        if v[k] > 0 {
            s = s + v[k];
            n += 1;
        }
        h *= w[k];
    }
    m = s / n;
    half = 10;
    half = half / 4;
    total = 0;
    total += sum(v * v);
    return m, n, h, half, total;
}
"""
    rng = np.random.default_rng(7)
    v = rng.standard_normal(9)
    w = (rng.standard_normal(9) + 2).astype(np.float32)
    proc, res = run_source(src, {"v": v, "w": w}, tmp_path, flags=("--target", target))
    assert proc.returncode == 0, proc.stderr
    s, n, h = 0, 0, 1
    for k in range(len(v)):
        if v[k] > 0:
            s = s + v[k]
            n += 1
        h *= w[k]
    half = 10
    half = half / 4
    total = 0
    total += np.sum(v * v)
    want = [s / n, n, h, half, total]
    for got, wv in zip(res, want):
        assert np.asarray(got).dtype == np.asarray(wv).dtype, (got, wv)
        assert got == wv, (got, wv)
    # Read as an integer before the float assignment: an error, never a silent change of meaning.
    bad = check_source("fn main(v: f64[4]) -> f64 {\n    k = 0;\n    let y = v[k];\n    k = 0.5;\n    return y + k;\n}\n", tmp_path)
    assert bad.returncode == 1 and "v[k]" in bad.stderr, bad.stderr


@pytest.mark.parametrize("target", TARGETS)
def test_comprehensions_match_python(target, tmp_path):
    """Python's list comprehensions (`np.array([e for k in it if c])`, also of rows and nested) and
    generators given to `sum`, `any`, `all` (and Python's `sum` of a list comprehension), over
    `range(..)` with any step and over arrays, in `let`s, `if` conditions and `return`s; compared
    with Python running the same expressions. An empty list comprehension is a run-time error
    naming it; a comprehension in a `while` condition is E0111."""
    src = """fn main(x: f64[4, 5], v: f64[8], n: i64) -> (i64[?], f64, f64[?, 5], f64[?], bool, bool, f64[?], f64, f64[?], f64, i64[?], f64) {
    let a = np.array([k * k for k in range(5)]);
    let s = sum(v[k] for k in range(3));
    let rows = np.array([x[i] * 2 for i in range(1, 4)]);
    let pos = np.array([t for t in v if t > 0]);
    let anyneg = any(t < -1 for t in v);
    let allsmall = all(abs(t) < 5 for t in v);
    let st = np.array([v[k] for k in range(n, 0, -2)]);
    let sq = sum([t * t for t in v]);
    let nested = np.array([sum(x[i, j] for j in range(5)) for i in range(4)]);
    let m = 0.0;
    if sum(1 for t in v if t > 0) > 3 {
        m = np.mean([t for t in v if t > 0]);
    }
    let odd = np.array([k for k in range(n) if k % 2 == 1]);
    return a, s, rows, pos, anyneg, allsmall, st, sq, nested, m, odd, sum(r.max() for r in x);
}
"""
    rng = np.random.default_rng(31)
    x = rng.standard_normal((4, 5))
    v = rng.standard_normal(8)
    n = 7
    proc, res = run_source(src, {"x": x, "v": v, "n": n}, tmp_path, flags=("--target", target))
    assert proc.returncode == 0, proc.stderr
    m = 0.0
    if sum(1 for t in v if t > 0) > 3:
        m = np.mean([t for t in v if t > 0])
    want = [np.array([k * k for k in range(5)]), sum(v[k] for k in range(3)), np.array([x[i] * 2 for i in range(1, 4)]),
            np.array([t for t in v if t > 0]), any(t < -1 for t in v), all(abs(t) < 5 for t in v),
            np.array([v[k] for k in range(n, 0, -2)]), sum([t * t for t in v]),
            np.array([sum(x[i, j] for j in range(5)) for i in range(4)]), m,
            np.array([k for k in range(n) if k % 2 == 1]), sum(r.max() for r in x)]
    for got, w in zip(res, want):
        assert np.asarray(got).dtype == np.asarray(w).dtype, (got, w)
        np.testing.assert_allclose(got, w, rtol=1e-15, atol=0)
    # Steps of both signs and empty ranges, against Python's len(range(..)).
    for a, b, step in [(0, 5, 2), (5, 0, -2), (3, 3, 1), (1, 10, 3), (10, 1, -3), (-4, 4, 5)]:
        src2 = f"fn main() -> (f64, i64) {{\n    return sum(k * 0.5 for k in range({a}, {b}, {step})), sum(1 for k in range({a}, {b}, {step}));\n}}\n"
        proc, res = run_source(src2, {}, tmp_path / f"r{a}_{b}_{step}", flags=("--target", target))
        assert proc.returncode == 0, proc.stderr
        assert res[0] == sum(k * 0.5 for k in range(a, b, step)) and res[1] == len(range(a, b, step)), (a, b, step, res)
    # Several `for` clauses, each with or without a condition, inner iterables of outer names.
    src3 = """fn main(x: f64[4, 5], v: f64[8]) -> (f64[?], i64[?], f64, f64[?, 5], f64[?]) {
    let flat = np.array([x[i, j] for i in range(4) for j in range(5) if x[i, j] > 0]);
    let tri = np.array([i * 10 + j for i in range(4) for j in range(i)]);
    let s = sum(x[i, j] * v[j] for i in range(4) if i != 2 for j in range(5));
    let big = np.array([r for r in x if r.sum() > -100]);
    let none = np.array([t for t in v if t > 100]);
    return flat, tri, s, big, none;
}
"""
    proc, res = run_source(src3, {"x": x, "v": v}, tmp_path / "clauses", flags=("--target", target))
    assert proc.returncode == 0, proc.stderr
    want = [np.array([x[i, j] for i in range(4) for j in range(5) if x[i, j] > 0]),
            np.array([i * 10 + j for i in range(4) for j in range(i)]),
            sum(x[i, j] * v[j] for i in range(4) if i != 2 for j in range(5)),
            np.array([r for r in x if r.sum() > -100]), np.array([t for t in v if t > 100])]
    for k, (got, w) in enumerate(zip(res, want)):
        assert got.shape == w.shape, (k, got, w)
        if k < 4:  # an empty result has the element's dtype (NumPy's: float64, here the same)
            assert got.dtype == w.dtype, (k, got.dtype, w.dtype)
        np.testing.assert_allclose(got, w, rtol=1e-15, atol=0)
    empty = "fn main(n: i64) -> i64[?] {\n    return np.array([k for k in range(n)]);\n}\n"
    proc, _ = run_source(empty, {"n": 0}, tmp_path / "empty", flags=("--target", target))
    assert proc.returncode != 0 and "list comprehension over nothing" in proc.stderr and ":2" in proc.stderr, proc.stderr
    bad = check_source("fn main(v: f64[4]) -> i64 {\n    let k = 0;\n    while sum(t for t in v) > k { k += 1; }\n    return k;\n}\n", tmp_path)
    assert bad.returncode == 1 and "E0111" in bad.stderr, bad.stderr


@pytest.mark.parametrize("target", TARGETS)
def test_shape_and_dtype_comparisons_and_sort_in_place_match_numpy(target, tmp_path):
    """`x.shape == (n, m)`, `x.shape != y.shape` (Python's tuple comparison: other ranks are
    unequal; sizes read at run time), `x.dtype == np.float32` (decided at compile time), in `if`s
    and `assert`s; NumPy's in-place `x.sort(axis=k)` as a statement; a shape compared with a number
    is E0503, `x.sort()` as a value E0207."""
    src = """fn main(x: f64[N, M], v: f64[K], w: f32[K]) -> (bool, bool, bool, bool, bool, bool, bool, f64[N, M], f64[N, M], f64) {
    assert x.shape == (N, M), "shape";
    let y = x.copy();
    y.sort();
    let z = x.copy();
    z.sort(axis=0);
    let s = 0.0;
    if w.dtype == np.float32 and v.shape != x.shape {
        s = 1.0;
    }
    return x.shape == (4, 5), (5, 4) == x.shape, x.shape != v.shape, v.shape == (K,), x.T.shape == x.shape,
           v.dtype == w.dtype, np.float64 == v.dtype, y, z, s;
}
"""
    rng = np.random.default_rng(5)
    for shape in [(4, 5), (5, 5), (3, 2)]:
        x = rng.standard_normal(shape)
        v = rng.standard_normal(5)
        w = v.astype(np.float32)
        proc, res = run_source(src, {"x": x, "v": v, "w": w}, tmp_path / f"{shape[0]}x{shape[1]}", flags=("--target", target))
        assert proc.returncode == 0, proc.stderr
        y = x.copy()
        y.sort()
        z = x.copy()
        z.sort(axis=0)
        s = 1.0 if w.dtype == np.float32 and v.shape != x.shape else 0.0
        want = [x.shape == (4, 5), (5, 4) == x.shape, x.shape != v.shape, v.shape == (5,), x.T.shape == x.shape,
                v.dtype == w.dtype, np.float64 == v.dtype, y, z, s]
        for got, wv in zip(res, want):
            np.testing.assert_array_equal(got, wv)
    for bad_src, code in [("fn main(x: f64[3]) -> bool {\n    return x.shape == 3;\n}\n", "E0503"),
                          ("fn main(x: f64[3]) -> bool {\n    return x.dtype == 3;\n}\n", "E0503"),
                          ("fn main(x: f64[3]) -> f64[3] {\n    return x.sort();\n}\n", "E0207")]:
        bad = check_source(bad_src, tmp_path)
        assert bad.returncode == 1 and code in bad.stderr, bad.stderr


@pytest.mark.parametrize("target", TARGETS)
def test_numpy_and_math_spellings_match_numpy(target, tmp_path):
    """Other spellings of builtins (`grammar/src/spellings.rs`): `np.finfo(T).eps`/`max`/`tiny` (NumPy
    scalars of `T`),
    `np.iinfo(T).max`/`min`, Python's `math` module on scalars (`math.floor` gives an `int`),
    `float('inf')`, `np.correlate` in every mode and both length orders, `np.select`,
    `np.corrcoef(x, y)`/`np.cov(x, y)`, `np.gradient(f, h)`, a dtype and `convolve`'s mode given by
    position; against NumPy and Python."""
    import math
    src = """fn main(a: f64[7], b: f64[3], s: f64) -> (f64, f64, i64, i64, f32, f64, i64, f64, f64, f64[?], f64[?], f64[?], f64[?], f64[?], f64[?], f64[7], f64[2, 2], f64[2, 2], f64[7], i64[3], f32[2, 2], f64[?], bool[3]) {
    return np.finfo(np.float64).eps, np.finfo(float).max, np.iinfo(np.int32).max, np.iinfo(np.int64).min,
           np.finfo(np.float32).tiny, math.sqrt(s) + math.pi + math.log(s, 2) + math.atan2(s, 1.0) + math.e, math.floor(s * 3),
           float('inf'), float('-inf'),
           np.correlate(a, b), np.correlate(a, b, 'same'), np.correlate(a, b, mode='full'),
           np.correlate(b, a), np.correlate(b, a, 'same'), np.correlate(b, a, 'full'),
           np.select([a < -0.5, a > 0.5], [-a, a * 2], 9.0), np.corrcoef(b, b[::-1]), np.cov(b, b * b),
           np.gradient(a, 0.5), np.zeros(3, int), np.ones((2, 2), np.float32), np.convolve(a, b, 'valid'), np.array(b, bool);
}
"""
    rng = np.random.default_rng(17)
    a = rng.standard_normal(7)
    b = rng.standard_normal(3)
    s = 2.75
    proc, res = run_source(src, {"a": a, "b": b, "s": s}, tmp_path, flags=("--target", target))
    assert proc.returncode == 0, proc.stderr
    want = [np.finfo(np.float64).eps, np.finfo(float).max, np.int64(np.iinfo(np.int32).max), np.int64(np.iinfo(np.int64).min),
            np.finfo(np.float32).tiny, math.sqrt(s) + math.pi + math.log(s, 2) + math.atan2(s, 1.0) + math.e,
            np.int64(math.floor(s * 3)), float("inf"), float("-inf"),
            np.correlate(a, b), np.correlate(a, b, "same"), np.correlate(a, b, mode="full"),
            np.correlate(b, a), np.correlate(b, a, "same"), np.correlate(b, a, "full"),
            np.select([a < -0.5, a > 0.5], [-a, a * 2], 9.0), np.corrcoef(b, b[::-1]), np.cov(b, b * b),
            np.gradient(a, 0.5), np.zeros(3, int), np.ones((2, 2), np.float32), np.convolve(a, b, "valid"), np.array(b, bool)]
    for k, (got, w) in enumerate(zip(res, want)):
        w = np.asarray(w)
        assert got.shape == w.shape and got.dtype == w.dtype, (k, got, w)
        np.testing.assert_allclose(got, w, rtol=1e-13, atol=1e-15, err_msg=str(k))


@pytest.mark.parametrize("target", ["cpu", "gpu-emulated"])
def test_lists_of_arrays_and_pythons_sum_of_a_list_match_numpy(target, tmp_path):
    """An array literal of same-shape arrays is NumPy's `np.array([a, b])` (their stack, dtypes
    promoted), nested too; Python's `sum` of a list literal (or of a name bound to one) adds the
    items elementwise, `np.sum` of one is NumPy's total. Provably different shapes, or arrays with
    scalars, are E0411 naming `concatenate`; sizes known only at run time are checked then."""
    src = """fn main(x: f64[4, 3], v: f32[3], n: i64) -> (f64[3], f64[3], f64[3, 3], f64[2, 2, 3], f64, f64, i64) {
    let parts = [x[0] * 2, x[1], x[3]];
    let mixed = [x[2], v, x[0]];
    return (sum([x[0], x[1], x[2]]), sum(parts), mixed, [[x[0], x[1]], [x[2], x[3]]], np.sum(parts),
            sum([x[0, 0], x[1, 1]]), sum([n, 2 * n]));
}
"""
    rng = np.random.default_rng(31)
    x = rng.standard_normal((4, 3))
    v = rng.standard_normal(3).astype(np.float32)
    n = 5
    proc, res = run_source(src, {"x": x, "v": v, "n": n}, tmp_path, flags=("--target", target))
    assert proc.returncode == 0, proc.stderr
    parts = [x[0] * 2, x[1], x[3]]
    want = [sum([x[0], x[1], x[2]]), sum(parts), np.array([x[2], v, x[0]]), np.array([[x[0], x[1]], [x[2], x[3]]]),
            np.sum(parts), sum([x[0, 0], x[1, 1]]), sum([n, 2 * n])]
    for got, w in zip(res, want):
        assert np.asarray(got).dtype == np.asarray(w).dtype, (got, w)
        np.testing.assert_allclose(got, w, rtol=1e-15, atol=0)
    for body, words in [("return [x[0], x[0, :2]];", "concatenate"), ("return [x[0], 1.0];", "inhomogeneous")]:
        bad = check_source(f"fn main(x: f64[4, 3]) -> f64[2, 3] {{\n    {body}\n}}\n", tmp_path)
        assert bad.returncode == 1 and "E0411" in bad.stderr and words in bad.stderr, bad.stderr
    src2 = "fn main(a: f64[N], b: f64[M]) -> f64[2, N] {\n    return [a, b];\n}\n"
    (tmp_path / "rt").mkdir()
    assert_run_time_error(src2, {"a": np.ones(3), "b": np.ones(4)}, "stack", tmp_path / "rt")


@pytest.mark.parametrize("target", ["cpu", "gpu-emulated"])
def test_nested_tuple_targets_in_for_match_python(target, tmp_path):
    """`for k, (lo, hi) in enumerate(zip(e[:-1], e[1:]))` and deeper nesting of `enumerate` and
    `zip` targets, against Python; a nested tuple over anything else is E0110."""
    src = """fn main(e: f64[6], y: i64[4]) -> (f64, f64, f64) {
    let a = 0.0;
    for k, (lo, hi) in enumerate(zip(e[:-1], e[1:])) { a += k * (hi - lo); }
    let b = 0.0;
    for (u, (j, (w, z))) in zip(y, enumerate(zip(e, e[::-1]), 3)) { b += u * j + w * z; }
    let c = 0.0;
    for (p, q), r in zip(zip(e, y), e[2:]) { c += p * q - r; }
    return (a, b, c);
}
"""
    e = np.array([0.5, -1.0, 2.0, 3.5, -2.25, 1.0])
    y = np.array([3, 9, 4, 7])
    proc, res = run_source(src, {"e": e, "y": y}, tmp_path, flags=("--target", target))
    assert proc.returncode == 0, proc.stderr
    want = [sum(k * (hi - lo) for k, (lo, hi) in enumerate(zip(e[:-1], e[1:]))),
            sum(u * j + w * z for (u, (j, (w, z))) in zip(y, enumerate(zip(e, e[::-1]), 3))),
            sum(p * q - r for (p, q), r in zip(zip(e, y), e[2:]))]
    for got, w in zip(res, want):
        np.testing.assert_allclose(got, w, rtol=1e-15)
    bad = check_source("fn main(x: f64[3]) {\n    for k, (a, b) in enumerate(x) { print(a); }\n}\n", tmp_path)
    assert bad.returncode == 1 and "E0110" in bad.stderr, bad.stderr


@pytest.mark.parametrize("target", ["cpu", "gpu-emulated"])
def test_item_and_tolist_match_numpy(target, tmp_path):
    """`x.item()` (the scalar of a size-1 array or of a scalar) and `x.tolist()` where the list is
    iterated or reduced (`for t in v.tolist()`, in `enumerate`, `sum`, `np.sum`, `len`, `max`,
    `np.array`), against NumPy and Python. `.item()` of an array of another size is E0412 (known
    size) or a run-time error; `.tolist()` anywhere else is E0207 naming the ways."""
    src = """fn main(x: f64[4, 3], v: f64[5], i: i64, j: i64) -> (f64, i64, f64, f64, f64, f64, f64, i64, f64, f64[5]) {
    let a = 0.0;
    for t in v.tolist() { a += t * t; }
    let b = 0.0;
    for k, t in enumerate(v.tolist()) { b += k * t; }
    return (v.sum().item(), argmax(v).item(), x[i, j].item(), x[1:2, 2].item(), a, b, sum(v.tolist()),
            len(v.tolist()), max(x[1].tolist()), np.array(v.tolist()));
}
"""
    rng = np.random.default_rng(31)
    x = rng.standard_normal((4, 3))
    v = rng.standard_normal(5)
    i, j = 2, 1
    proc, res = run_source(src, {"x": x, "v": v, "i": i, "j": j}, tmp_path, flags=("--target", target))
    assert proc.returncode == 0, proc.stderr
    want = [v.sum().item(), np.argmax(v).item(), x[i, j].item(), x[1:2, 2].item(), sum(t * t for t in v.tolist()),
            sum(k * t for k, t in enumerate(v.tolist())), sum(v.tolist()), len(v.tolist()), max(x[1].tolist()),
            np.array(v.tolist())]
    for got, w in zip(res, want):
        np.testing.assert_allclose(got, w, rtol=1e-13)
    bad = check_source("fn main(x: f64[3]) -> f64 {\n    return x.item();\n}\n", tmp_path)
    assert bad.returncode == 1 and "E0412" in bad.stderr, bad.stderr
    bad = check_source("fn main(x: f64[3]) -> f64[3] {\n    let l = x.tolist();\n    return l;\n}\n", tmp_path)
    assert bad.returncode == 1 and "E0207" in bad.stderr and "sum(x.tolist())" in bad.stderr, bad.stderr
    (tmp_path / "rt").mkdir()
    assert_run_time_error("fn main(x: f64[N]) -> f64 {\n    return x.item();\n}\n", {"x": np.ones(3)}, "reshape",
                          tmp_path / "rt")


@pytest.mark.parametrize("target", ["cpu", "gpu-emulated"])
def test_flat_reads_and_list_append_error_match_numpy(target, tmp_path):
    """`x.flat[k]`, `x.flat[a:b]` and `for t in x.flat` read `x` in row-major order as NumPy's
    flat iterator does (`ravel(x)`), of a view too; `out.append(v)` of a list used otherwise (here
    `extend`) is E0207 naming a comprehension and a preallocated array."""
    src = """fn main(x: f64[3, 4]) -> (f64, f64[3], f64, f64) {
    let s = 0.0;
    for t in x.T.flat { s = s * 0.5 + t; }
    return (x.flat[7], x.flat[2:8:2], x[:, 1:].flat[-1], s);
}
"""
    x = np.random.default_rng(31).standard_normal((3, 4))
    proc, res = run_source(src, {"x": x}, tmp_path, flags=("--target", target))
    assert proc.returncode == 0, proc.stderr
    s = 0.0
    for t in x.T.flat:
        s = s * 0.5 + t
    want = [x.flat[7], x.flat[2:8:2], x[:, 1:].flat[-1], s]
    for got, w in zip(res, want):
        np.testing.assert_allclose(got, w, rtol=1e-15)
    bad = check_source("fn main(v: f64[5]) -> f64[?] {\n    let out = [];\n    for t in v { out.append(t); out.append(t * 2); }\n"
                       "    out.extend(v);\n    return array(out);\n}\n", tmp_path)
    assert bad.returncode == 1 and "E0207" in bad.stderr and "comprehension" in bad.stderr \
        and "np.zeros(n)" in bad.stderr, bad.stderr


@pytest.mark.parametrize("target", ["cpu", "gpu-emulated"])
def test_a_list_grown_by_append_in_one_loop_matches_python(target, tmp_path):
    """`let out = []; for t in v { if c { out.append(e); } }` (also Python's `out = [];`; the `if`
    optional, over an array or a `range`) is the list comprehension `[e for t in v if c]`, against Python's list
    (appends in loops that do other work: test_grown_lists.py)."""
    src = """fn main(v: f64[6], n: i64) -> (f64[?], i64[?], f64[?], f64[?]) {
    let out = [];
    for t in v { if t > 0 { out.append(t * 2); } }
    sq = [];
    for k in range(1, n, 2) { sq.append(k * k); }
    let every = [];
    for t in v { every.append(t - 1); }
    let none = [];
    for t in v { if t > 100 { none.append(t); } }
    return (array(out), np.array(sq), every, none);
}
"""
    v = np.array([0.5, -1.0, 2.0, 3.5, -2.25, 1.0])
    n = 8
    proc, res = run_source(src, {"v": v, "n": n}, tmp_path, flags=("--target", target))
    assert proc.returncode == 0, proc.stderr
    out, sq, every, none = [], [], [], []
    for t in v:
        if t > 0:
            out.append(t * 2)
    for k in range(1, n, 2):
        sq.append(k * k)
    for t in v:
        every.append(t - 1)
    for t in v:
        if t > 100:
            none.append(t)
    for got, w in zip(res, [np.array(out), np.array(sq), np.array(every), np.array(none)]):
        assert np.asarray(got).dtype == w.dtype, (got, w)
        np.testing.assert_array_equal(got, w)


@pytest.mark.parametrize("target", TARGETS[:2])
def test_unary_plus(target, tmp_path):
    """Python's unary `+`: NumPy's `positive`, a copy (`y = +x; y[0] = 9` leaves `x`), and a
    literal stays a weak Python number (`u8 - +2` is `uint8`); `+` of a bool array is refused as
    NumPy raises."""
    x = np.array([0.5, -1.5, 2.5])
    u = np.array([3, 7, 250], dtype=np.uint8)
    src = """fn main(x: f64[n], u: u8[n]) -> (f64[n], f64[n], u8[n], f64, i64) {
    y = +x;
    y[0] = 9.0;
    return (x, -(+y), u - +2, +x[1], +len(x));
}
"""
    y = +x
    y[0] = 9.0
    want = (x, -(+y), u - +2, +x[1], +len(x))
    got = run_ok(src, {"x": x, "u": u}, tmp_path, target)
    for i, (g, w) in enumerate(zip(got, want)):
        assert_same(g, np.asarray(w), f"result {i}")
    assert_check_error("fn main(x: f64[n]) -> bool[n] {\n    return +(x > 0);\n}\n", "E0503", "positive", tmp_path)


@pytest.mark.parametrize("target", TARGETS)
def test_python_integer_literals(target, tmp_path):
    """Python's integer literals: hexadecimal, octal and binary (`0xFF`, `0o17`, `0b101`, either
    case), `_` between digits (`1_000_000`, `1_000.5`), each the value Python reads; a prefix
    without digits (`0x`) is refused as Python refuses it, a literal beyond `i64` is E0002."""
    x = np.arange(20, dtype=np.int64)
    u = np.array([0x12, 0xF0, 0xFF], dtype=np.uint8)
    src = """fn main(x: i64[n], u: u8[k]) -> (i64[n], u8[k], i64, f64, f64, i64) {
    return (x & 0x0F | 0b1_0000, u ^ 0XFF, 0o17 + 0B11 + 1_000_000, 1_000.5, 2_5e1_0, 0x7FFF_FFFF_FFFF_FFFF);
}
"""
    want = (x & 0x0F | 0b1_0000, u ^ 0XFF, 0o17 + 0B11 + 1_000_000, 1_000.5, 2_5e1_0, 0x7FFF_FFFF_FFFF_FFFF)
    got = run_ok(src, {"x": x, "u": u}, tmp_path, target)
    for i, (g, w) in enumerate(zip(got, want)):
        assert_same(g, np.asarray(w) if i != 1 else w, f"result {i}")
    assert_check_error("fn main() -> i64 {\n    return 0x;\n}\n", "E0001", "0x", tmp_path)
    assert_check_error("fn main() -> i64 {\n    return 0x1_0000_0000_0000_0000;\n}\n", "E0002", "too large", tmp_path)


def test_dict_literal_names_the_numpy_ways(tmp_path):
    """Python's dict (or set) literal where a value belongs is a syntax error whose help names
    NumPy's ways of counting, looking up and testing membership."""
    for value in ["{}", '{"a": 1.0}']:
        proc = check_source(f"fn main() -> f64 {{\n    d = {value};\n    return 1.0;\n}}\n", tmp_path)
        assert proc.returncode == 1 and "E0101" in proc.stderr and "dict and set literals are not in arrayc" in proc.stderr \
            and "np.unique(x, return_counts=True)" in proc.stderr, proc.stderr

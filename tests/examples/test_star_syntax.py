"""Python's star syntax as NumPy users write it (issue 31; docs/language.md, "Star arguments",
"Starred targets" and "Writes through a method's result"): `f(*t)` of tuples written out, named,
returned by the program's functions and by NumPy (`np.gradient`, `np.meshgrid`, `np.divmod`,
`np.percentile` of a list), of `x.shape` and of arrays of a known length; `a, *rest = t` of tuples
and of arrays (rows); `z.ravel()[i] = v` and the other writes through a view a method returns;
Python's `slice(a, b, s)` written in a subscript. Each program is
compared with the same Python code run by NumPy on the same inputs, dtypes exactly, on the CPU and
on the GPU kernels (emulated, and the GPU where there is one); the refusals name the fix."""
import numpy as np
import pytest

from arrayc_examples import TARGETS, assert_check_error, assert_same, run_fails, run_ok

RNG = np.random.default_rng(31)
X = RNG.integers(-9, 9, 10).astype(np.float64)
Y = RNG.integers(-9, 9, 10).astype(np.float64)
M = RNG.integers(-9, 9, (4, 6)).astype(np.float64)
Z = RNG.integers(-9, 9, (5, 7)).astype(np.float64)
XI = RNG.integers(-20, 20, 10)
P = RNG.integers(-9, 9, (2, 4)).astype(np.float32)
INPUTS = {"x": X, "y": Y, "m": M, "z": Z, "xi": XI, "p": P}
SIG = "x: f64[n], y: f64[n], m: f64[r, c], z: f64[h, w], xi: i64[n], p: f32[2, k]"
FUNCS = """fn pair(a: f64[n]) -> (f64[n], f64[n]) { return a + 1.0, a * 2.0; }
fn minus(a: f64[n], b: f64[n]) -> f64[n] { return a - b; }
fn fma(a: f64[n], b: f64[n], c: f64[n]) -> f64[n] { return a * b - c; }
fn three(a: f64[n]) -> (f64[n], f64[n], f64[n]) { return a, a * 2.0, a * 3.0; }
fn bump(a: f64[n]) -> (f64[n], f64[n]) { a[0] = 1.0; return a + 1.0, a; }
"""


def pair(a):
    return a + 1.0, a * 2.0


def three(a):
    return a, a * 2.0, a * 3.0


def src(body, ret):
    return f"import numpy as np;\n{FUNCS}fn main({SIG}) -> {ret} {{\n{body}\n}}\n"


@pytest.mark.parametrize("target", TARGETS)
def test_star_arguments(target, tmp_path):
    """`*t` of a tuple written out, of a name bound to a tuple (arrays and scalars), of `x.shape`
    in a tuple, mixed with other arguments, to a method, to the program's functions (from one of
    them with several results) and to NumPy's calls whose results are a tuple or an array of a
    known length."""
    body = """
    t = (x, y);
    s = (2.0, 3);
    sh = m.shape;
    return (np.maximum(*t), np.power(*s), np.zeros((*m.shape, 2)), np.ones((2, *sh)),
            m.reshape(*(3, 8)), m.reshape(*(6, 4)), minus(*pair(x)), fma(y, *pair(x)),
            np.subtract(*np.percentile(x, [75, 25])), np.add(*np.gradient(z)), np.add(*np.meshgrid(x[:3], y[:4])),
            np.add(*np.divmod(xi, 3)), np.clip(x, *(-2, 5)), np.arange(*(2, 10, 3)), max(*m.shape),
            np.subtract(*p), np.where(*(x > 0, x, y)));"""
    ret = ("(f64[?], f64, f64[?, ?, ?], f64[?, ?, ?], f64[?, ?], f64[?, ?], f64[?], f64[?], f64, f64[?, ?], "
           "f64[?, ?], i64[?], f64[?], i64[?], i64, f32[?], f64[?])")
    got = run_ok(src(body, ret), INPUTS, tmp_path, target)
    want = (np.maximum(X, Y), np.power(2.0, 3), np.zeros((*M.shape, 2)), np.ones((2, *M.shape)),
            M.reshape(*(3, 8)), M.reshape(*(6, 4)), np.subtract(*pair(X)), Y * (X + 1.0) - X * 2.0,
            np.subtract(*np.percentile(X, [75, 25])), np.add(*np.gradient(Z)), np.add(*np.meshgrid(X[:3], Y[:4])),
            np.add(*np.divmod(XI, 3)), np.clip(X, *(-2, 5)), np.arange(*(2, 10, 3)), max(*M.shape),
            np.subtract(*P), np.where(*(X > 0, X, Y)))
    assert len(got) == len(want)
    for i, (g, w) in enumerate(zip(got, want)):
        assert_same(g, w, f"result {i}")


@pytest.mark.parametrize("target", TARGETS)
def test_starred_targets_of_tuples(target, tmp_path):
    """`a, *rest = t`, `first, *mid, last = t`, `*init, z = t` of tuples written out (ints, floats,
    arrays; an empty middle), of shapes and of a function's results: the rest is Python's list
    (`len`, `[i]`, `sum`, `for`)."""
    body = """
    a, *rest = (1.0, 2.0, 3.0);
    first, *mid, last = (1, 2, 3, 4);
    *init, zz = (x, y, x * 2.0);
    *batch, hh, ww = m.shape;
    u, *e, v = (5, 6);
    f0, *others = three(x);
    acc = 0.0;
    for r in rest { acc += r; }
    return (a + sum(rest), first * 100 + len(mid) * 10 + last + sum(mid), zz + init[0] - init[1],
            hh * ww + len(batch), u + v + len(e), f0 + others[1], acc);"""
    got = run_ok(src(body, "(f64, i64, f64[?], i64, i64, f64[?], f64)"), INPUTS, tmp_path, target)
    a, *rest = (1.0, 2.0, 3.0)
    first, *mid, last = (1, 2, 3, 4)
    *init, zz = (X, Y, X * 2.0)
    *batch, hh, ww = M.shape
    u, *e, v = (5, 6)
    f0, *others = three(X)
    want = (np.float64(a + sum(rest)), np.int64(first * 100 + len(mid) * 10 + last + sum(mid)), zz + init[0] - init[1],
            np.int64(hh * ww + len(batch)), np.int64(u + v + len(e)), f0 + others[1], np.float64(sum(rest)))
    for i, (g, w) in enumerate(zip(got, want)):
        assert_same(g, w, f"result {i}")


@pytest.mark.parametrize("target", TARGETS)
def test_starred_targets_of_arrays(target, tmp_path):
    """NumPy iterates an array along axis 0: the targets are rows (views: a write through one
    writes the array), the starred one the rows between (`len`, `[i]`, `for`, `np.array`,
    `np.stack`); of a 1-d array, elements."""
    body = """
    w0 = m.copy();
    a, *rest = w0;
    b, *mid, c = x;
    acc = a.copy();
    for r in rest { acc += r; }
    a[0] = 100.0;
    return (a, np.array(rest), np.stack(rest), len(rest), rest[1], acc, b + c + np.array(mid).sum(), w0);"""
    got = run_ok(src(body, "(f64[?], f64[?, ?], f64[?, ?], i64, f64[?], f64[?], f64, f64[?, ?])"), INPUTS, tmp_path, target)
    w0 = M.copy()
    a, *rest = w0
    b, *mid, c = X
    acc = a.copy()
    for r in rest:
        acc += r
    a[0] = 100.0
    want = (a, np.array(rest), np.stack(rest), np.int64(len(rest)), rest[1], acc, b + c + np.array(mid).sum(), w0)
    for i, (g, w) in enumerate(zip(got, want)):
        assert_same(g, w, f"result {i}")


@pytest.mark.parametrize("target", TARGETS)
def test_writes_through_a_method_result(target, tmp_path):
    """The base sees the write exactly as in NumPy: through `ravel` and `reshape` of new arrays
    (views), `np.ravel`, `view()`, `swapaxes`, `np.transpose`, `squeeze(axis=0)` (views), and not
    through `flatten`/`copy` (copies, the write lost)."""
    body = """
    zz = m.copy();
    zz.ravel()[4] = 90.0;
    np.ravel(zz)[5] += 10.0;
    zz.reshape(2, 12)[1, 2] = -1.0;
    zz.reshape(-1)[3] *= 3.0;
    zz.ravel()[20:23] = 0.0;
    zz.view()[0, 0] = 7.0;
    zz.swapaxes(0, 1)[1, 2] = 5.0;
    np.transpose(zz)[2] += 100.0;
    zz.flatten()[1] = 55.0;
    zz.copy()[2] = 66.0;
    q = np.zeros(6) + x[:6];
    q.reshape(2, 3)[1] = 8.0;
    e = m[None] * 1.0;
    e.squeeze(axis=0)[3, 1] = 4.0;
    return zz, q, e;"""
    got = run_ok(src(body, "(f64[?, ?], f64[?], f64[?, ?, ?])"), INPUTS, tmp_path, target)
    zz = M.copy()
    zz.ravel()[4] = 90.0
    np.ravel(zz)[5] += 10.0
    zz.reshape(2, 12)[1, 2] = -1.0
    zz.reshape(-1)[3] *= 3.0
    zz.ravel()[20:23] = 0.0
    zz.view()[0, 0] = 7.0
    zz.swapaxes(0, 1)[1, 2] = 5.0
    np.transpose(zz)[2] += 100.0
    zz.flatten()[1] = 55.0
    zz.copy()[2] = 66.0
    q = np.zeros(6) + X[:6]
    q.reshape(2, 3)[1] = 8.0
    e = M[None] * 1.0
    e.squeeze(axis=0)[3, 1] = 4.0
    for i, (g, w) in enumerate(zip(got, (zz, q, e))):
        assert_same(g, w, f"result {i}")


@pytest.mark.parametrize("target", TARGETS)
def test_slice_objects_in_an_index(target, tmp_path):
    """Python's `slice(stop)`, `slice(a, b)`, `slice(a, b, s)` with `None` bounds, negative steps,
    beside other index entries, read and written."""
    body = """
    zz = m.copy();
    zz[slice(1, None, 2), slice(2)] = -5.0;
    return (x[slice(1, 3)], m[slice(None), 0], x[slice(1, None, 2)], x[slice(None, None, -1)],
            m[slice(-1, 0, -2), slice(1, 5)], x[slice(4)], zz);"""
    got = run_ok(src(body, "(f64[?], f64[?], f64[?], f64[?], f64[?, ?], f64[?], f64[?, ?])"), INPUTS, tmp_path, target)
    zz = M.copy()
    zz[slice(1, None, 2), slice(2)] = -5.0
    want = (X[slice(1, 3)], M[slice(None), 0], X[slice(1, None, 2)], X[slice(None, None, -1)],
            M[slice(-1, 0, -2), slice(1, 5)], X[slice(4)], zz)
    for i, (g, w) in enumerate(zip(got, want)):
        assert_same(g, w, f"result {i}")


def test_too_few_rows_is_a_run_time_error(tmp_path):
    """Python's ValueError, at run time where the length is known only then."""
    with pytest.raises(ValueError):
        a, b, *rest, c = X[:2]
    run_fails(src("    a, b, *rest, c = x[:2];\n    return a + b + c;", "f64"), INPUTS, tmp_path, "not enough values to unpack")


@pytest.mark.parametrize(
    "body, code, words",
    [
        ("    v = x[x > 0];\n    return np.hypot(*v).sum();", "E0326", "cannot unpack `*v`"),
        ("    return np.sum(x) if true else minus(*pair(x)).sum();", "E0326", "bind it to a name first"),
        ("    w = x.copy();\n    return fma(w, *bump(w)).sum();", "E0326", "writes its arguments"),
        ("    a, *rest = m;\n    return (rest * 2).sum();", "E0327", "Python's list of an array's rows"),
        ("    a, *rest = m;\n    return sum(rest).sum();", "E0327", "np.array(rest)"),
        ("    *a, *b = (1.0, 2.0);\n    return 1.0;", "E0327", "two starred targets"),
        ("    a, b, *c = (1.0,);\n    return a;", "E0106", "not enough values to unpack"),
        ("    m.reshape(2, -1)[0, 0] = 1.0;\n    return 1.0;", "E0328", "may not be contiguous"),
        ("    v = m[::2];\n    v.ravel()[0] = 1.0;\n    return 1.0;", "E0328", "may not be contiguous"),
        ("    z = m.copy();\n    z.diagonal()[0] = 1.0;\n    return 1.0;", "E0328", "read-only"),
        ("    z = m.copy();\n    z.astype(np.float64)[0] = 1.0;\n    return 1.0;", "E0328", "astype"),
    ],
)
def test_refusals_name_the_fix(body, code, words, tmp_path):
    """Where arrayc cannot follow Python (a length known only at run time, a list of rows used as
    a list) or Python refuses (two stars, too few values): the error, naming the fix."""
    assert_check_error(src(body, "f64"), code, words, tmp_path)

"""Array literals and reshapes against NumPy (docs/language.md, "Array literals" and "Builtin
functions"): `[a, b, ..]` and `array`/`asarray` with NumPy's `np.array` dtypes and shapes (items
of run-time values, nesting, the empty literal), and `reshape`, `ravel`, `flatten` with NumPy's
view-or-copy rule: writes through a reshape of a row-major array change it, as NumPy's view does,
while a reshape of a transposed or stepped view is a copy; on the CPU and on the GPU kernels
(emulated, and the GPU where there is one). Then the checker's errors and the run time's, each
naming the place."""
import numpy as np
import pytest

from arrayc_examples import TARGETS, assert_check_error, assert_run_time_error, run_source


def run_ok(src, ins, tmp_path, target, flags=()):
    proc, got = run_source(src, ins, tmp_path, flags=["--target", target, *flags])
    assert proc.returncode == 0, f"{src}\n{proc.stderr}"
    return got


def assert_same(got, want, what=""):
    want = np.asarray(want)
    assert got.dtype == want.dtype and got.shape == want.shape, f"{what}: {got.dtype}{got.shape}, NumPy {want.dtype}{want.shape}"
    np.testing.assert_array_equal(got, want, err_msg=what)


@pytest.mark.parametrize("target", TARGETS)
def test_literals_match_numpy(target, tmp_path):
    src = """fn main(x: f64[n], k: i64, c: f32, b: bool) -> (f64[3], i64[2, 2], bool[3], i64[3], f64[2], f64[0],
        f64[2, 3], f64[2], f32[2], f64[2], i64[2, 1, 2], f64[3], f32[2], i64[2], f64[2], f64[3]) {
    let w = [0.25, 0.5, 0.25];
    let m = [[1, 2], [3, 4 * k]];
    let flags = [true, b, x[0] > 0.0];
    let mixed = [true, 2, k];
    let promoted = [1, 2.5];
    let nothing = [];
    let rows = [[x[0], x[1], 1], [-x[2], 2.0 * x[0], sum(x)]];
    let s = [sin(x[0]), len(x)];
    let fs = [c, c * 2.0];
    let f32_int = [c, 1];
    let deep = [[[1, 2]], [[3, -k]]];
    let smoothed = w * x[:3] + 1.0;
    let arr = array([1, 2], dtype=f32);
    let asarr = asarray([[1.5, 2.5]], dtype=i64)[0];
    let trailing = [1.0, 2.0,];
    let stencil = array([x[0], x[1], x[2]]) - w;
    return (w, m, flags, mixed, promoted, nothing, rows, s, fs, f32_int, deep, smoothed, arr, asarr, trailing, stencil);
}
"""
    x = np.array([0.5, -1.25, 3.0, 2.0])
    k, c, b = 3, np.float32(0.75), False
    got = run_ok(src, {"x": x}, tmp_path, target, ["--arg", f"k={k}", "--arg", f"c={c}", "--arg", "b=false"])
    w = np.array([0.25, 0.5, 0.25])
    want = [
        w,
        np.array([[1, 2], [3, 4 * k]]),
        np.array([True, b, x[0] > 0.0]),
        np.array([True, 2, k]),
        np.array([1, 2.5]),
        np.array([]),
        np.array([[x[0], x[1], 1], [-x[2], 2.0 * x[0], np.sum(x)]]),
        np.array([np.sin(x[0]), len(x)]),
        np.array([c, c * np.float32(2.0)]),
        np.array([c, 1]),
        np.array([[[1, 2]], [[3, -k]]]),
        w * x[:3] + 1.0,
        np.array([1, 2], dtype=np.float32),
        np.asarray([[1.5, 2.5]], dtype=np.int64)[0],
        np.array([1.0, 2.0]),
        np.array([x[0], x[1], x[2]]) - w,
    ]
    for i, (g, wt) in enumerate(zip(got, want)):
        assert_same(g, wt, f"result {i}")


@pytest.mark.parametrize("target", TARGETS[:2])
def test_array_and_asarray_of_arrays(target, tmp_path):
    src = """fn main(x: i64[n]) -> (i64[n], f64[n], i64[n], f64[]) {
    let a = array(x);
    a[0] = 100;
    let b = asarray(x, dtype=f64);
    let c = asarray(x);
    c[1] = -7;
    return (a, b, x, array(2.5));
}
"""
    x = np.arange(4) * 3
    got = run_ok(src, {"x": x}, tmp_path, target)
    want_x = x.copy()
    a = np.array(want_x)
    a[0] = 100
    b = np.asarray(want_x, dtype=np.float64)
    np.asarray(want_x)[1] = -7
    for g, wt in zip(got, [a, b, want_x, np.array(2.5)]):
        assert_same(g, wt)


# (arrayc expression, NumPy function of `a` (`T[4, 6]`) and `v` (`T[n]`, n = 24), result type).
RESHAPES = [
    ("reshape(a, (3, 8))", lambda a, v: np.reshape(a, (3, 8)), "f64[3, 8]"),
    ("a.reshape(2, -1)", lambda a, v: a.reshape(2, -1), "f64[2, 12]"),
    ("a.reshape((-1, 4, 3))", lambda a, v: a.reshape((-1, 4, 3)), "f64[2, 4, 3]"),
    ("reshape(v, 24)", lambda a, v: np.reshape(v, 24), "f64[24]"),
    ("v.reshape(4, -1)", lambda a, v: v.reshape(4, -1), "f64[4, ?]"),
    ("ravel(a)", lambda a, v: np.ravel(a), "f64[24]"),
    ("a.T.ravel()", lambda a, v: a.T.ravel(), "f64[24]"),
    ("a[:, 1:4].flatten()", lambda a, v: a[:, 1:4].flatten(), "f64[12]"),
    ("a[1:3].reshape(12)", lambda a, v: a[1:3].reshape(12), "f64[12]"),
    ("a[::2, ::-1].reshape(3, 4)", lambda a, v: a[::2, ::-1].reshape(3, 4), "f64[3, 4]"),
    ("transpose(a).reshape(6, 4) * 2.0 + 1.0", lambda a, v: a.T.reshape(6, 4) * 2.0 + 1.0, "f64[6, 4]"),
    ("sum(a.reshape(4, 2, 3), axis=1)", lambda a, v: a.reshape(4, 2, 3).sum(axis=1), "f64[4, 3]"),
    ("reshape(v[0], (1, 1))", lambda a, v: np.reshape(v[0], (1, 1)), "f64[1, 1]"),
    ("v[2:].reshape(-1, 2)[1:, 0]", lambda a, v: v[2:].reshape(-1, 2)[1:, 0], "f64[?]"),
]


@pytest.mark.parametrize("target", TARGETS)
def test_elements_of_a_literal_read_in_the_kernel_that_writes_them(target, tmp_path):
    """A literal array written element by element (its `fill`s of 0-d views) and read through other
    0-d views in the same kernel is materialised, not contracted into one value (a regression:
    `np.cross(a, [0, 0, 1])` read `[1, 1, 1]`, every view the last one written); against NumPy."""
    src = """fn main(a: f64[3]) -> (f64[3], f64[3], f64, f64, f64[3]) {
    let w = np.array([0.0, 2.0, 1.0]);
    let p = np.array([a[2], a[0], a[1]]);
    return np.cross(a, [0, 0, 1]), np.cross(a, w), w[0] * a[0] + w[1] * a[1] + w[2] * a[2], p[0] - p[1] * p[2], p * w;
}
"""
    a = np.array([-0.5, 1.25, 3.0])
    proc, res = run_source(src, {"a": a}, tmp_path, flags=("--target", target))
    assert proc.returncode == 0, proc.stderr
    w = np.array([0.0, 2.0, 1.0])
    p = np.array([a[2], a[0], a[1]])
    want = [np.cross(a, [0, 0, 1]), np.cross(a, w), w[0] * a[0] + w[1] * a[1] + w[2] * a[2], p[0] - p[1] * p[2], p * w]
    for got, wv in zip(res, want):
        np.testing.assert_array_equal(got, wv)
    # The same for a temporary written and read through its two disjoint halves in one kernel.
    halves = """fn main(a: f64[N], b: f64[N]) -> f64[N] {
    let c = a * 2.0;
    let t = np.empty(2 * N);
    t[:N] = c;
    t[N:] = b;
    return t[:N] + t[N:] * 10.0;
}
"""
    a5, b5 = np.arange(5.0), np.arange(5.0) + 100
    proc, res = run_source(halves, {"a": a5, "b": b5}, tmp_path / "halves", flags=("--target", target))
    assert proc.returncode == 0, proc.stderr
    np.testing.assert_array_equal(res[0], 2 * a5 + 10 * b5)


@pytest.mark.parametrize("target", TARGETS)
def test_reshapes_match_numpy(target, tmp_path):
    types = ", ".join(t for _, _, t in RESHAPES)
    src = f"fn main(a: f64[4, 6], v: f64[n]) -> ({types}) {{\n    return ({', '.join(e for e, _, _ in RESHAPES)});\n}}\n"
    a = np.arange(24, dtype=np.float64).reshape(4, 6) / 4
    v = np.arange(24, dtype=np.float64) - 5
    got = run_ok(src, {"a": a, "v": v}, tmp_path, target)
    for g, (e, f, _) in zip(got, RESHAPES):
        assert_same(g, f(a, v), e)


@pytest.mark.parametrize("target", TARGETS)
def test_writes_through_a_reshape_change_the_base(target, tmp_path):
    # As NumPy: a reshape of a row-major array (a fresh one, a parameter, a row block of one) is a
    # view, so writes through it change the base and writes to the base show through it; a reshape
    # of a transposed or stepped view is a copy, which writes do not reach; `flatten` always copies.
    src = """fn main(p: f64[4, 6]) -> (f64[12], f64[2, 6], f64[4, 6], f64[24], f64[3, 2], f64[4, 6], f64[24]) {
    let base = arange(12) * 1.0;
    let m = reshape(base, (3, 4));
    m[1, :] = -1.0;
    m[2, 3] += 100.0;
    let back = base.reshape(2, 6);
    base[0] = 42.0;
    let r = p[1:3].reshape(-1);
    r[0] = -5.0;
    r[11] = 7.0;
    let flat = ravel(p);
    flat[23] = 99.0;
    let t = p.T.reshape(24);
    t[0] = 1000.0;
    let s = p[::2, ::2].reshape(3, 2);
    s[0, 0] = 2000.0;
    let f = p.flatten();
    f[1] = 3000.0;
    let q = zeros(4, 6);
    let qv = q[1:].reshape(3, 2, 3).reshape(9, 2);
    qv[8, 1] = 1.5;
    let qq = q.ravel()[6:].reshape(3, 6);
    qq[0, 0] += 2.5;
    return (base, back, p, t, s, q, f);
}
"""
    p = np.arange(24, dtype=np.float64).reshape(4, 6)
    got = run_ok(src, {"p": p}, tmp_path, target)
    base = np.arange(12) * 1.0
    m = np.reshape(base, (3, 4))
    m[1, :] = -1.0
    m[2, 3] += 100.0
    back = base.reshape(2, 6)
    base[0] = 42.0
    pp = p.copy()
    r = pp[1:3].reshape(-1)
    r[0] = -5.0
    r[11] = 7.0
    flat = np.ravel(pp)
    flat[23] = 99.0
    t = pp.T.reshape(24)
    t[0] = 1000.0
    s = pp[::2, ::2].reshape(3, 2)
    s[0, 0] = 2000.0
    f = pp.flatten()
    f[1] = 3000.0
    q = np.zeros((4, 6))
    qv = q[1:].reshape(3, 2, 3).reshape(9, 2)
    qv[8, 1] = 1.5
    qq = q.ravel()[6:].reshape(3, 6)
    qq[0, 0] += 2.5
    assert np.shares_memory(r, pp) and np.shares_memory(flat, pp) and not np.shares_memory(t, pp)
    assert np.shares_memory(qv, q) and np.shares_memory(qq, q)
    want = [base, back, pp, t, s, q, f]
    for i, (g, wt) in enumerate(zip(got, want)):
        assert_same(g, wt, f"result {i}")


@pytest.mark.parametrize("target", TARGETS[:2])
def test_reshape_of_an_argument_view_decides_at_run_time(target, tmp_path):
    # `g` receives a view whose layout only the run time knows: a row block (row-major: the reshape
    # is a view and the write reaches `a`) and a column block (not: a copy, `a` unchanged).
    src = """fn g(x: f64[r, c]) -> f64 {
    let y = x.reshape(-1);
    y[0] = -1.0;
    return sum(y);
}
fn main(a: f64[4, 6]) -> (f64, f64, f64[4, 6]) {
    let s1 = g(a[2:]);
    let s2 = g(a[:, 3:]);
    return (s1, s2, a);
}
"""
    a = np.arange(24, dtype=np.float64).reshape(4, 6)
    got = run_ok(src, {"a": a}, tmp_path, target)
    want = a.copy()

    def g(x):
        y = x.reshape(-1)
        y[0] = -1.0
        return np.sum(y)

    s1, s2 = g(want[2:]), g(want[:, 3:])
    assert got[0] == s1 and got[1] == s2
    assert_same(got[2], want)


@pytest.mark.parametrize(
    "src,code,words",
    [
        ("fn f() -> f64[2, 2] { return [[1.0, 2.0], [3.0]]; }", "E0411", "item 1 has shape (1,), item 0 has shape (2,)"),
        ("fn f() -> f64[2] { return [1.0, [2.0]]; }", "E0411", "inhomogeneous"),
        ("fn f(x: f64[n]) -> f64[2, n] { return [x, 1.0]; }", "E0411", "item 1 has shape (), item 0 has shape (n,)"),
        ("fn f(x: f64[n, 3]) -> f64[2, 3] { return [x[0], x[0, :2]]; }", "E0411", "join arrays of different sizes"),
        ("fn f() -> f64[5, 2] { return reshape(zeros(12), (5, 2)); }", "E0412",
         "cannot reshape array of size 12 into shape (5,2)"),
        ("fn f() -> f64[5, 2] { return zeros(3, 4).reshape(5, -1); }", "E0412", "cannot reshape array of size 12"),
        ("fn f(x: f64[n]) -> f64[2, 2] { return x.reshape(-1, -1); }", "E0412", "only specify one unknown"),
        ("fn f(x: f64[n]) -> f64[2, 2] { return x.reshape(-2, 2); }", "E0412", "negative size"),
        ("fn f(x: f64[n]) -> f64[2, 2] { return x.reshape(2.0, 2); }", "E0406", "must be an integer"),
        ("fn f(x: f64[n]) -> f64 { return x.sort()[0]; }", "E0207", "sorts in place"),
    ],
)
def test_checker_errors(src, code, words, tmp_path):
    assert_check_error(src, code, words, tmp_path)


@pytest.mark.parametrize(
    "src,args,message",
    [
        ("fn f(x: f64[n]) -> f64[?, 5] {\n    return x.reshape(-1, 5);\n}",
         {"x": np.zeros(12)}, "cannot reshape array into shape (-1, 5)"),
        ("fn f(x: f64[n], k: i64) -> f64[?, ?] {\n    return reshape(x, (k, 4));\n}",
         {"x": np.zeros(12), "k": 2}, "cannot reshape array of size 12 into shape (k, 4) (8 elements)"),
        ("fn f(x: f64[n], k: i64) -> f64[?, ?] {\n    return reshape(x, (k, -4 * k));\n}",
         {"x": np.zeros(12), "k": -1}, "negative size"),
    ],
)
def test_run_time_errors_name_the_line(src, args, message, tmp_path):
    assert_run_time_error(src, args, message, tmp_path)

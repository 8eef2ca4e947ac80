"""Everyday NumPy idioms as a NumPy user writes them (issue 31, probe idioms2): NumPy's keyword
names of positional parameters (`np.linspace(start=0, stop=1, num=5)`, `np.full(shape,
fill_value=7)`, `np.arange(10, step=2)`, `x.astype(dtype=np.float32)`), `enumerate(x, start=1)`,
each program compared with the same Python function run by NumPy, on the CPU and on the emulated
GPU target (and `gpu` where there is one)."""
import numpy as np
import pytest

from arrayc_examples import TARGETS, assert_check_error, assert_results, check_source, run_source

RNG = np.random.default_rng(31)
X = RNG.standard_normal(10)
Y = RNG.standard_normal(10)
T = np.sort(RNG.random(10)) * 10
M = RNG.standard_normal((4, 6))
SQ = RNG.standard_normal((5, 5)) + 5 * np.eye(5)
XI = RNG.integers(-5, 5, 10)
INPUTS = {"x": X, "y": Y, "t": T, "m": M, "sq": SQ, "xi": XI}
SIG = "x: f64[n], y: f64[n], t: f64[n], m: f64[r, c], sq: f64[s, s], xi: i64[n]"


def run(body, ret, target, tmp_path):
    """Runs `fn main(SIG) -> ret { body }` on INPUTS; its results."""
    src = f"import numpy as np;\nfn main({SIG}) -> {ret} {{\n{body}\n}}\n"
    proc, res = run_source(src, INPUTS, tmp_path, flags=("--target", target))
    assert proc.returncode == 0, proc.stderr
    return res


def assert_same_dtypes(res, want):
    """Each result has NumPy's dtype exactly (assert_results compares its kind)."""
    for got, w in zip(res, want):
        assert got.dtype == np.asarray(w).dtype, (got.dtype, np.asarray(w).dtype)


@pytest.mark.parametrize("target", TARGETS)
def test_creation_keywords(target, tmp_path):
    """NumPy's parameter names of the creation functions: every argument by keyword, and a
    keyword after positional ones; the dtype follows the fill value as NumPy's does."""
    body = """
    a = np.linspace(start=0.0, stop=2.0, num=5);
    b = np.full((2, 3), fill_value=7);
    c = np.full(shape=(2, 3), fill_value=1.5);
    d = np.zeros(shape=(2, 3));
    e = np.ones(shape=4, dtype=int);
    f = np.full_like(x, fill_value=2.0);
    g = np.eye(3, M=4, k=1);
    h = np.broadcast_to(x[:3], shape=(2, 3));
    return a, b, c, d, e, f, g, h;"""
    ret = "(f64[?], i64[?, ?], f64[?, ?], f64[?, ?], i64[?], f64[?], f64[?, ?], f64[?, ?])"
    want = (np.linspace(start=0.0, stop=2.0, num=5), np.full((2, 3), fill_value=7),
            np.full(shape=(2, 3), fill_value=1.5), np.zeros(shape=(2, 3)), np.ones(shape=4, dtype=int),
            np.full_like(X, fill_value=2.0), np.eye(3, M=4, k=1), np.broadcast_to(X[:3], shape=(2, 3)))
    res = run(body, ret, target, tmp_path)
    assert_results(res, want)
    assert_same_dtypes(res, want)


@pytest.mark.parametrize("target", TARGETS)
def test_arange_keywords(target, tmp_path):
    """`arange`'s start, stop and step by keyword; `arange(stop, step=s)` starts at 0 (its one
    positional argument is the stop), a float step gives float64."""
    body = """
    return np.arange(0, 10, step=3), np.arange(start=1, stop=7, step=2), np.arange(10, step=2),
        np.arange(stop=4), np.arange(1, stop=3.0), np.arange(5, step=0.5);"""
    ret = "(i64[?], i64[?], i64[?], i64[?], f64[?], f64[?])"
    want = (np.arange(0, 10, step=3), np.arange(start=1, stop=7, step=2), np.arange(10, step=2),
            np.arange(stop=4), np.arange(1, stop=3.0), np.arange(5, step=0.5))
    res = run(body, ret, target, tmp_path)
    assert_results(res, want)
    assert_same_dtypes(res, want)


@pytest.mark.parametrize("target", TARGETS)
def test_function_keywords(target, tmp_path):
    """The second and later parameters of NumPy's functions by name, among other keywords."""
    body = """
    return np.percentile(x, q=50), np.quantile(m, q=0.25, axis=0), np.tile(x[:3], reps=2),
        np.take(x, indices=[0, 2]), np.searchsorted(t, v=y, side='right'), np.interp(y, xp=t, fp=x),
        np.insert(x, 1, values=0.5), np.delete(x, obj=[0, 1]), np.append(x, values=y),
        np.split(x, indices_or_sections=5)[1], np.repeat(x[:3], repeats=2),
        np.reshape(x, shape=(2, 5)), np.swapaxes(m, axis1=0, axis2=1),
        np.moveaxis(m, source=0, destination=1), np.polyfit(x, y, deg=1),
        np.digitize(x, bins=np.array([-1.0, 0.0, 1.0])), np.unravel_index(xi + 5, shape=(3, 4))[0],
        np.sum(a=x), np.mean(a=m, axis=0), np.pad(x, pad_width=1, mode='constant', constant_values=0);"""
    ret = ("(f64, f64[?], f64[?], f64[?], i64[?], f64[?], f64[?], f64[?], f64[?], f64[?], f64[?], "
           "f64[?, ?], f64[?, ?], f64[?, ?], f64[?], i64[?], i64[?], f64, f64[?], f64[?])")
    want = (np.percentile(X, q=50), np.quantile(M, q=0.25, axis=0), np.tile(X[:3], reps=2),
            np.take(X, indices=[0, 2]), np.searchsorted(T, v=Y, side='right'), np.interp(Y, xp=T, fp=X),
            np.insert(X, 1, values=0.5), np.delete(X, obj=[0, 1]), np.append(X, values=Y),
            np.split(X, indices_or_sections=5)[1], np.repeat(X[:3], repeats=2),
            np.reshape(X, shape=(2, 5)), np.swapaxes(M, axis1=0, axis2=1),
            np.moveaxis(M, source=0, destination=1), np.polyfit(X, Y, deg=1),
            np.digitize(X, bins=np.array([-1.0, 0.0, 1.0])), np.unravel_index(XI + 5, shape=(3, 4))[0],
            np.sum(a=X), np.mean(a=M, axis=0), np.pad(X, pad_width=1, mode='constant', constant_values=0))
    res = run(body, ret, target, tmp_path)
    np.testing.assert_allclose(res[14], want[14], rtol=1e-9)  # polyfit's least squares
    assert_results(res[:14] + res[15:], want[:14] + want[15:])
    assert_same_dtypes(res, want)


@pytest.mark.parametrize("target", TARGETS)
def test_method_and_linalg_keywords(target, tmp_path):
    """`x.astype(dtype=..)`, a method's parameters by name (`x.take(indices=..)`,
    `x.repeat(repeats=..)`), and `np.linalg`'s (`matrix_power(a, n=2)`, `solve(a, b=..)`)."""
    body = """
    return x.astype(dtype=np.float32), x.astype(dtype=int), x.take(indices=[1, 2]),
        x[:3].repeat(repeats=2), np.linalg.matrix_power(sq, n=2), np.linalg.solve(sq, b=x[:5]);"""
    ret = "(f32[?], i64[?], f64[?], f64[?], f64[?, ?], f64[?])"
    want = (X.astype(dtype=np.float32), X.astype(dtype=int), X.take(indices=[1, 2]),
            X[:3].repeat(repeats=2), np.linalg.matrix_power(SQ, n=2), np.linalg.solve(SQ, b=X[:5]))
    res = run(body, ret, target, tmp_path)
    np.testing.assert_allclose(res[5], want[5], rtol=1e-10)
    assert_results(res[:5], want[:5])
    assert_same_dtypes(res, want)


@pytest.mark.parametrize("target", TARGETS)
def test_enumerate_start_keyword(target, tmp_path):
    """Python's `enumerate(x, start=1)`, as `enumerate(x, 1)`."""
    body = """
    s = 0.0;
    for i, v in enumerate(x, start=1) { s += i * v; }
    k = 0;
    for j, (a, b) in enumerate(zip(x, y), start=-2) { k += j * (a > b); }
    return s, k;"""

    def main():
        s = 0.0
        for i, v in enumerate(X, start=1):
            s += i * v
        k = 0
        for j, (a, b) in enumerate(zip(X, Y), start=-2):
            k += j * (a > b)
        return s, k

    assert_results(run(body, "(f64, i64)", target, tmp_path), main())


def test_keyword_errors_name_the_parameters(tmp_path):
    """A keyword NumPy's function has not, or one whose place is taken, stays the unknown-keyword
    error (E0502), which names the builtin's usage."""
    src = "fn main(x: f64[N]) -> f64 {\n    return np.percentile(x, 50, q=50);\n}\n"
    assert_check_error(src, "E0502", "`percentile` has no keyword argument `q`", tmp_path)
    src = "fn main(x: f64[N]) -> f64[?] {\n    return np.linspace(0.0, 1.0, nums=5);\n}\n"
    assert_check_error(src, "E0502", "`linspace` has no keyword argument `nums`", tmp_path)


@pytest.mark.parametrize("target", TARGETS)
def test_comprehension_clauses_of_several_names(target, tmp_path):
    """Python's `for a, b in zip(..)`, `for i, v in enumerate(..)` (with `start=`) and nested tuples
    in generators and list comprehensions, with conditions and a second clause."""
    body = """
    a = sum(p * q for p, q in zip(x, y));
    b = [i * v for i, v in enumerate(x) if v > 0];
    c = sum(1 for k, (p, q) in enumerate(zip(x, y), start=1) if p > q and k % 2 == 0);
    d = np.array([p - q for (p, q) in zip(x[:-1], x[1:])]);
    e = any(p > 2 * q for p, q in zip(x, y));
    f = np.array([[i * j * v for i, v in enumerate(x[:3])] for j, w in enumerate(y[:2]) if w != 0]);
    g = [r.sum() * k for k, r in enumerate(m)];
    return a, b, c, d, e, f, g;"""

    def main(x, y, m):
        a = sum(p * q for p, q in zip(x, y))
        b = [i * v for i, v in enumerate(x) if v > 0]
        c = sum(1 for k, (p, q) in enumerate(zip(x, y), start=1) if p > q and k % 2 == 0)
        d = np.array([p - q for (p, q) in zip(x[:-1], x[1:])])
        e = any(p > 2 * q for p, q in zip(x, y))
        f = np.array([[i * j * v for i, v in enumerate(x[:3])] for j, w in enumerate(y[:2]) if w != 0])
        g = [r.sum() * k for k, r in enumerate(m)]
        return a, np.array(b), c, d, e, f, np.array(g)

    ret = "(f64, f64[?], i64, f64[?], bool, f64[?, ?], f64[?])"
    assert_results(run(body, ret, target, tmp_path), main(X, Y, M))


@pytest.mark.parametrize("target", TARGETS)
def test_max_min_of_a_generator(target, tmp_path):
    """Python's `max`/`min` of a generator: of floats, of a filtered one, of Python's ints, and
    with a NaN first (Python keeps it) and later (Python skips it), where NumPy's `max` differs."""
    body = """
    z = x.copy(); z[0] = np.nan;
    w = x.copy(); w[3] = np.nan;
    return max(abs(p - q) for p, q in zip(x, y)), min(v for v in x if v > 0),
        max(k * k for k in range(5)), max(v for v in z), max(v for v in w), min(t for t in xi);"""

    def main(x, y, xi):
        z = x.copy(); z[0] = np.nan
        w = x.copy(); w[3] = np.nan
        return (max(abs(p - q) for p, q in zip(x, y)), min(v for v in x if v > 0),
                max(k * k for k in range(5)), max(v for v in z), max(v for v in w), min(t for t in xi))

    want = main(X, Y, XI)
    res = run(body, "(f64, f64, i64, f64, f64, i64)", target, tmp_path)
    assert np.isnan(res[3]) and not np.isnan(res[4])
    np.testing.assert_equal([np.asarray(r).item() for r in res], [np.asarray(w).item() for w in want])


def test_max_of_nothing_is_a_run_time_error(tmp_path):
    """`max` of an empty generator is Python's ValueError, a run-time error naming the line."""
    from arrayc_examples import assert_run_time_error
    src = "fn main(x: f64[N]) -> f64 {\n    return max(v for v in x if v > 100.0);\n}\n"
    assert_run_time_error(src, {"x": X}, "max() arg is an empty sequence", tmp_path)


def test_tuple_clause_over_other_iterables_is_refused(tmp_path):
    """Several names in a clause over anything but `enumerate`/`zip` is the `for` statement's
    error (E0110)."""
    src = "fn main(x: f64[N]) -> f64 {\n    return sum(a * b for a, b in x);\n}\n"
    assert_check_error(src, "E0110", "iterates `enumerate(x)` or `zip(x, y, ..)`", tmp_path)


@pytest.mark.parametrize("target", TARGETS)
def test_gradient_unpacked_per_axis(target, tmp_path):
    """`gy, gx = np.gradient(img)`, NumPy's list of one gradient per axis, unpacked (also by `let`)."""
    img = RNG.random((5, 7))
    src = """fn main(img: f64[p, q]) -> (f64[?, ?], f64[?, ?]) {
    gy, gx = np.gradient(img);
    let (a, b) = np.gradient(img * 2.0);
    return gx + 2.0 * gy, a - b;
}
"""
    gy, gx = np.gradient(img)
    a, b = np.gradient(img * 2.0)
    proc, res = run_source(src, {"img": img}, tmp_path, flags=("--target", target))
    assert proc.returncode == 0, proc.stderr
    assert_results(res, (gx + 2.0 * gy, a - b))


def test_gradient_and_generator_errors_name_the_arrayc_way(tmp_path):
    """`np.gradient` of a 2-d array (NumPy's gradients along each axis) as one value names the
    unpacking; Python's `sum` of a generator
    of arrays (arrayc's adds scalars) names a loop and NumPy's stacked sum; more names than axes
    are NumPy's unpacking error (E0309), as fewer names are."""
    src = "fn main(img: f64[p, q]) -> f64[?, ?] {\n    return np.gradient(img);\n}\n"
    assert_check_error(src, "E0309", "destructure the results", tmp_path)
    src = "fn main(m: f64[r, c]) -> f64[?] {\n    return sum(m[i] for i in range(m.shape[0]));\n}\n"
    assert_check_error(src, "E0303", "Python's `sum` of a generator of arrays", tmp_path)
    assert_check_error(src, "E0303", "total += item", tmp_path)
    proc = check_source(src, tmp_path)
    assert "E0306" not in proc.stderr, "the accumulator's error repeated at the return: " + proc.stderr
    src = "fn main(img: f64[p, q]) -> f64[?, ?] {\n    a, b, c = np.gradient(img);\n    return a;\n}\n"
    assert_check_error(src, "E0309", "cannot destructure 2 values into 3 names", tmp_path)


@pytest.mark.parametrize("target", TARGETS)
def test_reshape_to_another_shape_and_histogram_range(target, tmp_path):
    """`x.reshape(y.shape)` and `np.reshape(x, y.shape)` (a processed copy back in the image's
    shape), `np.histogram(x, bins, range)` with the range by position."""
    img = RNG.random((5, 6))
    src = """fn main(img: f64[p, q], x: f64[n]) -> (f64[?, ?], i64[?], f64[?], f64[?, ?]) {
    a = np.sqrt(img.flatten()).reshape(img.shape);
    c, e = np.histogram(x, 4, (-2, 2));
    b = np.reshape(x[:6], img[:2, :3].shape);
    return a, c, e, b;
}
"""
    c, e = np.histogram(X, 4, (-2, 2))
    want = (np.sqrt(img.flatten()).reshape(img.shape), c, e, np.reshape(X[:6], img[:2, :3].shape))
    proc, res = run_source(src, {"img": img, "x": X}, tmp_path, flags=("--target", target))
    assert proc.returncode == 0, proc.stderr
    assert_results(res, want)


def test_reshape_to_another_shape_checks_the_count(tmp_path):
    """Another array's shape of another element count: E0412 where both are known, else a run-time
    error naming the line (NumPy's ValueError)."""
    from arrayc_examples import assert_run_time_error
    src = "fn main(x: f64[N], img: f64[P, Q]) -> f64[?, ?] {\n    return x.reshape(img.shape);\n}\n"
    assert_run_time_error(src, {"x": X, "img": RNG.random((5, 6))}, "cannot reshape array of size 10", tmp_path)
    src = "fn main(x: f64[4]) -> f64[?, ?] {\n    return x.reshape(np.zeros((2, 3)).shape);\n}\n"
    assert_check_error(src, "E0412", "cannot reshape array of size 4", tmp_path)


@pytest.mark.parametrize("target", TARGETS)
def test_range_as_a_value(target, tmp_path):
    """Python's `range(..)` where NumPy converts it to an integer array: an index (the softmax
    loss's `probs[range(n), labels]`), a scatter's index, `np.array(range(..))`, `sum`, `len`."""
    body = """
    a = m[range(4), np.abs(xi[:4]) % 6];
    b = np.array(range(2, 10, 3));
    z = np.zeros((4, 4)); z[range(4), range(4)] = 1;
    s = sum(range(5)) + len(range(1, 7));
    return a, b, z, s;"""

    def main(m, xi):
        z = np.zeros((4, 4)); z[range(4), range(4)] = 1
        return m[range(4), np.abs(xi[:4]) % 6], np.array(range(2, 10, 3)), z, sum(range(5)) + len(range(1, 7))

    res = run(body, "(f64[?], i64[?], f64[?, ?], i64)", target, tmp_path)
    assert_results(res, main(M, XI))
    assert res[1].dtype == np.int64


def test_python_builtins_name_the_numpy_spelling(tmp_path):
    """Python's builtins arrayc has not (and `sorted` with a `key=`) are E0202 with the NumPy
    spelling; a float bound of a
    `range` value is the loop's E0305 (Python's TypeError)."""
    for call, words in [("np.array(sorted(x, key=abs))", "np.sort(x)"), ("np.array(set(x))", "np.unique(x)"),
                        ("np.array(list(map(abs, x)))", "elementwise")]:
        src = f"fn main(x: f64[N]) -> f64[?] {{\n    return {call};\n}}\n"
        assert_check_error(src, "E0202", words, tmp_path)
    src = "fn main(x: f64[N]) -> i64[?] {\n    return np.array(range(0.5, 3));\n}\n"
    assert_check_error(src, "E0305", "loop bounds must be integer scalars", tmp_path)

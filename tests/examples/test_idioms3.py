"""Everyday NumPy idioms as a NumPy user writes them (issue 31, probe gensum): Python's `sum` of a
generator of arrays over constants (the Game of Life's neighbour count), a list built by `append`
in a loop and then joined (`np.vstack(rows)`), `np.linspace(.., retstep=True)` and
`np.concatenate(arrays, axis=None)`; each program compared with the same Python function run by
NumPy, on the CPU and on the emulated GPU target (and `gpu` where there is one)."""
import numpy as np
import pytest

from arrayc_examples import TARGETS, assert_check_error, assert_results, assert_same, run_ok, run_source

RNG = np.random.default_rng(313)
G = (RNG.random((6, 7)) < 0.4).astype(np.int64)
B = RNG.random((6, 7)) < 0.4
X = RNG.standard_normal(5)
X32 = RNG.standard_normal(5).astype(np.float32)
XI = RNG.integers(-5, 5, 5)
INPUTS = {"g": G, "b": B, "x": X, "x32": X32, "xi": XI}
SIG = "g: i64[r, c], b: bool[r, c], x: f64[n], x32: f32[n], xi: i64[n]"


def run(body, ret, target, tmp_path):
    """Runs `fn main(SIG) -> ret { body }` on INPUTS; its results."""
    src = f"import numpy as np;\nfn main({SIG}) -> {ret} {{\n{body}\n}}\n"
    proc, res = run_source(src, INPUTS, tmp_path, flags=("--target", target))
    assert proc.returncode == 0, proc.stderr
    return res


def assert_same(res, want):
    """Values as NumPy's, and each result of NumPy's dtype exactly."""
    assert_results(res, want)
    for got, w in zip(res, want):
        assert got.dtype == np.asarray(w).dtype, (got.dtype, np.asarray(w).dtype)


def neighbours(g):
    """The Game of Life's idiom, as NumPy users write it."""
    return sum(np.roll(np.roll(g, i, 0), j, 1) for i in (-1, 0, 1) for j in (-1, 0, 1) if (i != 0 or j != 0))


@pytest.mark.parametrize("target", TARGETS)
def test_game_of_life(target, tmp_path):
    """Python's `sum` of a generator of arrays over two tuples with a condition: `0 + e1 + ...`,
    of an int grid and of a bool grid (`0 + bool_array` is int64), then the rule."""
    body = """
    n = sum(np.roll(np.roll(g, i, 0), j, 1) for i in (-1, 0, 1) for j in (-1, 0, 1) if (i != 0 or j != 0));
    nb = sum(np.roll(np.roll(b, i, 0), j, 1) for i in (-1, 0, 1) for j in (-1, 0, 1) if (i != 0 or j != 0));
    nxt = ((n == 3) | ((g == 1) & (n == 2))).astype(np.int64);
    return n, nb, nxt;"""
    n, nb = neighbours(G), neighbours(B)
    want = (n, nb, ((n == 3) | ((G == 1) & (n == 2))).astype(np.int64))
    assert_same(run(body, "(i64[?, ?], i64[?, ?], i64[?, ?])", target, tmp_path), want)


@pytest.mark.parametrize("target", TARGETS)
def test_sum_of_arrays_over_constants(target, tmp_path):
    """`range` of constants, a list comprehension, an inner range from the outer variable, a tuple
    of floats, bool items (int64), a weak Python int times float32 (float32), items that
    broadcast, and no item at all (Python's int 0)."""
    body = """
    a = sum(x ** k for k in range(1, 4));
    c = sum([x * k for k in range(3)]);
    d = sum(x * i + j for i in range(3) for j in range(i) if (i + j) % 2 == 1);
    e = sum(x * t for t in (0.5, -1.5, 2.0));
    f = sum(x > 0.25 * k for k in range(-2, 3));
    h = sum(x32 * k for k in range(3));
    m = sum(x[k] * x[:, None] for k in range(2));
    z = sum(x * k for k in range(0));
    w = sum(xi * k for k in range(10, 0, -3));
    return a, c, d, e, f, h, m, z, w;"""
    X2 = X[:, None]
    want = (sum(X ** k for k in range(1, 4)), sum([X * k for k in range(3)]),
            sum(X * i + j for i in range(3) for j in range(i) if (i + j) % 2 == 1),
            sum(X * t for t in (0.5, -1.5, 2.0)), sum(X > 0.25 * k for k in range(-2, 3)),
            sum(X32 * k for k in range(3)), sum(X[k] * X2 for k in range(2)),
            sum(X * k for k in range(0)), sum(XI * k for k in range(10, 0, -3)))
    assert isinstance(want[7], int)
    res = run(body, "(f64[?], f64[?], f64[?], f64[?], i64[?], f32[?], f64[?, ?], i64, i64[?])", target, tmp_path)
    assert_same(res, want)


@pytest.mark.parametrize("target", TARGETS)
def test_sum_of_scalars_over_constants(target, tmp_path):
    """Scalar items over constants keep Python's values (an unrolled sum of scalars)."""
    body = """
    a = sum(k * k for k in (1, 2, 3));
    c = sum(x[k] * k for k in range(3));
    d = sum(1 for i in range(4) for j in range(4) if i < j);
    e = sum(x32[k] for k in range(2));
    return a, c, d, e;"""
    want = (sum(k * k for k in (1, 2, 3)), sum(X[k] * k for k in range(3)),
            sum(1 for i in range(4) for j in range(4) if i < j), sum(X32[k] for k in range(2)))
    assert_same(run(body, "(i64, f64, i64, f32)", target, tmp_path), [np.asarray(w) for w in want])


@pytest.mark.parametrize("target", TARGETS)
def test_sum_with_start(target, tmp_path):
    """Python's `sum(list, start)`: `start + e1 + ...`, unrolled over constants (an int, a float by
    keyword), and over a run-time count from a start array (a new array at each `+`: the start
    array is not written); an item's `a if c else b` of a constant `c` is the branch taken; a
    parenthesised generator (`sum((e for ..), start)`, `any((e for ..))`, `max((e for ..))`)."""
    body = """
    z = np.zeros(len(x));
    a = sum([x * k for k in range(3)], 10);
    c = sum([xi * k for k in range(3)], start=0.5);
    d = sum([x * k for k in range(len(x))], z);
    e = sum(xi * k if k < 2 else xi * 0.5 for k in range(3));
    f = sum((x * k for k in range(len(x))), np.ones(len(x)));
    h = sum((x * k for k in range(3)));
    return a, c, d, e, z, f, h, any((t > 0 for t in x)), max((x[k] * 2 for k in range(len(x))));"""
    z = np.zeros(len(X))
    want = (sum([X * k for k in range(3)], 10), sum([XI * k for k in range(3)], start=0.5),
            sum([X * k for k in range(len(X))], z), sum(XI * k if k < 2 else XI * 0.5 for k in range(3)), z,
            sum((X * k for k in range(len(X))), np.ones(len(X))), sum((X * k for k in range(3))),
            np.bool_(any((t > 0 for t in X))), max((X[k] * 2 for k in range(len(X)))))
    ret = "(f64[?], f64[?], f64[?], f64[?], f64[?], f64[?], f64[?], bool, f64)"
    assert_same(run(body, ret, target, tmp_path), [np.asarray(w) for w in want])


def test_sum_of_arrays_run_time_count_is_refused(tmp_path):
    """Arrays over items known only at run time: E0303 naming the ways."""
    src = "fn main(x: f64[n]) -> f64[?] {\n    return sum(x * k for k in range(len(x)));\n}\n"
    assert_check_error(src, "E0303", "known only at run time", tmp_path)


def test_max_of_a_generator_of_arrays_is_refused(tmp_path):
    """Python's `max` of arrays compares them (its ValueError): E0318 naming NumPy's ways."""
    src = "fn main(x: f64[n]) -> f64[?] {\n    return max(x * k for k in range(3));\n}\n"
    assert_check_error(src, "E0318", "np.maximum.reduce", tmp_path)


@pytest.mark.parametrize("target", TARGETS)
def test_appended_list_joined(target, tmp_path):
    """A list grown by `append` in a loop of a constant count, then NumPy's joins of it."""
    body = """
    r1 = []; for i in range(3) { r1.append(x * i); } a = np.vstack(r1);
    r2 = []; for i in range(3) { r2.append(x + i); } c = np.hstack(r2);
    r3 = []; for i in range(1, 4) { r3.append(x - i); } d = np.stack(r3, axis=1);
    r4 = []; for i in range(3) { r4.append(g[i] * i); } e = np.concatenate(r4);
    r5 = []; for i in range(2) { r5.append(x * i); } f = np.column_stack(r5);
    r6 = []; for i in range(4, 0, -2) { r6.append(g * i); } h = np.vstack(r6);
    r7 = []; for i in range(3) { r7.append(i * 2); } k = np.array(r7);
    return a, c, d, e, f, h, k;"""
    want = (np.vstack([X * i for i in range(3)]), np.hstack([X + i for i in range(3)]),
            np.stack([X - i for i in range(1, 4)], axis=1), np.concatenate([G[i] * i for i in range(3)]),
            np.column_stack([X * i for i in range(2)]), np.vstack([G * i for i in range(4, 0, -2)]),
            np.array([i * 2 for i in range(3)]))
    ret = "(f64[?, ?], f64[?], f64[?, ?], i64[?], f64[?, ?], i64[?, ?], i64[?])"
    assert_same(run(body, ret, target, tmp_path), want)


def test_appended_list_joined_run_time_count(tmp_path):
    """Of a run-time count the join takes the array of the items, which NumPy iterates along axis 0."""
    src = ("import numpy as np;\nfn main(x: f64[n]) -> (f64[?, ?], f64[?]) {\n"
           "    rows = []; for i in range(len(x)) { rows.append(x * i); }\n"
           "    return (np.vstack(rows), np.hstack(rows));\n}\n")
    x = np.arange(3.0) + 0.5
    rows = [x * i for i in range(len(x))]
    assert_same(run_ok(src, {"x": x}, tmp_path), [np.vstack(rows), np.hstack(rows)])


@pytest.mark.parametrize("target", TARGETS)
def test_linspace_retstep(target, tmp_path):
    """`retstep=True`: NumPy's tuple of the samples and the step (NaN where num - 1 is 0)."""
    body = """
    a, s = np.linspace(0.0, 1.0, 5, retstep=True);
    c, t = np.linspace(2, -3, 4, endpoint=False, retstep=True);
    d, u = np.linspace(1.5, 2.5, 1, retstep=True);
    e = np.linspace(0.0, 1.0, 3, retstep=False);
    return a, s, c, t, d, u, e;"""
    want = (*np.linspace(0.0, 1.0, 5, retstep=True), *np.linspace(2, -3, 4, endpoint=False, retstep=True),
            *np.linspace(1.5, 2.5, 1, retstep=True), np.linspace(0.0, 1.0, 3, retstep=False))
    assert np.isnan(want[5])
    res = run(body, "(f64[?], f64, f64[?], f64, f64[?], f64, f64[?])", target, tmp_path)
    assert_same(res, [np.asarray(w) for w in want])


@pytest.mark.parametrize("target", TARGETS)
def test_concatenate_axis_none(target, tmp_path):
    """`concatenate(arrays, axis=None)` ravels each array first, dtypes promoted."""
    body = """
    return np.concatenate((g, g[:2, 1:]), axis=None), np.concatenate([x, g[0]], axis=None),
        np.concatenate((b, xi), None);"""
    want = (np.concatenate((G, G[:2, 1:]), axis=None), np.concatenate([X, G[0]], axis=None),
            np.concatenate((B, XI), None))
    assert_same(run(body, "(i64[?], f64[?], i64[?])", target, tmp_path), want)

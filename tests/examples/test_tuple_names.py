"""A Python tuple bound to one name (issue 31, `grammar/src/tuple_names.rs`): `g = x.shape`,
`parts = np.array_split(x, 3)`, `r = f(x)`, `qr = divmod(a, b)`, `t = (1, 2.0)`, then indexed by
integer literals, measured by `len`, unpacked, iterated, and passed whole; each program compared
with the same Python function run by NumPy, on the CPU and on the emulated GPU target."""
import numpy as np
import pytest

from arrayc_examples import TARGETS, assert_check_error, assert_results, run_source


@pytest.mark.parametrize("target", TARGETS)
def test_shape_bound_to_a_name(target, tmp_path):
    """`g = x.shape` (and `let s = x.shape`): `g[0]`, `g[-1]`, `len(g)`, `zeros(g)`, `n, m = g`,
    `for d in g`, and `for d in x.shape` itself."""
    src = '''fn main(x: f64[N, M]) -> (f64, i64, f64[N, M]) {
    g = x.shape;
    let s = x.shape;
    n, m = g;
    t = 0;
    for d in g { t += d; }
    for d in x.shape { t += 10 * d; }
    z = zeros(s) + x[g[0] - 1, g[-1] - 1];
    return x[g[0] - 1, g[1] - 2] + len(g), n * m + t, z;
}
'''

    def main(x):
        g = x.shape
        s = x.shape
        n, m = g
        t = 0
        for d in g:
            t += d
        for d in x.shape:
            t += 10 * d
        z = np.zeros(s) + x[g[0] - 1, g[-1] - 1]
        return x[g[0] - 1, g[1] - 2] + len(g), n * m + t, z

    x = np.random.default_rng(2).standard_normal((5, 7))
    proc, res = run_source(src, {"x": x}, tmp_path, flags=("--target", target))
    assert proc.returncode == 0, proc.stderr
    assert_results(res, main(x))


@pytest.mark.parametrize("target", TARGETS)
def test_reductions_of_a_shape(target, tmp_path):
    """Python's `len`, `min`, `max`, `sum` and `np.prod`/`math.prod` of `x.shape` and of a name
    bound to it (integers: a 3-d and a 1-d parameter), `np.prod(x.shape)` as the size."""
    src = '''import math;
fn main(x: f64[A, B, C], v: f64[N]) -> (i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, f64) {
    g = x.shape;
    return (len(x.shape), min(x.shape), max(x.shape), sum(x.shape), np.prod(x.shape), math.prod(v.shape),
            min(g), np.max(g), sum(g), np.prod(g), x.sum() / np.prod(x.shape));
}
'''

    def main(x, v):
        g = x.shape
        return (len(x.shape), min(x.shape), max(x.shape), sum(x.shape), np.prod(x.shape), __import__("math").prod(v.shape),
                min(g), np.max(g), sum(g), np.prod(g), x.sum() / np.prod(x.shape))

    rng = np.random.default_rng(3)
    x, v = rng.standard_normal((3, 5, 2)), rng.standard_normal(7)
    proc, res = run_source(src, {"x": x, "v": v}, tmp_path, flags=("--target", target))
    assert proc.returncode == 0, proc.stderr
    assert_results(res, main(x, v))


@pytest.mark.parametrize("target", TARGETS)
def test_slices_of_a_shape(target, tmp_path):
    """Python's slices of `x.shape` with literal bounds are tuples: `np.zeros(x.shape[::-1])`,
    `x.reshape(-1, np.prod(x.shape[1:]))`, `len(x.shape[1:])`, `x.shape[-2:]`, `x.shape[::2]`,
    `np.prod(x.shape[5:-9:-2])` (bounds clipped as Python's) and `np.ones(g[:-1])` of a name bound to it."""
    src = '''fn main(x: f64[A, B, C]) -> (f64[C, B, A], f64[A, ?], i64, i64[B, C], f64[A, C], i64, f64[A, B]) {
    g = x.shape;
    return (np.zeros(x.shape[::-1]), x.reshape(-1, np.prod(x.shape[1:])), len(x.shape[1:]),
            np.zeros(x.shape[-2:], dtype=int), np.ones(x.shape[::2]), np.prod(x.shape[5:-9:-2]), np.ones(g[:-1]));
}
'''

    def main(x):
        g = x.shape
        return (np.zeros(x.shape[::-1]), x.reshape(-1, np.prod(x.shape[1:])), len(x.shape[1:]),
                np.zeros(x.shape[-2:], dtype=int), np.ones(x.shape[::2]), np.prod(x.shape[5:-9:-2]), np.ones(g[:-1]))

    x = np.random.default_rng(4).standard_normal((3, 5, 2))
    proc, res = run_source(src, {"x": x}, tmp_path, flags=("--target", target))
    assert proc.returncode == 0, proc.stderr
    assert_results(res, main(x))


@pytest.mark.parametrize("target", TARGETS)
def test_split_results_bound_to_a_name(target, tmp_path):
    """`parts = np.array_split(x, 3)` (sections of unequal lengths) and `np.split(x, [2, 5])`:
    `parts[1]`, `parts[-1]`, `len(parts)`."""
    src = '''fn main(x: f64[N]) -> (f64, f64, i64, f64[?]) {
    parts = np.array_split(x, 3);
    pieces = np.split(x, [2, 5]);
    return parts[1].sum(), parts[-1].sum() + pieces[0].sum(), len(parts) + len(pieces), pieces[1] * 2.0;
}
'''

    def main(x):
        parts = np.array_split(x, 3)
        pieces = np.split(x, [2, 5])
        return parts[1].sum(), parts[-1].sum() + pieces[0].sum(), len(parts) + len(pieces), pieces[1] * 2.0

    x = np.random.default_rng(3).standard_normal(11)
    proc, res = run_source(src, {"x": x}, tmp_path, flags=("--target", target))
    assert proc.returncode == 0, proc.stderr
    assert_results(res, main(x))


@pytest.mark.parametrize("target", TARGETS)
def test_results_divmod_and_literal_tuples_bound_to_a_name(target, tmp_path):
    """`r = f(x); r[1]`, `qr = divmod(a, b); qr[0]`, `t = (1, 2.0); t[1]`, `a, b = t`."""
    src = '''fn bounds(x: f64[N]) -> (f64, f64) { return x.min(), x.max(); }
fn main(x: f64[N], k: i64) -> (f64, i64, f64) {
    r = bounds(x);
    qr = divmod(k, 3);
    t = (1, 2.5);
    a, b = t;
    return r[1] - r[0], qr[0] * 10 + qr[-1], t[1] + len(t) + a * b;
}
'''

    def main(x, k):
        r = (x.min(), x.max())
        qr = divmod(k, 3)
        t = (1, 2.5)
        a, b = t
        return r[1] - r[0], qr[0] * 10 + qr[-1], t[1] + len(t) + a * b

    x = np.random.default_rng(4).standard_normal(9)
    for k in (17, -7):
        proc, res = run_source(src, {"x": x, "k": np.int64(k)}, tmp_path / str(k), flags=("--target", target))
        assert proc.returncode == 0, proc.stderr
        assert_results(res, main(x, k))


def test_tuple_name_errors(tmp_path):
    """A run-time index into a tuple name, an index out of range, and an unpacking of another
    length are errors naming the fix."""
    head = "fn main(x: f64[N, M], i: i64) -> f64 {\n    g = x.shape;\n"
    assert_check_error(head + "    return x[0, 0] + g[i];\n}\n", "E0309", "integer literal", tmp_path)
    assert_check_error(head + "    return x[0, 0] + g[2];\n}\n", "E0309", "integer literal in range", tmp_path)
    assert_check_error(head + "    a, b, c = g;\n    return x[0, 0];\n}\n", "E0106", "3 targets", tmp_path)

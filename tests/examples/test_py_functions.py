"""Python's function idioms (issue 31): a `lambda` bound to a name and called (`grammar/src/lambda.rs`),
inlined at each call; each program compared with the same Python function run by NumPy, on the CPU
and on the emulated GPU target, and the uses arrayc refuses, each with its error code."""
import numpy as np
import pytest

from arrayc_examples import TARGETS, assert_check_error, assert_results, run_source


@pytest.mark.parametrize("target", TARGETS)
def test_lambda_bound_to_a_name_and_called(target, tmp_path):
    """`f = lambda x, y: x * y + 1.0` (and `let`), called on arrays and scalars, with arguments
    that are expressions (each evaluated once), by keyword, a lambda calling another, and names the
    body reads taken at the call (Python's late binding)."""
    src = '''fn main(a: f64[N], b: f64[N], k: i64) -> (f64[N], f64[N], f64, f64, i64) {
    f = lambda x, y: x * y + 1.0;
    let sq = lambda v: v ** 2;
    c = 2.0;
    scale = lambda v: v * c + sq(v);
    c = 3.0;
    r1 = f(a, b) + f(b[::-1] * 2.0, y=a);
    r2 = scale(a - b);
    s = 0.0;
    for i in range(k) { s += f(float(i), c + 1.0); }
    pick = lambda n: n % 3 == 0;
    m = 0;
    for i in range(k) { if pick(i + 1) { m += 1; } }
    return r1, r2, sq(s), f(1.5, 2.0), m;
}
'''

    def main(a, b, k):
        f = lambda x, y: x * y + 1.0
        sq = lambda v: v ** 2
        c = 2.0
        scale = lambda v: v * c + sq(v)
        c = 3.0
        r1 = f(a, b) + f(b[::-1] * 2.0, y=a)
        r2 = scale(a - b)
        s = 0.0
        for i in range(k):
            s += f(float(i), c + 1.0)
        pick = lambda n: n % 3 == 0
        m = 0
        for i in range(k):
            if pick(i + 1):
                m += 1
        return r1, r2, sq(s), f(1.5, 2.0), m

    rng = np.random.default_rng(5)
    a, b = rng.standard_normal(9), rng.standard_normal(9)
    proc, res = run_source(src + "", {"a": a, "b": b}, tmp_path, flags=("--target", target, "--arg", "k=7"))
    assert proc.returncode == 0, proc.stderr
    assert_results(res, main(a, b, 7))


@pytest.mark.parametrize("target", TARGETS)
def test_lambda_in_conditions_and_comprehensions(target, tmp_path):
    """Calls in a `while` condition (evaluated at every iteration), in a branch of `a if c else
    b`, after `and`, and in a comprehension's element."""
    src = '''fn main(x: f64[N], n: i64) -> (i64, f64, f64[N], f64) {
    below = lambda i, t: x[i] < t;
    i = 0;
    while i < n and below(i, 1.0) { i += 1; }
    g = lambda v: v * v - 1.0;
    y = g(x[0] + 1.0) if x[0] > 0.0 else g(x[1] - 1.0);
    z = np.where(x > 0.0, g(x), -g(x));
    w = sum(g(x[j] * 2.0) for j in range(n));
    return i, y, z, w;
}
'''

    def main(x, n):
        below = lambda i, t: x[i] < t
        i = 0
        while i < n and below(i, 1.0):
            i += 1
        g = lambda v: v * v - 1.0
        y = g(x[0] + 1.0) if x[0] > 0.0 else g(x[1] - 1.0)
        z = np.where(x > 0.0, g(x), -g(x))
        w = sum(g(x[j] * 2.0) for j in range(n))
        return i, y, z, w

    x = np.array([0.3, -0.5, 0.9, 1.7, 0.2, 2.5])
    for n, xs in [(6, x), (6, -x)]:
        proc, res = run_source(src, {"x": xs}, tmp_path / str(xs[0] > 0), flags=("--target", target, "--arg", f"n={n}"))
        assert proc.returncode == 0, proc.stderr
        assert_results(res, main(xs, n))


def test_lambda_refused_uses(tmp_path):
    """A lambda passed as an argument (`sorted`, `map`), returned, stored under another name,
    recursive, or called with the wrong arguments: each its error code and arrayc's way."""
    head = "fn main(x: f64[N]) -> f64[N] {\n"
    assert_check_error(head + "    y = np.sort(list(map(lambda v: v * 2.0, x)));\n    return y;\n}\n",
                       "E0114", "fn f(x: f64)", tmp_path)
    assert_check_error(head + "    f = lambda v: v + 1.0;\n    g = f;\n    return g(x);\n}\n",
                       "E0114", "name of a lambda", tmp_path)
    assert_check_error("fn main(x: f64) -> f64 {\n    return lambda v: v + x;\n}\n", "E0114", "as a value", tmp_path)
    assert_check_error("fn main(n: i64) -> i64 {\n    fact = lambda k: 1 if k <= 1 else k * fact(k - 1);\n"
                       "    return fact(n);\n}\n", "E0115", "calls itself", tmp_path)
    assert_check_error(head + "    f = lambda a, b: a * b;\n    return f(x);\n}\n", "E0116", "no argument for `b`", tmp_path)
    assert_check_error(head + "    f = lambda a: a * 2.0;\n    return f(x, x);\n}\n", "E0116", "2 arguments", tmp_path)

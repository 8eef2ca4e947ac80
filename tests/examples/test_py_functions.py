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


@pytest.mark.parametrize("target", TARGETS)
def test_nested_functions_read_the_enclosing_names_at_the_call(target, tmp_path):
    """A nested `fn` (Python's nested `def`) reading the enclosing function's parameters and
    locals (Python's closure, read at each call: `c` changes between calls), calling an earlier
    nested function, called in a loop and with a keyword argument, and recursive."""
    src = '''fn main(x: f64[N], alpha: f64) -> (f64[N], f64, f64, i64) {
    c = 1.0;
    n = len(x);
    fn affine(v: f64[N]) -> f64[N] { return alpha * v + c; }
    fn at(i: i64, shift: i64 = 0) -> f64 { return x[(i + shift) % n] * c; }
    y = affine(x);
    c = 2.0;
    y = y + affine(x[::-1]);
    s = 0.0;
    for i in range(n) { s += at(i) - at(i, shift=1); }
    fn tri(k: i64) -> i64 { return 0 if k == 0 else k + tri(k - 1); }
    return y, s, at(2), tri(n);
}
'''

    def main(x, alpha):
        c = 1.0
        n = len(x)

        def affine(v):
            return alpha * v + c

        def at(i, shift=0):
            return x[(i + shift) % n] * c

        y = affine(x)
        c = 2.0
        y = y + affine(x[::-1])
        s = 0.0
        for i in range(n):
            s += at(i) - at(i, shift=1)

        def tri(k):
            return 0 if k == 0 else k + tri(k - 1)

        return y, s, at(2), tri(n)

    x = np.random.default_rng(7).standard_normal(8)
    proc, res = run_source(src, {"x": x}, tmp_path, flags=("--target", target, "--arg", "alpha=0.75"))
    assert proc.returncode == 0, proc.stderr
    assert_results(res, main(x, 0.75))


@pytest.mark.parametrize("target", TARGETS)
def test_nested_function_writes_the_callers_array(target, tmp_path):
    """`buf[i] = v` and `out[k] += v` in a nested function write the enclosing function's arrays
    (a parameter and a local `zeros`), as Python's closure does."""
    src = '''fn main(x: f64[N], out: f64[N]) -> (f64[N], f64[N], i64[4]) {
    buf = np.zeros(len(x));
    hist = np.zeros(4, dtype=np.int64);
    fn put(i: i64, v: f64) { buf[i] = v; out[i] += 2.0 * v; }
    fn count(v: f64) { hist[int(v > 0.0) + 2 * int(v > 1.0)] += 1; }
    for i in range(len(x)) { put(i, x[i] ** 2); count(x[i]); }
    return buf, out, hist;
}
'''

    def main(x, out):
        buf = np.zeros(len(x))
        hist = np.zeros(4, dtype=np.int64)

        def put(i, v):
            buf[i] = v
            out[i] += 2.0 * v

        def count(v):
            hist[int(v > 0.0) + 2 * int(v > 1.0)] += 1

        for i in range(len(x)):
            put(i, x[i] ** 2)
            count(x[i])
        return buf, out, hist

    x = np.random.default_rng(8).standard_normal(10) * 1.5
    out = np.arange(10.0)
    proc, res = run_source(src, {"x": x, "out": out}, tmp_path, flags=("--target", target))
    assert proc.returncode == 0, proc.stderr
    assert_results(res, main(x, out.copy()))


def test_nested_function_refused_uses(tmp_path):
    """Writing a name of the enclosing function (Python's `nonlocal`), a call before the
    definition, and a captured local whose type the front end cannot tell."""
    assert_check_error("fn main(n: i64) -> i64 {\n    t = 0;\n    fn bump(k: i64) { t += k; }\n    bump(n);\n"
                       "    return t;\n}\n", "E0117", "nonlocal", tmp_path)
    assert_check_error("fn main(n: i64) -> i64 {\n    k = twice(n);\n    fn twice(m: i64) -> i64 { return 2 * m; }\n"
                       "    return k;\n}\n", "E0118", "before its definition", tmp_path)
    assert_check_error("fn main(x: f64[N]) -> f64 {\n    y = x * 2.0;\n    fn first() -> f64 { return y[0]; }\n"
                       "    return first();\n}\n", "E0213", "pass it as a parameter", tmp_path)


def test_none_and_run_time_axis_refused(tmp_path):
    """`x is None`, `is not None`, a parameter default `None`, and `axis=` given by a
    parameter: each its own error code, with arrayc's way in the help."""
    assert_check_error("fn f(x: f64[N], w: f64[N]) -> f64 {\n    if w is None { return x.sum(); }\n"
                       "    return (x * w).sum();\n}\n", "E0210", "absent", tmp_path)
    assert_check_error("fn f(x: f64[N], k: i64) -> f64 {\n    if k is not None { return x[k]; }\n"
                       "    return x.sum();\n}\n", "E0210", "is not None", tmp_path)
    assert_check_error("fn f(x: f64[N], w: f64[N] = None) -> f64 {\n    return (x * w).sum();\n}\n",
                       "E0211", "default", tmp_path)
    for call in ["sum(x, axis=axis)", "np.mean(x, axis=axis)", "x.max(axis=axis)"]:
        assert_check_error(f"fn f(x: f64[N, M], axis: i64 = 0) -> f64[?] {{\n    return {call};\n}}\n",
                           "E0212", "one function per axis", tmp_path)


@pytest.mark.parametrize("target", TARGETS)
def test_axis_parameter_passed_to_a_program_function(target, tmp_path):
    """A parameter named `axis` passed on to one of the program's functions stays allowed."""
    src = '''fn scale(x: f64[N], axis: i64) -> f64[N] { return x * f64(axis + 1); }
fn main(x: f64[N], axis: i64 = 2) -> f64[N] {
    return scale(x, axis=axis);
}
'''
    x = np.arange(5.0)
    proc, res = run_source(src, {"x": x}, tmp_path, flags=("--target", target))
    assert proc.returncode == 0, proc.stderr
    assert_results(res, [x * 3.0])


def test_nested_function_is_not_an_entry(tmp_path):
    """A file whose only function (not `main`) has a nested function runs that function: the lifted
    nested function is no entry."""
    src = '''fn norm2(x: f64[N]) -> f64 {
    fn sq(v: f64[N]) -> f64[N] { return v * v; }
    return sq(x).sum();
}
'''
    x = np.random.default_rng(9).standard_normal(6)
    proc, res = run_source(src, {"x": x}, tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert_results(res, [(x * x).sum()])


def test_comprehension_variable_named_like_a_captured_name_refused(tmp_path):
    """A lambda or nested function reading the function's `c`, called in a comprehension over a
    `c` of its own (Python reads the function's `c`): E0214 rather than the comprehension's."""
    assert_check_error("fn main(x: f64[N]) -> f64 {\n    c = 2.0;\n    f = lambda v: v * c;\n"
                       "    return sum(f(x[c]) for c in range(3));\n}\n", "E0214", "rename", tmp_path)
    assert_check_error("fn main(x: f64[N]) -> f64 {\n    c = 2.0;\n    fn g(v: f64) -> f64 { return v * c; }\n"
                       "    return sum(g(x[c]) for c in range(3));\n}\n", "E0214", "rename", tmp_path)


@pytest.mark.parametrize("target", TARGETS)
def test_module_level_lambda(target, tmp_path):
    """A module-level `sq = lambda v: v * v + W;` reading a module constant, called in two
    functions."""
    src = '''import numpy as np;
W = 3.0;
sq = lambda v: v * v + W;
fn half(x: f64[N]) -> f64[N] { return sq(x) / 2.0; }
fn main(x: f64[N]) -> (f64[N], f64) {
    return half(x) - sq(x[::-1]), sq(2.0);
}
'''
    W = 3.0
    sq = lambda v: v * v + W  # noqa: E731

    def main(x):
        return sq(x) / 2.0 - sq(x[::-1]), sq(2.0)

    x = np.random.default_rng(10).standard_normal(7)
    proc, res = run_source(src, {"x": x}, tmp_path, flags=("--target", target))
    assert proc.returncode == 0, proc.stderr
    assert_results(res, main(x))


@pytest.mark.parametrize("target", TARGETS)
def test_function_nested_in_a_nested_function_and_lambda_without_parameters(target, tmp_path):
    """`fn deep` in `fn middle` reads `a` of `main` through `middle` (Python's closure over two
    levels, read at the call), and `k = lambda: 3.0`."""
    src = '''fn main(x: f64[N]) -> (f64, f64[N], f64) {
    k = lambda: 3.0;
    a = 1.5;
    fn middle(v: f64[N]) -> f64[N] {
        fn deep(w: f64[N]) -> f64[N] { return w * 2.0 + a; }
        return deep(v) + 1.0;
    }
    y = middle(x);
    a = -2.0;
    return k(), y + middle(x[::-1]), a;
}
'''

    def main(x):
        k = lambda: 3.0  # noqa: E731
        a = 1.5

        def middle(v):
            def deep(w):
                return w * 2.0 + a
            return deep(v) + 1.0

        y = middle(x)
        a = -2.0
        return k(), y + middle(x[::-1]), a

    x = np.random.default_rng(11).standard_normal(5)
    proc, res = run_source(src, {"x": x}, tmp_path, flags=("--target", target))
    assert proc.returncode == 0, proc.stderr
    assert_results(res, main(x))

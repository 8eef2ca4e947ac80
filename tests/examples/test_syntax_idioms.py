"""A NumPy user's script as arrayc takes it (issue 31): Python's statements and module-level items
that a port keeps (`pass`, docstrings, `import numpy as np`, module constants, `reversed`), each
program compared with the same Python function run by NumPy, on the CPU and on the emulated GPU
target (and `gpu` where there is one)."""
import math

import numpy as np
import pytest

from arrayc_examples import TARGETS, assert_check_error, assert_results, run_source


@pytest.mark.parametrize("target", TARGETS)
def test_pass_and_docstrings_do_nothing(target, tmp_path):
    """A module docstring, a function's one-line and several-line docstrings (both quote styles),
    and `pass;` in a branch, an empty loop body and a function body of its own."""
    src = '''"""Module docstring: sums of the positive elements.""";
fn nothing(x: f64[N]) {
    pass;
}
fn main(v: f64[N]) -> (f64, i64) {
    """Sum of the positive elements.

    Also counts the loop's steps.
    """;
    \'\'\'another string statement\'\'\';
    nothing(v);
    total = 0.0;
    steps = 0;
    for t in v {
        "a string alone";
        if t < 0 {
            pass;
        } else {
            total += t;
        }
        steps += 1;
    }
    for k in range(3) { pass; }
    return total, steps;
}
'''

    def main(v):
        """Sum of the positive elements."""
        total = 0.0
        steps = 0
        for t in v:
            if t < 0:
                pass
            else:
                total += t
            steps += 1
        return total, steps

    v = np.random.default_rng(1).standard_normal(37)
    proc, res = run_source(src, {"v": v}, tmp_path, flags=("--target", target))
    assert proc.returncode == 0, proc.stderr
    assert_results(res, main(v))


@pytest.mark.parametrize("target", TARGETS)
def test_module_imports_and_constants_are_pythons(target, tmp_path):
    """`import numpy as np;`, `import math;`, and module-level constants as Python's globals: a
    float and an int literal (weak: an `f32` array times them stays `f32`), a negative literal as
    a parameter default, an array, a constant computed from others (read in the file's order, one
    of them defined twice), and a function that assigns a constant's name (its own local there)."""
    src = '''import numpy as np;
import math;
EPS = 0.3;
SCALE = 2;
OFFSET = -1;
W = np.array([0.25, 0.5, 0.25]);
N = 8;
H = N // 2 + SCALE;
N = 16;
fn smooth(v: f64[K]) -> f64[?] {
    out = np.zeros(len(v) - 2);
    for k in range(len(v) - 2) {
        out[k] = (v[k:k + 3] * W).sum();
    }
    return out;
}
fn shift(v: f64[K], by: i64 = OFFSET) -> f64[K] {
    return v + by;
}
fn own(v: f64[K]) -> f64 {
    SCALE = 10.0;
    return v.sum() * SCALE;
}
fn main(v: f64[K], y: f32[K]) -> (f64[K], f32[K], f64[?], f64[K], f64, i64, i64) {
    return np.where(np.abs(v) < EPS, 0.0, v) * SCALE, y * EPS * SCALE, smooth(v), shift(v), own(v), H, N;
}
'''
    EPS, SCALE, OFFSET, W = 0.3, 2, -1, np.array([0.25, 0.5, 0.25])
    H, N = 8 // 2 + SCALE, 16

    def smooth(v):
        out = np.zeros(len(v) - 2)
        for k in range(len(v) - 2):
            out[k] = (v[k:k + 3] * W).sum()
        return out

    def own(v):
        SCALE = 10.0
        return v.sum() * SCALE

    rng = np.random.default_rng(2)
    v = rng.standard_normal(11)
    y = rng.standard_normal(11).astype(np.float32)
    proc, res = run_source(src, {"v": v, "y": y}, tmp_path, flags=("--target", target))
    assert proc.returncode == 0, proc.stderr
    want = [np.where(np.abs(v) < EPS, 0.0, v) * SCALE, y * EPS * SCALE, smooth(v), v + OFFSET, own(v), H, N]
    assert res[1].dtype == np.float32
    assert_results(res, want)


def test_module_level_errors_name_the_fix(tmp_path):
    """An import of another module, a function writing into a module constant, a constant that
    reads a name the reading function has as its own, and a name alone as a statement."""
    assert_check_error("import scipy;\nfn f(x: f64) -> f64 { return x; }\n", "E0113", "import numpy as np;", tmp_path)
    assert_check_error("W = [1.0, 2.0];\nfn f(x: f64) -> f64 { W[0] = x; return W[1]; }\n", "E0113",
                       "W.copy()", tmp_path)
    assert_check_error("N = 4;\nH = N // 2;\nfn f(N: i64) -> i64 { return H; }\n", "E0113", "rename", tmp_path)
    assert_check_error("fn f(x: f64) -> f64 { x; return x; }\n", "E0112", "return x;", tmp_path)


@pytest.mark.parametrize("target", TARGETS)
def test_reversed_ranges_and_arrays_match_python(target, tmp_path):
    """`for k in reversed(range(a, b, s))` for every `a`, `b` in -4..4 and literal steps 1, 2, 3,
    -1, -2, -3 (and `reversed(range(n))`), the values in Python's order, empty ranges included;
    `for row in reversed(x)` iterates the rows last first."""
    steps = [1, 2, 3, -1, -2, -3]
    loops = "\n".join(
        f"""    for a in range(-4, 5) {{ for b in range(-4, 5) {{
        for k in reversed(range(a, b, {s})) {{ out[pos] = k; pos += 1; }}
        out[pos] = 99; pos += 1;
    }} }}""" for s in steps)
    src = f"""fn main(x: f64[R, C], n: i64) -> (i64[?], f64[R, C]) {{
    out = np.zeros(3000, dtype=int);
    pos = 0;
{loops}
    for k in reversed(range(n)) {{ out[pos] = k; pos += 1; }}
    for k in reversed(range(2, n)) {{ out[pos] = k; pos += 1; }}
    rows = np.zeros_like(x);
    r = 0;
    for row in reversed(x) {{ rows[r] = row; r += 1; }}
    return out[:pos], rows;
}}
"""
    want = []
    for s in steps:
        for a in range(-4, 5):
            for b in range(-4, 5):
                want += list(reversed(range(a, b, s))) + [99]
    n = 5
    want += list(reversed(range(n))) + list(reversed(range(2, n)))
    x = np.arange(12.0).reshape(4, 3)
    proc, res = run_source(src, {"x": x, "n": np.int64(n)}, tmp_path, flags=("--target", target))
    assert proc.returncode == 0, proc.stderr
    np.testing.assert_array_equal(res[0], np.array(want))
    np.testing.assert_array_equal(res[1], x[::-1])


@pytest.mark.parametrize("target", TARGETS)
def test_return_inside_loops_is_pythons(target, tmp_path):
    """`return` inside a `for` loop, inside nested loops (out of both, two results), inside a
    `while` loop, in a function without results (it stops writing), and of an array result whose
    sizes the type gives; the loops' other exits (`break`, running to the end) too."""
    src = '''fn first_negative(v: f64[N]) -> i64 {
    for k in range(len(v)) {
        if v[k] < 0 {
            return k;
        }
    }
    return -1;
}
fn find(x: f64[R, C], t: f64) -> (i64, i64) {
    for r in range(x.shape[0]) {
        for c in range(x.shape[1]) {
            if x[r, c] > t {
                return r, c;
            }
        }
    }
    return -1, -1;
}
fn halvings(s: f64) -> i64 {
    n = 0;
    while true {
        if s < 1 {
            return n;
        }
        s = s / 2;
        n += 1;
    }
    return -1;
}
fn fill_until(out: f64[N], v: f64[N], limit: f64) {
    total = 0.0;
    for k, t in enumerate(v) {
        total += t;
        if total > limit {
            return;
        }
        out[k] = total;
    }
}
fn first_row_over(x: f64[R, C], t: f64) -> f64[C] {
    for row in x {
        if row.sum() > t {
            return row * 2.0;
        }
    }
    return zeros(x.shape[1]);
}
fn main(v: f64[N], w: f64[N], x: f64[R, C]) -> (i64, i64, i64, i64, i64, i64, f64[N], f64[C], f64[C]) {
    out = np.zeros(len(v));
    fill_until(out, np.abs(v), 3.0);
    r, c = find(x, 1.0);
    r2, c2 = find(x, 100.0);
    return first_negative(v), first_negative(w), r * 10 + c, r2, halvings(1000.0), halvings(0.5), out, first_row_over(x, 0.5), first_row_over(x, 1e9);
}
'''

    def first_negative(v):
        for k in range(len(v)):
            if v[k] < 0:
                return k
        return -1

    def find(x, t):
        for r in range(x.shape[0]):
            for c in range(x.shape[1]):
                if x[r, c] > t:
                    return r, c
        return -1, -1

    def halvings(s):
        n = 0
        while True:
            if s < 1:
                return n
            s = s / 2
            n += 1

    def fill_until(out, v, limit):
        total = 0.0
        for k, t in enumerate(v):
            total += t
            if total > limit:
                return
            out[k] = total

    def first_row_over(x, t):
        for row in x:
            if row.sum() > t:
                return row * 2.0
        return np.zeros(x.shape[1])

    rng = np.random.default_rng(3)
    v = rng.standard_normal(9)
    w = np.abs(v)
    x = rng.standard_normal((4, 5))
    out = np.zeros(len(v))
    fill_until(out, np.abs(v), 3.0)
    r, c = find(x, 1.0)
    want = [first_negative(v), first_negative(w), r * 10 + c, find(x, 100.0)[0], halvings(1000.0), halvings(0.5),
            out, first_row_over(x, 0.5), first_row_over(x, 1e9)]
    proc, res = run_source(src, {"v": v, "w": w, "x": x}, tmp_path, flags=("--target", target))
    assert proc.returncode == 0, proc.stderr
    assert_results(res, want)


@pytest.mark.parametrize("target", TARGETS)
def test_keyword_and_default_arguments_bind_as_pythons(target, tmp_path):
    """A call of the program's function with parameters left out (their defaults), given by
    keyword, in another order than declared, and of a rank-generic function (the lowering once
    passed only the positional arguments: "takes 3 arguments, 1 given")."""
    src = '''fn scale(a: f64[...], factor: f64 = 2.0, shift: f64 = 0.0) -> f64[...] {
    return a * factor + shift;
}
fn axpy(a: f64, x: f64[N], y: f64[N]) -> f64[N] {
    return a * x + y;
}
fn main(v: f64[N], m: f64[R, C]) -> (f64[N], f64[R, C], f64[N]) {
    return scale(v) + scale(v, 3.0) + scale(v, shift=1.0) + scale(v, factor=0.5, shift=-1.0), scale(m, shift=2), axpy(2.0, y=v, x=v[::-1]);
}
'''

    def scale(a, factor=2.0, shift=0.0):
        return a * factor + shift

    rng = np.random.default_rng(4)
    v, m = rng.standard_normal(7), rng.standard_normal((3, 4))
    want = [scale(v) + scale(v, 3.0) + scale(v, shift=1.0) + scale(v, factor=0.5, shift=-1.0), scale(m, shift=2),
            2.0 * v[::-1] + v]
    proc, res = run_source(src, {"v": v, "m": m}, tmp_path, flags=("--target", target))
    assert proc.returncode == 0, proc.stderr
    assert_results(res, want)


@pytest.mark.parametrize("target", TARGETS)
def test_python_int_literal_to_a_negative_power(target, tmp_path):
    """`2 ** -1` of two integer literals is Python's `int` power, a float (NumPy's integers
    raise); a variable or an array to a negative integer power stays NumPy's."""
    src = '''fn main(x: f64[N]) -> (f64, f64, f64, i64, f64[N]) {
    return (x[0] ** 2 + 2 ** -1, 10 ** -2, -2 ** -2, 2 ** 3, x * 4 ** -3);
}
'''
    x = np.array([1.5, -0.25, 3.0])
    proc, res = run_source(src, {"x": x}, tmp_path, flags=("--target", target))
    assert proc.returncode == 0, proc.stderr
    assert_results(res, (x[0] ** 2 + 2 ** -1, 10 ** -2, -2 ** -2, 2 ** 3, x * 4 ** -3))
    bad = '''fn main(k: i64) -> i64 {
    return k ** -1;
}
'''
    proc, _ = run_source(bad, {"k": 3}, tmp_path / "bad", flags=("--target", target))
    assert proc.returncode != 0 and "negative integer powers" in proc.stderr, proc.stderr

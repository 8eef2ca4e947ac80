"""A function of the program shadows the builtin of its name, as a Python function shadows NumPy's
(docs/language.md, "Functions"): a bare call calls the program's function, NumPy's qualified
spellings (`np.fmin(..)`, `x.sum()`, `np.sum(x, 0)`) call the builtin. Compared with the same
program in Python and NumPy, on the CPU and on the GPU kernels (emulated, and the GPU where there
is one)."""
import numpy as np
import pytest

from arrayc_examples import TARGETS, assert_check_error, run_source

SRC = """# The program's own fmin: an arithmetic selection, unlike NumPy's NaN-ignoring np.fmin.
fn fmin(a: f64[...], b: f64[...]) -> f64[...] {
    return a * (a <= b) + b * (b < a);
}

fn sum(x: f64[n, 3], k: i64) -> f64[n] {
    return np.sum(x, 1) * f64(k);
}

fn main(a: f64[n, 3], b: f64[n, 3]) -> (f64[n, 3], f64[n, 3], f64[n], f64[3], f64) {
    return (fmin(a, b), np.fmin(a, b), sum(a, 2), a.sum(0), b.sum());
}
"""


def fmin(a, b):
    """The program's own `fmin`, in NumPy."""
    with np.errstate(invalid="ignore"):
        return a * (a <= b) + b * (b < a)


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("n", [0, 4])
def test_a_function_shadows_the_builtin_of_its_name(n, target, tmp_path):
    rng = np.random.default_rng(n)
    a, b = rng.standard_normal((n, 3)), rng.standard_normal((n, 3))
    if n:
        a[0, 0] = np.nan  # NumPy's fmin ignores it; the program's fmin gives NaN
        b[1, 2] = np.inf  # and inf * 0: NaN as well
    proc, got = run_source(SRC, {"a": a, "b": b}, tmp_path, flags=["--target", target])
    assert proc.returncode == 0, proc.stderr
    want = [fmin(a, b), np.fmin(a, b), np.sum(a, 1) * 2.0, a.sum(0), b.sum()]
    for i, (g, w) in enumerate(zip(got, want)):
        np.testing.assert_allclose(g, w, rtol=1e-12, err_msg=f"result {i}")
        assert g.shape == np.shape(w), f"result {i}"


def test_a_function_named_range_is_an_error(tmp_path):
    """`range` is the syntax of `for` loops, which no call reaches: a function of that name is
    E0203, which says so."""
    src = "fn range(n: i64) -> i64 { return n; }\nfn main() -> f64 { return 1.0; }\n"
    assert_check_error(src, "E0203", "function `range` redefines the `for` loop's `range`", tmp_path)

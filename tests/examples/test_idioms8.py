"""NumPy's everyday idioms of issue 31, eighth set: `np.apply_along_axis` of a lambda or of a
program's function (`grammar/src/apply_along_axis.rs`), against NumPy on the CPU and on the GPU
kernels (emulated, and the GPU where there is one)."""
import numpy as np
import pytest

from arrayc_examples import TARGETS, assert_same, run_fails, run_ok

M = np.random.default_rng(81).standard_normal((5, 4))


@pytest.mark.parametrize("target", TARGETS)
def test_apply_along_axis_of_a_function(target, tmp_path):
    """A lambda (inline or bound), a program's function; scalar and vector results; axis 0, 1, -1,
    -2: NumPy's shapes, `(a,)`, `(a, L)`, `(b,)`, `(L, b)`."""
    src = """fn spread(r: f64[k]) -> f64 {
    return r.max() - r.min();
}
fn main(m: f64[a, b]) -> (f64[?], f64[?], f64[?], f64[?, ?], f64[?, ?], f64[?]) {
    g = lambda c: np.sort(c)[-2:];
    return (np.apply_along_axis(lambda r: r.max() - r.min(), 1, m),
            np.apply_along_axis(spread, 0, m),
            np.apply_along_axis(lambda r: (r ** 2).sum() if r[0] > 0 else -1.0, -1, m),
            np.apply_along_axis(g, 0, m),
            np.apply_along_axis(g, -1, m),
            np.apply_along_axis(np.median, -2, m));
}
"""
    g = lambda c: np.sort(c)[-2:]
    want = [np.apply_along_axis(lambda r: r.max() - r.min(), 1, M),
            np.apply_along_axis(lambda r: r.max() - r.min(), 0, M),
            np.apply_along_axis(lambda r: (r ** 2).sum() if r[0] > 0 else -1.0, -1, M),
            np.apply_along_axis(g, 0, M), np.apply_along_axis(g, -1, M), np.apply_along_axis(np.median, -2, M)]
    for i, (got, w) in enumerate(zip(run_ok(src, {"m": M}, tmp_path, target), want)):
        assert got.dtype == w.dtype and got.shape == w.shape, f"result {i}"
        np.testing.assert_allclose(got, w, rtol=1e-14, err_msg=f"result {i}")


def test_apply_along_axis_of_a_function_needs_a_2d_array(tmp_path):
    """Of another rank, a run-time error naming the line (never a slice of the wrong rank)."""
    src = "fn main(x: f64[a, b, c]) -> f64[?] {\n    return np.apply_along_axis(lambda r: r.sum(), 1, x).ravel();\n}\n"
    run_fails(src, {"x": np.ones((2, 3, 4))}, tmp_path, "prog.arr:2:12: error: AssertionError: ValueError: arrayc's "
              "`apply_along_axis` of a function takes a 2-d array")

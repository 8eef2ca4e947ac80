"""NumPy's `out=` argument (`grammar/src/out_args.rs`, docs/language.md "In-place writes"): ufuncs,
operator ufuncs, reductions, scans, `clip` and `matmul` writing into an array (a view too), the
call's value being that array (aliased), `where=` of a ufunc selecting what is written, overlap
between the operands and `out`, and NumPy's casting rule; against NumPy on the CPU and on the GPU
kernels (emulated, and the GPU where there is one)."""
import numpy as np
import pytest

from arrayc_examples import TARGETS, assert_check_error, assert_same, run_ok

RNG = np.random.default_rng(17)
X = RNG.standard_normal(8)
Y = RNG.standard_normal(8)
M = RNG.standard_normal((3, 4))


def numpy_reference():
    z1 = X.copy()
    np.add(z1, Y, out=z1)
    np.multiply(z1, 2.0, out=z1)
    z2 = np.abs(M)
    np.sqrt(z2[0], out=z2[0])
    np.exp(z2[:, 1], out=z2[:, 1])
    z3 = np.zeros(8)
    np.divide(X, Y, out=z3, where=Y > 0)
    z4 = np.empty(4)
    w = np.sum(M, axis=0, out=z4)
    w[0] = 7.0
    z5 = np.empty(8)
    np.cumsum(X, out=z5)
    z6 = np.arange(8.0)
    np.add(z6[1:], z6[:-1], out=z6[1:])
    z7 = np.empty((3, 3))
    np.matmul(M, M.T, out=z7)
    z8 = X.copy()
    for _ in range(3):
        np.clip(z8 * 2.0, -1.0, 1.0, out=z8)
    z9 = np.zeros(8, dtype=np.float32)
    np.subtract(X, Y, out=z9)
    z10 = np.zeros(8, dtype=np.int64)
    np.floor_divide(np.arange(8), 3, out=(z10,))
    return [z1, z2, z3, z4, z5, z6, z7, z8, z9, z10]


@pytest.mark.parametrize("target", TARGETS)
def test_out_matches_numpy(target, tmp_path):
    src = """fn main(x: f64[n], y: f64[n], m: f64[r, c]) ->
        (f64[?], f64[?, ?], f64[?], f64[?], f64[?], f64[?], f64[?, ?], f64[?], f32[?], i64[?]) {
    z1 = x.copy();
    np.add(z1, y, out=z1);
    np.multiply(z1, 2.0, out=z1);
    z2 = np.abs(m);
    np.sqrt(z2[0], out=z2[0]);
    np.exp(z2[:, 1], out=z2[:, 1]);
    z3 = np.zeros(8);
    np.divide(x, y, out=z3, where=y > 0);
    z4 = np.empty(4);
    w = np.sum(m, axis=0, out=z4);
    w[0] = 7.0;
    z5 = np.empty(8);
    np.cumsum(x, out=z5);
    z6 = np.arange(8.0);
    np.add(z6[1:], z6[:-1], out=z6[1:]);
    z7 = np.empty((3, 3));
    np.matmul(m, m.T, out=z7);
    z8 = x.copy();
    for _ in range(3) {
        np.clip(z8 * 2.0, -1.0, 1.0, out=z8);
    }
    z9 = np.zeros(8, dtype=np.float32);
    np.subtract(x, y, out=z9);
    z10 = np.zeros(8, dtype=np.int64);
    np.floor_divide(np.arange(8), 3, out=(z10,));
    return z1, z2, z3, z4, z5, z6, z7, z8, z9, z10;
}
"""
    got = run_ok(src, dict(x=X, y=Y, m=M), tmp_path, target)
    for k, (g, w) in enumerate(zip(got, numpy_reference())):
        if k in (3, 4, 6):
            # Sums and products: arrayc's order of additions is not NumPy's pairwise one.
            assert np.asarray(g).dtype == w.dtype and np.asarray(g).shape == w.shape, f"result {k}"
            np.testing.assert_allclose(g, w, rtol=1e-12, atol=1e-12, err_msg=f"result {k}")
        else:
            assert_same(g, w, f"result {k}")


def test_out_value_is_returned(tmp_path):
    """The call's value is `out` itself: returned, it is the written array."""
    src = "fn main(x: f64[n]) -> f64[?] {\n    z = np.zeros(8);\n    return np.negative(x, out=z);\n}\n"
    got = run_ok(src, dict(x=X), tmp_path)
    assert_same(got[0], -X, "return")


def test_out_casting_refused(tmp_path):
    """NumPy's `same_kind` casting into `out`: a float result into an integer array is its
    UFuncTypeError (E0320, `copyto`'s rule)."""
    src = "fn main(x: f64[n]) -> i64[?] {\n    z = np.zeros(8, dtype=np.int64);\n    np.add(x, 1.0, out=z);\n    return z;\n}\n"
    assert_check_error(src, "E0320", "", tmp_path)

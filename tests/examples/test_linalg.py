"""NumPy's `linalg.solve`, `linalg.inv` and `linalg.det` of one square matrix (the host operation
`arr.linalg`, an LU factorisation with partial pivoting as LAPACK's `getrf`), against NumPy: f64,
f32 and integer operands (NumPy's result dtypes), 1-d and 2-d right-hand sides, sizes known only at
run time, empty matrices, on the CPU and on the GPU targets (emulated, and the GPU where there is
one). Then the errors: a singular matrix (NumPy's LinAlgError at the line), a matrix that is not
square (at check time where the sizes are known, else at run time), wrong ranks."""
import numpy as np
import pytest

from arrayc_examples import TARGETS, assert_check_error, assert_run_time_error, run_source

NP = {"f64": np.float64, "f32": np.float32, "i64": np.int64}


def matrix(dt, n, seed):
    rng = np.random.default_rng(seed)
    if dt == "i64":
        # Diagonally dominant integers: never singular.
        return (rng.integers(-3, 4, size=(n, n)) + 8 * np.eye(n, dtype=np.int64)).astype(np.int64)
    return (rng.standard_normal((n, n)) / np.sqrt(n) + 2 * np.eye(n)).astype(NP[dt])


def assert_close(got, want, what):
    want = np.asarray(want)
    assert got.dtype == want.dtype and got.shape == want.shape, f"{what}: {got.dtype}{got.shape} vs {want.dtype}{want.shape}"
    rtol = 2e-5 if want.dtype == np.float32 else 1e-11
    np.testing.assert_allclose(got, want, rtol=rtol, atol=rtol, err_msg=what)


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("dt", ["f64", "f32", "i64"])
@pytest.mark.parametrize("n", [1, 5, 40])
def test_solve_inv_det_match_numpy(n, dt, target, tmp_path):
    r = "f32" if dt == "f32" else "f64"
    src = f"""fn main(a: {dt}[n, n], b: {dt}[n], c: f64[n, 3], d: {dt}[?, ?]) -> ({r}[n], f64[n, 3], {r}[n, n], {r}, {r}[?, ?], {r}) {{
    let x = np.linalg.solve(a, b);
    return (x, np.linalg.solve(a, c), np.linalg.inv(a), np.linalg.det(a), linalg.inv(d.T), linalg.det(d[1:, 1:]));
}}
"""
    a, d = matrix(dt, n, 1), matrix(dt, n + 1, 2)
    b = (np.arange(n) - 2).astype(NP[dt])
    c = np.random.default_rng(3).standard_normal((n, 3))
    proc, got = run_source(src, {"a": a, "b": b, "c": c, "d": d}, tmp_path, flags=["--target", target])
    assert proc.returncode == 0, proc.stderr
    want = [np.linalg.solve(a, b), np.linalg.solve(a, c), np.linalg.inv(a), np.linalg.det(a), np.linalg.inv(d.T),
            np.linalg.det(d[1:, 1:])]
    for k, (g, w) in enumerate(zip(got, want)):
        assert_close(g, w, f"result {k}")


def test_det_of_singular_and_empty_matrices_is_numpys(tmp_path):
    src = """fn main(s: f64[3, 3], e: f64[0, 0]) -> (f64, f64, f64[0, 0]) {
    return (np.linalg.det(s), np.linalg.det(e), np.linalg.inv(e));
}
"""
    s = np.array([[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [0.0, 1.0, 1.0]])
    proc, got = run_source(src, {"s": s, "e": np.zeros((0, 0))}, tmp_path)
    assert proc.returncode == 0, proc.stderr
    want = [np.linalg.det(s), np.linalg.det(np.zeros((0, 0))), np.linalg.inv(np.zeros((0, 0)))]
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g, w)
        assert np.signbit(g).tolist() == np.signbit(w).tolist()


@pytest.mark.parametrize("call, result", [("np.linalg.inv(a)", "f64[?, ?]"), ("np.linalg.solve(a, a[0])", "f64[?]")])
def test_a_singular_matrix_is_numpys_linalgerror_at_its_line(call, result, tmp_path):
    src = f"fn main(a: f64[?, ?]) -> {result} {{\n    let r = {call};\n    return r * 1.0;\n}}\n"
    singular = np.array([[1.0, 2.0], [2.0, 4.0]])
    with pytest.raises(np.linalg.LinAlgError, match="Singular matrix"):
        eval(call, {"np": np, "a": singular})
    assert_run_time_error(src, {"a": singular}, "LinAlgError: Singular matrix", tmp_path)


def test_a_matrix_not_square_is_an_error_at_check_or_run_time(tmp_path):
    assert_check_error("fn main(a: f64[2, 3]) -> f64 {\n    return np.linalg.det(a);\n}\n", "E0503",
                       "the last 2 dimensions must be square", tmp_path)
    src = "fn main(a: f64[?, ?]) -> f64 {\n    return np.linalg.det(a);\n}\n"
    assert_run_time_error(src, {"a": np.ones((2, 3))}, "the last 2 dimensions of a must be square", tmp_path)
    src = "fn main(a: f64[?, ?], b: f64[?]) -> f64[?] {\n    return np.linalg.solve(a, b);\n}\n"
    assert_run_time_error(src, {"a": np.eye(3), "b": np.ones(2)}, "b has 2 rows where a has 3", tmp_path)


@pytest.mark.parametrize("body, words", [
    ("return np.linalg.det(x[0]);", "takes a 2-d array (one matrix), found f64[3]"),
    ("return np.linalg.det(s);", "takes a 2-d array (one matrix), found f64[2, 3, 3]"),
    ("return np.linalg.solve(x, s)[0, 0, 0];", "takes a 1-d or 2-d array, found f64[2, 3, 3]"),
    ("return np.linalg.solve(x, x[:2, 0])[0];", "right-hand side of 2 rows"),
])
def test_wrong_ranks_and_sizes_are_check_errors(body, words, tmp_path):
    assert_check_error(f"fn main(x: f64[3, 3], s: f64[2, 3, 3]) -> f64 {{\n    {body}\n}}\n", "E0503", words, tmp_path)


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("dt", ["f64", "i64"])
def test_matrix_power_matches_numpy(dt, target, tmp_path):
    """`linalg.matrix_power(a, k)` for k = 0, 1 (a copy: writing it leaves `a` alone), 2, 5, 6 and -2
    (of `inv(a)`, a float result), against NumPy; integers exactly."""
    src = f"""fn main(a: {dt}[4, 4]) -> ({dt}[4, 4], {dt}[4, 4], {dt}[4, 4], {dt}[4, 4], {dt}[4, 4], f64[4, 4], {dt}[4, 4]) {{
    let c = np.linalg.matrix_power(a, 1);
    c[0, 0] = 100;
    return (np.linalg.matrix_power(a, 0), c, np.linalg.matrix_power(a, 2), np.linalg.matrix_power(a, 5),
            np.linalg.matrix_power(a, 6), np.linalg.matrix_power(a, -2), a);
}}
"""
    a = matrix(dt, 4, 5) // (1 if dt == "f64" else 4)
    proc, got = run_source(src, {"a": a}, tmp_path, flags=["--target", target])
    assert proc.returncode == 0, proc.stderr
    c = a.copy()
    c[0, 0] = 100
    mp = np.linalg.matrix_power
    want = [mp(a, 0), c, mp(a, 2), mp(a, 5), mp(a, 6), mp(a, -2), a]
    for k, (g, w) in enumerate(zip(got, want)):
        if dt == "i64" and w.dtype == np.int64:
            assert g.dtype == w.dtype
            np.testing.assert_array_equal(g, w, err_msg=f"result {k}")
        else:
            assert_close(g, w, f"result {k}")


def test_matrix_power_needs_a_literal_exponent(tmp_path):
    assert_check_error("fn main(a: f64[3, 3], k: i64) -> f64[3, 3] {\n    return np.linalg.matrix_power(a, k);\n}\n",
                       "E0503", "exponent must be an integer literal", tmp_path)

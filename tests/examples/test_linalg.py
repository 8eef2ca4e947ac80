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


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("dt", ["f64", "f32", "i64"])
def test_slogdet_matches_numpy(dt, target, tmp_path):
    """`sign, logabsdet = np.linalg.slogdet(a)`: NumPy's values and dtypes, for a matrix whose
    determinant overflows a float (`10 * eye(400)`: logabsdet 921.03, det inf), a singular one
    (`(0, -inf)`), a 0 x 0 one (`(1, 0)`), and `f32` (NumPy factorises it in `f64`)."""
    r = "f32" if dt == "f32" else "f64"
    src = f"""fn main(a: {dt}[n, n], big: {dt}[m, m], s: {dt}[3, 3], e: {dt}[0, 0]) -> ({r}, {r}, {r}, {r}, {r}, {r}, {r}) {{
    sign, logdet = np.linalg.slogdet(a);
    return (sign, logdet, np.linalg.slogdet(big)[1], np.linalg.slogdet(s)[0], np.linalg.slogdet(s)[1],
            np.linalg.slogdet(e)[0], np.linalg.slogdet(-a)[0] * np.exp(np.linalg.slogdet(-a)[1]));
}}
"""
    a, big = matrix(dt, 5, 4), (10 * np.eye(400)).astype(NP[dt])
    s = np.array([[1, 2, 3], [2, 4, 6], [0, 1, 1]]).astype(NP[dt])
    e = np.zeros((0, 0), dtype=NP[dt])
    proc, got = run_source(src, {"a": a, "big": big, "s": s, "e": e}, tmp_path, flags=["--target", target])
    assert proc.returncode == 0, proc.stderr
    sa, la = np.linalg.slogdet(a)
    sn, ln = np.linalg.slogdet(-a)
    want = [sa, la, np.linalg.slogdet(big)[1], np.linalg.slogdet(s)[0], np.linalg.slogdet(s)[1],
            np.linalg.slogdet(e)[0], sn * np.exp(ln)]
    for k, (g, w) in enumerate(zip(got, want)):
        assert_close(g, w, f"result {k}")


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


def test_matrix_power_needs_an_integer_exponent(tmp_path):
    """A run-time exponent is NumPy's loop over its bits (test_numpy_surface5.py); a float one is
    NumPy's TypeError."""
    assert_check_error("fn main(a: f64[3, 3], k: f64) -> f64[3, 3] {\n    return np.linalg.matrix_power(a, k);\n}\n",
                       "E0301", "`>>` needs integer", tmp_path)


def spd(dt, n, seed):
    """A symmetric positive definite matrix of dtype `dt` (integers: diagonally dominant)."""
    a = matrix(dt, n, seed)
    if dt == "i64":
        return a @ a.T + np.eye(n, dtype=np.int64)
    return (a @ a.T + np.eye(n)).astype(NP[dt])


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("dt", ["f64", "f32", "i64"])
@pytest.mark.parametrize("n", [1, 5, 40])
def test_cholesky_eigvalsh_svdvals_match_numpy(n, dt, target, tmp_path):
    """`cholesky` (lower, reading only the lower triangle: the upper one is spoiled), `eigvalsh`
    (ascending; `UPLO='U'` reads the upper triangle), `svd(compute_uv=False)` of square and
    non-square matrices (descending), `matrix_rank` and `cond`, against NumPy; the result dtype is
    NumPy's (`f32` stays, integers become `f64`)."""
    r = "f32" if dt == "f32" else "f64"
    src = f"""fn main(s: {dt}[n, n], w: {dt}[n, 7], d: {dt}[?, ?]) -> ({r}[n, n], {r}[n], {r}[n], {r}[?], {r}[?], i64, i64, {r}, {r}) {{
    let low = np.tril(s) + np.triu(s, 1) * 3;
    let up = np.triu(s) + np.tril(s, -1) * 5;
    return (np.linalg.cholesky(low), np.linalg.eigvalsh(low), np.linalg.eigvalsh(up, UPLO='U'),
            np.linalg.svd(w, compute_uv=False), linalg.svd(d.T, compute_uv=False),
            np.linalg.matrix_rank(w), np.linalg.matrix_rank(d[:, :2] @ d[:2, :]), np.linalg.cond(s), linalg.cond(w));
}}
"""
    s, d = spd(dt, n, 1), matrix(dt, n + 2, 2)[:, : n + 1]
    w = (np.random.default_rng(4).standard_normal((n, 7)) * 3).astype(NP[dt])
    proc, got = run_source(src, {"s": s, "w": w, "d": d}, tmp_path, flags=["--target", target])
    assert proc.returncode == 0, proc.stderr
    low = np.tril(s) + np.triu(s, 1) * 3
    up = np.triu(s) + np.tril(s, -1) * 5
    la = np.linalg
    want = [la.cholesky(low), la.eigvalsh(low), la.eigvalsh(up, UPLO="U"), la.svd(w, compute_uv=False),
            la.svd(d.T, compute_uv=False), la.matrix_rank(w), la.matrix_rank(d[:, :2] @ d[:2, :]), la.cond(s),
            la.cond(w)]
    for k, (g, w_) in enumerate(zip(got, want)):
        if k in (5, 6):
            assert g == w_, f"result {k}: {g} vs {w_}"
            continue
        w_ = np.asarray(w_)
        # Eigen- and singular values agree to rounding relative to the largest.
        scale = max(1.0, float(np.abs(w_).max(initial=0)))
        rtol = 2e-5 if w_.dtype == np.float32 else 1e-11
        assert g.dtype == w_.dtype and g.shape == w_.shape, f"result {k}: {g.dtype}{g.shape} vs {w_.dtype}{w_.shape}"
        np.testing.assert_allclose(g, w_, rtol=rtol, atol=rtol * scale, err_msg=f"result {k}")


def test_empty_and_singular_factorisations_are_numpys(tmp_path):
    src = """fn main(e: f64[0, 0], z: f64[0, 3], s: f64[3, 3]) -> (f64[0, 0], f64[0], f64[?], i64, i64, f64, f64) {
    return (np.linalg.cholesky(e), np.linalg.eigvalsh(e), np.linalg.svd(z, compute_uv=False),
            np.linalg.matrix_rank(z), np.linalg.matrix_rank(s), np.linalg.cond(s), np.linalg.cond(s * 0.0));
}
"""
    e, z = np.zeros((0, 0)), np.zeros((0, 3))
    s = np.array([[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [0.0, 1.0, 1.0]])
    proc, got = run_source(src, {"e": e, "z": z, "s": s}, tmp_path)
    assert proc.returncode == 0, proc.stderr
    la = np.linalg
    with np.errstate(all="ignore"):
        want = [la.cholesky(e), la.eigvalsh(e), la.svd(z, compute_uv=False), la.matrix_rank(z), la.matrix_rank(s),
                la.cond(s), la.cond(s * 0.0)]
    for k, (g, w) in enumerate(zip(got, want)):
        if k == 5:
            # Singular: a huge number or inf in NumPy, from the rounding of the smallest value.
            assert g > 1e15 and w > 1e15, (g, w)
            continue
        np.testing.assert_array_equal(g, w, err_msg=f"result {k}")


@pytest.mark.parametrize("call, result, arg, words", [
    ("np.linalg.cholesky(a)", "f64[?, ?]", np.array([[1.0, 2.0], [2.0, 1.0]]), "Matrix is not positive definite"),
    ("np.linalg.cond(a)", "f64", np.zeros((0, 2)), "cond is not defined on empty arrays"),
    ("np.linalg.svd(a, compute_uv=False)", "f64[?]", np.array([[1.0, np.nan], [np.nan, 1.0]]), "SVD did not converge"),
    ("np.linalg.svd(a)[1]", "f64[?]", np.array([[1.0, np.nan], [np.nan, 1.0]]), "SVD did not converge"),
    ("np.linalg.lstsq(a, a[:, 0])[0]", "f64[?]", np.array([[1.0, np.inf], [0.0, 1.0]]), "SVD did not converge"),
])
def test_factorisation_failures_are_numpys_linalgerror(call, result, arg, words, tmp_path):
    with pytest.raises(np.linalg.LinAlgError, match=words):
        eval(call, {"np": np, "a": arg})
    src = f"fn main(a: f64[?, ?]) -> {result} {{\n    let r = {call};\n    return r * 1.0;\n}}\n"
    assert_run_time_error(src, {"a": arg}, words, tmp_path)


def test_eigvalsh_of_nan_is_nan_as_numpys(tmp_path):
    """NumPy's `eigvalsh` of a matrix holding NaN (or inf) returns NaN eigenvalues, no error."""
    src = "fn main(a: f64[2, 2], b: f64[2, 2]) -> (f64[2], f64[2]) {\n    return (np.linalg.eigvalsh(a), np.linalg.eigvalsh(b));\n}\n"
    a, b = np.array([[1.0, np.nan], [np.nan, 1.0]]), np.array([[1.0, np.inf], [np.inf, 1.0]])
    proc, got = run_source(src, {"a": a, "b": b}, tmp_path)
    assert proc.returncode == 0, proc.stderr
    for g, w in zip(got, [np.linalg.eigvalsh(a), np.linalg.eigvalsh(b)]):
        np.testing.assert_array_equal(g, w)


@pytest.mark.parametrize("body, code, words", [
    ("return np.linalg.cholesky(x)[0, 0];", "E0503", "the last 2 dimensions must be square"),
    ("return np.linalg.eigvalsh(s)[0];", "E0503", "takes a 2-d array (one matrix)"),
    ("return np.linalg.svd(x)[0, 0];", "E0309", "indexed other than by one integer literal"),
    ("return np.linalg.eigvalsh(x, UPLO='X')[0];", "E0503", "`UPLO=` must be 'L' or 'U'"),
    ("return np.linalg.matrix_rank(x, tol=1.0);", "E0502", "has no keyword argument `tol`"),
    ("return np.linalg.norm(x[0], 'fro');", "E0503", "not supported"),
    ("return np.linalg.norm(s, 1);", "E0503", "not supported"),
    ("return np.linalg.norm(x, 3);", "E0503", "must be `1`, `2`"),
])
def test_factorisation_misuse_is_a_check_error(body, code, words, tmp_path):
    assert_check_error(f"fn main(x: f64[2, 3], s: f64[2, 3, 3]) -> f64 {{\n    {body}\n}}\n", code, words, tmp_path)


ORDS = ["'fro'", "'nuc'", "1", "-1", "2", "-2", "np.inf", "-np.inf"]


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("dt", ["f64", "f32", "i64"])
@pytest.mark.parametrize("shape", [(5, 5), (4, 9), (40, 3)])
def test_matrix_norms_match_numpy(shape, dt, target, tmp_path):
    """`linalg.norm(a, ord)` of a 2-d `a` for each of NumPy's matrix orders, by position and as
    `ord=`; then vector norms with a positional `ord`."""
    r = "f32" if dt == "f32" else "f64"
    calls = [f"np.linalg.norm(a, {o})" for o in ORDS] + ["np.linalg.norm(a, ord='nuc')", "linalg.norm(a, ord=-2)",
                                                          "np.linalg.norm(a[0], 1)", "np.linalg.norm(a[0], -np.inf)"]
    src = f"fn main(a: {dt}[{shape[0]}, {shape[1]}]) -> ({', '.join([r] * len(calls))}) {{\n    return ({', '.join(calls)});\n}}\n"
    a = (np.random.default_rng(7).standard_normal(shape) * 4).astype(NP[dt])
    proc, got = run_source(src, {"a": a}, tmp_path, flags=["--target", target])
    assert proc.returncode == 0, proc.stderr
    for c, g in zip(calls, got):
        w = eval(c.replace("linalg.norm", "np.linalg.norm").replace("np.np.", "np."), {"np": np, "a": a})
        rtol = 2e-5 if r == "f32" else 1e-11
        assert np.asarray(g).dtype == np.asarray(w).dtype, (c, g, w)
        np.testing.assert_allclose(g, w, rtol=rtol, err_msg=c)


def test_matrix_norms_of_empty_matrices_are_numpys(tmp_path):
    """NumPy 2: a largest column or row sum or singular value of an empty matrix is 0 (a maximum
    with `initial=0`); a smallest one is a ValueError (a run-time error here)."""
    calls = [f"np.linalg.norm(a, {o})" for o in ORDS]
    for shape in [(0, 3), (3, 0)]:
        a = np.zeros(shape)
        ok = []
        for k, c in enumerate(calls):
            try:
                ok.append((c, eval(c, {"np": np, "a": a})))
            except ValueError:
                src = f"fn main(a: f64[?, ?]) -> f64 {{\n    return {c};\n}}\n"
                (tmp_path / f"{shape[0]}{k}").mkdir()
                assert_run_time_error(src, {"a": a}, "zero-size array", tmp_path / f"{shape[0]}{k}")
        assert len(ok) >= 5
        src = f"fn main(a: f64[{shape[0]}, {shape[1]}]) -> ({', '.join(['f64'] * len(ok))}) {{\n    return ({', '.join(c for c, _ in ok)});\n}}\n"
        (tmp_path / f"ok{shape[0]}").mkdir()
        proc, got = run_source(src, {"a": a}, tmp_path / f"ok{shape[0]}")
        assert proc.returncode == 0, proc.stderr
        assert [float(g) for g in got] == [w for _, w in ok], shape


def rank_deficient(dt, shape, seed):
    """A `shape` matrix of rank 2 (a product of `m x 2` and `2 x n` factors), of dtype `dt`."""
    rng = np.random.default_rng(seed)
    if dt == "i64":
        return rng.integers(-3, 4, size=(shape[0], 2)) @ rng.integers(-3, 4, size=(2, shape[1]))
    return (rng.standard_normal((shape[0], 2)) @ rng.standard_normal((2, shape[1]))).astype(NP[dt])


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("dt", ["f64", "f32", "i64"])
@pytest.mark.parametrize("shape", [(5, 5), (9, 4), (3, 8), (1, 1), (40, 30)])
def test_pinv_matches_numpy(shape, dt, target, tmp_path):
    """`linalg.pinv` of square, tall and wide matrices and of a rank-deficient one (whose zero
    singular values the cutoff removes), with NumPy 2.4's default cutoff (`1e-15`), `rtol=None`
    (`max(m, n) * eps`), a positional `rcond`, `rcond=` and `rtol=`. SVD-based: compared with rtol
    1e-10 (f64) and 1e-4 (f32) relative to the largest element, as the last bits of the SVD differ
    from LAPACK's `gesdd`."""
    r = "f32" if dt == "f32" else "f64"
    # The default cutoff `1e-15` keeps an f32 matrix's rounding noise as singular values (as
    # NumPy's does), a result that depends on those last bits: not comparable.
    default_d = "np.linalg.pinv(d, rcond=1e-5)" if dt == "f32" else "np.linalg.pinv(d)"
    # NumPy's `rtol=None` of an integer matrix is a ValueError (E0503 here, below).
    rtol_none = "np.linalg.pinv(d, rtol=1e-3)" if dt == "i64" else "np.linalg.pinv(d, rtol=None)"
    calls = ["np.linalg.pinv(a)", default_d, rtol_none, "linalg.pinv(a, 0.3)",
             "np.linalg.pinv(a, rcond=0.3)", "np.linalg.pinv(d, rtol=1e-6)"]
    m, n = shape
    src = (f"fn main(a: {dt}[{m}, {n}], d: {dt}[?, ?]) -> ({', '.join([f'{r}[{n}, {m}]', f'{r}[?, ?]', f'{r}[?, ?]'] + [f'{r}[{n}, {m}]'] * 2 + [f'{r}[?, ?]'])}) {{\n"
           f"    return ({', '.join(calls)});\n}}\n")
    rng = np.random.default_rng(11)
    a = (rng.integers(-5, 6, size=shape) if dt == "i64" else rng.standard_normal(shape)).astype(NP[dt])
    d = rank_deficient(dt, shape, 12)
    proc, got = run_source(src, {"a": a, "d": d}, tmp_path, flags=["--target", target])
    assert proc.returncode == 0, proc.stderr
    for c, g in zip(calls, got):
        w = eval(c.replace("linalg.pinv", "np.linalg.pinv").replace("np.np.", "np."), {"np": np, "a": a, "d": d})
        rtol = 1e-4 if r == "f32" else 1e-10
        assert g.dtype == w.dtype and g.shape == w.shape, (c, g.dtype, g.shape, w.dtype, w.shape)
        np.testing.assert_allclose(g, w, rtol=rtol, atol=rtol * max(1.0, np.abs(w).max(initial=0)), err_msg=c)


def test_pinv_of_empty_matrices_is_numpys(tmp_path):
    src = "fn main(a: f64[0, 3], b: f64[?, ?]) -> (f64[3, 0], f64[?, ?]) {\n    return (np.linalg.pinv(a), np.linalg.pinv(b));\n}\n"
    a, b = np.zeros((0, 3)), np.zeros((2, 0))
    proc, got = run_source(src, {"a": a, "b": b}, tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert [g.shape for g in got] == [np.linalg.pinv(a).shape, np.linalg.pinv(b).shape] == [(3, 0), (0, 2)]


def test_pinv_of_nan_is_numpys_linalgerror(tmp_path):
    arg = np.array([[1.0, np.nan], [0.0, 1.0], [2.0, 3.0]])
    with pytest.raises(np.linalg.LinAlgError, match="SVD did not converge"):
        np.linalg.pinv(arg)
    src = "fn main(a: f64[?, ?]) -> f64[?, ?] {\n    let r = np.linalg.pinv(a);\n    return r * 1.0;\n}\n"
    assert_run_time_error(src, {"a": arg}, "SVD did not converge", tmp_path)


@pytest.mark.parametrize("body, code, words", [
    ("return np.linalg.pinv(s)[0, 0];", "E0503", "takes a 2-d array (one matrix)"),
    ("return np.linalg.pinv(x[0])[0, 0];", "E0503", "takes a 2-d array (one matrix)"),
    ("return np.linalg.pinv(x, 0.1, rtol=0.1)[0, 0];", "E0503", "both `rcond` and `rtol`"),
    ("return np.linalg.pinv(x, x)[0, 0];", "E0503", "cutoff must be a numeric scalar"),
    ("return np.linalg.pinv(i, rtol=None)[0, 0];", "E0503", "NumPy's ValueError"),
    ("return np.linalg.pinv(x, hermitian=true)[0, 0];", "E0502", "has no keyword argument `hermitian`"),
])
def test_pinv_misuse_is_a_check_error(body, code, words, tmp_path):
    assert_check_error(f"fn main(x: f64[2, 3], s: f64[2, 3, 3], i: i64[2, 3]) -> f64 {{\n    {body}\n}}\n", code, words, tmp_path)


def fro_tol(r):
    """The tolerance of a factor that `faer` and LAPACK compute by different iterations."""
    return 1e-4 if r == "f32" else 1e-10


def assert_orthonormal_columns(q, what, tol):
    np.testing.assert_allclose(q.T @ q, np.eye(q.shape[1]), atol=tol * max(1, q.shape[0]), err_msg=what)


def assert_same_up_to_column_sign(got, want, what, tol):
    """`got` and `want` agree column by column, each up to its sign (eigen- and singular vectors)."""
    for j in range(want.shape[1]):
        g, w = got[:, j], want[:, j]
        sign = -1.0 if np.dot(g, w) < 0 else 1.0
        np.testing.assert_allclose(sign * g, w, atol=tol * 10, err_msg=f"{what} column {j}")


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("dt", ["f64", "f32"])
@pytest.mark.parametrize("shape", [(5, 5), (9, 4), (3, 8), (1, 1)])
def test_eigh_qr_svd_factors_match_numpy(shape, dt, target, tmp_path):
    """`eigh`, `qr` (reduced, complete, `r`) and `svd` (full and reduced matrices) as NumPy's:
    the shapes and dtypes, the values (`w`, `s`, `|r|`'s diagonal) to rounding, the vectors up to
    sign (eigenvectors of distinct eigenvalues, singular vectors), and the invariants of each
    factorisation (`a = q @ r` with orthonormal `q`, `a = u[:, :k] @ diag(s) @ vh[:k]` with
    orthogonal `u`, `vh`; `a @ v = v * w`)."""
    m, n = shape
    k = min(m, n)
    rng = np.random.default_rng(21)
    a = rng.standard_normal(shape).astype(NP[dt])
    h = rng.standard_normal((n, n))
    h = (h + h.T).astype(NP[dt])
    src = f"""fn main(a: {dt}[{m}, {n}], h: {dt}[{n}, {n}], d: {dt}[?, ?]) -> ({dt}[{n}], {dt}[{n}, {n}], {dt}[{m}, {k}], {dt}[{k}, {n}], {dt}[{m}, {m}], {dt}[{m}, {n}], {dt}[{k}, {n}], {dt}[{m}, {m}], {dt}[{k}], {dt}[{n}, {n}], {dt}[?, ?], {dt}[?], {dt}[?, ?], {dt}[{n}], {dt}[{n}, {n}]) {{
    let (w, v) = np.linalg.eigh(h);
    let (q, r) = np.linalg.qr(a);
    let (qc, rc) = np.linalg.qr(a, mode='complete');
    let (u, s, vh) = np.linalg.svd(a);
    let (ur, sr, vhr) = np.linalg.svd(d, full_matrices=False);
    let (wu, vu) = linalg.eigh(h, UPLO='U');
    return (w, v, q, r, qc, rc, np.linalg.qr(a, mode='r'), u, s, vh, ur, sr, vhr, wu, vu);
}}
"""
    proc, got = run_source(src, {"a": a, "h": h, "d": a}, tmp_path, flags=["--target", target])
    assert proc.returncode == 0, proc.stderr
    w, v, q, r, qc, rc, r_only, u, s, vh, ur, sr, vhr, wu, vu = got
    tol = fro_tol(dt)
    scale = max(1.0, np.abs(a).max())
    for g in got:
        assert g.dtype == NP[dt]
    # eigh: NumPy's eigenvalues, eigenvectors up to sign.
    nw, nv = np.linalg.eigh(h)
    np.testing.assert_allclose(w, nw, atol=tol * 10)
    assert_same_up_to_column_sign(v, nv, "eigh v", tol)
    np.testing.assert_allclose(h @ v, v * w, atol=tol * 10)
    nwu, nvu = np.linalg.eigh(h, UPLO='U')
    np.testing.assert_allclose(wu, nwu, atol=tol * 10)
    assert_same_up_to_column_sign(vu, nvu, "eigh UPLO=U v", tol)
    # qr: shapes as NumPy's, a = q @ r, q orthonormal, r upper triangular, |diag r| as NumPy's.
    for mode, (gq, gr) in [("reduced", (q, r)), ("complete", (qc, rc))]:
        nq, nr = np.linalg.qr(a, mode=mode)
        assert gq.shape == nq.shape and gr.shape == nr.shape, mode
        np.testing.assert_allclose(gq @ gr, a, atol=tol * scale * 10, err_msg=mode)
        assert_orthonormal_columns(gq, mode, tol)
        np.testing.assert_array_equal(np.tril(gr, -1), 0)
        np.testing.assert_allclose(np.abs(gr), np.abs(nr), atol=tol * scale * 10, err_msg=mode)
    np.testing.assert_array_equal(r_only, r)
    # svd: NumPy's singular values, the reconstruction, orthogonal factors.
    for full, (gu, gs, gvh) in [(True, (u, s, vh)), (False, (ur, sr, vhr))]:
        nu, ns, nvh = np.linalg.svd(a, full_matrices=full)
        assert (gu.shape, gs.shape, gvh.shape) == (nu.shape, ns.shape, nvh.shape), full
        np.testing.assert_allclose(gs, ns, atol=tol * scale * 10, rtol=tol)
        np.testing.assert_allclose(gu[:, :k] @ np.diag(gs) @ gvh[:k], a, atol=tol * scale * 10)
        assert_orthonormal_columns(gu, "u", tol)
        assert_orthonormal_columns(gvh.T, "vh", tol)


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("dt", ["f64", "f32"])
@pytest.mark.parametrize("shape", [(9, 4), (5, 5), (3, 8), (12, 3)])
def test_lstsq_matches_numpy(shape, dt, target, tmp_path):
    """`lstsq` of tall, square and wide matrices, of full rank and rank-deficient ones, with 1-d and
    2-d right-hand sides, the default cutoff and `rcond=`: all four results as NumPy 2's
    (residuals empty where the rank is below `n` or `m <= n`), and `lstsq(a, b)[0]`."""
    m, n = shape
    k = min(m, n)
    rng = np.random.default_rng(31)
    a = rng.standard_normal(shape).astype(NP[dt])
    d = rank_deficient(dt, shape, 32)
    b = rng.standard_normal(m).astype(NP[dt])
    c = rng.standard_normal((m, 3)).astype(NP[dt])
    # NumPy's default cutoff keeps the rounding noise of a rank-deficient f32 matrix as singular
    # values, a result that depends on those last bits: not comparable (as for `pinv`).
    cut = ", rcond=1e-4" if dt == "f32" else ""
    src = f"""fn main(a: {dt}[{m}, {n}], d: {dt}[?, ?], b: {dt}[{m}], c: {dt}[?, ?]) -> ({dt}[{n}], {dt}[?], i32, {dt}[{k}], {dt}[?, ?], {dt}[?], i32, {dt}[?], {dt}[{n}], {dt}[?, ?], {dt}[?], i32) {{
    let (x, res, rank, s) = np.linalg.lstsq(a, b, rcond=None);
    let (xd, resd, rankd, sd) = np.linalg.lstsq(d, c{cut});
    let (xr, resr, rankr, sr) = linalg.lstsq(a, c, rcond=0.5);
    return (x, res, rank, s, xd, resd, rankd, sd, np.linalg.lstsq(a, b)[0], xr, resr, rankr);
}}
"""
    proc, got = run_source(src, {"a": a, "d": d, "b": b, "c": c}, tmp_path, flags=["--target", target])
    assert proc.returncode == 0, proc.stderr
    want = [*np.linalg.lstsq(a, b, rcond=None), *np.linalg.lstsq(d, c, rcond=1e-4 if cut else None),
            np.linalg.lstsq(a, b)[0],
            *np.linalg.lstsq(a, c, rcond=0.5)[:3]]
    tol = fro_tol(dt)
    for j, (g, w) in enumerate(zip(got, want)):
        w = np.asarray(w)
        assert np.asarray(g).shape == w.shape, (j, np.asarray(g).shape, w.shape)
        if w.dtype.kind == "i":
            # NumPy's rank is LAPACK's int32.
            assert np.asarray(g).dtype == w.dtype == np.int32 and int(g) == int(w), j
            continue
        assert g.dtype == w.dtype, (j, g.dtype, w.dtype)
        np.testing.assert_allclose(g, w, rtol=tol * 10, atol=tol * 10 * max(1.0, np.abs(w).max(initial=0)), err_msg=str(j))


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("dt", ["f64", "f32"])
@pytest.mark.parametrize("deg", [0, 1, 3])
def test_polyfit_matches_numpy(deg, dt, target, tmp_path):
    """`polyfit` of noisy samples of a cubic (1-d `y`) and of two columns (2-d `y`), as NumPy's."""
    x = np.linspace(-2, 3, 20).astype(NP[dt])
    rng = np.random.default_rng(41)
    y = (x**3 - 2 * x + 1 + 0.1 * rng.standard_normal(20)).astype(NP[dt])
    y2 = np.stack([y, 2 * x + 0.05 * rng.standard_normal(20).astype(NP[dt])], axis=1).astype(NP[dt])
    src = f"""fn main(x: {dt}[20], y: {dt}[20], y2: {dt}[?, ?]) -> (f64[{deg + 1}], f64[{deg + 1}, ?]) {{
    return (np.polyfit(x, y, {deg}), polyfit(x, y2, {deg}));
}}
"""
    proc, got = run_source(src, {"x": x, "y": y, "y2": y2}, tmp_path, flags=["--target", target])
    assert proc.returncode == 0, proc.stderr
    tol = fro_tol(dt)
    for g, w in zip(got, [np.polyfit(x, y, deg), np.polyfit(x, y2, deg)]):
        assert g.dtype == w.dtype and g.shape == w.shape, (g.dtype, g.shape, w.dtype, w.shape)
        np.testing.assert_allclose(g, w, rtol=tol * 10, atol=tol * 10 * max(1.0, np.abs(w).max()))


def test_factors_of_empty_matrices_are_numpys(tmp_path):
    src = """fn main(a: f64[0, 3], e: f64[0, 0]) -> (f64[0, 0], f64[0], f64[3, 3], f64[0, 0], f64[0, 3], f64[0], f64[0, 0]) {
    let (u, s, vh) = np.linalg.svd(a);
    let (q, r) = np.linalg.qr(a);
    let (w, v) = np.linalg.eigh(e);
    return (u, s, vh, q, r, w, v);
}
"""
    a, e = np.zeros((0, 3)), np.zeros((0, 0))
    proc, got = run_source(src, {"a": a, "e": e}, tmp_path)
    assert proc.returncode == 0, proc.stderr
    for g, w in zip(got, [*np.linalg.svd(a), *np.linalg.qr(a), *np.linalg.eigh(e)]):
        np.testing.assert_array_equal(g, w)


@pytest.mark.parametrize("body, code, words", [
    ("let (w, v) = np.linalg.eigh(x);\n    return w[0];", "E0503", "the last 2 dimensions must be square"),
    ("let (w, v) = np.linalg.eigh(s);\n    return w[0];", "E0503", "takes a 2-d array (one matrix)"),
    ("let (q, r) = np.linalg.qr(x, mode='raw');\n    return r[0, 0];", "E0503", "'raw'"),
    ("let (x1, r, k, s1) = np.linalg.lstsq(x, x[0]);\n    return x1[0];", "E0503", "right-hand side of 3 rows"),
    ("return np.linalg.lstsq(x, v, rtol=1e-3)[0][0];", "E0502", "has no keyword argument `rtol`"),
    ("return np.polyfit(v, v, -1)[0];", "E0503", "non-negative integer literal"),
    ("return np.polyfit(x, v, 1)[0];", "E0503", "1-d `x`"),
])
def test_factor_misuse_is_a_check_error(body, code, words, tmp_path):
    assert_check_error(f"fn main(x: f64[2, 3], s: f64[2, 3, 3], v: f64[2]) -> f64 {{\n    {body}\n}}\n", code, words, tmp_path)


def test_eigh_of_a_matrix_not_square_is_numpys_linalgerror_at_run_time(tmp_path):
    src = "fn main(a: f64[?, ?]) -> f64[?] {\n    let (w, v) = np.linalg.eigh(a);\n    return w * 1.0;\n}\n"
    assert_run_time_error(src, {"a": np.ones((2, 3))}, "LinAlgError: the last 2 dimensions of a must be square", tmp_path)

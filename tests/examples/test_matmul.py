"""The matrix product of two float matrices as one `arr.matmul` (issue 32: a library call, faer, on
the CPU): operands passed in as they lie, transposed, sliced with steps and reversed, f64 and f32,
sizes that are multiples of nothing, single rows and columns, empty axes; products in host loops
and beside fused expressions; the GPU targets' fused form (`expand-matmul`, run here through the
GPU emulation); and which products take which form (`arrayc_core::ops::matmul_by_library`).
Inputs are random normals (sums that cancel), so results are compared with tolerances: the library
sums in blocks, as OpenBLAS does, in another order. `examples/features/matmul.arr` has the
example's cases (`test_examples.py`, `test_aot.py`)."""
import subprocess

import numpy as np
import pytest

from arrayc_examples import arrayc_binary, run_source

NP = {"f64": np.float64, "f32": np.float32}


def assert_product_close(actual, a, b, want):
    """`actual` is `a @ b` up to rounding: within the classic bound of a sum of `k` products in any
    order, `k * eps * (|a| @ |b|)` elementwise (Higham, Accuracy and Stability of Numerical
    Algorithms, Sec. 3.5), of NumPy's `want` (which is as close to the exact product)."""
    k, eps = a.shape[1], np.finfo(want.dtype).eps
    bound = 2 * k * eps * (np.abs(a).astype(np.float64) @ np.abs(b).astype(np.float64))
    assert actual.dtype == want.dtype and actual.shape == want.shape
    excess = np.abs(actual.astype(np.float64) - want) - bound
    assert (excess <= 0).all(), f"off by more than the rounding bound at {np.argwhere(excess > 0)[:5]}"

# (rows of a, inner size, columns of b)
SIZES = [(1, 1, 1), (1, 37, 1), (37, 1, 41), (1, 300, 257), (257, 300, 1), (0, 5, 3), (5, 0, 3), (5, 3, 0),
         (129, 67, 251), (403, 397, 401),
         # above 2^27 multiply-adds: faer's parallel blocking at a size that needs it
         (512, 520, 530)]

# The operand views, in the language and in NumPy alike, and the shapes of the arrays passed in for
# an (n, k) @ (k, m) product.
VIEWS = {
    "plain": ("a", "b", lambda n, k, m: ((n, k), (k, m))),
    "transposed": ("a.T", "b.T", lambda n, k, m: ((k, n), (m, k))),
    "stepped": ("a[::2, 1::3]", "b[::-2, ::3]", lambda n, k, m: ((2 * n, 3 * k + 1), (2 * k, 3 * m))),
    # rows longer than the view's (a leading dimension above the column count)
    "columns": ("a[:, 2:]", "b[1:, :m]", lambda n, k, m: ((n, k + 2), (k + 1, m + 3))),
}


@pytest.mark.parametrize("n,k,m", SIZES)
@pytest.mark.parametrize("view", list(VIEWS))
@pytest.mark.parametrize("dt", ["f64", "f32"])
def test_matmul_matches_numpy(n, k, m, view, dt, tmp_path):
    rng = np.random.default_rng(n * 7 + k * 3 + m)
    va, vb, shapes = VIEWS[view]
    sa, sb = shapes(n, k, m)
    a, b = rng.standard_normal(sa).astype(NP[dt]), rng.standard_normal(sb).astype(NP[dt])
    env = {"a": a, "b": b, "m": m}
    want = eval(va, env) @ eval(vb, env)
    assert want.shape == (n, m)
    src = f"fn main(a: {dt}[P, Q], b: {dt}[R, S]) -> {dt}[{n}, {m}] {{\n    return {va} @ {vb.replace(':m]', f':{m}]')};\n}}\n"
    proc, res = run_source(src, {"a": a, "b": b}, tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert_product_close(res[0], eval(va, env), eval(vb, env), want)


LOOP = """fn main(a: f64[N, N], x: f64[N, M], steps: i64) -> (f64[N, M], f64[N, M], f64) {
    let y = x;
    for i in 0..steps {
        y = a @ y / 4.0 + x;          # a product, then an elementwise expression of its result
    }
    let z = exp(a * 0.01) @ (x * 2.0) - 1.0;
    return (y, z, sum(a.T @ y));
}
"""


@pytest.mark.parametrize("target", ["cpu", "gpu-emulated"])
def test_products_in_loops_and_expressions(target, tmp_path):
    """Products whose operands and results take part in fused expressions, in a host loop; on the
    GPU emulation, the same program through the fused form of `expand-matmul`."""
    rng = np.random.default_rng(3)
    n, m = (70, 9) if target == "cpu" else (13, 5)
    a, x = rng.standard_normal((n, n)) / np.sqrt(n), rng.standard_normal((n, m))
    y = x
    for _ in range(5):
        y = a @ y / 4.0 + x
    z = np.exp(a * 0.01) @ (x * 2.0) - 1.0
    proc, res = run_source(LOOP, {"a": a, "x": x}, tmp_path, flags=("--target", target, "--arg", "steps=5"))
    assert proc.returncode == 0, proc.stderr
    np.testing.assert_allclose(res[0], y, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(res[1], z, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(res[2], np.sum(a.T @ y), rtol=1e-12)


def emit_arr(src, tmp_path, *flags):
    prog = tmp_path / "e.arr"
    prog.write_text(src)
    proc = subprocess.run([str(arrayc_binary()), "emit", "--stage=arr", str(prog), *flags],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


@pytest.mark.parametrize("sig,expr,library", [
    ("a: f64[N, K], b: f64[K, M]", "a @ b", True),
    ("a: f32[N, K], b: f32[K, M]", "dot(a, b.T[:, ::2].T)", True),
    ("a: f32[N, K], b: f64[K, M]", "a @ b", True),
    ("a: i64[N, K], b: i64[K, M]", "a @ b", False),
    ("a: f64[N, K], b: f64[K]", "a @ b", False),
    ("a: f64[K], b: f64[K, M]", "a @ b", False),
    ("a: f64[N], b: f64[M]", "a[:, newaxis] @ b[newaxis, :] + 1.0", False),
    ("a: f32[N, 8], b: f32[8, M]", "a @ b", False),
    ("a: f32[N, 9], b: f32[9, M]", "a @ b", True),
])
def test_which_products_call_the_library(sig, expr, library, tmp_path):
    """Two float matrices: `arr.matmul` on the CPU, unless their inner size is a literal of at most
    8 (`FUSED_MATMUL_MAX_INNER`); other products, and every product on the GPU targets, the fused
    form (a multiply and a sum along the inner axis)."""
    src = f"fn main({sig}) {{\n    print({expr});\n}}\n"
    assert ("arr.matmul" in emit_arr(src, tmp_path)) == library
    gpu = emit_arr(src, tmp_path, "--target", "gpu")
    assert "arr.matmul" not in gpu and '"arr.mul"' in gpu


def test_unaligned_matrices_are_an_error(tmp_path):
    """The library path keeps `dot`'s run-time check and message (the sizes are symbols here)."""
    src = "fn main(a: f32[N, K], b: f32[L, M]) -> f32[N, M] {\n    return a @ b;\n}\n"
    proc, _ = run_source(src, {"a": np.ones((2, 3), np.float32), "b": np.ones((4, 2), np.float32)}, tmp_path)
    assert proc.returncode == 1
    assert "prog.arr:2:5: error: dot: shapes not aligned: the last dimension of `a` has size 3, the first of `b` 4" \
        in proc.stderr, proc.stderr


@pytest.mark.parametrize("target", ["cpu", "gpu-emulated"])
def test_stacks_of_matrices_match_numpy(target, tmp_path):
    """NumPy's `a @ b` and `matmul(a, b)` of stacks of matrices: 3-d by 3-d, 3-d by 2-d, a stack of
    one broadcast against several, 4-d against 3-d, mixed dtypes; a run-time inner size that
    differs is NumPy's error, and n-d `dot` (NumPy's other product) says to write `@`."""
    rng = np.random.default_rng(5)
    m = rng.standard_normal((3, 4, 5))
    w = rng.standard_normal((5, 2))
    one = rng.integers(-3, 4, (1, 5, 3))
    q = rng.standard_normal((2, 1, 4, 5))
    src = """fn main(m: f64[P, Q, S], w: f64[S, 2], one: i64[1, S, 3], q: f64[2, 1, 4, S]) -> (f64[P, Q, Q], f64[P, Q, 2], f64[P, Q, 3], f64[2, P, 4, Q]) {
    return (m @ m.transpose(0, 2, 1), np.matmul(m, w), m @ one, q @ m.transpose(0, 2, 1));
}
"""
    proc, res = run_source(src, {"m": m, "w": w, "one": one, "q": q}, tmp_path, flags=("--target", target))
    assert proc.returncode == 0, proc.stderr
    want = [m @ m.transpose(0, 2, 1), np.matmul(m, w), m @ one, q @ m.transpose(0, 2, 1)]
    for k, (got, w_) in enumerate(zip(res, want)):
        assert got.shape == w_.shape and got.dtype == w_.dtype, f"result {k}"
        np.testing.assert_allclose(got, w_, rtol=1e-12, atol=1e-12, err_msg=f"result {k}")
    prog = tmp_path / "dot3.arr"
    prog.write_text("fn f(a: f64[2, 3, 4], b: f64[2, 4, 3]) -> f64[2, 3, 3] {\n    return dot(a, b);\n}\n")
    bad = subprocess.run([arrayc_binary(), "check", str(prog)], capture_output=True, text=True)
    assert bad.returncode == 1 and "E0403" in bad.stderr and "`a @ b`" in bad.stderr, bad.stderr

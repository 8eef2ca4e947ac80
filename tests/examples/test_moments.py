"""NumPy's `any`, `all`, `count_nonzero`, `var` and `std` (compositions of `sum`, comparisons and
elementwise arithmetic in the lowering) against NumPy: every dtype, over every element and along
each axis (negative too), `ddof=`, on the CPU and on `--target gpu-emulated`; shapes with an
empty axis, a size 1, and sizes that span several launch chunks; zeros, NaN, and rows that are all
zero or all nonzero, so that `any` and `all` take both values along an axis.

`any`, `all`, `count_nonzero` must equal NumPy's exactly. `var` and `std` sum in another order
than NumPy's pairwise summation, so they are compared within a relative tolerance (f64 1e-10, f32
1e-4), with NaN and infinity where NumPy has them (an empty reduction, `n - ddof <= 0`).
"""
import numpy as np
import pytest

from arrayc_examples import check_source, run_source, sum_dtype

DTYPES = {"f64": np.float64, "f32": np.float32, "i64": np.int64, "i32": np.int32, "u64": np.uint64, "u8": np.uint8,
          "bool": np.bool_}
SHAPES = [(5, 7), (1, 4), (0, 3), (3, 0), (70_001, 3), (2, 100_003)]


def inputs(shape, dt, rng):
    """Values with zeros, whole zero rows and (floats) a NaN and an infinity where there is room."""
    x = rng.integers(-3, 4, size=shape) * 0.75 if dt != "bool" else rng.integers(0, 2, size=shape)
    x = x.astype(DTYPES[dt])
    if shape[0] > 2 and shape[1] > 0:
        x[1, :] = 0
        x[2, :] = 1
    if dt in ("f64", "f32") and shape[0] > 3 and shape[1] > 2:
        x[3, 1], x[0, 2] = np.nan, np.inf
    return x


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("target", ["cpu", "gpu-emulated"])
@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: "x".join(map(str, s)))
@pytest.mark.parametrize("dt", list(DTYPES))
def test_nonzero_reductions_and_moments_match_numpy(dt, shape, target, tmp_path):
    x = inputs(shape, dt, np.random.default_rng(sum(shape)))
    f = "f32" if dt == "f32" else "f64"
    calls = [
        ("any(x)", "bool", lambda: np.any(x)),
        ("all(x)", "bool", lambda: np.all(x)),
        ("count_nonzero(x)", "i64", lambda: np.count_nonzero(x)),
        ("any(x, axis=0)", "bool[N]", lambda: np.any(x, axis=0)),
        ("all(x, axis=1)", "bool[M]", lambda: np.all(x, axis=1)),
        ("all(x, axis=0)", "bool[N]", lambda: np.all(x, axis=0)),
        ("count_nonzero(x, axis=-1)", "i64[M]", lambda: np.count_nonzero(x, axis=-1)),
        ("var(x)", f, lambda: np.var(x)),
        ("std(x)", f, lambda: np.std(x)),
        ("var(x, axis=0)", f"{f}[N]", lambda: np.var(x, axis=0)),
        ("std(x, axis=1, ddof=1)", f"{f}[M]", lambda: np.std(x, axis=1, ddof=1)),
        ("var(x, axis=-2, ddof=d)", f"{f}[N]", lambda: np.var(x, axis=-2, ddof=2)),
    ]
    src = (
        f"fn main(x: {dt}[M, N], d: i64 = 2) -> ({', '.join(t for _, t, _ in calls)}) {{\n"
        f"    return ({', '.join(c for c, _, _ in calls)});\n}}\n"
    )
    proc, res = run_source(src, {"x": x}, tmp_path, flags=("--target", target))
    assert proc.returncode == 0, proc.stderr
    for got, (call, _, numpy) in zip(res, calls):
        want = np.asarray(numpy())
        got = np.asarray(got)
        assert got.dtype == want.dtype, f"{call}: dtype {got.dtype}, NumPy {want.dtype}"
        assert got.shape == want.shape, f"{call}: shape {got.shape}, NumPy {want.shape}"
        if want.dtype.kind == "f":
            rtol = 1e-4 if want.dtype == np.float32 else 1e-10
            np.testing.assert_allclose(got, want, rtol=rtol, atol=0, equal_nan=True, err_msg=call)
        else:
            np.testing.assert_array_equal(got, want, err_msg=call)


@pytest.mark.parametrize("target", ["cpu", "gpu-emulated"])
def test_var_of_general_values_is_numpys_two_pass_variance(target, tmp_path):
    """A large offset with a small spread: the one-pass `E[x^2] - E[x]^2` would lose every digit;
    the two passes NumPy makes (and arrayc makes) keep them."""
    rng = np.random.default_rng(7)
    x = 1e8 + rng.standard_normal((1000, 301))
    src = """fn main(x: f64[M, N]) -> (f64, f64[N], f64[M]) {
    return (var(x), std(x, axis=0), var(x, axis=1, ddof=1));
}
"""
    proc, res = run_source(src, {"x": x}, tmp_path, flags=("--target", target))
    assert proc.returncode == 0, proc.stderr
    for got, want in zip(res, [np.var(x), np.std(x, axis=0), np.var(x, axis=1, ddof=1)]):
        np.testing.assert_allclose(got, want, rtol=1e-9)


TUPLE_SHAPES = [(4, 5, 6), (3, 40_001, 2), (2, 0, 3)]


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("target", ["cpu", "gpu-emulated"])
@pytest.mark.parametrize("shape", TUPLE_SHAPES, ids=lambda s: "x".join(map(str, s)))
@pytest.mark.parametrize("dt", list(DTYPES))
def test_reductions_over_a_tuple_of_axes_match_numpy(dt, shape, target, tmp_path):
    """`axis=(j, k, ..)` (NumPy's tuple of axes, negative ones too, in any order) for every
    reduction that takes it: the result's shape lacks every listed axis; all of them gives a
    scalar. `min`/`max` of an empty reduction raise in NumPy, so they run on non-empty shapes."""
    rng = np.random.default_rng(sum(shape) + 1)
    x = (rng.integers(-3, 4, size=shape) * 0.75).astype(DTYPES[dt])
    f = "f32" if dt == "f32" else "f64"
    s = sum_dtype(dt)
    calls = [
        ("sum(x, axis=(0, 1))", f"{s}[C]", lambda: np.sum(x, axis=(0, 1))),
        ("sum(x, axis=(2, 0, 1))", s, lambda: np.sum(x, axis=(2, 0, 1))),
        ("prod(x, axis=(0, -1))", f"{s}[B]", lambda: np.prod(x, axis=(0, -1))),
        ("mean(x, axis=(1, 2))", f"{f}[A]", lambda: np.mean(x, axis=(1, 2))),
        ("any(x, axis=(0, 2))", "bool[B]", lambda: np.any(x, axis=(0, 2))),
        ("all(x, axis=(-2, -3))", "bool[C]", lambda: np.all(x, axis=(-2, -3))),
        ("count_nonzero(x, axis=(0, 2))", "i64[B]", lambda: np.count_nonzero(x, axis=(0, 2))),
        ("var(x, axis=(0, 1))", f"{f}[C]", lambda: np.var(x, axis=(0, 1))),
        ("std(x, axis=(2, 1), ddof=1)", f"{f}[A]", lambda: np.std(x, axis=(2, 1), ddof=1)),
    ]
    if x.size:
        calls += [
            ("min(x, axis=(0, 2))", f"{dt}[B]", lambda: np.min(x, axis=(0, 2))),
            ("max(x, axis=(1, 0, 2))", dt, lambda: np.max(x, axis=(1, 0, 2))),
        ]
    src = (
        f"fn main(x: {dt}[A, B, C]) -> ({', '.join(t for _, t, _ in calls)}) {{\n"
        f"    return ({', '.join(c for c, _, _ in calls)});\n}}\n"
    )
    proc, res = run_source(src, {"x": x}, tmp_path, flags=("--target", target))
    assert proc.returncode == 0, proc.stderr
    for got, (call, _, numpy) in zip(res, calls):
        want = np.asarray(numpy())
        got = np.asarray(got)
        assert got.dtype == want.dtype, f"{call}: dtype {got.dtype}, NumPy {want.dtype}"
        assert got.shape == want.shape, f"{call}: shape {got.shape}, NumPy {want.shape}"
        if want.dtype.kind == "f":
            rtol = 1e-4 if want.dtype == np.float32 else 1e-10
            np.testing.assert_allclose(got, want, rtol=rtol, atol=0, equal_nan=True, err_msg=call)
        else:
            np.testing.assert_array_equal(got, want, err_msg=call)


@pytest.mark.parametrize("axis", ["(0, 0)", "(0, -2)", "(0, 2)", "(0, k)"])
def test_a_bad_tuple_of_axes_is_a_compile_error(axis, tmp_path):
    """A repeated axis (NumPy's "duplicate value in 'axis'"), one out of range, or one that is not
    a literal: a compile-time error naming the call's line, not a panic."""
    src = f"fn main(x: f64[A, B], k: i64) -> f64[A] {{\n    return sum(x, axis={axis});\n}}\n"
    proc = check_source(src, tmp_path)
    assert proc.returncode == 1 and "panicked" not in proc.stderr, proc.stderr
    assert "e.arr:2:" in proc.stderr and ("E0503" in proc.stderr or "E0405" in proc.stderr), proc.stderr

"""Filters (`x[mask]`, `compress(mask, x)`), masked assignment (`x[mask] = v`), `bincount`, and
results of existential size (`-> f64[?]`) against NumPy: every dtype, empty arrays, all-false and
all-true masks, sizes that span many launch chunks, filters fused with their producers and
consumers under every fusion algorithm, 1 and 2 threads and the emulated GPU; and the errors: a
mask of the wrong size (NumPy's IndexError), negative `bincount` indices (ValueError), both naming
the line, and the checker's.
"""
import os

import numpy as np
import pytest

from arrayc_examples import ALGORITHMS, DTYPES, TARGETS, assert_check_error, check_source, run_source, sum_dtype



def values(dt, n, rng):
    if dt == "bool":
        return rng.random(n) < 0.5
    if dt == "i64":
        return rng.integers(-1000, 1000, n, dtype=np.int64)
    return (rng.standard_normal(n) * 100).astype(DTYPES[dt])


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("n,p", [(0, 0.5), (1, 1.0), (9, 0.0), (9, 1.0), (10, 0.5), (300_001, 0.3)])
def test_filters_match_numpy(dt, n, p, tmp_path):
    rng = np.random.default_rng(n + len(dt))
    x = values(dt, n, rng)
    mask = rng.random(n) < p
    src = f"""fn main(x: {dt}[N], mask: bool[N]) -> ({dt}[?], {dt}[?], {dt}[N], {dt}[N], {dt}[?]) {{
    let a = x[mask];
    let b = compress(mask, x);
    let c = copy(x);
    c[mask] = x[0:1];
    let d = copy(x);
    d[mask] = x[mask][::-1];
    return (a, b, c, d, x[mask == false][::2]);
}}
"""
    proc, res = run_source(src, {"x": x, "mask": mask}, tmp_path)
    assert proc.returncode == 0, proc.stderr
    c = x.copy()
    c[mask] = x[0:1]
    d = x.copy()
    d[mask] = x[mask][::-1]
    wants = [x[mask], np.compress(mask, x), c, d, x[~mask][::2]]
    for got, want in zip(res, wants):
        assert got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("shape", [(0, 3), (7, 1), (50_001, 4), (5, 2, 3)], ids=str)
def test_row_filters_match_numpy(shape, tmp_path):
    """A 1-d mask selects along axis 0 of a rank-2 or rank-3 array (NumPy's row filter), and
    assigns and updates (`*=` with a scalar, `-=` with rows) rows through it."""
    rng = np.random.default_rng(sum(shape))
    x = rng.standard_normal(shape)
    mask = rng.random(shape[0]) < 0.4
    rest = ", ".join(str(d) for d in shape[1:])
    src = f"""fn main(x: f64[N, {rest}], m: bool[N]) -> (f64[?, {rest}], f64[N, {rest}], f64[N, {rest}]) {{
    let a = x[m] * 2.0;
    let b = copy(x);
    b[m] = -1.0;
    let c = copy(x);
    c[m] = x[m][::-1];
    let d = copy(x);
    d[m] *= 3.0;
    let e = copy(x);
    e[m] -= x[m][::-1];
    return (a, b, c, d, e);
}}
"""
    src = src.replace(f"-> (f64[?, {rest}], f64[N, {rest}], f64[N, {rest}])",
                      f"-> (f64[?, {rest}], f64[N, {rest}], f64[N, {rest}], f64[N, {rest}], f64[N, {rest}])")
    proc, res = run_source(src, {"x": x, "m": mask}, tmp_path)
    assert proc.returncode == 0, proc.stderr
    b, c, d, e = x.copy(), x.copy(), x.copy(), x.copy()
    b[mask] = -1.0
    c[mask] = x[mask][::-1]
    d[mask] *= 3.0
    e[mask] -= x[mask][::-1]
    assert len(res) == 5
    for got, want in zip(res, [x[mask] * 2.0, b, c, d, e]):
        assert got.shape == want.shape
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("shape", [(0, 3), (1, 1), (7, 5), (301, 257)], ids=str)
def test_two_d_masks_match_numpy(shape, target, tmp_path):
    """A mask of a matrix's shape selects its elements in row-major order (NumPy's `x[x > 0]`),
    and assigns or updates them with a scalar."""
    rng = np.random.default_rng(sum(shape) + 7)
    x = rng.standard_normal(shape)
    src = """fn main(x: f64[N, M]) -> (f64[?], f64[N, M], f64[N, M]) {
    let a = x[x > 0.5] * 2.0;
    let b = copy(x);
    b[x < -0.2] = 0.0;
    let c = copy(x);
    c[abs(x) > 1.0] *= 10.0;
    return (a, b, c);
}
"""
    env = dict(os.environ, ARRAYC_GPU_EMULATION_GRID="2,3,32")
    proc, res = run_source(src, {"x": x}, tmp_path, flags=("--target", target), env=env)
    assert proc.returncode == 0, proc.stderr
    b, c = x.copy(), x.copy()
    b[x < -0.2] = 0.0
    c[np.abs(x) > 1.0] *= 10.0
    for got, want in zip(res, [x[x > 0.5] * 2.0, b, c]):
        assert got.shape == want.shape
        np.testing.assert_array_equal(got, want)


NORMALIZE = """fn main(xs: f64[N]) -> (f64[N], f64[N], f64[?]) {
    let sum1 = sum(xs);
    let gts = xs[xs > 0.0];                 # Robinson et al. 2014, Fig. 1: normalize2
    let sum2 = sum(gts);
    return (xs / sum1, xs / sum2, sqrt(gts) * 2.0);
}
"""


@pytest.mark.parametrize("algo", ALGORITHMS)
def test_normalize2_every_algorithm(algo, tmp_path):
    rng = np.random.default_rng(5)
    xs = rng.integers(-64, 64, 100_001) / 8.0
    proc, res = run_source(NORMALIZE, {"xs": xs}, tmp_path, flags=("--fuse", algo))
    assert proc.returncode == 0, proc.stderr
    gts = xs[xs > 0.0]
    np.testing.assert_array_equal(res[0], xs / np.sum(xs))   # exact sums: the inputs are multiples of 1/8
    np.testing.assert_array_equal(res[1], xs / np.sum(gts))
    np.testing.assert_array_equal(res[2], np.sqrt(gts) * 2.0)


@pytest.mark.parametrize("threads", ["1", "2"])
@pytest.mark.parametrize("target", TARGETS)
def test_threads_and_emulated_gpu(threads, target, tmp_path):
    rng = np.random.default_rng(6)
    xs = rng.integers(-64, 64, 30_001) / 8.0
    env = dict(os.environ, RAYON_NUM_THREADS=threads, ARRAYC_GPU_EMULATION_GRID="2,3,32")
    proc, res = run_source(NORMALIZE, {"xs": xs}, tmp_path, flags=("--target", target), env=env)
    assert proc.returncode == 0, proc.stderr
    gts = xs[xs > 0.0]
    np.testing.assert_array_equal(res[1], xs / np.sum(gts))
    np.testing.assert_array_equal(res[2], np.sqrt(gts) * 2.0)


@pytest.mark.parametrize("k,n", [(0, 0), (1, 1), (20, 8), (300_001, 50)])
def test_bincount_matches_numpy(k, n, tmp_path):
    rng = np.random.default_rng(k)
    idx = rng.integers(0, max(n, 1), k, dtype=np.int64)
    w = rng.standard_normal(k)
    src = """fn main(idx: i64[K], w: f64[K]) -> (i64[?], f64[?], i64[?], f64[?]) {
    return (bincount(idx), bincount(idx, w), bincount(idx, minlength=60), bincount(idx, idx * 2, minlength=3));
}
"""
    proc, res = run_source(src, {"idx": idx, "w": w}, tmp_path)
    assert proc.returncode == 0, proc.stderr
    wants = [np.bincount(idx), np.bincount(idx, w), np.bincount(idx, minlength=60),
             np.bincount(idx, idx * 2, minlength=3)]
    for got, want in zip(res, wants):
        # NumPy's bincount of no indices is an integer array even with weights; arrayc's dtype is
        # static: f64 with weights (docs/language.md).
        if k > 0:
            assert got.dtype == want.dtype
        assert got.shape == want.shape
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("dtype", [np.uint8, np.int32, np.bool_])
def test_bincount_of_other_index_dtypes_matches_numpy(dtype, target, tmp_path):
    """NumPy casts the indices to intp by the 'safe' rule: u8, i32 and bool are counted as their
    values (a histogram of a u8 image, `bincount(img.ravel(), minlength=256)`)."""
    rng = np.random.default_rng(3)
    idx = rng.integers(0, 2 if dtype == np.bool_ else 200, 500).astype(dtype)
    w = rng.standard_normal(500)
    name = {np.uint8: "u8", np.int32: "i32", np.bool_: "bool"}[dtype]
    src = f"""fn main(idx: {name}[K], w: f64[K]) -> (i64[?], f64[?]) {{
    return (np.bincount(idx, minlength=256), np.bincount(idx, weights=w));
}}
"""
    proc, res = run_source(src, {"idx": idx, "w": w}, tmp_path, flags=("--target", target))
    assert proc.returncode == 0, proc.stderr
    for got, want in zip(res, [np.bincount(idx, minlength=256), np.bincount(idx, weights=w)]):
        assert got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_array_equal(got, want)


def test_bincount_of_u64_is_numpys_type_error(tmp_path):
    """NumPy: "Cannot cast array data from dtype('uint64') to dtype('int64') according to the
    rule 'safe'"; arrayc refuses it when checking, naming the conversion."""
    src = "fn main(idx: u64[K]) -> i64[?] {\n    return np.bincount(idx);\n}\n"
    assert_check_error(src, "E0406", "idx.astype(i64)", tmp_path)


def test_existential_sizes_through_calls(tmp_path):
    """A user function returning `f64[?]`: each call's size is its own (checked when combined)."""
    src = """fn positive(x: f64[N]) -> f64[?] {
    return x[x > 0.0];
}

fn main(x: f64[N]) -> (f64[?], f64[?]) {
    let a = positive(x);
    let b = positive(x - 1.0);
    return (a, b);
}
"""
    x = np.array([0.5, -1.0, 2.0, 3.0, -0.5])
    proc, res = run_source(src, {"x": x}, tmp_path, flags=("--entry", "main"))
    assert proc.returncode == 0, proc.stderr
    np.testing.assert_array_equal(res[0], x[x > 0])
    np.testing.assert_array_equal(res[1], (x - 1)[(x - 1) > 0])
    bad = src.replace("return (a, b);", "return (a + b, b);")
    proc, _ = run_source(bad, {"x": x}, tmp_path / "bad", flags=("--entry", "main"))
    assert proc.returncode != 0 and ":8:" in proc.stderr, proc.stderr


@pytest.mark.parametrize("src,args,message", [
    ("fn main(x: f64[N], m: bool[M]) -> f64[?] {\n    return x[m];\n}\n", {"x": np.zeros(3), "m": np.zeros(4, bool)},
     "boolean index did not match indexed array along axis 0; size of axis is 3 but size of corresponding boolean axis is 4"),
    ("fn main(i: i64[K]) -> i64[?] {\n    return bincount(i);\n}\n", {"i": np.array([1, -2])},
     "bincount: 'list' argument must have no negative elements"),
])
def test_run_time_errors_name_the_line(src, args, message, tmp_path):
    proc, _ = run_source(src, args, tmp_path)
    assert proc.returncode != 0
    assert message in proc.stderr and ":2:" in proc.stderr, proc.stderr


@pytest.mark.parametrize("src,code", [
    ("fn main() -> f64[?] { return zeros(3)[zeros(4) > 0.0]; }", "E0401"),
    ("fn main() -> f64[?] { return zeros(3, 2)[zeros(3, 2, 2) > 0.0]; }", "E0409"),
    ("fn main() -> f64[?] { return zeros(3, 2)[zeros(3, 3) > 0.0]; }", "E0401"),
    ("fn main() -> f64[3, 2] { let x = zeros(3, 2); x[x > 0.0, 0] = 1.0; return x; }", "E0409"),
    ("fn main() -> f64[?, 2] { return zeros(3, 2)[zeros(2) > 0.0]; }", "E0401"),
    ("fn main() -> f64[?] { return compress(zeros(3), zeros(3)); }", "E0409"),
    ("fn main() -> i64[?] { return bincount(zeros(3)); }", "E0406"),
    ("fn main() -> f64[?] { return bincount(arange(3), arange(3) > 1); }", "E0406"),
    ("fn main() -> i64[3] { let x = zeros(3, dtype=i64); x[arange(2)] += 1.5; return x; }", "E0304"),
    ("fn main() -> i64[3] { let x = arange(3); x[x > 0] *= 1.5; return x; }", "E0304"),
    ("fn main() -> f64[? + 1] { return zeros(3); }", "E0101"),
])
def test_checker_errors(src, code, tmp_path):
    proc = check_source(src, tmp_path)
    assert proc.returncode != 0
    assert code in proc.stderr, proc.stderr


MASKS = """fn main(x: f64[N, M, L], v: f64[K]) -> (f64[?], f64[?, L], f64[?], f64[N, M, L], f64[N, M, L], f64[N, M, L]) {
    let a = x[x > 0.25];                   # a 3-d mask: elements in row-major order
    let b = x[x[:, :, 0] > 0.0] * 2.0;     # a 2-d mask of a 3-d array: rows along the last axis
    let c = x[1:, ::-1][x[1:, ::-1] < 0.0];
    let d = copy(x);
    d[x > 0.25] = v;                       # an array through a 3-d mask
    let e = copy(x);
    e[x[:, :, 0] > 0.0] = x[x[:, :, 0] > 0.0] * -1.0;
    let f = copy(x);
    f[x < -0.5] += x[x < -0.5] * 10.0;
    return (a, b, c, d, e, f);
}
"""


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("shape", [(0, 3, 2), (1, 1, 1), (4, 5, 3), (31, 17, 40)], ids=str)
def test_masks_of_any_rank_match_numpy(shape, target, tmp_path):
    """Masks of rank 1 up to the array's rank select along the leading axes in row-major order,
    and arrays are assigned or added through them (NumPy's `x[mask]`, `x[mask] = v`)."""
    rng = np.random.default_rng(sum(shape) + 17)
    x = rng.standard_normal(shape)
    v = rng.standard_normal(int(np.sum(x > 0.25)))
    env = dict(os.environ, ARRAYC_GPU_EMULATION_GRID="2,3,32")
    proc, res = run_source(MASKS, {"x": x, "v": v}, tmp_path, flags=("--target", target), env=env)
    assert proc.returncode == 0, proc.stderr
    d, e, f = x.copy(), x.copy(), x.copy()
    d[x > 0.25] = v
    m = x[:, :, 0] > 0.0
    e[m] = x[m] * -1.0
    f[x < -0.5] += x[x < -0.5] * 10.0
    y = x[1:, ::-1]
    for got, want in zip(res, [x[x > 0.25], x[m] * 2.0, y[y < 0.0], d, e, f]):
        assert got.shape == want.shape
        np.testing.assert_array_equal(got, want)


def test_assigning_the_wrong_number_of_values_through_a_mask_is_an_error(tmp_path):
    src = "fn main(x: f64[N, M], v: f64[K]) -> f64[N, M] {\n    x[x > 0.0] = v;\n    return x;\n}\n"
    proc, _ = run_source(src, {"x": np.ones((2, 3)), "v": np.zeros(4)}, tmp_path)
    assert proc.returncode != 0
    assert ":2:" in proc.stderr, proc.stderr


ALIASED_MASKS = """fn main(b: bool[N, N], c: bool[N, N, K], x: f64[N, N]) -> (bool[N, N], bool[N, N, K], f64[N, N], bool[N, N]) {
    let p = b[...];
    p[transpose(p)] = false;
    let q = c[...];
    q[transpose(q)[0, :, :]] = false;
    let y = x[...];
    y[transpose(y) > 0.0] += 10.0;
    let r = b[...];
    r[transpose(r)] = r[transpose(r)] & false;
    return (p, q, y, r);
}
"""


@pytest.mark.parametrize("algo", ALGORITHMS)
@pytest.mark.parametrize("target", TARGETS)
def test_a_mask_that_is_a_view_of_the_target_is_read_before_the_writes(algo, target, tmp_path):
    """`x[mask] = v` with `mask` another view of `x` (found by the differential generator, seed 90021):
    the whole mask is read before anything is written. NumPy does that for a mask of fewer axes than
    `x` (it takes `nonzero(mask)` first), which is compared as it is; for a mask of all of `x`'s
    axes, NumPy's boolean assignment reads the mask while it writes (`b[b.T] = False` leaves a
    triangle), so that case is compared with NumPy on a copy of the mask (docs/language.md)."""
    rng = np.random.default_rng(90021)
    n, k = 13, 3
    b, c, x = rng.random((n, n)) < 0.7, rng.random((n, n, k)) < 0.7, rng.standard_normal((n, n))
    env = dict(os.environ, ARRAYC_GPU_EMULATION_GRID="2,3,32")
    proc, res = run_source(ALIASED_MASKS, {"b": b, "c": c, "x": x}, tmp_path,
                           flags=("--fuse", algo, "--target", target), env=env)
    assert proc.returncode == 0, proc.stderr
    p = b.copy()
    p[p.T.copy()] = False
    q = c.copy()
    q[np.transpose(q)[0, :, :]] = False  # a 2-d mask of a 3-d array: NumPy reads it first itself
    y = x.copy()
    y[y.T > 0.0] += 10.0
    r = b.copy()
    r[r.T.copy()] = r[r.T] & False
    for got, want in zip(res, [p, q, y, r]):
        np.testing.assert_array_equal(got, want)


@pytest.mark.filterwarnings("ignore:Mean of empty slice")
@pytest.mark.parametrize("target", ["cpu", "gpu-emulated"])
@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("n,p", [(0, 0.5), (9, 0.0), (10, 0.5), (200_003, 0.3)])
def test_reductions_of_filters_match_numpy(dt, n, p, target, tmp_path):
    """`sum`/`prod`/`mean` of a filter's result (folded into the reduction by `fold-filters` where
    nothing else reads it) against NumPy; and the filters that must not fold: a mask written after
    the filter, a result also returned, a 2-d mask, a filter inside a loop."""
    rng = np.random.default_rng(n + 7 * len(dt))
    x = values(dt, n, rng)
    mask = rng.random(n) < p
    sd = sum_dtype(dt)  # NumPy: `sum` upcasts bools and narrow integers
    src = f"""fn main(x: {dt}[N], m: bool[N], q: f64[N]) -> ({sd}, {sd}, f64, f64, {dt}[?], f64, f64, f64, f64) {{
    let s = sum(x[m]);
    let g = x[x >= x[0:1]];
    let t = sum(g);
    let pr = prod(q[m]);
    let mm = copy(m);
    let h = q[mm];
    mm[0:1] = true;
    let u = sum(h);
    let k = q[m];
    let v = sum(k);
    let w = 0.0;
    for i in 0..2 {{
        w = w + sum(q[m]);
    }}
    return (s, t, pr, u, x[m], v + sum(k), w, mean(q[m]), sum(f64(x[m])));
}}
"""
    q = 1.0 + rng.standard_normal(n) * 1e-3
    proc, res = run_source(src, {"x": x, "m": mask, "q": q}, tmp_path, flags=("--target", target))
    assert proc.returncode == 0, proc.stderr
    want = [x[mask].sum(), x[x >= x[0:1]].sum(), q[mask].prod(), q[mask].sum(), x[mask], 2 * q[mask].sum(),
            2 * q[mask].sum(), q[mask].mean(), x[mask].astype(np.float64).sum()]
    for got, w in zip(res, want):
        if isinstance(w, np.ndarray) and w.ndim > 0:
            np.testing.assert_array_equal(got, w)
        else:
            rtol = 1e-4 if dt == "f32" else 1e-9
            np.testing.assert_allclose(got, w, rtol=rtol, atol=rtol, equal_nan=True)


def test_normalize2_is_two_kernels(tmp_path):
    """Robinson et al. 2014, Fig. 1: normalize2's two sums share one loop and its two maps the
    other (`fold-filters`, `sink-loads`, reductions over everything sharing a kernel), and the
    results are NumPy's."""
    rng = np.random.default_rng(5)
    xs = rng.standard_normal(100_001)
    src = """fn normalize2(xs: f64[N]) -> (f64[N], f64[N]) {
    let sum1 = sum(xs);
    let gts = xs[xs > 0.0];
    let sum2 = sum(gts);
    return (xs / sum1, xs / sum2);
}
"""
    proc, res = run_source(src, {"xs": xs}, tmp_path, flags=("--time",))
    assert proc.returncode == 0, proc.stderr
    assert "in 2 kernel launches" in proc.stderr, proc.stderr
    np.testing.assert_allclose(res[0], xs / xs.sum(), rtol=1e-12)
    np.testing.assert_allclose(res[1], xs / xs[xs > 0].sum(), rtol=1e-12)

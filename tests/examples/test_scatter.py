"""Scatters (`x[idx] = v` and `add_at(x, idx, v)`, NumPy integer-array assignment and `np.add.at`)
against NumPy: every dtype, targets of rank 1 to 3, index arrays of rank 1 and 2, negative and
repeated indices (the last write wins; `add_at` adds every value, in order, so float sums are
bit-identical), scalar and broadcast values, values and index arrays that overlap the target (read
before the target is written, as in NumPy), sizes that span many launch chunks, fused producers under
every fusion algorithm, 1 and 2 threads and the emulated GPU; and the errors: an index out of range
(NumPy's IndexError, naming the line) and the checker's.
"""
import os

import numpy as np
import pytest

from arrayc_examples import ALGORITHMS, DTYPES, TARGETS, check_source, run_source



def values(dt, shape, rng):
    if dt == "bool":
        return rng.random(shape) < 0.5
    if dt == "i64":
        return rng.integers(-1000, 1000, shape, dtype=np.int64)
    return (rng.standard_normal(shape) * 100).astype(DTYPES[dt])


def dims(prefix, shape):
    return ", ".join(f"{prefix}{a}" for a in range(len(shape)))


# (shape of x, shape of idx)
CASES = [((10,), (4,)), ((7,), (0,)), ((1,), (5,)), ((100_003,), (200_001,)), ((300, 3), (1_000,)),
         ((5, 4), (3, 2)), ((4, 3, 2), (5,)), ((6,), (2, 70_001))]


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("xs,ks", CASES, ids=str)
def test_scatter_matches_numpy(dt, xs, ks, tmp_path):
    rng = np.random.default_rng(len(xs) * 1000 + sum(ks) + len(dt))
    x = values(dt, xs, rng)
    idx = rng.integers(-xs[0], xs[0], ks, dtype=np.int64)  # negative and repeated indices
    vshape = tuple(ks) + tuple(xs[1:])
    v = values(dt, vshape, rng)
    tx, ti = f"{dt}[{dims('N', xs)}]", f"i64[{dims('K', ks)}]"
    tv = f"{dt}[{', '.join([f'K{a}' for a in range(len(ks))] + [f'N{a}' for a in range(1, len(xs))])}]"
    src = f"""fn main(x: {tx}, idx: {ti}, v: {tv}) -> ({tx}, {tx}, {tx}) {{
    let a = copy(x);
    a[idx] = v;
    let b = copy(x);
    add_at(b, idx, v);
    let c = copy(x);
    c[idx % N0] = v[..., 0:1];
    return (a, b, c);
}}
"""
    if len(xs) == 1:
        src = src.replace("v[..., 0:1]", "v[0:1]")
    proc, res = run_source(src, {"x": x, "idx": idx, "v": v}, tmp_path)
    assert proc.returncode == 0, proc.stderr
    a, b, c = x.copy(), x.copy(), x.copy()
    a[idx] = v
    np.add.at(b, idx, v)
    c[idx % xs[0]] = v[..., 0:1] if len(xs) > 1 else v[0:1]
    for got, want in zip(res, [a, b, c]):
        assert got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_array_equal(got, want)


ADD_AT_TUPLES = """fn main(x: f64[N, M, 2], i: i64[K], j: i64[K], v: f64[K]) -> (f64[N, M, 2], f64[N, M, 2], f64[N, M, 2]) {
    let a = copy(x);
    add_at(a, (i, j), v[:, newaxis]);                        # rows (i[k], j[k]) of the last axis
    let b = copy(x);
    add_at(b, (i[:, newaxis], arange(2)[newaxis, :]), 1.0);  # broadcast index arrays
    let c = copy(x);
    add_at(c, (i, j, 0 * j + 1), v * 2.0);                   # one index array per axis
    return (a, b, c);
}
"""


@pytest.mark.parametrize("algo", ["optimal", "singleton"])
@pytest.mark.parametrize("k", [0, 11, 30_001])
def test_add_at_with_a_tuple_of_index_arrays(k, algo, tmp_path):
    """`add_at(x, (i, j), v)` is `np.add.at(x, (i, j), v)`: every value added, repeated index
    pairs accumulating in order (bit-identical sums), negative indices."""
    rng = np.random.default_rng(k + 5)
    x = rng.integers(-64, 64, (7, 4, 2)) / 8.0
    i = rng.integers(-7, 7, k, dtype=np.int64)
    j = rng.integers(-4, 4, k, dtype=np.int64)
    v = rng.standard_normal(k)
    proc, res = run_source(ADD_AT_TUPLES, {"x": x, "i": i, "j": j, "v": v}, tmp_path, flags=("--fuse", algo))
    assert proc.returncode == 0, proc.stderr
    a, b, c = x.copy(), x.copy(), x.copy()
    np.add.at(a, (i, j), v[:, None])
    np.add.at(b, (i[:, None], np.arange(2)[None, :]), 1.0)
    np.add.at(c, (i, j, 0 * j + 1), v * 2.0)
    for got, want in zip(res, [a, b, c]):
        np.testing.assert_array_equal(got, want)


def test_histogram_counts_and_weights(tmp_path):
    """`add_at` of a scalar (counts) and of weights with many repeated indices, as `np.add.at`;
    float sums bit-identical (added in index-array order)."""
    rng = np.random.default_rng(4)
    idx = rng.integers(0, 50, 300_001, dtype=np.int64)
    w = rng.standard_normal(300_001)
    src = """fn main(idx: i64[K], w: f64[K]) -> (i64[50], f64[50]) {
    let c = zeros(50, dtype=i64);
    add_at(c, idx, 1);
    let s = zeros(50);
    add_at(s, idx, w * 2.0);
    return (c, s);
}
"""
    proc, res = run_source(src, {"idx": idx, "w": w}, tmp_path)
    assert proc.returncode == 0, proc.stderr
    c, s = np.zeros(50, dtype=np.int64), np.zeros(50)
    np.add.at(c, idx, 1)
    np.add.at(s, idx, w * 2.0)
    np.testing.assert_array_equal(res[0], c)
    np.testing.assert_array_equal(res[1], s)


def test_overlapping_values_and_indices_are_read_first(tmp_path):
    """NumPy evaluates the value and the index array before it writes the target."""
    src = """fn main(x: i64[N]) -> (i64[N], i64[N]) {
    let a = copy(x);
    a[arange(N)[::-1]] = a;             # the value is the target itself
    let b = copy(x);
    b[b % N] = b[::-1] * 10;            # the index array reads the target
    return (a, b);
}
"""
    x = np.random.default_rng(8).integers(0, 1000, 1001, dtype=np.int64)
    proc, res = run_source(src, {"x": x}, tmp_path)
    assert proc.returncode == 0, proc.stderr
    a, b = x.copy(), x.copy()
    a[np.arange(len(x))[::-1]] = a.copy()
    b[b % len(x)] = b[::-1] * 10
    np.testing.assert_array_equal(res[0], a)
    np.testing.assert_array_equal(res[1], b)


FUSED = """fn main(x: f64[N], idx: i64[K]) -> (f64[N], f64[N], f64) {
    let y = copy(x);
    let j = (idx * 7 + 3) % N - 3;
    y[j] = sqrt(abs(x[idx])) + 1.0;     # index producer, gathered value and scatter
    let h = zeros(N);
    add_at(h, idx % N, x[0:K] * 0.5);
    return (y, h, sum(h));
}
"""


def fused_reference(x, idx):
    n = len(x)
    y = x.copy()
    j = (idx * 7 + 3) % n - 3
    y[j] = np.sqrt(np.abs(x[idx])) + 1.0
    h = np.zeros(n)
    np.add.at(h, idx % n, x[0:len(idx)] * 0.5)
    return y, h, np.sum(h)


@pytest.mark.parametrize("algo", ALGORITHMS)
def test_fused_every_algorithm(algo, tmp_path):
    rng = np.random.default_rng(7)
    x = rng.integers(-64, 64, 50_001) / 8.0
    idx = rng.integers(-50_001, 50_001, 40_001, dtype=np.int64)
    proc, res = run_source(FUSED, {"x": x, "idx": idx}, tmp_path, flags=("--fuse", algo))
    assert proc.returncode == 0, proc.stderr
    y, h, s = fused_reference(x, idx)
    np.testing.assert_array_equal(res[0], y)
    np.testing.assert_array_equal(res[1], h)
    np.testing.assert_allclose(res[2], s, rtol=1e-12)


@pytest.mark.parametrize("threads", ["1", "2"])
@pytest.mark.parametrize("target", TARGETS)
def test_threads_and_emulated_gpu(threads, target, tmp_path):
    rng = np.random.default_rng(9)
    x = rng.integers(-64, 64, 30_001) / 8.0
    idx = rng.integers(-30_001, 30_001, 20_001, dtype=np.int64)
    env = dict(os.environ, RAYON_NUM_THREADS=threads, ARRAYC_GPU_EMULATION_GRID="2,3,32")
    proc, res = run_source(FUSED, {"x": x, "idx": idx}, tmp_path, flags=("--target", target), env=env)
    assert proc.returncode == 0, proc.stderr
    y, h, _ = fused_reference(x, idx)
    np.testing.assert_array_equal(res[0], y)
    np.testing.assert_array_equal(res[1], h)


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("stmt", ["x[idx] = 1.0;", "add_at(x, idx, 1.0);"])
@pytest.mark.parametrize("n,bad", [(5, 5), (5, -6), (0, 0)])
def test_index_out_of_range_names_the_line(stmt, n, bad, target, tmp_path):
    src = f"fn main(n: i64, k: i64) -> f64[n] {{\n    let x = zeros(n);\n    let idx = arange(3) * 0 + k;\n    {stmt}\n    return x;\n}}\n"
    prog = tmp_path / "prog.arr"
    proc, _ = run_source(src, {}, tmp_path, flags=("--arg", f"n={n}", "--arg", f"k={bad}", "--target", target))
    assert proc.returncode != 0
    assert "index out of bounds for axis 0 of the assigned array (IndexError)" in proc.stderr, proc.stderr
    assert ":4:" in proc.stderr, proc.stderr
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir()), prog


@pytest.mark.parametrize("src,code", [
    ("fn main() -> i64[3] { let x = zeros(3, dtype=i64); x[arange(2)] /= 2; return x; }", "E0304"),
    ("fn main() -> f64[3] { let x = zeros(3); x[arange(2) * 1.0] = 1.0; return x; }", "E0406"),
    ("fn main() -> f64[3] { let x = zeros(3); x[arange(2)] = zeros(3); return x; }", "E0401"),
    ("fn main() -> i64[3] { let x = zeros(3, dtype=i64); add_at(x, arange(2), 0.5); return x; }", "E0304"),
    ("fn main() -> f64[3] { let x = zeros(3); add_at(x, arange(2)); return x; }", "E0501"),
    ("fn main() -> f64[3] { let x = zeros(3); add_at(x, 1, 2.0); return x; }", "E0406"),
    ("fn main() -> f64[3, 2] { let x = zeros(3, 2); x[arange(2), newaxis] = 1.0; return x; }", "E0409"),
    ("fn main() -> f64[3, 2] { let x = zeros(3, 2); add_at(x, (arange(2), arange(3)), 1.0); return x; }", "E0401"),
    ("fn main() -> f64[3] { let x = zeros(3); add_at(x, (arange(2), arange(2)), 1.0); return x; }", "E0403"),
    ("fn main() -> f64[3, 2] { let x = zeros(3, 2); add_at(x, (arange(2), 1), 1.0); return x; }", "E0406"),
    ("fn main() -> f64 { let t = 2.0 * (1.0, 2.0); return 0.0; }", "E0309"),
    ("fn main() -> f64[3, 2] { let x = zeros(3, 2); x[0, arange(2)] += zeros(3); return x; }", "E0401"),
    ("fn main() -> f64[3, 2] { let x = zeros(3, 2); x[arange(2), 1:] = zeros(2); return x; }", "E0401"),
])
def test_checker_errors(src, code, tmp_path):
    proc = check_source(src, tmp_path)
    assert proc.returncode != 0
    assert code in proc.stderr, proc.stderr


SEVERAL = """fn main(x: f64[N, M, 2], i: i64[K], j: i64[K]) -> (f64[N, M, 2], f64[N, M, 2], f64[N, M, 2]) {
    let a = copy(x);
    a[i, j] = -1.0;                                              # rows (i[k], j[k]) of the last axis
    let b = copy(x);
    b[i[:, newaxis], arange(2)[newaxis, :]] = x[i, 0:2] * 10.0;  # broadcast index arrays
    let c = copy(x);
    c[i, j, 0 * j + 1] = arange(K) * 1.0;                        # one index array per axis
    return (a, b, c);
}
"""


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("k", [0, 9, 50_001])
def test_several_index_arrays(k, target, tmp_path):
    """`x[i, j, ..] = v`: index arrays broadcast together, one per leading axis, repeated pairs
    (the last write wins), negative indices."""
    rng = np.random.default_rng(k + 2)
    x = rng.integers(-64, 64, (50, 4, 2)) / 8.0
    i = rng.integers(-50, 50, k, dtype=np.int64)
    j = rng.integers(-4, 4, k, dtype=np.int64)
    env = dict(os.environ, ARRAYC_GPU_EMULATION_GRID="2,3,32")
    proc, res = run_source(SEVERAL, {"x": x, "i": i, "j": j}, tmp_path, flags=("--target", target), env=env)
    assert proc.returncode == 0, proc.stderr
    a, b, c = x.copy(), x.copy(), x.copy()
    a[i, j] = -1.0
    b[i[:, None], np.arange(2)[None, :]] = x[i, 0:2] * 10.0
    c[i, j, 0 * j + 1] = np.arange(k) * 1.0
    for got, want in zip(res, [a, b, c]):
        np.testing.assert_array_equal(got, want)


def test_several_index_arrays_out_of_range_names_the_axes(tmp_path):
    src = "fn main(x: f64[N, M], i: i64[K], j: i64[K]) -> f64[N, M] {\n    x[i, j] = 1.0;\n    return x;\n}\n"
    proc, _ = run_source(src, {"x": np.zeros((3, 2)), "i": np.array([0, 1]), "j": np.array([1, -3])}, tmp_path)
    assert proc.returncode != 0
    assert "index out of bounds for axes 0..1 of the assigned array (IndexError)" in proc.stderr
    assert ":2:" in proc.stderr, proc.stderr


MIXED = """fn main(x: f64[N, M, 3], i: i64[K], j: i64[K], v: f64[K]) -> (f64[N, M, 3], f64[N, M, 3], f64[N, M, 3], f64[N, M, 3]) {
    let a = copy(x);
    a[0, j, 2] = v;                        # integers beside index arrays: one run
    a[i, :, 1] = v[:, newaxis] * 2.0;      # not one run: the value's index axis comes first
    let b = copy(x);
    b[:, j] = -1.0;                        # a slice before the index array
    b[1:, j, 1:] = x[1:, j, :2] + 0.5;
    let c = copy(x);
    c[i, ::-1, i % 3] = x[i, :, 0] * 3.0;  # two index arrays apart, a reversed slice between
    let d = copy(x);
    d[2, i % M, :] = x[i, 0, :];
    return (a, b, c, d);
}
"""


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("algo", ["optimal", "singleton"])
@pytest.mark.parametrize("k", [0, 7, 20_001])
def test_advanced_indexing_assignments(k, algo, target, tmp_path):
    """`x[...] = v` through index arrays with integers and slices beside them (NumPy's advanced
    indexing; repeated indices: the last write wins), the value broadcast to the target's shape
    and read before the target is written."""
    rng = np.random.default_rng(k + 21)
    x = rng.integers(-64, 64, (6, 4, 3)) / 8.0
    i = rng.integers(-6, 6, k, dtype=np.int64)
    j = rng.integers(-4, 4, k, dtype=np.int64)
    v = rng.integers(-64, 64, k) / 4.0
    env = dict(os.environ, ARRAYC_GPU_EMULATION_GRID="2,3,32")
    proc, res = run_source(MIXED, {"x": x, "i": i, "j": j, "v": v}, tmp_path,
                           flags=("--fuse", algo, "--target", target), env=env)
    assert proc.returncode == 0, proc.stderr
    a, b, c, d = x.copy(), x.copy(), x.copy(), x.copy()
    a[0, j, 2] = v
    a[i, :, 1] = v[:, None] * 2.0
    b[:, j] = -1.0
    b[1:, j, 1:] = x[1:, j, :2] + 0.5
    c[i, ::-1, i % 3] = x[i, :, 0] * 3.0
    d[2, i % 4, :] = x[i, 0, :]
    for got, want in zip(res, [a, b, c, d]):
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("dt", ["f64", "f32", "i64", "i32"])
def test_in_place_operators_through_index_arrays_match_numpy(dt, target, tmp_path):
    """`x[idx] op= v` is NumPy's buffered `x[idx] = x[idx] op v`: repeated indices update once
    from the old value (the last one's result wins), index arrays beside integers and slices, a
    1-d mask beside a slice, negative indices, array and scalar values, every operator."""
    src = f"""fn main(x: {dt}[4, 5], i: i64[6], v: {dt}[6]) -> ({dt}[4, 5], {dt}[4, 5], {dt}[4, 5], {dt}[4, 5], {dt}[4, 5], {dt}[4, 5]) {{
    let a = x.copy();
    a[i % 4] += 1;
    let b = x.copy();
    b[i % 4, -(i % 5) - 1] *= v;
    let c = x.copy();
    c[:, [0, 2, 2, -1]] -= 2;
    let d = x.copy();
    d[[0, 0, 3]] //= 2;
    let e = x.copy();
    e[1, x[0] > x[0, 2]] += v[:2];
    let f = x.copy();
    f[1:, i[:3] % 5] -= v[3:];
    return (a, b, c, d, e, f);
}}
"""
    npd = {"f64": np.float64, "f32": np.float32, "i64": np.int64, "i32": np.int32}[dt]
    x = (np.arange(20).reshape(4, 5) * 3 - 17).astype(npd)
    i = np.array([3, 1, 3, 7, 0, 9])
    v = (np.arange(6) * 2 - 5).astype(npd)
    proc, res = run_source(src, {"x": x, "i": i, "v": v}, tmp_path, flags=("--target", target))
    assert proc.returncode == 0, proc.stderr
    a = x.copy(); a[i % 4] += 1
    b = x.copy(); b[i % 4, -(i % 5) - 1] *= v
    c = x.copy(); c[:, [0, 2, 2, -1]] -= 2
    d = x.copy(); d[[0, 0, 3]] //= 2
    e = x.copy(); e[1, x[0] > x[0, 2]] += v[:2]
    f = x.copy(); f[1:, i[:3] % 5] -= v[3:]
    for got, want in zip(res, [a, b, c, d, e, f]):
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(got, want)

"""Gathers (`x[idx]` with an i64 index array, NumPy integer-array indexing along axis 0) against
NumPy: every dtype, gathered arrays of rank 1 to 3 and index arrays of rank 1 and 2, negative and
repeated indices, empty index arrays, views as the gathered array, sizes that span many launch
chunks, every fusion algorithm and 1 or 2 threads; and the errors: an index out of range (NumPy's
IndexError, naming the statement's line), an index into an empty axis, and the checker's E0405/E0406/E0409.
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
    return (rng.integers(-1000, 1000, shape) / 4).astype(DTYPES[dt])


def dims(shape, first):
    return ", ".join([first] + [str(d) for d in shape[1:]])


# (shape of x, shape of idx)
CASES = [((10,), (4,)), ((7,), (0,)), ((1,), (5,)), ((100_003,), (200_001,)), ((300, 3), (1_000,)),
         ((5, 4), (3, 2)), ((4, 3, 2), (5,)), ((6,), (2, 70_001))]


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("xs,ks", CASES)
def test_gather_matches_numpy(dt, xs, ks, tmp_path):
    rng = np.random.default_rng(len(xs) * 1000 + sum(ks) + len(dt))
    x = values(dt, xs, rng)
    idx = rng.integers(-xs[0], xs[0], ks, dtype=np.int64)  # negative and repeated indices
    out = list(ks) + list(xs[1:])
    tx = f"{dt}[{dims(xs, 'N')}]"
    ti = f"i64[{', '.join(f'K{a}' for a in range(len(ks)))}]"
    to = f"{dt}[{', '.join([f'K{a}' for a in range(len(ks))] + [str(d) for d in xs[1:]])}]"
    src = f"fn main(x: {tx}, idx: {ti}) -> ({to}, {to}) {{\n    return (x[idx], x[idx % N]);\n}}\n"
    proc, res = run_source(src, {"x": x, "idx": idx}, tmp_path)
    assert proc.returncode == 0, proc.stderr
    for got, want in zip(res, [x[idx], x[idx % xs[0]]]):
        assert got.shape == tuple(out) and got.dtype == want.dtype
        np.testing.assert_array_equal(got, want)


FUSED = """fn main(x: f64[N], idx: i64[K]) -> (f64[K], f64, f64[K]) {
    let y = x[::-1] * 2.0;
    let j = (idx * 7 + 3) % N - 3;
    let g = y[j] + x[j];
    let s = sum(x[idx] * g);
    let h = x[2:][idx % (N - 2)];
    return (g, s, h);
}
"""


def fused_reference(x, idx):
    n = len(x)
    y = x[::-1] * 2.0
    j = (idx * 7 + 3) % n - 3
    g = y[j] + x[j]
    return g, np.sum(x[idx] * g), x[2:][idx % (n - 2)]


@pytest.mark.parametrize("algo", ALGORITHMS)
def test_fused_gathers_every_algorithm(algo, tmp_path):
    """Gathers fused with their index arrays' producers and their consumers, from views, in
    reductions: bit-identical to NumPy under every fusion algorithm (inputs exact in binary)."""
    rng = np.random.default_rng(7)
    x = rng.integers(-64, 64, 50_001) / 8.0
    idx = rng.integers(-50_001, 50_001, 90_001, dtype=np.int64)
    proc, res = run_source(FUSED, {"x": x, "idx": idx}, tmp_path, flags=("--fuse", algo))
    assert proc.returncode == 0, proc.stderr
    for got, want in zip(res, fused_reference(x, idx)):
        np.testing.assert_array_equal(got, want)


def test_thread_count_does_not_change_results(tmp_path):
    rng = np.random.default_rng(3)
    x = rng.random(30_000)
    idx = rng.integers(0, 30_000, 300_000, dtype=np.int64)
    results = []
    for threads in ("1", "2"):
        env = dict(os.environ, RAYON_NUM_THREADS=threads)
        proc, res = run_source(FUSED, {"x": x, "idx": idx}, tmp_path / threads, env=env)
        assert proc.returncode == 0, proc.stderr
        results.append(res)
    for a, b in zip(*results):
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("bad", [10, -11, 2**40])
def test_out_of_range_index_is_numpys_index_error(bad, target, tmp_path):
    """A kernel fault on every target: the launch reports it, the run stops with NumPy's error."""
    src = "fn main(x: f64[N], idx: i64[K]) -> f64[K] {\n    let y = x[idx] + 1.0;\n    return y;\n}\n"
    idx = np.array([0, 3, bad, 1], dtype=np.int64)
    with pytest.raises(IndexError):
        np.arange(10.0)[idx]
    proc, _ = run_source(src, {"x": np.arange(10.0), "idx": idx}, tmp_path, flags=("--target", target))
    assert proc.returncode == 1
    assert "prog.arr:2:5: error: index out of bounds for axis 0 of the indexed array (IndexError)" in proc.stderr
    assert not (tmp_path / "out").exists() or not list((tmp_path / "out").iterdir())


def test_empty_axis(tmp_path):
    """Any index into an empty axis is an error (NumPy); no index at all is an empty result."""
    src = "fn main(x: f64[N], idx: i64[K]) -> f64[K] {\n    return x[idx];\n}\n"
    proc, _ = run_source(src, {"x": np.zeros(0), "idx": np.array([0], dtype=np.int64)}, tmp_path / "a")
    assert proc.returncode == 1 and "IndexError" in proc.stderr and ":2:" in proc.stderr
    proc, res = run_source(src, {"x": np.zeros(0), "idx": np.zeros(0, dtype=np.int64)}, tmp_path / "b")
    assert proc.returncode == 0, proc.stderr
    assert res[0].shape == (0,)


# (shape of x, shape of idx, axis)
TAKE_CASES = [((4, 6), (5,), 1), ((4, 6), (2, 3), -1), ((3, 50_001), (7,), 0), ((2, 3, 4), (70_001,), 1),
              ((2, 3, 4), (3, 2), 2), ((5, 3, 2), (0,), 1), ((9,), (4, 4), 0)]


@pytest.mark.parametrize("xs,ks,axis", TAKE_CASES)
def test_take_matches_numpy(xs, ks, axis, tmp_path):
    rng = np.random.default_rng(sum(xs) + sum(ks) + axis)
    x = values("f64", xs, rng)
    n = xs[axis]
    idx = rng.integers(-n, n, ks, dtype=np.int64)
    want = np.take(x, idx, axis=axis)
    tx = f"f64[{', '.join(f'D{a}' for a in range(len(xs)))}]"
    ti = f"i64[{', '.join(f'K{a}' for a in range(len(ks)))}]"
    to = f"f64[{', '.join(str(d) for d in want.shape)}]"
    src = f"fn main(x: {tx}, idx: {ti}) -> ({to}, {to}) {{\n" \
          f"    return (take(x, idx, axis={axis}), take(x * 2.0, idx, axis={axis}) - 1.0);\n}}\n"
    proc, res = run_source(src, {"x": x, "idx": idx}, tmp_path)
    assert proc.returncode == 0, proc.stderr
    np.testing.assert_array_equal(res[0], want)
    np.testing.assert_array_equal(res[1], np.take(x * 2.0, idx, axis=axis) - 1.0)


def test_take_out_of_range_names_the_axis(tmp_path):
    src = "fn main(x: f64[N, M], idx: i64[K]) -> f64[N, K] {\n    return take(x, idx, axis=1);\n}\n"
    proc, _ = run_source(src, {"x": np.zeros((2, 3)), "idx": np.array([0, 3], dtype=np.int64)}, tmp_path)
    assert proc.returncode == 1
    assert "prog.arr:2:5: error: index out of bounds for axis 1 of the indexed array (IndexError)" in proc.stderr


@pytest.mark.parametrize("body,code,hint", [
    ("let y = take(x, idx);", "E0405", "needs `axis=`"),
    ("let y = take(x, 1, axis=0);", "E0406", "integer array"),
    ("let y = take(x, idx, axis=2);", "E0405", "out of range"),
    ("let y = x[idx, newaxis];", "E0409", "only integers and slices beside them"),
    ("let y = x[idx, idx, idx];", "E0409", "at most one index per axis"),
    ("let y = x[arange(2), arange(3)];", "E0401", "do not broadcast"),
    ("let y = x[x > 0.0, 0];", "E0409", "the only index"),  # a 2-d mask beside an integer (1-d: a gather)
    ("let y = x[x];", "E0406", "an integer dtype"),
])
def test_checker_errors(body, code, hint, tmp_path):
    proc = check_source(f"fn main(x: f64[N, 2], idx: i64[K]) {{ {body} }}\n", tmp_path)
    assert proc.returncode != 0
    assert code in proc.stderr and hint in proc.stderr, proc.stderr


MULTI = """fn main(x: f64[N, M, 2], i: i64[K], j: i64[K]) -> (f64[K, 2], f64[K, 3, 2], f64[K], f64[K, 2]) {
    let a = x[i, j];                                        # pairs (i[k], j[k])
    let b = x[i[:, newaxis], arange(3)[newaxis, :] - 1];    # broadcast to K x 3
    let c = x[i, j % M, -1 + j * 0] * 2.0;                  # one index array per axis
    let d = x[i % N, 0 * j] + a;                            # fused with its index producers and consumer
    return (a, b, c, d);
}
"""


def multi_reference(x, i, j):
    a = x[i, j]
    return [a, x[i[:, None], np.arange(3)[None, :] - 1], x[i, j % x.shape[1], -1 + j * 0] * 2.0,
            x[i % x.shape[0], 0 * j] + a]


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("k", [0, 7, 100_001])
def test_several_index_arrays(k, target, tmp_path):
    """`x[i, j, ..]`: index arrays broadcast together, one per leading axis (NumPy's advanced
    indexing with several arrays), negative indices, views as index arrays."""
    rng = np.random.default_rng(k)
    x = rng.integers(-64, 64, (50, 4, 2)) / 8.0
    i = rng.integers(-50, 50, k, dtype=np.int64)
    j = rng.integers(-4, 4, k, dtype=np.int64)
    env = dict(os.environ, ARRAYC_GPU_EMULATION_GRID="2,3,32")
    proc, res = run_source(MULTI, {"x": x, "i": i, "j": j}, tmp_path, flags=("--target", target), env=env)
    assert proc.returncode == 0, proc.stderr
    for got, want in zip(res, multi_reference(x, i, j)):
        assert got.shape == want.shape
        np.testing.assert_array_equal(got, want)


def test_several_index_arrays_out_of_range_names_the_axes(tmp_path):
    src = "fn main(x: f64[N, M], i: i64[K], j: i64[K]) -> f64[K] {\n    return x[i, j];\n}\n"
    proc, _ = run_source(src, {"x": np.zeros((3, 2)), "i": np.array([0, 1]), "j": np.array([1, 2])}, tmp_path)
    assert proc.returncode != 0
    assert "index out of bounds for axes 0..1 of the indexed array (IndexError)" in proc.stderr
    assert ":2:" in proc.stderr, proc.stderr


MIXED = """fn main(x: f64[N, M, 3], i: i64[K], j: i64[K]) -> (f64[K, 3], f64[?, K, 3], f64[K, 2], f64[?, K], f64[K, M, 3]) {
    let a = x[i, j, :];
    let b = x[1:, j];                  # a slice before the index array: its axis stays first
    let c = x[i, j, 1:];
    let d = x[::2, j, 0:1][:, :, 0];
    let e = x[i, ::-1] * 2.0;
    return (a, b, c, d, e);
}
"""


@pytest.mark.parametrize("k", [0, 6, 30_001])
def test_index_arrays_with_slices(k, tmp_path):
    """A run of index arrays with slices around it, as NumPy (the broadcast index axes take the
    run's place)."""
    rng = np.random.default_rng(k + 1)
    x = rng.integers(-64, 64, (5, 4, 3)) / 8.0
    i = rng.integers(-5, 5, k, dtype=np.int64)
    j = rng.integers(-4, 4, k, dtype=np.int64)
    proc, res = run_source(MIXED, {"x": x, "i": i, "j": j}, tmp_path)
    assert proc.returncode == 0, proc.stderr
    wants = [x[i, j, :], x[1:, j], x[i, j, 1:], x[::2, j, 0:1][:, :, 0], x[i, ::-1] * 2.0]
    for got, want in zip(res, wants):
        assert got.shape == want.shape
        np.testing.assert_array_equal(got, want)


ADVANCED = """fn main(x: f64[N, M, 3], i: i64[K], j: i64[K]) -> (f64[K], f64[K, M], f64[N, K], f64[K, M], f64[K, 2], f64[K, M]) {
    let a = x[0, j, 2];                # integers beside index arrays: one run
    let b = x[i, :, 1];                # not one run: the index axes come first
    let c = x[:, j, -1];
    let d = x[i, ::-1, i % 3] + 1.0;   # two index arrays apart
    let e = x[-1, j, 1:];
    let f = x[i, 1:, 0][:, 0:1] * x[i, :, 2];
    return (a, b, c, d, e, f);
}
"""


@pytest.mark.parametrize("algo", ["optimal", "singleton", "greedy"])
@pytest.mark.parametrize("k", [0, 5, 20_001])
def test_advanced_indexing_with_integers(k, algo, tmp_path):
    """Integers among index arrays and slices: NumPy's advanced indexing, where the broadcast
    index axes take the place of a single run of index arrays and integers, and come first
    otherwise ("Combining advanced and basic indexing")."""
    rng = np.random.default_rng(k + 11)
    x = rng.integers(-64, 64, (6, 4, 3)) / 8.0
    i = rng.integers(-6, 6, k, dtype=np.int64)
    j = rng.integers(-4, 4, k, dtype=np.int64)
    proc, res = run_source(ADVANCED, {"x": x, "i": i, "j": j}, tmp_path, flags=("--fuse", algo))
    assert proc.returncode == 0, proc.stderr
    wants = [x[0, j, 2], x[i, :, 1], x[:, j, -1], x[i, ::-1, i % 3] + 1.0, x[-1, j, 1:],
             x[i, 1:, 0][:, 0:1] * x[i, :, 2]]
    for got, want in zip(res, wants):
        assert got.shape == want.shape
        np.testing.assert_array_equal(got, want)

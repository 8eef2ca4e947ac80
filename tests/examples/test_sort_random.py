"""The everyday NumPy surface of issue 31 against NumPy (docs/language.md, "Builtin functions"):
`normal` and `integers` (random's counter-based generator: checked statistically, exactly against
the reference model `examples/reference/arrayc_random.py`, for determinism and for independence from
the thread count), `convolve` in its three modes on every numeric dtype, with static and run-time
sizes and either array the longer; on the CPU and on the GPU kernels (emulated, and the GPU where
there is one). Then the checker's errors and the run time's, each naming the place."""
import os
import sys
from pathlib import Path

import numpy as np
import pytest

from arrayc_examples import TARGETS, assert_check_error, assert_run_time_error, run_source

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "examples" / "reference"))
import arrayc_random  # noqa: E402

NUM = {"f64": np.float64, "f32": np.float32, "i64": np.int64}


# ---------------------------------------------------------------------------------------------
# normal, integers


@pytest.mark.parametrize("target", TARGETS)
def test_normal_is_standard_normal_and_the_reference_formula(target, tmp_path):
    n = 10**6 if target == "cpu" else 10**5
    src = """fn main(n: i64) -> (f64[n], f64[n, 2]) {
    return (normal(n, seed=7), normal(n, 2, seed=-3, loc=2.5, scale=0.5));
}
"""
    proc, got = run_source(src, {}, tmp_path, flags=["--target", target, "--arg", f"n={n}"])
    assert proc.returncode == 0, proc.stderr
    z, w = got
    assert z.dtype == np.float64 and z.shape == (n,) and w.shape == (n, 2)
    # Box–Muller of the same uniforms as the model (log and cos to within rounding).
    np.testing.assert_allclose(z, arrayc_random.normal(n, seed=7), rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(w, arrayc_random.normal(n, 2, seed=-3, loc=2.5, scale=0.5), rtol=1e-12, atol=1e-12)
    # The distribution: mean, standard deviation, the mass within one and two sigmas, the tails.
    tol = 5 / np.sqrt(n)
    assert abs(z.mean()) < tol and abs(z.std() - 1) < tol
    assert abs(np.mean(np.abs(z) < 1) - 0.682689) < tol and abs(np.mean(np.abs(z) < 2) - 0.954500) < tol
    assert abs(np.mean(z**3)) < 3 * tol and abs(np.mean(z**4) - 3) < 10 * tol
    assert abs(w.mean() - 2.5) < tol and abs(w.std() - 0.5) < tol
    # The two halves of a pair are uncorrelated.
    assert abs(np.corrcoef(w[:, 0], w[:, 1])[0, 1]) < tol


def test_normal_and_integers_are_deterministic_and_independent_of_the_thread_count(tmp_path):
    src = """fn main(n: i64, s: i64) -> (f64[n], i64[n, 3]) {
    return (normal(n, seed=s), integers(-5, 1000, n, 3, seed=s));
}
"""
    runs = []
    for threads, seed in [("1", 11), ("4", 11), ("2", 12)]:
        env = dict(os.environ, RAYON_NUM_THREADS=threads)
        proc, got = run_source(src, {}, tmp_path / f"{threads}-{seed}", flags=["--arg", "n=100000", "--arg", f"s={seed}"],
                               env=env)
        assert proc.returncode == 0, proc.stderr
        runs.append(got)
    for a, b in zip(runs[0], runs[1]):
        np.testing.assert_array_equal(a, b)
    assert not np.array_equal(runs[0][0], runs[2][0]) and not np.array_equal(runs[0][1], runs[2][1])


def test_normal_is_prefix_stable(tmp_path):
    """Element k depends on the seed and k only: a shorter draw is a prefix of a longer one."""
    src = "fn main() -> (f64[10], f64[4]) { return (normal(10, seed=5), normal(4, seed=5)); }"
    proc, got = run_source(src, {}, tmp_path)
    assert proc.returncode == 0, proc.stderr
    np.testing.assert_array_equal(got[0][:4], got[1])


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("low,high", [(0, 10), (-3, 4), (5, 6), (-(2**40), 2**40), (0, 2**53)])
def test_integers_match_the_reference_and_stay_in_range(low, high, target, tmp_path):
    src = f"""fn main(lo: i64, hi: i64) -> (i64[1000, 3], i64[2000]) {{
    return (integers(lo, hi, 1000, 3, seed=9), integers({low}, {high}, 2000));
}}
"""
    proc, got = run_source(src, {}, tmp_path, flags=["--target", target, "--arg", f"lo={low}", "--arg", f"hi={high}"])
    assert proc.returncode == 0, proc.stderr
    a, b = got
    assert a.dtype == np.int64 and a.shape == (1000, 3)
    np.testing.assert_array_equal(a, arrayc_random.integers(low, high, 1000, 3, seed=9))
    np.testing.assert_array_equal(b, arrayc_random.integers(low, high, 2000, seed=0))
    assert a.min() >= low and a.max() < high and b.min() >= low and b.max() < high
    if high - low <= 10:
        assert set(np.unique(a)) == set(range(low, high))


def test_integers_are_uniform(tmp_path):
    n = 10**6
    src = "fn main(n: i64) -> i64[n] { return integers(-2, 8, n, seed=1); }"
    proc, got = run_source(src, {}, tmp_path, flags=["--arg", f"n={n}"])
    assert proc.returncode == 0, proc.stderr
    counts = np.bincount(got[0] + 2, minlength=10)
    assert counts.size == 10
    # Each count is binomial(n, 1/10): within 5 standard deviations.
    assert np.all(np.abs(counts - n / 10) < 5 * np.sqrt(n * 0.1 * 0.9)), counts


# ---------------------------------------------------------------------------------------------
# convolve

# The last two span several of arrayc_runtime::convolve's blocks of 4096 outputs, either array longer.
SIZES = [(5, 3), (3, 5), (1, 1), (7, 7), (4, 6), (1, 9), (10, 2), (5000, 6), (9, 4099)]


def draw(dt, n, rng):
    x = rng.integers(-9, 10, n)
    return x.astype(NUM[dt]) / 4 if dt != "i64" else x.astype(np.int64)


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("dt", list(NUM))
@pytest.mark.parametrize("n,m", SIZES, ids=lambda s: str(s))
def test_convolve_matches_numpy(n, m, dt, target, tmp_path):
    rng = np.random.default_rng(n * 31 + m)
    a, v, w = draw(dt, n, rng), draw(dt, m, rng), rng.integers(-3, 4, m).astype(np.int64)
    cases = [
        ("convolve(a, v)", lambda: np.convolve(a, v)),
        ("convolve(a, v, mode=full)", lambda: np.convolve(a, v, "full")),
        ("convolve(a, v, mode=same)", lambda: np.convolve(a, v, "same")),
        ("convolve(v, a, mode=same)", lambda: np.convolve(v, a, "same")),
        ("convolve(a, v, mode=valid)", lambda: np.convolve(a, v, "valid")),
        ("convolve(v, a, mode=valid)", lambda: np.convolve(v, a, "valid")),
        ("convolve(a, w, mode=same)", lambda: np.convolve(a, w, "same")),
        ("convolve(a, v) * 2", lambda: np.convolve(a, v) * 2),
        ("convolve(a[::-1], v[::2], mode=same)", lambda: np.convolve(a[::-1], v[::2], "same")),
    ]
    rdt = {"f64": "f64", "f32": "f32", "i64": "i64"}[dt]
    pdt = "i64" if dt == "i64" else "f64"
    types = [(pdt if ", w" in e else rdt) + "[?]" for e, _ in cases]
    # Run-time sizes (the longer array chosen per element) and static ones (chosen by the compiler).
    for sig in (f"a: {dt}[n], v: {dt}[m], w: i64[m]", f"a: {dt}[{n}], v: {dt}[{m}], w: i64[{m}]"):
        src = f"fn main({sig}) -> ({', '.join(types)}) {{\n    return ({', '.join(e for e, _ in cases)});\n}}\n"
        proc, got = run_source(src, {"a": a, "v": v, "w": w}, tmp_path / str(len(sig)), flags=["--target", target])
        assert proc.returncode == 0, f"{src}\n{proc.stderr}"
        for g, (e, f) in zip(got, cases):
            want = np.asarray(f())
            if dt == "f32" and ", w" in e:
                want = want.astype(np.float64)  # NumPy: f32 with i64 is f64, as arrayc
            assert g.dtype == want.dtype and g.shape == want.shape, f"{e}: {g.dtype}{g.shape}, NumPy {want.dtype}{want.shape}"
            if dt == "i64":
                np.testing.assert_array_equal(g, want, err_msg=e)
            else:
                np.testing.assert_allclose(g, want, rtol=1e-6 if dt == "f32" else 1e-12, atol=1e-6, err_msg=e)


def test_convolve_of_a_large_array_with_a_kernel(tmp_path):
    rng = np.random.default_rng(3)
    a, k = rng.standard_normal(200_000), rng.standard_normal(31)
    src = """fn main(a: f64[n], k: f64[m]) -> (f64[?], f64[?], f64[?]) {
    return (convolve(k, a, mode=same), convolve(a, k, mode=valid), convolve(a, k));
}
"""
    proc, got = run_source(src, {"a": a, "k": k}, tmp_path)
    assert proc.returncode == 0, proc.stderr
    for g, mode in zip(got, ["same", "valid", "full"]):
        want = np.convolve(k, a, mode) if mode == "same" else np.convolve(a, k, mode)
        np.testing.assert_allclose(g, want, rtol=1e-10, atol=1e-10)


# ---------------------------------------------------------------------------------------------
# errors


@pytest.mark.parametrize(
    "src,code,words",
    [
        ("fn f() -> i64[3] { return integers(5, 5, 3); }", "E0503", "low < high"),
        ("fn f() -> i64[3] { return integers(5, -1, 3); }", "E0503", "ValueError"),
        ("fn f() -> i64[3] { return integers(0.5, 4, 3); }", "E0406", "`low` bound of `integers`"),
        ("fn f(x: f64[n]) -> f64[3] { return normal(3, loc=x); }", "E0503", "must be a numeric scalar"),
        ("fn f() -> f64[3] { return normal(3, seed=1.5); }", "E0406", "seed"),
        ("fn f(x: f64[n, m], v: f64[k]) -> f64[?] { return convolve(x, v); }", "E0503", "1-d numeric arrays"),
        ("fn f(x: bool[n], v: f64[k]) -> f64[?] { return convolve(x, v); }", "E0503", "1-d numeric arrays"),
        ("fn f(x: f64[n], v: f64[k]) -> f64[?] { return convolve(x, v, mode=middle); }", "E0503", "`full`, `same` or"),
        ("fn f(x: f64[n], v: f64[0]) -> f64[?] { return convolve(x, v); }", "E0503", "empty"),
    ],
)
def test_checker_errors(src, code, words, tmp_path):
    assert_check_error(src, code, words, tmp_path)


@pytest.mark.parametrize(
    "src,args,message",
    [
        ("fn f(lo: i64, hi: i64) -> i64[3] {\n    return integers(lo, hi, 3);\n}", {"lo": 4, "hi": 4}, "low >= high"),
        ("fn f(x: f64[n], v: f64[m]) -> f64[?] {\n    return convolve(x, v);\n}",
         {"x": np.zeros(3), "v": np.zeros(0)}, "v cannot be empty"),
        ("fn f(x: f64[n], v: f64[m]) -> f64[?] {\n    return convolve(x, v, mode=same);\n}",
         {"x": np.zeros(0), "v": np.zeros(2)}, "a cannot be empty"),
    ],
)
def test_run_time_errors_name_the_line(src, args, message, tmp_path):
    assert_run_time_error(src, args, message, tmp_path)


# ---------------------------------------------------------------------------------------------
# sort, argsort

ALL = dict(NUM, i32=np.int32, bool=np.bool_)


def keys(dt, shape, rng):
    """Values with repeats (argsort's ties: stable) and, for floats, NaN and signed zeros."""
    x = rng.integers(-6, 7, shape)
    if dt == "bool":
        return x > 0
    if dt in ("i64", "i32"):
        return x.astype(ALL[dt])
    x = (x / 4).astype(ALL[dt])
    flat = x.reshape(-1)
    if flat.size > 3:
        flat[:: max(1, flat.size // 3)] = np.nan
        flat[1] = -0.0
    return x


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("dt", list(ALL))
@pytest.mark.parametrize("shape", [(6, 5, 4), (1, 7, 1), (3, 0, 2), (20, 33, 3)], ids=lambda s: "x".join(map(str, s)))
def test_sort_and_argsort_match_numpy(shape, dt, target, tmp_path):
    rng = np.random.default_rng(sum(shape) + len(dt))
    x = keys(dt, shape, rng)
    v = keys(dt, (shape[1] * 3,), rng)
    cases = [
        ("sort(x)", lambda: np.sort(x), "T[n, m, k]"),
        ("sort(x, axis=0)", lambda: np.sort(x, axis=0), "T[n, m, k]"),
        ("sort(x, axis=-2)", lambda: np.sort(x, axis=-2), "T[n, m, k]"),
        ("argsort(x)", lambda: np.argsort(x, kind="stable"), "i64[n, m, k]"),
        ("argsort(x, axis=0)", lambda: np.argsort(x, axis=0, kind="stable"), "i64[n, m, k]"),
        ("x.argsort(axis=1)", lambda: np.argsort(x, axis=1, kind="stable"), "i64[n, m, k]"),
        ("sort(v)", lambda: np.sort(v), "T[j]"),
        ("argsort(v)", lambda: np.argsort(v, kind="stable"), "i64[j]"),
        # Views as they lie: transposed, reversed, strided.
        ("sort(transpose(x), axis=1)", lambda: np.sort(x.T, axis=1), "T[k, m, n]"),
        ("argsort(x[::-1, ::2, :], axis=1)", lambda: np.argsort(x[::-1, ::2, :], axis=1, kind="stable"), "i64[n, ?, k]"),
        # A consumer of the result, fused after the host sort.
        ("sort(x, axis=1)[:, 0, :]", lambda: np.sort(x, axis=1)[:, 0, :], "T[n, k]"),
    ]
    types = [t.replace("T", dt) for _, _, t in cases]
    src = (
        f"fn main(x: {dt}[n, m, k], v: {dt}[j]) -> ({', '.join(types)}) {{\n"
        f"    return ({', '.join(e for e, _, _ in cases)});\n}}\n"
    )
    if shape[1] == 0:
        cases, src = cases[:-1], src.replace(", sort(x, axis=1)[:, 0, :]", "").replace(f", {dt}[n, k])", ")")
    proc, got = run_source(src, {"x": x, "v": v}, tmp_path, flags=["--target", target])
    assert proc.returncode == 0, f"{src}\n{proc.stderr}"
    for g, (e, f, _) in zip(got, cases):
        want = np.asarray(f())
        assert g.dtype == want.dtype and g.shape == want.shape, f"{e}: {g.dtype}{g.shape}, NumPy {want.dtype}{want.shape}"
        np.testing.assert_array_equal(g, want, err_msg=e)


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("dt", ["u8", "u64", "i32", "i64", "f32", "f64"])
def test_sort_with_the_dtypes_extremes_and_lengths_off_a_power_of_two(dt, target, tmp_path):
    """The GPU targets' sorting network pads each line to a power of two with the greatest key of
    its order (the dtype's largest value, or NaN): real keys equal to it (and NaN, infinities,
    the smallest value) must still come first and in their order, for any line length."""
    np_dt = np.dtype({"u8": np.uint8, "u64": np.uint64, "i32": np.int32, "i64": np.int64, "f32": np.float32,
                      "f64": np.float64}[dt])
    rng = np.random.default_rng(len(dt))
    if np_dt.kind == "f":
        special = np.array([np.nan, np.inf, -np.inf, -0.0, 0.0, np.finfo(np_dt).max, np.finfo(np_dt).min], np_dt)
    else:
        info = np.iinfo(np_dt)
        special = np.array([info.max, info.min, info.max - 1, 0, 1], np_dt)
    a = rng.choice(special, 1000).astype(np_dt)
    b = rng.choice(special, (5, 37)).astype(np_dt)
    src = f"""fn main(a: {dt}[n], b: {dt}[p, q]) -> ({dt}[n], i64[n], {dt}[p, q], i64[p, q], i64[p, q]) {{
    return (sort(a), argsort(a), sort(b), argsort(b), argsort(b, axis=0));
}}
"""
    proc, got = run_source(src, {"a": a, "b": b}, tmp_path, flags=["--target", target])
    assert proc.returncode == 0, proc.stderr
    np.testing.assert_array_equal(got[0], np.sort(a))
    np.testing.assert_array_equal(got[1], np.argsort(a, kind="stable"))
    np.testing.assert_array_equal(got[2], np.sort(b))
    np.testing.assert_array_equal(got[3], np.argsort(b, kind="stable"))
    np.testing.assert_array_equal(got[4], np.argsort(b, axis=0, kind="stable"))
    assert got[0].dtype == np_dt


@pytest.mark.parametrize("threads", ["1", "4"])
def test_sort_of_long_and_many_lines_is_numpys_at_any_thread_count(threads, tmp_path):
    rng = np.random.default_rng(5)
    a = rng.standard_normal(1_000_000)
    a[::1000] = np.nan
    b = rng.integers(0, 50, (2000, 300)).astype(np.int64)
    src = """fn main(a: f64[n], b: i64[p, q]) -> (f64[n], i64[n], i64[p, q], i64[p, q], f64) {
    return (sort(a), argsort(a), sort(b), argsort(b, axis=0), sum(sort(a)[:10]));
}
"""
    env = dict(os.environ, RAYON_NUM_THREADS=threads)
    proc, got = run_source(src, {"a": a, "b": b}, tmp_path, env=env)
    assert proc.returncode == 0, proc.stderr
    np.testing.assert_array_equal(got[0], np.sort(a))
    np.testing.assert_array_equal(got[1], np.argsort(a, kind="stable"))
    np.testing.assert_array_equal(got[2], np.sort(b))
    np.testing.assert_array_equal(got[3], np.argsort(b, axis=0, kind="stable"))
    assert got[4] == np.sum(np.sort(a)[:10])


def test_argsort_of_distinct_keys_is_numpys_default(tmp_path):
    """With distinct keys NumPy's default quicksort and the stable sort agree."""
    x = np.random.default_rng(2).permutation(5000).astype(np.float64)
    proc, got = run_source("fn main(x: f64[n]) -> i64[n] { return argsort(x); }", {"x": x}, tmp_path)
    assert proc.returncode == 0, proc.stderr
    np.testing.assert_array_equal(got[0], np.argsort(x))


@pytest.mark.parametrize(
    "src,code,words",
    [
        ("fn f(x: f64) -> f64 { return sort(x); }", "E0503", "rank 1 or more"),
        ("fn f(x: f64[n, m]) -> f64[n, m] { return sort(x, axis=2); }", "E0405", "axis 2 is out of range"),
        ("fn f(x: f64[n]) -> i64[n] { return argsort(x, axis=-2); }", "E0405", "out of range"),
        ("fn f(x: f64[n]) -> f64[n] { return x.sort(); }", "E0207", "sorts in place"),
    ],
)
def test_sort_checker_errors(src, code, words, tmp_path):
    assert_check_error(src, code, words, tmp_path)

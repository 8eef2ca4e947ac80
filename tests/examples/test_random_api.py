"""NumPy's random API (docs/language.md, "NumPy's random API"): the legacy functions
(`np.random.seed`, `rand`, `randn`, `random`, `random_sample`, `uniform`, `normal`, `randint`,
`standard_normal`) and `np.random.default_rng` generators (`random`, `normal`, `integers`,
`uniform`, `standard_normal`), as a NumPy user writes them. Shapes and dtypes against NumPy's same
call; ranges; moments and a Kolmogorov–Smirnov bound at n = 10**5; the stream rule (draw `j` of a
generator seeded `s` is the builtin's `seed=s ^ (j << 32)` stream) exactly against the independent
model `examples/reference/arrayc_random.py`; successive and loop draws differ and are uncorrelated;
determinism across runs and thread counts; then the errors. On the CPU and the GPU kernels
(emulated, and the GPU where there is one)."""
import math
import os

import numpy as np
import pytest

import arrayc_random
from arrayc_examples import TARGETS, assert_check_error, assert_run_time_error, run_source

N = 100_000
ARR = {np.dtype(np.float64): "f64", np.dtype(np.int64): "i64"}


def arr_type(x):
    """The arrayc type of NumPy's result `x` (a scalar is `f64`/`i64`)."""
    a = np.asarray(x)
    d = ARR[a.dtype]
    return f"{d}[{', '.join(map(str, a.shape))}]" if a.ndim else d


# (arrayc expression, NumPy's same call, the range [lo, hi) its values lie in)
CALLS = [
    ("np.random.rand(7, 5)", lambda: np.random.rand(7, 5), (0, 1)),
    ("np.random.rand()", lambda: np.random.rand(), (0, 1)),
    ("np.random.randn(9)", lambda: np.random.randn(9), None),
    ("np.random.randn()", lambda: np.random.randn(), None),
    ("np.random.random((4, 6))", lambda: np.random.random((4, 6)), (0, 1)),
    ("np.random.random()", lambda: np.random.random(), (0, 1)),
    ("np.random.random_sample(11)", lambda: np.random.random_sample(11), (0, 1)),
    ("np.random.uniform(-2.0, 3.0, size=8)", lambda: np.random.uniform(-2.0, 3.0, size=8), (-2, 3)),
    ("np.random.uniform(size=(2, 3))", lambda: np.random.uniform(size=(2, 3)), (0, 1)),
    ("np.random.normal(1.0, 2.0, size=(3, 4))", lambda: np.random.normal(1.0, 2.0, size=(3, 4)), None),
    ("np.random.normal(5.0)", lambda: np.random.normal(5.0), None),
    ("np.random.randint(-3, 7, size=10)", lambda: np.random.randint(-3, 7, size=10), (-3, 7)),
    ("np.random.randint(5, size=(2, 2))", lambda: np.random.randint(5, size=(2, 2)), (0, 5)),
    ("np.random.randint(3, 9)", lambda: np.random.randint(3, 9), (3, 9)),
    ("np.random.standard_normal(6)", lambda: np.random.standard_normal(6), None),
    ("rng.random((3, 5))", lambda: np.random.default_rng(1).random((3, 5)), (0, 1)),
    ("rng.random()", lambda: np.random.default_rng(1).random(), (0, 1)),
    ("rng.normal(0, 1, 12)", lambda: np.random.default_rng(1).normal(0, 1, 12), None),
    ("rng.normal(size=(2, 2))", lambda: np.random.default_rng(1).normal(size=(2, 2)), None),
    ("rng.integers(0, 10, size=13)", lambda: np.random.default_rng(1).integers(0, 10, size=13), (0, 10)),
    ("rng.integers(4, size=3)", lambda: np.random.default_rng(1).integers(4, size=3), (0, 4)),
    ("rng.integers(1, 6, 20, endpoint=True)", lambda: np.random.default_rng(1).integers(1, 6, 20, endpoint=True), (1, 7)),
    ("rng.integers(-5, 5)", lambda: np.random.default_rng(1).integers(-5, 5), (-5, 5)),
    ("rng.uniform(-1, 1, 14)", lambda: np.random.default_rng(1).uniform(-1, 1, 14), (-1, 1)),
    ("rng.standard_normal(15)", lambda: np.random.default_rng(1).standard_normal(15), None),
    ("rng.standard_normal()", lambda: np.random.default_rng(1).standard_normal(), None),
]


@pytest.mark.parametrize("target", TARGETS)
def test_shapes_dtypes_and_ranges_are_numpys(target, tmp_path):
    want = [f() for _, f, _ in CALLS]
    body = "\n".join(f"    r{i} = {e};" for i, (e, _, _) in enumerate(CALLS))
    src = (f"fn main() -> ({', '.join(arr_type(w) for w in want)}) {{\n    np.random.seed(3);\n"
           f"    rng = np.random.default_rng(1);\n{body}\n    return ({', '.join(f'r{i}' for i in range(len(CALLS)))});\n}}\n")
    proc, got = run_source(src, {}, tmp_path, flags=["--target", target])
    assert proc.returncode == 0, f"{src}\n{proc.stderr}"
    for g, w, (e, _, rng) in zip(got, want, CALLS):
        g, w = np.asarray(g), np.asarray(w)
        assert g.dtype == w.dtype and g.shape == w.shape, f"{e}: {g.dtype}{g.shape}, NumPy {w.dtype}{w.shape}"
        if rng is not None:
            assert (g >= rng[0]).all() and (g < rng[1]).all(), f"{e}: {g}"
        assert np.isfinite(g).all(), e


@pytest.mark.parametrize("target", TARGETS)
def test_draw_j_of_a_generator_is_the_stream_of_key_seed_xor_j_shl_32(target, tmp_path):
    """Exactly against the reference model: each statement's draws, in evaluation order, take the
    next keys; a loop body draws anew each iteration; a second generator has its own count."""
    n = 1000
    src = f"""fn main(s: i64) -> (f64[{n}], f64[{n}], i64[{n}], f64[{n}], f64[4, {n}], f64, f64[{n}], f64[{n}]) {{
    np.random.seed(s);
    a = np.random.rand({n});
    b = np.random.randn({n});
    c = np.random.randint(0, 10, {n});
    rng = np.random.default_rng(9);
    x = rng.random({n}) + 2.0 * rng.random({n});
    acc = zeros((4, {n}));
    for i in range(4) {{
        acc[i, :] = rng.uniform(-1, 1, {n});
    }}
    t = np.random.random();
    other = np.random.default_rng(9);
    y = other.normal(1.0, 3.0, size={n});
    z = rng.standard_normal({n});
    return (a, b, c, x, acc, t, y, z);
}}
"""
    proc, got = run_source(src, {}, tmp_path, flags=["--target", target, "--arg", "s=5"])
    assert proc.returncode == 0, proc.stderr
    a, b, c, x, acc, t, y, z = got

    def key(seed, j):
        return seed ^ (j << 32)

    m = arrayc_random
    np.testing.assert_array_equal(a, m.random(n, seed=key(5, 0)))
    np.testing.assert_allclose(b, m.normal(n, seed=key(5, 1)), rtol=1e-12, atol=1e-12)
    np.testing.assert_array_equal(c, m.integers(0, 10, n, seed=key(5, 2)))
    np.testing.assert_allclose(x, m.random(n, seed=key(9, 0)) + 2.0 * m.random(n, seed=key(9, 1)), rtol=1e-15)
    for i in range(4):
        np.testing.assert_allclose(acc[i], -1 + 2 * m.random(n, seed=key(9, 2 + i)), rtol=1e-15, atol=1e-15)
    assert t == m.random(1, seed=key(5, 3))[0]
    np.testing.assert_allclose(y, m.normal(n, seed=key(9, 0), loc=1.0, scale=3.0), rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(z, m.normal(n, seed=key(9, 6)), rtol=1e-12, atol=1e-12)


def ks_statistic(x, cdf):
    """The Kolmogorov–Smirnov distance of the sample `x` from the distribution `cdf`."""
    x = np.sort(x)
    f = cdf(x)
    k = np.arange(1, len(x) + 1) / len(x)
    return max(np.max(k - f), np.max(f - (k - 1 / len(x))))


def normal_cdf(x, loc=0.0, scale=1.0):
    return 0.5 * (1 + np.vectorize(math.erf)((x - loc) / (scale * math.sqrt(2))))


@pytest.mark.parametrize("target", TARGETS)
def test_moments_and_distributions_at_n_1e5(target, tmp_path):
    src = """fn main(n: i64) -> (f64[n], f64[n], f64[n], f64[n], i64[n], f64[n], f64[n], i64[n], f64[n]) {
    np.random.seed(2024);
    a = np.random.rand(n);
    b = np.random.randn(n);
    c = np.random.uniform(-2.0, 6.0, size=n);
    d = np.random.normal(3.0, 0.5, size=n);
    e = np.random.randint(-3, 4, size=n);
    rng = np.random.default_rng(77);
    f = rng.random(n);
    g = rng.normal(-1, 2, n);
    h = rng.integers(0, 10, size=n);
    k = rng.standard_normal(n);
    return (a, b, c, d, e, f, g, h, k);
}
"""
    proc, got = run_source(src, {}, tmp_path, flags=["--target", target, "--arg", f"n={N}"])
    assert proc.returncode == 0, proc.stderr
    a, b, c, d, e, f, g, h, k = got
    tol = 5 / math.sqrt(N)  # five standard errors of a unit-variance mean
    ks = 1.95 / math.sqrt(N)  # the KS critical value at p = 0.001
    for u, lo, hi in [(a, 0, 1), (c, -2, 6), (f, 0, 1)]:
        w = hi - lo
        assert abs(u.mean() - (lo + hi) / 2) < tol * w and abs(u.var() - w * w / 12) < tol * w * w
        assert ks_statistic(u, lambda x: (x - lo) / w) < ks
    for z, loc, scale in [(b, 0, 1), (d, 3, 0.5), (g, -1, 2), (k, 0, 1)]:
        assert abs(z.mean() - loc) < tol * scale and abs(z.std() / scale - 1) < tol * 2
        assert ks_statistic(z, lambda x: normal_cdf(x, loc, scale)) < ks
    for i, lo, hi in [(e, -3, 4), (h, 0, 10)]:
        counts = np.bincount(i - lo, minlength=hi - lo)
        assert len(counts) == hi - lo
        p = 1 / (hi - lo)
        # Each value's frequency within five standard errors; chi-square at p ~ 0.001.
        assert np.all(np.abs(counts / N - p) < 5 * math.sqrt(p * (1 - p) / N)), counts
        chi2 = np.sum((counts - N * p) ** 2 / (N * p))
        assert chi2 < {6: 22.5, 9: 27.9}[hi - lo - 1], chi2


@pytest.mark.parametrize("target", TARGETS)
def test_successive_and_loop_draws_differ_and_are_uncorrelated(target, tmp_path):
    src = """fn main(n: i64) -> (f64[n], f64[n], f64[6, n], f64[n], f64[n], f64[5]) {
    a = np.random.rand(n);
    b = np.random.rand(n);
    rng = np.random.default_rng(0);
    rows = zeros((6, n));
    s = zeros(5);
    for i in range(6) {
        rows[i, :] = rng.standard_normal(n);
        if i < 5 {
            s[i] = rng.random();
        }
    }
    c = rng.random(n);
    d = rng.random(n);
    return (a, b, rows, c, d, s);
}
"""
    proc, got = run_source(src, {}, tmp_path, flags=["--target", target, "--arg", f"n={N}"])
    assert proc.returncode == 0, proc.stderr
    a, b, rows, c, d, s = got
    tol = 5 / math.sqrt(N)
    samples = [a, b, c, d] + list(rows)
    for i in range(len(samples)):
        for j in range(i + 1, len(samples)):
            assert not np.array_equal(samples[i], samples[j]), (i, j)
            assert abs(np.corrcoef(samples[i], samples[j])[0, 1]) < tol, (i, j)
    assert len(set(s.tolist())) == 5
    # Unseeded, the legacy functions use seed 0 (documented): NumPy's unseeded ones are random.
    np.testing.assert_array_equal(a, arrayc_random.random(N, seed=0))


def test_deterministic_across_runs_and_thread_counts_and_the_seed_changes_values(tmp_path):
    src = """fn main(n: i64, s: i64) -> (f64[n], i64[n], f64[n, 2]) {
    np.random.seed(s);
    a = np.random.randn(n);
    k = np.random.randint(0, 1000, size=n);
    rng = np.random.default_rng(s + 1);
    u = rng.uniform(0, 1, (n, 2));
    return (a, k, u);
}
"""
    runs = {}
    for threads, seed in [("1", 11), ("4", 11), ("2", 11), ("4", 12)]:
        env = dict(os.environ, RAYON_NUM_THREADS=threads)
        proc, got = run_source(src, {}, tmp_path / f"{threads}-{seed}", flags=["--arg", "n=100000", "--arg", f"s={seed}"],
                               env=env)
        assert proc.returncode == 0, proc.stderr
        runs[(threads, seed)] = got
    base = runs[("1", 11)]
    for key in [("4", 11), ("2", 11)]:
        for g, w in zip(runs[key], base):
            np.testing.assert_array_equal(g, w)
    for g, w in zip(runs[("4", 12)], base):
        assert not np.array_equal(g, w)
        assert np.mean(g == w) < 0.01


def test_a_generator_used_where_it_is_made_is_a_fresh_one(tmp_path):
    """`np.random.default_rng(s).random(n)` is a generator of its own, seeded `s`: its values are
    those of `rng = np.random.default_rng(s); rng.random(n)`, and made again in each iteration of a
    loop it repeats them (as NumPy's fresh generator does)."""
    src = """fn main() -> (f64[3], f64[3], f64[2]) {
    let a = np.random.default_rng(5).random(3);
    rng = np.random.default_rng(5);
    let b = rng.random(3);
    let c = np.zeros(2);
    for k in range(2) { c[k] = np.random.default_rng(1).normal(); }
    return a, b, c;
}
"""
    proc, (a, b, c) = run_source(src, {}, tmp_path)
    assert proc.returncode == 0, proc.stderr
    np.testing.assert_array_equal(a, b)
    assert c[0] == c[1]
    assert len(set(a.tolist())) == 3


# ---------------------------------------------------------------------------------------------
# errors


@pytest.mark.parametrize(
    "src,code,words",
    [
        ("fn f() -> i64[3] { return np.random.randint(5, 5, size=3); }", "E0503", "low < high"),
        ("fn f() -> i64[3] { rng = np.random.default_rng(0); return rng.integers(3, 1, 3); }", "E0503", "low >= high"),
        ("fn f() -> f64[3] { return np.random.normal(0.0, -1.0, size=3); }", "E0503", "scale < 0"),
        ("fn f() -> f64[3] { rng = np.random.default_rng(0); return rng.normal(0, -2, 3); }", "E0503", "scale >= 0"),
        ("fn f() -> f64[3] { np.random.seed(-1); return np.random.rand(3); }", "E0503", "Seed must be between 0 and 2**32 - 1"),
        ("fn f() -> f64[3] { np.random.seed(4294967296); return np.random.rand(3); }", "E0503", "Seed must be between"),
        ("fn f() -> f64[3] { rng = np.random.default_rng(-3); return rng.random(3); }", "E0503", "non-negative"),
        ("fn f(x: f64[n]) -> f64[3] { return np.random.gamma(x, 3); }", "E0202", "`np.random.gamma`"),
        ("fn f(x: f64[n]) -> f64[n] { return np.random.beta(x); }", "E0202", "np.random.seed, default_rng, rand"),
        ("fn f(x: f64[n]) -> f64[n] { rng = np.random.default_rng(0); rng.bytes(x); return x; }", "E0202",
         "random, standard_normal, uniform, normal, integers, permutation, shuffle, choice"),
        ("fn f() -> f64[3] { rng = np.random.default_rng(0); return rng.exponential(1.0, 3); }", "E0202", "other distributions"),
        ("fn f() -> f64[3] { return np.random.rand(3, foo=1); }", "E0502", "takes no keywords"),
        ("fn g() -> f64[3] { return np.random.rand(3); }\nfn f() -> f64[3] { return g() + g(); }", "E0503", "would repeat on every call"),
        ("fn g() -> f64[3] { rng = np.random.default_rng(); return rng.random(3); }\nfn f() -> f64[3] { return g(); }", "E0503", "would repeat"),
        ("fn f() -> f64[3] { return np.random.uniform(0.0, 1.0, 3, 4); }", "E0501", "at most 3"),
        ("fn f() -> f64[3] { return np.random.normal(0.0, 1.0, sizes=3); }", "E0502", "no argument `sizes`"),
        ("fn f() -> f32[3] { rng = np.random.default_rng(0); return rng.random(3, dtype=np.float32); }", "E0503",
         "draws `f64` only"),
        ("fn f() -> i64 { i = 0; while np.random.rand() < 0.9 { i += 1; } return i; }", "E0503", "`while` condition"),
        ("fn f() -> f64 { return np.random.default_rng(1) + 1.0; }", "E0503", "`rng = np.random.default_rng(s);`"),
        ("fn f() -> f64 { x = np.random.seed(1); return 1.0; }", "E0503", "a statement of its own"),
        ("fn f() -> f64 { rng = np.random.default_rng(1); r = rng; return 1.0; }", "E0503", "generator `rng` is not a value"),
    ],
)
def test_checker_errors(src, code, words, tmp_path):
    assert_check_error(src, code, words, tmp_path)


@pytest.mark.parametrize(
    "src,args,message",
    [
        ("fn f(lo: i64, hi: i64) -> i64[3] {\n    return np.random.randint(lo, hi, size=3);\n}", {"lo": 4, "hi": 4},
         "low >= high"),
        ("fn f(s: f64) -> f64[3] {\n    return np.random.normal(0.0, s, size=3);\n}", {"s": -1.0}, "scale < 0"),
        ("fn f(s: i64) -> f64[3] {\n    np.random.seed(s);\n    return np.random.rand(3);\n}", {"s": -1},
         "Seed must be between 0 and 2**32 - 1"),
        ("fn f(s: i64) -> f64[3] {\n    np.random.seed(s);\n    return np.random.rand(3);\n}", {"s": 2**32},
         "Seed must be between 0 and 2**32 - 1"),
        ("fn f(s: i64) -> f64[3] {\n    rng = np.random.default_rng(s);\n    return rng.random(3);\n}", {"s": -5},
         "non-negative"),
    ],
)
def test_run_time_errors_name_the_line(src, args, message, tmp_path):
    assert_run_time_error(src, args, message, tmp_path)

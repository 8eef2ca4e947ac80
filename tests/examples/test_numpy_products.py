"""NumPy's `inner`, `vdot`, `kron`, `logspace`, `diag`, `trapezoid`, `cov`, `corrcoef`, and `sum(where=)`,
`min`/`max(initial=)`, `gradient` and `unravel_index`, composed of arrayc's
operations (docs/language.md, "Builtin functions"), against NumPy on several dtypes and shapes
(empty ones included), on the CPU and on the GPU kernels (emulated, and the GPU where there is
one). Then the checker's and the run time's errors, each naming the place and the fix."""
import numpy as np
import pytest

from arrayc_examples import DTYPES, TARGETS, assert_check_error, run_source


def assert_close(got, want, what, exact=False):
    want = np.asarray(want)
    got = np.asarray(got)
    assert got.dtype == want.dtype and got.shape == want.shape, f"{what}: {got.dtype}{got.shape} vs {want.dtype}{want.shape}"
    if exact:
        np.testing.assert_array_equal(got, want, err_msg=what)
    else:
        rtol = 1e-5 if want.dtype == np.float32 else 1e-12
        np.testing.assert_allclose(got, want, rtol=rtol, atol=rtol, err_msg=what)


def data(dt, shape, seed):
    rng = np.random.default_rng(seed)
    x = rng.integers(-5, 6, size=shape)
    if dt in ("f64", "f32"):
        x = x + rng.random(shape)
    if dt == "bool":
        return x > 0
    return x.astype(DTYPES[dt])


def run(src, arrays, tmp_path, target):
    proc, got = run_source(src, arrays, tmp_path, flags=["--target", target])
    assert proc.returncode == 0, proc.stderr
    return got


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("dt", ["f64", "f32", "i64"])
@pytest.mark.parametrize("n", [0, 1, 4])
def test_inner_and_vdot_match_numpy(n, dt, target, tmp_path):
    """`inner` of 1-d and 2-d operands in every pairing, and `vdot` of a matrix and a vector of
    its size, against NumPy; integers exactly."""
    t = dt
    h = "f64" if dt == "i64" else dt  # `ravel(a) * 0.5`: a weak float keeps f32
    src = f"""fn main(u: {t}[n], v: f64[n], a: {t}[3, n], b: {t}[2, n]) -> ({t}, f64, {t}[3], {t}[2], {t}[3, 2], {t}, {h}) {{
    return (inner(u, u), inner(u, v), inner(a, u), inner(u, b), np.inner(a, b), vdot(a, a), vdot(a, ravel(a) * 0.5));
}}
"""
    u, v, a, b = data(dt, (n,), 1), data("f64", (n,), 2), data(dt, (3, n), 3), data(dt, (2, n), 4)
    got = run(src, {"u": u, "v": v, "a": a, "b": b}, tmp_path, target)
    want = [np.inner(u, u), np.inner(u, v), np.inner(a, u), np.inner(u, b), np.inner(a, b), np.vdot(a, a),
            np.vdot(a, a.ravel() * 0.5)]
    for i, (g, w) in enumerate(zip(got, want)):
        assert_close(g, w, f"result {i}", exact=dt == "i64")


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("dt", ["f64", "i64", "bool"])
@pytest.mark.parametrize("shapes", [((3,), (2,)), ((0,), (2,)), ((2, 3), (3, 2)), ((1, 2), (0, 3))])
def test_kron_matches_numpy(shapes, dt, target, tmp_path):
    sa, sb = shapes
    t = dt
    dims = lambda s: ", ".join(map(str, s))
    out = dims([p * q for p, q in zip(sa, sb)])
    src = f"""fn main(a: {t}[{dims(sa)}], b: {t}[{dims(sb)}]) -> {t}[{out}] {{
    return kron(a, b);
}}
"""
    a, b = data(dt, sa, 5), data(dt, sb, 6)
    (got,) = run(src, {"a": a, "b": b}, tmp_path, target)
    assert_close(got, np.kron(a, b), "kron", exact=True)


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("n", [0, 1, 7])
def test_logspace_matches_numpy(n, target, tmp_path):
    src = f"""fn main() -> (f64[{n}], f64[{n}], f64[{n}], f64[50]) {{
    return (logspace(0, 3, {n}), logspace(-1.0, 2.0, num={n}, endpoint=false), np.logspace(1, 4, {n}, base=2), logspace(0, 1));
}}
"""
    got = run(src, {}, tmp_path, target)
    want = [np.logspace(0, 3, n), np.logspace(-1.0, 2.0, num=n, endpoint=False), np.logspace(1, 4, n, base=2),
            np.logspace(0, 1)]
    for i, (g, w) in enumerate(zip(got, want)):
        assert_close(g, w, f"result {i}")


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("dt", ["f64", "i64", "bool"])
@pytest.mark.parametrize("n", [0, 1, 4])
def test_diag_matches_numpy(n, dt, target, tmp_path):
    """`diag` of a vector (a matrix, diagonals above and below) and of a matrix (its diagonals,
    past the edge empty), against NumPy."""
    t = dt
    src = f"""fn main(v: {t}[n], m: {t}[n, 3]) -> ({t}[n, n], {t}[n + 2, n + 2], {t}[n + 1, n + 1], {t}[?], {t}[?], {t}[?], {t}[?]) {{
    return (diag(v), diag(v, 2), np.diag(v, k=-1), diag(m), diag(m, 1), diag(m, k=-2), diag(m, 5));
}}
"""
    v, m = data(dt, (n,), 7), data(dt, (n, 3), 8)
    got = run(src, {"v": v, "m": m}, tmp_path, target)
    want = [np.diag(v), np.diag(v, 2), np.diag(v, k=-1), np.diag(m), np.diag(m, 1), np.diag(m, k=-2), np.diag(m, 5)]
    for i, (g, w) in enumerate(zip(got, want)):
        assert_close(g, w, f"result {i}", exact=True)


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("dt", ["f64", "f32", "i64"])
@pytest.mark.parametrize("n", [0, 1, 5])
def test_trapezoid_matches_numpy(n, dt, target, tmp_path):
    """`trapezoid` of a vector with unit spacing, `dx=`, sample points `x` (positional and `x=`),
    and of a matrix along either axis, against NumPy (its dtypes: `f32` stays `f32`)."""
    t = dt
    r = "f32" if dt == "f32" else "f64"
    src = f"""fn main(y: {t}[n], x: f64[n], m: {t}[3, n], xs: {t}[3]) -> ({r}, {r}, f64, f64, {r}[3], {r}[n], {r}[n]) {{
    return (trapezoid(y), trapezoid(y, dx=0.5), trapezoid(y, x), np.trapezoid(m, x=x, axis=1)[0], trapezoid(m),
            trapezoid(m, axis=0), trapezoid(m, xs, axis=0));
}}
"""
    y, m, xs = data(dt, (n,), 9), data(dt, (3, n), 10), np.array([0, 1, 3]).astype(DTYPES[dt])
    x = np.sort(np.random.default_rng(11).random(n))
    got = run(src, {"y": y, "x": x, "m": m, "xs": xs}, tmp_path, target)
    want = [np.trapezoid(y), np.trapezoid(y, dx=0.5), np.trapezoid(y, x), np.trapezoid(m, x=x, axis=1)[0],
            np.trapezoid(m), np.trapezoid(m, axis=0), np.trapezoid(m, xs, axis=0)]
    for i, (g, w) in enumerate(zip(got, want)):
        assert_close(g, w, f"result {i}")


@pytest.mark.parametrize(
    "body, code, words",
    [
        ("return inner(a, zeros(4));", "E0401", "`inner`: shapes [3] and [4] are not aligned"),
        ("return inner(2.0, a);", "E0503", "NumPy's `inner(s, x)` of a scalar `s` is `s * x`"),
        ("return vdot(a > 0.0, a);", "E0301", "`vdot` of bool arrays is not supported"),
        ("return kron(a, zeros(2, 2))[0];", "E0503", "`kron(a[newaxis, :], b)`"),
        ("return diag(a, n)[0];", "E0503", "`diag`'s `k` must be an integer literal"),
        ("return diag(zeros(2, 2, 2))[0];", "E0503", "`diag` needs a 1-d or 2-d array"),
        ("return cov(zeros(2, 2, 2))[0, 0];", "E0503", "`cov` needs a 1-d or 2-d array"),
        ("return gradient(zeros(2, 2), 1.0, 2.0, 3.0)[0][0, 0];", "E0501", "one spacing or one per axis (2), found 3"),
        ("return gradient(zeros(1))[0];", "E0503", "`gradient` needs at least 2 elements along axis 0"),
        ("return f64(unravel_index(a, (2, 2))[0][0]);", "E0503", "`unravel_index` needs integer indices"),
        ("return sum(a, where=zeros(2) > 0.0);", "E0503", "`sum`'s `where=` must be a bool array that broadcasts to"),
        ("return prod(a, initial=1.0);", "E0502", "`prod` has no keyword argument `initial`"),
        ("return trapezoid(a, zeros(4));", "E0503", "`trapezoid`'s `x` must be 1-d of `y`'s size along the axis"),
    ],
)
def test_errors_name_the_place_and_the_fix(body, code, words, tmp_path):
    src = f"fn main(a: f64[3], n: i64) -> f64 {{\n    {body}\n}}\n"
    assert_check_error(src, code, words, tmp_path)


def test_run_time_size_mismatches_are_errors(tmp_path):
    """Sizes only the run time knows: NumPy's ValueErrors, naming the line."""
    for call, words in [("vdot(a, b)", "vdot: `a` has 3 elements and `b` 4"),
                        ("inner(a, b)", "inner: shapes not aligned"),
                        ("trapezoid(a, b)", "trapezoid: `x` has 4 sample points and `y` 3")]:
        src = f"fn main(a: f64[n], b: f64[m]) -> f64 {{\n    return {call};\n}}\n"
        proc, _ = run_source(src, {"a": np.ones(3), "b": np.ones(4)}, tmp_path)
        assert proc.returncode != 0 and words in proc.stderr and "prog.arr:2" in proc.stderr, proc.stderr


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("dt", ["f64", "f32", "i64"])
@pytest.mark.parametrize("n", [2, 5])
@pytest.mark.filterwarnings("ignore::RuntimeWarning")  # NumPy's, for a constant variable (NaN both)
def test_cov_and_corrcoef_match_numpy(n, dt, target, tmp_path):
    """`cov` (rows as variables, `rowvar=false`, `ddof=`) and `corrcoef` of a matrix and of a
    vector, against NumPy (always `f64`)."""
    t = dt
    src = f"""fn main(m: {t}[3, n], v: {t}[n]) -> (f64[3, 3], f64[n, n], f64[3, 3], f64, f64[3, 3], f64[n, n], f64) {{
    return (cov(m), np.cov(m, rowvar=false), cov(m, ddof=0), cov(v), corrcoef(m), corrcoef(m, rowvar=false), corrcoef(v));
}}
"""
    m, v = data(dt, (3, n), 12), data(dt, (n,), 13)
    m[0, 0] += 1  # no constant column or row in the small cases
    got = run(src, {"m": m, "v": v}, tmp_path, target)
    want = [np.cov(m), np.cov(m, rowvar=False), np.cov(m, ddof=0), np.cov(v), np.corrcoef(m),
            np.corrcoef(m, rowvar=False), np.corrcoef(v)]
    for i, (g, w) in enumerate(zip(got, want)):
        assert_close(g, w, f"result {i}")


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("dt", ["f64", "f32", "i64", "bool"])
@pytest.mark.parametrize("n", [0, 1, 4])
def test_sum_where_and_min_max_initial_match_numpy(n, dt, target, tmp_path):
    """`sum(x, where=m)` (a mask of `x`'s shape, a broadcast row, with `axis=`) and
    `min`/`max(x, initial=v)` (empty arrays and axes give `v`), against NumPy."""
    t = dt
    s = "i64" if dt == "bool" else dt
    src = f"""fn main(x: {t}[n, 3], m: bool[n, 3], r: bool[3]) -> ({s}, {s}[3], {s}[n], {t}, {t}[3], {t}[n], {t}) {{
    return (sum(x, where=m), np.sum(x, axis=0, where=r), sum(x, axis=1, where=m), min(x, initial=2), max(x, axis=0, initial=-1),
            min(x, axis=1, initial=0), max(x[:0], initial=1));
}}
"""
    x = data(dt, (n, 3), 14)
    rng = np.random.default_rng(15)
    m, r = rng.random((n, 3)) < 0.5, np.array([True, False, True])
    got = run(src, {"x": x, "m": m, "r": r}, tmp_path, target)
    init = (lambda v: bool(v)) if dt == "bool" else (lambda v: v)
    want = [np.sum(x, where=m), np.sum(x, axis=0, where=r), np.sum(x, axis=1, where=m), np.min(x, initial=init(2)),
            np.max(x, axis=0, initial=init(-1)), np.min(x, axis=1, initial=init(0)), np.max(x[:0], initial=init(1))]
    for i, (g, w) in enumerate(zip(got, want)):
        assert_close(g, w, f"result {i}")


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("n", [0, 1, 6])
def test_unravel_index_matches_numpy(n, target, tmp_path):
    """`unravel_index` of an index array (taken apart, and one coordinate by `[k]`), of a
    scalar, and with one size, against NumPy; an index out of range is NumPy's ValueError."""
    src = """fn main(idx: i64[n]) -> (i64[n], i64[n], i64[n], i64, i64, i64) {
    let (r, c) = unravel_index(idx, (3, 4));
    let (a, b, d) = unravel_index(17, (2, 3, 4));
    return (r, c, np.unravel_index(idx, (2, 6))[1], a, b * 10 + d, unravel_index(5, 6)[0]);
}
"""
    idx = np.random.default_rng(n).integers(0, 12, size=n)
    got = run(src, {"idx": idx}, tmp_path, target)
    r, c = np.unravel_index(idx, (3, 4))
    a, b, d = np.unravel_index(17, (2, 3, 4))
    want = [r, c, np.unravel_index(idx, (2, 6))[1], a, b * 10 + d, np.unravel_index(5, 6)[0]]
    for i, (g, w) in enumerate(zip(got, want)):
        assert_close(g, np.asarray(w, dtype=np.int64), f"result {i}", exact=True)
    for bad in ([0, 12], [-1]):
        proc, _ = run_source(src, {"idx": np.array(bad)}, tmp_path, flags=["--target", target])
        assert proc.returncode != 0 and "unravel_index: an index is out of bounds" in proc.stderr, proc.stderr


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("dt", ["f64", "f32", "i64"])
@pytest.mark.parametrize("n", [2, 3, 6])
def test_gradient_matches_numpy(n, dt, target, tmp_path):
    """`gradient` of a vector and of a matrix along either axis (NumPy's default: second-order
    inside, first-order edges, unit spacing), against NumPy; too few elements is an error."""
    t = dt
    r = "f32" if dt == "f32" else "f64"
    src = f"""fn main(f: {t}[n], m: {t}[n, 3]) -> ({r}[n], {r}[n, 3], {r}[n, 3], {r}[n]) {{
    return (gradient(f), gradient(m, axis=0), np.gradient(m, axis=-1), gradient(f * f));
}}
"""
    f, m = data(dt, (n,), 16), data(dt, (n, 3), 17)
    got = run(src, {"f": f, "m": m}, tmp_path, target)
    want = [np.gradient(f), np.gradient(m, axis=0), np.gradient(m, axis=-1), np.gradient(f * f)]
    for i, (g, w) in enumerate(zip(got, want)):
        assert_close(g, w, f"result {i}")
    proc, _ = run_source(src, {"f": f[:1], "m": m[:1]}, tmp_path, flags=["--target", target])
    assert proc.returncode != 0 and "gradient: at least 2 elements" in proc.stderr, proc.stderr

"""NumPy's everyday idioms of issue 31, seventh set, against NumPy (docs/language.md, "Builtin
functions"): `choose` (its three modes, broadcasting, Python numbers weak), `ldexp`/`frexp`
(exact, at the subnormal and overflow ends), `gradient` with a spacing, coordinates and
`edge_order=2`, and NumPy 2's weak Python ints other than literals (`len(x)`, `x.shape[0]`, a
`range` variable) in `clip`, `power`, `fmod`, `gcd` and Python's `min`/`max`, which keep the
array's dtype; on the CPU and on the GPU kernels (emulated, and the GPU where there is one)."""
import numpy as np
import pytest

from arrayc_examples import TARGETS, assert_same, run_fails, run_ok


@pytest.mark.parametrize("target", TARGETS)
def test_choose_matches_numpy(target, tmp_path):
    """`choose` of arrays and Python numbers (promoted weakly: `[x32, 2, 1.5]` is `f32`), a 2-d
    index with 1-d choices (broadcast), `mode="clip"` and `mode="wrap"` of negative and large
    entries, the method `a.choose`, a tuple of choices and a scalar index."""
    rng = np.random.default_rng(3)
    x, y = rng.standard_normal(8), rng.standard_normal(8)
    x32 = x.astype(np.float32)
    w = rng.standard_normal(5)
    m = rng.standard_normal((4, 5))
    ci = rng.integers(0, 3, 8)
    cm = rng.integers(0, 3, (4, 5))
    cneg = rng.integers(-7, 9, 8)
    xu8 = rng.integers(0, 200, 8).astype(np.uint8)
    src = """fn main(x: f64[n], y: f64[n], x32: f32[n], w: f64[c], m: f64[r, c], ci: i64[n], cm: i64[r, c],
        cneg: i64[n], xu8: u8[n]) -> (f64[n], i64[n], f32[n], f64[r, c], f64[n], f64[n], f64[n], u8[n], f64[4, c], f64, f64[n]) {
    return (np.choose(ci, [x, y, 2.0 * x]), np.choose(ci, [0, 10, 20]), np.choose(ci, [x32, 2, 1.5]),
            np.choose(cm, [w, m, 0.0]), np.choose(cneg, [x, y, -x], mode="clip"),
            np.choose(cneg, [x, y, -x], mode="wrap"), ci.choose([x, y, 2.0 * x]),
            np.choose(ci % 2, (xu8, 3)), np.choose(ci[0:4, np.newaxis], [w, 1.0, -w]), np.choose(1, [x[0], y[0]]),
            np.choose(ci, [x, y, x32]));
}
"""
    got = run_ok(src, dict(x=x, y=y, x32=x32, w=w, m=m, ci=ci, cm=cm, cneg=cneg, xu8=xu8), tmp_path, target)
    want = [np.choose(ci, [x, y, 2.0 * x]), np.choose(ci, [0, 10, 20]), np.choose(ci, [x32, 2, 1.5]),
            np.choose(cm, [w, m, 0.0]), np.choose(cneg, [x, y, -x], mode="clip"),
            np.choose(cneg, [x, y, -x], mode="wrap"), ci.choose([x, y, 2.0 * x]),
            np.choose(ci % 2, (xu8, 3)), np.choose(ci[0:4, None], [w, 1.0, -w]), np.choose(1, [x[0], y[0]]),
            np.choose(ci, [x, y, x32])]
    for k, (g, wv) in enumerate(zip(got, want)):
        assert_same(g, wv, f"result {k}")


@pytest.mark.parametrize("entry", [3, -1])
def test_choose_out_of_range_is_numpy_error(entry, tmp_path):
    """`mode="raise"` (the default): an entry outside `[0, len(choices))` is a run-time error
    naming the line, as NumPy's ValueError."""
    ci = np.array([0, 1, entry, 2])
    with pytest.raises(ValueError):
        np.choose(ci, [ci, ci, ci])
    src = """fn main(ci: i64[n]) -> i64[n] {
    return np.choose(ci, [ci, 2 * ci, 3 * ci]);
}
"""
    run_fails(src, dict(ci=ci), tmp_path, f"invalid entry {entry}")


@pytest.mark.parametrize("target", TARGETS)
def test_ldexp_frexp_match_numpy(target, tmp_path):
    """`ldexp` of `f64` and `f32` values and `i64`/`i32` exponents, overflowing to infinity and
    into subnormals (rounded once); `frexp` of normal, subnormal, zero (-0.0 kept), infinite and
    NaN values, of `f32`, of a scalar, and its round trip `m * 2.0 ** e`."""
    rng = np.random.default_rng(8)
    x = rng.standard_normal(9) * 10.0 ** rng.integers(-5, 5, 9)
    e = rng.integers(-30, 30, 9)
    x32 = x.astype(np.float32)
    e32 = e.astype(np.int32)
    big = np.array([1000, 1030, 1070, 2000, -1000, -1070, -1074, -1080, -2200])
    xs = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 5e-324, -3e-310, 0.75, 1.0 - 2.0 ** -53, -1e300])
    src = """fn main(x: f64[n], e: i64[n], x32: f32[n], e32: i32[n], big: i64[n], xs: f64[k]) ->
        (f64[n], f64[n], f32[n], f32[n], f64[n], f64[n], f64[k], i32[k], f32[n], i32[n], i32, f64[k], f64[n]) {
    let (mm, ee) = np.frexp(x);
    return (np.ldexp(x, e), np.ldexp(x, 3), np.ldexp(x32, e), np.ldexp(x32, e32), np.ldexp(x, big),
            np.ldexp(np.full_like(x, 1.5), -big), np.frexp(xs)[0], np.frexp(xs)[1], np.frexp(x32)[0],
            np.frexp(x32)[1], np.frexp(x[0])[1], np.frexp(xs)[0] * 0.0 + np.ldexp(np.frexp(xs)[0], np.frexp(xs)[1]),
            mm * 2.0 ** ee);
}
"""
    got = run_ok(src, dict(x=x, e=e, x32=x32, e32=e32, big=big, xs=xs), tmp_path, target)
    with np.errstate(all="ignore"):
        mm, ee = np.frexp(x)
        want = [np.ldexp(x, e), np.ldexp(x, 3), np.ldexp(x32, e), np.ldexp(x32, e32), np.ldexp(x, big),
                np.ldexp(np.full_like(x, 1.5), -big), np.frexp(xs)[0], np.frexp(xs)[1], np.frexp(x32)[0],
                np.frexp(x32)[1], np.frexp(x[0])[1], np.frexp(xs)[0] * 0.0 + np.ldexp(*np.frexp(xs)),
                mm * 2.0 ** ee]
    for k, (g, w) in enumerate(zip(got, want)):
        assert_same(g, w, f"result {k}")


@pytest.mark.parametrize("target", TARGETS)
def test_gradient_spacing_matches_numpy(target, tmp_path):
    """`gradient` with a scalar spacing (a literal and a run-time value), with coordinates
    (unequal steps, and equal ones, where NumPy takes its uniform formulas), with
    `edge_order=2`, along either axis of a 2-d array, of integers and of `f32`."""
    rng = np.random.default_rng(4)
    x = rng.standard_normal(9)
    t = np.sort(rng.uniform(0, 5, 9))
    u = np.arange(9) * 0.25 + 1.0
    m = rng.standard_normal((4, 6))
    w = np.sort(rng.uniform(0, 3, 6))
    w4 = np.sort(rng.uniform(0, 3, 4))
    xi = rng.integers(-20, 20, 9)
    x32 = x.astype(np.float32)
    h = np.float64(0.3)
    src = """fn main(x: f64[n], t: f64[n], u: f64[n], m: f64[r, c], w: f64[c], w4: f64[r], xi: i64[n], x32: f32[n], h: f64) ->
        (f64[n], f64[n], f64[n], f64[n], f64[n], f64[n], f64[r, c], f64[r, c], f64[r, c], f64[n], f32[n], f32[n], f64[n], f64[n]) {
    return (np.gradient(x, 0.5), np.gradient(x, h), np.gradient(x, t), np.gradient(x, u), np.gradient(x, edge_order=2),
            np.gradient(x, t, edge_order=2), np.gradient(m, w, axis=1), np.gradient(m, w4, axis=0, edge_order=2),
            np.gradient(m, 2.0, axis=1, edge_order=2), np.gradient(xi, t), np.gradient(x32), np.gradient(x32, t),
            np.gradient(x, u, edge_order=2), np.gradient(x, 3));
}
"""
    got = run_ok(src, dict(x=x, t=t, u=u, m=m, w=w, w4=w4, xi=xi, x32=x32, h=h), tmp_path, target)
    want = [np.gradient(x, 0.5), np.gradient(x, h), np.gradient(x, t), np.gradient(x, u), np.gradient(x, edge_order=2),
            np.gradient(x, t, edge_order=2), np.gradient(m, w, axis=1), np.gradient(m, w4, axis=0, edge_order=2),
            np.gradient(m, 2.0, axis=1, edge_order=2), np.gradient(xi, t), np.gradient(x32), np.gradient(x32, t),
            np.gradient(x, u, edge_order=2), np.gradient(x, 3)]
    for k, (g, wv) in enumerate(zip(got, want)):
        assert_same(g, wv, f"result {k}")


@pytest.mark.parametrize("target", TARGETS)
def test_gradient_of_every_axis_matches_numpy(target, tmp_path):
    """`gradient` of an n-d array without `axis=`: NumPy's gradients along every axis, indexed
    (`np.gradient(m)[1]`) or unpacked, with one spacing for all the axes or one per axis
    (numbers or coordinates), `edge_order=2`, of a 3-d array."""
    rng = np.random.default_rng(12)
    m = rng.standard_normal((4, 6))
    w = np.sort(rng.uniform(0, 3, 6))
    w4 = np.sort(rng.uniform(0, 3, 4))
    a = rng.standard_normal((3, 4, 5))
    src = """fn main(m: f64[r, c], w: f64[c], w4: f64[r], a: f64[i, j, k]) ->
        (f64[r, c], f64[r, c], f64[r, c], f64[r, c], f64[r, c], f64[i, j, k], f64[i, j, k]) {
    let (gy, gx) = np.gradient(m, w4, w, edge_order=2);
    return (np.gradient(m)[1], np.gradient(m, 0.5, 2.0)[0], np.gradient(m, 0.25)[1], gy, gx, np.gradient(a)[2],
            np.gradient(a, 1.0, 2.0, 3.0)[1]);
}
"""
    got = run_ok(src, dict(m=m, w=w, w4=w4, a=a), tmp_path, target)
    gy, gx = np.gradient(m, w4, w, edge_order=2)
    want = [np.gradient(m)[1], np.gradient(m, 0.5, 2.0)[0], np.gradient(m, 0.25)[1], gy, gx, np.gradient(a)[2],
            np.gradient(a, 1.0, 2.0, 3.0)[1]]
    for k, (g, wv) in enumerate(zip(got, want)):
        assert_same(g, wv, f"result {k}")


def test_gradient_errors_match_numpy(tmp_path):
    """Coordinates of another length and `edge_order=2` of two points are NumPy's ValueError: a
    run-time error naming the line."""
    x, t = np.arange(5.0), np.arange(4.0)
    with pytest.raises(ValueError):
        np.gradient(x, t)
    with pytest.raises(ValueError):
        np.gradient(x[0:2], edge_order=2)
    run_fails("fn main(x: f64[n], t: f64[m]) -> f64[n] {\n    return np.gradient(x, t);\n}\n", dict(x=x, t=t),
              tmp_path / "a", "coordinates have 4 values")
    run_fails("fn main(x: f64[n]) -> f64[?] {\n    return np.gradient(x[0:2], edge_order=2);\n}\n", dict(x=x),
              tmp_path / "b", "at least 3 elements")


@pytest.mark.parametrize("target", TARGETS)
def test_weak_python_ints_keep_the_array_dtype(target, tmp_path):
    """Python ints that are not literals (`len(x)`, `x.shape[0]`, a variable of them, a `range`
    variable) beside a `u8` or `i32` array in `clip` (a bound beyond the dtype is its end, as
    NumPy 2's `clip`), `power`, `fmod`, `gcd` and Python's `min`/`max` take the array's dtype,
    as NumPy 2's do."""
    rng = np.random.default_rng(6)
    xu8 = rng.integers(0, 20, 8).astype(np.uint8)
    xu8[0] = 3
    x32 = rng.integers(-30, 30, 8).astype(np.int32)
    n = len(xu8)
    src = """fn main(xu8: u8[n], x32: i32[n]) -> (u8[n], u8[n], u8[n], i32[n], u8[n], u8[n], i32[n], u8[n], u8, u8[n], u8[n], u8[n]) {
    let k = len(xu8);
    let s = xu8;
    for i in range(3) {
        s = np.power(xu8, i);
    }
    return (np.clip(xu8, 0, k), np.clip(xu8, 1, xu8.shape[0] * 100), np.clip(xu8, -k, k), np.clip(x32, -k, k),
            np.power(xu8, x32.ndim + 1), np.fmod(xu8, k), np.fmod(x32, k), np.gcd(xu8, k), min(k, xu8[0]),
            xu8 + max(xu8[1], k - 7), s, np.maximum(xu8, k));
}
"""
    got = run_ok(src, dict(xu8=xu8, x32=x32), tmp_path, target)
    s = xu8
    for i in range(3):
        s = np.power(xu8, i)
    want = [np.clip(xu8, 0, n), np.clip(xu8, 1, n * 100), np.clip(xu8, -n, n), np.clip(x32, -n, n),
            np.power(xu8, 2), np.fmod(xu8, n), np.fmod(x32, n), np.gcd(xu8, n), min(n, xu8[0]),
            xu8 + max(xu8[1], n - 7), s, np.maximum(xu8, n)]
    for k, (g, w) in enumerate(zip(got, want)):
        assert_same(g, w, f"result {k}")


@pytest.mark.parametrize("expr, words", [("np.power(xu8, len(xu8) * 100)", "Python integer 800 out of bounds for uint8"),
                                         ("np.fmod(xu8, -len(xu8))", "Python integer -8 out of bounds for uint8"),
                                         ("np.full_like(xu8, 0) + min(-len(xu8), xu8[0])", "Python integer -8 out of bounds")])
def test_weak_python_int_out_of_bounds_is_numpy_error(expr, words, tmp_path):
    """A Python int beyond the array's dtype is NumPy's OverflowError, a run-time error naming
    the line (`min(-8, x_u8[0])` is NumPy's Python int -8, which `u8` cannot hold)."""
    xu8 = np.arange(8, dtype=np.uint8)
    with pytest.raises(OverflowError):
        eval(expr.replace("len(xu8)", "8"), {"np": np, "xu8": xu8})
    run_fails(f"fn main(xu8: u8[n]) -> u8[n] {{\n    return {expr};\n}}\n", dict(xu8=xu8), tmp_path, words)


@pytest.mark.parametrize("target", TARGETS)
def test_choice_with_weights_has_numpy_distribution(target, tmp_path):
    """`rng.choice(a, size, p=probs)` (and the legacy `np.random.choice`): values differ from
    NumPy's stream, so properties are compared: the shape, picks from `a` only, never a zero
    weight, frequencies of 40000 picks within 0.01 of `p` (as NumPy's own draws are), and
    `replace=False` distinct picks whose first pick follows `p` too."""
    p = np.array([0.1, 0.0, 0.4, 0.2, 0.3])
    x = np.array([1.5, -2.0, 7.0, 3.25, 0.5])
    src = """fn main(p: f64[n], x: f64[n]) -> (i64[40000], f64[2, 3], i64[3], i64, i64[4000], i64[5]) {
    let rng = np.random.default_rng(7);
    let many = rng.choice(5, 40000, p=p);
    let some = rng.choice(x, size=(2, 3), p=p);
    let firsts = np.zeros(4000, dtype=np.int64);
    for i in range(4000) {
        firsts[i] = rng.choice(5, size=3, replace=False, p=p)[0];
    }
    return (many, some, rng.choice(5, 3, replace=False, p=p), np.random.choice(5, p=p), firsts,
            np.random.choice(5, 5, p=p));
}
"""
    many, some, distinct, one, firsts, legacy = run_ok(src, dict(p=p, x=x), tmp_path, target)
    assert many.dtype == np.int64 and many.shape == (40000,)
    assert np.all(np.abs(np.bincount(many, minlength=5) / 40000 - p) < 0.01)
    assert some.shape == (2, 3) and np.all(np.isin(some, x)) and not np.any(some == -2.0)
    assert len(set(distinct.tolist())) == 3 and 1 not in distinct.tolist()
    assert 0 <= int(one) < 5 and int(one) != 1
    assert np.all(np.abs(np.bincount(firsts, minlength=5) / 4000 - p) < 0.03)
    assert legacy.shape == (5,) and 1 not in legacy.tolist()
    # NumPy's own draws have these properties.
    rng = np.random.default_rng(7)
    assert np.all(np.abs(np.bincount(rng.choice(5, 40000, p=p), minlength=5) / 40000 - p) < 0.01)


@pytest.mark.parametrize("probs, replace, words", [([0.5, 0.6, 0.0], True, "probabilities do not sum to 1"),
                                                   ([0.5, -0.1, 0.6], True, "probabilities are not non-negative"),
                                                   ([0.5, 0.5], True, "`a` and `p` must have the same size"),
                                                   ([0.5, 0.5, 0.0], False, "fewer non-zero entries")])
def test_choice_bad_weights_are_numpy_errors(probs, replace, words, tmp_path):
    """NumPy's ValueErrors of `p=`: a run-time error naming the line."""
    size = 2 if replace else 3
    with pytest.raises(ValueError):
        np.random.default_rng(0).choice(3, size, replace=replace, p=np.array(probs))
    src = f"""fn main(x: f64[n]) -> i64[?] {{
    let rng = np.random.default_rng(1);
    let p = np.array({probs});
    return rng.choice(3, {size}, replace={replace}, p=p);
}}
"""
    run_fails(src, dict(x=np.zeros(3)), tmp_path, words)


@pytest.mark.parametrize("target", TARGETS)
def test_polyval_of_run_time_length_matches_numpy(target, tmp_path):
    """`polyval(p, x)` of coefficients whose number is known only at run time: NumPy's Horner
    loop (`polyval(p, inf)` NaN, as NumPy's `0 * inf`), of a 2-d `x`, of a scalar, of integers,
    of `f32` values with `f64` coefficients, and of no coefficients (zeros)."""
    rng = np.random.default_rng(9)
    p = rng.standard_normal(5)
    x = np.append(rng.standard_normal(6), [np.inf, -2.5])
    m = rng.standard_normal((3, 4))
    pi = rng.integers(-5, 5, 4)
    xi = rng.integers(-9, 9, 7)
    x32 = x.astype(np.float32)
    empty = np.zeros(0)
    src = """fn main(p: f64[d], x: f64[n], m: f64[r, c], pi: i64[k], xi: i64[j], x32: f32[n], empty: f64[z]) ->
        (f64[n], f64[r, c], f64, i64[j], f64[n], f64[n]) {
    return (np.polyval(p, x), np.polyval(p, m), np.polyval(p, 1.5), np.polyval(pi, xi), np.polyval(p, x32),
            np.polyval(empty, x));
}
"""
    got = run_ok(src, dict(p=p, x=x, m=m, pi=pi, xi=xi, x32=x32, empty=empty), tmp_path, target)
    with np.errstate(invalid="ignore"):
        want = [np.polyval(p, x), np.polyval(p, m), np.polyval(p, 1.5), np.polyval(pi, xi), np.polyval(p, x32),
                np.polyval(empty, x)]
    for k, (g, w) in enumerate(zip(got, want)):
        assert_same(g, w, f"result {k}")


@pytest.mark.parametrize("target", TARGETS)
def test_i0_and_kaiser_match_numpy(target, tmp_path):
    """`i0` within 2e-15 of NumPy's (its series on either side of 30, large values, negative
    ones, NaN; `f32` stays `f32`) and `kaiser(M, beta)` of literal and run-time sizes, one
    point and none."""
    x = np.array([0.0, 1e-3, 0.5, -2.0, 7.9, 8.1, 29.9, 30.1, -45.0, 200.0, 700.0, np.nan])
    x32 = np.array([0.5, -3.0, 12.0], dtype=np.float32)
    src = """fn main(x: f64[n], x32: f32[k], m: i64) -> (f64[n], f32[k], f64[7], f64[?], f64[1], f64[?], f64) {
    return (np.i0(x), np.i0(x32), np.kaiser(7, 5.0), np.kaiser(m, 14), np.kaiser(1, 3.0), np.kaiser(0, 3.0), np.i0(2.5));
}
"""
    got = run_ok(src, dict(x=x, x32=x32, m=np.int64(12)), tmp_path, target)
    want = [np.i0(x), np.i0(x32), np.kaiser(7, 5.0), np.kaiser(12, 14), np.kaiser(1, 3.0), np.kaiser(0, 3.0),
            np.i0(2.5)]
    for k, (g, w) in enumerate(zip(got, want)):
        g, w = np.asarray(g), np.asarray(w)
        assert g.dtype == w.dtype and g.shape == w.shape, f"result {k}: {g.dtype}{g.shape}, NumPy {w.dtype}{w.shape}"
        np.testing.assert_allclose(g, w, rtol=1e-6 if g.dtype == np.float32 else 2e-15, err_msg=f"result {k}")

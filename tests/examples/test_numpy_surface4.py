"""NumPy's everyday idioms of issue 31, fourth set, against NumPy (docs/language.md, "Builtin
functions"): the in-place writes `copyto` (`where=`, broadcasting, views, NumPy's `same_kind`
casting), `putmask` (values cycled by the position in the array), `place` (values cycled by the
count of true elements), `put` (flat indices, negative, repeated, cycled values), their errors,
on the CPU and on the GPU kernels (emulated, and the GPU where there is one)."""
import numpy as np
import pytest

from arrayc_examples import TARGETS, assert_check_error, assert_same, run_fails, run_ok, run_source


def raises(f):
    """Whether NumPy raises running `f`."""
    try:
        f()
    except (TypeError, ValueError, IndexError, OverflowError):
        return True
    return False


@pytest.mark.parametrize("target", TARGETS)
def test_copyto_matches_numpy(target, tmp_path):
    """`copyto` of an array, a broadcast row, a scalar, into a view (writes through), with
    `where=` (a broadcast mask too), between dtypes NumPy's `same_kind` allows."""
    src = """fn main(m: f64[r, c], row: f64[c], k: i64[r, c], mask: bool[r, c], cm: bool[c], f: f32[r, c]) ->
        (f64[r, c], f64[r, c], f64[r, c], f64[r, c], f64[r, c], f32[r, c], f64[r, c]) {
    a = m.copy();
    np.copyto(a, row);
    b = m.copy();
    np.copyto(b[1:, :], 7.5);
    d = m.copy();
    np.copyto(d, k, where=mask);
    e = m.copy();
    copyto(e, row, where=cm);
    g = m.copy();
    np.copyto(g, 2);
    h = f.copy();
    np.copyto(h, m, where=mask);
    t = m.copy();
    np.copyto(t.T, m.T * 2.0);
    return (a, b, d, e, g, h, t);
}
"""
    rng = np.random.default_rng(3)
    m, row = rng.standard_normal((3, 4)), rng.standard_normal(4)
    k, mask, cm = rng.integers(-9, 9, (3, 4)), rng.random((3, 4)) > 0.5, rng.random(4) > 0.5
    f = rng.standard_normal((3, 4)).astype(np.float32)
    got = run_ok(src, {"m": m, "row": row, "k": k, "mask": mask, "cm": cm, "f": f}, tmp_path, target)
    a = m.copy(); np.copyto(a, row)
    b = m.copy(); np.copyto(b[1:, :], 7.5)
    d = m.copy(); np.copyto(d, k, where=mask)
    e = m.copy(); np.copyto(e, row, where=cm)
    g = m.copy(); np.copyto(g, 2)
    h = f.copy(); np.copyto(h, m, where=mask)
    t = m.copy(); np.copyto(t.T, m.T * 2.0)
    for i, (gv, w) in enumerate(zip(got, [a, b, d, e, g, h, t])):
        assert_same(gv, w, f"result {i}")


def test_copyto_errors_match_numpy(tmp_path):
    """NumPy's TypeError of `casting='same_kind'` (a float into an integer array, an integer into
    a bool one, a signed into an unsigned one, a Python float into an integer array), a source
    that does not broadcast, a non-bool `where=`."""
    cases = [
        ("z: i64[n], y: f64[n]", "np.copyto(z, y);", lambda: np.copyto(np.zeros(3, np.int64), np.ones(3)), "E0320"),
        ("z: bool[n], y: i64[n]", "np.copyto(z, y);", lambda: np.copyto(np.zeros(3, bool), np.ones(3, np.int64)), "E0320"),
        ("z: u8[n], y: i64[n]", "np.copyto(z, y);", lambda: np.copyto(np.zeros(3, np.uint8), np.ones(3, np.int64)), "E0320"),
        ("z: i64[n], y: f64[n]", "np.copyto(z, 1.5);", lambda: np.copyto(np.zeros(3, np.int64), 1.5), "E0320"),
        ("z: f64[3], y: f64[2, 3]", "np.copyto(z, y);", lambda: np.copyto(np.zeros(3), np.ones((2, 3))), "E0401"),
        ("z: f64[n], y: f64[n]", "np.copyto(z, y, where=y);", lambda: np.copyto(np.zeros(3), np.ones(3), where=np.ones(3)), "E0321"),
    ]
    for i, (sig, stmt, numpy_call, code) in enumerate(cases):
        assert raises(numpy_call), stmt
        src = f"fn main({sig}) -> i64 {{\n    {stmt}\n    return 0;\n}}\n"
        assert_check_error(src, code, "", tmp_path)


@pytest.mark.parametrize("target", TARGETS)
def test_putmask_place_match_numpy(target, tmp_path):
    """`putmask` cycles its values by the position in the array, `place` by the count of true
    elements; a scalar everywhere; a 2-d array; an integer mask (nonzero is true); a Python
    float into an integer array converts; an empty value array writes nothing (`putmask`)."""
    src = """fn main(x: f64[n], v: f64[k], m: f64[r, c], w: f64[p], xi: i64[n], e: f64[q]) ->
        (f64[n], f64[n], f64[n], f64[r, c], f64[r, c], i64[n], i64[n], f64[n], f64[n]) {
    a = x.copy();
    np.putmask(a, a > 0, v);
    b = x.copy();
    np.place(b, b > 0, v);
    s = x.copy();
    putmask(s, s < 0, -1.0);
    pm = m.copy();
    np.putmask(pm, pm > 0, w);
    pl = m.copy();
    np.place(pl, pl > 0, w);
    ki = xi.copy();
    np.putmask(ki, xi % 3, 2.7);
    kp = xi.copy();
    np.place(kp, xi > 0, xi * 10);
    em = x.copy();
    np.putmask(em, em > 0, e);
    ep = x.copy();
    np.place(ep, ep > 100.0, e);
    return (a, b, s, pm, pl, ki, kp, em, ep);
}
"""
    rng = np.random.default_rng(5)
    x, v, m, w = rng.standard_normal(9), rng.standard_normal(4), rng.standard_normal((3, 5)), rng.standard_normal(7)
    xi, e = rng.integers(-20, 20, 9), np.zeros(0)
    got = run_ok(src, {"x": x, "v": v, "m": m, "w": w, "xi": xi, "e": e}, tmp_path, target)
    a = x.copy(); np.putmask(a, a > 0, v)
    b = x.copy(); np.place(b, b > 0, v)
    s = x.copy(); np.putmask(s, s < 0, -1.0)
    pm = m.copy(); np.putmask(pm, pm > 0, w)
    pl = m.copy(); np.place(pl, pl > 0, w)
    ki = xi.copy(); np.putmask(ki, xi % 3, 2.7)
    kp = xi.copy(); np.place(kp, xi > 0, xi * 10)
    em = x.copy(); np.putmask(em, em > 0, e)
    ep = x.copy(); np.place(ep, ep > 100.0, e)
    assert not np.array_equal(a, b), "the test must tell the two cyclings apart"
    for i, (gv, want) in enumerate(zip(got, [a, b, s, pm, pl, ki, kp, em, ep])):
        assert_same(gv, want, f"result {i}")


def test_putmask_place_errors_match_numpy(tmp_path):
    """NumPy's errors: an array of floats into an integer array (`casting='safe'`), a mask of
    another size, an empty `vals` of `place` with a true element."""
    assert raises(lambda: np.putmask(np.zeros(3, np.int64), np.ones(3, bool), np.ones(3)))
    assert_check_error("fn main(z: i64[n], y: f64[n]) -> i64 {\n    np.putmask(z, z > 0, y);\n    return 0;\n}\n",
                       "E0320", "cannot cast f64", tmp_path)
    assert raises(lambda: np.place(np.zeros(3, np.float32), np.ones(3, bool), np.ones(3)))
    assert_check_error("fn main(z: f32[n], y: f64[n]) -> i64 {\n    np.place(z, z > 0, y);\n    return 0;\n}\n",
                       "E0320", "safe", tmp_path)
    assert raises(lambda: np.putmask(np.zeros(4), np.ones(3, bool), 1.0))
    src = "fn main(z: f64[n], y: f64[k]) -> f64[n] {\n    np.putmask(z, y > 0, 1.0);\n    return z;\n}\n"
    run_fails(src, {"z": np.zeros(4), "y": np.ones(3)}, tmp_path / "c", "mask and data must be the same size")
    assert raises(lambda: np.place(np.zeros(4), np.ones(4, bool), np.zeros(0)))
    src = "fn main(z: f64[n], y: f64[k]) -> f64[n] {\n    np.place(z, z == 0.0, y);\n    return z;\n}\n"
    run_fails(src, {"z": np.zeros(4), "y": np.zeros(0)}, tmp_path / "d", "Cannot insert from an empty array")


@pytest.mark.parametrize("target", TARGETS)
def test_put_matches_numpy(target, tmp_path):
    """`put` through flat indices of a 1-d array: negative indices, repeated ones (the last wins),
    values cycled over the indices, a scalar index and value, a float array into an integer one
    (converted, NumPy's `put` casts unsafely), an empty value array (nothing written)."""
    src = """fn main(x: f64[n], ix: i64[k], v: f64[p], xi: i64[n], e: f64[q]) -> (f64[n], f64[n], i64[n], f64[n]) {
    a = x.copy();
    np.put(a, ix, v);
    b = x.copy();
    put(b, -2, 9.0);
    c = xi.copy();
    np.put(c, ix, v * 10.0, mode="raise");
    d = x.copy();
    np.put(d, ix, e);
    return (a, b, c, d);
}
"""
    rng = np.random.default_rng(7)
    x, ix, v = rng.standard_normal(8), np.array([1, -1, 3, 1, 5, 0]), rng.standard_normal(4)
    xi, e = rng.integers(-9, 9, 8), np.zeros(0)
    got = run_ok(src, {"x": x, "ix": ix, "v": v, "xi": xi, "e": e}, tmp_path, target)
    a = x.copy(); np.put(a, ix, v)
    b = x.copy(); np.put(b, -2, 9.0)
    c = xi.copy(); np.put(c, ix, v * 10.0, mode="raise")
    d = x.copy(); np.put(d, ix, e)
    for i, (gv, want) in enumerate(zip(got, [a, b, c, d])):
        assert_same(gv, want, f"result {i}")


def test_put_errors(tmp_path):
    """An index out of range is NumPy's IndexError at run time; `mode="wrap"` and a 2-d array
    are refused with the arrayc way (E0321)."""
    assert raises(lambda: np.put(np.zeros(4), [4], 1.0))
    src = "fn main(z: f64[n], ix: i64[k]) -> f64[n] {\n    np.put(z, ix, 1.0);\n    return z;\n}\n"
    run_fails(src, {"z": np.zeros(4), "ix": np.array([4])}, tmp_path / "a", "out of")
    assert_check_error("fn main(z: f64[n], ix: i64[k]) -> i64 {\n    np.put(z, ix, 1.0, mode=\"wrap\");\n    return 0;\n}\n",
                       "E0321", "mode", tmp_path)
    assert_check_error("fn main(z: f64[r, c], ix: i64[k]) -> i64 {\n    np.put(z, ix, 1.0);\n    return 0;\n}\n",
                       "E0321", "unravel_index", tmp_path)


def test_write_functions_shadowed_by_the_program(tmp_path):
    """A function of the program named `put` is called, not NumPy's (`np.put` still is)."""
    src = """fn put(a: f64[n], i: i64, v: f64) -> f64 {
    return v * 2.0;
}

fn main(x: f64[n]) -> f64[n] {
    let z = x.copy();
    put(z, 0, 5.0);
    np.put(z, 1, 5.0);
    return z;
}
"""
    x = np.arange(4.0)
    proc, got = run_source(src, {"x": x}, tmp_path)
    assert proc.returncode == 0, proc.stderr
    want = x.copy(); np.put(want, 1, 5.0)
    assert_same(got[0], want, "shadowed put")


@pytest.mark.parametrize("target", TARGETS)
def test_trim_zeros_matches_numpy(target, tmp_path):
    """`trim_zeros` of a 1-d array of a run-time size, `trim` "fb", "f", "b" (by position and
    keyword): a view (a write through it reaches the argument), NaN is nonzero, all zeros and an
    empty array give an empty result."""
    src = """fn main(x: i64[n], y: f64[k], z: f64[p]) -> (i64[?], i64[?], i64[?], f64[?], f64[?], f64[?], f64[?], i64[n]) {
    let w = x.copy();
    let v = np.trim_zeros(w);
    v[0] = 100;
    return (np.trim_zeros(x), np.trim_zeros(x, 'f'), trim_zeros(x, trim="b"), np.trim_zeros(y), np.trim_zeros(y, "b"),
            np.trim_zeros(z), np.trim_zeros(z, "f"), w);
}
"""
    x, y = np.array([0, 0, 3, 0, 5, 0, 0]), np.array([0.0, np.nan, 0.0, 2.0, 0.0])
    for i, z in enumerate([np.zeros(4), np.zeros(0), np.array([1.0, 0.0])]):
        got = run_ok(src, {"x": x, "y": y, "z": z}, tmp_path / str(i), target)
        w = x.copy()
        np.trim_zeros(w)[0] = 100
        want = [np.trim_zeros(x), np.trim_zeros(x, 'f'), np.trim_zeros(x, trim="b"), np.trim_zeros(y),
                np.trim_zeros(y, "b"), np.trim_zeros(z), np.trim_zeros(z, "f"), w]
        for j, (g, wv) in enumerate(zip(got, want)):
            assert_same(g, wv, f"input {i}, result {j}")


def test_trim_zeros_refusals(tmp_path):
    """A 2-d array (NumPy 2.4 trims every axis) is an error, not a 1-d trim; an unknown `trim`
    gets the help naming the spellings arrayc takes."""
    assert_check_error("fn main(m: f64[r, c]) -> f64[?, ?] {\n    return np.trim_zeros(m);\n}\n",
                       "E0401", "concatenate", tmp_path)
    assert_check_error("fn main(x: f64[n]) -> f64[?] {\n    return np.trim_zeros(x, 'x');\n}\n",
                       "E0202", "\"fb\"", tmp_path)

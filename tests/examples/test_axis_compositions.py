"""NumPy calls of issue 31 that arrayc composes from its builtins (docs/language.md, "Builtin
functions"), against NumPy: `repeat` with an array of counts (a result size known only at run
time), `roll` along several axes, `reshape(order='F')`, `trace` with an offset and
`linalg.multi_dot`; on the CPU and on the GPU kernels (emulated, and the GPU where there is one).
"""
import numpy as np
import pytest

from arrayc_examples import TARGETS, assert_check_error, assert_same, run_fails, run_ok


@pytest.mark.parametrize("target", TARGETS)
def test_repeat_with_counts_matches_numpy(target, tmp_path):
    """`repeat` with a count per item (zeros among them), along an axis and of the flattened
    array, one count for all (`[2]`), bool counts, the method spelling, `u8` counts."""
    rng = np.random.default_rng(3)
    v = rng.standard_normal(5)
    m = rng.integers(-9, 9, (3, 4))
    c = np.array([2, 0, 3, 1, 0])
    cm = np.array([0, 2, 1, 3])
    flat = rng.integers(0, 3, 12)
    src = """fn main(v: f64[n], m: i64[r, k], c: i64[n], cm: i64[k], flat: i64[f]) ->
        (f64[?], i64[?, ?], i64[?, ?], i64[?, ?], i64[?], f64[?], f64[?], f64[?], f64[?]) {
    return (np.repeat(v, c), np.repeat(m, cm, axis=1), np.repeat(m, [1, 0, 2], axis=0), np.repeat(m, [2], axis=-1),
            np.repeat(m, flat), v.repeat(c), np.repeat(v, c > 1), np.repeat(v, u8(c)), np.repeat(v[:0], c[:0]));
}
"""
    got = run_ok(src, dict(v=v, m=m, c=c, cm=cm, flat=flat), tmp_path, target)
    want = [np.repeat(v, c), np.repeat(m, cm, axis=1), np.repeat(m, [1, 0, 2], axis=0), np.repeat(m, [2], axis=-1),
            np.repeat(m, flat), v.repeat(c), np.repeat(v, c > 1), np.repeat(v, c.astype(np.uint8)),
            np.repeat(v[:0], c[:0])]
    for k, (g, w) in enumerate(zip(got, want)):
        assert_same(g, w, f"result {k}")


def test_repeat_with_counts_errors(tmp_path):
    """NumPy's errors: negative counts and counts of another size (ValueError, at run time, naming
    the line), float, 2-d and `u64` counts (TypeError: E0406), a size provably wrong (E0401)."""
    v = np.arange(4.0)
    src = "fn main(v: f64[n], c: i64[m]) -> f64[?] {\n    return np.repeat(v, c);\n}\n"
    run_fails(src, dict(v=v, c=np.array([1, -1, 0, 2])), tmp_path, "repeats may not contain negative values")
    run_fails(src, dict(v=v, c=np.array([1, 2])), tmp_path, "could not be broadcast")
    for counts in ["[1.0, 2.0]", "np.ones((2, 2), dtype=np.int64)", "u64(c)"]:
        bad = f"fn main(v: f64[n], c: i64[m]) -> f64[?] {{\n    return np.repeat(v, {counts});\n}}\n"
        assert_check_error(bad, "E0406", "", tmp_path)
    bad = "fn main(v: f64[4]) -> f64[?] {\n    return np.repeat(v, [1, 2, 3]);\n}\n"
    assert_check_error(bad, "E0401", "", tmp_path)


@pytest.mark.parametrize("target", TARGETS)
def test_roll_reshape_trace_multi_dot_match_numpy(target, tmp_path):
    """`roll` of tuples (by keyword and by position, one shift for two axes, one axis named
    twice, negative axes), `reshape(order='F')` (a shape tuple, sizes as arguments, `-1`, the
    method, 3-d, `order='C'`), `trace` with offsets (beyond the matrix too), `multi_dot`."""
    rng = np.random.default_rng(5)
    m = rng.standard_normal((4, 6))
    t = np.arange(24).reshape(2, 3, 4)
    a = rng.standard_normal((3, 5))
    b = rng.standard_normal((5, 2))
    src = """fn main(m: f64[r, c], t: i64[p, q, s], a: f64[i, j], b: f64[j, k]) ->
        (f64[?, ?], f64[?, ?], f64[?, ?], f64[?, ?], i64[?, ?, ?],
         f64[?, ?], f64[?, ?], f64[?], i64[?, ?], i64[?, ?, ?], f64[?, ?],
         f64, f64, f64, i64, f64[?, ?], f64[?]) {
    return (np.roll(m, (1, 2), axis=(0, 1)), np.roll(m, (1, -2), (1, 0)), np.roll(m, 1, axis=(0, 1)),
            np.roll(m, (2, 3), axis=(1, 1)), np.roll(t, (1, -1), axis=(-1, 0)),
            np.reshape(m, (3, 8), order='F'), m.reshape(8, 3, order='F'), m.reshape(-1, order='F'),
            np.reshape(t, (4, -1), order='F'), t.reshape((4, 3, 2), order='F'), m.reshape((6, 4), order='C'),
            np.trace(m, 1), m.trace(offset=-2), np.trace(m, offset=9), np.trace(t[0], 1),
            np.linalg.multi_dot([a, b, b.T]), np.linalg.multi_dot([a[0], b, b.T, a.T]));
}
"""
    got = run_ok(src, dict(m=m, t=t, a=a, b=b), tmp_path, target)
    want = [np.roll(m, (1, 2), axis=(0, 1)), np.roll(m, (1, -2), (1, 0)), np.roll(m, 1, axis=(0, 1)),
            np.roll(m, (2, 3), axis=(1, 1)), np.roll(t, (1, -1), axis=(-1, 0)),
            np.reshape(m, (3, 8), order='F'), m.reshape(8, 3, order='F'), m.reshape(-1, order='F'),
            np.reshape(t, (4, -1), order='F'), t.reshape((4, 3, 2), order='F'), m.reshape((6, 4), order='C'),
            np.trace(m, 1), m.trace(offset=-2), np.trace(m, offset=9), np.trace(t[0], 1),
            np.linalg.multi_dot([a, b, b.T]), np.linalg.multi_dot([a[0], b, b.T, a.T])]
    for k, (g, w) in enumerate(zip(got, want)):
        if np.asarray(w).dtype.kind == "f" and k >= 15:
            # `multi_dot` multiplies from the left where NumPy may choose another order.
            assert np.asarray(g).shape == np.asarray(w).shape, f"result {k}"
            np.testing.assert_allclose(g, w, rtol=1e-12, atol=1e-12, err_msg=f"result {k}")
        else:
            assert_same(g, w, f"result {k}")

"""NumPy's everyday idioms of issue 31, eighth set, against NumPy (docs/language.md, "Builtin
functions"): the parts of a real array (`x.real`, `x.imag`, `np.real`, `np.imag`, `x.conj()`),
`x.item(k)` and `x.item(i, j)`, the method `x.searchsorted(v)` and `sorter=`, `np.cov(bias=True)`,
`np.block`, `np.polyder`, `np.polyint`;
on the CPU and on the GPU kernels (emulated, and the GPU where there is one)."""
import numpy as np
import pytest

from arrayc_examples import TARGETS, assert_check_error, assert_same, run_ok


@pytest.mark.parametrize("target", TARGETS)
def test_parts_items_search_cov_match_numpy(target, tmp_path):
    rng = np.random.default_rng(29)
    x = rng.standard_normal(9)
    m = rng.standard_normal((3, 5))
    k = rng.integers(-5, 5, 6)
    src = """fn main(x: f64[n], m: f64[r, c], k: i64[j]) ->
        (f64[?], f64[?], f64[?, ?], i64[?], i64[?], f64, f64, i64, i64, i64[?], f64[?, ?], f64[?, ?], f64[?]) {
    z = x.copy();
    r = z.real;
    r[0] = 42.0;
    s = np.sort(x);
    return (z, x.imag + np.imag(x), np.real(m), k.conj(), np.conjugate(k), m.item(7), m.item(2, 4), k.item(3),
            s.searchsorted(0.0), s.searchsorted(x, side='right'), np.cov(m, bias=True), np.cov(m[0], m[1], bias=True, ddof=1),
            np.array([np.searchsorted(x, v, sorter=np.argsort(x)) * 1.0 for v in [-1.0, 0.0, 0.5]]));
}
"""
    got = run_ok(src, dict(x=x, m=m, k=k), tmp_path, target)
    z = x.copy()
    r = z.real
    r[0] = 42.0
    s = np.sort(x)
    want = [z, x.imag + np.imag(x), np.real(m), k.conj(), np.conjugate(k), m.item(7), m.item(2, 4), np.int64(k.item(3)),
            s.searchsorted(0.0), s.searchsorted(x, side='right'), np.cov(m, bias=True),
            np.cov(m[0], m[1], bias=True, ddof=1),
            np.array([np.searchsorted(x, v, sorter=np.argsort(x)) * 1.0 for v in [-1.0, 0.0, 0.5]])]
    for i, (g, w) in enumerate(zip(got, want)):
        if i in (10, 11):
            assert np.asarray(g).shape == np.asarray(w).shape, f"result {i}"
            np.testing.assert_allclose(g, w, rtol=1e-12, atol=1e-14, err_msg=f"result {i}")
        else:
            assert_same(g, w, f"result {i}")


@pytest.mark.parametrize("target", TARGETS)
def test_block_polyder_polyint_match_numpy(target, tmp_path):
    """`block` of a list (scalars among the items) and of rows (1-d items as rows, blocks of
    several shapes); `polyder`/`polyint` once, `m` times by position and keyword, of a list and of
    a run-time array (one coefficient too)."""
    rng = np.random.default_rng(31)
    v = rng.standard_normal(4)
    m = rng.standard_normal((2, 2))
    src = """fn main(v: f64[n], m: f64[r, c]) -> (f64[?], f64[?, ?], f64[?, ?], f64[?, ?],
        f64[?], i64[?], i64[?], f64[?], f64[?], f64[?], f64[?]) {
    return (np.block([v, 3.0, v]), np.block([[m, m], [m, m]]), np.block([[v], [v]]),
            np.block([[m, np.zeros((2, 1))], [np.ones((1, 2)), 7.0]]),
            np.polyder(v, 2), np.polyder([1, 2, 3]), np.polyder([5]), np.polyint(v, m=2), np.polyint([3, 2, 1]),
            np.polyder(v, 0), np.polyint(v[:1]));
}
"""
    got = run_ok(src, dict(v=v, m=m), tmp_path, target)
    want = [np.block([v, 3.0, v]), np.block([[m, m], [m, m]]), np.block([[v], [v]]),
            np.block([[m, np.zeros((2, 1))], [np.ones((1, 2)), 7.0]]),
            np.polyder(v, 2), np.polyder([1, 2, 3]), np.polyder([5]), np.polyint(v, m=2), np.polyint([3, 2, 1]),
            np.polyder(v, 0), np.polyint(v[:1])]
    for i, (g, w) in enumerate(zip(got, want)):
        assert_same(g, w, f"result {i}")


def test_gradient_unpacked_into_too_few_names(tmp_path):
    """`gy, gx = np.gradient(f)` of a 3-d `f` (three gradients) is NumPy's ValueError (too many
    values to unpack): E0309, where it used to give the first two."""
    src = "fn main(f: f64[a, b, c]) -> f64[?, ?, ?] {\n    gy, gx = np.gradient(f);\n    return gy + gx;\n}\n"
    assert_check_error(src, "E0309", "", tmp_path)


@pytest.mark.parametrize("target", TARGETS)
def test_ravel_is_a_view_only_of_contiguous_arrays(target, tmp_path):
    """NumPy's `ravel` is a view only of a C-contiguous array: writes through it reach the base of
    a parameter, a copy, rows `m[1:]`, `m.T.ravel(order='F')`; not of `z[::2]`, `z[::-1]`,
    `m[:, ::2]`, `m.T` (copies, the write is lost), whatever the lowering can tell."""
    rng = np.random.default_rng(37)
    x = rng.standard_normal(8)
    m = rng.standard_normal((3, 4))

    def numpy(x, m):
        x, m = x.copy(), m.copy()
        outs = []
        for view in (lambda: x, lambda: x[::2], lambda: x[::-1], lambda: m[1:], lambda: m[:, ::2], lambda: m.T):
            v = view()
            r = v.ravel()
            r[0] = -100.0
            outs.append(r.copy())
        r = m.T.ravel(order='F')
        r[1] = 55.0
        return [x, m] + outs

    src = """fn main(x: f64[n], m: f64[r, c]) -> (f64[?], f64[?, ?], f64[?], f64[?], f64[?], f64[?], f64[?], f64[?]) {
    r0 = x.ravel();
    r0[0] = -100.0;
    r1 = x[::2].ravel();
    r1[0] = -100.0;
    r2 = np.ravel(x[::-1]);
    r2[0] = -100.0;
    r3 = m[1:].ravel();
    r3[0] = -100.0;
    r4 = m[:, ::2].ravel();
    r4[0] = -100.0;
    r5 = m.T.ravel();
    r5[0] = -100.0;
    r6 = m.T.ravel(order='F');
    r6[1] = 55.0;
    return x, m, r0.copy(), r1.copy(), r2.copy(), r3.copy(), r4.copy(), r5.copy();
}
"""
    got = run_ok(src, dict(x=x, m=m), tmp_path, target)
    for i, (g, w) in enumerate(zip(got, numpy(x, m))):
        assert_same(g, w, f"result {i}")


@pytest.mark.parametrize("target", TARGETS)
def test_apply_along_axis_of_numpy_functions(target, tmp_path):
    """`np.apply_along_axis(f, k, x)` of NumPy's functions along an axis (reductions, sorts, scans,
    `diff`): `f(x, axis=k)`, NumPy's values, dtypes and shapes."""
    rng = np.random.default_rng(41)
    m = rng.standard_normal((3, 4))
    k = rng.integers(-9, 9, (3, 4))
    src = """fn main(m: f64[r, c], k: i64[r, c]) -> (f64[?], f64[?], i64[?], f64[?, ?], i64[?, ?], f64[?, ?], bool[?], f64[?]) {
    return (np.apply_along_axis(np.sum, 1, m), np.apply_along_axis(np.mean, 0, k), np.apply_along_axis(np.argmax, 1, m),
            np.apply_along_axis(np.sort, 0, m), np.apply_along_axis(np.cumsum, 1, k), np.apply_along_axis(np.diff, 0, m),
            np.apply_along_axis(np.any, 1, m > 1.0), np.apply_along_axis(np.median, -1, m));
}
"""
    got = run_ok(src, dict(m=m, k=k), tmp_path, target)
    want = [np.apply_along_axis(np.sum, 1, m), np.apply_along_axis(np.mean, 0, k), np.apply_along_axis(np.argmax, 1, m),
            np.apply_along_axis(np.sort, 0, m), np.apply_along_axis(np.cumsum, 1, k), np.apply_along_axis(np.diff, 0, m),
            np.apply_along_axis(np.any, 1, m > 1.0), np.apply_along_axis(np.median, -1, m)]
    for i, (g, w) in enumerate(zip(got, want)):
        assert np.asarray(g).dtype == w.dtype and np.asarray(g).shape == w.shape, f"result {i}"
        np.testing.assert_allclose(g, w, rtol=1e-13, atol=1e-15, err_msg=f"result {i}")


@pytest.mark.parametrize("target", TARGETS[:2])
def test_numpy_dtype_aliases_and_strings(target, tmp_path):
    """NumPy 2's aliases (`np.int_`, `np.intp`, `np.double`, `np.single`, `np.intc`, `np.uint`,
    `np.ubyte`) and the strings `np.dtype` reads (`"f8"`, `"<f4"`, `"i4"`, `"u8"`: NumPy's
    `uint64`, `"u1"`, `"?"`), the narrow integers' names and codes (`np.int16`, `"int8"`, `"<i2"`,
    `np.ushort`, `np.byte`, `"H"`) are NumPy's dtypes, compared with NumPy's results, dtypes included."""
    x = np.array([0.5, 1.5, 300.25])
    exprs = ["x.astype(np.int_)", "np.zeros(2, dtype=np.intp)", "x.astype(np.double)", "np.ones(2, np.single)",
             "x.astype(np.intc)", "x.astype(np.uint)", "np.zeros(2, dtype=np.ubyte)", "x.astype('f8')",
             "x.astype('<f4')", "np.array([1, 2], dtype='i4')", "np.zeros(2, dtype='u8')", "x.astype('u1')",
             "np.zeros(2, dtype='?')", "np.arange(3, dtype='int64')", "x.astype(np.int16)", "x.astype('int8')",
             "np.zeros(2, dtype='<i2')", "x.astype(np.uint32)", "np.ones(2, dtype=np.ushort)", "x.astype('B')",
             "np.zeros(2, dtype=np.byte)", "np.zeros(2, dtype='H')"]
    decls = {"x.astype(np.int_)": "i64[n]", "np.zeros(2, dtype=np.intp)": "i64[2]", "x.astype(np.double)": "f64[n]",
             "np.ones(2, np.single)": "f32[2]", "x.astype(np.intc)": "i32[n]", "x.astype(np.uint)": "u64[n]",
             "np.zeros(2, dtype=np.ubyte)": "u8[2]", "x.astype('f8')": "f64[n]", "x.astype('<f4')": "f32[n]",
             "np.array([1, 2], dtype='i4')": "i32[2]", "np.zeros(2, dtype='u8')": "u64[2]", "x.astype('u1')": "u8[n]",
             "np.zeros(2, dtype='?')": "bool[2]", "np.arange(3, dtype='int64')": "i64[3]",
             "x.astype(np.int16)": "i16[n]", "x.astype('int8')": "i8[n]", "np.zeros(2, dtype='<i2')": "i16[2]",
             "x.astype(np.uint32)": "u32[n]", "np.ones(2, dtype=np.ushort)": "u16[2]", "x.astype('B')": "u8[n]",
             "np.zeros(2, dtype=np.byte)": "i8[2]", "np.zeros(2, dtype='H')": "u16[2]"}
    ret = ", ".join(decls[e] for e in exprs)
    src = f"import numpy as np;\nfn main(x: f64[n]) -> ({ret}) {{\n    return ({', '.join(exprs)});\n}}\n"
    got = run_ok(src, {"x": x}, tmp_path, target)
    for e, g in zip(exprs, got):
        assert_same(g, eval(e, {"np": np, "x": x}), e)


@pytest.mark.parametrize("spelling", ["x.astype(np.float16)", "x.astype('half')", "np.zeros(2, dtype='<f2')",
                                      "x.astype('e')", "np.float16(x[0])", "x.astype(np.complex128)"])
def test_numpy_dtypes_arrayc_lacks(spelling, tmp_path):
    """NumPy's dtypes arrayc has not are E0216, naming the dtype and the arrayc dtypes to use."""
    src = f"import numpy as np;\nfn main(x: f64[n]) -> f64 {{\n    y = {spelling};\n    return 0.0;\n}}\n"
    assert_check_error(src, "E0216", "is not in arrayc", tmp_path)

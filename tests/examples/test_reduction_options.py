"""NumPy's keyword options of reductions, scans and `ravel`/`flatten` (issue 31): `prod(where=)`,
`mean(where=)`,
`min`/`max(where=, initial=)` (and the error without `initial=`), `cumsum`/`cumprod(dtype=)`,
`ravel`/`flatten(order='C'/'F')` by keyword and position; each compared with NumPy on the same
inputs (dtype, shape and values), on the CPU and on the emulated GPU target."""
import numpy as np
import pytest

from arrayc_examples import TARGETS, assert_same, run_fails, run_ok

RNG = np.random.default_rng(43)
M = RNG.standard_normal((3, 4))
U = RNG.integers(0, 256, 12).astype(np.uint8)
XI = RNG.integers(-4, 5, 12)
INPUTS = {"m": M, "u": U, "xi": XI}
SIG = "m: f64[r, c], u: u8[n], xi: i64[n]"


def check(exprs, target, tmp_path):
    """Runs `return e1, e2, ...;` and the same expressions in NumPy; each result as NumPy's."""
    ret = ", ".join(r for _, r in exprs)
    src = f"import numpy as np;\nfn main({SIG}) -> ({ret},) {{\n    return {', '.join(e for e, _ in exprs)};\n}}\n"
    got = run_ok(src, INPUTS, tmp_path, target)
    env = dict(INPUTS, np=np)
    for (e, _), g in zip(exprs, got):
        assert_same(g, eval(e, env), e)


@pytest.mark.parametrize("target", TARGETS)
def test_where_masks(target, tmp_path):
    """A mask with `prod`, `min`, `max` (along an axis too, a broadcast mask, every element masked
    out: the initial value), integer dtypes, method spellings."""
    check([("np.prod(m, where=m > 0)", "f64"), ("np.max(m, where=m < 0.5, initial=-10.0)", "f64"),
           ("np.min(m, axis=0, where=m < 0, initial=5.0)", "f64[?]"),
           ("m.max(axis=1, where=m > 100, initial=-1.0)", "f64[?]"),
           ("np.max(m, where=m[0] > 0, initial=0.0)", "f64"),
           ("np.min(xi, where=xi > 0, initial=100)", "i64"), ("np.prod(xi, where=xi != 0)", "i64"),
           ("u.max(where=u < 128, initial=0)", "u8")], target, tmp_path)


@pytest.mark.parametrize("target", TARGETS)
def test_mean_where(target, tmp_path):
    """`mean(where=)`: divided by the number selected (NaN where none is), along an axis, with
    `keepdims=`, a broadcast row mask, a scalar mask, of integers (a float64 mean) and of `u8`,
    `dtype=`."""
    import warnings
    exprs = [("np.mean(m, where=m > 0)", "f64"), ("np.mean(m, axis=1, where=m > 0.3)", "f64[?]"),
             ("m.mean(axis=0, keepdims=True, where=m < 0)", "f64[?, ?]"),
             ("np.mean(m, axis=0, where=m[0] > 0)", "f64[?]"), ("np.mean(m, where=True)", "f64"),
             ("np.mean(m, axis=1, where=False)", "f64[?]"), ("np.mean(xi, where=xi > 0)", "f64"),
             ("u.mean(where=u > 100)", "f64"), ("np.mean(m, where=m > 0, dtype=np.float32)", "f32")]
    ret = ", ".join(r for _, r in exprs)
    src = f"import numpy as np;\nfn main({SIG}) -> ({ret},) {{\n    return {', '.join(e for e, _ in exprs)};\n}}\n"
    got = run_ok(src, INPUTS, tmp_path, target)
    for (e, _), g in zip(exprs, got):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            want = np.asarray(eval(e, dict(INPUTS, np=np)))
        # A sum's order of additions is not NumPy's pairwise one: equal to rounding.
        assert g.dtype == want.dtype and g.shape == want.shape, e
        np.testing.assert_allclose(g, want, rtol=1e-6 if want.dtype == np.float32 else 1e-13, err_msg=e)


def test_min_max_where_needs_initial(tmp_path):
    """NumPy's ValueError (no identity): E0503 naming `initial=`."""
    src = f"import numpy as np;\nfn main({SIG}) -> f64 {{\n    return np.max(m, where=m > 0);\n}}\n"
    run_fails(src, INPUTS, tmp_path, "needs `initial=`")


@pytest.mark.parametrize("target", TARGETS)
def test_scan_dtypes_and_orders(target, tmp_path):
    """`dtype=` of the scans (a wider integer, a float, a narrower wrapping one), with `axis=`;
    `order='F'`/`'C'` of `ravel` and `flatten`, by keyword and by position, of a transpose too."""
    check([("np.cumsum(u, dtype=np.int64)", "i64[?]"), ("np.cumsum(u, dtype=np.uint8)", "u8[?]"),
           ("np.cumprod(xi, dtype=float)", "f64[?]"), ("np.cumsum(m, axis=1, dtype=np.float32)", "f32[?, ?]"),
           ("xi.cumsum(dtype=np.int32)", "i32[?]"),
           ("m.ravel(order='F')", "f64[?]"), ("np.ravel(m, order='C')", "f64[?]"), ("m.flatten('F')", "f64[?]"),
           ("np.ravel(m.T, 'F')", "f64[?]"), ("m.T.flatten(order='F')", "f64[?]")], target, tmp_path)

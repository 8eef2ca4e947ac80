"""Python's rebinding of a name to an array of another dtype or rank (`img = img / 255.0`,
`x = x.astype(np.float64)`, `v = v.reshape(-1)`): in the block that declared the name, a new
variable from there on (docs/language.md, Statements); inside a loop body or a branch, of a name
declared outside it, E0303. Every result is compared with the same Python function run by NumPy."""
import numpy as np
import pytest

from arrayc_examples import TARGETS, check_source, run_source

REBIND = """fn main(img: u8[H, W], x: i32[N], m: f64[R, C]) -> (f64[H, W], f64, f64[?], i32[?], f64[?], f64) {
    img = img / 255.0;
    keep = x[:2];
    x = x.astype(np.float64);
    x[0] = 100.0;
    z = (x - x.mean()) / x.std();
    m = m.reshape(-1);
    s = 0;
    s = m * 2.0;
    for i in range(2) {
        y = x * i;
        y = y.astype(int);
        s[0] += y.sum();
    }
    return img, x.sum(), z, keep, s, m.sum();
}
"""


def rebind_ref(img, x, m):
    img = img / 255.0
    keep = x[:2]
    x = x.astype(np.float64)
    x[0] = 100.0
    z = (x - x.mean()) / x.std()
    m = m.reshape(-1)
    s = 0
    s = m * 2.0
    for i in range(2):
        y = x * i
        y = y.astype(int)
        s[0] += y.sum()
    return img, x.sum(), z, keep, s, m.sum()


@pytest.mark.parametrize("target", TARGETS)
def test_rebinding_to_another_dtype_or_rank_matches_numpy(target, tmp_path):
    rng = np.random.default_rng(5)
    args = {"img": rng.integers(0, 256, (3, 4)).astype(np.uint8), "x": rng.integers(-9, 9, 5).astype(np.int32),
            "m": rng.standard_normal((2, 3))}
    want = rebind_ref(**{k: v.copy() for k, v in args.items()})
    proc, res = run_source(REBIND, args, tmp_path, flags=("--target", target))
    assert proc.returncode == 0, proc.stderr
    assert len(res) == len(want)
    for got, w in zip(res, want):
        w = np.asarray(w)
        assert got.dtype == w.dtype and got.shape == w.shape, (got.dtype, w.dtype, got.shape, w.shape)
        np.testing.assert_allclose(got, w, rtol=1e-12)


@pytest.mark.parametrize("body", [
    "for i in range(2) {\n        x = x.astype(f64);\n    }",
    "if n > 1 {\n        x = x.reshape(-1);\n    }",
    "while n > 1 {\n        x = x * 0.5;\n        n -= 1;\n    }",
])
def test_changing_a_type_inside_a_loop_or_branch_is_e0303(body, tmp_path):
    """The name's type would depend on the path taken: E0303 with its note, never a wrong result."""
    src = f"fn main(x: i64[2, 2], n: i64) -> i64 {{\n    {body}\n    return n;\n}}\n"
    proc = check_source(src, tmp_path)
    assert proc.returncode == 1 and "E0303" in proc.stderr, proc.stderr
    assert "in the block that declares" in proc.stderr and "panicked" not in proc.stderr, proc.stderr

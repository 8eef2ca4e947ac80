"""Python's rules that NumPy programs lean on (docs/language.md):
* rebinding a name to an array of another dtype or rank (`img = img / 255.0`,
  `x = x.astype(np.float64)`, `v = v.reshape(-1)`): in the block that declared the name, a new
  variable from there on; inside a loop body or a branch, of a name declared outside it, E0303;
* the truth value of a number as a condition (`if grid[i, j] and s > 3`, `while k`, `not x`).
Every result is compared with the same Python function run by NumPy."""
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


TRUTH = """fn main(n: i64, x: f64, g: i64[R, C]) -> (i64, i64, bool, f64, i64) {
    c = 0;
    k = n;
    while k {
        k -= 1;
        if k % 2 {
            c += 1;
        } elif not k and x {
            c += 100;
        }
    }
    t = not x;
    v = 1.0 if x else 2.0;
    alive = 0;
    for i in range(R) {
        for j in range(C) {
            if g[i, j] and (i > 0 or j > 0) {
                alive += 1;
            }
        }
    }
    assert n or x, "both zero";
    return c, k, t, v, alive;
}
"""


def truth_ref(n, x, g):
    c = 0
    k = n
    while k:
        k -= 1
        if k % 2:
            c += 1
        elif not k and x:
            c += 100
    t = not x
    v = 1.0 if x else 2.0
    alive = 0
    for i in range(g.shape[0]):
        for j in range(g.shape[1]):
            if g[i, j] and (i > 0 or j > 0):
                alive += 1
    assert n or x, "both zero"
    return c, k, t, v, alive


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("n,x", [(7, float("nan")), (6, -0.0), (0, 2.5), (3, 0.0)])
def test_numbers_as_conditions_match_python(n, x, target, tmp_path):
    g = np.random.default_rng(n).integers(-1, 2, (3, 4))
    proc, res = run_source(TRUTH, {"g": g}, tmp_path, flags=("--target", target, "--arg", f"n={n}", "--arg", f"x={x}"))
    assert proc.returncode == 0, proc.stderr
    assert [r.item() for r in res] == list(truth_ref(n, x, g))


def test_a_failed_assert_of_numbers_names_its_line(tmp_path):
    proc, _ = run_source(TRUTH, {"g": np.zeros((2, 2), np.int64)}, tmp_path, flags=("--arg", "n=0", "--arg", "x=0.0"))
    assert proc.returncode != 0 and "both zero" in proc.stderr and ":22:" in proc.stderr, proc.stderr


@pytest.mark.parametrize("expr", ["a or b", "a and 1.5", "(a > 0) or b"])
def test_and_or_of_numbers_as_a_value_is_e0302(expr, tmp_path):
    """Python's `a or b` of numbers gives one of the numbers: as a value arrayc refuses it, naming
    the conditional expression to write."""
    src = f"fn main(a: i64, b: f64) -> bool {{\n    v = {expr};\n    return v;\n}}\n"
    proc = check_source(src, tmp_path)
    assert proc.returncode == 1 and "E0302" in proc.stderr, proc.stderr
    assert "a if a != 0 else b" in proc.stderr and "panicked" not in proc.stderr, proc.stderr

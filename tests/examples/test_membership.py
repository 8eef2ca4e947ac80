"""Python's membership tests `in` / `not in` (issue 31), as a NumPy user writes them: of a tuple
or list written out (Python's `==`/`or`), of an array (NumPy's `(x == v).any()`), negated, chained
and mixed with `and`/`not`; each program compared with the same Python function run by NumPy, on
the CPU and on the emulated GPU target."""
import numpy as np
import pytest

from arrayc_examples import TARGETS, assert_check_error, run_source


@pytest.mark.parametrize("target", TARGETS)
def test_membership_matches_python(target, tmp_path):
    src = '''fn main(x: f64[N], k: i64[M]) -> (i64, i64, bool, bool, bool, bool, bool) {
    count = 0;
    other = 0;
    for j in k {
        if j in (1, 3, 5) {
            count += 1;
        }
        if j not in [0, 2] and not j in (7,) {
            other += 1;
        }
    }
    a = 2.5 in x;
    b = x[1] in x;
    c = 4 not in k;
    d = 0 < k[0] in (1, 2);
    e = k[0] in [4];
    return count, other, a, b, c, d, e;
}
'''

    def main(x, k):
        count = 0
        other = 0
        for j in k:
            if j in (1, 3, 5):
                count += 1
            if j not in [0, 2] and not j in (7,):
                other += 1
        a = 2.5 in x
        b = x[1] in x
        c = 4 not in k
        d = 0 < k[0] in (1, 2)
        e = k[0] in [4]
        return count, other, a, b, c, d, e

    rng = np.random.default_rng(3)
    for x, k in [
        (np.array([0.5, 2.5, -1.0]), np.array([1, 2, 3, 7, 0, 5, 9, 4])),
        (rng.standard_normal(6), rng.integers(0, 8, 11)),
        (np.array([1.0, 2.0]), np.array([2, 2, 6])),
    ]:
        proc, res = run_source(src, {"x": x, "k": k}, tmp_path, flags=("--target", target))
        assert proc.returncode == 0, proc.stderr
        want = main(x, k)
        assert len(res) == len(want)
        for got, w in zip(res, want):
            assert got.shape == () and got.item() == w, (got, w)


@pytest.mark.parametrize("target", TARGETS)
def test_membership_of_a_2d_array_and_a_row(target, tmp_path):
    """`v in x` of a 2-d array is NumPy's `(x == v).any()`, a row broadcast against every row."""
    src = '''fn main(x: i64[N, M], r: i64[M]) -> (bool, bool, bool) {
    return 3 in x, r in x, 99 not in x;
}
'''
    x = np.array([[1, 2, 3], [4, 5, 6]])
    for r in [np.array([7, 8, 6]), np.array([9, 9, 9])]:
        proc, res = run_source(src, {"x": x, "r": r}, tmp_path, flags=("--target", target))
        assert proc.returncode == 0, proc.stderr
        want = (3 in x, r in x, 99 not in x)
        assert [g.item() for g in res] == list(want)


def test_array_in_a_tuple_is_numpys_ambiguous_truth_value(tmp_path):
    """NumPy: `x in (1, 2)` of an array raises "truth value of an array ... is ambiguous"."""
    src = '''fn main(x: i64[N]) -> bool {
    return x in (1, 2);
}
'''
    with pytest.raises(ValueError):
        _ = np.array([1, 2]) in (1, 2)
    assert_check_error(src, "E0302", "ambiguous", tmp_path)

"""Python's loops over a tuple or list of arrays (`grammar/src/tuple_loops.rs`, docs/language.md
"Statements"): the loop's name aliases each item (in-place updates reach the arrays), items of
different shapes, names bound once to a list, `zip` and `enumerate` of them, the sections of
`np.array_split`, and comprehensions over them; each program against the same Python run by
NumPy, on the CPU and on the GPU kernels (emulated, and the GPU where there is one)."""
import numpy as np
import pytest

from arrayc_examples import TARGETS, assert_check_error, run_ok

RNG = np.random.default_rng(77)
X = RNG.standard_normal(11)

SRC = """fn main(x: f64[n]) -> (f64[n], f64[n], f64[?, ?], f64, f64[?], f64[?], f64, i64) {
    W = x.copy();
    b = x + 1.0;
    M = np.outer(x[:3], x[:4]);
    params = [W, b, M];
    grads = (x, 2.0 * x, np.ones((3, 4)));
    for p, g in zip(params, grads) {
        p -= 0.5 * g;
    }
    for p in params {
        p *= 2.0;
    }
    for k, p in enumerate([W, b]) {
        p[k] = -1.0 * k;
    }
    s = 0.0;
    for part in (x[:3], x[3:], x[::2]) {
        s += part.sum() * len(part);
    }
    parts = np.array_split(x, 4);
    means = [q.mean() for q in parts];
    maxes = [];
    for chunk in np.array_split(x, 3) {
        maxes.append(chunk.max());
    }
    return (W, b, M, s, np.array(means), np.array(maxes), part[0], k);
}
"""


def python(x):
    W = x.copy()
    b = x + 1.0
    M = np.outer(x[:3], x[:4])
    params = [W, b, M]
    grads = (x, 2.0 * x, np.ones((3, 4)))
    for p, g in zip(params, grads):
        p -= 0.5 * g
    for p in params:
        p *= 2.0
    for k, p in enumerate([W, b]):
        p[k] = -1.0 * k
    s = 0.0
    for part in (x[:3], x[3:], x[::2]):
        s += part.sum() * len(part)
    parts = np.array_split(x, 4)
    means = [q.mean() for q in parts]
    maxes = []
    for chunk in np.array_split(x, 3):
        maxes.append(chunk.max())
    return [W, b, M, np.float64(s), np.array(means), np.array(maxes), part[0], np.int64(k)]


@pytest.mark.parametrize("target", TARGETS)
def test_loops_over_tuples_of_arrays(target, tmp_path):
    got = run_ok(SRC, {"x": X}, tmp_path, target)
    want = python(X)
    assert len(got) == len(want)
    for i, (g, w) in enumerate(zip(got, want)):
        assert g.dtype == w.dtype and g.shape == w.shape, f"result {i}: {g.dtype}{g.shape}, NumPy {w.dtype}{w.shape}"
        np.testing.assert_allclose(g, w, rtol=1e-14, err_msg=f"result {i}")


def test_write_through_a_kept_loop_is_refused(tmp_path):
    """A loop over a list that stays a loop (here: `break`) would write into a copy of the item:
    E0207, where Python's write reaches the array."""
    src = """fn main(x: f64[n]) -> f64[n] {
    a = x.copy();
    for p in [a, x] {
        p += 1.0;
        if p[0] > 0.0 {
            break;
        }
    }
    return a;
}
"""
    assert_check_error(src, "E0207", "a write through `p`, which would write into a copy of a list's item", tmp_path)


def test_list_of_a_rebound_parameter_is_refused(tmp_path):
    """A list's item named by a parameter that the body binds again after the list is made is not
    what the name holds at the loop (Python's list keeps the old array): the loop stays, and its
    write through `p` is E0207 rather than a write into the wrong array."""
    src = """fn main(x: f64[n]) -> f64[n] {
    l = [x, x * 1.0];
    x = x * 2.0;
    for p in l {
        p += 1.0;
    }
    return x;
}
"""
    assert_check_error(src, "E0207", "a write through `p`", tmp_path)

"""Python's function scope for names first assigned inside a loop body or an `if` branch and read
after it (`grammar/src/function_scope.rs`, docs/language.md "Statements"): the value assigned last,
and Python's UnboundLocalError naming the read's line where the loop or branch assigned nothing;
each program against the same Python run by NumPy, on the CPU and on the GPU kernels (emulated,
and the GPU where there is one)."""
import numpy as np
import pytest

from arrayc_examples import TARGETS, assert_check_error, assert_results_close, python_ref, run_fails, run_ok

rng = np.random.default_rng(9)
x = rng.standard_normal(20)
CASES = [
("last_after_loop", """fn main(x: f64[n]) -> (f64, f64[n], f64[?]) {
    for k in range(3) {
        s = x[k] * 2.0;
        w = x * k;
        part = x[:k + 1];
    }
    return (s, w, part);
}
""", """
def ref(x):
    for k in range(3):
        s = x[k] * 2.0
        w = x * k
        part = x[:k + 1]
    return s, w, part
""", dict(x=x)),
("found_break", """fn main(x: f64[n], t: f64) -> (i64, f64) {
    for i in range(n) {
        if x[i] > t {
            idx = i;
            val = x[i];
            break;
        }
    }
    return (idx, val);
}
""", """
def ref(x, t):
    for i in range(len(x)):
        if x[i] > t:
            idx = i
            val = x[i]
            break
    return idx, val
""", dict(x=x, t=np.float64(1.0))),
("not_found", """fn main(x: f64[n], t: f64) -> i64 {
    for i in range(n) {
        if x[i] > t {
            idx = i;
            break;
        }
    }
    return idx;
}
""", """
def ref(x, t):
    for i in range(len(x)):
        if x[i] > t:
            idx = i
            break
    return idx
""", dict(x=x, t=np.float64(100.0))),
("if_no_else", """fn main(x: f64[n]) -> f64 {
    if x.sum() < 100.0 {
        y = x.max();
    }
    return y * 2.0;
}
""", """
def ref(x):
    if x.sum() < 100.0:
        y = x.max()
    return y * 2.0
""", dict(x=x)),
("branches_with_work", """fn main(x: f64[n]) -> (f64[n], f64) {
    s = np.abs(x).sum();
    if s > 0 {
        scale = 1.0 / s;
        w = x * scale;
    } else {
        scale = 0.0;
        w = x.copy();
    }
    return (w, scale);
}
""", """
def ref(x):
    s = np.abs(x).sum()
    if s > 0:
        scale = 1.0 / s
        w = x * scale
    else:
        scale = 0.0
        w = x.copy()
    return w, scale
""", dict(x=x)),
("loop_carried", """fn main(x: f64[n]) -> f64[n] {
    d = np.zeros(n);
    for i in range(n) {
        if i > 0 {
            d[i] = x[i] - prev;
        }
        prev = x[i];
    }
    return d;
}
""", """
def ref(x):
    d = np.zeros(len(x))
    for i in range(len(x)):
        if i > 0:
            d[i] = x[i] - prev
        prev = x[i]
    return d
""", dict(x=x)),
("while_residual", """fn main(A: f64[n, n], b: f64[n]) -> (f64[n], f64[n], i64) {
    x = np.zeros(n);
    err = 1.0;
    it = 0;
    while err > 1e-10 and it < 500 {
        r = b - A @ x;
        x = x + 0.1 * r;
        err = np.linalg.norm(r);
        it += 1;
    }
    return (x, r, it);
}
""", """
def ref(A, b):
    x = np.zeros(len(b)); err = 1.0; it = 0
    while err > 1e-10 and it < 500:
        r = b - A @ x
        x = x + 0.1 * r
        err = np.linalg.norm(r)
        it += 1
    return x, r, it
""", dict(A=np.eye(5) * 2 + 0.1, b=rng.standard_normal(5))),
("nested_inner", """fn main(m: f64[a, b]) -> (f64, i64, i64) {
    for i in range(a) {
        for j in range(b) {
            if m[i, j] > 1.0 {
                best = m[i, j];
                bi = i;
                bj = j;
            }
        }
    }
    return (best, bi, bj);
}
""", """
def ref(m):
    for i in range(m.shape[0]):
        for j in range(m.shape[1]):
            if m[i, j] > 1.0:
                best = m[i, j]; bi = i; bj = j
    return best, bi, bj
""", dict(m=rng.standard_normal((5, 6)))),
("for_item_after", """fn main(x: f64[n]) -> (f64, f64) {
    total = 0.0;
    for t in x {
        total += t;
        last = t;
    }
    return (total, last);
}
""", """
def ref(x):
    total = 0.0
    for t in x:
        total += t
        last = t
    return total, last
""", dict(x=x)),
("elif_chain_work", """fn main(v: f64) -> (f64, i64) {
    if v > 1.0 {
        k = 2;
        r = v * 2.0;
    } else if v > 0.0 {
        k = 1;
        r = v + 1.0;
    } else {
        k = 0;
        r = -v;
    }
    return (r, k);
}
""", """
def ref(v):
    if v > 1.0:
        k = 2; r = v * 2.0
    elif v > 0.0:
        k = 1; r = v + 1.0
    else:
        k = 0; r = -v
    return float(r), k
""", dict(v=np.float64(0.5))),
("grow_shape", """fn main(x: f64[n]) -> f64[?, ?] {
    for k in range(2, 5) {
        block = np.outer(x[:k], x[:k]);
    }
    return block;
}
""", """
def ref(x):
    for k in range(2, 5):
        block = np.outer(x[:k], x[:k])
    return block
""", dict(x=x)),
]


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("case", [c for c in CASES if c[0] != "not_found"], ids=lambda c: c[0])
def test_name_read_after_its_block(case, target, tmp_path):
    name, src, py, inputs = case
    assert_results_close(run_ok(src, inputs, tmp_path, target), python_ref(py, inputs))


def test_unassigned_name_is_unbound_local_error(tmp_path):
    """Where the loop assigned nothing (no element above `t`, or no iteration), the read after it is
    Python's UnboundLocalError, naming the read's line; a read in a branch not taken raises nothing."""
    name, src, py, inputs = next(c for c in CASES if c[0] == "not_found")
    with pytest.raises(UnboundLocalError):
        python_ref(py, inputs)
    run_fails(src, inputs, tmp_path / "a", "prog.arr:8:5: error: AssertionError: UnboundLocalError: cannot access "
              "local variable 'idx'")
    src = """fn main(v: f64[n], m: i64) -> f64 {
    for i in range(m) {
        y = v[i] * 2.0;
    }
    if m > 0 {
        return y;
    }
    return -1.0;
}
"""
    assert run_ok(src, {"v": x, "m": np.int64(0)}, tmp_path / "b") == [np.float64(-1.0)]
    assert run_ok(src, {"v": x, "m": np.int64(3)}, tmp_path / "c") == [np.float64(x[2] * 2.0)]


def test_values_of_two_ranks_are_refused(tmp_path):
    src = """fn main(v: f64[n]) -> f64 {
    for i in range(3) {
        y = v[i];
        if i > 1 {
            y = v;
        }
    }
    return y;
}
"""
    assert_check_error(src, "E0207", "this value has 0 axes where another value the name is given", tmp_path)

"""Python lists grown by `append` in loops that do other work (`grammar/src/grown_lists.rs`,
docs/language.md "Methods and attributes"), and NumPy's joins of one array, whose items along axis 0
are joined (`np.vstack(rows)` of such a list): each program against the same Python run by NumPy,
on the CPU and on the GPU kernels (emulated, and the GPU where there is one)."""
import numpy as np
import pytest

from arrayc_examples import TARGETS, assert_check_error, assert_results_close, assert_same, python_ref, run_ok


RNG = np.random.default_rng(31)
A = RNG.standard_normal((6, 6))
SPD = A @ A.T + 6 * np.eye(6)

CASES = {
    # Gradient descent keeping the loss of every step: the loop does the work, the list is a history.
    "losses": ("""fn main(A: f64[n, n], b: f64[n]) -> (f64[n], f64[?], f64, i64) {
    w = np.zeros(n);
    losses = [];
    for it in range(20) {
        r = A @ w - b;
        w = w - 0.02 * (A.T @ r);
        losses.append(0.5 * np.dot(r, r));
    }
    return (w, np.array(losses), losses[-1], len(losses));
}
""", """
def ref(A, b):
    w = np.zeros(len(b))
    losses = []
    for it in range(20):
        r = A @ w - b
        w = w - 0.02 * (A.T @ r)
        losses.append(0.5 * np.dot(r, r))
    return w, np.array(losses), losses[-1], len(losses)
""", {"A": SPD, "b": RNG.standard_normal(6)}),
    # A `while` loop of a run-time count (more than the first capacity of 8: the buffer doubles).
    "newton_history": ("""fn main(x0: f64) -> (f64, i64, f64[?], f64) {
    x = x0;
    hist = [];
    while abs(x * x - 2.0) > 1e-14 {
        x = x - (x * x - 2.0) / (2.0 * x);
        hist.append(x);
        hist.append(x * 0.5);
    }
    return (x, len(hist), np.array(hist), sum(hist));
}
""", """
def ref(x0):
    x = float(x0)
    hist = []
    while abs(x * x - 2.0) > 1e-14:
        x = x - (x * x - 2.0) / (2.0 * x)
        hist.append(x)
        hist.append(x * 0.5)
    return x, len(hist), np.array(hist), sum(hist)
""", {"x0": np.float64(1e3)}),
    # Appends in a branch, of integers; the mean of the list; an empty list's length.
    "conditional_ints": ("""fn main(v: i64[n]) -> (i64[?], f64, i64, i64) {
    evens = [];
    big = [];
    total = 0;
    for t in v {
        total += t;
        if t % 2 == 0 {
            evens.append(t);
        }
        if t > 1000 {
            big.append(t);
        }
    }
    return (np.array(evens), np.mean(evens), len(big), total);
}
""", """
def ref(v):
    evens = []; big = []; total = 0
    for t in v:
        total += t
        if t % 2 == 0:
            evens.append(t)
        if t > 1000:
            big.append(t)
    return np.array(evens), np.mean(evens), len(big), total
""", {"v": RNG.integers(0, 100, 40)}),
    # Rows appended (copies of a state the loop updates), joined by `np.array` and `np.vstack`.
    "trajectory": ("""fn main(x: f64[n]) -> (f64[?, ?], f64[?, ?], f64[?]) {
    state = x.copy();
    traj = [];
    for step in range(11) {
        state = 0.5 * (np.roll(state, 1) + np.roll(state, -1));
        traj.append(state.copy());
    }
    return (np.array(traj), np.vstack(traj), np.hstack(traj));
}
""", """
def ref(x):
    state = x.copy()
    traj = []
    for step in range(11):
        state = 0.5 * (np.roll(state, 1) + np.roll(state, -1))
        traj.append(state.copy())
    return np.array(traj), np.vstack(traj), np.hstack(traj)
""", {"x": RNG.standard_normal(7)}),
    # `break` after some appends; the list read inside the loop (`len`, `[-1]`, `[-2]`).
    "reads_in_the_loop": ("""fn main(v: f64[n]) -> (f64[?], f64, i64, f64) {
    seen = [];
    acc = 0.0;
    for t in v {
        acc += abs(t);
        if acc > 6.0 {
            break;
        }
        seen.append(acc);
        if len(seen) >= 3 {
            seen.append(seen[-1] - seen[-2]);
        }
    }
    return (np.array(seen), seen[-1], len(seen), max(seen));
}
""", """
def ref(v):
    seen = []
    acc = 0.0
    for t in v:
        acc += abs(t)
        if acc > 6.0:
            break
        seen.append(acc)
        if len(seen) >= 3:
            seen.append(seen[-1] - seen[-2])
    return np.array(seen), seen[-1], len(seen), max(seen)
""", {"v": RNG.standard_normal(30)}),
    # Items of two dtypes promote as `np.array` of the list (`int64` and `float64`: `float64`).
    "promoted_items": ("""fn main(v: f64[n]) -> f64[?] {
    out = [];
    for i in range(n) {
        k = i * 2;
        if v[i] > 0 {
            out.append(k);
        } else {
            out.append(v[i]);
        }
    }
    return np.array(out);
}
""", """
def ref(v):
    out = []
    for i in range(len(v)):
        k = i * 2
        if v[i] > 0:
            out.append(k)
        else:
            out.append(v[i])
    return np.array(out)
""", {"v": RNG.standard_normal(12)}),
    # A list of lists: each row a list grown in the inner loop, made again in each outer iteration.
    "nested_lists": ("""fn main(n: i64) -> (i64[?, ?], i64) {
    grid = [];
    for i in range(n) {
        row = [];
        for j in range(n + 1) {
            row.append(i * j - j);
        }
        grid.append(row);
    }
    g = np.array(grid);
    return (g, len(grid));
}
""", """
def ref(n):
    grid = []
    for i in range(n):
        row = []
        for j in range(n + 1):
            row.append(i * j - j)
        grid.append(row)
    g = np.array(grid)
    return g, len(grid)
""", {"n": np.int64(9)}),
    # An `f32` item keeps `float32`; the list rebound to its array after the loop.
    "rebound_f32": ("""fn main(x: f32[n]) -> f32[?] {
    out = [];
    s = x[0];
    for t in x {
        s = s * np.float32(0.5) + t;
        out.append(s);
    }
    out = np.array(out) * np.float32(2);
    return out;
}
""", """
def ref(x):
    out = []
    s = x[0]
    for t in x:
        s = s * np.float32(0.5) + t
        out.append(s)
    out = np.array(out) * np.float32(2)
    return out
""", {"x": RNG.standard_normal(10).astype(np.float32)}),
    # Lists started with items: Python ints (`int64`, read back by the appended values), and one float.
    "started_with_items": ("""fn main(n: i64, y0: f64) -> (i64[?], i64[?], f64[?]) {
    fib = [0, 1];
    for i in range(2, n) {
        fib.append(fib[-1] + fib[-2]);
    }
    k = 27;
    seq = [k];
    while k != 1 {
        if k % 2 == 0 {
            k = k // 2;
        } else {
            k = 3 * k + 1;
        }
        seq.append(k);
    }
    t = 0.0;
    y = y0;
    ys = [y];
    while t < 1.0 {
        y = y + 0.1 * (-2.0 * y);
        t += 0.1;
        ys.append(y);
    }
    return (np.array(fib), np.array(seq), np.array(ys));
}
""", """
def ref(n, y0):
    fib = [0, 1]
    for i in range(2, n):
        fib.append(fib[-1] + fib[-2])
    k = 27
    seq = [k]
    while k != 1:
        if k % 2 == 0:
            k = k // 2
        else:
            k = 3 * k + 1
        seq.append(k)
    t = 0.0
    y = float(y0)
    ys = [y]
    while t < 1.0:
        y = y + 0.1 * (-2.0 * y)
        t += 0.1
        ys.append(y)
    return np.array(fib), np.array(seq), np.array(ys)
""", {"n": np.int64(30), "y0": np.float64(1.0)}),
}


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("case", sorted(CASES))
def test_grown_list(case, target, tmp_path):
    src, py, inputs = CASES[case]
    assert_results_close(run_ok(src, inputs, tmp_path, target), python_ref(py, inputs))


def test_grown_list_errors(tmp_path):
    """Items of two ranks are E0207 (NumPy's ValueError of an inhomogeneous shape); a list used
    otherwise than by appends and reads (`pop`, `l + [x]`) keeps its `append` E0207, whose help
    names what arrayc follows."""
    ranks = "fn main(v: f64[n]) -> f64[?] {\n    out = [];\n    for t in v {\n        out.append(t * 2.0);\n" \
            "        out.append(v);\n    }\n    return np.array(out);\n}\n"
    assert_check_error(ranks, "E0207", "has 0 axes where another item of the list has 1", tmp_path)
    for use in ["x = out.pop();", "x = out + [1.0];"]:
        src = "fn main(v: f64[n]) -> f64 {\n    out = [];\n    for t in v {\n        u = t * 2.0;\n" \
              f"        out.append(u);\n    }}\n    {use}\n    return 0.0;\n}}\n"
        assert_check_error(src, "E0207", "only appended to and read", tmp_path)


JOINS = ["stack", "vstack", "hstack", "concatenate", "column_stack", "dstack"]
ARRAYS = [RNG.standard_normal(5), RNG.standard_normal((4, 3)), RNG.standard_normal((3, 2, 4)),
          RNG.standard_normal((2, 3, 2, 2))]


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("join", JOINS)
def test_join_of_one_array(join, target, tmp_path):
    """`np.vstack(x)` (and the other joins) of one array join its items along axis 0, as NumPy
    iterates an array; of every rank from 1 to 4 (`concatenate` of a 1-d array: below)."""
    for x in ARRAYS:
        if join == "concatenate" and x.ndim == 1:
            continue
        want = getattr(np, join)(x)
        ty = "f64[" + ", ".join("?" * want.ndim) + "]"
        params = "f64[" + ", ".join("abcd"[:x.ndim]) + "]"
        src = f"fn main(x: {params}) -> {ty} {{ return np.{join}(x); }}\n"
        assert_same(run_ok(src, {"x": x}, tmp_path / f"r{x.ndim}", target)[0], want, f"{join} of {x.shape}")


@pytest.mark.parametrize("axis", [0, 1, 2, -1, -3])
def test_stack_and_concatenate_of_one_array_along_an_axis(axis, tmp_path):
    x = ARRAYS[2]
    src = ("fn main(x: f64[a, b, c]) -> (f64[?, ?, ?], f64[?, ?]) { return (np.stack(x, axis=%d), "
           "np.concatenate(x, axis=%d)); }\n" % (axis, max(axis, -2) if axis < 2 else 1))
    want = [np.stack(x, axis=axis), np.concatenate(x, axis=max(axis, -2) if axis < 2 else 1)]
    for i, (g, w) in enumerate(zip(run_ok(src, {"x": x}, tmp_path), want)):
        assert_same(g, w, f"result {i}")


def test_join_of_one_array_errors(tmp_path):
    assert_check_error("fn f(x: f64[n]) -> f64[?] { return np.concatenate(x); }", "E0401",
                       "zero-dimensional arrays cannot be concatenated", tmp_path)
    assert_check_error("fn f(x: f64[n, m]) -> f64[?] { return np.concatenate(x, axis=1); }", "E0405",
                       "out of range", tmp_path)

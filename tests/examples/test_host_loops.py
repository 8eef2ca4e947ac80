"""Host loops (issue 9): scalar code, element reads and writes, and loop-carried values, which the
host executor runs from its translated register code (`exec/src/exec.rs`), compared with the same
loops in Python on NumPy arrays.

The cases cover what that translation relies on: element writes and reads through views that alias
the written array (rows, transposes, reversed slices), negative indices, values carried through
`while` and `for` loops in permuted order (a parallel assignment), an `if` with results inside a
loop, a `while` condition that is not a single comparison, nested loops over a 2-d array, calls from
a loop, and the benchmark programs of `benchmarks/host_loop/` at small sizes.
"""
from pathlib import Path

import numpy as np
import pytest

from arrayc_examples import load_results, run_arrayc, run_source

HOST_LOOP = Path(__file__).resolve().parents[2] / "benchmarks" / "host_loop"


def while_write(n):
    x = np.zeros(n)
    for i in range(n):
        x[i] = float(i) * 0.5
    return (x,)


def for_read_write(n):
    x = np.ones(n)
    for i in range(1, n):
        x[i] = x[i - 1] + float(i) * 0.5
    return (x,)


BENCHMARKS = [("while_write", while_write), ("for_write", while_write), ("for_read_write", for_read_write)]


@pytest.mark.parametrize("name,ref", BENCHMARKS, ids=[b[0] for b in BENCHMARKS])
@pytest.mark.parametrize("n", [0, 1, 2, 1000])
def test_benchmark_programs(name, ref, n, tmp_path):
    check(HOST_LOOP / f"{name}.arr", dict(n=n), ref(n), tmp_path)


def views_ref(n):
    m = np.zeros((3, n))
    row = m[1]
    for j in range(n):
        row[j] = j + 1.0  # through a row view
    t = m.T
    for j in range(n):
        t[j, 2] = t[j, 1] * 2.0  # through the transpose, reading what the row view wrote
    r = m[0, ::-1]
    for j in range(n):
        r[j] = float(j)  # through a reversed view: m[0] counts down
    x = np.zeros(n, dtype=np.int64)
    for i in range(n):
        x[-1 - i] = i  # negative indices count from the end
    return m, x


VIEWS = """
fn main(n: i64) -> (f64[3, n], i64[n]) {
    let m = zeros(3, n);
    let row = m[1];
    for j in 0..n { row[j] = f64(j) + 1.0; }
    let t = m.T;
    for j in 0..n { t[j, 2] = t[j, 1] * 2.0; }
    let r = m[0, ::-1];
    for j in 0..n { r[j] = f64(j); }
    let x = zeros(n, dtype=i64);
    for i in 0..n { x[-1 - i] = i; }
    return (m, x);
}
"""


def test_writes_through_aliasing_views(tmp_path):
    check(program(tmp_path, VIEWS), dict(n=5), views_ref(5), tmp_path)


def carried_ref(n):
    a, b, c = 1, 2, 3
    i = 0
    while i < n:
        a, b, c = b, c, a  # a rotation: every carried value moves
        i += 1
    fib0, fib1 = 0, 1
    for _ in range(n):
        fib0, fib1 = fib1, fib0 + fib1
    acc = 0.0
    k = 0
    while k < n and acc < 100.0:  # not a single comparison
        acc = acc + (3.0 if k % 2 == 0 else -1.0) * k
        k += 1
    return np.int64(a * 100 + b * 10 + c), np.int64(fib0), np.float64(acc), np.int64(k)


CARRIED = """
fn main(n: i64) -> (i64, i64, f64, i64) {
    let a = 1;
    let b = 2;
    let c = 3;
    let i = 0;
    while i < n {
        let t = a;
        a = b;
        b = c;
        c = t;
        i = i + 1;
    }
    let f0 = 0;
    let f1 = 1;
    for j in 0..n {
        let t = f0 + f1;
        f0 = f1;
        f1 = t;
    }
    let acc = 0.0;
    let k = 0;
    while k < n & acc < 100.0 {
        if k % 2 == 0 { acc = acc + 3.0 * f64(k); } else { acc = acc - f64(k); }
        k = k + 1;
    }
    return (a * 100 + b * 10 + c, f0, acc, k);
}
"""


@pytest.mark.parametrize("n", [0, 1, 2, 7, 40])
def test_loop_carried_values(n, tmp_path):
    check(program(tmp_path, CARRIED), dict(n=n), carried_ref(n), tmp_path)


def nested_ref(n):
    m = np.zeros((n, n + 1), dtype=np.float32)
    for i in range(n):
        for j in range(n + 1):
            m[i, j] = np.float32(i * 10 + j) / np.float32(3.0)
    s = np.zeros(n)
    for i in range(n):
        s[i] = float(np.sum(m[i]))  # a reduction (a kernel) per row, read by the host
    return m, s


NESTED = """
fn row_sum(m: f32[N, M], i: i64) -> f64 {
    return f64(sum(m[i]));
}

fn main(n: i64) -> (f32[n, n + 1], f64[n]) {
    let m = zeros(n, n + 1, dtype=f32);
    for i in 0..n {
        for j in 0..n + 1 {
            m[i, j] = f32(i * 10 + j) / f32(3.0);
        }
    }
    let s = zeros(n);
    for i in 0..n { s[i] = row_sum(m, i); }
    return (m, s);
}
"""


def test_nested_loops_and_calls(tmp_path):
    check(program(tmp_path, NESTED), dict(n=6), nested_ref(6), tmp_path, rtol=1e-6)


def program(tmp_path, src):
    path = tmp_path / "prog.arr"
    path.write_text(src)
    return path


def check(path, args, want, tmp_path, rtol=0.0):
    out = tmp_path / "out"
    proc = run_arrayc(path, args=args, out_dir=out)
    assert proc.returncode == 0, proc.stderr
    got = load_results(out)
    assert len(got) == len(want)
    for k, (g, w) in enumerate(zip(got, want)):
        w = np.asarray(w)
        assert g.dtype == w.dtype and g.shape == w.shape, f"result {k}: {g.dtype}{g.shape} != {w.dtype}{w.shape}"
        np.testing.assert_allclose(g, w, rtol=rtol, atol=0, err_msg=f"result {k}")


LOOP_REBINDS = [
    # The new x is written while the carried x is gathered from: one kernel, reading the old array.
    "y = x[idx]; x = where(y > x, y, x);",
    # The new array is yielded while the carried one is also written in place first.
    "x[0] = x[-1]; z = x[idx] * 2.0; x = z + x;",
    # A branch that allocates and yields, reading the carried array through a reversed view.
    "if c > 0 { x = x[::-1] + x[idx]; } else { x = x[idx] - x; }",
]


def loop_reference(body, x, idx, c, k):
    """NumPy's result of `k` iterations of the loop body `body` (one of LOOP_REBINDS)."""
    x = x.copy()
    for _ in range(k):
        if body.startswith("y ="):
            x = np.where(x[idx] > x, x[idx], x)
        elif body.startswith("x[0]"):
            x[0] = x[-1]
            x = x[idx] * 2.0 + x
        else:
            x = x[::-1] + x[idx] if c > 0 else x[idx] - x
    return x


@pytest.mark.parametrize("target", ["cpu", "gpu-emulated"])
@pytest.mark.parametrize("c", [1, -1])
@pytest.mark.parametrize("body", LOOP_REBINDS)
def test_arrays_allocated_and_yielded_in_a_loop_body(body, c, target, tmp_path):
    """An array a loop body allocates and yields has a base of its own in that body (fusion puts
    its write in one kernel with gathers of the carried array): the results stay NumPy's."""
    rng = np.random.default_rng(3)
    x = rng.standard_normal(50)
    idx = rng.integers(-50, 50, 50)
    src = f"""fn main(x: f64[n], idx: i64[n], c: i64, k: i64) -> f64[n] {{
    for t in range(k) {{
        {body}
    }}
    return x;
}}
"""
    proc, got = run_source(src, {"x": x, "idx": idx}, tmp_path,
                           flags=["--target", target, "--arg", f"c={c}", "--arg", "k=4"])
    assert proc.returncode == 0, proc.stderr
    np.testing.assert_allclose(got[0], loop_reference(body, x, idx, c, 4), rtol=1e-12)

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

from arrayc_examples import load_results, run_arrayc

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

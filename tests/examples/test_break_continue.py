"""`break` and `continue` in `for` and `while` loops (issue 31), with Python's semantics: each
program is run by arrayc on the CPU and on `--target gpu-emulated`, and its results are compared
with the same code run in Python on NumPy arrays (the reference function beside it, written as a
NumPy user writes it).

The cases: `break` in `for` and `while` loops, `continue` in both, nested loops (a `break` leaves
the inner one only), `break` and `continue` in `if`/`else` branches, the values of variables after
a `break` (the loop variable's, saved in one), arrays written in place (through views) before the
`break`, a `while` loop whose condition reads a reduction and that breaks on another condition, a
convergence loop (`for it in range(1000): ...; if err < tol: break`), `continue` as the first and
the last statement, `break` on the first iteration, loops that never run, `range` with negative
steps, `for v in x` over arrays and list literals, `while true` ended by `break`, calls in
loops with `break`, and a rank-generic function with both. Then the errors: `break` and `continue` outside a loop (E0109), in a
function's body outside any loop, also when its caller calls it from a loop.
"""
import numpy as np
import pytest

from arrayc_examples import check_source, format_arg, run_source

# Every case runs on these targets (the host runs the loops; the kernels in the loops are the
# target's).
TARGETS = ["cpu", "gpu-emulated"]


def run(src, args, target, tmp_path):
    """Runs `src` with `args` (arrays as `.npy` files, scalars as `--arg`) on `target`; its results."""
    arrays = {k: v for k, v in args.items() if isinstance(v, np.ndarray)}
    flags = ["--target", target]
    for k, v in args.items():
        if not isinstance(v, np.ndarray):
            flags += ["--arg", f"{k}={format_arg(v)}"]
    proc, res = run_source(src, arrays, tmp_path, flags=flags)
    assert proc.returncode == 0, proc.stderr
    assert "panicked" not in proc.stderr
    return res


def compare(got, want):
    assert len(got) == len(want)
    for k, (g, w) in enumerate(zip(got, want)):
        w = np.asarray(w)
        assert g.dtype == w.dtype and g.shape == w.shape, f"result {k}: {g.dtype}{g.shape} != {w.dtype}{w.shape}"
        if g.dtype.kind == "f":
            np.testing.assert_allclose(g, w, rtol=1e-12, atol=0, err_msg=f"result {k}")
        else:
            np.testing.assert_array_equal(g, w, err_msg=f"result {k}")


SEARCH = """
fn main(x: f64[N], t: f64) -> (i64, f64, i64) {
    let found = -1;
    let s = 0.0;
    let count = 0;
    for i in range(N) {
        if x[i] > t {
            found = i;
            break;
        } else {
            s += x[i];
        }
        count += 1;
    }
    return (found, s, count);
}
"""


def search(x, t):
    found = -1
    s = 0.0
    count = 0
    for i in range(len(x)):
        if x[i] > t:
            found = i
            break
        else:
            s += x[i]
        count += 1
    return np.int64(found), np.float64(s), np.int64(count)


WHILE_REDUCED = """
fn main(x: f64[N], limit: f64) -> (f64[N], i64, f64) {
    let y = copy(x);
    let it = 0;
    while sum(y) < limit {
        y *= 2.0;
        it += 1;
        if max(y) > 100.0 { break; }
    }
    return (y, it, sum(y));
}
"""


def while_reduced(x, limit):
    y = x.copy()
    it = 0
    while np.sum(y) < limit:
        y *= 2.0
        it += 1
        if np.max(y) > 100.0:
            break
    return y, np.int64(it), np.sum(y)


CONTINUE_FOR = """
fn main(x: i64[N]) -> (i64, i64, i64[N]) {
    let evens = 0;
    let total = 0;
    let y = zeros(N, dtype=i64);
    for i in 0..N {
        if x[i] % 2 == 1 { continue; }
        evens += 1;
        y[i] = x[i] * 10;
        total += x[i];
    }
    return (evens, total, y);
}
"""


def continue_for(x):
    evens = 0
    total = 0
    y = np.zeros(len(x), dtype=np.int64)
    for i in range(len(x)):
        if x[i] % 2 == 1:
            continue
        evens += 1
        y[i] = x[i] * 10
        total += x[i]
    return np.int64(evens), np.int64(total), y


CONTINUE_WHILE = """
fn main(n: i64) -> (i64, i64, i64) {
    let i = 0;
    let s = 0;
    let skipped = 0;
    while i < n {
        i += 1;
        if i % 3 == 0 {
            skipped += 1;
            continue;
        }
        s += i;
    }
    return (i, s, skipped);
}
"""


def continue_while(n):
    i = 0
    s = 0
    skipped = 0
    while i < n:
        i += 1
        if i % 3 == 0:
            skipped += 1
            continue
        s += i
    return np.int64(i), np.int64(s), np.int64(skipped)


NESTED = """
fn main(m: f64[N, M], t: f64) -> (i64[N], i64, f64[N, M]) {
    let first = zeros(N, dtype=i64) - 1;
    let visits = 0;
    let w = copy(m);
    for i in 0..N {
        for j in 0..M {
            visits += 1;
            if m[i, j] > t {
                first[i] = j;
                w[i, j:] = 0.0;
                break;
            }
        }
        if i == 2 { continue; }
        w[i, 0] += 100.0;
    }
    return (first, visits, w);
}
"""


def nested(m, t):
    n, k = m.shape
    first = np.zeros(n, dtype=np.int64) - 1
    visits = 0
    w = m.copy()
    for i in range(n):
        for j in range(k):
            visits += 1
            if m[i, j] > t:
                first[i] = j
                w[i, j:] = 0.0
                break
        if i == 2:
            continue
        w[i, 0] += 100.0
    return first, np.int64(visits), w


VIEWS = """
fn main(x: f64[N]) -> (f64[N], f64[N], i64) {
    let a = copy(x);
    let tail = a[1:];
    let b = zeros(N);
    let k = -1;
    for i in range(N - 1) {
        tail[i] = tail[i] + a[i];
        b[::-1][i] = a[i + 1];
        k = i;
        if a[i + 1] > 10.0 { break; }
    }
    return (a, b, k);
}
"""


def views(x):
    a = x.copy()
    tail = a[1:]
    b = np.zeros(len(x))
    k = -1
    for i in range(len(x) - 1):
        tail[i] = tail[i] + a[i]
        b[::-1][i] = a[i + 1]
        k = i
        if a[i + 1] > 10.0:
            break
    return a, b, np.int64(k)


CONVERGENCE = """
fn main(a: f64[N], tol: f64) -> (f64[N], i64, f64) {
    let x = ones(N);
    let err = 1.0;
    let iters = 0;
    for it in range(1000) {
        let x_new = 0.5 * (x + a / x);
        err = max(abs(x_new - x));
        x[:] = x_new;
        iters = it + 1;
        if err < tol {
            break;
        }
    }
    return (x, iters, err);
}
"""


def convergence(a, tol):
    x = np.ones(len(a))
    err = 1.0
    iters = 0
    for it in range(1000):
        x_new = 0.5 * (x + a / x)
        err = np.max(np.abs(x_new - x))
        x[:] = x_new
        iters = it + 1
        if err < tol:
            break
    return x, np.int64(iters), np.float64(err)


FIRST_LAST = """
fn main(n: i64) -> (i64, i64, i64, i64) {
    let a = 0;
    let b = 0;
    for i in 0..n {
        continue;
        a += 1;
    }
    for i in 0..n {
        b += i;
        continue;
    }
    let c = 0;
    while c < n {
        c += 2;
        continue;
    }
    let d = 0;
    for i in range(n) {
        d += 1;
        break;
        d += 100;
    }
    return (a, b, c, d);
}
"""


def first_last(n):
    a = 0
    b = 0
    for i in range(n):
        continue
        a += 1  # never runs
    for i in range(n):
        b += i
        continue
    c = 0
    while c < n:
        c += 2
        continue
    d = 0
    for i in range(n):
        d += 1
        break
        d += 100  # never runs
    return np.int64(a), np.int64(b), np.int64(c), np.int64(d)


RANGES = """
fn main(n: i64) -> (i64, i64, i64, i64) {
    let s = 0;
    let last = 0;
    for i in range(n, -1, -3) {
        if i % 2 == 0 { continue; }
        s += i;
        last = i;
        if s > 20 { break; }
    }
    let c = 0;
    for i in range(2, n, 4) {
        c += i;
        if c > 10 { break; }
    }
    let z = 0;
    for i in range(n, n - 5) {
        z += 1;
        if i > 0 { break; }
    }
    let neg = 0;
    for i in range(-1, -n - 1, -1) {
        if i == -4 { break; }
        neg += i;
    }
    return (s, last, c, z + neg);
}
"""


def ranges(n):
    s = 0
    last = 0
    for i in range(n, -1, -3):
        if i % 2 == 0:
            continue
        s += i
        last = i
        if s > 20:
            break
    c = 0
    for i in range(2, n, 4):
        c += i
        if c > 10:
            break
    z = 0
    for i in range(n, n - 5):
        z += 1
        if i > 0:
            break
    neg = 0
    for i in range(-1, -n - 1, -1):
        if i == -4:
            break
        neg += i
    return np.int64(s), np.int64(last), np.int64(c), np.int64(z + neg)


FOR_IN = """
fn main(x: f64[N], m: f64[K, 3]) -> (f64, i64, f64[K, 3], i64) {
    let s = 0.0;
    for v in x {
        if v < 0.0 { continue; }
        if v > 5.0 { break; }
        s += v;
    }
    let k = 0;
    for w in [3, 1, 4, 1, 5, 9, 2, 6] {
        if w == 5 { break; }
        k += w;
    }
    let rows = 0;
    for row in m {
        row[0] = row[1] + row[2];
        rows += 1;
        if row[0] > 1.0 { break; }
    }
    return (s, k, m, rows);
}
"""


def for_in(x, m):
    m = m.copy()
    s = 0.0
    for v in x:
        if v < 0.0:
            continue
        if v > 5.0:
            break
        s += v
    k = 0
    for w in np.array([3, 1, 4, 1, 5, 9, 2, 6]):
        if w == 5:
            break
        k += w
    rows = 0
    for row in m:
        row[0] = row[1] + row[2]
        rows += 1
        if row[0] > 1.0:
            break
    return np.float64(s), np.int64(k), m, np.int64(rows)


WHILE_TRUE = """
fn step(v: f64[N], k: i64) -> f64 {
    v[k % N] += 1.0;
    return sum(v);
}

fn main(n: i64) -> (i64, i64, f64, f64[4]) {
    let i = 0;
    while true {
        i += 1;
        if i * i > n { break; }
    }
    let v = zeros(4);
    let k = 0;
    let total = 0.0;
    while true {
        total = step(v, k);
        k += 1;
        if total >= 10.0 { break; }
        if k > 1000 { break; }
    }
    return (i, k, total, v);
}
"""


def while_true(n):
    i = 0
    while True:
        i += 1
        if i * i > n:
            break
    v = np.zeros(4)

    def step(v, k):
        v[k % len(v)] += 1.0
        return np.sum(v)

    k = 0
    total = 0.0
    while True:
        total = step(v, k)
        k += 1
        if total >= 10.0:
            break
        if k > 1000:
            break
    return np.int64(i), np.int64(k), np.float64(total), v


ELSE_CHAINS = """
fn main(x: i64[N]) -> (i64, i64, i64, i64) {
    let small = 0;
    let big = 0;
    let stop = -1;
    let after = 0;
    for i in range(N) {
        let v = x[i];
        if v < 0 {
            stop = i;
            break;
        } else if v < 10 {
            small += v;
            if v == 3 { continue; }
        } else {
            big += v;
            continue;
        }
        after += 1;
    }
    return (small, big, stop, after);
}
"""


def else_chains(x):
    small = 0
    big = 0
    stop = -1
    after = 0
    for i in range(len(x)):
        v = x[i]
        if v < 0:
            stop = i
            break
        elif v < 10:
            small += v
            if v == 3:
                continue
        else:
            big += v
            continue
        after += 1
    return np.int64(small), np.int64(big), np.int64(stop), np.int64(after)


GENERIC = """
fn positive_sum(v: f64[...]) -> f64 {
    let s = 0.0;
    for t in ravel(v) {
        if t < 0.0 { continue; }
        if t > 100.0 { break; }
        s += t;
    }
    return s;
}

fn main(x: f64[N], m: f64[K, L]) -> (f64, f64) {
    let total = 0.0;
    for i in 0..3 {
        if i == 1 { continue; }
        total += positive_sum(x);
    }
    return (total, positive_sum(m));
}
"""


def generic(x, m):
    def positive_sum(v):
        s = 0.0
        for t in np.ravel(v):
            if t < 0.0:
                continue
            if t > 100.0:
                break
            s += t
        return s

    total = 0.0
    for i in range(3):
        if i == 1:
            continue
        total += positive_sum(x)
    return np.float64(total), np.float64(positive_sum(m))


RNG = np.random.default_rng(31)
SQUARES = np.array([2.0, 9.0, 0.25, 1e4, 7.0])

CASES = [
    ("search_breaks_in_the_middle", SEARCH, search, dict(x=np.array([0.1, 0.5, 0.9, 0.2, 1.5]), t=0.8)),
    ("search_breaks_at_once", SEARCH, search, dict(x=np.array([0.1, 0.5, 0.9, 0.2, 1.5]), t=-1.0)),
    ("search_never_breaks", SEARCH, search, dict(x=np.array([0.1, 0.5, 0.9, 0.2, 1.5]), t=10.0)),
    ("search_no_iteration", SEARCH, search, dict(x=np.zeros(0), t=0.0)),
    ("while_reduced_breaks", WHILE_REDUCED, while_reduced, dict(x=np.array([1.0, 2.0, 3.0]), limit=1000.0)),
    ("while_reduced_ends", WHILE_REDUCED, while_reduced, dict(x=np.array([1.0, 2.0, 3.0]), limit=50.0)),
    ("while_reduced_no_iteration", WHILE_REDUCED, while_reduced, dict(x=np.array([1.0, 2.0, 3.0]), limit=1.0)),
    ("continue_for", CONTINUE_FOR, continue_for, dict(x=RNG.integers(-20, 20, 37))),
    ("continue_for_empty", CONTINUE_FOR, continue_for, dict(x=np.zeros(0, dtype=np.int64))),
    ("continue_while", CONTINUE_WHILE, continue_while, dict(n=10)),
    ("continue_while_no_iteration", CONTINUE_WHILE, continue_while, dict(n=0)),
    ("nested_inner_break", NESTED, nested, dict(m=RNG.random((5, 7)), t=0.8)),
    ("nested_no_break", NESTED, nested, dict(m=RNG.random((4, 3)), t=2.0)),
    ("views_break", VIEWS, views, dict(x=np.array([1.0, 2.0, 3.0, 4.0, 5.0, 6.0]))),
    ("views_no_break", VIEWS, views, dict(x=np.array([0.5, 0.25, 1.0]))),
    ("convergence", CONVERGENCE, convergence, dict(a=SQUARES, tol=1e-6)),
    ("convergence_loose", CONVERGENCE, convergence, dict(a=SQUARES, tol=0.5)),
    ("first_last", FIRST_LAST, first_last, dict(n=5)),
    ("first_last_no_iteration", FIRST_LAST, first_last, dict(n=0)),
    ("ranges", RANGES, ranges, dict(n=17)),
    ("ranges_small", RANGES, ranges, dict(n=2)),
    ("ranges_no_iteration", RANGES, ranges, dict(n=0)),
    ("for_in", FOR_IN, for_in, dict(x=np.array([1.0, -2.0, 3.0, 7.0, 1.0]), m=np.array([[0.1, 0.2, 0.3]] * 4))),
    ("for_in_breaks", FOR_IN, for_in, dict(x=np.array([-1.0, -2.0]), m=np.array([[0.0, 0.5, 0.75]] * 3))),
    ("while_true", WHILE_TRUE, while_true, dict(n=30)),
    ("else_chains", ELSE_CHAINS, else_chains, dict(x=np.array([1, 3, 12, 5, 3, 40, 2, -1, 7]))),
    ("else_chains_no_break", ELSE_CHAINS, else_chains, dict(x=np.array([3, 3, 11]))),
    ("rank_generic", GENERIC, generic,
     dict(x=np.array([1.0, -2.0, 4.0]), m=np.array([[0.5, -1.0], [200.0, 3.0], [1.0, 1.0]]))),
]


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("name,src,ref,args", CASES, ids=[c[0] for c in CASES])
def test_break_and_continue_match_python(name, src, ref, args, target, tmp_path):
    got = run(src, args, target, tmp_path)
    want = ref(**{k: (v.copy() if isinstance(v, np.ndarray) else v) for k, v in args.items()})
    compare(got, want)


def test_loops_without_break_or_continue_are_lowered_as_before(tmp_path):
    """A loop without `break` or `continue` has no flag (an `scf.for` stays one); a `for` loop with
    `continue` only stays an `scf.for`; one with `break` becomes an `scf.while`."""
    from arrayc_examples import arrayc_binary
    import subprocess

    def emit(src):
        path = tmp_path / "e.arr"
        path.write_text(src)
        proc = subprocess.run([str(arrayc_binary()), "emit", "--stage=arr", str(path)], capture_output=True, text=True)
        assert proc.returncode == 0, proc.stderr
        return proc.stdout

    plain = emit("fn main(n: i64) -> i64 { let s = 0; for i in 0..n { if i > 2 { s += i; } } return s; }")
    assert "scf.for" in plain and "scf.while" not in plain and "skip." not in plain and "break." not in plain
    cont = emit("fn main(n: i64) -> i64 { let s = 0; for i in 0..n { if i > 2 { continue; } s += i; } return s; }")
    assert "scf.for" in cont and "scf.while" not in cont
    brk = emit("fn main(n: i64) -> i64 { let s = 0; for i in 0..n { if i > 2 { break; } s += i; } return s; }")
    assert "scf.while" in brk and "scf.for" not in brk


ERRORS = [
    ("fn main() { break; }", "`break` outside a loop"),
    ("fn main(n: i64) -> i64 { if n > 0 { continue; } return n; }", "`continue` outside a loop"),
    # A function's body is outside its callers' loops (functions are top-level, as in Python).
    ("fn g(x: f64[N]) { x[0] = 1.0; break; }\nfn main() { let x = zeros(3); for i in 0..3 { g(x); } }",
     "`break` outside a loop"),
    ("fn main(n: i64) { for i in 0..n { } break; }", "`break` outside a loop"),
    # The instance of a rank-generic function, checked at its call in a loop, is outside it too.
    ("fn g(x: f64[...]) { continue; }\nfn main() { let x = zeros(3); while true { g(x); break; } }",
     "`continue` outside a loop"),
]


@pytest.mark.parametrize("src,words", ERRORS)
def test_break_and_continue_outside_a_loop_are_errors(src, words, tmp_path):
    proc = check_source(src, tmp_path)
    assert proc.returncode != 0
    assert "E0109" in proc.stderr and words in proc.stderr, proc.stderr
    assert "help" in proc.stderr.lower(), proc.stderr
    assert "panicked" not in proc.stderr


def test_break_needs_its_semicolon(tmp_path):
    proc = check_source("fn main() { while true { break } }", tmp_path)
    assert proc.returncode != 0
    assert "E0101" in proc.stderr and "`;`" in proc.stderr, proc.stderr
    assert "panicked" not in proc.stderr

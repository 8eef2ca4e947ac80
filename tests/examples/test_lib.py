"""Shared libraries (`arrayc build --lib`, issue 14): the generated Python module runs every
example case and every benchmark against the NumPy references (test_examples.py's and
test_benchmarks.py's rules); arrays pass without copies
(strided and negative-stride views, in-place writes visible to the caller, bool arrays); wrong
dtypes, ranks and sizes are clean Python errors; the generated C header compiles and its typed
wrapper gives the same results from C."""
import importlib.util
import subprocess
import sys

import numpy as np
import pytest

from arrayc_examples import EXAMPLES, REPO, arrayc_binary, assert_benchmark_matches
from test_examples import CASES, assert_case_matches, case_id

sys.path.insert(0, str(REPO / "benchmarks"))
import suite  # noqa: E402

ARRAYS = """
fn stats(x: f64[N], w: f64[N, M], k: i64 = 2) -> (f64, f64[M], f64[N]) {
    let s = sum(x * x);
    let c = sum(w, axis=0);
    return (s, c, x[::-1] * 2.0 + k);
}

fn scale(x: f64[N], s: f64) {
    x[:] = x * s;
}

fn count(b: bool[N]) -> i64 {
    return sum(b);
}
"""


def build_lib(source, name, out_dir):
    """Builds lib<name>.so from `source` into `out_dir` and imports its module."""
    lib = out_dir / f"lib{name}.so"
    proc = subprocess.run([str(arrayc_binary()), "build", "--lib", str(source), "-o", str(lib)],
                          capture_output=True, text=True)
    assert proc.returncode == 0, f"arrayc build --lib {source} failed:\n{proc.stderr}"
    spec = importlib.util.spec_from_file_location(name, out_dir / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def libs(tmp_path_factory):
    out_dir = tmp_path_factory.mktemp("libs")
    cache = {}

    def get(arr_file, root=EXAMPLES):
        if arr_file not in cache:
            name = "lib_" + arr_file.replace("/", "_").removesuffix(".arr")
            cache[arr_file] = build_lib(root / arr_file, name, out_dir)
        return cache[arr_file]

    return get


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_python_module_matches_numpy(libs, case):
    out = getattr(libs(case["file"]), case["entry"])(**case["args"])
    assert_case_matches(case, out if isinstance(out, tuple) else (out,))


@pytest.mark.parametrize("name", suite.available())
def test_python_module_runs_every_benchmark(libs, name):
    bench = suite.load(name)
    module = libs(bench.PROGRAM, root=REPO)
    out = getattr(module, bench.ENTRY)(**bench.SMALL)
    assert_benchmark_matches(name, out if isinstance(out, tuple) else (out,))


@pytest.fixture(scope="module")
def arrays(tmp_path_factory):
    d = tmp_path_factory.mktemp("arrays")
    (d / "arrays.arr").write_text(ARRAYS)
    return build_lib(d / "arrays.arr", "arrays", d), d


def test_arrays_pass_without_copies(arrays):
    m, _ = arrays
    x = np.arange(10.0)
    w = np.arange(20.0).reshape(4, 5)
    for xv, wv, k in [(x[::2][:4], w, 2), (x[::-3], w.T[:4].T, 7), (x[:4], w[::-1, ::2].T.T[:, :3], -1)]:
        s, c, r = m.stats(xv, wv, k=k)
        assert s == (xv * xv).sum()
        np.testing.assert_array_equal(c, wv.sum(axis=0))
        np.testing.assert_array_equal(r, xv[::-1] * 2.0 + k)
    y = np.arange(6.0)
    assert m.scale(y[1::2], 10.0) is None
    np.testing.assert_array_equal(y, [0.0, 10.0, 2.0, 30.0, 4.0, 50.0])  # written in place, as NumPy would
    assert m.count(np.array([True, False, True, True])) == 3
    assert m.count(np.zeros(0, dtype=bool)) == 0


def test_bad_arguments_are_python_errors(arrays):
    m, _ = arrays
    with pytest.raises(TypeError, match="dtype int64"):
        m.stats(np.arange(3), np.ones((3, 2)))
    with pytest.raises(ValueError, match="2 dimensions, but the parameter has 1"):
        m.stats(np.ones((3, 2)), np.ones((3, 2)))
    with pytest.raises(RuntimeError, match="N = 3"):
        m.stats(np.ones(3), np.ones((4, 2)))


def test_c_header_compiles_and_runs(arrays, tmp_path):
    _, d = arrays
    (tmp_path / "main.c").write_text("""
#include <stdio.h>
#include "arrays.h"
int main(void) {
    double x[3] = {1.0, 2.0, 3.0}, w[6] = {1, 2, 3, 4, 5, 6};
    int64_t xs[1] = {3}, xst[1] = {1}, ws[2] = {3, 2}, wst[2] = {2, 1};
    arrayc_value r[3];
    char error[256];
    if (arrays_stats(x, xs, xst, w, ws, wst, 2, r, error, sizeof error) != 0) { puts(error); return 1; }
    const double *c = r[1].data, *rev = r[2].data;
    printf("%g %g %g %g %g %g\\n", r[0].f, c[0], c[r[1].strides[0]], rev[0], rev[r[2].strides[0]], rev[2 * r[2].strides[0]]);
    arrayc_release(&r[1]);
    arrayc_release(&r[2]);
    double bad[2] = {0, 0};
    int64_t bs[1] = {2};
    if (arrays_stats(bad, bs, xst, w, ws, wst, 2, r, error, sizeof error) == 0) return 2;
    printf("error: %s\\n", error);
    return 0;
}
""")
    exe = tmp_path / "main"
    cc = subprocess.run(["cc", "-std=c11", "-Wall", "-Werror", "-I", str(d), str(tmp_path / "main.c"), "-L", str(d),
                         "-larrays", f"-Wl,-rpath,{d}", "-o", str(exe)], capture_output=True, text=True)
    assert cc.returncode == 0, cc.stderr
    run = subprocess.run([str(exe)], capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr
    lines = run.stdout.splitlines()
    assert lines[0] == "14 9 12 8 6 4"
    assert lines[1].startswith("error: ") and "N = 2" in lines[1]


# Issue 34: every name the language allows, whatever Python or C make of it.
KEYWORDS = """
fn class(double: f64[N], int: i64 = 3) -> f64 {
    return sum(double) + int;
}

fn numpy(x: f64[N], results: f64) {
    x[:] = x * results;
}

fn _call(ctypes: f64[N]) -> f64[N] {
    let y = ctypes[::-1];
    return y * 2.0;
}

fn ValueError(__arrayc_call: f64[N], x_shape: i64, x: f64[N]) -> f64 {
    let v = __arrayc_call[1:];
    v[:] = 1.0;
    return sum(x) + x_shape;
}

fn def(yield: f64 = 1.5, pass: bool = true, unix: i64 = 2) -> f64 {
    let r = 0.0 - yield;
    if pass {
        r = yield * unix;
    }
    return r;
}
"""

# Issue 34: which parameters a function writes, through views, calls and loops.
WRITES = """
fn fill(x: f64[N], v: f64) {
    x[:] = v;
}

fn through_a_call(a: f64[N], b: f64[M]) -> f64 {
    fill(a[::2], sum(b));
    return sum(a);
}

fn through_a_result(a: f64[N]) -> f64 {
    let t = tail(a);
    t[0] = 7.0;
    return sum(a);
}

fn tail(a: f64[N]) -> f64[?] {
    return a[1:];
}

fn reads(a: f64[N], k: i64) -> f64 {
    return sum(a) * k;
}

fn flag(b: bool) -> bool {
    return b;
}
"""


@pytest.fixture(scope="module")
def keywords(tmp_path_factory):
    d = tmp_path_factory.mktemp("keywords")
    (d / "keywords.arr").write_text(KEYWORDS)
    return build_lib(d / "keywords.arr", "keywords", d), d


@pytest.fixture(scope="module")
def writes(tmp_path_factory):
    d = tmp_path_factory.mktemp("writes")
    (d / "writes.arr").write_text(WRITES)
    return build_lib(d / "writes.arr", "writes", d), d


def test_python_keywords_and_helper_names_are_escaped(keywords):
    """Functions and parameters named like Python keywords get a trailing underscore; functions named
    like the module's helpers (`numpy`, `_call`, `ValueError`, `__arrayc_call`) shadow nothing."""
    m, _ = keywords
    assert m.class_(np.arange(4.0), int=2) == 8.0  # `int` is no keyword: a valid parameter name
    x = np.arange(3.0)
    assert m.numpy(x, 2.0) is None
    np.testing.assert_array_equal(x, [0.0, 2.0, 4.0])
    np.testing.assert_array_equal(m._call(np.arange(3.0)), [4.0, 2.0, 0.0])
    y = np.zeros(3)
    assert m.ValueError(y, 5, np.ones(3)) == 8.0
    np.testing.assert_array_equal(y, [0.0, 1.0, 1.0])
    assert m.def_() == 3.0 and m.def_(2.0, False) == -2.0 and m.def_(yield_=1.0, pass_=True, unix=4) == 4.0
    # The helpers still work after every user function ran, under their own names.
    np.testing.assert_array_equal(m._call(np.ones(2)), [2.0, 2.0])


def test_c_header_of_keyword_names_compiles_and_runs(keywords, tmp_path):
    """Parameters named `double`, `int`, `results`, `x_shape`, `unix` (a GCC macro) give a header that
    compiles under -std=c11 and GNU C, with the names escaped."""
    _, d = keywords
    header = (d / "keywords.h").read_text()
    assert "const double *double_" in header and "int64_t int_" in header and "double results_" in header
    (tmp_path / "main.c").write_text("""
#include <stdio.h>
#include "keywords.h"
int main(void) {
    double x[4] = {0, 1, 2, 3};
    int64_t shape[1] = {4}, strides[1] = {1};
    arrayc_value r[1];
    char error[256];
    if (keywords_class(x, shape, strides, 2, r, error, sizeof error) != 0) { puts(error); return 1; }
    printf("%g\\n", r[0].f);
    if (keywords_numpy(x, shape, strides, 10.0, r, error, sizeof error) != 0) { puts(error); return 1; }
    printf("%g\\n", x[3]);
    return 0;
}
""")
    for std in (["-std=c11"], []):
        exe = tmp_path / "main"
        cc = subprocess.run(["cc", *std, "-Wall", "-Werror", "-I", str(d), str(tmp_path / "main.c"), "-L", str(d),
                             "-lkeywords", f"-Wl,-rpath,{d}", "-o", str(exe)], capture_output=True, text=True)
        assert cc.returncode == 0, cc.stderr
        run = subprocess.run([str(exe)], capture_output=True, text=True)
        assert run.returncode == 0 and run.stdout.split() == ["8", "30"], run.stdout + run.stderr


@pytest.mark.parametrize("value", [2**64 + 3, 2**63, -(2**63) - 1, 10**30, 1e30])
def test_integers_out_of_range_raise_overflow_error(writes, value):
    """ctypes wraps integers silently (2**64 + 3 became 3); the module raises OverflowError, as
    `numpy.int64(value)` does."""
    m, _ = writes
    with pytest.raises(OverflowError, match="out of int64's range"):
        m.reads(np.ones(2), value)
    assert m.reads(np.ones(2), 2**63 - 1) == 2.0 * (2**63 - 1)
    assert m.reads(np.ones(2), -(2**63)) == -2.0 * 2**63
    assert m.flag(2**64) == np.True_  # a bool is the value's truth, as numpy.bool_(2**64)


def test_read_only_arrays_where_the_function_writes_raise(writes):
    """A `writeable=False` array passed where the function writes (directly, through a call of a
    view, through a call's result) is NumPy's ValueError and is not modified; where the function only
    reads, a read-only array is fine."""
    m, _ = writes
    for call in [lambda a: m.fill(a, 1.0), lambda a: m.through_a_call(a, np.ones(1)), m.through_a_result]:
        a = np.arange(4.0)
        a.flags.writeable = False
        with pytest.raises(ValueError, match="assignment destination is read-only"):
            call(a)
        np.testing.assert_array_equal(a, np.arange(4.0))
        b = np.broadcast_to(np.arange(4.0), (4,))  # read-only as NumPy makes it
        with pytest.raises(ValueError, match="assignment destination is read-only"):
            call(b)
    a = np.arange(4.0)
    a.flags.writeable = False
    assert m.reads(a, 2) == 12.0
    w = np.arange(4.0)
    assert m.through_a_call(w, np.ones(1)) == 1.0 + 1.0 + 1.0 + 3.0
    assert m.through_a_result(np.zeros(3)) == 7.0
    with pytest.raises(TypeError, match="must be a NumPy array"):
        m.fill([1.0, 2.0], 1.0)


def test_read_only_memory_map_is_an_error_not_a_crash(writes, tmp_path):
    """A read-only `numpy.memmap` (mode 'r') passed where the function writes killed Python with
    SIGSEGV; now a ValueError, in a child process so that a crash fails this test only."""
    _, d = writes
    np.save(tmp_path / "m.npy", np.arange(5.0))
    script = f"""
import sys
import numpy as np
sys.path.insert(0, {str(d)!r})
import writes
m = np.load({str(tmp_path / "m.npy")!r}, mmap_mode="r")
r = np.memmap({str(tmp_path / "raw")!r}, dtype=np.float64, mode="w+", shape=(4,))
del r
r = np.memmap({str(tmp_path / "raw")!r}, dtype=np.float64, mode="r", shape=(4,))
for a in (m, r):
    try:
        writes.fill(a, 1.0)
    except ValueError as e:
        assert "assignment destination is read-only" in str(e), e
    else:
        raise SystemExit("no error")
print(writes.reads(m, 1))
"""
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, f"exit {proc.returncode}: {proc.stderr}"
    assert proc.stdout.split() == ["10.0"]


@pytest.mark.parametrize("lib", ["libnumpy.so", "libclass.so", "libos.so", "libNone.so", "libarrayc.so"])
def test_library_names_that_make_unimportable_modules_are_refused(lib, tmp_path):
    """`-o libnumpy.so` (a module hiding NumPy), `libclass.so` (a keyword): refused with the reason,
    and nothing written."""
    (tmp_path / "p.arr").write_text("fn f(x: f64) -> f64 { return x; }\n")
    proc = subprocess.run([str(arrayc_binary()), "build", "--lib", str(tmp_path / "p.arr"), "-o", str(tmp_path / lib)],
                          capture_output=True, text=True)
    assert proc.returncode == 1 and "error: --lib" in proc.stderr and "panicked" not in proc.stderr, proc.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["p.arr"]


def test_library_fuzz_short_run():
    """A short run of `make fuzz`'s library target (tests/fuzz/libfuzz.py): random names, dtypes,
    shapes, strides, read-only and memory-mapped arrays, huge integers; no crash, no violation."""
    proc = subprocess.run([sys.executable, str(REPO / "tests" / "fuzz" / "libfuzz.py"), "--iters", "300", "--libs", "2",
                           "--seed", "34"], capture_output=True, text=True, timeout=600,
                          env={**__import__("os").environ, "ARRAYC": str(arrayc_binary())})
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "crashes 0, violations 0, harness errors 0" in proc.stdout, proc.stdout

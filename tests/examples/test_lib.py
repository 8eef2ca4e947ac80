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

"""Ahead-of-time executables (`arrayc build`, issue 14): every example case and every benchmark,
built once per program and run as a native executable with the cases' arguments, give the NumPy
references' results (the comparison rules of test_examples.py and test_benchmarks.py); the
executable needs no compiler at run time (it runs with an empty environment and no arrayc beside
it) and fails cleanly on bad arguments."""
import json
import subprocess
import sys

import numpy as np
import pytest

from arrayc_examples import EXAMPLES, REPO, arrayc_binary, assert_benchmark_matches, format_arg, load_results
from test_examples import CASES, assert_case_matches, case_id

sys.path.insert(0, str(REPO / "benchmarks"))
import suite  # noqa: E402


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """Builds (once per program and entry) into a module-wide directory; returns a builder."""
    out_dir = tmp_path_factory.mktemp("aot")
    cache = {}

    def build(program, entry):
        key = (str(program), entry)
        if key not in cache:
            exe = out_dir / f"{program.stem}-{entry}"
            proc = subprocess.run(
                [str(arrayc_binary()), "build", str(program), "--entry", entry, "-o", str(exe)],
                capture_output=True,
                text=True,
            )
            assert proc.returncode == 0, f"arrayc build {program.name} failed:\n{proc.stderr}"
            cache[key] = exe
        return cache[key]

    return build


def run_exe(exe, args, out_dir):
    cmd = [str(exe), "--out", str(out_dir)] + [f"--arg={k}={format_arg(v)}" for k, v in args.items()]
    # An empty environment: the executable needs neither arrayc, MLIR nor LLVM.
    return subprocess.run(cmd, capture_output=True, text=True, env={}, cwd=REPO, timeout=600)


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_executable_matches_numpy(built, case, tmp_path):
    exe = built(EXAMPLES / case["file"], case["entry"])
    proc = run_exe(exe, case["args"], tmp_path)
    assert proc.returncode == 0, f"{exe.name} failed ({proc.returncode}):\n{proc.stderr}"
    assert_case_matches(case, load_results(tmp_path))


@pytest.mark.parametrize("name", suite.available())
def test_benchmark_executable_matches_numpy(built, name, tmp_path):
    bench = suite.load(name)
    exe = built(REPO / bench.PROGRAM, bench.ENTRY)
    proc = run_exe(exe, bench.SMALL, tmp_path)
    assert proc.returncode == 0, f"{exe.name} failed ({proc.returncode}):\n{proc.stderr}"
    assert_benchmark_matches(name, load_results(tmp_path))


def test_specialised_executable_refuses_other_values(tmp_path):
    """`arrayc build --arg n=12`: the executable's partition assumes n = 12; it runs with it, gives the
    results of `arrayc run`, and refuses another n with the fix."""
    exe = tmp_path / "heat12"
    proc = subprocess.run([str(arrayc_binary()), "build", str(EXAMPLES / "heat.arr"), "-o", str(exe), "--arg", "n=12"],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    ok = subprocess.run([str(exe), "--arg", "n=12", "--arg", "max_iter=30"], capture_output=True, text=True)
    ref = subprocess.run([str(arrayc_binary()), "run", str(EXAMPLES / "heat.arr"), "--arg", "n=12", "--arg", "max_iter=30"],
                         capture_output=True, text=True)
    assert ok.returncode == 0 and ok.stdout == ref.stdout, ok.stderr
    bad = subprocess.run([str(exe), "--arg", "n=13"], capture_output=True, text=True)
    assert bad.returncode == 1 and "built for n=12" in bad.stderr and "panicked" not in bad.stderr, bad.stderr


def test_bad_arguments_are_clean_errors(built, tmp_path):
    exe = built(EXAMPLES / "heat.arr", "heat")
    out = tmp_path / "out"
    for args, needle in [(["--arg", "nx=3"], "no parameter `nx`"), (["--arg", "n=abc"], "not a valid i64"),
                         (["--arg", "n=-5"], "negative dimension")]:
        proc = subprocess.run([str(exe), "--out", str(out), *args], capture_output=True, text=True)
        assert proc.returncode == 1 and needle in proc.stderr and "panicked" not in proc.stderr, proc.stderr
        assert not out.exists() or not any(out.iterdir()), "a failed run left result files"


# Even and odd elements of x: `x[::2]` has ceil(n/2) elements, `t[:n // 2]` floor(n/2), the same
# size only for even n. The generic partition keeps `t`'s producer and consumer apart; the version
# for `n % 2 == 0` (wsp_fusion::versions) fuses them and contracts `t`; odd n runs the generic one.
PARITY_PROGRAM = """fn shift(n: i64 = 10) -> f64[n] {
    let x = zeros(n);
    x[::2] = 1.5;
    let t = x[::2] * 2.0 + 1.0;
    x[1::2] = t[:n // 2] * 3.0;
    return x;
}
"""


def parity_reference(n):
    x = np.zeros(n)
    x[::2] = 1.5
    t = x[::2] * 2.0 + 1.0
    x[1::2] = t[: n // 2] * 3.0
    return x


def generic_kernels(program, args):
    """{function: kernels} of `fuse-report --generic` at `args` (the function that runs only)."""
    cmd = [str(arrayc_binary()), "fuse-report", str(program), "--generic", "--format", "json"]
    cmd += [f"--arg={k}={v}" for k, v in args.items()]
    proc = subprocess.run(cmd, capture_output=True, text=True, cwd=REPO)
    assert proc.returncode == 0, proc.stderr
    out = {}
    for r in json.loads(proc.stdout)["regions"]:
        names = {op["index"]: op["name"] for op in r["ops"]}
        k = sum(1 for b in r["blocks"] if any(names[i] not in ("new", "del", "sync") for i in b))
        out[r["function"]] = out.get(r["function"], 0) + k
    return out


def test_generic_executable_versions_by_parity(tmp_path):
    """A generic executable carries the entry partitioned under `n % 2 == 0` and runs it for even
    n, the generic partition for odd n (the fallback); both give NumPy's results."""
    program = tmp_path / "shift.arr"
    program.write_text(PARITY_PROGRAM)
    exe = tmp_path / "shift"
    proc = subprocess.run([str(arrayc_binary()), "build", str(program), "-o", str(exe)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    for n in range(0, 10):
        out = tmp_path / f"out{n}"
        run = run_exe(exe, {"n": n}, out)
        assert run.returncode == 0, run.stderr
        np.testing.assert_array_equal(load_results(out)[0], parity_reference(n))
    assert generic_kernels(program, {"n": 10}) == {"shift__n_mod2_0": 3}
    assert generic_kernels(program, {"n": 11}) == {"shift": 4}


def test_generic_sor_versions_by_parity(built, tmp_path):
    """sor (red-black sub-grids of ceil(n/2) and ceil((n-1)/2)): the `--generic` partition for even
    n is the specialised one (12 kernels at LARGE, 20 without the version), its executable equals
    benchmarks/reference/sor.py at even n; at odd n the fallback runs and fails as `arrayc run`
    (and NumPy) do: the sub-grids do not broadcast."""
    bench = suite.load("sor")
    large = dict(bench.LARGE)
    assert generic_kernels(REPO / bench.PROGRAM, large) == {"sor__n_mod2_0": 12}
    assert generic_kernels(REPO / bench.PROGRAM, {**large, "n": large["n"] + 1}) == {"sor": 20}
    exe = built(REPO / bench.PROGRAM, bench.ENTRY)
    for n in (2, 4, 12):
        args = {**bench.SMALL, "n": n, "max_iter": 7}
        run = run_exe(exe, args, tmp_path / f"out{n}")
        assert run.returncode == 0, run.stderr
        assert_benchmark_matches("sor", load_results(tmp_path / f"out{n}"), args)
    odd = {**bench.SMALL, "n": 5, "max_iter": 3}
    run = run_exe(exe, odd, tmp_path / "odd")
    ref = subprocess.run([str(arrayc_binary()), "run", str(REPO / bench.PROGRAM)]
                         + [f"--arg={k}={format_arg(v)}" for k, v in odd.items()], capture_output=True, text=True, cwd=REPO)
    assert run.returncode == 1 and ref.returncode == 1 and "broadcast" in run.stderr, run.stderr
    assert run.stderr.strip().splitlines()[-1] == ref.stderr.strip().splitlines()[-1]

"""Ahead-of-time executables (`arrayc build`, issue 14): every example case and every benchmark,
built once per program and run as a native executable with the cases' arguments, give the NumPy
references' results (the comparison rules of test_examples.py and test_benchmarks.py); the
executable needs no compiler at run time (it runs with an empty environment and no arrayc beside
it) and fails cleanly on bad arguments."""
import subprocess
import sys

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

"""Differential test against NumPy with generated programs (issue 10).

A fixed set of seeds of the random program generator (tests/fuzz/arrgen.py: views with offsets and
negative steps, broadcasting, in-place writes through aliasing views, reductions, dtype mixing,
scalar control flow, scans, arg-reductions, scatters, filters, bincount, dot, ...) is compiled and run by arrayc under three configurations (the default
`optimal`+`bohrium`, `singleton`, and `greedy --generic`), and every result is compared with the
program's NumPy translation: shapes and dtypes exactly, f64 with rtol 1e-9 / atol 1e-12, f32 with
rtol 1e-4 / atol 1e-5, i64 and bool exactly (see differential.compare_results). The test expects
zero mismatches and zero arrayc errors; a failure message shows the program, the differing values
and how to reproduce it.

Reproducing a failure of seed S outside pytest (K = MAX_STMTS below):
    python3 tests/fuzz/arrgen.py S --max-stmts K          # the program and its NumPy translation
    python3 tests/fuzz/differential.py --count 1 --seed S --max-stmts K
                                                          # every fusion configuration, saved to a dir
The larger run (all configurations, many seeds) is tests/fuzz/differential.py itself.
"""
import functools
import sys
from pathlib import Path

import pytest

from arrayc_examples import arrayc_binary, load_results, run_arrayc

FUZZ = Path(__file__).resolve().parents[1] / "fuzz"
if str(FUZZ) not in sys.path:
    sys.path.insert(0, str(FUZZ))

import arrgen  # noqa: E402
from differential import compare_results, describe_values  # noqa: E402

# 10 programs x 3 configurations: 30 arrayc runs of 1 to 4 s each (JIT time grows with the
# number of kernels), about 55 s in all on the 2-core development machine.
SEEDS = list(range(1, 11))
CONFIGS = [
    ("default", []),
    ("singleton", ["--fuse", "singleton"]),
    ("greedy-generic", ["--fuse", "greedy", "--generic"]),
]
# Tags of arrgen.KNOWN_BUGS whose triggers the generator should leave out. Empty: the test sees
# the programs exactly as `differential.py --seed S` does.
AVOID = ()
# Top-level statements per program (besides 2-3 initial arrays): smaller programs than
# differential.py generates, to keep the JIT time of 36 runs within the time budget.
MAX_STMTS = 5


@functools.lru_cache(maxsize=None)
def program(seed):
    prog = arrgen.generate(seed, max_stmts=MAX_STMTS, avoid=AVOID)
    return prog, prog.numpy_results()


@pytest.mark.parametrize("name,flags", CONFIGS, ids=[c[0] for c in CONFIGS])
@pytest.mark.parametrize("seed", SEEDS)
def test_generated_program_matches_numpy(seed, name, flags, tmp_path):
    arrayc_binary()  # fails (never skips) when the compiler is missing
    prog, expected = program(seed)
    arr_file = tmp_path / f"seed{seed}.arr"
    arr_file.write_text(prog.arr)
    out_dir = tmp_path / "out"
    proc = run_arrayc(arr_file, out_dir=out_dir, flags=flags)
    where = (f"generated program of seed {seed} under `{name}` (reproduce: python3 "
             f"tests/fuzz/differential.py --count 1 --seed {seed} --max-stmts {MAX_STMTS})")
    if proc.returncode != 0:
        pytest.fail(f"arrayc failed (exit {proc.returncode}) on the {where}:\n{proc.stdout}\n{proc.stderr}\n"
                    f"--- program\n{prog.arr}", pytrace=False)
    actual = load_results(out_dir)
    problems = compare_results(actual, expected)
    if problems:
        pytest.fail(f"arrayc disagrees with NumPy on the {where}:\n  " + "\n  ".join(problems)
                    + f"\n--- program\n{prog.arr}--- NumPy translation\n{prog.py}--- values\n"
                    + describe_values(actual, expected), pytrace=False)


def test_generator_is_deterministic():
    """The same seed gives the same program (the seeds above name fixed programs)."""
    a, b = (arrgen.generate(3, max_stmts=MAX_STMTS, avoid=AVOID) for _ in range(2))
    assert a.arr == b.arr and a.py == b.py

"""Every partition algorithm and every cost model of the WSP fusion pass gives exactly the results
of the singleton partition (one kernel per array operation) on every example case.

Exact equality is the right bar: fusion changes which loop computes an element and whether a
temporary lives in memory or in a register, never the arithmetic. Each element is computed by the
same f64/f32 operations in the same order (LLVM gets no fast-math flags, so it does not contract
a*b+c into an FMA), and reductions keep their chunking (chunks depend only on the sizes), so even
sums come out bit-identical.
"""
import numpy as np
import pytest

from arrayc_examples import EXAMPLES, load_results, run_arrayc
from test_examples import CASES, case_id

# optimal + bohrium, specialized to the arguments, is the default and is covered against NumPy by
# test_examples.py. `--generic` partitions with symbolic sizes (conservative overlap).
CONFIGS = [
    ("linear", "bohrium", False),
    ("greedy", "bohrium", False),
    ("unintrusive", "bohrium", False),
    ("optimal-baseline", "bohrium", False),
    ("ilp", "bohrium", False),
    ("optimal", "max-contract", False),
    ("optimal", "max-locality", False),
    ("optimal", "robinson", False),
    ("optimal", "bohrium", True),
    ("greedy", "bohrium", True),
]


def run(case, out_dir, fuse, cost, generic=False):
    flags = ["--fuse", fuse, "--cost", cost] + (["--generic"] if generic else [])
    proc = run_arrayc(EXAMPLES / case["file"], entry=case["entry"], args=case["args"], out_dir=out_dir, flags=flags)
    assert proc.returncode == 0, f"arrayc {' '.join(flags)} failed:\n{proc.stdout}\n{proc.stderr}"
    return load_results(out_dir)


@pytest.mark.parametrize("fuse,cost,generic", CONFIGS, ids=[f"{f}-{c}" + ("-generic" if g else "") for f, c, g in CONFIGS])
@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_fused_equals_singleton(case, fuse, cost, generic, tmp_path):
    reference = run(case, tmp_path / "singleton", "singleton", "bohrium")
    fused = run(case, tmp_path / "fused", fuse, cost, generic)
    assert len(fused) == len(reference)
    for i, (a, b) in enumerate(zip(fused, reference)):
        assert a.dtype == b.dtype and a.shape == b.shape, f"result {i}"
        np.testing.assert_array_equal(a, b, err_msg=f"{case_id(case)} result {i} under {fuse}/{cost}")

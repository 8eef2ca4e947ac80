"""The benchmark suite of issue 4 (benchmarks/suite): every available benchmark's arrayc program,
run at its SMALL arguments, gives the results of its NumPy reference; all 33 Benchpress
programs (Table I's 15 and the 18 others) and issue 13's four have a module; and the harness's pure parts (memoized random inputs, the report)
work. Nothing here times anything, and nothing needs numexpr, JAX or matplotlib.

Comparison rules as in test_examples.py: exact shapes and dtypes, i64/bool equal, floats
allclose with the module's RTOL/ATOL (defaults 1e-9 and 0; a module says WHY when it differs).
"""
import sys
from pathlib import Path

import numpy as np
import pytest

from arrayc_examples import REPO, assert_benchmark_matches, load_results, run_arrayc

sys.path.insert(0, str(REPO / "benchmarks"))
import suite  # noqa: E402

AVAILABLE = suite.corpus()


def _results(out):
    return out if isinstance(out, tuple) else (out,)


@pytest.mark.parametrize("name", AVAILABLE)
def test_program_matches_numpy_at_small(name, tmp_path):
    bench = suite.load(name)
    proc = run_arrayc(REPO / bench.PROGRAM, entry=bench.ENTRY, args=bench.SMALL, out_dir=tmp_path)
    assert proc.returncode == 0, f"arrayc failed ({proc.returncode}):\n{proc.stdout}\n{proc.stderr}"
    assert_benchmark_matches(name, load_results(tmp_path))


@pytest.mark.parametrize("name", AVAILABLE)
def test_module_follows_the_contract(name):
    """The fields of benchmarks/suite/__init__.py, and files that exist."""
    bench = suite.load(name)
    for field in ("PROGRAM", "ENTRY", "REFERENCE", "SMALL", "LARGE", "MEMORY_BOUND", "jax"):
        assert hasattr(bench, field), f"{name}: no {field}"
    assert (REPO / bench.PROGRAM).is_file(), bench.PROGRAM
    assert (REPO / bench.REFERENCE).is_file(), bench.REFERENCE
    assert set(bench.SMALL) == set(bench.LARGE), "SMALL and LARGE name different parameters"
    assert hasattr(bench, "numexpr"), f"{name}: no numexpr (None with NUMEXPR_WHY if there is no version)"
    if bench.numexpr is None:
        assert getattr(bench, "NUMEXPR_WHY", ""), f"{name}: numexpr is None without NUMEXPR_WHY"
    if getattr(bench, "RTOL", 1e-9) != 1e-9 or getattr(bench, "ATOL", 0.0) != 0.0:
        assert getattr(bench, "WHY", ""), f"{name}: tolerances differ from the defaults without WHY"


def test_every_benchmark_has_a_module():
    """The 15 Benchpress programs of Table I, issue 13's programs of the new operations, and the 18
    other Benchpress programs (issue 31): 33 Benchpress programs in all."""
    missing = [n for n in suite.NAMES + suite.BENCHPRESS_MORE if n not in AVAILABLE]
    assert len(suite.NAMES) == 19 and suite.NAMES[15:] == ["spmv_ell", "histogram", "filter_points", "kmeans"]
    assert len(suite.BENCHPRESS_MORE) == 18 and not set(suite.NAMES) & set(suite.BENCHPRESS_MORE)
    assert not missing, f"benchmarks without a module in benchmarks/suite: {', '.join(missing)}"


# ---------------------------------------------------------------------------------------------
# The harness's parts that do not measure anything.

import harness  # noqa: E402  (benchmarks/ is on sys.path)


def test_memo_random_equals_the_model():
    from arrayc_random import random

    for shape, seed in [((7,), 3), ((3, 5), -2), ((1000,), 12345)]:
        expected = random(*shape, seed=seed)
        first = harness.memo_random(*shape, seed=seed)
        np.testing.assert_array_equal(first, expected)
        first[...] = -1.0  # callers get a copy: the cache is not changed
        np.testing.assert_array_equal(harness.memo_random(*shape, seed=seed), expected)
    # the chunked generation used for large inputs gives the same numbers across chunk borders
    np.testing.assert_array_equal(harness.generate_random((2, 50), 9, chunk=16), random(2, 50, seed=9))
    harness.clear_random_cache()


def test_compare():
    assert harness.compare((np.ones(3), 2), (np.ones(3), np.int64(2)), 1e-9, 0.0) is None
    assert "shape" in harness.compare((np.ones(3),), (np.ones(4),), 1e-9, 0.0)
    assert "dtype" in harness.compare((np.ones(3, dtype=np.float32),), (np.ones(3),), 1e-9, 0.0)
    assert harness.compare((np.ones(3, dtype=np.float32),), (np.ones(3),), 1e-9, 0.0, exact_dtype=False) is None
    assert "relative" in harness.compare((1.0 + 1e-6,), (1.0,), 1e-9, 0.0)
    assert "differ" in harness.compare((np.arange(3),), (np.arange(1, 4),), 1e-9, 0.0)


def _fake_results():
    def row(name, times, memory_bound, verify="ok"):
        return dict(name=name, args=dict(n=10), memory_bound=memory_bound, rtol=1e-9, atol=0.0, why="",
                    times={k: [v, v * 1.1, v * 0.9] for k, v in times.items()},
                    traffic=dict(singleton=8e9, greedy=6e9, optimal=2e9), launches=dict(singleton=9, greedy=7, optimal=2),
                    verify=dict(optimal=verify, numexpr="ok", jax="ok"), errors={}, notes=[],
                    fig14=dict(cost=costs, cost_all=costs, cost_unit="elements", regions=2, symbolic_regions=0, proven=2,
                               solve_ms_max=3.0, solve_ms_total=4.0, search_nodes=12))

    costs = dict(singleton=100, linear=60, greedy=50, unintrusive=80, optimal=40)

    fast = dict(singleton=4.0, greedy=2.0, optimal=1.0, numpy=3.0, numexpr=1.5, jax=1.2)
    slow = dict(singleton=4.0, greedy=3.0, optimal=2.5, numpy=2.0, numexpr=1.5, jax=1.2)
    return dict(date="2026-01-01T00:00+00:00", command="python3 benchmarks/harness.py", quick=False, repeats=3,
                machine=dict(cpu="Test CPU", cores=2, memory_bytes=2**34, versions=dict(numpy="2"), commit="abc",
                             kernel="6"),
                stream=dict(args=dict(n=10, iterations=4, s=3.0), time_full_s=1.0, time_zero_s=0.5,
                            traffic_full=2.2e10, traffic_zero=2e9, bandwidth=4e10, bandwidth_plain=2.2e10,
                            source="traffic line", first_touch=4e9),
                benchmarks=[row("heat", fast, True), row("black_scholes", slow, False, verify="result 0: wrong")])


def test_report_from_fake_results(tmp_path):
    results = _fake_results()
    text = harness.render_report(results)
    assert "| heat (mem) |" in text
    assert "black_scholes **FAILED**" in text
    assert "## Partition cost per algorithm" in text and "## Targets" in text
    assert "| heat | 100 | 1.000 | 0.600 | 0.500 | 0.800 | 0.400 |" in text
    # heat: optimal 1.0 s, singleton 4.0 s -> 4.00x; NumPy 3.0 s -> 3.00x; roofline 2e9 / 4e10 = 0.05 s
    heat = next(line for line in text.splitlines() if line.startswith("| heat (mem) |"))
    assert "4.00x" in heat and "3.00x" in heat and "0.05" in heat
    assert "slower on black_scholes (optimal/NumPy time 1.25)" in text
    assert f"**NOT met**: all {len(suite.NAMES)} benchmarks match NumPy" in text
    # regenerating keeps the hand-written analysis
    (tmp_path / "REPORT.md").write_text("old generated text\n## Analysis\n\nkept words\n")
    harness.write_keeping(tmp_path / "REPORT.md", text, harness.KEEP_FROM, harness.ANALYSIS_STUB)
    out = (tmp_path / "REPORT.md").read_text()
    assert out.startswith("# Benchmarks") and out.endswith("## Analysis\n\nkept words\n") and "old generated" not in out

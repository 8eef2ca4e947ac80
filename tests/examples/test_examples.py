"""Runs every example program with the compiler and compares its results with an
independent NumPy reference (examples/reference/...).

Comparison rules (see `assert_result_matches`):
  * shapes and dtypes must match exactly (NumPy 2 promotion is part of the contract);
  * i64 and bool results must be equal;
  * f64 results: rtol 1e-9, atol 0 unless the case says otherwise (with a reason).
    Elementwise results are computed with the same operations in the same order as in
    NumPy, so only the math library (exp/log/pow/sin... may differ by an ulp or two
    from NumPy's own SIMD versions) separates them: far below 1e-9.
    Reductions (sum/prod/mean, and every result derived from them) use rtol 1e-9 too,
    although the summation order differs: the compiler sums per parallel chunk and
    combines the partial sums, NumPy uses pairwise summation. The difference is bounded
    by about n * eps * sum|terms| / |sum| (eps = 1.1e-16); for the sizes used here
    (n <= 1e5 terms, sums of positive terms or, for the Leibniz series, with
    sum|terms| / |sum| < 10) that is below 1e-10, so 1e-9 still catches real errors.
  * f32 results: rtol 1e-5 (24-bit mantissa: an f32 ulp is 6e-8 relative, and an f32
    sum of a few dozen terms can differ by some ulps between summation orders).
Random numbers come from examples/reference/arrayc_random.py, a NumPy model of the
Philox4x32-10 contract, pinned below with the Random123 known-answer vectors.
"""
import numpy as np
import pytest

from arrayc_examples import (
    EXAMPLES,
    call_reference,
    function_names,
    load_results,
    parse_signature,
    result_shape_dtype,
    run_arrayc,
)

# Why some cases need an absolute tolerance besides rtol 1e-9.
LINSPACE_ZERO = (
    "linspace may be computed with a different (equally valid) formula, so a value that "
    "NumPy produces as exactly 0.0 (e.g. x - x' for two equal linspace points, sin(0)) "
    "may come out as an ulp-sized 1e-16; atol 1e-12 accepts that, rtol still checks the rest"
)

# One row per run: the .arr file (relative to examples/), the entry function (also the
# reference function's name), the parameters, and optional tolerances with a reason.
CASES = [
    dict(file="heat.arr", entry="heat", args=dict(n=10, epsilon=0.01, max_iter=2000)),  # converges after 239 sweeps
    dict(file="heat.arr", entry="heat", args=dict(n=16, epsilon=0.05, max_iter=50)),    # stops at max_iter
    dict(file="black_scholes.arr", entry="black_scholes", args=dict(n=20000, steps=10, seed=3)),
    dict(file="black_scholes.arr", entry="black_scholes", args=dict(n=1001, steps=3, seed=-5)),
    dict(file="leibnitz_pi.arr", entry="leibnitz_pi", args=dict(n=100000)),
    dict(file="leibnitz_pi.arr", entry="leibnitz_pi", args=dict(n=7)),
    dict(file="rosenbrock.arr", entry="rosenbrock", args=dict(n=100000, seed=1)),
    dict(file="rosenbrock.arr", entry="rosenbrock", args=dict(n=2, seed=7)),
    dict(file="synthetic.arr", entry="synthetic", args={}),
    dict(file="darte.arr", entry="darte", args={}),
    dict(file="darte.arr", entry="darte", args=dict(n=1000)),
    dict(file="synthetic.arr", entry="synthetic_nonzero", args={}),
    dict(file="synthetic.arr", entry="synthetic_nonzero", args=dict(scale=-0.3)),
    dict(file="features/views.arr", entry="views", args={}),
    dict(file="features/matmul.arr", entry="matmul", args={}),
    dict(file="features/matmul.arr", entry="matmul", args=dict(n=1, k=1, m=1)),
    dict(file="features/matmul.arr", entry="matmul", args=dict(n=0, k=4, m=3)),
    dict(file="features/matmul.arr", entry="matmul", args=dict(n=4, k=0, m=3)),
    dict(file="features/matmul.arr", entry="matmul", args=dict(n=3, k=5, m=0)),
    dict(file="features/matmul.arr", entry="matmul", args=dict(n=67, k=129, m=33)),
    dict(file="features/transposed_views.arr", entry="transposed_views", args={}),
    dict(file="features/transposed_views.arr", entry="transposed_views", args=dict(n=5, m=5)),
    dict(file="features/transposed_views.arr", entry="transposed_views", args=dict(n=7, m=2)),
    dict(file="features/broadcast.arr", entry="broadcast", args=dict(n=4, m=3), atol=1e-12, why=LINSPACE_ZERO),
    dict(file="features/broadcast.arr", entry="broadcast", args=dict(n=6, m=1), atol=1e-12, why=LINSPACE_ZERO),
    dict(file="features/setitem_overlap.arr", entry="setitem_overlap", args=dict(n=8)),
    dict(file="features/setitem_overlap.arr", entry="setitem_overlap", args=dict(n=3)),
    dict(file="features/indexing.arr", entry="indexing", args={}),
    dict(file="features/gather.arr", entry="gather", args={}),
    dict(file="features/gather.arr", entry="gather", args=dict(n=7)),
    dict(file="features/scans.arr", entry="scans", args={}),
    dict(file="features/scans.arr", entry="scans", args=dict(n=2, m=1)),
    dict(file="features/scans.arr", entry="scans", args=dict(n=3000, m=70)),
    dict(file="features/scans.arr", entry="arg_reductions", args={}),
    dict(file="features/scans.arr", entry="arg_reductions", args=dict(n=2, m=1)),
    dict(file="features/scans.arr", entry="arg_reductions", args=dict(n=3000, m=70)),
    dict(file="features/greedy_bottom_up_bad.arr", entry="greedy_bottom_up_bad", args=dict(n=300, m=70)),
    dict(file="features/greedy_top_down_bad.arr", entry="greedy_top_down_bad", args=dict(n=1000)),
    dict(file="features/reductions.arr", entry="reductions", args=dict(seed=3)),
    dict(file="features/reductions.arr", entry="reductions", args=dict(seed=12345)),
    dict(file="features/elementwise.arr", entry="elementwise", args=dict(n=7), atol=1e-12, why=LINSPACE_ZERO),
    dict(file="features/elementwise.arr", entry="elementwise", args=dict(n=13), atol=1e-12, why=LINSPACE_ZERO),
    dict(file="features/control.arr", entry="control", args=dict(n=12, seed=5, start=27, threshold=1.0)),
    dict(file="features/control.arr", entry="control", args=dict(n=20, seed=9, start=97, threshold=2.5)),
    dict(file="features/creation.arr", entry="creation", args=dict(n=5, seed=11)),
    dict(file="features/creation.arr", entry="creation", args=dict(n=9, seed=-1)),
]

# Every (file, entry) once, for the runs with default parameters.
ENTRIES = sorted({(c["file"], c["entry"]) for c in CASES})


def case_id(case):
    args = ",".join(f"{k}={v}" for k, v in case["args"].items())
    return f"{case['entry']}({args})"


def assert_result_matches(actual, expected, label, atol=0.0):
    expected = np.asarray(expected)
    assert actual.shape == expected.shape, f"{label}: shape {actual.shape}, expected {expected.shape}"
    assert actual.dtype == expected.dtype, f"{label}: dtype {actual.dtype}, expected {expected.dtype}"
    if expected.dtype == np.float64:
        np.testing.assert_allclose(actual, expected, rtol=1e-9, atol=atol, err_msg=label)
    elif expected.dtype == np.float32:
        np.testing.assert_allclose(actual, expected, rtol=1e-5, atol=atol, err_msg=label)
    else:  # i64, bool: exact
        np.testing.assert_array_equal(actual, expected, err_msg=label)


def assert_case_matches(case, actual):
    """Asserts that `actual` (one array or scalar per result) are the reference's results for `case`."""
    expected = call_reference(EXAMPLES / case["file"], case["entry"], case["args"])
    assert len(actual) == len(expected), f"{len(actual)} results, expected {len(expected)}"
    for i, (a, e) in enumerate(zip(actual, expected)):
        assert_result_matches(np.asarray(a), e, f"{case_id(case)} result {i}", atol=case.get("atol", 0.0))


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_matches_numpy_reference(case, tmp_path):
    arr_file = EXAMPLES / case["file"]
    proc = run_arrayc(arr_file, entry=case["entry"], args=case["args"], out_dir=tmp_path)
    assert proc.returncode == 0, f"arrayc failed ({proc.returncode}):\n{proc.stdout}\n{proc.stderr}"
    assert_case_matches(case, load_results(tmp_path))


@pytest.mark.parametrize("file,entry", ENTRIES, ids=[e for _, e in ENTRIES])
def test_runs_with_defaults(file, entry):
    """`arrayc run examples/FILE` with no --arg exits 0. --entry is passed only for files
    with more than one function (a single-function file needs none)."""
    arr_file = EXAMPLES / file
    names = function_names(arr_file)
    proc = run_arrayc(arr_file, entry=entry if len(names) > 1 else None)
    assert proc.returncode == 0, f"arrayc failed ({proc.returncode}):\n{proc.stdout}\n{proc.stderr}"


# ---------------------------------------------------------------------------------------
# Checks that need no compiler: the programs and their references agree with each other.

@pytest.mark.parametrize("file,entry", ENTRIES, ids=[e for _, e in ENTRIES])
def test_reference_defaults_match_program(file, entry):
    """Same parameter names, order and default values (and int/float/bool kind) in the
    program's entry and in the reference; every entry parameter has a default."""
    import inspect

    from arrayc_examples import reference_function

    params, _ = parse_signature(EXAMPLES / file, entry)
    sig = inspect.signature(reference_function(EXAMPLES / file, entry))
    assert [p[0] for p in params] == list(sig.parameters)
    for name, _ty, default in params:
        assert default is not None, f"{entry}: parameter {name} has no default"
        ref_default = sig.parameters[name].default
        assert type(ref_default) is type(default) and ref_default == default, (name, default, ref_default)


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_reference_matches_declared_result_types(case):
    """The reference returns as many results as the program declares, with the declared
    shapes (sizes evaluated with the case's parameters) and dtypes."""
    arr_file = EXAMPLES / case["file"]
    params, results = parse_signature(arr_file, case["entry"])
    values = {name: default for name, _, default in params}
    values.update(case["args"])
    expected = call_reference(arr_file, case["entry"], case["args"])
    assert len(expected) == len(results)
    for i, (ty, e) in enumerate(zip(results, expected)):
        shape, dtype = result_shape_dtype(ty, values)
        e = np.asarray(e)
        assert (e.shape, e.dtype) == (shape, dtype), f"result {i}: declared {ty}, reference {e.shape} {e.dtype}"


def test_entries_have_a_reference_case():
    """Every examples/**/*.arr has at least one row in CASES for its entry (the function
    named like the file)."""
    covered = {(c["file"], c["entry"]) for c in CASES}
    for path in sorted(EXAMPLES.rglob("*.arr")):
        rel = str(path.relative_to(EXAMPLES))
        assert (rel, path.stem) in covered, f"{rel}: entry {path.stem} has no row in CASES"


# ---------------------------------------------------------------------------------------
# The NumPy model of the random-number contract, pinned with Random123's known answers.

@pytest.mark.parametrize(
    "counter,key,expected",
    [
        ((0, 0, 0, 0), (0, 0), (0x6627E8D5, 0xE169C58D, 0xBC57AC4C, 0x9B00DBD8)),
        ((0xFFFFFFFF,) * 4, (0xFFFFFFFF,) * 2, (0x408F276D, 0x41C83B0E, 0xA20BC7C6, 0x6D5451FD)),
        (
            (0x243F6A88, 0x85A308D3, 0x13198A2E, 0x03707344),
            (0xA4093822, 0x299F31D0),
            (0xD16CFE09, 0x94FDCCEB, 0x5001E420, 0x24126EA1),
        ),
    ],
)
def test_philox_known_answers(counter, key, expected):
    from arrayc_random import philox4x32_10

    assert tuple(int(w) for w in philox4x32_10(counter, key)) == expected


def test_random_contract():
    from arrayc_random import philox4x32_10, random, uniform

    # uniform(seed, k) from the counter/key layout, computed here with Python integers.
    seed, k = 0x0123456789ABCDEF, (5 << 32) | 7
    o = philox4x32_10((k & 0xFFFFFFFF, k >> 32, 0, 0), (seed & 0xFFFFFFFF, seed >> 32))
    bits = ((int(o[0]) << 32) | int(o[1])) >> 11
    assert float(uniform(seed, k)) == bits * 2.0 ** -53
    # Row-major: element k of any shape is uniform(seed, k); values in [0, 1).
    r = random(3, 4, seed=9)
    assert r.shape == (3, 4) and r.dtype == np.float64
    np.testing.assert_array_equal(r.ravel(), random(12, seed=9))
    np.testing.assert_array_equal(r.ravel(), [float(uniform(9, i)) for i in range(12)])
    assert ((r >= 0.0) & (r < 1.0)).all()
    # Negative seeds are their 64-bit two's complement.
    np.testing.assert_array_equal(random(4, seed=-1), random(4, seed=(1 << 64) - 1))

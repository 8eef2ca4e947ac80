"""Kernel faults of asynchronous launches (issue 33): on the GPU a launch returns before its kernel
has run, and a fault comes out at the next point where the host waits (docs/gpu.md, "Launch";
`gpu-emulated` defers faults the same way). These programs fault in the middle of loops, before
prints, before a host error of their own and before a loop condition that reads a reduced value;
on every target the run must print what NumPy's program prints before its IndexError, report the
first fault with its own line, exit 1 and leave no result files, as the CPU's synchronous launches
do. The NumPy program each case mirrors is run too, to check where NumPy raises."""
import numpy as np
import pytest

from arrayc_examples import TARGETS, run_source

INDEX_ERROR = "error: index out of bounds for axis 0 of the indexed array (IndexError)"
X = np.arange(4.0)
IDX = np.arange(4)


def numpy_until_index_error(body):
    """Runs `body(printed)` (NumPy's version of a case, appending what it prints) and returns what it
    printed before its IndexError, which it must raise."""
    printed = []
    with pytest.raises(IndexError):
        body(printed)
    return printed


def _prints_then_faults(printed):
    x = X.copy()
    for i in range(6):
        printed.append(str(i))
        x = x[IDX + i] * 2.0


def _two_faults(printed):
    acc = np.zeros(4)
    for i in range(5):
        u = X[IDX + (i // 3) * 100]  # faults from i = 3: after the next line's fault
        y = X[IDX + i]  # faults from i = 1: the first fault
        acc = acc + u + y


def _fault_then_host_error(printed):
    for i in range(3):
        X[IDX + i] * 2.0
    for j in range(0, 3, 0):
        printed.append(str(j))


def _fault_then_condition(printed):
    y = X * 1.0
    i = 0
    while np.sum(y) < 1000.0:
        y = y[IDX + i] + 1.0
        i = i + 1


CASES = {
    # name: (program, its NumPy version, the line of the first fault)
    "prints_then_faults": (
        """fn main(x: f64[N], idx: i64[K]) -> f64 {
    for i in range(6) {
        print(i);
        x = x[idx + i] * 2.0;
    }
    return sum(x);
}
""",
        _prints_then_faults,
        4,
    ),
    "two_faults_first_reported": (
        """fn main(x: f64[N], idx: i64[K]) -> f64 {
    let acc = zeros(4);
    for i in range(5) {
        let u = x[idx + (i // 3) * 100];
        let y = x[idx + i];
        acc = acc + u + y;
    }
    return sum(acc);
}
""",
        _two_faults,
        5,
    ),
    "fault_before_host_error": (
        """fn main(x: f64[N], idx: i64[K], k: i64) -> f64 {
    let y = x;
    for i in range(3) {
        y = x[idx + i] * 2.0;
    }
    for j in range(0, 3, k - k) {
        print(j);
    }
    return sum(y);
}
""",
        _fault_then_host_error,
        4,
    ),
    "fault_before_condition_read": (
        """fn main(x: f64[N], idx: i64[K]) -> f64 {
    let y = x * 1.0;
    let i = 0;
    while sum(y) < 1000.0 {
        y = y[idx + i] + 1.0;
        i = i + 1;
    }
    return sum(y);
}
""",
        _fault_then_condition,
        5,
    ),
}


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("case", sorted(CASES))
def test_first_fault_with_its_line(case, target, tmp_path):
    src, numpy_version, line = CASES[case]
    printed = numpy_until_index_error(numpy_version)
    flags = ["--target", target, "--arg", "k=1"] if "k: i64" in src else ["--target", target]
    proc, _ = run_source(src, {"x": X, "idx": IDX}, tmp_path, flags=flags)
    assert proc.returncode == 1, proc.stderr
    assert proc.stdout.split() == printed
    assert proc.stderr.strip().splitlines()[-1] == f"{tmp_path / 'prog.arr'}:{line}:9: {INDEX_ERROR}", proc.stderr
    assert not (tmp_path / "out").exists() or not list((tmp_path / "out").iterdir())


@pytest.mark.parametrize("target", TARGETS)
def test_fault_after_many_launches(target, tmp_path):
    """3000 launches that may fault and read nothing back: line 5 faults from the 2500th on, line 4
    from the 2601st. More launches than the GPU's fault slots (1024), so the host waits between
    them; the 2500th's fault (line 5) must be the one reported, not a later launch's (line 4)."""
    src = """fn main(x: f64[N], idx: i64[K]) -> f64 {
    let acc = zeros(4);
    for i in range(3000) {
        let u = x[idx + (i // 2600) * 100];
        let y = x[idx + (i // 2499) * 4];
        acc = acc + u + y;
    }
    return sum(acc);
}
"""
    proc, _ = run_source(src, {"x": X, "idx": IDX}, tmp_path, flags=["--target", target])
    assert proc.returncode == 1, proc.stderr
    assert proc.stderr.strip().splitlines()[-1] == f"{tmp_path / 'prog.arr'}:5:9: {INDEX_ERROR}", proc.stderr


@pytest.mark.parametrize("target", TARGETS)
def test_no_fault_runs_to_the_end(target, tmp_path):
    """The same loop with indices in range: the launches' fault slots are read back and reset
    without a fault, and the sum is NumPy's."""
    src = """fn main(x: f64[N], idx: i64[K]) -> f64 {
    let acc = zeros(4);
    for i in range(3000) {
        acc = acc + x[(idx + i) % 4];
    }
    return sum(acc);
}
"""
    expected = sum(np.sum(X[(IDX + i) % 4]) for i in range(3000))
    proc, res = run_source(src, {"x": X, "idx": IDX}, tmp_path, flags=["--target", target])
    assert proc.returncode == 0, proc.stderr
    assert float(res[0]) == expected

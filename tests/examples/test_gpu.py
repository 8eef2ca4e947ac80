"""The GPU target (issue 12), checked without a GPU where possible:

* every example, feature program and benchmark program compiles to PTX (`arrayc emit
  --stage=ptx`) that NVIDIA's `ptxas -arch=sm_90` accepts (ptxas and libdevice come from the
  `nvidia-cuda-nvcc-cu12` wheel, which scripts/setup.sh installs; without it these tests fail
  and say so);
* the GPU kernels' mapping (grid-stride loops, delinearisation, the partial results of
  reductions and their combination) runs on the CPU with `--target gpu-emulated`, on the grid
  the GPU runtime would choose and on a small fixed grid whose loops go round many times, and
  gives the NumPy references' results (the comparison rules of test_examples.py and
  test_benchmarks.py);
* without a CUDA driver, `arrayc run --target gpu` fails with one clear line and writes no
  output;
* with a GPU, the examples and benchmarks run on it and match NumPy; without one these tests
  are skipped, naming what is missing.
"""
import ctypes.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

from arrayc_examples import (
    EXAMPLES, REPO, arrayc_binary, assert_benchmark_matches, load_results, run_arrayc, skip_without_a_gpu,
)
from test_examples import CASES, assert_case_matches, case_id

sys.path.insert(0, str(REPO / "benchmarks"))
import suite  # noqa: E402

PROGRAMS = sorted(
    [*EXAMPLES.glob("*.arr"), *(EXAMPLES / "features").glob("*.arr"), *(REPO / "benchmarks/programs").glob("*.arr")]
)
BENCHMARKS = suite.available()
# A grid of 2 x 3 blocks of 32 threads: every grid-stride loop of a non-tiny array goes round
# several times, and rows are shared among the y blocks.
SMALL_GRID = "2,3,32"


def cuda_nvcc():
    """The `nvidia/cuda_nvcc` directory of the nvidia-cuda-nvcc-cu12 wheel (ptxas, libdevice)."""
    try:
        import nvidia.cuda_nvcc as m
    except ImportError:
        pytest.fail(
            "ptxas not found: pip install nvidia-cuda-nvcc-cu12 (scripts/setup.sh installs it)", pytrace=False
        )
    return Path(list(m.__path__)[0])


def emit_ptx(program, tmp_path):
    nvcc = cuda_nvcc()
    env = dict(os.environ, ARRAYC_CUDA_PATH=str(nvcc))
    proc = subprocess.run(
        [str(arrayc_binary()), "emit", "--stage=ptx", str(program)], capture_output=True, text=True, env=env
    )
    assert proc.returncode == 0, f"emit --stage=ptx {program.name} failed:\n{proc.stderr}"
    ptx = tmp_path / f"{program.stem}.ptx"
    ptx.write_text(proc.stdout)
    return nvcc, ptx


@pytest.mark.parametrize("program", PROGRAMS, ids=[p.stem for p in PROGRAMS])
def test_ptx_is_accepted_by_ptxas(program, tmp_path):
    nvcc, ptx = emit_ptx(program, tmp_path)
    text = ptx.read_text()
    assert ".target sm_90" in text and ".entry" in text
    proc = subprocess.run(
        [str(nvcc / "bin" / "ptxas"), "-arch=sm_90", str(ptx), "-o", str(tmp_path / "k.cubin")],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, f"ptxas rejected the PTX of {program.name}:\n{proc.stderr}"


def test_ptx_without_libdevice_names_the_fix(tmp_path):
    """black_scholes calls exp/log/erf-like math: without a CUDA toolkit the PTX would have
    unresolved libdevice functions, so emit refuses and says where to get one."""
    env = {k: v for k, v in os.environ.items() if k not in ("ARRAYC_CUDA_PATH", "CUDA_PATH", "CUDA_HOME")}
    if Path("/usr/local/cuda/nvvm/libdevice/libdevice.10.bc").is_file():
        pytest.skip("a CUDA toolkit is installed in /usr/local/cuda, so libdevice is always found")
    proc = subprocess.run(
        [str(arrayc_binary()), "emit", "--stage=ptx", str(EXAMPLES / "black_scholes.arr")],
        capture_output=True,
        text=True,
        env=env,
    )
    assert proc.returncode == 1 and proc.stdout == ""
    assert "libdevice" in proc.stderr and "ARRAYC_CUDA_PATH" in proc.stderr and "panicked" not in proc.stderr


@pytest.mark.parametrize("grid", [None, SMALL_GRID], ids=["runtime-grid", "small-grid"])
@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_emulated_gpu_matches_numpy(case, grid, tmp_path, monkeypatch):
    if grid:
        monkeypatch.setenv("ARRAYC_GPU_EMULATION_GRID", grid)
    run_case(case, tmp_path, "gpu-emulated")


def run_case(case, tmp_path, target):
    """Runs an example case of test_examples.py with `--target target` and checks it against NumPy."""
    proc = run_arrayc(EXAMPLES / case["file"], entry=case["entry"], args=case["args"], out_dir=tmp_path,
                      flags=["--target", target])
    assert proc.returncode == 0, f"arrayc failed ({proc.returncode}):\n{proc.stdout}\n{proc.stderr}"
    assert_case_matches(case, load_results(tmp_path))


def run_benchmark(name, tmp_path, target):
    """Runs a benchmark at its SMALL arguments with `--target target` and checks it against NumPy."""
    bench = suite.load(name)
    proc = run_arrayc(
        REPO / bench.PROGRAM, entry=bench.ENTRY, args=bench.SMALL, out_dir=tmp_path, flags=["--target", target]
    )
    assert proc.returncode == 0, f"arrayc failed ({proc.returncode}):\n{proc.stdout}\n{proc.stderr}"
    assert_benchmark_matches(name, load_results(tmp_path))


@pytest.mark.parametrize("name", BENCHMARKS)
def test_emulated_gpu_benchmark_matches_numpy(name, tmp_path, monkeypatch):
    monkeypatch.setenv("ARRAYC_GPU_EMULATION_GRID", SMALL_GRID)
    run_benchmark(name, tmp_path, "gpu-emulated")


def test_gpu_target_without_a_driver_is_one_clear_error(tmp_path):
    if ctypes.util.find_library("cuda"):
        pytest.skip("a CUDA driver (libcuda) is installed here: the no-driver error cannot be provoked")
    out = tmp_path / "out"
    proc = run_arrayc(EXAMPLES / "heat.arr", args=dict(n=4), out_dir=out, flags=["--target", "gpu"])
    assert proc.returncode == 1, proc.stderr
    assert proc.stdout == "" and "panicked" not in proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "libcuda.so" in lines[0] and "--target cpu" in lines[0], proc.stderr
    assert not out.exists() or not any(out.iterdir()), "a failed run left output files"


@pytest.fixture(scope="module")
def gpu():
    skip_without_a_gpu()


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_gpu_matches_numpy(gpu, case, tmp_path):
    run_case(case, tmp_path, "gpu")


@pytest.mark.parametrize("name", BENCHMARKS)
def test_gpu_benchmark_matches_numpy(gpu, name, tmp_path):
    run_benchmark(name, tmp_path, "gpu")

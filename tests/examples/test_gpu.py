"""The GPU target (issue 12), checked without a GPU where possible:

* every example, feature program and benchmark program compiles to PTX (`arrayc emit
  --stage=ptx`) that NVIDIA's `ptxas -arch=sm_90` accepts (ptxas and libdevice come from the
  `nvidia-cuda-nvcc-cu12` wheel, which scripts/setup.sh installs; without it these tests fail
  and say so);
* `emit --stage=ptx` finds libdevice with no variable set, in the wheel of the `python3` that
  set-up installed it for, and without any libdevice lists every place it looked at and the fix;
* abs, sqrt, rint, floor, ceil, trunc and copysign become NVPTX's own instructions, so a program
  using only those compiles to PTX with no CUDA toolkit at all, and gives NumPy's results bit for
  bit (on `--target gpu-emulated`, and on the GPU where there is one);
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

import numpy as np
from arrayc_examples import (
    EXAMPLES, REPO, arrayc_binary, assert_benchmark_matches, load_results, run_arrayc, run_source,
    skip_without_a_gpu,
)
from test_examples import CASES, assert_case_matches, case_id

sys.path.insert(0, str(REPO / "benchmarks"))
import suite  # noqa: E402

PROGRAMS = sorted(
    [*EXAMPLES.glob("*.arr"), *(EXAMPLES / "features").glob("*.arr"), *(REPO / "benchmarks/programs").glob("*.arr")]
)
BENCHMARKS = suite.corpus()
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
    assemble(nvcc, ptx, tmp_path)


# A program whose kernels call libdevice (`sin`, `cos`, `tanh`, `**` and `%` of floats).
NEEDS_LIBDEVICE = EXAMPLES / "features" / "elementwise.arr"
TOOLKIT_VARS = ("ARRAYC_CUDA_PATH", "CUDA_PATH", "CUDA_HOME")
LIBDEVICE = "nvvm/libdevice/libdevice.10.bc"


def system_toolkits():
    """The toolkit directories arrayc looks at besides the variables and the wheel
    (codegen/src/cuda_toolkit.rs)."""
    return [Path("/usr/local/cuda"), *sorted(Path("/usr/local").glob("cuda-*")), Path("/usr/lib/cuda"), Path("/opt/cuda")]


def env_without_a_toolkit(tmp_path):
    """An environment in which arrayc can find no libdevice: no toolkit variable, `$PYTHON`
    naming no file and a `PATH` with no Python on it. Skips where a system directory has one."""
    for d in system_toolkits():
        if (d / LIBDEVICE).is_file():
            pytest.skip(f"a CUDA toolkit with libdevice is installed in {d}: arrayc always finds it there")
    empty = tmp_path / "empty-bin"
    empty.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in TOOLKIT_VARS}
    env.update(PATH=str(empty), PYTHON=str(tmp_path / "no-python"))
    return env


def assemble(nvcc, ptx, tmp_path):
    proc = subprocess.run(
        [str(nvcc / "bin" / "ptxas"), "-arch=sm_90", str(ptx), "-o", str(tmp_path / "k.cubin")],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, f"ptxas rejected {ptx.name}:\n{proc.stderr}"


def test_setup_and_arrayc_ask_the_same_python():
    """scripts/setup.sh installs the wheel for `$PYTHON` (default python3); arrayc asks the same
    interpreter where the wheel is (codegen/src/cuda_toolkit.rs): the two defaults must agree."""
    setup = (REPO / "scripts" / "setup.sh").read_text()
    rust = (REPO / "codegen" / "src" / "cuda_toolkit.rs").read_text()
    assert 'PYTHON="${PYTHON:-python3}"' in setup
    assert 'pub const PYTHON_VAR: &str = "PYTHON";' in rust and 'pub const DEFAULT_PYTHON: &str = "python3";' in rust


def test_ptx_needs_no_variable_after_setup(tmp_path):
    """After scripts/setup.sh (the wheel installed for `python3`), `emit --stage=ptx` of a program
    that needs libdevice works with no toolkit variable and no `$PYTHON` set: arrayc asks `python3`
    where the wheel is, links its libdevice (no `__nv_` function is left) and ptxas accepts it."""
    nvcc = cuda_nvcc()
    env = {k: v for k, v in os.environ.items() if k not in (*TOOLKIT_VARS, "PYTHON")}
    probe = subprocess.run(["python3", "-c", "import nvidia.cuda_nvcc"], capture_output=True, text=True, env=env)
    if probe.returncode != 0:
        pytest.skip(
            "`python3` on PATH has no nvidia-cuda-nvcc-cu12 wheel: run `bash scripts/setup.sh` "
            "or `python3 -m pip install nvidia-cuda-nvcc-cu12`"
        )
    proc = subprocess.run(
        [str(arrayc_binary()), "emit", "--stage=ptx", str(NEEDS_LIBDEVICE)], capture_output=True, text=True, env=env
    )
    assert proc.returncode == 0, f"emit --stage=ptx without variables failed:\n{proc.stderr}"
    assert ".entry" in proc.stdout and "__nv_" not in proc.stdout
    ptx = tmp_path / "elementwise.ptx"
    ptx.write_text(proc.stdout)
    assemble(nvcc, ptx, tmp_path)


def test_ptx_without_libdevice_lists_the_places_and_the_fix(tmp_path):
    """Without any libdevice, emit refuses a program that needs one, names its functions, every
    place it looked at, and the fix; it writes nothing to stdout and does not panic."""
    env = env_without_a_toolkit(tmp_path)
    proc = subprocess.run(
        [str(arrayc_binary()), "emit", "--stage=ptx", str(NEEDS_LIBDEVICE)], capture_output=True, text=True, env=env
    )
    assert proc.returncode == 1 and proc.stdout == "", proc.stderr
    err = proc.stderr
    assert "__nv_sin" in err and "panicked" not in err, err
    places = [f"${v}: not set" for v in TOOLKIT_VARS] + [f"{d}: no such directory" for d in system_toolkits()]
    places.append(f"nvidia-cuda-nvcc-cu12 wheel of `{env['PYTHON']}` ($PYTHON): not found")
    if not list(Path("/usr/local").glob("cuda-*")):
        places.append("/usr/local/cuda-<version>: none")
    for place in places:
        assert place in err, f"the error does not list {place!r}:\n{err}"
    assert "pip install nvidia-cuda-nvcc-cu12" in err and "scripts/setup.sh" in err, err
    assert "set ARRAYC_CUDA_PATH to a directory with nvvm/libdevice/libdevice.10.bc" in err, err


# The math functions NVPTX has instructions for (and `exp`/`log` of f64, which arrayc computes with
# fma and rint), in f64 and f32.
NATIVE_PROGRAM = """
fn native(x: f64[N], y: f64[N], s: f32[N]) -> (f64[N], f64[N], f64[N], f64[N], f64[N], f64[N], f64[N], f64[N],
        f64[N], f64[N], f64[N], f32[N], f32[N], f32[N], f32[N], f32[N], f32[N]) {
    return (abs(x), sqrt(x), rint(x), floor(x), ceil(x), trunc(x), copysign(x, y), minimum(x, y), maximum(x, y),
            exp(x), log(x), abs(s), sqrt(s), rint(s), floor(s), ceil(s), trunc(s));
}
"""
NATIVE_INSTRUCTIONS = [
    "abs.f64", "sqrt.rn.f64", "cvt.rni.f64.f64", "cvt.rmi.f64.f64", "cvt.rpi.f64.f64", "cvt.rzi.f64.f64",
    "copysign.f64", "fma.rn.f64", "abs.f32", "sqrt.rn.f32", "cvt.rni.f32.f32", "cvt.rzi.f32.f32",
]


def native_inputs():
    """Halves (rint rounds them to even), signed zeros, infinities, NaN, subnormals, huge values,
    values next to an integer; `y` gives copysign/minimum/maximum other signs and NaNs."""
    x = np.array([0.0, -0.0, 0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 3.7, -3.7, np.inf, -np.inf, np.nan, 5e-324,
                  1e300, 2.0, 1e-310, -7.25, 4503599627370497.0, 0.49999999999999994, -1e-300, 1e-5])
    with np.errstate(over="ignore"):
        return x, np.roll(x, 3), x.astype(np.float32)


def test_native_math_needs_no_libdevice(tmp_path):
    """abs, sqrt, rint, floor, ceil, trunc, copysign (and the fma and rint of exp/log of f64) use
    NVPTX's own instructions (correctly rounded sqrt.rn, never sqrt.approx): the PTX is made with
    no CUDA toolkit at all, calls no libdevice function and ptxas accepts it."""
    nvcc = cuda_nvcc()
    env = env_without_a_toolkit(tmp_path)
    prog = tmp_path / "native.arr"
    prog.write_text(NATIVE_PROGRAM)
    proc = subprocess.run([str(arrayc_binary()), "emit", "--stage=ptx", str(prog)], capture_output=True, text=True,
                          env=env)
    assert proc.returncode == 0, f"emit --stage=ptx with no toolkit failed:\n{proc.stderr}"
    text = proc.stdout
    assert "__nv_" not in text and "sqrt.approx" not in text, text
    for instruction in NATIVE_INSTRUCTIONS:
        assert instruction in text, f"{instruction} missing from the PTX"
    ptx = tmp_path / "native.ptx"
    ptx.write_text(text)
    assemble(nvcc, ptx, tmp_path)


@pytest.mark.parametrize("target", ["gpu-emulated", "gpu"])
def test_native_math_matches_numpy(target, tmp_path):
    """The functions of NATIVE_PROGRAM give NumPy's results bit for bit (signed zeros included;
    NaN where NumPy has NaN), exp and log within 1e-15 relative."""
    if target == "gpu":
        skip_without_a_gpu()
    x, y, s = native_inputs()
    proc, res = run_source(NATIVE_PROGRAM, {"x": x, "y": y, "s": s}, tmp_path, flags=("--target", target))
    assert proc.returncode == 0, proc.stderr
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        want = [np.abs(x), np.sqrt(x), np.rint(x), np.floor(x), np.ceil(x), np.trunc(x), np.copysign(x, y),
                np.minimum(x, y), np.maximum(x, y), np.exp(x), np.log(x), np.abs(s), np.sqrt(s), np.rint(s),
                np.floor(s), np.ceil(s), np.trunc(s)]
    for i, (got, w) in enumerate(zip(res, want)):
        assert got.dtype == w.dtype, f"result {i}: {got.dtype}, NumPy {w.dtype}"
        if i in (9, 10):
            np.testing.assert_allclose(got, w, rtol=1e-15, err_msg=f"result {i}")
        else:
            np.testing.assert_array_equal(got, w, err_msg=f"result {i}")
            ok = ~np.isnan(w)
            assert (np.signbit(got[ok]) == np.signbit(w[ok])).all(), f"result {i}: signs of zeros\n{got}\n{w}"


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

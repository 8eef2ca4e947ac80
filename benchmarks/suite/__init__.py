"""The benchmark suite of issue 4: the 15 Benchpress programs of Kristensen et al. (2016),
Table I, and the programs of issue 13 that exercise the new operations (`spmv_ell`: gathers;
`histogram`: bincount; `filter_points`: boolean-mask filters; `kmeans`: argmin and add_at),
each described by one module in this package.

A benchmark module `benchmarks/suite/<name>.py` defines:

* `PROGRAM`: the `.arr` file, relative to the repository root (`benchmarks/programs/<name>.arr`,
  or `examples/<name>.arr` for the four programs that are also examples);
* `ENTRY`: the entry function of `PROGRAM`; the NumPy reference function has the same name;
* `REFERENCE`: the NumPy reference file (relative to the repository root), written from the
  same description as the program, returning a tuple with one item per program result;
* `SMALL`, `LARGE`: the entry's arguments for the tests and for the harness (the large size
  is sized for a 2-core, 24 GiB machine: a NumPy run takes about a second or a few);
* `MEMORY_BOUND`: whether the benchmark is bound by memory traffic (the roofline target applies);
* `RTOL`, `ATOL`: tolerances of the comparison with NumPy, with `WHY` when they are not the
  defaults (1e-9, 0);
* `numexpr(**LARGE)`: the benchmark written as a numexpr user would (NumPy plus
  `numexpr.evaluate` for the element-wise expressions), or `numexpr = None` with `NUMEXPR_WHY`;
* `jax(**LARGE)`: the benchmark written as a JAX user would (`jax.jit`, float64), returning a
  tuple of JAX or NumPy arrays.

Random inputs come from `arrayc_random.random` (examples/reference), the NumPy model of arrayc's
`random`, so every implementation sees the same numbers.
"""
import importlib
import importlib.util
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
for _p in (REPO / "examples" / "reference", REPO / "benchmarks"):
    if str(_p) not in sys.path:
        sys.path.insert(0, str(_p))

NAMES = [
    "black_scholes", "gameoflife", "heat", "leibnitz_pi", "gauss", "lu", "montecarlo_pi",
    "stencil27", "shallow_water", "rosenbrock", "sor", "nbody", "nbody_nice", "lbm_d3q19",
    "water_ice", "spmv_ell", "histogram", "filter_points", "kmeans",
]

# The rest of the Benchpress corpus (issue 31), ported natively: the eight `python_numpy`
# programs of bh107/benchpress's master beyond Table I, and ten distinct programs that the
# repository held at commit c16e8ec (2016-10-12, `benchmarks/*/python_numpy/`) and later removed
# (variants such as `synth_*`, `idl_init_*` and `*_fixed` left out).
BENCHPRESS_MORE = [
    "convolve", "convolve1d", "galton_bean_machine", "lattice_boltzmann_D2Q9",
    "magnetic_field_extrapolation", "quasicrystal", "snakes_and_ladders", "xraysim",
    "convolve_2d", "convolve_3d", "jacobi", "knn_naive", "lbm_2d", "lmm_swaption_vec", "mxmul",
    "ndstencil", "pricing", "wireworld",
]


def load(name):
    """The module of benchmark `name`."""
    return importlib.import_module(f"suite.{name}")


def available():
    """Names of the benchmarks of `NAMES` whose module exists, in Table I order: the set that
    `make test` also runs as executables, `--lib`, distributed and on the GPU."""
    return [n for n in NAMES if (Path(__file__).parent / f"{n}.py").is_file()]


def corpus():
    """`available()`, then the programs of `BENCHPRESS_MORE` whose module exists: the set the
    harness reports and `test_benchmarks.py` checks against NumPy at SMALL."""
    return available() + [n for n in BENCHPRESS_MORE if (Path(__file__).parent / f"{n}.py").is_file()]


def reference(bench):
    """The NumPy reference function of a benchmark module."""
    path = REPO / bench.REFERENCE
    spec = importlib.util.spec_from_file_location(f"ref_bench_{path.stem}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return getattr(module, bench.ENTRY)

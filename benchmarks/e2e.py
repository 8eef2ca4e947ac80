"""End-to-end times of the benchmark suite, as a user waits for them (issue 14): each column is
one whole process, from start to exit, measured from outside, in interleaved rounds.

Columns:
* arrayc cold: `arrayc run` with an empty compile cache (front end, passes, kernel compilation,
  run, output);
* arrayc warm: `arrayc run` again with the cache the previous run filled (what a second run
  costs), and its compile time: the `passes` and `kernels` lines of `--time`;
* executable: the program built once with `arrayc build --arg ...` for the benchmark's arguments
  (specialised as `arrayc run` specialises its partition; its build time is a column too), then run
  as a native executable;
* NumPy: `python3` running the NumPy reference, its random inputs made with NumPy's own generator
  (`numpy.random.default_rng(seed).random`), as a user would: the Philox emulation that the
  references use to check results is not timed. Interpreter start and `import numpy` included.
* JAX: `python3` running the benchmark's JAX implementation (`jax.jit`, float64), its random inputs
  made with JAX's own generator (`jax.random.uniform`), interpreter start, `import jax`, tracing
  and XLA compilation included: cold with an empty persistent compilation cache
  (`JAX_COMPILATION_CACHE_DIR`), warm with the cache the cold run filled. Not measured when JAX is
  not installed (`scripts/bench-setup.sh` installs it; the report says so).

arrayc makes its random inputs with its own generator (Philox in its kernels) in every column.
Usage: python3 benchmarks/e2e.py [--quick] [--repeats N] [--only a,b] [--out FILE]
(default: LARGE sizes, 3 rounds, benchmarks/REPORT-e2e.md).
"""
import argparse
import datetime
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "benchmarks"))
import suite  # noqa: E402
from harness import compile_ms  # noqa: E402

ARRAYC = Path(os.environ.get("ARRAYC", REPO / "target/release/arrayc"))
TIMEOUT_S = 1200

# The NumPy side of one end-to-end run: the reference, with NumPy's own random generator.
NUMPY_RUN = """
import sys
sys.path[:0] = [{bench!r}, {ref!r}]
import numpy as np
import arrayc_random
arrayc_random.random = lambda *shape, seed=0: np.random.default_rng(seed).random(shape)
import suite
bench = suite.load({name!r})
suite.reference(bench)(**{args!r})
"""


# The JAX side: the benchmark's `jax` function, with JAX's own random generator.
JAX_RUN = """
import sys
sys.path[:0] = [{bench!r}, {ref!r}]
import jax
jax.config.update("jax_enable_x64", True)
import jax.numpy as jnp
import arrayc_random
import numpy as np
# JAX's generator; as a NumPy array, since some inputs are prepared in NumPy before the jitted part.
arrayc_random.random = lambda *shape, seed=0: np.array(jax.random.uniform(jax.random.key(seed), shape, dtype=jnp.float64))
import suite
bench = suite.load({name!r})
jax.block_until_ready(bench.jax(**{args!r}))
"""


def arg_flags(args):
    return [f"--arg={k}={'true' if v is True else 'false' if v is False else v}" for k, v in args.items()]


def timed(cmd, env=None):
    """(wall seconds, completed process) of one process; fails loudly on a non-zero exit."""
    t0 = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=TIMEOUT_S, env=env, cwd=REPO)
    t = time.perf_counter() - t0
    if p.returncode != 0:
        raise RuntimeError(f"`{' '.join(map(str, cmd))}` exited with {p.returncode}: {p.stderr.strip()[-500:]}")
    return t, p


def measure(name, args, repeats, work):
    bench = suite.load(name)
    program = REPO / bench.PROGRAM
    run = [str(ARRAYC), "run", str(program), "--entry", bench.ENTRY, "--time", *arg_flags(args)]
    exe = work / f"{name}-exe"
    t_build, _ = timed([str(ARRAYC), "build", str(program), "--entry", bench.ENTRY, "-o", str(exe), *arg_flags(args)])
    numpy = [sys.executable, "-c", NUMPY_RUN.format(bench=str(REPO / "benchmarks"), ref=str(REPO / "examples/reference"),
                                                    name=name, args=args)]
    jax = [sys.executable, "-c", JAX_RUN.format(bench=str(REPO / "benchmarks"), ref=str(REPO / "examples/reference"),
                                                name=name, args=args)]
    use_jax = _has_jax() and getattr(bench, "jax", None) is not None
    times = {k: [] for k in ("cold", "warm", "exe", "numpy") + (("jax_cold", "jax_warm") if use_jax else ())}
    warm_compile = []
    for _ in range(repeats):
        cache = work / f"cache-{name}"
        shutil.rmtree(cache, ignore_errors=True)
        env = dict(os.environ, ARRAYC_CACHE_DIR=str(cache))
        t, _ = timed(run, env)
        times["cold"].append(t)
        t, p = timed(run, env)
        times["warm"].append(t)
        warm_compile.append(compile_ms(p.stderr))
        times["exe"].append(timed([str(exe), *arg_flags(args)])[0])
        times["numpy"].append(timed(numpy)[0])
        if use_jax:
            jax_cache = work / f"jax-cache-{name}"
            shutil.rmtree(jax_cache, ignore_errors=True)
            jenv = dict(os.environ, JAX_COMPILATION_CACHE_DIR=str(jax_cache), JAX_PLATFORMS="cpu",
                        JAX_PERSISTENT_CACHE_MIN_COMPILE_TIME_SECS="0", JAX_PERSISTENT_CACHE_MIN_ENTRY_SIZE_BYTES="-1")
            times["jax_cold"].append(timed(jax, jenv)[0])
            times["jax_warm"].append(timed(jax, jenv)[0])
    med = {k: statistics.median(v) for k, v in times.items()}
    return dict(name=name, args=args, build_s=t_build, warm_compile_ms=statistics.median(warm_compile), **med)


def render(rows, command, repeats):
    jax = any("jax_cold" in r for r in rows)
    L = ["# End to end: what a user waits for", "",
         f"Generated by `{command}` on {datetime.datetime.now().astimezone().isoformat(timespec='minutes')}, "
         f"median of {repeats} interleaved rounds; each time is one whole process, start to exit.", "",
         "* arrayc cold: `arrayc run` with an empty compile cache; warm: again, with the cache the first run "
         "filled; compile ms: the warm run's `passes` + `kernels` time (`--time`).",
         "* executable: built once by `arrayc build --arg ...` for these arguments (build s), then run.",
         "* NumPy: `python3` running the NumPy reference, interpreter start and `import numpy` included, random "
         "inputs from `numpy.random.default_rng` (the Philox emulation of the result checks is not timed). "
         "arrayc makes its random numbers with its own generator, inside its kernels, in every arrayc column.",
         "* JAX: " + ("`python3` running the benchmark's `jax.jit` implementation (float64, CPU), random inputs from "
                      "`jax.random.uniform`, interpreter start, `import jax`, tracing and XLA compilation included; "
                      "cold: an empty persistent compilation cache, warm: the cache the cold run filled."
                      if jax else "not installed on this machine: no column (`scripts/bench-setup.sh` installs it)."), ""]
    head = ["benchmark", "arguments", "arrayc cold s", "arrayc warm s", "warm compile ms", "executable s", "build s",
            "NumPy s"] + (["JAX cold s", "JAX warm s"] if jax else []) + \
        ["cold / NumPy", "warm / NumPy", "executable / NumPy"] + (["warm / JAX warm"] if jax else [])
    L += ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in rows:
        a = ", ".join(f"{k}={v}" for k, v in r["args"].items())
        cells = [r["name"], a, f"{r['cold']:.3f}", f"{r['warm']:.3f}", f"{r['warm_compile_ms']:.1f}", f"{r['exe']:.3f}",
                 f"{r['build_s']:.2f}", f"{r['numpy']:.3f}"]
        if jax:
            cells += [f"{r['jax_cold']:.3f}", f"{r['jax_warm']:.3f}"] if "jax_cold" in r else ["", ""]
        cells += [f"{r['cold'] / r['numpy']:.2f}", f"{r['warm'] / r['numpy']:.2f}", f"{r['exe'] / r['numpy']:.2f}"]
        if jax:
            cells.append(f"{r['warm'] / r['jax_warm']:.2f}" if "jax_warm" in r else "")
        L.append("| " + " | ".join(cells) + " |")
    g = {k: statistics.geometric_mean([r[k] / r["numpy"] for r in rows]) for k in ("cold", "warm", "exe")}
    gm = ["**geometric mean**"] + [""] * (len(head) - (4 if jax else 3) - 1) + [f"{g['cold']:.2f}", f"{g['warm']:.2f}",
                                                                              f"{g['exe']:.2f}"]
    if jax:
        with_jax = [r for r in rows if "jax_warm" in r]
        gm.append(f"{statistics.geometric_mean([r['warm'] / r['jax_warm'] for r in with_jax]):.2f}" if with_jax else "")
    L.append("| " + " | ".join(gm) + " |")
    over = [r["name"] for r in rows if r["warm_compile_ms"] >= 20.0]
    slower = [r["name"] for r in rows if r["warm"] >= r["numpy"]]
    L += ["", "Ratios below 1: arrayc is faster end to end. Targets of issue 14: under 20 ms of compilation in a "
          "warm run on every benchmark: " + ("met" if not over else f"**not met** on {', '.join(over)}") +
          "; a warm `arrayc run` faster than NumPy end to end on every benchmark: " +
          ("met." if not slower else f"**not met** on {', '.join(slower)}."), ""]
    return "\n".join(L)


def _has_jax():
    try:
        import jax  # noqa: F401
    except ImportError:
        return False
    return True


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="SMALL sizes (a smoke run)")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--only", default="")
    ap.add_argument("--out", default=str(REPO / "benchmarks/REPORT-e2e.md"))
    opts = ap.parse_args(argv)
    names = [n for n in opts.only.split(",") if n] or suite.corpus()
    rows = []
    with tempfile.TemporaryDirectory(prefix="arrayc-e2e-") as work:
        for name in names:
            bench = suite.load(name)
            args = dict(bench.SMALL if opts.quick else bench.LARGE)
            print(f"[{name}] {args} ...", file=sys.stderr, flush=True)
            rows.append(measure(name, args, opts.repeats, Path(work)))
            r = rows[-1]
            print(f"[{name}] cold {r['cold']:.3f} s, warm {r['warm']:.3f} s ({r['warm_compile_ms']:.1f} ms compiling), "
                  f"executable {r['exe']:.3f} s, NumPy {r['numpy']:.3f} s", file=sys.stderr, flush=True)
    text = render(rows, "python3 benchmarks/e2e.py" + "".join(f" {a}" for a in (argv or sys.argv[1:])), opts.repeats)
    Path(opts.out).write_text(text)
    print(text)


if __name__ == "__main__":
    main()

"""A short device check of `--target gpu`, sized for a lent GPU machine (about two to three
minutes for the 19 benchmarks on an H100 with 16 CPU cores): every benchmark at its LARGE size,
run with `arrayc run --target cpu` and `--target gpu` on a warm compile cache (a first run fills
the cache, then REPEATS timed runs), then the suite module's own `jax(**LARGE)` on the GPU in this
process (issue 33's JAX-GPU column).

Columns of the table (printed per benchmark as it finishes, and once more at the end):

* `cpu run ms`: median `time: run` phase of `arrayc run --target cpu --time` (all the machine's
  cores; the run phase excludes parsing and compilation, includes writing nothing: results are
  written after it);
* `gpu run ms`: the same for `--target gpu` (kernels, copies of the results to the host, pool
  allocations; the CUDA start is a phase of its own);
* `jax steady ms`: median of REPEATS calls of the benchmark's jitted JAX function(s) on the GPU,
  after the first call and one untimed call, each call ending with every returned array copied to
  the host (`jax.block_until_ready`, then `np.asarray`), as arrayc's run phase ends with its results
  on the host. The inputs are on the device before the clock starts: the calls of the module's
  `_jitted()` function made by one `jax(**LARGE)` call are recorded, their NumPy array arguments
  uploaded once (`jax.device_put`), and those calls replayed. Where that is not possible (no
  `_jitted`, `_jitted()` not one function, e.g. filter_points' eager filters between two jitted
  parts, or a replay that fails) whole `jax(**LARGE)` calls are timed instead, marked `~` when the
  module's `random` could be replaced by one returning the same numbers already on the device
  (same results as the first call), else `*`: then the time includes making the inputs on the
  host (`arrayc_random`, cached after the first call, so a copy) and uploading them. The random
  inputs are made on all cores (`parallel_generate_random`), outside any timed call but the first;
* `jax 1st ms`: the first call: time spent in the jitted function(s) (tracing, XLA compilation and
  the first run, blocked until done) plus the copies of the results to the host; for `~`, `*` rows the
  whole first `jax(**LARGE)` call, which also makes the inputs with the NumPy model of arrayc's
  random (slow);
* `gpu sync ms` (with `--sync-baseline`): `gpu run ms` with every launch waited for
  (`CUDA_LAUNCH_BLOCKING=1`) on the fixed grid of up to 2048 blocks (`ARRAYC_GPU_MAX_BLOCKS=2048`):
  the launches of before issue 33, in the same binary and run;
* `gpu/jax`: `gpu run ms` / `jax steady ms` (issue 33 asks for <= 1 on every benchmark);
* last: how far the GPU's results are from the CPU's (the largest relative difference of each
  float result, the count of differing elements of each other result), or from JAX's first call
  with `--no-cpu`.

For the GPU's first run it also prints the `--time` lines (GPU start, PTX cache, driver JIT, the
`device:` copies and kernels). The comparison with NumPy is the tests' (`tests/examples/
test_gpu.py`, at the SMALL sizes); this adds the LARGE sizes.

    ARRAYC=target/release/arrayc python3 benchmarks/gpu_check.py [NAME ...] [--all] [--repeats N]
        [--no-cpu] [--no-jax] [--sync-baseline] [--budget SECONDS]

Names default to `suite.available()` (the 19 benchmarks of issue 33), `--all` to `suite.corpus()`.
`--budget SECONDS`: no benchmark starts after SECONDS of wall time (the one running finishes);
the rest are listed as skipped. JAX is imported with `XLA_PYTHON_CLIENT_PREALLOCATE=false` (set
here before the import), so it does not take 75% of the GPU's memory from arrayc's processes; JAX
runs only after arrayc's runs of the same benchmark, never at the same time. Without jax, or
without a GPU backend for it, the column is `-` and a note says why; `GPU_CHECK_JAX_ANY_BACKEND=1`
accepts any backend (a smoke test of this script on a machine without a GPU). A failing
`--target gpu` (no driver) is printed and the check goes on (exit status 1).

`scripts/gpu-check.sh` runs it, with the GPU tests and the streaming probe
(`benchmarks/stream_probe.py`), on a machine that has a GPU; docs/gpu.md has the last results.
"""
import os

# Before anything imports jax: allocate GPU memory as needed, not 75% of it at the first use.
os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")

import argparse  # noqa: E402
import gc  # noqa: E402
import re  # noqa: E402
import shutil  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402

import harness  # noqa: E402
from harness import ARRAYC, arrayc_cmd  # noqa: E402
import suite  # noqa: E402

REPEATS = 3
RUN_TIMEOUT_S = 180  # one arrayc run at LARGE takes about a second; a hang must not eat the budget
T0 = time.perf_counter()


def say(msg):
    """A progress line, flushed, with the seconds since the start."""
    print(f"[{time.perf_counter() - T0:6.1f} s] {msg}", flush=True)


def loud(msg):
    """A note that must not be missed (something is missing, so a column stays '-')."""
    print(f"!!! NOTE: {msg}", flush=True)


# `--sync-baseline`: the GPU run as it was before issue 33's launch changes, in the same binary:
# every launch waited for (CUDA's own switch) on the fixed grid of up to 2048 blocks.
SYNC_BASELINE_ENV = {"CUDA_LAUNCH_BLOCKING": "1", "ARRAYC_GPU_MAX_BLOCKS": "2048"}


def run(bench, target, out, env=None):
    """One `arrayc run --time` of `bench` at LARGE, with `env` added to the environment: (run phase
    in ms or None, wall s, output)."""
    cmd = arrayc_cmd("run", bench.PROGRAM, bench.ENTRY, bench.LARGE, "--target", target, "--time", "--out", out,
                     tmp=out)
    start = time.perf_counter()
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=RUN_TIMEOUT_S,
                              env={**os.environ, **env} if env else None)
    except subprocess.TimeoutExpired:
        return None, time.perf_counter() - start, f"timed out after {RUN_TIMEOUT_S} s: {' '.join(cmd)}"
    except OSError as e:
        return None, time.perf_counter() - start, f"{type(e).__name__}: {e}"
    wall = time.perf_counter() - start
    text = proc.stdout + proc.stderr
    m = re.search(r"time: run\s+([\d.]+) ms", text)
    return (float(m.group(1)) if proc.returncode == 0 and m else None), wall, text


def results(out):
    """result_0.npy, result_1.npy, ... of `out`, in order."""
    r = []
    while os.path.exists(f"{out}/result_{len(r)}.npy"):
        r.append(np.load(f"{out}/result_{len(r)}.npy"))
    return r


def differences(ref, other):
    """Per result: the largest relative difference (float) or the count of differing elements."""
    if len(ref) != len(other):
        return [f"{len(other)} results vs {len(ref)}"]
    diffs = []
    for x, y in zip(ref, other):
        x, y = np.asarray(x), np.asarray(y)
        if x.shape != y.shape:
            diffs.append(f"shape {x.shape} vs {y.shape}")
        elif x.dtype.kind in "fc" or y.dtype.kind in "fc":
            with np.errstate(all="ignore"):
                d = np.abs(x.astype(np.float64) - y) / np.maximum(np.abs(x.astype(np.float64)), 1e-300)
            diffs.append(f"{float(np.nanmax(d)) if d.size else 0.0:.1e}")
        else:
            diffs.append(str(int(np.sum(x != y))))
    return diffs


def arrayc_target(name, bench, target, repeats, out, env=None):
    """A first run, then `repeats` timed runs (with `env` added to the environment): (median run ms,
    median wall s) or None on failure."""
    say(f"{name}: --target {target}{' ' + str(env) if env else ''}, first run ...")
    first = run(bench, target, out, env)
    if first[0] is None:
        loud(f"{name}: --target {target} failed (the check goes on):\n{first[2][-2000:]}")
        return None
    if target == "gpu":
        lines = [ln for ln in first[2].splitlines() if ln.startswith(("time:", "cache:", "gpu:", "device:"))]
        say(f"{name}, first GPU run: " + " | ".join(" ".join(ln.split()) for ln in lines))
    runs = []
    for i in range(repeats):
        r = run(bench, target, out, env)
        if r[0] is None:
            loud(f"{name}: --target {target} failed on repeat {i + 1}:\n{r[2][-2000:]}")
            return None
        runs.append(r)
    say(f"{name}: --target {target}{' ' + str(env) if env else ''} run ms: {', '.join(f'{r[0]:.3f}' for r in runs)}")
    return statistics.median(r[0] for r in runs), statistics.median(r[1] for r in runs)


# ---------------------------------------------------------------------------------------------
# JAX


def setup_jax():
    """The jax module when it runs on a GPU (any backend with GPU_CHECK_JAX_ANY_BACKEND=1), else
    None after a loud note. Prints jax.devices() once."""
    try:
        import jax
    except Exception as e:  # noqa: BLE001 - ImportError, or a broken plugin
        loud(f"jax is not importable ({type(e).__name__}: {e}): the JAX columns stay '-'")
        return None
    try:
        jax.config.update("jax_enable_x64", True)
        backend, devices = jax.default_backend(), jax.devices()
    except Exception as e:  # noqa: BLE001
        loud(f"jax {jax.__version__} has no usable backend ({type(e).__name__}: {e}): the JAX columns stay '-'")
        return None
    say(f"jax {jax.__version__}: default backend {backend!r}, devices {devices}, "
        f"XLA_PYTHON_CLIENT_PREALLOCATE={os.environ.get('XLA_PYTHON_CLIENT_PREALLOCATE')}")
    if backend != "gpu":
        if os.environ.get("GPU_CHECK_JAX_ANY_BACKEND") == "1":
            loud(f"jax runs on {backend!r}, not the GPU (GPU_CHECK_JAX_ANY_BACKEND=1): its times are not GPU times")
        else:
            loud(f"jax's default backend is {backend!r}, not 'gpu' (is the jax CUDA plugin installed and "
                 "working? see the messages above): the JAX columns stay '-'")
            return None
    harness.install_memo_random()  # each (shape, seed) of arrayc_random made once, then copied
    harness.generate_random = parallel_generate_random
    harness.watch_jax_compiles()
    return jax


def parallel_generate_random(shape, seed, chunk=1 << 20):
    """`harness.generate_random` on every core: element k of `arrayc_random.random` depends only on
    (seed, k), and NumPy releases the GIL in the model's uint64 arithmetic. The inputs of the JAX
    calls (up to 10^8 elements) would otherwise take tens of seconds of the device's time."""
    import concurrent.futures

    import arrayc_random

    n = int(np.prod(shape, dtype=np.int64)) if shape else 1
    if n <= chunk:
        return harness._original_random()(*shape, seed=seed)
    out = np.empty(n)

    def fill(start):
        k = np.arange(start, min(start + chunk, n), dtype=np.uint64)
        out[start:start + len(k)] = arrayc_random.uniform(seed, k)

    with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 1) as pool:
        list(pool.map(fill, range(0, n, chunk)))
    return out.reshape(shape)


def device_random(jax):
    """A stand-in for `arrayc_random.random` returning the same numbers as a JAX array on the
    device, made once per (shape, seed) and benchmark: for `jnp.asarray(random(...))`, the input
    is then on the device before the clock starts."""
    cache = {}

    def random(*shape, seed=0):
        key = (tuple(int(d) for d in shape), int(seed))
        if key not in cache:
            cache[key] = jax.block_until_ready(jax.device_put(harness.memo_random(*key[0], seed=key[1])))
        return cache[key]

    random.cache = cache
    return random


def to_host(jax, out):
    """Every array of `out` (a pytree) on the host, after waiting for the device."""
    leaves = jax.tree_util.tree_leaves(out)
    jax.block_until_ready(leaves)
    return [np.asarray(x) for x in leaves]


class Recorder:
    """Stands for the module's jitted function: calls it, records (args, kwargs), the time in the
    call (blocked until its results are ready) and the results."""

    def __init__(self, jax, fn):
        self.jax, self.fn, self.calls, self.seconds = jax, fn, [], 0.0

    def __call__(self, *args, **kwargs):
        t = time.perf_counter()
        out = self.jax.block_until_ready(self.fn(*args, **kwargs))
        self.seconds += time.perf_counter() - t
        self.calls.append((args, kwargs))
        return out


def jax_bench(jax, name, bench, repeats):
    """(steady ms, first-call ms, mark: ' ' replayed jitted calls, '~' or '*' whole calls, results
    of the first call on the host) or None after a note; see the module docstring for what is
    timed."""
    fn = getattr(bench, "jax", None)
    if fn is None:
        loud(f"{name}: the suite module has no jax function: the JAX columns stay '-'")
        return None
    harness.patch_module(bench)
    original = getattr(bench, "_jitted", None)
    recorders = []

    def recording_jitted(*a, **k):
        f = original(*a, **k)
        if callable(f):
            rec = Recorder(jax, f)
            recorders.append(rec)
            return rec
        recorders.append(None)  # a tuple of functions (filter_points): not replayed
        return f

    say(f"{name}: jax first call (makes the inputs on the host, compiles) ...")
    if original is not None:
        bench._jitted = recording_jitted
    try:
        t = time.perf_counter()
        out = fn(**bench.LARGE)
        t_call = time.perf_counter()
        first = to_host(jax, out)  # with recorded calls (blocked in the Recorder): the copies alone
        copy_s = time.perf_counter() - t_call
        first_total = time.perf_counter() - t
        del out
    except Exception as e:  # noqa: BLE001 - a broken JAX version must not stop the check
        loud(f"{name}: jax(**LARGE) failed: {type(e).__name__}: {str(e).strip()[:500]}")
        return None
    finally:
        if original is not None:
            bench._jitted = original
    replay = bool(recorders) and all(r is not None for r in recorders) and all(r.calls for r in recorders)
    if replay:
        jit_s = sum(r.seconds for r in recorders)
        first_ms = (jit_s + copy_s) * 1e3
        say(f"{name}: jax first call {first_total:.2f} s in all, {jit_s:.2f} s in the jitted function(s) "
            f"({sum(len(r.calls) for r in recorders)} call(s), replayed with the inputs on the device)")
        try:
            steady = _replay(jax, recorders, repeats)
        except Exception as e:  # noqa: BLE001
            loud(f"{name}: replaying the jitted calls failed ({type(e).__name__}: {str(e).strip()[:300]}); "
                 "timing whole jax() calls instead")
            replay = False
    mark = " "
    if not replay:
        first_ms = first_total * 1e3
        steady = _whole_calls_device_inputs(jax, name, bench, repeats, first)
        mark = "~"
        if steady is None:
            mark = "*"
            say(f"{name}: jax first call {first_total:.2f} s; timing whole jax() calls, inputs made on the host "
                "in every call")
            try:
                steady = _whole_calls(jax, fn, bench.LARGE, repeats)
            except Exception as e:  # noqa: BLE001
                loud(f"{name}: jax(**LARGE) failed on a later call: {type(e).__name__}: {str(e).strip()[:300]}")
                return None
    say(f"{name}: jax steady ms: {', '.join(f'{s:.3f}' for s in steady)}")
    return statistics.median(steady), first_ms, mark, first


def _whole_calls_device_inputs(jax, name, bench, repeats, first):
    """Whole jax(**LARGE) calls with the module's `random` returning device arrays (made before
    the clock starts); None (after a line saying why) when the module has no `random`, a call
    fails, or its results differ from the first call's."""
    if not hasattr(bench, "random"):
        return None
    saved = bench.random
    bench.random = device_random(jax)
    try:
        check = to_host(jax, bench.jax(**bench.LARGE))  # untimed: makes and uploads the inputs
        bad = [d for d in differences(first, check) if d not in ("0", "0.0e+00")]
        if bad:
            say(f"{name}: with the inputs on the device the results differ from the first call's ({bad}): "
                "not used")
            return None
        say(f"{name}: timing whole jax() calls, the inputs made on the device before the clock starts "
            f"({len(bench.random.cache)} arrays)")
        return _whole_calls(jax, bench.jax, bench.LARGE, repeats)
    except Exception as e:  # noqa: BLE001 - e.g. NumPy code writing into the input
        say(f"{name}: inputs on the device fail ({type(e).__name__}: {str(e).strip()[:200]}): not used")
        return None
    finally:
        bench.random = saved


def _replay(jax, recorders, repeats):
    """Run the recorded calls with their array arguments uploaded once: one untimed round, then
    `repeats` timed rounds, each ending with every result on the host. Milliseconds per round."""
    def upload(x):
        return jax.device_put(x) if isinstance(x, np.ndarray) else x

    calls = []
    for rec in recorders:
        for args, kwargs in rec.calls:
            args, kwargs = jax.tree_util.tree_map(upload, (args, kwargs))
            calls.append((rec.fn, args, kwargs))
    jax.block_until_ready([c[1:] for c in calls])
    compiles = harness._JAX_COMPILES["count"]

    def round_():
        t = time.perf_counter()
        for f, args, kwargs in calls:
            to_host(jax, f(*args, **kwargs))
        return (time.perf_counter() - t) * 1e3

    round_()
    before = harness._JAX_COMPILES["count"]
    times = [round_() for _ in range(repeats)]
    if harness._JAX_COMPILES["count"] != before:
        loud(f"JAX compiled {harness._JAX_COMPILES['count'] - before} times during the timed calls "
             f"({before - compiles} in the untimed one): the steady times include compilation")
    return times


def _whole_calls(jax, fn, args, repeats):
    """One untimed call, then `repeats` timed calls of fn(**args), results to the host (ms)."""
    to_host(jax, fn(**args))
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        to_host(jax, fn(**args))
        times.append((time.perf_counter() - t) * 1e3)
    return times


def jax_cleanup(jax):
    harness.clear_random_cache()
    if jax is not None:
        jax.clear_caches()
    gc.collect()


# ---------------------------------------------------------------------------------------------


def fmt(x, width, digits=3):
    return f"{x:{width}.{digits}f}" if x is not None else f"{'-':>{width}}"


HEADER = (f"{'benchmark':15} {'cpu run ms':>10} {'gpu run ms':>10} {'gpu sync ms':>11} {'jax steady ms':>13} "
          f"{'jax 1st ms':>10} {'gpu/jax':>8} {'cpu/gpu':>8}  results")


def row_text(name, row):
    js = row.get("jax_steady")
    jtext = f"{js:12.3f}{row.get('mark', ' ')}" if js is not None else f"{'-':>13}"
    g = row.get("gpu")
    ratio = g / js if g is not None and js else None
    cg = row["cpu"] / g if g and row.get("cpu") is not None else None
    return (f"{name:15} {fmt(row.get('cpu'), 10)} {fmt(g, 10)} {fmt(row.get('gpu-sync'), 11)} {jtext} "
            f"{fmt(row.get('jax_first'), 10, 1)} "
            f"{fmt(ratio, 8, 2)} {fmt(cg, 8, 2)}  {row.get('diffs', '')}")


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("names", nargs="*", help="benchmarks (default: suite.available(), the 19 of issue 33)")
    p.add_argument("--all", action="store_true", help="every benchmark of suite.corpus()")
    p.add_argument("--repeats", type=int, default=REPEATS, help="timed runs per column (default %(default)s)")
    p.add_argument("--no-cpu", action="store_true", help="skip the --target cpu column")
    p.add_argument("--no-jax", action="store_true", help="skip the JAX columns")
    p.add_argument("--sync-baseline", action="store_true",
                   help="a `gpu sync ms` column: --target gpu with " + " ".join(f"{k}={v}" for k, v in SYNC_BASELINE_ENV.items())
                   + " (every launch waited for, the fixed grid of before issue 33)")
    p.add_argument("--budget", type=float, default=None, metavar="SECONDS",
                   help="start no benchmark after SECONDS of wall time (default: no limit)")
    opts = p.parse_args(argv)
    names = opts.names or (suite.corpus() if opts.all else suite.available())
    unknown = [n for n in names if not (suite.REPO / "benchmarks" / "suite" / f"{n}.py").is_file()]
    if unknown:
        sys.exit(f"unknown benchmark(s): {', '.join(unknown)} (known: {', '.join(suite.corpus())})")

    say(f"gpu_check: {len(names)} benchmarks, {opts.repeats} timed runs each, {os.cpu_count()} CPUs, "
        f"arrayc {ARRAYC}, budget " + (f"{opts.budget:.0f} s" if opts.budget is not None else "none"))
    jax = None
    if opts.no_jax:
        say("--no-jax: no JAX columns")
    else:
        jax = setup_jax()
    # (column, target, environment added)
    targets = [("gpu", "gpu", None)] if opts.no_cpu else [("cpu", "cpu", None), ("gpu", "gpu", None)]
    if opts.sync_baseline:
        targets.append(("gpu-sync", "gpu", SYNC_BASELINE_ENV))
    print(HEADER, flush=True)
    failed, rows, skipped = False, {}, []
    for i, name in enumerate(names):
        if opts.budget is not None and time.perf_counter() - T0 > opts.budget:
            skipped = names[i:]
            loud(f"the budget of {opts.budget:.0f} s is spent ({time.perf_counter() - T0:.0f} s): "
                 f"skipped {len(skipped)} benchmarks: {', '.join(skipped)}")
            break
        bench = suite.load(name)
        row, outs = {}, {}
        try:
            for column, target, env in targets:
                outs[column] = tempfile.mkdtemp(prefix=f"gpu-check-{name}-{column}-")
                r = arrayc_target(name, bench, target, opts.repeats, outs[column], env)
                if r is None:
                    failed = True
                else:
                    row[column] = r[0]
            first_jax = None
            if jax is not None:  # after arrayc's runs of this benchmark, never beside them
                j = jax_bench(jax, name, bench, opts.repeats)
                if j is not None:
                    row["jax_steady"], row["jax_first"], row["mark"], first_jax = j
            if "gpu" in row and "cpu" in row:
                row["diffs"] = "vs CPU: " + ", ".join(differences(results(outs["cpu"]), results(outs["gpu"])))
            elif "gpu" in row and first_jax is not None:
                row["diffs"] = "vs JAX: " + ", ".join(differences(first_jax, results(outs["gpu"])))
            del first_jax
        finally:
            for d in outs.values():
                shutil.rmtree(d, ignore_errors=True)
            jax_cleanup(jax)
        rows[name] = row
        print(HEADER + "\n" + row_text(name, row), flush=True)

    print(f"\n== gpu_check summary ({time.perf_counter() - T0:.0f} s; ms are medians of {opts.repeats}; "
          "JAX marks: ~ whole jax() calls with the inputs made on the device before the clock, "
          "* whole jax() calls with the inputs made on the host)", flush=True)
    print(HEADER)
    for name, row in rows.items():
        print(row_text(name, row))
    for name in skipped:
        print(f"{name:15} skipped (budget)")
    both = [n for n, r in rows.items() if r.get("gpu") is not None and r.get("jax_steady")]
    if both:
        ahead = [n for n in both if rows[n]["gpu"] <= rows[n]["jax_steady"]]
        print(f"arrayc GPU run at or below JAX steady on {len(ahead)} of {len(both)}; behind on: "
              f"{', '.join(n for n in both if n not in ahead) or 'none'}")
    elif jax is None and not opts.no_jax:
        loud("no JAX column: see the notes above")
    sys.stdout.flush()
    return 1 if failed else 0


if __name__ == "__main__":
    if not ARRAYC.is_file():
        sys.exit(f"arrayc not found at {ARRAYC}: build it (cargo build --release) or set ARRAYC")
    sys.exit(main())

#!/usr/bin/env python3
"""Benchmark harness of issue 4: the Benchpress suite (Kristensen et al. 2016, Table I) under
arrayc (`--fuse singleton|greedy|optimal`), NumPy, numexpr and JAX; the memory bandwidth of
arrayc's runtime (STREAM triad) and the roofline of every benchmark; the partition cost of every
fusion algorithm (the paper's Fig. 14).

    python3 benchmarks/harness.py [--repeats N] [--only NAME,...] [--quick]

Benchmarks are the modules of `benchmarks/suite` that exist (`suite.corpus()`: Table I, issue
13, then the rest of Benchpress), run at their LARGE arguments (`--quick`: SMALL, for a smoke run; its report goes to a temporary directory
unless `--out-dir` is given). Per benchmark:

* Every in-process implementation (NumPy reference, numexpr, JAX) is called once untimed first:
  that call's result is checked against NumPy's, it compiles JAX (and numexpr's expressions),
  and it fills the random-input cache (below). arrayc runs in a fresh process each time; its
  time is the `time: run` line of `arrayc run --time` (JIT compilation excluded), and the first
  `--fuse optimal` run also writes its results (`--out`) to be checked.
* Then REPEATS rounds, each running every implementation once (interleaved), in the order
  singleton, greedy, optimal, NumPy, numexpr, JAX; the report gives the median.
* A result that does not match NumPy (the module's RTOL/ATOL; at LARGE its RTOL_LARGE/ATOL_LARGE
  when it defines them) marks the row FAILED; the harness goes on.

Random inputs: `arrayc_random.random`, the NumPy model of arrayc's counter-based `random`, is
~30x slower than `np.random`. The harness replaces it (the module attribute and every
`from arrayc_random import random` binding) by `memo_random`, which returns a copy of a cached
array per (shape, seed), so the timed runs of NumPy, numexpr and JAX pay a copy, not the
generation. arrayc draws its random numbers in its own kernels, inside its timed run.

Writes OUT_DIR/REPORT.md (text from the line `## Analysis` on is kept when regenerating),
OUT_DIR/report.png and OUT_DIR/fig14.png; OUT_DIR defaults to benchmarks/. `--json FILE` also
saves the raw measurements, `--from-json FILE` regenerates the report from them without running.

The helpers `arrayc_cmd`, `run_arrayc`, `fuse_regions` and `write_keeping` are meant to be shared
with benchmarks/fusion_bench.py.
"""
import argparse
import datetime
import gc
import json
import math
import os
import platform
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "benchmarks"))
import suite  # noqa: E402  (also puts examples/reference on sys.path, for arrayc_random)

ARRAYC = Path(os.environ.get("ARRAYC", REPO / "target/release/arrayc"))
ARRAYC_TIMEOUT_S = 1200

ARRAYC_RUNS = ("singleton", "greedy", "optimal")  # --fuse algorithms that are timed
PEERS = ("numpy", "numexpr", "jax")  # in-process implementations
IMPLS = ARRAYC_RUNS + PEERS  # the order of the runs within one round
REPORT_ALGORITHMS = ("singleton", "linear", "greedy", "unintrusive", "optimal")  # Fig. 14
LABELS = {"singleton": "arrayc singleton", "greedy": "arrayc greedy", "optimal": "arrayc optimal",
          "numpy": "NumPy", "numexpr": "numexpr", "jax": "JAX", "gpu": "arrayc --target gpu"}
GPU_FLAGS = ("--target", "gpu")  # the GPU column: `optimal` on the GPU, when `probe_gpu` finds one
TARGET_GPU_BANDWIDTH = 0.8  # issue 12: >= 80% of the measured device bandwidth on memory-bound benchmarks

STREAM = "benchmarks/programs/stream_triad.arr"
# 3 arrays of 400 MB; the harness also runs it with iterations = 0 (allocation and fill only) and
# takes the difference, so the bandwidth is that of the triad sweeps alone (see `stream_bandwidth`).
STREAM_LARGE = dict(n=50_000_000, iterations=40, s=3.0)
STREAM_QUICK = dict(n=2_000_000, iterations=10, s=3.0)

KEEP_FROM = "\n## Analysis"  # hand-written part of REPORT.md, kept when the harness rewrites it
ANALYSIS_STUB = ("\n## Analysis\n\n(Hand-written notes go here; everything from the `## Analysis` line on is kept "
                 "when `benchmarks/harness.py` regenerates this report.)\n")

# Targets of issue 4.
TARGET_FUSION_GEOMEAN = 2.0  # optimal vs singleton
TARGET_ROOFLINE = 1.5  # measured optimal time <= 1.5 x roofline time on memory-bound benchmarks
TARGET_SOLVE_MS = 1000.0  # optimal proves every region within 1 s


def log(msg):
    print(msg, file=sys.stderr, flush=True)


# ---------------------------------------------------------------------------------------------
# arrayc


def format_arg(value):
    """A parameter value as written on the `--arg NAME=VALUE` command line."""
    if isinstance(value, (bool, np.bool_)):
        return "true" if value else "false"
    if isinstance(value, (float, np.floating)):
        return repr(float(value))
    return str(value)


def arrayc_cmd(sub, file, entry, args, *extra, tmp=None):
    """`arrayc SUB FILE --entry E --arg k=v ... EXTRA`. Array arguments are written to `tmp` as .npy."""
    c = [str(ARRAYC), sub, str(REPO / file), "--entry", entry]
    for k, v in args.items():
        if isinstance(v, np.ndarray):
            path = Path(tmp or tempfile.mkdtemp(prefix="arrayc-arg-")) / f"arg_{k}.npy"
            np.save(path, v)
            c += ["--arg", f"{k}=@{path}"]
        else:
            c += ["--arg", f"{k}={format_arg(v)}"]
    return c + [str(e) for e in extra]


class ArraycError(RuntimeError):
    pass


def _check(proc, c):
    if proc.returncode != 0:
        tail = "\n".join((proc.stderr or "").strip().splitlines()[-5:])
        raise ArraycError(f"`{' '.join(c)}` exited with {proc.returncode}: {tail}")


def parse_time(stderr):
    """(run seconds, traffic bytes or None, kernel launches or None) from `arrayc run --time`."""
    m = re.search(r"time: run\s+([\d.]+) ms", stderr)
    if not m:
        raise ArraycError(f"no `time: run` line in: {stderr[-300:]}")
    t = re.search(r"traffic: (\d+) bytes in (\d+) kernel launches", stderr)
    return float(m.group(1)) / 1e3, (int(t.group(1)) if t else None), (int(t.group(2)) if t else None)


def compile_ms(stderr):
    """Milliseconds of compilation in `arrayc run --time`: the passes line and the kernel (JIT, cache
    or PTX) lines."""
    return sum(float(m.group(1)) for m in re.finditer(r"time: (?:passes|kernel|PTX)[^\n]*?([\d.]+) ms", stderr))


def wait_for_binary(timeout_s=600):
    """The compiler may be briefly missing while it is rebuilt: wait for it (up to timeout_s)."""
    deadline = time.monotonic() + timeout_s
    while not ARRAYC.is_file():
        if time.monotonic() > deadline:
            raise ArraycError(f"{ARRAYC} not found (run `make build`)")
        log(f"waiting for {ARRAYC} (being rebuilt?) ...")
        time.sleep(10)


def binary_stamp():
    """Modification time of the compiler binary, to notice a rebuild during a run."""
    try:
        return datetime.datetime.fromtimestamp(ARRAYC.stat().st_mtime).astimezone().isoformat(timespec="seconds")
    except OSError:
        return None


def run_arrayc(file, entry, args, fuse="optimal", out_dir=None, extra=()):
    """One `arrayc run --time` in a fresh process: dict(time_s, traffic, launches, stdout)."""
    wait_for_binary()
    with tempfile.TemporaryDirectory(prefix="arrayc-args-") as tmp:
        flags = ["--time", "--fuse", fuse, *extra] + (["--out", str(out_dir)] if out_dir else [])
        c = arrayc_cmd("run", file, entry, args, *flags, tmp=tmp)
        p = subprocess.run(c, capture_output=True, text=True, timeout=ARRAYC_TIMEOUT_S, cwd=REPO)
    _check(p, c)
    t, traffic, launches = parse_time(p.stderr)
    return dict(time_s=t, traffic=traffic, launches=launches, stdout=p.stdout)


def fuse_regions(file, entry, args, fuse):
    """The regions of `arrayc fuse-report --format json --fuse FUSE` (docs/fuse-report.md)."""
    wait_for_binary()
    with tempfile.TemporaryDirectory(prefix="arrayc-args-") as tmp:
        c = arrayc_cmd("fuse-report", file, entry, args, "--format", "json", "--fuse", fuse, tmp=tmp)
        p = subprocess.run(c, capture_output=True, text=True, timeout=ARRAYC_TIMEOUT_S, cwd=REPO)
    _check(p, c)
    return json.loads(p.stdout)["regions"]


def load_results(out_dir):
    """result_0.npy, result_1.npy, ... in order."""
    out, d = [], Path(out_dir)
    while (d / f"result_{len(out)}.npy").is_file():
        out.append(np.load(d / f"result_{len(out)}.npy", allow_pickle=False))
    return out


def write_keeping(path, generated, keep_from=KEEP_FROM, default_tail=""):
    """Write `generated` to `path`, followed by the old file's text from `keep_from` on (the
    hand-written part), or by `default_tail` when the old file has none."""
    path = Path(path)
    old = path.read_text() if path.exists() else ""
    kept = old[old.index(keep_from):] if keep_from in old else default_tail
    path.write_text(generated.rstrip("\n") + "\n" + kept)


# ---------------------------------------------------------------------------------------------
# Random inputs

_RANDOM_CACHE = {}
_ORIGINAL_RANDOM = None


def _original_random():
    import arrayc_random

    return _ORIGINAL_RANDOM or arrayc_random.random


RANDOM_CHUNK = 1 << 22  # elements generated at once: bounds the model's uint64 temporaries


def generate_random(shape, seed, chunk=RANDOM_CHUNK):
    """`arrayc_random.random(*shape, seed=seed)`, computed chunk by chunk with `arrayc_random.uniform`
    (element k depends only on seed and k), so a 1e8-element array does not need ~10 uint64
    temporaries of its size at once."""
    import arrayc_random

    n = int(np.prod(shape, dtype=np.int64)) if shape else 1
    if n <= chunk:
        return _original_random()(*shape, seed=seed)
    out = np.empty(n)
    for start in range(0, n, chunk):
        k = np.arange(start, min(start + chunk, n), dtype=np.uint64)
        out[start:start + len(k)] = arrayc_random.uniform(seed, k)
    return out.reshape(shape)


def memo_random(*shape, seed=0):
    """`arrayc_random.random(*shape, seed=seed)`, generated once per (shape, seed) and returned as
    a fresh copy (callers may write into it)."""
    key = (tuple(int(d) for d in shape), int(seed))
    a = _RANDOM_CACHE.get(key)
    if a is None:
        a = _RANDOM_CACHE[key] = generate_random(key[0], key[1])
    return a.copy()


memo_random.memoized = True


def install_memo_random():
    """Replace `arrayc_random.random` and every `random` name bound to it in loaded modules."""
    global _ORIGINAL_RANDOM
    import arrayc_random

    if _ORIGINAL_RANDOM is None:
        _ORIGINAL_RANDOM = arrayc_random.random
    arrayc_random.random = memo_random
    for mod in list(sys.modules.values()):
        patch_module(mod)


def patch_module(mod):
    """Rebind `random` in a module that did `from arrayc_random import random` before the patch."""
    if _ORIGINAL_RANDOM is not None and getattr(mod, "random", None) is _ORIGINAL_RANDOM:
        mod.random = memo_random
    return mod


def clear_random_cache():
    _RANDOM_CACHE.clear()


# ---------------------------------------------------------------------------------------------
# Results


def as_tuple(out):
    if isinstance(out, (tuple, list)):
        return tuple(out)
    return (out,)


def to_numpy(out):
    return tuple(np.asarray(o) for o in as_tuple(out))


def compare(actual, expected, rtol, atol, exact_dtype=True):
    """None when `actual` matches `expected` (shapes, dtypes when exact_dtype, allclose for floats,
    equality otherwise), else a one-line reason."""
    actual, expected = to_numpy(actual), to_numpy(expected)
    if len(actual) != len(expected):
        return f"{len(actual)} results, expected {len(expected)}"
    for i, (a, e) in enumerate(zip(actual, expected)):
        if a.shape != e.shape:
            return f"result {i}: shape {a.shape}, expected {e.shape}"
        if exact_dtype and a.dtype != e.dtype:
            return f"result {i}: dtype {a.dtype}, expected {e.dtype}"
        if a.dtype.kind in "fc" or e.dtype.kind in "fc":
            if not np.allclose(a, e, rtol=rtol, atol=atol, equal_nan=True):
                with np.errstate(all="ignore"):
                    err = np.abs(a.astype(np.float64) - e) / np.maximum(np.abs(e), np.finfo(np.float64).tiny)
                return f"result {i}: max relative difference {float(np.nanmax(err)):.3g} > rtol {rtol:g} (atol {atol:g})"
        elif not np.array_equal(a, e):
            return f"result {i}: {int(np.sum(a != e))} elements differ"
    return None


def tolerances(bench, quick):
    """(rtol, atol, why) of the comparison with NumPy at the size being run."""
    rtol, atol, why = getattr(bench, "RTOL", 1e-9), getattr(bench, "ATOL", 0.0), getattr(bench, "WHY", "")
    if not quick:
        rtol = getattr(bench, "RTOL_LARGE", rtol)
        atol = getattr(bench, "ATOL_LARGE", atol)
        why = getattr(bench, "WHY_LARGE", why)
    return rtol, atol, why


def median(xs):
    xs = [x for x in (xs or []) if x is not None]
    return statistics.median(xs) if xs else None


def geomean(xs):
    xs = [x for x in xs if x is not None and x > 0]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else None


# ---------------------------------------------------------------------------------------------
# Measurements


def probe_gpu():
    """None when `arrayc run --target gpu` works on this machine, else its one-line reason."""
    c = arrayc_cmd("run", STREAM, "stream_triad", dict(n=1000, iterations=1, s=3.0), *GPU_FLAGS)
    p = subprocess.run(c, capture_output=True, text=True, timeout=ARRAYC_TIMEOUT_S, cwd=REPO)
    lines = (p.stderr or "").strip().splitlines()
    return None if p.returncode == 0 else (lines[-1] if lines else f"exit code {p.returncode}")


def stream_bandwidth(args, repeats, extra=()):
    """Bandwidth of arrayc's runtime in bytes/s from the STREAM triad: runs with `iterations` and
    with 0 iterations, interleaved; bandwidth = (traffic difference) / (median run-time difference),
    i.e. the triad sweeps alone, without the allocation and first touch of the three arrays (page
    faults, paid once per process). Also the plain traffic / run time of the full run."""
    zero = dict(args, iterations=0)
    runs = {"full": [], "zero": []}
    for r in range(repeats):
        for key, a in (("full", args), ("zero", zero)):
            res = run_arrayc(STREAM, "stream_triad", a, "optimal", extra=extra)
            expected = 1.0 + a["s"] * 2.0 if a["iterations"] else 0.0
            if float(res["stdout"].split()[-1]) != expected:
                raise ArraycError(f"stream_triad printed {res['stdout'].strip()}, expected {expected}")
            runs[key].append(res)
            log(f"[stream_triad] iterations={a['iterations']} repeat {r + 1}/{repeats}: {res['time_s']:.3f} s, "
                f"{res['traffic']} bytes")
    t_full, t_zero = median([x["time_s"] for x in runs["full"]]), median([x["time_s"] for x in runs["zero"]])
    tr_full, tr_zero = runs["full"][0]["traffic"], runs["zero"][0]["traffic"]
    source = "traffic line"
    if tr_full is None:  # an arrayc without the traffic line: the triad's own count
        tr_full, tr_zero, source = 3 * 8 * args["n"] * (args["iterations"] + 1), 3 * 8 * args["n"], "3*8*n*(iterations+1)"
    sweep = (tr_full - tr_zero) / max(t_full - t_zero, 1e-9)
    return dict(args=args, time_full_s=t_full, time_zero_s=t_zero, traffic_full=tr_full, traffic_zero=tr_zero,
                bandwidth=sweep, bandwidth_plain=tr_full / t_full, source=source,
                first_touch=tr_zero / t_zero)


def _symbolic(region):
    """Whether a region has views with sizes unknown at compile time (fuse-report counts each such
    size as 1024 elements, so its cost is a placeholder)."""
    return any(isinstance(x, str) for op in region["ops"] for v in op["in"] + op["out"]
               for x in [v["offset"], *v["shape"], *v["strides"]])


def fig14(file, entry, args):
    """Partition cost per algorithm (the paper's Fig. 14) and optimal's search. Costs are summed
    over the regions whose sizes are all known (`cost`), and over all regions (`cost_all`)."""
    out = dict(cost={}, cost_all={})
    symbolic = None
    for alg in REPORT_ALGORITHMS:
        regions = fuse_regions(file, entry, args, alg)
        if symbolic is None:  # the regions are the same for every algorithm; only the blocks differ
            symbolic = [_symbolic(r) for r in regions]
        out["cost"][alg] = sum(r["cost"] for r, sym in zip(regions, symbolic) if not sym)
        out["cost_all"][alg] = sum(r["cost"] for r in regions)
        if alg == "optimal":
            out["regions"] = len(regions)
            out["symbolic_regions"] = sum(symbolic)
            out["cost_unit"] = regions[0]["cost_unit"] if regions else "elements"
            out["proven"] = sum(bool(r["optimal_proven"]) for r in regions)
            out["solve_ms_max"] = max((r["solve_ms"] for r in regions), default=0.0)
            out["solve_ms_total"] = sum(r["solve_ms"] for r in regions)
            out["search_nodes"] = sum(r["search_nodes"] for r in regions)
    return out


_JAX_COMPILES = dict(count=0, seconds=0.0)


def _count_jax_compiles(event, duration, **_):
    if event == "/jax/core/compile/backend_compile_duration":
        _JAX_COMPILES["count"] += 1
        _JAX_COMPILES["seconds"] += duration


def watch_jax_compiles():
    """Count XLA compilations (jax.monitoring), to notice a jax() that compiles on every call."""
    import jax

    if not getattr(watch_jax_compiles, "done", False):
        jax.monitoring.register_event_duration_secs_listener(_count_jax_compiles)
        watch_jax_compiles.done = True


def load_bench(name):
    """The suite module and its NumPy reference function, with `random` rebound to `memo_random`
    in both (a no-op when `install_memo_random` ran before they were imported)."""
    bench = patch_module(suite.load(name))
    ref = suite.reference(bench)
    ref.__globals__.update({k: memo_random for k, v in list(ref.__globals__.items())
                            if _ORIGINAL_RANDOM is not None and v is _ORIGINAL_RANDOM})
    return bench, ref


def measure(name, opts):
    """Everything about one benchmark: a dict as described in `render_report`."""
    bench, ref = load_bench(name)
    args = dict(bench.SMALL if opts.quick else bench.LARGE)
    rtol, atol, why = tolerances(bench, opts.quick)
    row = dict(name=name, args={k: (v.tolist() if isinstance(v, np.ndarray) else v) for k, v in args.items()},
               memory_bound=bool(bench.MEMORY_BOUND), rtol=rtol, atol=atol, why=why,
               times={k: [] for k in IMPLS + ("gpu",)}, traffic={}, launches={}, verify={}, errors={}, notes=[])
    if getattr(bench, "numexpr", None) is None:
        row["errors"]["numexpr"] = "n/a: " + getattr(bench, "NUMEXPR_WHY", "no numexpr version")
    fns = {"numpy": ref, "numexpr": getattr(bench, "numexpr", None), "jax": getattr(bench, "jax", None)}

    def call(impl):
        out = fns[impl](**args)
        if impl == "jax":
            import jax

            out = jax.block_until_ready(out)
        return out

    # Untimed first calls: the reference result, the checks of numexpr and JAX, JAX compilation.
    log(f"[{name}] NumPy reference (untimed; fills the random-input cache) ...")
    t0 = time.perf_counter()
    try:
        expected = to_numpy(ref(**args))
        log(f"[{name}] reference done in {time.perf_counter() - t0:.2f} s")
    except Exception as e:  # noqa: BLE001 - nothing can be checked, but arrayc is still timed
        expected = None
        row["errors"]["numpy"] = f"{type(e).__name__}: {e}"
        log(f"[{name}] NumPy reference error: {e}")
    for impl in ("numexpr", "jax"):
        if fns[impl] is None or impl in row["errors"] or expected is None:
            continue
        try:
            __import__(impl)
        except ImportError as e:
            row["errors"][impl] = f"not installed ({e})"
            continue
        try:
            if impl == "jax":
                watch_jax_compiles()
            t0 = time.perf_counter()
            bad = compare(to_numpy(call(impl)), expected, rtol, atol, exact_dtype=False)
            log(f"[{name}] {impl} untimed first call (compiles): {time.perf_counter() - t0:.2f} s")
            row["verify"][impl] = bad or "ok"
            if bad:
                log(f"[{name}] {impl} FAILED: {bad}")
        except Exception as e:  # noqa: BLE001 - a broken peer must not stop the run
            row["errors"][impl] = f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"
            log(f"[{name}] {impl} error: {row['errors'][impl]}")

    compiles_before = dict(_JAX_COMPILES)
    with tempfile.TemporaryDirectory(prefix=f"arrayc-{name}-") as out_dir:
        for r in range(opts.repeats):
            for impl in IMPLS + (("gpu",) if opts.gpu else ()):
                if impl in row["errors"]:
                    continue
                try:
                    if impl in ARRAYC_RUNS or impl == "gpu":
                        check = impl in ("optimal", "gpu") and r == 0
                        fuse, extra = ("optimal", GPU_FLAGS) if impl == "gpu" else (impl, ())
                        res = run_arrayc(bench.PROGRAM, bench.ENTRY, args, fuse, out_dir=out_dir if check else None,
                                         extra=extra)
                        t = res["time_s"]
                        row["traffic"][impl], row["launches"][impl] = res["traffic"], res["launches"]
                        if check:
                            bad = (compare(load_results(out_dir), expected, rtol, atol, exact_dtype=True)
                                   if expected is not None else "no NumPy result to compare with")
                            row["verify"][impl] = bad or "ok"
                            if bad:
                                log(f"[{name}] arrayc optimal FAILED: {bad}")
                    else:
                        t0 = time.perf_counter()
                        call(impl)
                        t = time.perf_counter() - t0
                except Exception as e:  # noqa: BLE001
                    msg = str(e).strip().splitlines()
                    row["errors"][impl] = f"{type(e).__name__}: {msg[-1] if msg else ''}"
                    log(f"[{name}] {impl} error: {row['errors'][impl]}")
                    continue
                row["times"][impl].append(t)
                log(f"[{name}] {LABELS[impl]:<16} repeat {r + 1}/{opts.repeats}: {t:.3f} s")
    n_comp = _JAX_COMPILES["count"] - compiles_before["count"]
    if n_comp:
        row["notes"].append(f"JAX compiled {n_comp} times ({_JAX_COMPILES['seconds'] - compiles_before['seconds']:.1f} s) "
                            "during its timed calls: its times include compilation (a jax.jit created inside jax()?)")
    try:
        row["fig14"] = fig14(bench.PROGRAM, bench.ENTRY, args)
    except Exception as e:  # noqa: BLE001
        row["errors"]["fuse-report"] = f"{type(e).__name__}: {e}"
    f14 = row.get("fig14")
    if f14 and f14["cost_all"]["optimal"] < f14["cost_all"]["singleton"] and row["traffic"].get("optimal") is not None \
            and row["traffic"].get("optimal") == row["traffic"].get("singleton"):
        row["notes"].append("fuse-report's optimal partition costs less than singleton, but `arrayc run --fuse optimal` "
                            "moves exactly the singleton's traffic: the partition is not applied at run time")
    del expected
    clear_random_cache()
    if "jax" in sys.modules:
        sys.modules["jax"].clear_caches()
    gc.collect()
    return row


def load_average():
    """The 1/5/15-minute load averages: other work on the machine shows here."""
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except OSError:
        return None


def machine_facts():
    cpu = "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    mem = None
    try:
        m = re.search(r"MemTotal:\s+(\d+) kB", Path("/proc/meminfo").read_text())
        mem = int(m.group(1)) * 1024 if m else None
    except OSError:
        pass
    versions = {"python": platform.python_version(), "numpy": np.__version__}
    for mod in ("numexpr", "jax", "matplotlib"):
        try:
            versions[mod] = __import__(mod).__version__
        except Exception:  # noqa: BLE001
            versions[mod] = "not installed"
    try:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=REPO, capture_output=True, text=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=REPO, capture_output=True, text=True).stdout.strip()
        commit += " (with uncommitted changes)" if dirty else ""
    except OSError:
        commit = "unknown"
    return dict(cpu=cpu, cores=os.cpu_count(), memory_bytes=mem, versions=versions, commit=commit,
                kernel=platform.release(), arrayc_built=binary_stamp(), load_before=load_average())


# ---------------------------------------------------------------------------------------------
# Report


def fmt_s(t):
    if t is None:
        return "—"
    return f"{t:.3g}" if t < 1 else f"{t:.2f}" if t < 10 else f"{t:.1f}"


def fmt_x(x):
    return "—" if x is None else f"{x:.2f}x"


def ratio(a, b):
    return a / b if a is not None and b is not None and b > 0 else None


def summary(row, bandwidth):
    """Medians, speed-ups and roofline of one benchmark row."""
    med = {k: median(row["times"].get(k)) for k in IMPLS}
    ok = row["verify"].get("optimal") == "ok"
    traffic = row["traffic"].get("optimal")
    roof = traffic / bandwidth if traffic is not None and bandwidth else None
    return dict(med=med, ok=ok, traffic=traffic, roofline=roof,
                vs_singleton=ratio(med["singleton"], med["optimal"]),
                vs_numpy=ratio(med["numpy"], med["optimal"]),
                vs_jax=ratio(med["jax"], med["optimal"]),
                fraction=ratio(roof, med["optimal"]))


def status(row, impl):
    """'ok', 'FAILED', 'error' or 'n/a' for one implementation of a row."""
    if impl in row["errors"]:
        return "n/a" if row["errors"][impl].startswith("n/a") else "error"
    v = row["verify"].get(impl)
    if v is None:
        return "ok" if impl not in ("optimal", "numexpr", "jax") else "unchecked"
    return "ok" if v == "ok" else "FAILED"


def render_report(results):
    """REPORT.md text (without the kept `## Analysis` part) from a results dict:

    {"date", "command", "quick", "repeats", "machine": machine_facts(), "stream": stream_bandwidth(),
     "benchmarks": [row, ...]} with row = {"name", "args", "memory_bound", "rtol", "atol", "why",
     "times": {impl: [seconds]}, "traffic": {alg: bytes}, "launches": {alg: n}, "verify": {impl: "ok" or
     reason}, "errors": {impl: message}, "notes": [str], "fig14": fig14() (optional)}.
    """
    m, st = results["machine"], results.get("stream") or {}
    bw = st.get("bandwidth")
    rows = results["benchmarks"]
    sums = {row["name"]: summary(row, bw) for row in rows}
    L = ["# Benchmarks: the Benchpress suite under arrayc, NumPy, numexpr and JAX", ""]
    if results.get("quick"):
        L += ["**Quick run (`--quick`): SMALL sizes, a smoke test; the times mean nothing.**", ""]
    mem = f"{m['memory_bytes'] / 2**30:.1f} GiB" if m.get("memory_bytes") else "unknown"
    vers = ", ".join(f"{k} {v}" for k, v in m["versions"].items())
    L += [f"Generated by `{results['command']}` on {results['date']}.", "",
          f"* Machine: {m['cpu']}, {m['cores']} cores, {mem} memory; Linux {m.get('kernel', '?')}.",
          f"* Software: {vers}; arrayc at commit {m.get('commit', '?')}, binary built {m.get('arrayc_built', '?')}"
          + (f" — **rebuilt during the run** ({results['arrayc_built_after']}): the arrayc rows may mix two builds"
             if results.get("arrayc_built_after") not in (None, m.get("arrayc_built")) else "") + ".",
          f"* Load average (1/5/15 min) before the run {m.get('load_before', '?')}, after it {results.get('load_after', '?')}"
          + (f"; the measurements took {results['seconds']} s" if results.get("seconds") else "")
          + f" ({m['cores']} cores: a load above that means other work shared the machine).",
          f"* Median of {results['repeats']} interleaved rounds (each round runs every implementation once). "
          "arrayc: the `time: run` line of `arrayc run --time` (JIT compilation excluded; each run is a "
          "fresh process); NumPy, numexpr (all cores) and JAX (CPU, float64, after one untimed compiling call): "
          "in-process wall time, `jax.block_until_ready` included.",
          "* Random inputs of NumPy/numexpr/JAX come from a memoized `arrayc_random.random` (a copy of a "
          "cached array per shape and seed), so their times exclude input generation; arrayc generates its "
          "random numbers inside its kernels, within its timed run.",
          "* Every result is checked against NumPy (the module's tolerances): arrayc's optimal run, numexpr "
          "and JAX. A mismatch is marked FAILED.", ""]
    if st:
        a = st["args"]
        L += ["## Memory bandwidth (STREAM triad through arrayc)", "",
              f"`{STREAM}` with n={a['n']} ({3 * 8 * a['n'] / 1e6:.0f} MB in three arrays), "
              f"iterations={a['iterations']}, and again with iterations=0 (allocation and fill only).", "",
              "| measure | value |", "|---|---|",
              f"| run time, {a['iterations']} iterations / 0 iterations | {st['time_full_s']:.3f} s / {st['time_zero_s']:.3f} s |",
              f"| traffic ({st['source']}), {a['iterations']} / 0 iterations | {st['traffic_full'] / 1e9:.2f} GB / {st['traffic_zero'] / 1e9:.2f} GB |",
              f"| **bandwidth of the triad sweeps** (difference of the two) — the roofline below | **{bw / 1e9:.1f} GB/s** |",
              f"| traffic / run time of the whole {a['iterations']}-iteration run | {st['bandwidth_plain'] / 1e9:.1f} GB/s |",
              f"| allocation + first fill (0 iterations: traffic / run time) | {st['first_touch'] / 1e9:.2f} GB/s |", ""]
    elif results.get("stream_error"):
        L += ["## Memory bandwidth (STREAM triad through arrayc)", "",
              f"**FAILED** (no roofline): {results['stream_error']}", ""]
    L += ["## Times", "",
          "Seconds (median). Speed-ups are of arrayc optimal over the others (>1: optimal is faster). "
          "Traffic: bytes read and written by the optimal run's kernels as arrayc's cost model counts them; "
          "roofline = traffic / triad bandwidth; fraction = roofline / measured optimal time (1 = at the roofline).", "",
          "| benchmark | singleton | greedy | optimal | NumPy | numexpr | JAX | opt vs singleton | opt vs NumPy "
          "| opt vs JAX | traffic GB | roofline s | fraction of roofline | check |",
          "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for row in rows:
        s = sums[row["name"]]
        med = s["med"]
        checks = [f"{LABELS[i]} {status(row, i)}" for i in ("optimal", "numexpr", "jax") if status(row, i) not in ("ok", "n/a")]
        check = "ok" if not checks else "; ".join(checks)
        name = row["name"] + (" (mem)" if row["memory_bound"] else "")
        if not s["ok"]:
            name += " **FAILED**"
        traffic = "—" if s["traffic"] is None else f"{s['traffic'] / 1e9:.2f}"
        fraction = "—" if s["fraction"] is None else f"{s['fraction']:.2f}"
        L.append(f"| {name} | " + " | ".join(fmt_s(med[k]) for k in IMPLS)
                 + f" | {fmt_x(s['vs_singleton'])} | {fmt_x(s['vs_numpy'])} | {fmt_x(s['vs_jax'])}"
                 + f" | {traffic} | {fmt_s(s['roofline'])} | {fraction} | {check} |")
    g = {k: geomean([sums[r['name']][k] for r in rows]) for k in ("vs_singleton", "vs_numpy", "vs_jax")}
    L.append(f"| **geometric mean** | | | | | | | {fmt_x(g['vs_singleton'])} | {fmt_x(g['vs_numpy'])} | {fmt_x(g['vs_jax'])} | | | | |")
    L += ["", "(mem): memory-bound (the roofline target applies).", "",
          "### Per benchmark", "",
          "| benchmark | arguments | traffic GB singleton / greedy / optimal | kernel launches singleton / greedy / optimal | tolerance | notes |",
          "|---|---|---|---|---|---|"]
    for row in rows:
        tr = " / ".join("—" if row["traffic"].get(k) is None else f"{row['traffic'][k] / 1e9:.2f}" for k in ARRAYC_RUNS)
        la = " / ".join(str(row["launches"].get(k, "—")) for k in ARRAYC_RUNS)
        notes = list(row.get("notes", []))
        for impl, v in row["verify"].items():
            if v != "ok":
                notes.append(f"{LABELS[impl]} FAILED: {v}")
        for impl, e in row["errors"].items():
            notes.append(f"{LABELS.get(impl, impl)}: {e}")
        tol = f"rtol {row['rtol']:g}, atol {row['atol']:g}" + (f" ({row['why']})" if row.get("why") else "")
        argtext = ", ".join(f"{k}={v}" for k, v in row["args"].items())
        L.append(f"| {row['name']} | {argtext} | {tr} | {la} | {tol} | {'; '.join(notes).replace('|', '/')} |")
    L += gpu_section(results)
    L += fig14_section(rows)
    L += targets_section(results, sums, g)
    return "\n".join(L) + "\n"


def gpu_section(results):
    """The GPU column (issue 12): arrayc's optimal partition with `--target gpu`, its device roofline
    (traffic / the triad's device bandwidth) and the fraction of it reached; or why there is none."""
    L = ["", "## GPU (`--target gpu`)", ""]
    if results.get("gpu_missing"):
        return L + [f"No GPU column: `arrayc run --target gpu` cannot run on this machine ({results['gpu_missing']}).", ""]
    st = results.get("stream_gpu") or {}
    bw = st.get("bandwidth")
    if bw:
        L += [f"Device bandwidth of the triad sweeps (STREAM triad through arrayc on the GPU, as above): "
              f"**{bw / 1e9:.1f} GB/s**. Roofline = the GPU run's traffic / that bandwidth; fraction = roofline / "
              f"measured time (target on memory-bound benchmarks: {TARGET_GPU_BANDWIDTH:.0%}).", ""]
    L += ["| benchmark | optimal (CPU) s | GPU s | GPU vs CPU | traffic GB | device roofline s | fraction | check |",
          "|---|---|---|---|---|---|---|---|"]
    for row in results["benchmarks"]:
        cpu, gpu = median(row["times"].get("optimal")), median(row["times"].get("gpu"))
        traffic = row["traffic"].get("gpu")
        roof = traffic / bw if traffic is not None and bw else None
        frac = roof / gpu if roof is not None and gpu else None
        name = row["name"] + (" (mem)" if row["memory_bound"] else "")
        L.append(f"| {name} | {fmt_s(cpu)} | {fmt_s(gpu)} | {fmt_x(cpu / gpu if cpu and gpu else None)} | "
                 f"{'—' if traffic is None else f'{traffic / 1e9:.2f}'} | {fmt_s(roof)} | "
                 f"{'—' if frac is None else f'{frac:.2f}'} | {status(row, 'gpu')} |")
    return L + [""]


def fig14_section(rows):
    L = ["", "## Partition cost per algorithm (the paper's Fig. 14)", "",
         "Total cost (bohrium model, elements moved) over the regions of the program, each region counted once "
         "(not weighted by loop trips), normalised to the singleton partition; the arguments are the run's. "
         "Regions with sizes unknown at compile time (fuse-report counts such a size as 1024) are left out of "
         "the totals: their costs are placeholders (column `symbolic`). Last columns: `optimal`'s "
         "branch-and-bound — regions proven optimal, search nodes, the slowest region's and the total solve time.", "",
         "| benchmark | singleton cost | " + " | ".join(REPORT_ALGORITHMS) + " | regions (symbolic) | proven | nodes "
         "| max solve ms | total solve ms |",
         "|---|---|" + "---|" * len(REPORT_ALGORITHMS) + "---|---|---|---|---|"]
    for row in rows:
        f = row.get("fig14")
        if not f:
            L.append(f"| {row['name']} | — |" + " — |" * (len(REPORT_ALGORITHMS) + 5))
            continue
        c = f["cost"]
        base = c["singleton"] or 1
        L.append(f"| {row['name']} | {c['singleton']} | " + " | ".join(f"{c[a] / base:.3f}" for a in REPORT_ALGORITHMS)
                 + f" | {f['regions']} ({f['symbolic_regions']}) | {f['proven']}/{f['regions']} | {f['search_nodes']}"
                 + f" | {f['solve_ms_max']:.1f} | {f['solve_ms_total']:.1f} |")
    return L


def targets_section(results, sums, g):
    rows = results["benchmarks"]
    names = [r["name"] for r in rows]
    L = ["", "## Targets (issue 4), checked automatically", ""]

    def line(ok, text):
        L.append(f"* {'met' if ok else '**NOT met**'}: {text}")

    missing = [n for n in suite.NAMES if n not in names]
    failed = [r["name"] for r in rows if not sums[r["name"]]["ok"]]
    detail = []
    if missing:
        detail.append(f"not run: {', '.join(missing)}")
    if failed:
        detail.append("FAILED or not checked: " + ", ".join(
            f"{r['name']} ({r['verify'].get('optimal') or r['errors'].get('optimal', 'no result')})"
            for r in rows if r["name"] in failed))
    n_ok = len(rows) - len(failed)
    line(not missing and not failed, f"all {len(suite.NAMES)} benchmarks match NumPy (arrayc optimal): "
         f"{n_ok}/{len(suite.NAMES)}" + (f" — {'; '.join(detail)}" if detail else ""))
    peers = [f"{r['name']} {LABELS[i]}" for r in rows for i in ("numexpr", "jax") if status(r, i) == "FAILED"]
    if peers:
        L.append(f"  (peers that do not match NumPy, not a target: {', '.join(peers)})")
    gs = g["vs_singleton"]
    line(gs is not None and gs >= TARGET_FUSION_GEOMEAN,
         f"optimal >= {TARGET_FUSION_GEOMEAN:g}x singleton on the geometric mean: {fmt_x(gs)}")
    slower = [(r["name"], 1 / sums[r["name"]]["vs_numpy"]) for r in rows
              if sums[r["name"]]["vs_numpy"] is not None and sums[r["name"]]["vs_numpy"] <= 1.0]
    unknown = [r["name"] for r in rows if sums[r["name"]]["vs_numpy"] is None]
    line(not slower and not unknown and not missing,
         "optimal faster than NumPy on every benchmark"
         + (": slower on " + ", ".join(f"{n} (optimal/NumPy time {x:.2f})" for n, x in slower) if slower else "")
         + (f"; no time for {', '.join(unknown)}" if unknown else "")
         + (f"; {len(missing)} not run" if missing else ""))
    gj = g["vs_jax"]
    line(gj is not None and gj > 1.0, f"optimal faster than JAX on the geometric mean: {fmt_x(gj)}")
    mb = [r for r in rows if r["memory_bound"]]
    misses = []
    for r in mb:
        s = sums[r["name"]]
        if s["fraction"] is None:
            misses.append(f"{r['name']} (no measurement)")
        elif 1 / s["fraction"] > TARGET_ROOFLINE:
            misses.append(f"{r['name']} ({1 / s['fraction']:.2f}x the roofline time)")
    line(mb and not misses, f"memory-bound benchmarks within {TARGET_ROOFLINE:g}x of the roofline "
         f"({len(mb)} memory-bound: {', '.join(r['name'] for r in mb) or 'none'})"
         + (": misses " + ", ".join(misses) if misses else ""))
    bad = []
    for r in rows:
        f = r.get("fig14")
        if not f:
            bad.append(f"{r['name']} (no fuse-report)")
        elif f["proven"] < f["regions"] or f["solve_ms_max"] > TARGET_SOLVE_MS:
            bad.append(f"{r['name']} ({f['proven']}/{f['regions']} proven, slowest {f['solve_ms_max']:.0f} ms)")
    line(not bad and bool(rows), f"optimal proves every region within {TARGET_SOLVE_MS / 1000:g} s"
         + (": not on " + ", ".join(bad) if bad else ""))
    return L


def plot(results, out_dir):
    """report.png (speed-up over NumPy) and fig14.png (cost per algorithm / singleton)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        log("matplotlib not installed: no charts")
        return []
    rows = results["benchmarks"]
    names = [r["name"] for r in rows]
    x = np.arange(len(rows))
    written = []
    bars = ("singleton", "greedy", "optimal", "numexpr", "jax")
    fig, ax = plt.subplots(figsize=(max(7, 0.7 * len(rows) + 2), 5))
    w = 0.8 / len(bars)
    for i, impl in enumerate(bars):
        ys = []
        for r in rows:
            t, n = median(r["times"].get(impl)), median(r["times"].get("numpy"))
            ys.append(n / t if t and n else np.nan)
        ax.bar(x + (i - (len(bars) - 1) / 2) * w, ys, w, label=LABELS[impl])
    ax.axhline(1.0, color="black", linewidth=0.8)
    ax.set_yscale("log")
    ax.set_xticks(x, names, rotation=30, ha="right")
    ax.set_ylabel("speed-up over NumPy (log)")
    ax.set_title("Benchpress suite: speed-up over NumPy" + (" (quick: SMALL sizes)" if results.get("quick") else ""))
    ax.legend(fontsize=8, ncol=3)
    fig.tight_layout()
    fig.savefig(out_dir / "report.png", dpi=120)
    plt.close(fig)
    written.append(out_dir / "report.png")

    fig, ax = plt.subplots(figsize=(max(7, 0.7 * len(rows) + 2), 5))
    w = 0.8 / len(REPORT_ALGORITHMS)
    for i, alg in enumerate(REPORT_ALGORITHMS):
        ys = [(r["fig14"]["cost"][alg] / r["fig14"]["cost"]["singleton"]) if r.get("fig14") and r["fig14"]["cost"]["singleton"]
              else np.nan for r in rows]
        ax.bar(x + (i - (len(REPORT_ALGORITHMS) - 1) / 2) * w, ys, w, label=alg.capitalize())
    ax.set_xticks(x, names, rotation=30, ha="right")
    ax.set_ylabel("partition cost / singleton cost")
    ax.set_ylim(0, 1.25)
    ax.set_title("Partition cost per algorithm (cf. Kristensen et al. 2016, Fig. 14)")
    ax.legend(fontsize=8, ncol=5, loc="upper center")
    fig.tight_layout()
    fig.savefig(out_dir / "fig14.png", dpi=120)
    plt.close(fig)
    written.append(out_dir / "fig14.png")
    return written


def write_outputs(results, out_dir):
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    text = render_report(results)
    write_keeping(out_dir / "REPORT.md", text, KEEP_FROM, ANALYSIS_STUB)
    written = [out_dir / "REPORT.md"] + plot(results, out_dir)
    return text, written


# ---------------------------------------------------------------------------------------------


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeats", type=int, default=3, help="interleaved rounds; the median is reported (default 3)")
    ap.add_argument("--only", default="", help="comma-separated benchmark names (default: every available one)")
    ap.add_argument("--quick", action="store_true", help="SMALL sizes and a small triad: a smoke run")
    ap.add_argument("--out-dir", help="where REPORT.md, report.png, fig14.png go (default benchmarks/; "
                                      "with --quick a temporary directory)")
    ap.add_argument("--json", help="also write the raw measurements to this file")
    ap.add_argument("--from-json", help="regenerate the report from a --json file without running anything")
    opts = ap.parse_args(argv)
    out_dir = Path(opts.out_dir) if opts.out_dir else (
        Path(tempfile.gettempdir()) / "arrayc-bench-quick" if opts.quick else REPO / "benchmarks")

    if opts.from_json:
        results = json.loads(Path(opts.from_json).read_text())
    else:
        if not ARRAYC.exists():
            sys.exit(f"{ARRAYC} not found: run `make build` first")
        available = suite.corpus()
        names = [n.strip() for n in opts.only.split(",") if n.strip()] or available
        unknown = [n for n in names if n not in available]
        if unknown:
            sys.exit(f"no benchmark module for {', '.join(unknown)} (available: {', '.join(available)})")
        install_memo_random()  # before any reference or peer is imported
        try:
            import numexpr

            numexpr.set_num_threads(os.cpu_count())
        except ImportError:
            log("numexpr not installed: its column stays empty")
        results = dict(date=datetime.datetime.now().astimezone().isoformat(timespec="minutes"),
                       command="python3 benchmarks/harness.py" + "".join(f" {a}" for a in (argv if argv is not None else sys.argv[1:])),
                       quick=opts.quick, repeats=opts.repeats, machine=machine_facts(), benchmarks=[])
        t0 = time.perf_counter()
        try:
            results["stream"] = stream_bandwidth(STREAM_QUICK if opts.quick else STREAM_LARGE, opts.repeats)
            log(f"[stream_triad] bandwidth {results['stream']['bandwidth'] / 1e9:.1f} GB/s")
        except (ArraycError, subprocess.TimeoutExpired, ValueError) as e:
            results["stream"], results["stream_error"] = None, str(e)
            log(f"[stream_triad] FAILED, no roofline: {e}")
        results["gpu_missing"] = probe_gpu()
        opts.gpu = results["gpu_missing"] is None
        log(f"[gpu] {'found: the GPU column is measured' if opts.gpu else 'none: ' + results['gpu_missing']}")
        if opts.gpu:
            try:
                results["stream_gpu"] = stream_bandwidth(STREAM_QUICK if opts.quick else STREAM_LARGE, opts.repeats,
                                                         extra=GPU_FLAGS)
                log(f"[stream_triad] device bandwidth {results['stream_gpu']['bandwidth'] / 1e9:.1f} GB/s")
            except (ArraycError, subprocess.TimeoutExpired, ValueError) as e:
                results["stream_gpu"] = None
                log(f"[stream_triad] on the GPU FAILED, no device roofline: {e}")
        for name in names:
            results["benchmarks"].append(measure(name, opts))
            if opts.json:  # keep what is measured so far
                Path(opts.json).write_text(json.dumps(results, indent=1))
        results["seconds"] = round(time.perf_counter() - t0)
        results["load_after"] = load_average()
        results["arrayc_built_after"] = binary_stamp()
        log(f"measured in {results['seconds']} s")
        if opts.json:
            Path(opts.json).write_text(json.dumps(results, indent=1))
    text, written = write_outputs(results, out_dir)
    print(text)
    log("written: " + ", ".join(str(p) for p in written))


if __name__ == "__main__":
    main()

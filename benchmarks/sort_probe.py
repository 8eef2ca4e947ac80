"""The device sort of the GPU targets (pass `expand-sort`, a bitonic network: docs/gpu.md,
Limits) against CuPy's and JAX's sorts (radix sorts) on the same GPU, and arrayc's CPU sort, in
one run.

arrayc runs `benchmarks/programs/sort_probe.arr`: n uniform f64 drawn on the device
(`random(n, seed)`), then `sort` (or `argsort`) and three elements of the result read back, so that
neither an upload nor a download of n elements is timed; `--time`'s run phase of that program,
minus the run phase of the same program without the sort (`--what none`), is the sort's time. The
median of REPEATS runs each, interleaved, after a first run that fills the compile cache. CuPy
(`cupy.sort`, `cupy.argsort`) and JAX (`jnp.sort`, `jnp.argsort` under `jax.jit`, stable) sort
the same number of uniform f64 made on the device, timed between CUDA events (CuPy) or around
`block_until_ready` (JAX), median of REPEATS after one untimed call. Each peer missing is a loud
note, not a failure.

    ARRAYC=target/release/arrayc python3 benchmarks/sort_probe.py [--n 10000000] [--repeats 3]
        [--target gpu] [--no-peers]

`--target gpu-emulated --n 4096 --no-peers` checks the arrayc part on a machine without a GPU;
`--target cpu` times arrayc's host sort the same way.
"""
import argparse
import os
import re
import statistics
import subprocess
import sys
import time

from harness import arrayc_cmd
from stream_probe import cupy_time, loud, say

PROGRAM, ENTRY = "benchmarks/programs/sort_probe.arr", "probe"
WHAT = {"none": 0, "sort": 1, "argsort": 2}


def arrayc_run(n, what, target):
    """The run phase (ms) and the launch count of one run, checking the printed value."""
    cmd = arrayc_cmd("run", PROGRAM, ENTRY, dict(n=n, what=WHAT[what], seed=1), "--target", target, "--time")
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    text = p.stdout + p.stderr
    m = re.search(r"time: run\s+([\d.]+) ms", text)
    if p.returncode != 0 or not m:
        raise RuntimeError(f"`{' '.join(cmd)}` exited with {p.returncode}:\n{text[-1500:]}")
    value = float(p.stdout.split()[-1])
    # Uniform draws in [0, 1): the sorted first, middle and last sum to about 1.5; positions are
    # integers below n.
    if what == "sort" and not 1.4 < value < 1.6 or what == "argsort" and not 0 <= value < 3 * n:
        raise RuntimeError(f"sort_probe.arr n={n} what={what} printed {value}")
    t = re.search(r"traffic: (\d+) bytes in (\d+) kernel launches", text)
    return float(m.group(1)), int(t.group(2)) if t else None


def probe_arrayc(n, repeats, target):
    """{what: median ms of the sort alone}, and the launches of a sort."""
    arrayc_run(n, "sort", target)
    runs = {w: [] for w in WHAT}
    launches = {}
    for r in range(repeats):
        for w in WHAT:
            ms, launches[w] = arrayc_run(n, w, target)
            runs[w].append(ms)
        say(f"arrayc --target {target} round {r + 1}/{repeats}: " + ", ".join(f"{w} {runs[w][-1]:.2f} ms" for w in WHAT))
    base = statistics.median(runs["none"])
    out = {w: statistics.median(runs[w]) - base for w in ("sort", "argsort")}
    extra = None if launches["sort"] is None else launches["sort"] - launches["none"]
    return out, extra


def probe_cupy(n, repeats):
    try:
        import cupy as cp
    except ImportError as e:
        loud(f"no CuPy ({e}): pip install cupy-cuda12x for its sort column")
        return None
    x = cp.random.default_rng(1).random(n, dtype=cp.float64)
    return {"sort": cupy_time(cp, lambda: cp.sort(x), 1, repeats),
            "argsort": cupy_time(cp, lambda: cp.argsort(x), 1, repeats)}


def probe_jax(n, repeats):
    try:
        import jax
        import jax.numpy as jnp
    except ImportError as e:
        loud(f"no JAX ({e}): pip install 'jax[cuda12]' for its sort column")
        return None
    if jax.default_backend() != "gpu":
        loud(f"JAX runs on {jax.default_backend()}, not a GPU: no JAX column")
        return None
    jax.config.update("jax_enable_x64", True)
    x = jax.random.uniform(jax.random.PRNGKey(1), (n,), dtype=jnp.float64)
    out = {}
    for name, fn in (("sort", jax.jit(jnp.sort)), ("argsort", jax.jit(lambda v: jnp.argsort(v, stable=True)))):
        fn(x).block_until_ready()
        times = []
        for _ in range(repeats):
            t0 = time.perf_counter()
            fn(x).block_until_ready()
            times.append((time.perf_counter() - t0) * 1e3)
        out[name] = statistics.median(times)
    return out


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--n", type=int, default=10_000_000)
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--target", default="gpu", choices=["gpu", "gpu-emulated", "cpu"])
    p.add_argument("--no-peers", action="store_true", help="skip CuPy and JAX")
    p.add_argument("--no-cpu", action="store_true", help="skip arrayc's --target cpu column")
    opts = p.parse_args(argv)
    say(f"n = {opts.n} f64, {opts.repeats} repeats; arrayc {os.environ.get('ARRAYC', 'target/release/arrayc')}")
    cols = {}
    try:
        cols[f"arrayc {opts.target}"], launches = probe_arrayc(opts.n, opts.repeats, opts.target)
        say(f"arrayc --target {opts.target}: a sort is {launches} kernel launches")
    except RuntimeError as e:
        loud(f"arrayc --target {opts.target} failed: {e}")
        return 1
    if not opts.no_cpu and opts.target != "cpu":
        cols["arrayc cpu"], _ = probe_arrayc(opts.n, opts.repeats, "cpu")
    if not opts.no_peers:
        for name, probe in (("CuPy", probe_cupy), ("JAX", probe_jax)):
            r = probe(opts.n, opts.repeats)
            if r is not None:
                cols[name] = r
    print(f"\n| n = {opts.n} | " + " | ".join(f"{c} (ms)" for c in cols) + " |")
    print("|---|" + "---:|" * len(cols))
    for what in ("sort", "argsort"):
        print(f"| {what} | " + " | ".join(f"{cols[c][what]:.2f}" for c in cols) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())

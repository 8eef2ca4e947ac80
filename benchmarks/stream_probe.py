"""The streaming probe of issue 33: how close arrayc's GPU kernels come to the device's memory
bandwidth, against CuPy and a device-to-device copy measured in the same run.

The program `benchmarks/programs/stream.arr` runs `sweeps` sweeps of `c[:] = a + 0.5 * b;
a[:] = b + 0.5 * c` over f64 arrays of n elements (default n = 10^8, 800 MB each). Measured:

* arrayc: `arrayc run --target gpu --time` with `--sweeps HI` and `--sweeps LO` (default 20 and 4),
  a first run to fill the caches, then REPEATS runs of each, interleaved; per sweep: the
  difference of the median `time: run` phases / (HI - LO), so the allocation, the fills, the final
  sum and the copy of its 8 bytes cancel. arrayc fuses a sweep into one kernel (reads a and b,
  writes c and a); its own traffic count (`--time`'s `traffic:` line, each array once) is
  3 * 8 * n bytes per sweep, the bytes that cross the memory bus are 4 * 8 * n (a is read and
  written). Both are printed; TB/s uses the bus bytes (4 arrays per kernel launch of a sweep,
  6 if a sweep is two launches, taken from the traffic line's launch count);
* CuPy, one `ElementwiseKernel` doing the two statements per element (reads a and b, writes c and
  a: 4 * 8 * n bytes), and two kernels, one per statement (6 * 8 * n bytes), HI sweeps between
  CUDA events, median of REPEATS;
* the device copy: `cudaMemcpyAsync` device to device of n f64 and CuPy's copy kernel
  (`dst[...] = src`), 2 * 8 * n bytes each (read + write), median of REPEATS rounds of 10 copies.

Printed: ms per sweep, TB/s of each, arrayc's TB/s as a percentage of the best device copy's
(issue 33 asks for >= 85%) and of CuPy's fused kernel's. Without CuPy a loud note and arrayc alone.

    ARRAYC=target/release/arrayc python3 benchmarks/stream_probe.py [--n N] [--hi 20] [--lo 4]
        [--repeats 3] [--target gpu] [--no-cupy] [--sync-baseline]

`--target gpu-emulated` (with a small --n) checks the arrayc part on a machine without a GPU.
"""
import argparse
import os
import re
import statistics
import subprocess
import sys
import time

from gpu_check import SYNC_BASELINE_ENV
from harness import ARRAYC, arrayc_cmd

PROGRAM, ENTRY = "benchmarks/programs/stream.arr", "stream"
T0 = time.perf_counter()


def say(msg):
    print(f"[{time.perf_counter() - T0:6.1f} s] {msg}", flush=True)


def loud(msg):
    print(f"!!! NOTE: {msg}", flush=True)


def expected(n, k):
    """sum(a) after k sweeps: every element is 2.5 - 1.5 * 0.5^k."""
    return n * (2.5 - 1.5 * 0.5 ** k)


def arrayc_run(n, k, target, env=None):
    """One run, with `env` added to the environment: dict(ms, traffic, launches, value, device line)
    or raises RuntimeError."""
    cmd = arrayc_cmd("run", PROGRAM, ENTRY, dict(n=n, sweeps=k), "--target", target, "--time")
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=300, env={**os.environ, **env} if env else None)
    text = p.stdout + p.stderr
    m = re.search(r"time: run\s+([\d.]+) ms", text)
    if p.returncode != 0 or not m:
        raise RuntimeError(f"`{' '.join(cmd)}` exited with {p.returncode}:\n{text[-1500:]}")
    t = re.search(r"traffic: (\d+) bytes in (\d+) kernel launches", text)
    d = re.search(r"^device: .*$", text, re.M)
    value = float(p.stdout.split()[-1])
    if abs(value - expected(n, k)) > 1e-9 * expected(n, k):
        raise RuntimeError(f"stream.arr n={n} sweeps={k} printed {value}, expected {expected(n, k)}")
    return dict(ms=float(m.group(1)), traffic=int(t.group(1)) if t else None,
                launches=int(t.group(2)) if t else None, device=d.group(0) if d else "")


def probe_arrayc(n, hi, lo, repeats, target, env=None):
    """ms per sweep, traffic-line bytes per sweep, bus bytes per sweep, launches per sweep."""
    say(f"arrayc --target {target} {env or ''}: n={n}, first run (sweeps={hi}) ...")
    first = arrayc_run(n, hi, target, env)
    say(f"arrayc first run: run {first['ms']:.3f} ms; {first['device']}")
    runs = {hi: [], lo: []}
    for r in range(repeats):
        for k in (hi, lo):
            runs[k].append(arrayc_run(n, k, target, env))
            say(f"arrayc sweeps={k} repeat {r + 1}/{repeats}: run {runs[k][-1]['ms']:.3f} ms, "
                f"traffic {runs[k][-1]['traffic']} bytes in {runs[k][-1]['launches']} launches")
    t_hi, t_lo = (statistics.median(x["ms"] for x in runs[k]) for k in (hi, lo))
    per_sweep_ms = (t_hi - t_lo) / (hi - lo)
    if runs[hi][0]["traffic"] is not None:
        traffic = (runs[hi][0]["traffic"] - runs[lo][0]["traffic"]) / (hi - lo)
        launches = (runs[hi][0]["launches"] - runs[lo][0]["launches"]) / (hi - lo)
    else:
        traffic, launches = 3 * 8 * n, 1.0
        loud("no traffic line: assuming arrayc's count of 3 * 8 * n bytes in 1 launch per sweep")
    if launches == 1:
        bus, why = 4 * 8 * n, "1 launch per sweep: reads a, b, writes c, a = 4 * 8 * n"
    elif launches == 2:
        bus, why = 6 * 8 * n, "2 launches per sweep: each reads 2 arrays, writes 1 = 6 * 8 * n"
    else:
        bus, why = traffic, f"{launches:g} launches per sweep: arrayc's traffic count taken as is"
    say(f"arrayc: median run {t_hi:.3f} ms (sweeps={hi}), {t_lo:.3f} ms (sweeps={lo}): {per_sweep_ms:.4f} ms per "
        f"sweep; traffic line {traffic / (8 * n):g} * 8 * n bytes per sweep; bus bytes assumed: {why}")
    return per_sweep_ms, traffic, bus


def cupy_time(cp, fn, reps, repeats):
    """Median ms of `reps` calls of fn between two CUDA events (after one untimed call)."""
    fn()
    cp.cuda.Device().synchronize()
    times = []
    for _ in range(repeats):
        start, end = cp.cuda.Event(), cp.cuda.Event()
        start.record()
        for _ in range(reps):
            fn()
        end.record()
        end.synchronize()
        times.append(cp.cuda.get_elapsed_time(start, end) / reps)
    return statistics.median(times)


def probe_cupy(n, sweeps, repeats):
    """dict(name -> (ms per sweep or copy, bytes moved)) or None without CuPy."""
    try:
        import cupy as cp

        cp.cuda.runtime.getDeviceCount()
    except Exception as e:  # noqa: BLE001
        loud(f"cupy is missing or has no GPU ({type(e).__name__}: {e}): no CuPy or device-copy figures")
        return None
    dev = cp.cuda.runtime.getDeviceProperties(0)["name"]
    say(f"cupy {cp.__version__}: device {dev.decode() if isinstance(dev, bytes) else dev}, "
        f"n={n}, {sweeps} sweeps per timing")
    out = {}
    a, b, c = cp.full(n, 1.0), cp.full(n, 1.0), cp.zeros(n)
    try:
        fused = cp.ElementwiseKernel("float64 b", "float64 a, float64 c",
                                     "c = a + 0.5 * b; a = b + 0.5 * c;", "stream_sweep_fused")
        step = cp.ElementwiseKernel("float64 x, float64 y", "float64 z", "z = x + 0.5 * y", "stream_step")

        def sweep_fused():
            fused(b, a, c)

        def sweep_two():
            step(a, b, c)  # c = a + 0.5 * b
            step(b, c, a)  # a = b + 0.5 * c

        for name, fn, nbytes in (("cupy ElementwiseKernel, fused (4 arrays)", sweep_fused, 4 * 8 * n),
                                 ("cupy ElementwiseKernel, 2 kernels (6 arrays)", sweep_two, 6 * 8 * n)):
            try:
                a.fill(1.0)
                fn()
                got = float(a.sum())
                if abs(got - expected(n, 1)) > 1e-9 * expected(n, 1):
                    loud(f"{name}: one sweep gave sum(a) = {got}, expected {expected(n, 1)}: not timed")
                    continue
                out[name] = (cupy_time(cp, fn, sweeps, repeats), nbytes)
                say(f"{name}: {out[name][0]:.4f} ms per sweep")
            except Exception as e:  # noqa: BLE001
                loud(f"{name} failed: {type(e).__name__}: {e}")
        src, dst = a, c
        kind = cp.cuda.runtime.memcpyDeviceToDevice

        def memcpy():
            cp.cuda.runtime.memcpyAsync(dst.data.ptr, src.data.ptr, 8 * n, kind,
                                        cp.cuda.get_current_stream().ptr)

        def copy_kernel():
            dst[...] = src

        for name, fn in (("device copy, cudaMemcpyAsync D2D", memcpy), ("device copy, cupy dst[...] = src", copy_kernel)):
            try:
                out[name] = (cupy_time(cp, fn, 10, repeats), 2 * 8 * n)
                say(f"{name}: {out[name][0]:.4f} ms per copy")
            except Exception as e:  # noqa: BLE001
                loud(f"{name} failed: {type(e).__name__}: {e}")
    finally:
        del a, b, c
        cp.get_default_memory_pool().free_all_blocks()
    return out


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--n", type=int, default=100_000_000, help="elements per array (default %(default)s)")
    p.add_argument("--hi", type=int, default=20, help="sweeps of the long run (default %(default)s)")
    p.add_argument("--lo", type=int, default=4, help="sweeps of the short run (default %(default)s)")
    p.add_argument("--repeats", type=int, default=3, help="default %(default)s")
    p.add_argument("--target", default="gpu", help="arrayc's target (default gpu; gpu-emulated for a smoke test)")
    p.add_argument("--no-cupy", action="store_true")
    p.add_argument("--sync-baseline", action="store_true",
                   help="arrayc also with every launch waited for on the fixed grid of before issue 33 "
                   "(gpu_check.SYNC_BASELINE_ENV)")
    opts = p.parse_args(argv)
    if opts.hi <= opts.lo:
        sys.exit("--hi must be larger than --lo")
    n = opts.n
    rows, status = [], 0
    try:
        ms, traffic, bus = probe_arrayc(n, opts.hi, opts.lo, opts.repeats, opts.target)
        rows.append((f"arrayc --target {opts.target} (bus bytes)", ms, bus))
        rows.append((f"arrayc --target {opts.target} (its traffic count)", ms, traffic))
    except Exception as e:  # noqa: BLE001
        loud(f"arrayc failed: {e}")
        ms, status = None, 1
    if opts.sync_baseline:
        try:
            ms, traffic, bus = probe_arrayc(n, opts.hi, opts.lo, opts.repeats, opts.target, SYNC_BASELINE_ENV)
            rows.append((f"arrayc {opts.target}, sync baseline (bus bytes)", ms, bus))
        except Exception as e:  # noqa: BLE001
            loud(f"arrayc (sync baseline) failed: {e}")
            status = 1
    peers = None if opts.no_cupy else probe_cupy(n, opts.hi, opts.repeats)
    rows += [(k, v[0], v[1]) for k, v in (peers or {}).items()]

    print(f"\n== streaming probe: n = {n} f64 ({8 * n / 1e6:.0f} MB per array); TB/s = bytes / time", flush=True)
    print(f"{'':48} {'ms':>9} {'bytes':>14} {'TB/s':>7}")
    tbs = {}
    for name, t, nbytes in rows:
        tbs[name] = nbytes / (t * 1e-3) / 1e12 if t and t > 0 else None
        print(f"{name:48} {t:9.4f} {nbytes:14.4g} " + (f"{tbs[name]:7.3f}" if tbs[name] else f"{'-':>7}"))
    arr = tbs.get(f"arrayc --target {opts.target} (bus bytes)")
    copies = [v for k, v in tbs.items() if k.startswith("device copy") and v]
    fused = tbs.get("cupy ElementwiseKernel, fused (4 arrays)")
    if arr and copies:
        print(f"arrayc / best device copy: {100 * arr / max(copies):.1f}% (issue 33: >= 85%)")
    if arr and fused:
        print(f"arrayc / cupy fused kernel: {100 * arr / fused:.1f}% (same bytes: time ratio)")
    sys.stdout.flush()
    return status


if __name__ == "__main__":
    if not ARRAYC.is_file():
        sys.exit(f"arrayc not found at {ARRAYC}: build it (cargo build --release) or set ARRAYC")
    sys.exit(main())

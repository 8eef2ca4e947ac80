#!/usr/bin/env python3
"""`convolve(a, v, mode=)` of a long f64 array with a short one (issue 31): arrayc binaries against
NumPy's `np.convolve`, and the Benchpress program `benchmarks/programs/convolve1d.arr` at its LARGE
arguments (`benchmarks/suite/convolve1d.py`) against its NumPy reference.

    python3 benchmarks/convolve.py [--arrayc BIN ...] [--repeats 3] [--sizes 1000000 10000000] [--taps 100 10]

Every round (interleaved, so that all see the same machine load) times NumPy in-process (best of 3
calls, `time.perf_counter`; the reference's whole loop for convolve1d) and runs each binary given
with `--arrayc` (default `target/release/arrayc`) on every case, reading `a` and `v` from `.npy`
files: the run phase is the `time: run` line of `arrayc run --time` (JIT compilation excluded), end
to end the wall time of the whole process. Each arrayc result is checked against NumPy (relative
and absolute 1e-9; the inputs are uniform in [0, 1)). Prints the medians over the rounds as a
Markdown table, with ratios to NumPy, and the load average before and after (the machine is shared).
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "examples" / "reference"))
sys.path.insert(0, str(REPO / "benchmarks" / "suite"))
import convolve1d as suite  # noqa: E402
from arrayc_random import random  # noqa: E402
from axis_reduce import print_numpy_table  # noqa: E402

MODES = ["full", "same", "valid"]
RUN_LINE = re.compile(r"^time: run\s+([0-9.]+) ms", re.M)


def run_arrayc(binary, src, args, out_dir, entry=None):
    """(run phase ms, end-to-end ms, result) of one `arrayc run --time`."""
    cmd = [binary, "run", "--time", str(src), "--out", str(out_dir)]
    cmd += [f"--arg={k}={v}" for k, v in args.items()] + (["--entry", entry] if entry else [])
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True, check=True)
    wall = (time.perf_counter() - t0) * 1e3
    return float(RUN_LINE.search(proc.stderr).group(1)), wall, np.load(out_dir / "result_0.npy")


def best_ms(f, calls):
    """The shortest of `calls` timings of `f()`, in milliseconds."""
    best = float("inf")
    for _ in range(calls):
        t0 = time.perf_counter()
        f()
        best = min(best, time.perf_counter() - t0)
    return best * 1e3


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--arrayc", action="append", help="an arrayc binary (repeatable)")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--sizes", type=int, nargs="+", default=[1_000_000, 10_000_000])
    ap.add_argument("--taps", type=int, nargs="+", default=[100, 10])
    args = ap.parse_args()
    binaries = args.arrayc or [str(REPO / "target" / "release" / "arrayc")]
    rng = np.random.default_rng(0)
    cases = [(n, m, mode) for n in args.sizes for m in args.taps for mode in MODES]
    bench = "convolve1d LARGE"
    large = suite.LARGE
    numpy_ms = {c: [] for c in cases + [bench]}
    times = {(b, c): ([], []) for b in binaries for c in cases + [bench]}
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        arrays = {}
        for name, size in [("a", n) for n in args.sizes] + [("v", m) for m in args.taps]:
            arrays[(name, size)] = (tmp / f"{name}{size}.npy", rng.random(size))
            np.save(*arrays[(name, size)])
        inputs = {c: (arrays[("a", c[0])][0], arrays[("v", c[1])][0]) for c in cases}
        wants = {c: (arrays[("a", c[0])][1], arrays[("v", c[1])][1]) for c in cases}
        srcs = {}
        for mode in MODES:
            srcs[mode] = tmp / f"{mode}.arr"
            srcs[mode].write_text(f"fn main(a: f64[n], v: f64[m]) -> f64[?] {{\n    return convolve(a, v, mode={mode});\n}}\n")
        image = random(large["image_size"], seed=large["seed"])
        image_filter = random(large["filter_size"], seed=large["seed"] + 1)

        def reference():
            r = None
            for _ in range(large["iterations"]):
                r = np.convolve(image, image_filter)
            return r

        want_bench = reference()
        for r in range(args.repeats):
            for c in cases:
                a, v = wants[c]
                numpy_ms[c].append(best_ms(lambda: np.convolve(a, v, c[2]), 3))
            numpy_ms[bench].append(best_ms(reference, 1))
            for b in binaries if r % 2 == 0 else binaries[::-1]:
                for c in cases:
                    a_path, v_path = inputs[c]
                    run_ms, wall_ms, got = run_arrayc(b, srcs[c[2]], {"a": f"@{a_path}", "v": f"@{v_path}"}, tmp / "out")
                    a, v = wants[c]
                    np.testing.assert_allclose(got, np.convolve(a, v, c[2]), rtol=1e-9, atol=1e-9, err_msg=f"{b} {c}")
                    times[(b, c)][0].append(run_ms)
                    times[(b, c)][1].append(wall_ms)
                run_ms, wall_ms, got = run_arrayc(b, REPO / suite.PROGRAM, large, tmp / "out", suite.ENTRY)
                np.testing.assert_allclose(got, want_bench, rtol=suite.RTOL, atol=suite.ATOL, err_msg=f"{b} {bench}")
                times[(b, bench)][0].append(run_ms)
                times[(b, bench)][1].append(wall_ms)
            print(f"round {r + 1}/{args.repeats} done", file=sys.stderr)
    load_after = os.getloadavg()
    print(f"a, v: f64 uniform; median of {args.repeats} interleaved rounds; load average before "
          f"{[round(x, 2) for x in load_before]}, after {[round(x, 2) for x in load_after]} ({os.cpu_count()} cores)\n")
    names = [(c, bench if c == bench else f"n={c[0]}, m={c[1]}, {c[2]}") for c in cases + [bench]]
    print_numpy_table("case", names, binaries, numpy_ms, times, 1)

if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""`sum(x, axis=0)` of a tall, narrow f64 matrix (issue 9): arrayc against NumPy's
`np.sum(x, axis=0)`, and against arrayc's own `sum(x.T, axis=1)` (the same sums along the last
axis of a transposed view).

    python3 benchmarks/axis_reduce.py [--arrayc BIN ...] [--rows 500000] [--cols 32] [--repeats 7]

Every round (interleaved, so that all see the same machine load) times NumPy in-process (best of 5
calls, `time.perf_counter`) and runs each binary given with `--arrayc` (default
`target/release/arrayc`) on both programs, reading `x` from one `.npy` file: the run phase is the
`time: run` line of `arrayc run --time` (JIT compilation excluded), end to end the wall time of the
whole process. Each arrayc result is checked against NumPy (relative 1e-12 of the sum of
magnitudes). Prints the medians over the rounds as a Markdown table, with ratios to NumPy, and the
load average before and after (the machine is shared).
"""
import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
PROGRAMS = {
    "sum(x, axis=0)": "fn main(x: f64[N, M]) -> f64[M] {\n    return sum(x, axis=0);\n}\n",
    "sum(x.T, axis=1)": "fn main(x: f64[N, M]) -> f64[M] {\n    return sum(x.T, axis=1);\n}\n",
}
RUN_LINE = re.compile(r"^time: run\s+([0-9.]+) ms", re.M)


def print_numpy_table(label, rows, binaries, numpy_ms, times, digits):
    """Prints the Markdown table of a side-by-side run against NumPy: one row per `(key, name)` of
    `rows`, NumPy's median (`numpy_ms[key]`, ms) and, per binary, the median run phase and end to
    end (`times[(binary, key)]` = (run ms list, wall ms list)) and the run phase's ratio to NumPy;
    times with `digits` decimals."""
    print(f"| {label} | NumPy (ms) | " + " | ".join(f"`{b}` run (ms) | / NumPy | end to end (ms)" for b in binaries) + " |")
    print("|---|---:|" + "---:|---:|---:|" * len(binaries))
    for key, name in rows:
        np_med = statistics.median(numpy_ms[key])
        row = f"| {name} | {np_med:.{digits}f} |"
        for b in binaries:
            run_ms, wall_ms = (statistics.median(v) for v in times[(b, key)])
            row += f" {run_ms:.{digits}f} | {run_ms / np_med:.2f} | {wall_ms:.0f} |"
        print(row)


def run_arrayc(binary, src, x_path, out_dir):
    """(run phase ms, end-to-end ms, result) of one `arrayc run --time`."""
    t0 = time.perf_counter()
    proc = subprocess.run([binary, "run", "--time", str(src), "--arg", f"x=@{x_path}", "--out", str(out_dir)],
                          capture_output=True, text=True, check=True)
    wall = (time.perf_counter() - t0) * 1e3
    return float(RUN_LINE.search(proc.stderr).group(1)), wall, np.load(out_dir / "result_0.npy")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--arrayc", action="append", help="an arrayc binary (repeatable)")
    ap.add_argument("--rows", type=int, default=500_000)
    ap.add_argument("--cols", type=int, default=32)
    ap.add_argument("--repeats", type=int, default=7)
    args = ap.parse_args()
    binaries = args.arrayc or [str(REPO / "target" / "release" / "arrayc")]
    x = np.random.default_rng(0).standard_normal((args.rows, args.cols))
    want = np.sum(x, axis=0)
    tol = 1e-12 * np.sum(np.abs(x), axis=0)
    load_before = os.getloadavg()
    numpy_ms = []
    times = {(b, p): ([], []) for b in binaries for p in PROGRAMS}
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        x_path = tmp / "x.npy"
        np.save(x_path, x)
        srcs = {}
        for k, (name, text) in enumerate(PROGRAMS.items()):
            srcs[name] = tmp / f"p{k}.arr"
            srcs[name].write_text(text)
        for r in range(args.repeats):
            best = float("inf")
            for _ in range(5):
                t0 = time.perf_counter()
                np.sum(x, axis=0)
                best = min(best, time.perf_counter() - t0)
            numpy_ms.append(best * 1e3)
            order = binaries if r % 2 == 0 else binaries[::-1]
            for b in order:
                for name, src in srcs.items():
                    run_ms, wall_ms, got = run_arrayc(b, src, x_path, tmp / "out")
                    assert np.all(np.abs(got - want) <= tol), f"{b} {name}: wrong result"
                    times[(b, name)][0].append(run_ms)
                    times[(b, name)][1].append(wall_ms)
            print(f"round {r + 1}/{args.repeats} done", file=sys.stderr)
    load_after = os.getloadavg()
    np_med = statistics.median(numpy_ms)
    print(f"x: f64 {args.rows}x{args.cols}; median of {args.repeats} interleaved rounds; "
          f"load average before {[round(v, 2) for v in load_before]}, after {[round(v, 2) for v in load_after]} "
          f"({os.cpu_count()} cores)\n")
    print("| implementation | program | run (ms) | run / NumPy | end to end (ms) |")
    print("|---|---|---:|---:|---:|")
    print(f"| NumPy `np.sum(x, axis=0)` (best of 5 calls) | | {np_med:.2f} | 1.00 | |")
    for b in binaries:
        for name in PROGRAMS:
            run_ms, wall_ms = (statistics.median(v) for v in times[(b, name)])
            print(f"| `{b}` | `{name}` | {run_ms:.2f} | {run_ms / np_med:.2f} | {wall_ms:.0f} |")


if __name__ == "__main__":
    main()

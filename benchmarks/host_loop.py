#!/usr/bin/env python3
"""Host loops of scalar element writes (issue 9): two `arrayc` binaries, old and new, on the
programs of `benchmarks/host_loop/` (a `while` loop and a `for` loop writing `x[i]`, and a `for`
loop reading `x[i-1]` and writing `x[i]`), run interleaved so that both see the same machine load.

    python3 benchmarks/host_loop.py OLD_ARRAYC NEW_ARRAYC [--repeats N] [--sizes 1000000,100000]

Each round runs every case once with each binary, alternating which goes first. Per case it
reports the median over the rounds of the run phase (`time: run` of `arrayc run --time`: JIT
compilation excluded), of the process's wall time, and of its CPU time (user + system, which other
work on the machine inflates less than wall time), the ratios old/new (the speed-up), and the run
phase per loop iteration. Every new result is compared with the old one (`--out` .npy files,
byte for byte). The Markdown table goes to stdout; progress goes to stderr.
"""
import argparse
import filecmp
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PROGRAMS = ["while_write", "for_write", "for_read_write"]


def run(binary, program, n, out):
    """One `arrayc run --time` of `program` with n: (run phase ms, wall ms, CPU ms)."""
    start = time.perf_counter()
    proc = subprocess.Popen([binary, "run", "--time", "--arg", f"n={n}", "--out", out, program],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    stderr = proc.stderr.read()
    _, status, usage = os.wait4(proc.pid, 0)
    wall = (time.perf_counter() - start) * 1e3
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        sys.exit(f"{binary} failed on {program} (n={n}):\n{stderr}")
    phase = next(float(l.split()[2]) for l in stderr.splitlines() if l.startswith("time: run"))
    return phase, wall, (usage.ru_utime + usage.ru_stime) * 1e3


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--sizes", default="1000000,100000")
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    cases = [(p, n) for n in sizes for p in PROGRAMS]
    times = {(c, b): [] for c in cases for b in ("old", "new")}
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory() as tmp:
        for r in range(args.repeats):
            for i, (prog, n) in enumerate(cases):
                program = str(ROOT / "benchmarks" / "host_loop" / f"{prog}.arr")
                order = ("old", "new") if (r + i) % 2 == 0 else ("new", "old")
                for b in order:
                    out = f"{tmp}/{b}"
                    times[((prog, n), b)].append(run(getattr(args, b), program, n, out))
                if not filecmp.cmp(f"{tmp}/old/result_0.npy", f"{tmp}/new/result_0.npy", shallow=False):
                    sys.exit(f"{prog} (n={n}): the new result differs from the old one")
                print(f"round {r + 1}/{args.repeats}: {prog} n={n}", file=sys.stderr)
    load_after = os.getloadavg()

    def med(case, b, k):
        return statistics.median(t[k] for t in times[(case, b)])

    print(f"Old: `{args.old}`; new: `{args.new}`. Median of {args.repeats} interleaved rounds per case; "
          f"load average (1/5/15 min) before {[round(x, 2) for x in load_before]}, "
          f"after {[round(x, 2) for x in load_after]} (2 cores).\n")
    print("| program | n | run old (ms) | run new (ms) | **run old/new** | new ns/iteration "
          "| wall old (ms) | wall new (ms) | wall old/new | CPU old (ms) | CPU new (ms) | CPU old/new |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for case in cases:
        prog, n = case
        ro, rn = med(case, "old", 0), med(case, "new", 0)
        wo, wn = med(case, "old", 1), med(case, "new", 1)
        co, cn = med(case, "old", 2), med(case, "new", 2)
        print(f"| {prog} | {n} | {ro:.1f} | {rn:.1f} | **{ro / rn:.1f}** | {rn * 1e6 / n:.0f} "
              f"| {wo:.0f} | {wn:.0f} | {wo / wn:.1f} | {co:.0f} | {cn:.0f} | {co / cn:.1f} |")


if __name__ == "__main__":
    main()

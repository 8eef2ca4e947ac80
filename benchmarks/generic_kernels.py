#!/usr/bin/env python3
"""Kernel counts of specialised against `--generic` partitions (issue 32), for every benchmark of
the suite (`suite.corpus()`) at its LARGE (or, `--quick`, SMALL) arguments.

A kernel is a block of `arrayc fuse-report --format json` with at least one computation (an
operation other than `new`, `del` and `sync`); each region counts once, however often it runs.
The specialised partition is chosen for the argument values (`arrayc run --arg ...`), the generic
one with sizes as symbols (`--generic`: `arrayc build` executables and `--lib`).

Usage: python3 benchmarks/generic_kernels.py [--quick] [--only NAME ...] [--binary PATH ...]
                                             [--time ROUNDS]
Each `--binary` (default: `target/release/arrayc`, or `$ARRAYC`) adds a column pair, so an old
binary copy and the new one are compared in one run. Prints a Markdown table; `--json` prints
the counts as JSON instead. `--time ROUNDS` also times the run phase (`arrayc run --time`,
JIT excluded) of each binary, specialised (`--arg ...`) and `--generic`, interleaved in
rounds (every configuration once per round), and reports medians in milliseconds.
"""
import argparse
import json
import statistics
import subprocess
import sys
import tempfile

import harness
import suite

SYSTEM_OPS = {"new", "del", "sync"}


def kernels(binary, bench, args, generic):
    """Number of blocks with a computation in `binary`'s partition of `bench` at `args`."""
    with tempfile.TemporaryDirectory(prefix="arrayc-args-") as tmp:
        c = harness.arrayc_cmd("fuse-report", bench.PROGRAM, bench.ENTRY, args, "--format", "json", tmp=tmp)
        c[0] = str(binary)
        if generic:
            c.append("--generic")
        p = subprocess.run(c, capture_output=True, text=True, timeout=harness.ARRAYC_TIMEOUT_S, cwd=harness.REPO)
    harness._check(p, c)
    n = 0
    for region in json.loads(p.stdout)["regions"]:
        names = {op["index"]: op["name"] for op in region["ops"]}
        n += sum(1 for block in region["blocks"] if any(names[i] not in SYSTEM_OPS for i in block))
    return n


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="SMALL arguments instead of LARGE")
    ap.add_argument("--only", nargs="*", help="benchmark names (default: suite.corpus())")
    ap.add_argument("--binary", action="append", help="arrayc binaries to compare (default: $ARRAYC)")
    ap.add_argument("--json", action="store_true", help="print JSON instead of a Markdown table")
    ap.add_argument("--time", type=int, default=0, metavar="ROUNDS", help="also time the run phase")
    opts = ap.parse_args()
    binaries = opts.binary or [str(harness.ARRAYC)]
    names = opts.only or suite.corpus()
    if opts.time:
        return time_runs(binaries, names, opts)
    rows = {}
    for name in names:
        bench = suite.load(name)
        args = dict(bench.SMALL if opts.quick else bench.LARGE)
        rows[name] = [(kernels(b, bench, args, False), kernels(b, bench, args, True)) for b in binaries]
        print(f"  {name}: {rows[name]}", file=sys.stderr, flush=True)
    if opts.json:
        print(json.dumps({"binaries": binaries, "kernels": rows}, indent=1))
        return
    head = "| benchmark | " + " | ".join(f"specialised ({b}) | generic ({b})" for b in binaries) + " |"
    print(head)
    print("|---|" + "---|---|" * len(binaries))
    for name, counts in rows.items():
        print(f"| {name} | " + " | ".join(f"{s} | {g}" for s, g in counts) + " |")


def time_runs(binaries, names, opts):
    """Median run-phase milliseconds per benchmark, binary and partition, interleaved."""
    configs = [(b, g) for b in binaries for g in (False, True)]
    print("| benchmark | " + " | ".join(f"{'generic' if g else 'specialised'} ({b}) ms" for b, g in configs) + " |")
    print("|---|" + "---|" * len(configs))
    for name in names:
        bench = suite.load(name)
        args = dict(bench.SMALL if opts.quick else bench.LARGE)
        times = {c: [] for c in configs}
        for r in range(opts.time):
            for b, g in configs:
                harness.ARRAYC = type(harness.ARRAYC)(b)
                t = harness.run_arrayc(bench.PROGRAM, bench.ENTRY, args, extra=("--generic",) if g else ())
                times[(b, g)].append(t["time_s"] * 1e3)
                print(f"  {name} {b} generic={g} round {r + 1}: {times[(b, g)][-1]:.0f} ms", file=sys.stderr, flush=True)
        print(f"| {name} | " + " | ".join(f"{statistics.median(times[c]):.0f}" for c in configs) + " |", flush=True)


if __name__ == "__main__":
    main()

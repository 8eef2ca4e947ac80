#!/usr/bin/env python3
"""Reductions of f64 arrays (issue 32): `sum`, `min`, `max`, `argmin`, `argmax` of a vector and of
a square matrix along axis 0, axis 1 and over everything, and `sum(x.T, axis=1)`, arrayc against
NumPy.

    python3 benchmarks/reductions.py [--arrayc BIN ...] [--n 10000000] [--side 4000] [--repeats 5]
                                     [--only NAME ...]

Every round (interleaved, so that all see the same machine load; the binaries' order alternates)
times NumPy in-process (best of 3 calls, `time.perf_counter`) and runs each binary given with
`--arrayc` (default `target/release/arrayc`) on every program, reading `x` from one `.npy` file:
the run phase is the `time: run` line of `arrayc run --time` (JIT compilation excluded; object
code comes from the disk cache after the first round), end to end the wall time of the whole
process. Each arrayc result is checked against NumPy: positions and min/max exactly, sums within
1e-12 of the sum of magnitudes. Prints the medians over the rounds as a Markdown table, with the
run phase's ratio to NumPy, and the load average before and after (the machine may be shared).
"""
import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from axis_reduce import print_numpy_table, run_arrayc  # one `arrayc run --time` of a program of `x`

REPO = Path(__file__).resolve().parents[1]
OPS = ["sum", "min", "max", "argmin", "argmax"]


def cases():
    """(name, input key, arrayc source, NumPy function) of every program."""
    out = []
    for op in OPS:
        ret = "i64" if op.startswith("arg") else "f64"
        f = getattr(np, op)
        out.append((f"{op}(v)", "v", f"fn main(x: f64[N]) -> {ret} {{\n    return {op}(x);\n}}\n",
                    lambda a, f=f: f(a)))
        out.append((f"{op}(m)", "m", f"fn main(x: f64[N, M]) -> {ret} {{\n    return {op}(x);\n}}\n",
                    lambda a, f=f: f(a)))
        for axis in (0, 1):
            out.append((f"{op}(m, axis={axis})", "m",
                        f"fn main(x: f64[N, M]) -> {ret}[{'NM'[1 - axis]}] {{\n    return {op}(x, axis={axis});\n}}\n",
                        lambda a, f=f, axis=axis: f(a, axis=axis)))
    out.append(("sum(m.T, axis=1)", "m", "fn main(x: f64[N, M]) -> f64[M] {\n    return sum(x.T, axis=1);\n}\n",
                lambda a: np.sum(a.T, axis=1)))
    return out


def check(name, got, want, x):
    """Asserts arrayc's result `got` against NumPy's `want` (sums: relative 1e-12 of the
    magnitudes' sum; everything else exactly)."""
    if name.startswith("sum"):
        axis = 1 if "m.T" in name else (int(name[-2]) if "axis" in name else None)
        mags = np.sum(np.abs(x.T if "m.T" in name else x), axis=axis)
        assert np.all(np.abs(got - want) <= 1e-12 * mags), f"{name}: {got} != {want}"
    else:
        assert np.array_equal(got, want), f"{name}: {got} != {want}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--arrayc", action="append", help="an arrayc binary (repeatable)")
    ap.add_argument("--n", type=int, default=10_000_000, help="length of the vector v")
    ap.add_argument("--side", type=int, default=4000, help="rows and columns of the matrix m")
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--only", action="append", help="run only the programs of these names")
    args = ap.parse_args()
    binaries = args.arrayc or [str(REPO / "target" / "release" / "arrayc")]
    rng = np.random.default_rng(0)
    xs = {"v": rng.standard_normal(args.n), "m": rng.standard_normal((args.side, args.side))}
    progs = [c for c in cases() if not args.only or c[0] in args.only]
    wants = {name: f(xs[key]) for name, key, _, f in progs}
    load_before = os.getloadavg()
    numpy_ms = {name: [] for name, *_ in progs}
    times = {(b, name): ([], []) for b in binaries for name, *_ in progs}
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        paths = {}
        for key, x in xs.items():
            paths[key] = tmp / f"{key}.npy"
            np.save(paths[key], x)
        srcs = {}
        for k, (name, _, text, _) in enumerate(progs):
            srcs[name] = tmp / f"p{k}.arr"
            srcs[name].write_text(text)
        for r in range(args.repeats):
            order = binaries if r % 2 == 0 else binaries[::-1]
            for name, key, _, f in progs:
                best = float("inf")
                for _ in range(3):
                    t0 = time.perf_counter()
                    f(xs[key])
                    best = min(best, time.perf_counter() - t0)
                numpy_ms[name].append(best * 1e3)
                for b in order:
                    run_ms, wall_ms, got = run_arrayc(b, srcs[name], paths[key], tmp / "out")
                    check(name, got, wants[name], xs[key])
                    times[(b, name)][0].append(run_ms)
                    times[(b, name)][1].append(wall_ms)
            print(f"round {r + 1}/{args.repeats} done", file=sys.stderr)
    load_after = os.getloadavg()
    print(f"v: f64[{args.n}], m: f64[{args.side}, {args.side}]; median of {args.repeats} interleaved rounds; "
          f"load average before {[round(v, 2) for v in load_before]}, after {[round(v, 2) for v in load_after]} "
          f"({os.cpu_count()} cores)\n")
    print_numpy_table("program", [(name, f"`{name}`") for name, *_ in progs], binaries, numpy_ms, times, 2)

if __name__ == "__main__":
    main()

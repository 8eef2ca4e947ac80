#!/usr/bin/env python3
"""Regression check of a compiler change: two `arrayc` binaries, old and new, on the benchmarks
of the suite (their LARGE arguments) and the four examples (their default arguments), run
interleaved so that both see the same machine load.

    python3 benchmarks/compare.py OLD_ARRAYC NEW_ARRAYC [--repeats N] [--only NAME,...] [--out FILE]

Each round runs every case once with each binary, alternating which goes first. Per case it reports
the median over the rounds of the run phase (`time: run` of `arrayc run --time`: JIT compilation
excluded) and of the end-to-end wall time of the process (what a user waits for: front end,
passes, JIT and run), cold (an empty compile cache) and warm (the program's second run), the cold
run's compile time (its `passes` and kernel lines), the ratios new/old, and their geometric means
over all cases. The Markdown
table goes to stdout (and to `--out`); progress goes to stderr.

A build of the old compiler: `git worktree add /tmp/old <commit> && cargo build --release
--manifest-path /tmp/old/Cargo.toml -p arrayc-tools` (its binary: /tmp/old/target/release/arrayc).
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import harness
import suite

EXAMPLES = [("heat", "examples/heat.arr"), ("black_scholes", "examples/black_scholes.arr"),
            ("leibnitz_pi", "examples/leibnitz_pi.arr"), ("rosenbrock", "examples/rosenbrock.arr")]


def cases(only):
    """(label, program, entry, args): every benchmark at LARGE, every example at its defaults."""
    out = []
    for name in suite.NAMES:
        bench = suite.load(name)
        out.append((f"{name} (LARGE)", bench.PROGRAM, bench.ENTRY, dict(bench.LARGE)))
    out += [(f"{name} (example)", prog, name, {}) for name, prog in EXAMPLES]
    return [c for c in out if not only or c[0].split()[0] in only]


def run_once(binary, program, entry, args):
    """(run phase s, cold end-to-end s, warm end-to-end s, cold compile s) of `arrayc run --time` in
    fresh processes (compile: the cold run's passes and kernel lines, `harness.compile_ms`): cold with an empty compile cache (`ARRAYC_CACHE_DIR`, a new directory), then warm, a
    second run on the cache the first one filled (a compiler without a cache compiles again)."""
    with tempfile.TemporaryDirectory(prefix="arrayc-compare-") as tmp:
        env = dict(os.environ, ARRAYC_CACHE_DIR=str(Path(tmp) / "cache"))
        walls = []
        for _ in ("cold", "warm"):
            cmd = harness.arrayc_cmd("run", program, entry, args, "--time", tmp=tmp)
            cmd[0] = str(binary)
            t0 = time.perf_counter()
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=harness.ARRAYC_TIMEOUT_S,
                               cwd=harness.REPO, env=env)
            walls.append(time.perf_counter() - t0)
            harness._check(p, cmd)
            if len(walls) == 1:
                run = harness.parse_time(p.stderr)[0]
                compile_s = harness.compile_ms(p.stderr) / 1e3
    return run, walls[0], walls[1], compile_s


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("old", type=Path, help="the old arrayc binary")
    ap.add_argument("new", type=Path, help="the new arrayc binary")
    ap.add_argument("--repeats", type=int, default=5, help="interleaved rounds; medians are reported (default 5)")
    ap.add_argument("--only", default="", help="comma-separated case names (benchmark or example names)")
    ap.add_argument("--out", type=Path, help="also write the Markdown table to this file")
    opts = ap.parse_args()
    for b in (opts.old, opts.new):
        if not b.is_file():
            sys.exit(f"error: {b} is not a file; build it first (see --help)")
    rows, skipped = [], []
    only = {n for n in opts.only.split(",") if n}
    todo = cases(only)
    for i, (label, program, entry, args) in enumerate(todo, 1):
        times = {"old": [], "new": []}
        try:
            for r in range(opts.repeats):
                order = ("old", "new") if r % 2 == 0 else ("new", "old")
                for which in order:
                    times[which].append(run_once(getattr(opts, which), program, entry, args))
        except harness.ArraycError as e:
            # E.g. a program the old compiler cannot compile yet: reported, not compared.
            why = str(e).splitlines()[-1].strip().replace(str(harness.REPO) + "/", "")
            harness.log(f"[{i}/{len(todo)}] {label}: skipped, the {which} compiler failed: {why}")
            skipped.append(f"{label} (the {which} compiler failed: {why})")
            continue
        med = {w: tuple(statistics.median(t[k] for t in ts) for k in range(4)) for w, ts in times.items()}
        rows.append((label, med["old"], med["new"]))
        harness.log(f"[{i}/{len(todo)}] {label}: run {med['old'][0]*1e3:.1f} -> {med['new'][0]*1e3:.1f} ms, "
                    f"end to end cold {med['old'][1]*1e3:.1f} -> {med['new'][1]*1e3:.1f} ms, "
                    f"warm {med['old'][2]*1e3:.1f} -> {med['new'][2]*1e3:.1f} ms, "
                    f"cold compile {med['old'][3]*1e3:.1f} -> {med['new'][3]*1e3:.1f} ms")
    lines = [
        f"Old: `{opts.old}`; new: `{opts.new}`. Median of {opts.repeats} interleaved rounds per case.",
        "",
        "| case | run old (ms) | run new (ms) | run new/old | cold e2e old (ms) | cold e2e new (ms) | cold new/old | warm e2e old (ms) | warm e2e new (ms) | warm new/old | cold compile old (ms) | cold compile new (ms) | compile new/old |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for label, (ro, co, wo, xo), (rn, cn, wn, xn) in rows:
        lines.append(f"| {label} | {ro*1e3:.1f} | {rn*1e3:.1f} | {rn/ro:.3f} | {co*1e3:.1f} | {cn*1e3:.1f} | {cn/co:.3f} "
                     f"| {wo*1e3:.1f} | {wn*1e3:.1f} | {wn/wo:.3f} | {xo*1e3:.1f} | {xn*1e3:.1f} | {xn/xo:.3f} |")
    g = [harness.geomean([n[k] / o[k] for _, o, n in rows]) for k in range(4)]
    lines.append(f"| **geometric mean** | | | **{g[0]:.3f}** | | | **{g[1]:.3f}** | | | **{g[2]:.3f}** | | | **{g[3]:.3f}** |")
    if skipped:
        lines += ["", "Not compared: " + "; ".join(skipped) + "."]
    text = "\n".join(lines) + "\n"
    print(text)
    if opts.out:
        opts.out.write_text(text)


if __name__ == "__main__":
    main()

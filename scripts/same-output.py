#!/usr/bin/env python3
"""Checks that a refactoring left the compiler's decisions and code alone: two `arrayc` binaries,
old and new, on every program of `examples/`, `examples/features/` and `benchmarks/programs/`
(each function of each file as the entry, default arguments), must print the same

* fusion decisions: `fuse-report --format json` (the partition of every region, its cost and the
  contracted arrays, the search's node count; only its time, `solve_ms`, is left out),
* host code and kernels: `emit --stage=mlir` (host functions and kernels lowered to loops),
* kernels' LLVM IR: `emit --stage=llvm`.

    python3 scripts/same-output.py OLD_ARRAYC NEW_ARRAYC [--stages report,mlir,llvm] [--only SUBSTR]

Prints one line per difference (the file, the entry, the stage, and the first differing line) and
a summary; exits 1 when anything differs or a binary fails where the other does not. A program that
both binaries reject the same way counts as the same.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DIRS = ["examples", "examples/features", "benchmarks/programs"]
# Fields of the fusion report that measure the search, not its result.
VOLATILE = {"solve_ms"}


def entries(path):
    """The functions of an .arr file, by the `fn NAME(` lines at the start of a line."""
    return re.findall(r"^fn\s+([A-Za-z_][A-Za-z0-9_]*)\s*\(", path.read_text(), re.M)


def strip_volatile(x):
    if isinstance(x, dict):
        return {k: strip_volatile(v) for k, v in x.items() if k not in VOLATILE}
    if isinstance(x, list):
        return [strip_volatile(v) for v in x]
    return x


def run(binary, stage, path, entry):
    """(exit status, normalised output) of one stage of `binary` on `path` with entry `entry`."""
    if stage == "report":
        cmd = [binary, "fuse-report", str(path), "--entry", entry, "--format", "json"]
    else:
        cmd = [binary, "emit", f"--stage={stage}", str(path), "--entry", entry]
    # An empty compile cache of its own for every run: the merge cache would change the search's
    # statistics, and the user's cache is never touched.
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, ARRAYC_CACHE_DIR=cache)
        p = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, env=env, timeout=600)
    out = p.stdout if p.returncode == 0 else p.stderr
    if stage == "report" and p.returncode == 0:
        out = json.dumps(strip_volatile(json.loads(out)), indent=1, sort_keys=True)
    return p.returncode, out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--stages", default="report,mlir,llvm")
    ap.add_argument("--only", default="", help="only files whose path contains this")
    a = ap.parse_args()
    stages = a.stages.split(",")
    compared = differ = 0
    for d in DIRS:
        for path in sorted((ROOT / d).glob("*.arr")):
            if a.only not in str(path):
                continue
            for entry in entries(path):
                for stage in stages:
                    old, new = run(a.old, stage, path, entry), run(a.new, stage, path, entry)
                    compared += 1
                    if old != new:
                        differ += 1
                        ol, nl = old[1].splitlines(), new[1].splitlines()
                        k = next((i for i, (x, y) in enumerate(zip(ol, nl)) if x != y), min(len(ol), len(nl)))
                        print(f"DIFFERS {path.relative_to(ROOT)} --entry {entry} [{stage}] exit {old[0]}/{new[0]}, "
                              f"line {k + 1}: {ol[k] if k < len(ol) else '<end>'!r} / {nl[k] if k < len(nl) else '<end>'!r}")
                print(f"{path.relative_to(ROOT)}: {len(entries(path))} entries", file=sys.stderr)
    print(f"{compared} outputs compared ({', '.join(stages)}), {differ} differ")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())

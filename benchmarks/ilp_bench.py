#!/usr/bin/env python3
"""`optimal` (branch and bound) against `ilp` (HiGHS on the integer program of
`passes/src/wsp/algo/ilp.rs`) on every region of every benchmark (issue 13): cost, whether each
proved its partition optimal, and solve time, side by side in one run, from
`arrayc fuse-report --format json` at the benchmarks' LARGE arguments and the default budget.

Usage: python3 benchmarks/ilp_bench.py [--only a,b] [--budget-ms MS]; prints a Markdown table.
"""
import argparse
import sys

import suite
from harness import fuse_regions


def summary(regions):
    """(total cost, regions proven, regions, total solve ms, largest region in operations)."""
    return (
        sum(r["cost"] for r in regions),
        sum(bool(r["optimal_proven"]) for r in regions),
        len(regions),
        sum(r["solve_ms"] for r in regions),
        max((len(r["ops"]) for r in regions), default=0),
    )


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", default="", help="comma-separated benchmark names")
    args = ap.parse_args()
    names = [n for n in suite.available() if not args.only or n in args.only.split(",")]
    print("| benchmark | regions | largest (ops) | optimal: cost / proven / ms | ilp: cost / proven / ms | "
          "regions both proved: same cost |")
    print("|---|---|---|---|---|---|")
    for name in names:
        b = suite.load(name)
        regions = {algo: fuse_regions(b.PROGRAM, b.ENTRY, b.LARGE, algo) for algo in ("optimal", "ilp")}
        o, i = summary(regions["optimal"]), summary(regions["ilp"])
        both = [(x, y) for x, y in zip(regions["optimal"], regions["ilp"]) if x["optimal_proven"] and y["optimal_proven"]]
        same = sum(x["cost"] == y["cost"] for x, y in both)
        print(
            f"| {name} | {o[2]} | {o[4]} | {o[0]} / {o[1]} / {o[3]:.1f} | {i[0]} / {i[1]} / {i[3]:.1f} | "
            f"{same} of {len(both)} |",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""A LogGP-style projection of arrayc's distributed heat to 64-1024 ranks (issue 30), from inputs
measured on this machine, in one run of this script:

1. dist/examples/mpi_probe.rs under `mpirun -n 2`: the one-way time of 8-byte and 8 KiB-16 MiB
   ping-pongs, the send and receive overheads of an 8-byte message, an all-reduce and an all-gather
   of one f64, and the launcher's planning (dist/src/blocks.rs, as called for heat's two launches
   per sweep) at P = 1..1024; L, o and G are fitted from these;
2. the per-sweep time of `mpirun -n 1 arrayc run examples/heat.arr --distributed` (one thread) at
   n = 2000: the difference of two sweep counts, so that start-up is not in it;
3. correctness at 16 and 32 ranks (`--oversubscribe` on this machine's cores): heat at n = 200
   against the single process (result files compared byte for byte), and the bytes each rank sent
   (`--time`'s `distributed:` lines) against the model's halo bytes.

The model of one sweep at P ranks (n x n interior, blocks of rows):
  T(P) = c * ceil(n/P) * n                        compute (c: seconds per point, measured at P = 1)
       + k * (o_s + L + o_r + 8n * G)             halo: one row of n f64 to each of k <= 2 neighbours
       + ceil(log2 P) * (o_s + L + o_r) + 8(P-1) * G   the all-gather of the partial sums
       + plan(P)                                  the launcher's block arithmetic on every rank
for this machine's shared memory (measured) and an InfiniBand-class network (assumed). A
projection, not a measurement: see the limits written into the report.

Usage: python3 benchmarks/loggp.py [--rounds 3] [--out benchmarks/REPORT-distributed.md] [--arrayc PATH]
"""
import argparse
import math
import os
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
ARRAYC = REPO / "target" / "release" / "arrayc"
TARGET = Path(os.environ.get("CARGO_TARGET_DIR", REPO / "target"))
PROBE = TARGET / "release" / "examples" / "mpi_probe"
sys.path.insert(0, str(REPO / "benchmarks"))
import distributed  # noqa: E402
from distributed import arrayc, mpirun, run_phase_ms, sent, timed  # noqa: E402

RANKS = [2**k for k in range(11)]
# The network assumed for a cluster (not measured here): InfiniBand-class (HDR, 100 Gb/s), the
# order of magnitude MPI latency and bandwidth benchmarks report on such fabrics.
CLUSTER = dict(L=1.5e-6, o_s=0.5e-6, o_r=0.5e-6, G=1 / 12e9)
MARK = "## LogGP-style projection"


def probe(rounds):
    """The probe's lines, the median of `rounds` runs of each figure."""
    runs = []
    for _ in range(rounds):
        proc, _ = timed(["mpirun", "-n", "2", "--oversubscribe", "--timeout", "120", str(PROBE)])
        runs.append(proc.stdout)
    figs = {}
    for out in runs:
        for m in re.finditer(r"^overhead bytes 8 send_us ([0-9.]+) recv_us ([0-9.]+)", out, re.M):
            figs.setdefault("o_s", []).append(float(m.group(1)) * 1e-6)
            figs.setdefault("o_r", []).append(float(m.group(2)) * 1e-6)
        for m in re.finditer(r"^pingpong bytes (\d+) reps \d+ oneway_us ([0-9.]+)", out, re.M):
            figs.setdefault(("pp", int(m.group(1))), []).append(float(m.group(2)) * 1e-6)
        for m in re.finditer(r"^(allreduce|allgather) ranks 2 bytes 8 reps \d+ us ([0-9.]+)", out, re.M):
            figs.setdefault(m.group(1), []).append(float(m.group(2)) * 1e-6)
        for m in re.finditer(r"^plan n (\d+) ranks (\d+) reps \d+ us ([0-9.]+)", out, re.M):
            figs.setdefault(("plan", int(m.group(1)), int(m.group(2))), []).append(float(m.group(3)) * 1e-6)
    return {k: statistics.median(v) for k, v in figs.items()}


def fit(figs):
    """L, o_s, o_r, G: LogGP's one-way time of B bytes is o_s + L + (B-1) G + o_r; L from the
    8-byte ping-pong less the overheads, G the least-squares slope over 8 KiB..1 MiB (heat's rows
    are 16 KB at n = 2000 and 160 KB at n = 20000)."""
    o_s, o_r = figs["o_s"], figs["o_r"]
    L = max(figs[("pp", 8)] - o_s - o_r, 0.0)
    pts = [(k[1], t) for k, t in figs.items() if isinstance(k, tuple) and k[0] == "pp" and 8192 <= k[1] <= 1 << 20]
    mb, mt = statistics.mean(b for b, _ in pts), statistics.mean(t for _, t in pts)
    G = sum((b - mb) * (t - mt) for b, t in pts) / sum((b - mb) ** 2 for b, _ in pts)
    return dict(L=L, o_s=o_s, o_r=o_r, G=G)


def sweep_seconds(n, rounds):
    """Seconds per sweep of heat at n, -n 1, one thread: (run(60) - run(10)) / 50, medians."""
    t = {}
    for sweeps in (10, 60):
        args = dict(n=n, epsilon=0.0, max_iter=sweeps)
        t[sweeps] = statistics.median(
            run_phase_ms(timed(mpirun(1, arrayc(REPO / "examples/heat.arr", None, args, True)))[0].stderr)
            for _ in range(rounds))
    return (t[60] - t[10]) / 50 * 1e-3


def halo_bytes(n, p, r):
    """Bytes rank r of p sends per sweep: one row of n f64 to each neighbour."""
    return 8 * n * ((r > 0) + (r < p - 1))


def correctness(ranks, n=200, sweeps=20):
    """(each result file identical or how far off, bytes per rank as --time reports, the model's) at
    `ranks` against one process."""
    args = dict(n=n, epsilon=0.0, max_iter=sweeps)
    with tempfile.TemporaryDirectory() as tmp:
        one, many = Path(tmp) / "one", Path(tmp) / "many"
        timed(arrayc(REPO / "examples/heat.arr", None, args, False) + ["--out", str(one)])
        proc, _ = timed(mpirun(ranks, arrayc(REPO / "examples/heat.arr", None, args, True) + ["--out", str(many)]))
        same = {}
        for f in sorted(one.iterdir()):
            x, y = np.load(f), np.load(many / f.name)
            same[f.name] = "identical" if f.read_bytes() == (many / f.name).read_bytes() else (
                f"differs by {float(np.max(np.abs(x - y) / np.maximum(np.abs(x), 1e-300))):.1e} (relative)")
    model = [halo_bytes(n, ranks, r) * sweeps for r in range(ranks)]
    return same, sent(proc.stderr), model


def sweep(n, p, net, c, plan):
    """The model's (compute, communication, planning) seconds of one sweep at p ranks."""
    comp = c * math.ceil(n / p) * n
    one_way = net["o_s"] + net["L"] + net["o_r"]
    k = min(p - 1, 2)
    halo = k * (one_way + 8 * n * net["G"])
    gather = math.ceil(math.log2(p)) * one_way + 8 * (p - 1) * net["G"] if p > 1 else 0.0
    return comp, halo + gather, plan[p]


def table(title, cases, nets, c, plan):
    """Rows of P for `cases(P) -> n`: compute, planning and communication per sweep, and the
    efficiency (n_P^2 / n_1^2) T(1, n_1) / (P T(P, n_P)) and speedup (P times it: strong scaling's
    speedup when n is fixed, the scaled speedup when n grows with P) per network; the last column
    leaves the planning out (what the network alone would allow)."""
    lines = [title, "",
             "| P | n | compute (ms) | planning (ms) | comm. shm (µs) | comm. IB (µs) | speedup / eff. shm "
             "| speedup / eff. IB | speedup / eff. IB, no planning |", "|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    n1 = cases(1)
    for p in RANKS:
        n = cases(p)
        cells, comms = [], []
        for net, with_plan in ((nets["shm"], True), (nets["IB"], True), (nets["IB"], False)):
            comp1, comm1, plan1 = sweep(n1, 1, net, c, plan)
            comp, comm, pl = sweep(n, p, net, c, plan)
            t1 = comp1 + comm1 + plan1 * with_plan
            eff = (n * n) / (n1 * n1) * t1 / (p * (comp + comm + pl * with_plan))
            cells.append(f"{p * eff:.1f} / {eff:.2f}")
            comms.append(comm)
        lines.append(f"| {p} | {n} | {comp * 1e3:.3f} | {pl * 1e3:.3f} | {comms[0] * 1e6:.1f} | {comms[1] * 1e6:.1f} | "
                     + " | ".join(cells) + " |")
    return lines


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--out", type=Path, default=REPO / "benchmarks" / "REPORT-distributed.md")
    ap.add_argument("--arrayc", type=Path, default=ARRAYC, help="the arrayc binary (default: this checkout's)")
    a = ap.parse_args()
    distributed.ARRAYC = a.arrayc
    subprocess.run(["cargo", "build", "-q", "--release", "-p", "arrayc-dist", "--example", "mpi_probe"], check=True,
                   cwd=REPO)
    figs = probe(a.rounds)
    shm = fit(figs)
    c = sweep_seconds(2000, a.rounds) / 2000**2
    checks = {p: correctness(p) for p in (16, 32)}
    nets = {"shm": shm, "IB": CLUSTER}
    plans = {n: {p: figs[("plan", n, p)] for p in RANKS} for n in (2000, 20000)}
    us = lambda s: f"{s * 1e6:.3f} µs"  # noqa: E731
    lines = [
        f"{MARK} of heat to 64-1024 ranks (benchmarks/loggp.py)",
        "",
        f"A projection, not a measurement: no machine with more than {os.cpu_count()} cores was used. Command: "
        f"`python3 benchmarks/loggp.py --rounds {a.rounds}` (medians of {a.rounds} runs of each input).",
        "",
        f"Measured here ({os.cpu_count()} cores, OpenMPI shared memory, `mpirun -n 2`, dist/examples/mpi_probe.rs): "
        f"8-byte one-way {us(figs[('pp', 8)])}, o_s {us(shm['o_s'])}, o_r {us(shm['o_r'])}, so "
        f"L = {us(shm['L'])}; G = {shm['G'] * 1e9:.4f} ns/byte ({1 / shm['G'] / 1e9:.2f} GB/s, the slope over "
        f"8 KiB..1 MiB); all-reduce of one f64 {us(figs['allreduce'])}, all-gather {us(figs['allgather'])} "
        f"(model: {us(shm['o_s'] + shm['L'] + shm['o_r'])}). Compute: {c * 1e9:.2f} ns per interior point "
        f"(heat, n = 2000, `-n 1`, one thread: {c * 2000**2 * 1e3:.2f} ms per sweep). Planning: the launcher's "
        f"block arithmetic for one sweep at P ranks, measured at P = 1..1024 on one core "
        f"({', '.join(f'P={p}: {plans[2000][p] * 1e3:.3f} ms' for p in (16, 64, 256, 1024))}).",
        "",
        "Assumed, not measured (InfiniBand-class cluster, HDR order of magnitude): "
        f"L = {us(CLUSTER['L'])}, o_s = o_r = {us(CLUSTER['o_s'])}, G = 1/12 GB/s; the same compute per point "
        "and planning time per rank as here.",
        "",
        "One-way ping-pong times (µs): "
        + ", ".join(f"{b} B {figs[('pp', b)] * 1e6:.1f}" for b in [8] + [1 << k for k in range(13, 25)]) + ".",
        "",
    ]
    for p, (same, got, model) in checks.items():
        lines.append(f"* Correctness at -n {p} (`--oversubscribe` on {os.cpu_count()} cores; heat n=200, 20 sweeps; "
                     f"`--out` files against one process): {', '.join(f'{k} {v}' for k, v in same.items())} "
                     f"(result_0 the grid, result_1 the sweeps, result_2 the last delta: a float sum grouped by "
                     f"rank); bytes sent per rank as `--time` reports {'equal' if got == model else 'differ from'} "
                     f"the model's halo bytes ({sorted(set(got))} over 20 sweeps: 8n per neighbour per sweep).")
    lines.append("")
    lines += table("### Strong scaling, n = 2000 (efficiency: T(1) / (P T(P)))", lambda p: 2000, nets, c, plans[2000])
    lines.append("")
    lines += table("### Strong scaling, n = 20000", lambda p: 20000, nets, c, plans[20000])
    lines.append("")
    lines += table("### Weak scaling, n = 2000 sqrt(P) (efficiency: T(1, 2000) / T(P, n))",
                   lambda p: round(2000 * math.sqrt(p)), nets, c, plans[2000])
    lines += [
        "",
        "Limits of the projection: the inputs come from a 2-core machine shared with other work (the load "
        f"average was {os.getloadavg()[0]:.1f} at the end of this run), so compute per point and the "
        "shared-memory figures are noisy; the compute per point measured at n = 2000 is used for every block "
        "size (no cache effect of small blocks, no sharing of a node's memory bandwidth between its ranks); "
        "the two halo messages are counted one after the other and the all-gather as recursive doubling, with "
        "no contention and no overlap; the planning is the block arithmetic of dist/src/blocks.rs as the "
        "launcher calls it for heat (the same at n = 2000 and 20000), not the launcher's other loops over the "
        "transfers, so it is a lower bound of the host's cost that grows with P; the cluster network is "
        "assumed. Ping-pongs of 2 MiB and more took milliseconds here, far off the trend of the smaller sizes "
        "(not investigated) and are not used: heat's rows are at most 512 KB in these tables.",
        "",
    ]
    section = "\n".join(lines)
    text = a.out.read_text() if a.out.exists() else ""
    text = text.split(MARK)[0].rstrip("\n") + "\n\n" if MARK in text else text.rstrip("\n") + "\n\n"
    a.out.write_text(text + section)
    print(section)


if __name__ == "__main__":
    main()

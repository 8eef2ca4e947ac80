"""Distributed runs (issue 30) side by side, in one run of this script, on this machine:

1. heat (examples/heat.arr: Jacobi sweeps of a 5-point stencil) by `arrayc run` in one process
   (all cores), by `mpirun -n P arrayc run --distributed` (one thread per rank), and by the
   hand-written rsmpi solver (dist/examples/heat_mpi.rs: block rows, one `MPI_Sendrecv` per
   neighbour per sweep, one thread per rank) at the same P: the run phase (arrayc's `--time` line
   `run`; the reference's sweeps), and arrayc's throughput as a share of the reference's;
2. the benchmarks heat, stencil27, black_scholes, nbody and kmeans at `-n 1` and `-n P` against the
   single process: the run phase and end-to-end wall time, and the bytes each rank sent
   (`--time`'s `distributed:` lines) against the analytic minimum where there is one (heat: one
   row of n elements per neighbour per sweep).

Rounds alternate the variants; the median of the rounds is reported. Needs mpirun (OpenMPI) and
`cargo build --release -p arrayc-dist --example heat_mpi` (done here).

Usage: python3 benchmarks/distributed.py [--ranks 2] [--n 2000] [--sweeps 100] [--rounds 3]
       [--out benchmarks/REPORT-distributed.md]
"""
import argparse
import os
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
ARRAYC = REPO / "target" / "release" / "arrayc"
HEAT_MPI = REPO / "target" / "release" / "examples" / "heat_mpi"
sys.path.insert(0, str(REPO / "benchmarks"))
import suite  # noqa: E402

ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
# The benchmarks of part 2 and their arguments: LARGE, smaller where LARGE takes too long on 2 cores.
OTHERS = {
    "heat": dict(n=2000, epsilon=0.0, max_iter=50),
    "stencil27": dict(n=160, iterations=4),
    "black_scholes": dict(n=4_000_000, steps=4, seed=1),
    "nbody": dict(n=2000, steps=4, seed=1),
    "kmeans": dict(n=1_000_000, d=4, k=16, iterations=5, seed=1),
}


def mpirun(ranks, cmd, threads="1"):
    return ["mpirun", "-n", str(ranks), "--oversubscribe", "--timeout", "600", "-x", f"RAYON_NUM_THREADS={threads}", *cmd]


def arrayc(program, entry, args, distributed):
    cmd = [str(ARRAYC), "run", str(program), "--time"]
    if entry:
        cmd += ["--entry", entry]
    for k, v in args.items():
        cmd += ["--arg", f"{k}={str(v).lower() if isinstance(v, bool) else v}"]
    return cmd + (["--distributed"] if distributed else [])


def timed(cmd):
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True, env=ENV, cwd=REPO)
    wall = time.perf_counter() - t0
    if proc.returncode != 0:
        sys.exit(f"failed: {' '.join(cmd)}\n{proc.stderr[-2000:]}")
    return proc, wall


def run_phase_ms(stderr):
    m = re.search(r"^time: run\s+([0-9.]+) ms", stderr, re.M)
    return float(m.group(1))


def sent(stderr):
    """Bytes sent per rank (exchanges), from the `distributed:` lines."""
    return [int(m.group(1)) for m in re.finditer(r"^distributed: rank \d+: (\d+) bytes sent", stderr, re.M)]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--ranks", type=int, default=2)
    ap.add_argument("--n", type=int, default=2000)
    ap.add_argument("--sweeps", type=int, default=100)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--out", type=Path, default=REPO / "benchmarks" / "REPORT-distributed.md")
    a = ap.parse_args()
    subprocess.run(["cargo", "build", "-q", "--release", "-p", "arrayc-dist", "--example", "heat_mpi"], check=True, cwd=REPO)
    P = a.ranks
    heat_args = dict(n=a.n, epsilon=0.0, max_iter=a.sweeps)
    variants = {
        "arrayc, 1 process (all cores)": lambda: arrayc(REPO / "examples/heat.arr", None, heat_args, False),
        f"arrayc --distributed, -n {P}": lambda: mpirun(P, arrayc(REPO / "examples/heat.arr", None, heat_args, True)),
        f"rsmpi reference, -n {P}": lambda: mpirun(P, [str(HEAT_MPI), str(a.n), str(a.sweeps)]),
        "arrayc --distributed, -n 1": lambda: mpirun(1, arrayc(REPO / "examples/heat.arr", None, heat_args, True)),
        "rsmpi reference, -n 1": lambda: mpirun(1, [str(HEAT_MPI), str(a.n), str(a.sweeps)]),
    }
    times = {k: [] for k in variants}
    bytes_per_rank = None
    for _ in range(a.rounds):
        for name, cmd in variants.items():
            proc, _ = timed(cmd())
            if name.startswith("rsmpi"):
                times[name].append(float(re.search(r"seconds ([0-9.e-]+)", proc.stdout).group(1)) * 1e3)
            else:
                times[name].append(run_phase_ms(proc.stderr))
                if name == f"arrayc --distributed, -n {P}":
                    bytes_per_rank = sent(proc.stderr)
    med = {k: statistics.median(v) for k, v in times.items()}
    lines = [
        "# Distributed runs (issue 30): measured by benchmarks/distributed.py",
        "",
        f"Machine: {os.cpu_count()} cores (`nproc`); {P} ranks, one thread each, `--oversubscribe`; median of "
        f"{a.rounds} rounds, variants interleaved. Command: `python3 benchmarks/distributed.py --ranks {P} "
        f"--n {a.n} --sweeps {a.sweeps} --rounds {a.rounds}`.",
        "",
        f"## heat, {a.n}x{a.n} interior, {a.sweeps} sweeps: run phase",
        "",
        "| variant | run (ms) | per sweep (ms) |",
        "|---|---:|---:|",
    ]
    for k, v in med.items():
        lines.append(f"| {k} | {v:.1f} | {v / a.sweeps:.3f} |")
    ref, ours = med[f"rsmpi reference, -n {P}"], med[f"arrayc --distributed, -n {P}"]
    minimum = [8 * a.n * (1 if r in (0, P - 1) else 2) * a.sweeps for r in range(P)] if P > 1 else [0]
    lines += [
        "",
        f"arrayc's distributed throughput at -n {P}: **{100 * ref / ours:.0f}%** of the rsmpi reference's "
        f"(sweeps per second, run phase against the reference's timed loop).",
        "",
        f"Bytes sent per rank over the {a.sweeps} sweeps (exchanges before launches): {bytes_per_rank}; "
        f"the halo minimum (one row of {a.n} f64 per neighbour per sweep): {minimum}.",
        "",
        f"## Benchmarks at -n 1 and -n {P} against one process",
        "",
        f"| benchmark | args | 1 process run / wall (ms) | -n 1 run / wall | -n {P} run / wall | bytes sent per rank (-n {P}) |",
        "|---|---|---:|---:|---:|---|",
    ]
    for name, args in OTHERS.items():
        b = suite.load(name)
        prog, entry = REPO / b.PROGRAM, b.ENTRY
        cells = {}
        for label, mk in [("one", lambda: arrayc(prog, entry, args, False)),
                          ("n1", lambda: mpirun(1, arrayc(prog, entry, args, True))),
                          ("nP", lambda: mpirun(P, arrayc(prog, entry, args, True)))]:
            runs, walls, last = [], [], None
            for _ in range(a.rounds):
                last, wall = timed(mk())
                runs.append(run_phase_ms(last.stderr))
                walls.append(wall * 1e3)
            cells[label] = (statistics.median(runs), statistics.median(walls), sent(last.stderr))
        argstr = ", ".join(f"{k}={v}" for k, v in args.items())
        fmt = lambda c: f"{c[0]:.1f} / {c[1]:.0f}"  # noqa: E731
        lines.append(f"| {name} | {argstr} | {fmt(cells['one'])} | {fmt(cells['n1'])} | {fmt(cells['nP'])} | {cells['nP'][2]} |")
    text = "\n".join(lines) + "\n"
    # Keep benchmarks/loggp.py's section, which this script does not measure.
    old = a.out.read_text() if a.out.exists() else ""
    if "## LogGP-style projection" in old:
        text += "\n" + old[old.index("## LogGP-style projection"):]
    a.out.write_text(text)
    print(text)


if __name__ == "__main__":
    main()

""".npy input and output end to end (issue 32): `arrayc run prog.arr --arg x=@x.npy --out DIR
--time` on a trivial program (`x + 1.0`) against python3 + NumPy doing the same load, compute and
save (`np.load`, `x + 1.0`, `np.save`), on the same file, in interleaved rounds.

Each measured process reads the same `x.npy` (float64, 30M elements by default: 240 MB) and writes
its result over its own previous one (`DIR/result_0.npy`), as a user repeating a run does. Times
are phases: arrayc's `--time` lines `load arguments`, `run` and `write .npy`; NumPy's `np.load`,
`x + 1.0` and `np.save`, timed inside the script (interpreter start and `import numpy` excluded).
Before each measured process the machine's dirty pages are written back (`sync`), so that no
process pays for the previous one's writes. Modes:

* warm: `x.npy` in the page cache;
* cold: the page cache dropped before each process (`echo 3 > /proc/sys/vm/drop_caches`, needs
  root; the mode is skipped, and the report says so, without it);
* fresh: `x.npy` written anew (by NumPy, new values) right before each process, not synced: the
  first run after the file was written (its `run` phase is the first touch of the result).

Usage: python3 benchmarks/npy_io.py [--arrayc NEW] [--old OLD] [--n 30000000] [--repeats 5]
[--modes warm,cold,fresh] [--dir /tmp/npy_io]. Prints a Markdown table: per phase the median and
(in parentheses) the fastest of the rounds, and the ratios of the medians and of the fastest (on a
shared machine the fastest round is the least disturbed one).
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
PROGRAM = "fn f(x: f64[N]) -> f64[N] { return x + 1.0; }\n"
NUMPY_RUN = """
import sys, time
import numpy as np
t0 = time.perf_counter(); x = np.load(sys.argv[1])
t1 = time.perf_counter(); y = x + 1.0
t2 = time.perf_counter(); np.save(sys.argv[2], y)
t3 = time.perf_counter()
print(f"load {1e3 * (t1 - t0)} run {1e3 * (t2 - t1)} write {1e3 * (t3 - t2)}")
"""
PHASES = {"load arguments": "load", "run": "run", "write .npy": "write"}


def write_input(path, n, seed):
    """Writes `n` float64 values from NumPy's generator to `path` with np.save (no sync)."""
    code = f"import numpy as np; np.save({str(path)!r}, np.random.default_rng({seed}).random({n}))"
    subprocess.run([sys.executable, "-c", code], check=True)


def drop_caches():
    """Whether the page cache could be dropped (root only)."""
    subprocess.run(["sync"], check=True)
    try:
        Path("/proc/sys/vm/drop_caches").write_text("3\n")
        return True
    except OSError:
        return False


def run_arrayc(binary, prog, x, out):
    """{phase: ms} of one `arrayc run ... --time`; fails loudly on a non-zero exit."""
    p = subprocess.run(
        [binary, "run", str(prog), "--arg", f"x=@{x}", "--out", str(out), "--time"],
        capture_output=True,
        text=True,
    )
    if p.returncode != 0:
        sys.exit(f"{binary} failed:\n{p.stderr}")
    times = {}
    for line in p.stderr.splitlines():
        m = re.match(r"time: (.*?)\s+([0-9.]+) ms$", line)
        if m and m.group(1) in PHASES:
            times[PHASES[m.group(1)]] = float(m.group(2))
    return times


def run_numpy(x, out):
    """{phase: ms} of one python3 process doing np.load, x + 1.0, np.save."""
    out.mkdir(parents=True, exist_ok=True)
    p = subprocess.run([sys.executable, "-c", NUMPY_RUN, str(x), str(out / "result_0.npy")],
                       capture_output=True, text=True, check=True)
    w = p.stdout.split()
    return {w[i]: float(w[i + 1]) for i in range(0, len(w), 2)}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--arrayc", default=str(REPO / "target/release/arrayc"))
    ap.add_argument("--old", help="an older arrayc to run side by side")
    ap.add_argument("--n", type=int, default=30_000_000)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--modes", default="warm,cold,fresh")
    ap.add_argument("--dir", default="/tmp/npy_io")
    a = ap.parse_args()
    d = Path(a.dir)
    d.mkdir(parents=True, exist_ok=True)
    prog = d / "prog.arr"
    prog.write_text(PROGRAM)
    x = d / "x.npy"
    write_input(x, a.n, 0)
    tools = [("new arrayc", a.arrayc)] + ([("old arrayc", a.old)] if a.old else []) + [("NumPy", None)]
    for name, binary in tools:  # warm the compile cache and the output files
        if binary:
            run_arrayc(binary, prog, x, d / name.replace(" ", "_"))
        else:
            run_numpy(x, d / "numpy")
    results = {}  # (mode, tool) -> {phase: [ms]}
    notes = []
    seed = 1
    for mode in a.modes.split(","):
        if mode == "cold" and not drop_caches():
            notes.append("cold: not measured (dropping the page cache needs root)")
            continue
        for r in range(a.repeats):
            order = tools if r % 2 == 0 else tools[::-1]
            for name, binary in order:
                if mode == "fresh":
                    subprocess.run(["sync"], check=True)
                    write_input(x, a.n, seed)
                    seed += 1
                elif mode == "cold":
                    drop_caches()
                else:
                    subprocess.run(["sync"], check=True)
                out = d / ("numpy" if binary is None else name.replace(" ", "_"))
                t = run_arrayc(binary, prog, x, out) if binary else run_numpy(x, out)
                for phase, ms in t.items():
                    results.setdefault((mode, name), {}).setdefault(phase, []).append(ms)
    print(f"{a.n} float64 elements ({a.n * 8 / 1e6:.0f} MB), {a.repeats} interleaved rounds, "
          "ms: median (fastest)\n")
    print("| mode | phase | " + " | ".join(n for n, _ in tools) + " | new / NumPy |"
          + (" old / NumPy |" if a.old else ""))
    print("|---|---|" + "---|" * (len(tools) + 1 + bool(a.old)))
    for mode in a.modes.split(","):
        for phase in ["load", "run", "write"]:
            med, best = {}, {}
            for name, _ in tools:
                v = results.get((mode, name), {}).get(phase)
                med[name], best[name] = (statistics.median(v), min(v)) if v else (None, None)
            if med["NumPy"] is None:
                continue
            cells = [f"{med[n]:.0f} ({best[n]:.0f})" for n, _ in tools]
            for name in ["new arrayc"] + (["old arrayc"] if a.old else []):
                cells.append(f"{med[name] / med['NumPy']:.2f} ({best[name] / best['NumPy']:.2f})")
            print(f"| {mode} | {phase} | " + " | ".join(cells) + " |")
    for n in notes:
        print(f"\n{n}")


if __name__ == "__main__":
    main()

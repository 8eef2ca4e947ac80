"""Matrix product `a @ b` (issue 32): arrayc against NumPy (OpenBLAS), and against an older arrayc
binary side by side, for square f64 and f32 matrices.

The program is `fn mm(a: T[N, K], b: T[K, M]) -> T[N, M] { return a @ b; }`, its inputs `.npy`
files (`--arg a=@a.npy`). Columns, each the median of the rounds (the processes of one round run
one after another, rounds interleave the programs):
* run ms: arrayc's `run` phase (`arrayc run --time`): the product and the allocation of its result,
  the first product of the process (rayon's threads start with it); NumPy: `a @ b` timed inside
  its process, the first call (OpenBLAS's threads start with it) and, warm, the median of the 5
  calls after it;
* e2e s: one whole process, start to exit, measured from outside: arrayc `run` with a warm compile
  cache (the inputs read, the product, the result printed); NumPy: `python3` loading the same
  `.npy` files, `a @ b`, printing the result (interpreter start and `import numpy` included).
Usage: python3 benchmarks/matmul.py [--old PATH] [--sizes 400,1000,2000] [--repeats N] [--out FILE]
"""
import argparse
import datetime
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
ARRAYC = Path(os.environ.get("ARRAYC", REPO / "target/release/arrayc"))
PROGRAM = "fn mm(a: {t}[N, K], b: {t}[K, M]) -> {t}[N, M] {{\n    return a @ b;\n}}\n"
NUMPY_RUN = """
import time, statistics, numpy as np
a, b = np.load({a!r}), np.load({b!r})
t0 = time.perf_counter(); a @ b; first = time.perf_counter() - t0
ts = []
for _ in range(5):
    t0 = time.perf_counter(); c = a @ b; ts.append(time.perf_counter() - t0)
print(c)
print("numpy-run-ms", first * 1e3, statistics.median(ts) * 1e3)
"""
NUMPY_E2E = "import numpy as np\na, b = np.load({a!r}), np.load({b!r})\nprint(a @ b)\n"


def timed(cmd, env=None):
    """(wall seconds, stdout + stderr) of one process; fails loudly on a non-zero exit."""
    t0 = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True, env=env)
    dt = time.perf_counter() - t0
    if p.returncode != 0:
        sys.exit(f"failed ({p.returncode}): {' '.join(map(str, cmd))}\n{p.stderr}")
    return dt, p.stdout + p.stderr


def run_ms(output):
    """The `run` phase of `arrayc run --time`, in milliseconds."""
    return float(re.search(r"time: run\s+([\d.]+) ms", output).group(1))


def blas_info():
    """NumPy's BLAS library as its build configuration names it, and the threads it may use."""
    blas = np.__config__.CONFIG["Build Dependencies"]["blas"]
    threads = os.environ.get("OPENBLAS_NUM_THREADS", f"{os.cpu_count()} (one per core)")
    return f"{blas['name']} {blas['version']}, threads: {threads}"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--old", type=Path, help="an older arrayc binary to time side by side")
    ap.add_argument("--sizes", default="400,1000,2000")
    ap.add_argument("--dtypes", default="f64,f32")
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--out", type=Path)
    opts = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="arrayc-matmul-") as tmp:
        rows = measure(opts, Path(tmp))
    report(opts, rows)


def measure(opts, work):
    """Times every dtype and size (inputs, programs and the compile cache under `work`); returns
    `(dtype, n, {column: median})` rows."""
    compilers = [("new", ARRAYC)] + ([("old", opts.old)] if opts.old else [])
    env = dict(os.environ, ARRAYC_CACHE_DIR=str(work / "cache"))
    rows = []
    for t in opts.dtypes.split(","):
        prog = work / f"mm_{t}.arr"
        prog.write_text(PROGRAM.format(t=t))
        for n in map(int, opts.sizes.split(",")):
            rng = np.random.default_rng(n)
            a, b = work / f"a_{t}_{n}.npy", work / f"b_{t}_{n}.npy"
            np.save(a, rng.random((n, n)).astype(t.replace("f", "float")))
            np.save(b, rng.random((n, n)).astype(t.replace("f", "float")))
            cmd = {name: [str(c), "run", "--time", str(prog), f"--arg=a=@{a}", f"--arg=b=@{b}"] for name, c in compilers}
            for c in cmd.values():
                timed(c, env)  # fills the compile cache
            keys = ["new run", "new e2e", "old run", "old e2e", "numpy first", "numpy run", "numpy e2e"]
            times = {k: [] for k in keys}
            for _ in range(opts.repeats):
                for name, c in cmd.items():
                    dt, out = timed(c, env)
                    times[f"{name} run"].append(run_ms(out))
                    times[f"{name} e2e"].append(dt)
                _, out = timed([sys.executable, "-c", NUMPY_RUN.format(a=str(a), b=str(b))])
                first, warm = re.search(r"numpy-run-ms ([\d.]+) ([\d.]+)", out).groups()
                times["numpy first"].append(float(first))
                times["numpy run"].append(float(warm))
                dt, _ = timed([sys.executable, "-c", NUMPY_E2E.format(a=str(a), b=str(b))])
                times["numpy e2e"].append(dt)
            med = {k: statistics.median(v) if v else None for k, v in times.items()}
            rows.append((t, n, med))
            print(t, n, {k: (round(v, 4) if v else None) for k, v in med.items()}, file=sys.stderr)
    return rows


def report(opts, rows):
    """Prints the table of `rows`, and writes it to `opts.out` if given."""

    def f(x, digits):
        return "" if x is None else f"{x:.{digits}f}"

    def ratio(x, y):
        return "" if x is None or y is None else f"{x / y:.2f}"

    head = (f"Generated by `python3 benchmarks/matmul.py --repeats {opts.repeats}"
            f"{' --old ' + str(opts.old) if opts.old else ''}` on "
            f"{datetime.datetime.now().astimezone().isoformat(timespec='minutes')} ({os.cpu_count()} cores, "
            f"load average {os.getloadavg()[0]:.1f} at the end; "
            f"NumPy {np.__version__}, {blas_info()}), median of {opts.repeats} rounds.\n\n")
    lines = ["| dtype | n | old run ms | new run ms | NumPy first ms | NumPy warm ms | new / NumPy first | "
             "new / NumPy warm | old / NumPy warm | old e2e s | new e2e s | NumPy e2e s | new / NumPy e2e |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for t, n, m in rows:
        lines.append(f"| {t} | {n} | {f(m['old run'], 1)} | {f(m['new run'], 1)} | {f(m['numpy first'], 1)} | "
                     f"{f(m['numpy run'], 1)} | {ratio(m['new run'], m['numpy first'])} | "
                     f"{ratio(m['new run'], m['numpy run'])} | {ratio(m['old run'], m['numpy run'])} | "
                     f"{f(m['old e2e'], 3)} | {f(m['new e2e'], 3)} | {f(m['numpy e2e'], 3)} | "
                     f"{ratio(m['new e2e'], m['numpy e2e'])} |")
    text = head + "\n".join(lines) + "\n"
    print(text)
    if opts.out:
        opts.out.write_text(text)


if __name__ == "__main__":
    main()

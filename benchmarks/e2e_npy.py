"""End to end with large `.npy` inputs and outputs (issue 32): whole processes, start to exit, of
`arrayc run prog.arr --arg x=@x.npy ... --out DIR` (warm compile cache) against one `python3`
doing what a NumPy user writes for the same program (`import numpy`, `np.load` of each input, the
computation, `np.save` of each result), on the same files, in interleaved rounds.

The programs read 240 MB per input (30M float64 by default) and write results of 120-240 MB:
an elementwise expression, a cumulative sum, a boolean-mask filter (a result of run-time size), a
normalisation by two reductions over everything, and a two-input expression. Inputs are in the
page cache (they are read once before the rounds); `sync` runs before each measured process, so
that no process pays for the previous one's writes; arrayc's results are checked against NumPy's
(relative 1e-9, absolute 1e-12 of the largest value) before the rounds; each process writes over its own previous
results, as a user repeating a run does. NumPy's interpreter start and `import numpy` are in its
times, as arrayc's start and compile-cache lookup are in arrayc's: both are what a user waits for.

Usage: python3 benchmarks/e2e_npy.py [--arrayc PATH] [--n 30000000] [--repeats 5] [--dir /tmp/e2e_npy]
[--out benchmarks/REPORT-e2e.md]: prints a Markdown section and, with --out, replaces (or appends)
the section "## End to end with large .npy files (issue 32)" of that file.
"""
import argparse
import datetime
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
SECTION = "## End to end with large .npy files (issue 32)"

# name -> (arrayc program, NumPy statement computing `r` from the loaded inputs, inputs)
CASES = {
    "x + 1.0": ("fn f(x: f64[N]) -> f64[N] { return x + 1.0; }", "r = x + 1.0", ["x"]),
    "cumsum(x)": ("fn f(x: f64[N]) -> f64[N] { return cumsum(x); }", "r = np.cumsum(x)", ["x"]),
    "x[x > 0.5]": ("fn f(x: f64[N]) -> f64[?] { return x[x > 0.5]; }", "r = x[x > 0.5]", ["x"]),
    "(x - mean(x)) / std(x)": (
        "fn f(x: f64[N]) -> f64[N] { return (x - mean(x)) / std(x); }",
        "r = (x - np.mean(x)) / np.std(x)",
        ["x"],
    ),
    "sqrt(x*x + y*y)": (
        "fn f(x: f64[N], y: f64[N]) -> f64[N] { return sqrt(x * x + y * y); }",
        "r = np.sqrt(x * x + y * y)",
        ["x", "y"],
    ),
}


def numpy_script(stmt, inputs):
    loads = "; ".join(f"{v} = np.load(sys.argv[{i + 1}])" for i, v in enumerate(inputs))
    return f"import sys\nimport numpy as np\n{loads}\n{stmt}\nnp.save(sys.argv[-1], r)\n"


def timed(cmd):
    """Seconds of one process (after a `sync`); fails loudly on a non-zero exit."""
    subprocess.run(["sync"], check=True)
    t = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True)
    dt = time.perf_counter() - t
    if p.returncode != 0:
        sys.exit(f"{' '.join(map(str, cmd))} failed:\n{p.stderr}")
    return dt


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--arrayc", default=str(REPO / "target/release/arrayc"))
    ap.add_argument("--n", type=int, default=30_000_000)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--dir", default="/tmp/e2e_npy")
    ap.add_argument("--out", help="a report file whose section this run replaces")
    a = ap.parse_args()
    d = Path(a.dir)
    d.mkdir(parents=True, exist_ok=True)
    files = {}
    for i, v in enumerate(["x", "y"]):
        files[v] = d / f"{v}.npy"
        code = f"import numpy as np; np.save({str(files[v])!r}, np.random.default_rng({i}).random({a.n}))"
        subprocess.run([sys.executable, "-c", code], check=True)
    rows = []
    for k, (name, (prog, stmt, inputs)) in enumerate(CASES.items()):
        src = d / f"prog{k}.arr"
        src.write_text(prog + "\n")
        py = d / f"prog{k}.py"
        py.write_text(numpy_script(stmt, inputs))
        out_a, out_n = d / f"arrayc{k}", d / f"numpy{k}"
        out_n.mkdir(exist_ok=True)
        arrayc = [a.arrayc, "run", str(src), "--out", str(out_a)] + [
            a for v in inputs for a in ("--arg", f"{v}=@{files[v]}")
        ]
        numpy = [sys.executable, str(py)] + [str(files[v]) for v in inputs] + [str(out_n / "result_0.npy")]
        timed(arrayc)  # fills the compile cache, reads the inputs into the page cache
        timed(numpy)
        got, want = np.load(out_a / "result_0.npy"), np.load(out_n / "result_0.npy")
        # Relative 1e-9, and absolute 1e-12 of the largest value (near-zero values of a difference).
        scale = float(np.max(np.abs(want))) if want.size else 0.0
        if got.shape != want.shape or not np.allclose(got, want, rtol=1e-9, atol=1e-12 * scale):
            sys.exit(f"{name}: arrayc's result differs from NumPy's")
        ta, tn = [], []
        for r in range(a.repeats):
            for which in ([arrayc, numpy] if r % 2 == 0 else [numpy, arrayc]):
                (ta if which is arrayc else tn).append(timed(which))
        in_mb = sum(files[v].stat().st_size for v in inputs) / 1e6
        out_mb = (out_a / "result_0.npy").stat().st_size / 1e6
        rows.append((name, in_mb, out_mb, statistics.median(ta), min(ta), statistics.median(tn), min(tn)))
    load = os.getloadavg()[0]
    lines = [
        SECTION,
        "",
        f"Generated by `python3 benchmarks/e2e_npy.py --repeats {a.repeats}` on "
        f"{datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%dT%H:%M+00:00')} "
        f"({os.cpu_count()} cores, load average {load:.1f} at the end): whole processes, median (fastest) "
        f"of {a.repeats} interleaved rounds. arrayc: `arrayc run prog.arr --arg x=@x.npy --out DIR`, warm "
        "compile cache; NumPy: `python3 prog.py x.npy DIR/result_0.npy` with `import numpy`, `np.load`, the "
        "statement, `np.save`. Inputs in the page cache, `sync` before each process.",
        "",
        "| program | inputs MB | result MB | arrayc s | NumPy s | arrayc / NumPy |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for name, in_mb, out_mb, ma, ba, mn, bn in rows:
        lines.append(f"| `{name}` | {in_mb:.0f} | {out_mb:.0f} | {ma:.3f} ({ba:.3f}) | {mn:.3f} ({bn:.3f}) | "
                     f"{ma / mn:.2f} ({ba / bn:.2f}) |")
    text = "\n".join(lines) + "\n"
    print(text)
    if a.out:
        path = Path(a.out)
        old = path.read_text() if path.exists() else ""
        if SECTION in old:
            head, rest = old.split(SECTION, 1)
            tail = rest[rest.find("\n## "):] if "\n## " in rest else ""
            new = head + text + ("\n" + tail.lstrip("\n") if tail else "")
        else:
            new = old.rstrip("\n") + "\n\n" + text
        path.write_text(new)


if __name__ == "__main__":
    main()

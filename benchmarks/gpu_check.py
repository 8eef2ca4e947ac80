"""A short device check of `--target gpu`, sized for a lent GPU machine (about two minutes on an
H100 with 16 CPU cores): every benchmark at its LARGE size, run with `--target cpu` and with
`--target gpu` on a warm compile cache, three times each after a first run that fills the cache.

For each benchmark it prints the median `time: run` phase and wall time of each target, their
ratio, and how far the GPU's results are from the CPU's (the largest relative difference of each
float result, the count of differing elements of each other result); for the GPU's first run, its
`--time` lines (the GPU start, the PTX cache, the driver's JIT). The comparison with NumPy is the
tests' (`tests/examples/test_gpu.py`, at the SMALL sizes); this adds the LARGE sizes.

    ARRAYC=target/release/arrayc python3 benchmarks/gpu_check.py [NAME ...]

`scripts/gpu-check.sh` runs it, with the GPU tests, on a machine that has a GPU; docs/gpu.md
has the last results.
"""
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

from harness import ARRAYC, arrayc_cmd
import suite

REPEATS = 3


def run(bench, target, out):
    """One `arrayc run --time` of `bench` at LARGE: (run phase in ms or None, wall s, output)."""
    cmd = arrayc_cmd("run", bench.PROGRAM, bench.ENTRY, bench.LARGE, "--target", target, "--time", "--out", out)
    start = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    wall = time.perf_counter() - start
    text = proc.stdout + proc.stderr
    m = re.search(r"time: run\s+([\d.]+) ms", text)
    return (float(m.group(1)) if proc.returncode == 0 and m else None), wall, text


def results(out):
    """result_0.npy, result_1.npy, ... of `out`, in order."""
    r = []
    while os.path.exists(f"{out}/result_{len(r)}.npy"):
        r.append(np.load(f"{out}/result_{len(r)}.npy"))
    return r


def differences(cpu, gpu):
    """Per result: the largest relative difference (float) or the count of differing elements."""
    diffs = []
    for x, y in zip(cpu, gpu):
        if x.shape != y.shape:
            diffs.append(f"shape {x.shape} vs {y.shape}")
        elif x.dtype.kind in "fc":
            diffs.append(f"{float(np.max(np.abs(x - y) / np.maximum(np.abs(x), 1e-300))) if x.size else 0.0:.1e}")
        else:
            diffs.append(str(int(np.sum(x != y))))
    return diffs


def main(names):
    print(f"{'benchmark':15} {'cpu run ms':>10} {'gpu run ms':>10} {'cpu/gpu':>8} {'cpu wall s':>10} "
          f"{'gpu wall s':>10}  GPU vs CPU results", flush=True)
    failed = False
    for name in names:
        bench = suite.load(name)
        row, outs = {}, {}
        for target in ("cpu", "gpu"):
            outs[target] = tempfile.mkdtemp(prefix=f"gpu-check-{name}-{target}-")
            first = run(bench, target, outs[target])
            if first[0] is None:
                print(f"{name}: --target {target} failed:\n{first[2][-2000:]}", flush=True)
                failed = True
                continue
            if target == "gpu":
                lines = [ln for ln in first[2].splitlines() if ln.startswith(("time:", "cache:", "gpu:", "device:"))]
                print(f"  {name}, first GPU run: " + " | ".join(" ".join(ln.split()) for ln in lines), flush=True)
            runs = [run(bench, target, outs[target]) for _ in range(REPEATS)]
            row[target] = (statistics.median(r[0] for r in runs), statistics.median(r[1] for r in runs))
        if len(row) < 2:
            continue
        (crun, cwall), (grun, gwall) = row["cpu"], row["gpu"]
        diffs = differences(results(outs["cpu"]), results(outs["gpu"]))
        print(f"{name:15} {crun:10.3f} {grun:10.3f} {crun / grun:8.2f} {cwall:10.3f} {gwall:10.3f}  "
              f"{', '.join(diffs)}", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    if not ARRAYC.is_file():
        sys.exit(f"arrayc not found at {ARRAYC}: build it (cargo build --release) or set ARRAYC")
    sys.exit(main(sys.argv[1:] or suite.corpus()))

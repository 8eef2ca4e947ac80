"""Differential testing of arrayc against NumPy with generated programs (issue 10).

    python3 tests/fuzz/differential.py --count N --seed S [--configs all|default]
                                       [--keep-failures DIR] [--jobs 1|2] [--timeout SECONDS]
                                       [--max-stmts K] [--avoid-known] [--time-budget SECONDS]

generates the programs of seeds S, S+1, ..., S+N-1 with tests/fuzz/arrgen.py, runs each with
`arrayc run PROGRAM --out DIR FLAGS` under every fusion configuration (`--configs all`, the default:
the default `optimal`+`bohrium`, `singleton`, `linear`, `greedy`, `unintrusive`,
`optimal-baseline`, `optimal` with each other cost model `max-contract`, `max-locality`,
`robinson`, `--generic` with `optimal` and with `greedy`, and the GPU's kernels emulated on the
CPU, `--target gpu-emulated`; `--configs default`: only the default one), and compares every
result with the program's NumPy translation: shapes and dtypes exactly, f64 with rtol 1e-9 / atol
1e-12, f32 with rtol 1e-4 / atol 1e-5, i64 and bool exactly.

It prints one line per failing run and, at the end, the figures: programs generated, runs,
mismatches, arrayc errors (non-zero exit), timeouts (per run, `--timeout`, default 60 s), how many
programs use each operation of issue 13 (scans, arg-reductions, scatters, add_at, filters, masked
writes, bincount, dot; `arrgen.features`) and the wall time. The exit status is 1 if any run mismatched, failed or timed out, else 0.
`--time-budget SECONDS` stops generating programs once that much time has passed (the figures
then cover the programs generated so far); so do SIGTERM and Ctrl-C (the runs under way finish
first, then the figures are printed).

For every failing program it writes DIR/seed<S>/ (DIR from `--keep-failures`, default
$TMPDIR/arrayc-differential-failures): `program.arr`, `numpy_translation.py` (function `main`;
import it with examples/reference on sys.path, for `arrayc_random`), `commands.txt` (the arrayc
command line of every failing configuration) and `report.txt` (the differing values, arrayc's
stderr). To reproduce: run the command in commands.txt from the repository root, or regenerate
with `python3 tests/fuzz/arrgen.py S` (same program: generation is deterministic) or
`python3 tests/fuzz/differential.py --count 1 --seed S`.

The arrayc binary is $ARRAYC, else target/release/arrayc. At most 2 arrayc processes run at once
(`--jobs`, default 2): the configurations of one program run one after another, so that they share
the kernels they have in common through the compile cache, and programs run in parallel. `--max-stmts K` generates smaller programs (tests/examples/test_differential.py
uses it; pass the same K to reproduce one of its programs). `--avoid-known` leaves out the triggers
of the compiler bugs listed in arrgen.KNOWN_BUGS, to look for other bugs while those are open (the
programs of a seed differ then).
"""
import argparse
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

import arrgen  # noqa: E402

# (name, extra flags of `arrayc run`)
ALL_CONFIGS = [
    ("optimal/bohrium (default)", []),
    ("singleton", ["--fuse", "singleton"]),
    ("linear", ["--fuse", "linear"]),
    ("greedy", ["--fuse", "greedy"]),
    ("unintrusive", ["--fuse", "unintrusive"]),
    ("optimal-baseline", ["--fuse", "optimal-baseline"]),
    ("optimal/max-contract", ["--fuse", "optimal", "--cost", "max-contract"]),
    ("optimal/max-locality", ["--fuse", "optimal", "--cost", "max-locality"]),
    ("optimal/robinson", ["--fuse", "optimal", "--cost", "robinson"]),
    ("optimal --generic", ["--fuse", "optimal", "--generic"]),
    ("greedy --generic", ["--fuse", "greedy", "--generic"]),
    ("gpu-emulated", ["--target", "gpu-emulated"]),
]
DEFAULT_CONFIGS = ALL_CONFIGS[:1]
RUN_TIMEOUT_S = 60


def arrayc_path():
    return Path(os.environ.get("ARRAYC", str(REPO / "target" / "release" / "arrayc")))


def binary_stamp(binary):
    try:
        st = Path(binary).stat()
    except OSError:
        return "missing"
    return f"{st.st_size} bytes, modified {time.strftime('%Y-%m-%d %H:%M:%S', time.localtime(st.st_mtime))}"


def arrayc_command(binary, arr_file, out_dir, flags):
    return [str(binary), "run", str(arr_file), *flags, "--out", str(out_dir)]


def load_results(out_dir):
    """result_0.npy, result_1.npy, ... in order."""
    out_dir = Path(out_dir)
    results = []
    while (out_dir / f"result_{len(results)}.npy").is_file():
        results.append(np.load(out_dir / f"result_{len(results)}.npy", allow_pickle=False))
    return results


def _fmt(x):
    return np.array2string(np.asarray(x), precision=17, threshold=200, max_line_width=120)


def compare_results(actual, expected):
    """Problems (a list of one-line strings; empty when everything agrees) between arrayc's
    results (arrays from .npy) and NumPy's (arrays or NumPy scalars)."""
    problems = []
    if len(actual) != len(expected):
        problems.append(f"{len(actual)} results, NumPy has {len(expected)}")
    for i, (a, e) in enumerate(zip(actual, expected)):
        e = np.asarray(e)
        a = np.asarray(a)
        if a.shape != e.shape:
            problems.append(f"result {i}: shape {a.shape}, NumPy {e.shape}")
            continue
        if a.dtype != e.dtype:
            problems.append(f"result {i}: dtype {a.dtype}, NumPy {e.dtype}")
            continue
        if a.dtype.kind == "f":
            rtol, atol = arrgen.TOL[arrgen.DT_OF[a.dtype]]
            bad = ~np.isclose(a, e, rtol=rtol, atol=atol)
        else:
            bad = a != e
        bad = np.asarray(bad)
        if bad.any():
            idx = tuple(int(k) for k in np.argwhere(bad)[0]) if bad.ndim else ()
            problems.append(
                f"result {i} ({a.dtype}{list(a.shape)}): {int(bad.sum())} of {bad.size} elements differ; "
                f"first at {list(idx)}: arrayc {a[idx]!r}, NumPy {e[idx]!r}")
    return problems


def describe_values(actual, expected):
    lines = []
    for i in range(max(len(actual), len(expected))):
        lines.append(f"--- result {i}")
        if i < len(actual):
            lines.append("arrayc: " + _fmt(actual[i]))
        if i < len(expected):
            lines.append("NumPy:  " + _fmt(expected[i]))
    return "\n".join(lines)


class Outcome:
    __slots__ = ("seed", "config", "kind", "detail", "cmd", "stderr", "values", "seconds")

    def __init__(self, seed, config, kind, detail="", cmd=None, stderr="", values="", seconds=0.0):
        self.seed, self.config, self.kind, self.detail = seed, config, kind, detail
        self.cmd, self.stderr, self.values, self.seconds = cmd, stderr, values, seconds


def run_one(binary, seed, arr_file, expected, config, work, timeout):
    name, flags = config
    out_dir = Path(tempfile.mkdtemp(prefix="out-", dir=work))
    cmd = arrayc_command(binary, arr_file, out_dir, flags)
    t0 = time.monotonic()
    for attempt in range(24):
        try:
            # A session of its own: Ctrl-C in the terminal stops the generation (see `main`), not
            # the runs under way, which then finish and count.
            proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, cwd=REPO,
                                  start_new_session=True)
            break
        except subprocess.TimeoutExpired:
            return Outcome(seed, name, "timeout", f"no result after {timeout} s", cmd, seconds=time.monotonic() - t0)
        except OSError:  # the binary is being rebuilt (missing, or "text file busy"): wait, retry
            time.sleep(5)
            t0 = time.monotonic()
    else:
        return Outcome(seed, name, "error", f"could not start {binary} for two minutes", cmd)
    secs = time.monotonic() - t0
    try:
        if proc.returncode != 0:
            first = next((l for l in proc.stderr.splitlines() if l.strip()), "")
            return Outcome(seed, name, "error", f"exit {proc.returncode}: {first[:200]}", cmd,
                           proc.stdout[-4000:] + proc.stderr[-8000:], seconds=secs)
        actual = load_results(out_dir)
        problems = compare_results(actual, expected)
        if problems:
            return Outcome(seed, name, "mismatch", "; ".join(problems)[:600], cmd, proc.stderr[-4000:],
                           describe_values(actual, expected), secs)
        return Outcome(seed, name, "ok", seconds=secs)
    finally:
        shutil.rmtree(out_dir, ignore_errors=True)


def run_configs(binary, seed, arr_file, expected, configs, work, timeout):
    """The outcomes of `run_one` under each of `configs`, one after another (see the module docs)."""
    return [run_one(binary, seed, arr_file, expected, c, work, timeout) for c in configs]


def save_failure(fail_dir, prog, outcomes, gen_flags=""):
    d = Path(fail_dir) / f"seed{prog.seed}"
    d.mkdir(parents=True, exist_ok=True)
    (d / "program.arr").write_text(prog.arr)
    (d / "numpy_translation.py").write_text(prog.py)
    cmds = ["# from the repository root; --out DIR writes result_<i>.npy",
            f"# regenerate: python3 tests/fuzz/arrgen.py {prog.seed}{gen_flags}"]
    report = [f"seed {prog.seed}: program.arr vs numpy_translation.py (main())", ""]
    for o in outcomes:
        cmd = [c if not c.endswith("program.arr") else str(d / "program.arr") for c in o.cmd]
        cmd[cmd.index("--out") + 1] = f"/tmp/arrayc-out-seed{prog.seed}"
        cmds.append(f"# {o.config}: {o.kind}")
        cmds.append(" ".join(cmd))
        report += [f"=== {o.config}: {o.kind}", o.detail]
        if o.values:
            report.append(o.values)
        if o.stderr:
            report += ["--- arrayc output", o.stderr]
        report.append("")
    (d / "commands.txt").write_text("\n".join(cmds) + "\n")
    (d / "report.txt").write_text("\n".join(report) + "\n")
    return d


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--count", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--configs", choices=["all", "default"], default="all")
    ap.add_argument("--keep-failures", default=str(Path(tempfile.gettempdir()) / "arrayc-differential-failures"))
    ap.add_argument("--jobs", type=int, default=2, choices=[1, 2])
    ap.add_argument("--timeout", type=float, default=RUN_TIMEOUT_S)
    ap.add_argument("--time-budget", type=float, default=None, metavar="SECONDS",
                    help="generate no further program after this much wall time (the runs under way finish)")
    ap.add_argument("--max-stmts", type=int, default=None,
                    help="top-level statements per program (default: 6 to 14, chosen per seed)")
    ap.add_argument("--avoid-known", action="store_true",
                    help="leave out the triggers of the bugs listed in arrgen.KNOWN_BUGS (other programs!)")
    args = ap.parse_args(argv)
    avoid = tuple(arrgen.KNOWN_BUGS) if args.avoid_known else ()
    gen_flags = ((f" --max-stmts {args.max_stmts}" if args.max_stmts is not None else "")
                 + (" --avoid-known" if args.avoid_known else ""))

    binary = arrayc_path()
    if not binary.is_file():
        print(f"arrayc binary not found at {binary} (set ARRAYC or build it)", file=sys.stderr)
        return 2
    configs = ALL_CONFIGS if args.configs == "all" else DEFAULT_CONFIGS
    stamp = binary_stamp(binary)
    print(f"arrayc: {binary} ({stamp})", flush=True)
    t_start = time.monotonic()
    work = Path(tempfile.mkdtemp(prefix="arrayc-differential-"))
    counts = dict(programs=0, runs=0, ok=0, mismatch=0, error=0, timeout=0)
    failing = {}
    per_config = {name: dict(mismatch=0, error=0, timeout=0) for name, _ in configs}
    gen_time = 0.0
    arrayc_time = 0.0
    tally = {op: [0, 0] for op in arrgen.NEW_OPS}  # op -> [programs using it, occurrences]
    stop = []  # the name of the signal that asked the run to stop, once one has

    def on_signal(signum, _frame):
        stop.append(signal.Signals(signum).name)

    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, on_signal)
    try:
        pool = ThreadPoolExecutor(max_workers=args.jobs)
        pending = []

        def drain(block_until):
            nonlocal arrayc_time
            while len(pending) > block_until:
                prog, futs = pending.pop(0)
                bad = []
                for o in (o for f in futs for o in f.result()):
                    counts["runs"] += 1
                    counts[o.kind] += 1
                    arrayc_time += o.seconds
                    if o.kind != "ok":
                        per_config[o.config][o.kind] += 1
                        bad.append(o)
                        print(f"{o.kind.upper()} seed={o.seed} [{o.config}] {o.detail}", flush=True)
                if bad:
                    failing[prog.seed] = bad
                    d = save_failure(args.keep_failures, prog, bad, gen_flags)
                    print(f"    saved to {d}", flush=True)

        for seed in range(args.seed, args.seed + args.count):
            if stop:
                print(f"{stop[0]}: stopping after {counts['programs']} programs (the runs under way finish)",
                      flush=True)
                break
            if args.time_budget is not None and time.monotonic() - t_start > args.time_budget:
                print(f"time budget of {args.time_budget:.0f} s spent: stopping after {counts['programs']} programs",
                      flush=True)
                break
            t0 = time.monotonic()
            prog = arrgen.generate(seed, max_stmts=args.max_stmts, avoid=avoid)
            expected = prog.numpy_results()
            gen_time += time.monotonic() - t0
            counts["programs"] += 1
            for op, k in prog.features.items():
                tally[op][0] += k > 0
                tally[op][1] += k
            pdir = work / f"seed{seed}"
            pdir.mkdir()
            arr_file = pdir / "program.arr"
            arr_file.write_text(prog.arr)
            # One program's configurations run one after another, so that the later ones find the
            # kernels they share with the earlier ones in the compile cache; programs run in parallel.
            futs = [pool.submit(run_configs, binary, seed, arr_file, expected, configs, pdir, args.timeout)]
            pending.append((prog, futs))
            drain(2)  # keep the pool busy, but do not generate far ahead
            if counts["programs"] % 25 == 0:
                print(f"... {counts['programs']} programs, {counts['runs']} runs, "
                      f"{counts['mismatch']} mismatches, {counts['error']} errors, "
                      f"{counts['timeout']} timeouts, {time.monotonic() - t_start:.0f} s", flush=True)
        drain(0)
        pool.shutdown()
    finally:
        shutil.rmtree(work, ignore_errors=True)
    wall = time.monotonic() - t_start
    print()
    if binary_stamp(binary) != stamp:
        print(f"note: {binary} changed during the run (now {binary_stamp(binary)})")
    print(f"programs generated: {counts['programs']} (seeds {args.seed}..{args.seed + counts['programs'] - 1})"
          + (f", avoiding {', '.join(avoid)}" if avoid else ""))
    print(f"configurations:     {len(configs)} ({', '.join(n for n, _ in configs)})")
    print(f"runs:               {counts['runs']}")
    print(f"mismatches:         {counts['mismatch']}")
    print(f"arrayc errors:      {counts['error']}")
    print(f"timeouts:           {counts['timeout']}")
    print(f"failing programs:   {len(failing)}" + (f" (seeds {', '.join(map(str, sorted(failing)))})" if failing else ""))
    if failing:
        for name, c in per_config.items():
            if any(c.values()):
                print(f"  {name}: {c['mismatch']} mismatches, {c['error']} errors, {c['timeout']} timeouts")
        print(f"failures saved under {args.keep_failures}")
    print("operations of issue 13 (programs using it / occurrences): "
          + ", ".join(f"{op} {p}/{k}" for op, (p, k) in tally.items()))
    print(f"wall time:          {wall:.1f} s (generation + NumPy {gen_time:.1f} s, arrayc {arrayc_time:.1f} s summed over runs)")
    return 1 if (counts["mismatch"] or counts["error"] or counts["timeout"]) else 0


if __name__ == "__main__":
    sys.exit(main())

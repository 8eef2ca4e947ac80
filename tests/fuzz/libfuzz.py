"""Fuzzes `arrayc build --lib` and its generated Python module (issue 34).

A handful of libraries are built once from generated programs whose function and parameter names
are drawn from Python's and C's keywords, the names of the module's helpers, builtins, macros and
plain names; then their functions are called many times with random inputs: every dtype (and wrong
ones), ranks, shapes, strides (negative, zero, transposed, unaligned), read-only arrays, memory
maps (read-only, read-write, copy-on-write), huge and non-finite numbers, lists, None, strings,
wrong argument counts. Every call must end in a result or a Python exception, never a signal; a
read-only array must never change; a written array must hold what was written; integers out of
int64's range must raise OverflowError.

Calls run in a worker process (`--worker`), which reports each outcome on stdout; a worker killed
by a signal is a crash: the driver records the input (`--seed`, index) and starts a new worker after
it. A build must succeed or be refused with exit 1 and an `error:` line.

    ARRAYC=target/release/arrayc python3 tests/fuzz/libfuzz.py --iters 10000 --seed 1
"""
import argparse
import collections
import importlib
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

PY_KEYWORDS = ["class", "def", "lambda", "None", "True", "False", "import", "from", "yield", "async", "await",
               "not", "and", "or", "is", "pass", "raise", "try", "except", "finally", "with", "as", "global",
               "nonlocal", "del", "assert", "break", "continue", "elif"]
C_NAMES = ["double", "int", "float", "char", "long", "short", "unsigned", "signed", "void", "static", "const",
           "struct", "union", "enum", "typedef", "extern", "register", "auto", "volatile", "restrict", "inline",
           "goto", "switch", "case", "default", "do", "sizeof", "asm", "_Bool", "alignas", "typeof", "NULL",
           "size_t", "int64_t", "INT64_MAX", "SIZE_MAX", "INT8_C", "linux", "unix", "i386", "__linux__", "_Complex",
           "__x", "_X", "args", "results", "error", "error_len", "arrayc_value", "arrayc_call", "arrayc_release",
           "ARRAYC_F64"]
HELPERS = ["numpy", "np", "ctypes", "os", "len", "range", "zip", "tuple", "any", "isinstance", "type", "int_",
           "ValueError", "TypeError", "OverflowError", "RuntimeError", "_call", "_lib", "_result", "_Value",
           "_DTYPES", "_FLOATS", "__arrayc_call", "__arrayc_helpers", "__arrayc_call_", "__name__", "__file__",
           "__doc__", "__builtins__", "__spec__", "__debug__", "__all__", "__getattr__", "__init__", "_", "match",
           "x_shape", "x_strides", "lo", "hi", "keep", "values"]
PLAIN = [f"{c}{k}" for c in "abcdxyz" for k in range(4)]
# arrayc's own keywords (docs/language.md, "Lexical structure") cannot name anything in a program.
ARRAYC_KEYWORDS = {"None", "True", "False", "not", "and", "or", "elif", "break", "continue", "assert"}
POOL = [n for n in PY_KEYWORDS + C_NAMES + HELPERS + PLAIN if n not in ARRAYC_KEYWORDS]
DTYPES = {"f64": "float64", "f32": "float32", "i64": "int64", "bool": "bool_"}
DIMS = ["N", "M", "K"]


def names(rng, count, taken=()):
    """`count` distinct names from the pool, none in `taken`."""
    out = []
    while len(out) < count:
        n = rng.choice(POOL)
        if n not in out and n not in taken:
            out.append(n)
    return out


def generate(rng):
    """A program and its functions' descriptions: (name, template, [(param, dtype, rank or None,
    written)])."""
    fnames = names(rng, 6)
    funcs, text = [], []
    fill1 = fnames[5]
    a, v = names(rng, 2)
    text.append(f"fn {fill1}({a}: f64[N], {v}: f64) {{\n    {a}[:] = {v};\n}}\n")
    funcs.append((fill1, "fill", [(a, "f64", 1, True), (v, "f64", None, False)]))
    for f in fnames[:5]:
        kind = rng.choice(["reads", "fill", "view", "indirect", "scalars"])
        d = rng.choice(list(DTYPES))
        r = rng.randint(1, 3)
        dims, full = ", ".join(DIMS[:r]), ", ".join([":"] * r)
        if kind == "reads":
            a, k, s = names(rng, 3)
            text.append(f"fn {f}({a}: {d}[{dims}], {k}: i64, {s}: f64) -> f64 {{\n    return sum({a}) * {s} + {k};\n}}\n")
            params = [(a, d, r, False), (k, "i64", None, False), (s, "f64", None, False)]
        elif kind == "fill":
            a, v = names(rng, 2)
            text.append(f"fn {f}({a}: {d}[{dims}], {v}: {d}) {{\n    {a}[{full}] = {v};\n}}\n")
            params = [(a, d, r, True), (v, d, None, False)]
        elif kind == "view":
            (a,) = names(rng, 1)
            text.append(f"fn {f}({a}: {d}[{dims}]) -> {d}[{dims}] {{\n    return {a}[::-1];\n}}\n")
            params = [(a, d, r, False)]
        elif kind == "indirect":
            a, b = names(rng, 2)
            text.append(f"fn {f}({a}: f64[N], {b}: f64) -> f64 {{\n    {fill1}({a}[::2], {b});\n    return sum({a});\n}}\n")
            params = [(a, "f64", 1, True), (b, "f64", None, False)]
        else:
            b, k, x = names(rng, 3)
            text.append(f"fn {f}({b}: bool, {k}: i64, {x}: f32) -> (i64, f32, bool) {{\n"
                        f"    return ({k} + 1, {x} * 2.0, {b});\n}}\n")
            params = [(b, "bool", None, False), (k, "i64", None, False), (x, "f32", None, False)]
        funcs.append((f, kind, params))
    return "\n".join(text), funcs


# The names the generated module escapes (docs/language.md, "Names in libraries"): Python's keywords,
# the module-level names Python reads, the module's own machinery.
RESERVED = set(__import__("keyword").kwlist) | {
    "__annotations__", "__all__", "__builtins__", "__cached__", "__class__", "__debug__", "__dict__", "__dir__",
    "__doc__", "__file__", "__getattr__", "__loader__", "__module__", "__name__", "__package__", "__path__",
    "__qualname__", "__spec__", "__arrayc_call", "__arrayc_helpers"}


def escape_all(ns):
    """The Python names of the namespace `ns` (in order), by the documented rule: a reserved name
    gets trailing underscores until it is neither reserved nor another name of `ns` nor taken."""
    given, out = set(), []
    for k, n in enumerate(ns):
        p = n
        if n in RESERVED:
            while p in RESERVED or p in given or any(j != k and o == p for j, o in enumerate(ns)):
                p += "_"
        given.add(p)
        out.append(p)
    return out


def build(arrayc, seed, count, out_dir, log):
    """Builds `count` libraries from programs of `seed`; returns their descriptions."""
    rng = random.Random(seed)
    libs, attempts = [], 0
    while len(libs) < count and attempts < 4 * count:
        attempts += 1
        text, funcs = generate(rng)
        name = f"fz{seed}_{attempts}"
        src = out_dir / f"{name}.arr"
        src.write_text(text)
        proc = subprocess.run([arrayc, "build", "--lib", str(src), "-o", str(out_dir / f"lib{name}.so")],
                              capture_output=True, text=True, timeout=600)
        if proc.returncode == 0:
            fn_py = escape_all([f for f, _, _ in funcs])
            funcs = [(f, fp, kind, list(zip(escape_all([p[0] for p in params]), params)))
                     for (f, kind, params), fp in zip(funcs, fn_py)]
            libs.append({"module": name, "funcs": funcs})
            log["built"] += 1
        elif proc.returncode == 1 and "error" in proc.stderr and "panicked" not in proc.stderr:
            log["refused"] += 1
            log.setdefault("refusals", []).append(proc.stderr.strip().splitlines()[-1][:200])
        else:
            log["build crashes"] += 1
            print(f"BUILD CRASH (exit {proc.returncode}) of {src}:\n{proc.stderr}", file=sys.stderr)
    return libs


# ---- the worker: random inputs, one call each --------------------------------------------------


class Memmaps:
    """Files to map per dtype, and the maps of each mode."""

    def __init__(self, np, d):
        self.np, self.files = np, {}
        for name, dt in DTYPES.items():
            path = Path(d) / f"map_{name}.bin"
            a = np.memmap(path, dtype=dt, mode="w+", shape=(256,))
            a[:] = np.arange(256) % 7
            a.flush()
            del a
            self.files[name] = path

    def get(self, d, shape, mode):
        n = int(self.np.prod(shape))
        return self.np.memmap(self.files[d], dtype=DTYPES[d], mode=mode, shape=(n,))[:n].reshape(shape) \
            if n <= 256 else None


def random_scalar(rng, np, d):
    """A value for a scalar parameter of dtype `d`, and whether it must raise OverflowError."""
    big = [2**63, 2**64 + 3, -(2**63) - 1, -(2**64), 10**30, 10**400]
    r = rng.random()
    if d == "i64":
        if r < 0.25:
            v = rng.choice(big)
            return v, True
        if r < 0.35:
            return rng.choice([2**63 - 1, -(2**63)]), False
        if r < 0.45:
            return rng.choice([1.5, float("nan"), float("inf"), 1e30, np.int64(5), np.uint64(2**64 - 1), True,
                               "7", None, [1], np.array([2, 3])]), None
        return rng.randint(-100, 100), False
    if d in ("f64", "f32"):
        if r < 0.2:
            return rng.choice(big), None
        if r < 0.35:
            return rng.choice([1e308, -1e308, float("nan"), float("inf"), 1e-320, np.float32(3.5), "1.5", None,
                               [1.0], 2**60]), None
        return rng.uniform(-10, 10), False
    if r < 0.3:
        return rng.choice([2**64, -(2**70), 0, None, np.bool_(True), np.array([1, 2]), "x", float("nan")]), None
    return rng.random() < 0.5, False


def random_array(rng, np, maps, d, rank, shape):
    """An array-like for a parameter of dtype `d` and rank `rank`, of `shape` when it is right;
    returns (value, read_only, kind of input)."""
    r = rng.random()
    if r < 0.05:
        return rng.choice([None, "x", 3.0, [[1.0]], object()]), False, "not an array"
    if r < 0.1:
        d = rng.choice(list(DTYPES))
    if r < 0.15:
        rank = rng.randint(0, 3)
        shape = tuple(rng.randint(0, 4) for _ in range(rank))
    dtype = np.dtype(DTYPES[d])
    if rng.random() < 0.05:
        dtype = np.dtype(rng.choice(["int32", "float16", "complex128", ">f8", "uint64", "object"]))
    how = rng.choice(["plain", "plain", "strided", "reversed", "transposed", "broadcast", "zero_strides",
                      "readonly", "unaligned", "memmap_r", "memmap_rplus", "memmap_c", "list", "fortran"])
    n = int(np.prod(shape)) if shape else 1
    base = (np.arange(n) % 5).astype(dtype).reshape(shape)
    if how == "strided" and rank > 0:
        big = np.zeros(tuple(s * 2 for s in shape), dtype)
        a = big[tuple(slice(None, None, 2) for _ in shape)]
        a[...] = base
        return a, False, how
    if how == "reversed" and rank > 0:
        return base[::-1].copy()[::-1][::-1], False, how
    if how == "transposed" and rank > 1:
        return np.ascontiguousarray(base.T).T, False, how
    if how == "fortran":
        return np.asfortranarray(base), False, how
    if how == "broadcast" and rank > 0:
        return (np.broadcast_to(base[:1], shape), True, how) if shape[0] else (base, False, "plain")
    if how == "zero_strides" and rank > 0 and n > 0:
        return np.lib.stride_tricks.as_strided(base, shape=shape, strides=(0,) * rank), False, how
    if how == "readonly":
        base.flags.writeable = False
        return base, True, how
    if how == "unaligned" and dtype.itemsize > 1 and dtype.kind != "O":
        raw = np.zeros(n * dtype.itemsize + 1, np.uint8)
        a = raw[1:].view(dtype).reshape(shape)
        return a, False, how
    if how.startswith("memmap") and dtype == np.dtype(DTYPES[d]) and 0 < n:
        mode = {"memmap_r": "r", "memmap_rplus": "r+", "memmap_c": "c"}[how]
        m = maps.get(d, shape, mode)
        if m is not None:
            return m, mode == "r", how
    if how == "list" and dtype.kind != "O":
        return base.tolist(), False, how
    return base, False, "plain"


def one_call(rng, np, maps, libs):
    """Makes one random call; returns (outcome, violation or None, kinds of input)."""
    lib = rng.choice(libs)
    module = importlib.import_module(lib["module"])
    fname, pyname, kind, params = rng.choice(lib["funcs"])
    f = getattr(module, pyname)
    sizes = {s: rng.randint(0, 4) for s in DIMS}
    args, read_only, overflow, written, tags = [], [], False, [], set()
    for pyp, (p, d, rank, writes) in params:
        if rank is None:
            v, ov = random_scalar(rng, np, d)
            overflow = overflow or ov is True
            if ov is True:
                tags.add("integer out of int64")
            args.append(v)
            continue
        shape = tuple(sizes[s] for s in DIMS[:rank])
        if kind == "indirect":
            shape = (rng.randint(0, 6),)
        v, ro, how = random_array(rng, np, maps, d, rank, shape)
        args.append(v)
        tags.add(how + (" where written" if writes else ""))
        if ro and isinstance(v, np.ndarray):
            read_only.append((v, v.copy()))
        if writes and isinstance(v, np.ndarray):
            written.append(v)
    r = rng.random()
    kwargs = {}
    if r < 0.03:
        args = args + [1.0]
    elif r < 0.06:
        args = args[:-1]
    elif r < 0.2 and params:
        # keyword arguments under the module's (escaped) names
        for (pyp, _), v in zip(params, list(args)):
            kwargs[pyp] = v
        args = []
    elif r < 0.22:
        kwargs = {"no_such_parameter": 1}
    try:
        out = f(*args, **kwargs)
        outcome = "result"
    except (TypeError, ValueError, OverflowError, RuntimeError) as e:
        outcome = type(e).__name__
        out = e
    except Exception as e:  # any other exception is still not a crash, but is counted apart
        outcome = "other:" + type(e).__name__
        out = e
    violation = None
    for a, before in read_only:
        if not np.array_equal(a, before, equal_nan=a.dtype.kind == "f"):
            violation = f"{fname}: a read-only argument changed"
    if overflow and outcome == "result":
        violation = f"{fname}: an integer out of int64's range was accepted"
    if outcome == "ValueError" and "read-only" in str(out) and not any(not w.flags.writeable for w in written):
        violation = f"{fname}: a writable argument was called read-only"
    if outcome == "result" and kind == "fill" and written and not kwargs.get("no_such_parameter"):
        a = written[0]
        value = (kwargs[params[1][0]] if kwargs else args[1])
        want = np.asarray(np.float64(value) if a.dtype.kind == "f" else (1 if value else 0) if a.dtype == bool
                          else int(value)).astype(a.dtype)
        if a.size and not np.all((a == want) | (np.isnan(a) & np.isnan(want) if a.dtype.kind == "f" else False)):
            violation = f"{fname}: the array was not filled with {value!r}"
    return outcome, violation, sorted(tags)


def worker(args):
    import numpy as np

    libs = json.loads(Path(args.libs_json).read_text())
    sys.path.insert(0, args.dir)
    maps = Memmaps(np, tempfile.mkdtemp(dir=args.dir))
    for i in range(args.start, args.iters):
        print(f"start {i}", flush=True)
        rng = random.Random(args.seed * 1_000_003 + i)
        t = time.perf_counter()
        outcome, violation, tags = one_call(rng, np, maps, libs)
        ms = (time.perf_counter() - t) * 1e3
        print(json.dumps({"i": i, "outcome": outcome, "violation": violation, "ms": ms, "tags": tags}), flush=True)


def drive(args):
    arrayc = os.environ.get("ARRAYC", str(REPO / "target" / "release" / "arrayc"))
    started = time.perf_counter()
    work = Path(tempfile.mkdtemp(prefix="arrayc-libfuzz-"))
    log = collections.Counter()
    libs = build(arrayc, args.seed, args.libs, work, log)
    build_s = time.perf_counter() - started
    if not libs:
        print("no library could be built", file=sys.stderr)
        return 1
    (work / "libs.json").write_text(json.dumps(libs))
    outcomes, violations, crashes, harness_errors = collections.Counter(), [], [], []
    kinds = collections.Counter()
    slowest, i = 0.0, 0
    while i < args.iters:
        cmd = [sys.executable, __file__, "--worker", "--dir", str(work), "--libs-json", str(work / "libs.json"),
               "--seed", str(args.seed), "--start", str(i), "--iters", str(args.iters)]
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        current = None
        for line in proc.stdout:
            if line.startswith("start "):
                current = int(line.split()[1])
                continue
            rec = json.loads(line)
            outcomes[rec["outcome"]] += 1
            kinds.update(rec["tags"])
            slowest = max(slowest, rec["ms"])
            if rec["violation"]:
                violations.append((rec["i"], rec["violation"]))
            i = rec["i"] + 1
        err = proc.stderr.read()
        code = proc.wait()
        if code != 0 or (current is not None and current >= i):
            at = current if current is not None else i
            # A signal (negative code) is a crash of the library; an exit with a traceback is a
            # bug of this harness (or a module whose names are not the documented ones).
            (crashes if code < 0 else harness_errors).append((at, code, err.strip()[-2000:]))
            what = "CRASH" if code < 0 else "HARNESS ERROR"
            print(f"{what} at input {at} (seed {args.seed}): exit {code}\n{err.strip()[-2000:]}", file=sys.stderr)
            i = at + 1
    total = time.perf_counter() - started
    print(f"libfuzz: seed {args.seed}: {log['built']} libraries built ({log['refused']} programs refused with an "
          f"error, {log['build crashes']} build crashes) in {build_s:.1f} s")
    for r in sorted(set(log.get("refusals", [])))[:5]:
        print(f"  refused: {r}")
    print(f"libfuzz: {sum(outcomes.values()) + len(crashes) + len(harness_errors)} calls in {total - build_s:.1f} s: "
          + ", ".join(f"{k} {v}" for k, v in sorted(outcomes.items()))
          + f"; crashes {len(crashes)}, violations {len(violations)}, harness errors {len(harness_errors)}, "
          f"slowest call {slowest:.1f} ms")
    print("libfuzz: inputs holding " + ", ".join(f"{k} {v}" for k, v in sorted(kinds.items())))
    for v in violations[:20]:
        print(f"  violation at input {v[0]}: {v[1]}")
    import shutil
    bad = crashes or violations or harness_errors or log["build crashes"]
    if not bad:
        shutil.rmtree(work, ignore_errors=True)
    else:
        print(f"libfuzz: kept {work} for reproduction")
    return 1 if bad else 0


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--iters", type=int, default=int(os.environ.get("FUZZ_ITERS", "10000")))
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--libs", type=int, default=4, help="libraries to build (each of 6 functions)")
    p.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--dir", help=argparse.SUPPRESS)
    p.add_argument("--libs-json", help=argparse.SUPPRESS)
    p.add_argument("--start", type=int, default=0, help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.worker:
        worker(args)
        return 0
    return drive(args)


if __name__ == "__main__":
    sys.exit(main())

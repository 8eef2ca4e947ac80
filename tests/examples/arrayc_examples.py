"""Helpers for tests/examples: locating the compiler, parsing entry signatures of
`.arr` files, loading the NumPy references and comparing results."""
import functools
import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "examples"
REFERENCE = EXAMPLES / "reference"
DEFAULT_ARRAYC = REPO / "target" / "release" / "arrayc"
RUN_TIMEOUT_S = 300

if str(REFERENCE) not in sys.path:  # references import `arrayc_random`
    sys.path.insert(0, str(REFERENCE))


# The dtypes of the language, as NumPy's.
DTYPES = {"f64": np.float64, "f32": np.float32, "i64": np.int64, "i32": np.int32, "i16": np.int16, "i8": np.int8,
          "u64": np.uint64, "u32": np.uint32, "u16": np.uint16, "u8": np.uint8, "bool": np.bool_}
# The integer dtypes, and the dtype NumPy's `sum`, `prod` and `cumsum` give for each dtype (its
# upcast of bools and narrow integers to its default integer, `u64` for the unsigned ones).
INTS = ("i64", "i32", "i16", "i8", "u64", "u32", "u16", "u8")
SUM_DTYPE = {"bool": "i64", "i32": "i64", "i16": "i64", "i8": "i64", "u32": "u64", "u16": "u64", "u8": "u64"}


def sum_dtype(dt):
    """The dtype of `sum` of a `dt` array (NumPy's)."""
    return SUM_DTYPE.get(dt, dt)


# The partition algorithms an "every fusion algorithm" test runs. `ilp` is left out: it is checked
# against `optimal` on random regions (passes/tests/wsp.rs) and on the examples (test_fusion.py),
# and a region it cannot prove costs a second.
ALGORITHMS = ["singleton", "linear", "greedy", "unintrusive", "optimal", "optimal-baseline"]

# The targets of the tests parametrized over `target`: the CPU, the GPU kernels emulated on the CPU,
# and the GPU itself, whose cases skip where there is none (conftest.py, `skip_without_a_gpu`).
TARGETS = ["cpu", "gpu-emulated", "gpu"]


@functools.lru_cache(maxsize=None)
def no_gpu_reason():
    """Why `arrayc run --target gpu` cannot run here (its one-line error), or None when it can."""
    proc = subprocess.run(
        [str(arrayc_binary()), "run", "--target", "gpu", str(EXAMPLES / "leibnitz_pi.arr"), "--arg", "n=10"],
        capture_output=True,
        text=True,
    )
    if proc.returncode != 0 and "--target gpu needs" in proc.stderr:
        return proc.stderr.strip()
    return None


def skip_without_a_gpu():
    """Skips the calling test, with the reason, where `arrayc run --target gpu` cannot run."""
    reason = no_gpu_reason()
    if reason:
        pytest.skip(f"no GPU to run on: {reason}")


def arrayc_binary():
    """Path of the compiler driver; fails the test (never skips) when it is missing,
    because the build is supposed to have run before these tests."""
    path = Path(os.environ.get("ARRAYC", str(DEFAULT_ARRAYC)))
    if not path.is_file() or not os.access(path, os.X_OK):
        pytest.fail(
            f"arrayc binary not found or not executable at {path}; build it first "
            f"(cargo build --release) or point the ARRAYC environment variable at it",
            pytrace=False,
        )
    return path


def format_arg(value):
    """A parameter value as written on the `--arg NAME=VALUE` command line."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return repr(value)
    return str(value)


def run_arrayc(arr_file, entry=None, args=None, out_dir=None, flags=()):
    """`arrayc run FILE [--entry E] [--arg k=v ...] [--out DIR] [flags...]` from the repository root."""
    cmd = [str(arrayc_binary()), "run", str(arr_file), *flags]
    if entry is not None:
        cmd += ["--entry", entry]
    for name, value in (args or {}).items():
        cmd += ["--arg", f"{name}={format_arg(value)}"]
    if out_dir is not None:
        cmd += ["--out", str(out_dir)]
    try:
        return subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, timeout=RUN_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        pytest.fail(f"timed out after {RUN_TIMEOUT_S}s: {' '.join(cmd)}", pytrace=False)


def run_source(src, inputs, tmp_path, flags=(), env=None):
    """Writes `src` to `tmp_path/prog.arr` and runs it with the arrays of `inputs` as `.npy`
    arguments (`--arg NAME=@FILE`), results to `tmp_path/out`; (process, results or None)."""
    tmp_path.mkdir(parents=True, exist_ok=True)
    prog = tmp_path / "prog.arr"
    prog.write_text(src)
    out = tmp_path / "out"
    cmd = [str(arrayc_binary()), "run", str(prog), "--out", str(out), *flags]
    for name, value in inputs.items():
        np.save(tmp_path / f"{name}.npy", value)
        cmd += ["--arg", f"{name}=@{tmp_path / f'{name}.npy'}"]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=RUN_TIMEOUT_S, env=env)
    return proc, (load_results(out) if proc.returncode == 0 else None)


def run_ok(src, inputs, tmp_path, target="cpu", flags=()):
    """Runs `src` on `inputs` with `--target target`; its results, asserting it succeeded."""
    proc, got = run_source(src, inputs, tmp_path, flags=["--target", target, *flags])
    assert proc.returncode == 0, f"{src}\n{proc.stderr}"
    return got


def run_fails(src, inputs, tmp_path, words):
    """Runs `src` on `inputs`, asserting it fails with `words` in its errors and no panic."""
    proc, _ = run_source(src, inputs, tmp_path)
    assert proc.returncode != 0 and words in proc.stderr, proc.stderr
    assert "panicked" not in proc.stderr


def python_ref(src, inputs):
    """Runs the Python function `ref` that `src` defines (with `np` in scope) on copies of
    `inputs`: its results as a list of arrays (a tuple result is several)."""
    g = {"np": np}
    exec(src, g)
    out = g["ref"](**{k: np.copy(v) for k, v in inputs.items()})
    return [np.asarray(o) for o in (out if isinstance(out, tuple) else (out,))]


def assert_results_close(got, want, rtol=1e-12, atol=1e-14):
    """`got` has NumPy's dtypes and shapes, and values to rounding (`rtol`, `atol`)."""
    assert len(got) == len(want), f"{len(got)} results, NumPy {len(want)}"
    for i, (g, w) in enumerate(zip(got, want)):
        assert g.dtype == w.dtype and g.shape == w.shape, f"result {i}: {g.dtype}{g.shape}, NumPy {w.dtype}{w.shape}"
        np.testing.assert_allclose(g, w, rtol=rtol, atol=atol, err_msg=f"result {i}")


def assert_same(got, want, what):
    """`got` has NumPy's dtype, shape and values."""
    got, want = np.asarray(got), np.asarray(want)
    assert got.dtype == want.dtype and got.shape == want.shape, f"{what}: {got.dtype}{got.shape}, NumPy {want.dtype}{want.shape}"
    np.testing.assert_array_equal(got, want, err_msg=what)


def check_source(src, tmp_path):
    """`arrayc check` of `src` (written to `tmp_path/e.arr`): the completed process."""
    prog = tmp_path / "e.arr"
    prog.write_text(src)
    return subprocess.run([str(arrayc_binary()), "check", str(prog)], capture_output=True, text=True,
                          timeout=RUN_TIMEOUT_S)


def assert_check_error(src, code, words, tmp_path):
    """`arrayc check` of `src` fails with error `code` and a message containing `words`, and
    does not panic."""
    proc = check_source(src, tmp_path)
    assert proc.returncode != 0
    assert code in proc.stderr and words in proc.stderr, proc.stderr
    assert "panicked" not in proc.stderr


def assert_run_time_error(src, args, message, tmp_path):
    """Running `src` (its line 2 fails) with `args` (arrays as `.npy` files, the rest as
    `--arg NAME=VALUE`) fails with `message` naming `prog.arr:2:`, and leaves no result files."""
    arrays = {k: v for k, v in args.items() if isinstance(v, np.ndarray)}
    flags = [a for k, v in args.items() if not isinstance(v, np.ndarray) for a in ("--arg", f"{k}={v}")]
    proc, _ = run_source(src, arrays, tmp_path, flags=flags)
    assert proc.returncode != 0, "the program ran"
    assert message in proc.stderr and "prog.arr:2:" in proc.stderr, proc.stderr
    assert not (tmp_path / "out").exists(), "an error left result files"


def assert_benchmark_matches(name, actual, args=None):
    """Asserts that `actual` (a benchmark's results, one array or scalar each) are the results of its
    NumPy reference at `args` (default: its SMALL arguments): exact shapes and dtypes, i64/bool
    equal, floats allclose with the module's RTOL/ATOL (defaults 1e-9 and 0)."""
    if str(REPO / "benchmarks") not in sys.path:
        sys.path.insert(0, str(REPO / "benchmarks"))
    import suite

    bench = suite.load(name)
    args = bench.SMALL if args is None else args
    expected = suite.reference(bench)(**args)
    expected = expected if isinstance(expected, tuple) else (expected,)
    assert len(actual) == len(expected), f"{len(actual)} results, expected {len(expected)}"
    rtol, atol = getattr(bench, "RTOL", 1e-9), getattr(bench, "ATOL", 0.0)
    for i, (a, e) in enumerate(zip(actual, expected)):
        a, e = np.asarray(a), np.asarray(e)
        label = f"{name}{args} result {i}"
        assert a.shape == e.shape, f"{label}: shape {a.shape}, expected {e.shape}"
        assert a.dtype == e.dtype, f"{label}: dtype {a.dtype}, expected {e.dtype}"
        if e.dtype.kind == "f":
            np.testing.assert_allclose(a, e, rtol=rtol, atol=atol, err_msg=label)
        else:
            np.testing.assert_array_equal(a, e, err_msg=label)


def load_results(out_dir):
    """result_0.npy, result_1.npy, ... in order (scalars are 0-d arrays)."""
    out_dir = Path(out_dir)
    results = []
    while (out_dir / f"result_{len(results)}.npy").is_file():
        results.append(np.load(out_dir / f"result_{len(results)}.npy", allow_pickle=False))
    extra = sorted(p.name for p in out_dir.glob("result_*.npy"))[len(results):]
    assert not extra, f"result files out of sequence: {extra}"
    return results


def reference_function(arr_file, entry):
    """examples/reference/<path of the .arr under examples, without suffix>.py, function `entry`."""
    rel = Path(arr_file).relative_to(EXAMPLES).with_suffix(".py")
    path = REFERENCE / rel
    assert path.is_file(), f"missing NumPy reference {path}"
    mod_name = "ref_" + "_".join(rel.with_suffix("").parts)
    module = sys.modules.get(mod_name)
    if module is None:
        spec = importlib.util.spec_from_file_location(mod_name, path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[mod_name] = module
        spec.loader.exec_module(module)
    return getattr(module, entry)


def call_reference(arr_file, entry, args):
    out = reference_function(arr_file, entry)(**args)
    return out if isinstance(out, tuple) else (out,)


# ---------------------------------------------------------------------------------------
# A small parser for entry signatures, enough for the examples (not a language parser).

_DTYPES = {"f64": np.float64, "f32": np.float32, "i64": np.int64, "i32": np.int32, "u64": np.uint64, "u8": np.uint8,
           "bool": np.bool_}


def _strip_comments(src):
    return "\n".join(line.split("#", 1)[0] for line in src.splitlines())


def _split_top(text):
    """Split at commas outside brackets and parentheses."""
    parts, depth, cur = [], 0, ""
    for ch in text:
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        parts.append(cur.strip())
    return parts


def function_names(arr_file):
    return re.findall(r"\bfn\s+([A-Za-z_]\w*)\s*\(", _strip_comments(Path(arr_file).read_text()))


def parse_signature(arr_file, entry):
    """Returns (params, results): params a list of (name, type, default or None) with the
    default as a Python value; results a list of type strings."""
    src = _strip_comments(Path(arr_file).read_text())
    m = re.search(r"\bfn\s+" + re.escape(entry) + r"\s*\(", src)
    assert m, f"no function {entry} in {arr_file}"
    i, depth = m.end(), 1
    while depth:
        depth += {"(": 1, ")": -1}.get(src[i], 0)
        i += 1
    params_text = src[m.end():i - 1]
    rest = src[i:src.index("{", i)].strip()
    params = []
    for p in _split_top(params_text):
        name, rest_p = p.split(":", 1)
        ty, _, default = rest_p.partition("=")
        params.append((name.strip(), ty.strip(), _literal(default.strip()) if default else None))
    results = []
    if rest.startswith("->"):
        r = rest[2:].strip()
        results = _split_top(r[1:-1]) if r.startswith("(") else [r]
    return params, results


def _literal(text):
    if text in ("true", "false"):
        return text == "true"
    if re.fullmatch(r"-?\d+", text):
        return int(text)
    return float(text)


def result_shape_dtype(type_text, params):
    """`f64[n+2, n+2]` with params {'n': 3} -> ((5, 5), float64); `i64` -> ((), int64)."""
    m = re.fullmatch(r"(f64|f32|i64|bool)\s*(?:\[(.*)\])?", type_text.strip(), re.S)
    assert m, f"unparsed type {type_text!r}"
    dims = m.group(2)
    if dims is None or not dims.strip():
        shape = ()
    else:
        shape = tuple(int(eval(d, {"__builtins__": {}}, dict(params))) for d in _split_top(dims))
    return shape, np.dtype(_DTYPES[m.group(1)])


def ulps_apart(x, y, ulps):
    """Elementwise: equal NaN/inf/zero positions and values within `ulps` units in the last place."""
    finfo = np.finfo(x.dtype)
    same_special = (np.isnan(x) == np.isnan(y)) & (np.isinf(x) == np.isinf(y)) & ((x == 0) == (y == 0))
    close = np.isnan(x) | (x == y) | (np.abs(x - y) <= ulps * finfo.eps * np.maximum(np.abs(x), np.abs(y)))
    return same_special & close


def assert_results(res, want):
    """Each result equals NumPy's: dtype kind, shape and values (to rounding)."""
    assert len(res) == len(want)
    for got, w in zip(res, want):
        w = np.asarray(w)
        assert got.shape == w.shape and got.dtype.kind == w.dtype.kind, (got, w)
        np.testing.assert_allclose(got, w, rtol=1e-12, atol=1e-12)

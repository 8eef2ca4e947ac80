"""In-place operators on f32 *scalar* variables.

With an f64 value (`let x = f32(...); x -= v;` with `v: f64`), arrayc computes `op(x, v)` in the promoted dtype, f64, and rounds the result to f32 once,
because a scalar variable keeps its declared dtype. That is NumPy's `np.float32(np.float64(x) - v)`.
Rounding `v` to f32 first and computing in f32 gives another f32 for some inputs; the inputs below
are such inputs (found by a small deterministic search), so the results must be equal exactly.

With a weak float literal (`x -= 0.3`), NumPy computes in f32 (`np.float32(x) - 0.3` is f32), as
arrayc's `x = x - 0.3` does; `x -= 0.3` was computed in f64 and rounded until 2026-11-26 (found by
the differential generator's f32 scalar updates, tests/fuzz/arrgen.py).

The operators on f32 arrays are test_ops.py's test_in_place_operators_compute_in_the_promoted_dtype.
"""
import numpy as np
import pytest

from arrayc_examples import load_results, run_arrayc

OPS = {"+": np.add, "-": np.subtract, "*": np.multiply, "/": np.divide}
PAIRS = 3  # (x, v) pairs per operator


def promoted(f, x, v):
    """NumPy's value of `x op= v` for an f32 scalar variable x and an f64 v: op in f64, one rounding."""
    return np.float32(f(np.float64(x), np.float64(v)))


def rounded_first(f, x, v):
    """The wrong value: v rounded to f32, op in f32."""
    return f(np.float32(x), np.float32(v))


def distinguishing_inputs(op):
    """(x, v) pairs, x an f32 value (as a Python float, exact) and v an f64 value, whose promoted
    result differs from the one computed in f32; deterministic."""
    f = OPS[op]
    pairs = []
    if op == "-":  # the case of the issue report: 0.07043991, rounding v first gives 0.070439905
        pairs.append((float(np.float32(0.3645724058151245)), 0.294132496655526))
    rng = np.random.default_rng(2026 + "+-*/".index(op))
    while len(pairs) < PAIRS:
        x = float(np.float32(rng.uniform(0.1, 2.0)))
        v = float(rng.uniform(0.1, 2.0))
        if promoted(f, x, v) != rounded_first(f, x, v):
            pairs.append((x, v))
    return pairs


def program(op):
    """One f32 variable per pair updated by `op=` at the top level, one in a loop (its body runs once)."""
    params, types, body, results = [], [], [], []
    for k in range(PAIRS):
        params += [f"x{k}: f64", f"v{k}: f64"]
        body += [f"let a{k} = f32(x{k});", f"a{k} {op}= v{k};",
                 f"let b{k} = f32(x{k});", f"for i{k} in 0..1 {{", f"    b{k} {op}= v{k};", "}"]
        results += [f"a{k}", f"b{k}"]
        types += ["f32", "f32"]
    lines = [f"fn main({', '.join(params)}) -> ({', '.join(types)}) {{"]
    lines += ["    " + l for l in body]
    lines += [f"    return ({', '.join(results)});", "}"]
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("op", list(OPS))
def test_f32_scalar_in_place_with_an_f64_value_rounds_once(op, tmp_path):
    f = OPS[op]
    pairs = distinguishing_inputs(op)
    args = {}
    for k, (x, v) in enumerate(pairs):
        assert promoted(f, x, v) != rounded_first(f, x, v)  # the inputs tell the two apart
        args[f"x{k}"], args[f"v{k}"] = x, v
    src = tmp_path / "prog.arr"
    src.write_text(program(op))
    proc = run_arrayc(src, args=args, out_dir=tmp_path / "out")
    assert proc.returncode == 0, proc.stderr
    res = load_results(tmp_path / "out")
    assert len(res) == 2 * PAIRS
    for k, (x, v) in enumerate(pairs):
        want = promoted(f, x, v)
        for name, got in (("top level", res[2 * k]), ("in a loop", res[2 * k + 1])):
            got = np.asarray(got)
            assert got.dtype == np.float32 and got.shape == (), (name, got.dtype, got.shape)
            assert got == want, (f"f32({x!r}) {op}= {v!r} ({name}): arrayc {got!r}, NumPy {want!r} "
                                 f"(f32 arithmetic would give {rounded_first(f, x, v)!r})")


# f32 values x (exact as decimal literals of f64) and weak literals c for which `x op c` computed in
# f32 differs from it computed in f64 and rounded (checked below), one per operator.
LITERAL_CASES = {"+": (0.3, 1.1), "-": (0.3, 0.3), "*": (1.7, 0.3), "/": (1.7, 0.3)}


@pytest.mark.parametrize("op", list(OPS))
def test_f32_scalar_in_place_with_a_weak_literal_stays_f32(op, tmp_path):
    f = OPS[op]
    x, c = LITERAL_CASES[op]
    want = f(np.float32(x), c)  # NumPy: a Python float is weak, the op is in f32
    assert want.dtype == np.float32
    assert want != promoted(f, np.float32(x), c)  # the inputs tell f32 from f64 rounded once
    src = tmp_path / "prog.arr"
    src.write_text(f"fn main() -> (f32, f32, bool) {{\n    let a = f32({x});\n    a {op}= {c};\n"
                   f"    let b = f32({x});\n    b = b {op} {c};\n    return (a, b, a == b);\n}}\n")
    proc = run_arrayc(src, out_dir=tmp_path / "out")
    assert proc.returncode == 0, proc.stderr
    a, b, same = (np.asarray(r) for r in load_results(tmp_path / "out"))
    assert a.dtype == np.float32 and a == want, (f"f32({x}) {op}= {c}: arrayc {a!r}, NumPy {want!r}")
    assert b == want and bool(same)

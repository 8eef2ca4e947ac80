"""Every elementwise function of the op table (`dialect/src/ops.rs`) on every dtype, through both
paths of the compiler, compared with NumPy:

* the kernel path: the array expression `a OP b`, which becomes a compiled kernel;
* the host path: the same expression on scalars, `a[i] OP b[i]` in a loop, which the host executor
  evaluates with `arrayc_core::semantics`.

Inputs are every pair of a set of edge values (signed zeros, infinities, NaN, extremes, zero
divisors). Exact functions must agree bit for bit (sign of zero included, NaN for NaN);
transcendental ones (`**` on floats, exp, log, sin, cos, tanh, tan, arcsin, ..., log1p) within a few ulps, with the same
NaN, infinity and zero positions. The result dtype must be NumPy's as well.

NumPy's ufuncs that the lowering composes from these functions (`sign square reciprocal round
logical_not`, `hypot fmod power logical_and logical_or logical_xor`, `clip`) are tested the same
way, on the CPU and on `--target gpu-emulated`, and must fuse into one kernel and compile to PTX.

Where the language deliberately differs from NumPy, the reference applies the language's rule
(docs/language.md): arithmetic on bool other than NumPy's `+` (`|`) and `*` (`&`) promotes to i64
(NumPy keeps bool or gives int8), float functions of a bool
or an 8-bit integer compute in f64 (NumPy uses f16), and integer `**` is tested with non-negative exponents only (NumPy
raises for negative ones: `test_integer_power_with_a_negative_exponent_raises_like_numpy`
checks that arrayc raises too).
"""
import subprocess
import tempfile
from pathlib import Path

import numpy as np
import pytest

from arrayc_examples import RUN_TIMEOUT_S, arrayc_binary, check_source, run_source, ulps_apart

DTYPES = {"f64": np.float64, "f32": np.float32, "i64": np.int64, "i32": np.int32, "i16": np.int16, "i8": np.int8,
          "u64": np.uint64, "u32": np.uint32, "u16": np.uint16, "u8": np.uint8, "bool": np.bool_}
NP_NAME = {v: k for k, v in DTYPES.items()}
INTS = ("i64", "i32", "i16", "i8", "u64", "u32", "u16", "u8")

# language spelling (a format string over the operands) -> NumPy function, exact?
BINARY = [
    ("{a} + {b}", np.add, True),
    ("{a} - {b}", np.subtract, True),
    ("{a} * {b}", np.multiply, True),
    ("{a} / {b}", np.true_divide, True),
    ("{a} % {b}", np.remainder, True),
    ("{a} ** {e}", np.power, False),
    ("minimum({a}, {b})", np.minimum, True),
    ("maximum({a}, {b})", np.maximum, True),
    ("{a} == {b}", np.equal, True),
    ("{a} != {b}", np.not_equal, True),
    ("{a} < {b}", np.less, True),
    ("{a} <= {b}", np.less_equal, True),
    ("{a} > {b}", np.greater, True),
    ("{a} >= {b}", np.greater_equal, True),
    ("{a} & {b}", np.bitwise_and, True),
    ("{a} | {b}", np.bitwise_or, True),
    ("{a} ^ {b}", np.bitwise_xor, True),
    ("{a} // {b}", np.floor_divide, True),
    ("{a} << {b}", np.left_shift, True),
    ("{a} >> {b}", np.right_shift, True),
    ("arctan2({a}, {b})", np.arctan2, False),
    ("copysign({a}, {b})", np.copysign, True),
]
UNARY = [
    ("-{a}", np.negative, True),
    ("~{a}", np.invert, True),
    ("abs({a})", np.absolute, True),
    ("sqrt({a})", np.sqrt, True),
    ("exp({a})", np.exp, False),
    ("log({a})", np.log, False),
    ("sin({a})", np.sin, False),
    ("cos({a})", np.cos, False),
    ("tanh({a})", np.tanh, False),
    ("tan({a})", np.tan, False),
    ("arcsin({a})", np.arcsin, False),
    ("arccos({a})", np.arccos, False),
    ("arctan({a})", np.arctan, False),
    ("sinh({a})", np.sinh, False),
    ("cosh({a})", np.cosh, False),
    ("arcsinh({a})", np.arcsinh, False),
    ("arccosh({a})", np.arccosh, False),
    ("arctanh({a})", np.arctanh, False),
    ("exp2({a})", np.exp2, False),
    ("expm1({a})", np.expm1, False),
    ("log2({a})", np.log2, False),
    ("log10({a})", np.log10, False),
    ("log1p({a})", np.log1p, False),
    ("floor({a})", np.floor, True),
    ("ceil({a})", np.ceil, True),
    ("trunc({a})", np.trunc, True),
    ("rint({a})", np.rint, True),
]
# Builtins that are compositions of the functions above, not functions of the op table.
FLOAT_TESTS = [
    ("isnan({a})", np.isnan, True),
    ("isinf({a})", np.isinf, True),
    ("isfinite({a})", np.isfinite, True),
]
def round_2(a):
    return np.round(a, 2)


def round_minus_1(a):
    return np.round(a, -1)


def round_12(a):
    return np.round(a, 12)


def clip_minus_1_2(a):
    return np.clip(a, -1, 2)


def divmod_q(a, b):
    return np.divmod(a, b)[0]


def divmod_r(a, b):
    return np.divmod(a, b)[1]


# NumPy's ufuncs that are compositions of the op table's functions in the lowering
# (`passes/src/lower_ast/expr/ufuncs.rs`, `composed_ufunc`), run on the CPU and on `--target gpu-emulated`.
COMPOSED_UNARY = [
    ("sign({a})", np.sign, True),
    ("square({a})", np.square, True),
    ("reciprocal({a})", np.reciprocal, True),
    # `np.round`: a bare `round` of one scalar (the host path) is Python's, an int (test_syntax.py).
    ("np.round({a})", np.round, True),
    ("round({a}, decimals=2)", round_2, True),
    ("round({a}, decimals=-1)", round_minus_1, True),
    ("round({a}, decimals=12)", round_12, True),
    ("logical_not({a})", np.logical_not, True),
    ("clip({a}, -1, 2)", clip_minus_1_2, True),
    ("clip({a}, 0.5, 1e300)", lambda a: np.clip(a, 0.5, 1e300), True),
    ("cbrt({a})", np.cbrt, False),
    ("np.deg2rad({a})", np.deg2rad, False),
    ("radians({a})", np.radians, False),
    ("np.rad2deg({a})", np.rad2deg, False),
    ("degrees({a})", np.degrees, False),
    ("np.sinc({a})", np.sinc, False),
    ("fabs({a})", np.fabs, True),
    ("positive({a})", np.positive, True),
    ("np.signbit({a})", np.signbit, True),
]
COMPOSED_BINARY = [
    ("hypot({a}, {b})", np.hypot, False),
    ("fmod({a}, {b})", np.fmod, True),
    ("power({a}, {e})", np.power, False),
    ("logical_and({a}, {b})", np.logical_and, True),
    ("logical_or({a}, {b})", np.logical_or, True),
    ("logical_xor({a}, {b})", np.logical_xor, True),
    ("clip({a}, {b}, {e})", np.clip, True),
    ("np.heaviside({a}, {b})", np.heaviside, True),
    ("logaddexp({a}, {b})", np.logaddexp, False),
    ("np.logaddexp2({a}, {b})", np.logaddexp2, False),
    ("float_power({a}, {e})", np.float_power, False),
    ("np.divmod({a}, {b})[0]", divmod_q, True),
    ("divmod({a}, {b})[1]", divmod_r, True),
]
# Refused at compile time (E0503, `test_refused_ufuncs_say_why`): NumPy raises for `sign` of a
# bool and for `round` of a bool with decimals; its integer `reciprocal` is integer division and
# its integer `round` with negative decimals wraps near the ends of i64, which arrayc refuses.
REFUSED = {
    (np.sign, "bool"), (np.reciprocal, "i64"), (np.reciprocal, "bool"),
    (round_2, "bool"), (round_minus_1, "bool"), (round_12, "bool"), (round_minus_1, "i64"),
    (np.reciprocal, "i32"), (round_minus_1, "i32"),
    (np.reciprocal, "u64"), (round_minus_1, "u64"), (np.reciprocal, "u8"), (round_minus_1, "u8"),
    *((f, dt) for f in (np.reciprocal, round_minus_1) for dt in ("i16", "i8", "u32", "u16")),
    # The literal -1 does not fit an unsigned dtype: E0315, as NumPy 2's OverflowError.
    (clip_minus_1_2, "u64"), (clip_minus_1_2, "u32"), (clip_minus_1_2, "u16"), (clip_minus_1_2, "u8"),
    # NumPy's `positive` has no bool loop (its TypeError).
    (np.positive, "bool"),
}
# Which (function, dtype) pairs the language has: `&`, `|`, `^`, `~`, `<<`, `>>` on integers and
# bools only (NumPy raises TypeError for floats), no `-` on bool (NumPy raises too: unary and binary).
NO_FLOATS = {np.bitwise_and, np.bitwise_or, np.bitwise_xor, np.invert, np.left_shift, np.right_shift}
ARITHMETIC = {np.add, np.subtract, np.multiply, np.remainder, divmod_q, divmod_r, np.power, np.square, np.fmod, np.floor_divide, np.left_shift, np.right_shift}
FLOAT_FUNCS = {np.hypot, np.round, np.arctan2, np.copysign, np.sqrt, np.exp, np.log, np.sin, np.cos, np.tanh, np.rint, np.tan, np.arcsin, np.arccos, np.arctan, np.sinh, np.cosh, np.arcsinh, np.arccosh, np.arctanh, np.exp2, np.expm1, np.log2, np.log10, np.log1p,
               np.cbrt, np.deg2rad, np.radians, np.rad2deg, np.degrees, np.fabs, np.heaviside, np.logaddexp,
               np.logaddexp2, np.signbit}

F_VALUES = [0.0, -0.0, 1.0, -1.0, 0.5, 2.5, -3.5, 7.0, 3.0, 1e300, -1e-300, np.inf, -np.inf, np.nan]
# Shift counts among them: negative, 0..63, 64 and more (NumPy: 0, or the sign for `>>`).
I_VALUES = [0, 1, -1, 2, -2, 3, 7, -7, 63, 64, 100, 2**62, -(2**63), 2**63 - 1]
# i32: its extremes (overflow wraps), shift counts 31, 32 and beyond.
I32_VALUES = [0, 1, -1, 2, -2, 3, 7, -7, 31, 32, 100, 65536, 2**30, -(2**31), 2**31 - 1]
# u64 and u8: their extremes and top bits (unsigned comparisons, division, logical shifts), shift
# counts at and past the width.
U64_VALUES = [0, 1, 2, 3, 7, 63, 64, 100, 2**62, 2**63, 2**63 + 1, 2**64 - 2, 2**64 - 1]
U8_VALUES = [0, 1, 2, 3, 7, 8, 9, 100, 127, 128, 129, 200, 254, 255]
# i16, i8, u32, u16: the same for their widths.
I16_VALUES = [0, 1, -1, 2, -2, 3, 7, -7, 15, 16, 100, 256, 2**14, -(2**15), 2**15 - 1]
I8_VALUES = [0, 1, -1, 2, -2, 3, 7, -7, 8, 9, 100, -100, -128, 127]
U32_VALUES = [0, 1, 2, 3, 7, 31, 32, 100, 2**30, 2**31, 2**31 + 1, 2**32 - 2, 2**32 - 1]
U16_VALUES = [0, 1, 2, 3, 7, 15, 16, 100, 2**14, 2**15, 2**15 + 1, 2**16 - 2, 2**16 - 1]
VALUES = {"f64": F_VALUES, "f32": F_VALUES, "i64": I_VALUES, "i32": I32_VALUES, "i16": I16_VALUES, "i8": I8_VALUES,
          "u64": U64_VALUES, "u32": U32_VALUES, "u16": U16_VALUES, "u8": U8_VALUES, "bool": [False, True]}


def defined(fn, dt):
    if fn in NO_FLOATS:
        return dt in (*INTS, "bool")
    return not (fn in (np.negative, np.subtract) and dt == "bool")


def composed_defined(fn, dt):
    return (fn, dt) not in REFUSED


def reference(fn, dt, *args):
    """NumPy's result, with the language's documented differences applied (module docstring)."""
    if dt == "bool" and fn in ARITHMETIC and fn not in (np.add, np.multiply):
        args = [x.astype(np.int64) for x in args]
    if dt == "bool" and (fn in FLOAT_FUNCS or fn is np.true_divide):
        args = [x.astype(np.float64) for x in args]
    if dt in ("u8", "i8") and fn in FLOAT_FUNCS and fn is not np.round:
        args = [x.astype(np.float64) for x in args]
    with np.errstate(all="ignore"):
        return fn(*args)


def inputs(dt):
    """`a` and `b`: every pair of edge values; `e`: exponents (non-negative for integers)."""
    vals = np.array(VALUES[dt], dtype=DTYPES[dt])
    a, b = np.repeat(vals, len(vals)), np.tile(vals, len(vals))
    e = (np.abs(b.astype(np.int64)) % 63).astype(b.dtype) if dt in INTS else b
    return a, b, e


def program(dt, cases, unary):
    """An entry `main` that returns, per case, the kernel result and the host result."""
    ty = f"{dt}[N]"
    params = f"a: {ty}" if unary else f"a: {ty}, b: {ty}, e: {ty}"
    lines, results, types = [], [], []
    for k, (spelling, rdt) in enumerate(cases):
        kernel = spelling.format(a="a", b="b", e="e")
        host = spelling.format(a="a[i]", b="b[i]", e="e[i]")
        lines += [
            f"    let k{k} = {kernel};",
            f"    let h{k} = zeros(N, dtype={rdt});",
            f"    for i in 0..N {{ h{k}[i] = {host}; }}",
        ]
        results += [f"k{k}", f"h{k}"]
        types += [f"{rdt}[N]"] * 2
    return (
        f"fn main({params}) -> ({', '.join(types)}) {{\n"
        + "\n".join(lines)
        + f"\n    return ({', '.join(results)});\n}}\n"
    )


def check(got, want, exact, what):
    assert got.dtype == want.dtype, f"{what}: dtype {got.dtype}, NumPy gives {want.dtype}"
    if got.dtype.kind == "f":
        if exact:
            ok = (np.isnan(got) & np.isnan(want)) | ((got == want) & (np.signbit(got) == np.signbit(want)))
        else:
            ok = ulps_apart(got, want, 4)
    else:
        ok = got == want
    bad = np.flatnonzero(~ok)
    assert bad.size == 0, f"{what}: {bad.size} of {ok.size} differ from NumPy, e.g. at {bad[:5]}: got {got[bad[:5]]}, NumPy {want[bad[:5]]}"


def run_cases(dt, table, unary, tmp_path, flags=(), defined=defined):
    """Runs every case of `table` that `defined(fn, dt)` allows on dtype `dt`, both paths, with
    `arrayc run` and `flags`, and compares each result with NumPy's."""
    a, b, e = inputs(dt)
    if unary:
        a = np.array(VALUES[dt], dtype=DTYPES[dt])
    cases, wants = [], []
    for spelling, fn, exact in table:
        if not defined(fn, dt):
            continue
        if unary:
            want = reference(fn, dt, a)
        elif fn is np.clip:
            want = reference(fn, dt, a, b, e)
        else:
            want = reference(fn, dt, a, e if fn in (np.power, np.float_power) else b)
        cases.append((spelling, NP_NAME[want.dtype.type]))
        wants.append((spelling, want, exact))
    src = tmp_path / f"ops_{dt}.arr"
    src.write_text(program(dt, cases, unary))
    args = {"a": a} if unary else {"a": a, "b": b, "e": e}
    cmd = [str(arrayc_binary()), "run", str(src), "--out", str(tmp_path / "out"), *flags]
    for name, arr in args.items():
        np.save(tmp_path / f"{name}.npy", arr)
        cmd += ["--arg", f"{name}=@{tmp_path / f'{name}.npy'}"]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=RUN_TIMEOUT_S)
    assert proc.returncode == 0, f"arrayc failed on\n{src.read_text()}\n{proc.stderr}"
    for k, (spelling, want, exact) in enumerate(wants):
        what = spelling.format(a="a", b="b", e="e") + f" on {dt}"
        for path, i in (("kernel", 2 * k), ("host", 2 * k + 1)):
            got = np.load(tmp_path / "out" / f"result_{i}.npy")
            check(got, want, exact, f"{what} ({path} path)")


@pytest.mark.parametrize("dt", list(DTYPES))
def test_binary_ops_match_numpy(dt, tmp_path):
    run_cases(dt, BINARY, False, tmp_path)


@pytest.mark.parametrize("dt", list(DTYPES))
def test_unary_ops_match_numpy(dt, tmp_path):
    run_cases(dt, UNARY, True, tmp_path)


@pytest.mark.parametrize("dt", list(DTYPES))
def test_float_tests_match_numpy(dt, tmp_path):
    """`isnan`, `isinf`, `isfinite` (compositions of `!=`, `abs`, `==`, `<`; constants for integers
    and bools) on every dtype, kernel and host path."""
    run_cases(dt, FLOAT_TESTS, True, tmp_path)


@pytest.mark.parametrize("target", ["cpu", "gpu-emulated"])
@pytest.mark.parametrize("dt", list(DTYPES))
def test_composed_unary_ufuncs_match_numpy(dt, target, tmp_path):
    """`sign square reciprocal round logical_not`, `round` with `decimals=` and `clip` with literal
    bounds (compositions of the op table's functions) on every dtype they are defined on, kernel
    and host path."""
    run_cases(dt, COMPOSED_UNARY, True, tmp_path, ("--target", target), composed_defined)


@pytest.mark.parametrize("target", ["cpu", "gpu-emulated"])
@pytest.mark.parametrize("dt", list(DTYPES))
def test_composed_binary_ufuncs_match_numpy(dt, target, tmp_path):
    """`hypot fmod power logical_and logical_or logical_xor` and `clip(a, lo, hi)` of arrays on
    every dtype, every pair of edge values, kernel and host path."""
    run_cases(dt, COMPOSED_BINARY, False, tmp_path, ("--target", target), composed_defined)


@pytest.mark.parametrize("target", ["cpu", "gpu-emulated"])
def test_composed_ufuncs_broadcast_and_promote_like_numpy(target, tmp_path):
    """Mixed dtypes and shapes: a 1-d `i64` against a 2-d `f32` (`f64`, as NumPy), scalars,
    `clip` with its three operands of three shapes and dtypes, each result's dtype and values
    NumPy's."""
    rng = np.random.default_rng(31)
    x = rng.standard_normal((3, 5)).astype(np.float32) * 4
    x[0, 0], x[1, 1] = np.nan, -0.0
    k = np.array([-3, 0, 2, 5, -7], dtype=np.int64)
    lo = np.array([[-1.0], [0.5], [-2.0]])
    src = """fn main(x: f32[3, 5], k: i64[5], lo: f64[3, 1], s: f64 = 2.5) -> (f64[3, 5], f64[3, 5], bool[3, 5], f64[3, 5], f32[3, 5], i64[5], f32[3, 5], f64[3, 5], f64) {
    return (hypot(x, k), fmod(x, k), logical_or(x, k), clip(x, lo, k), clip(x, -1, 1.5), clip(k, -1, 3), sign(x), power(k, x), hypot(s, 3));
}
"""
    proc, res = run_source(src, {"x": x, "k": k, "lo": lo}, tmp_path, flags=("--target", target))
    assert proc.returncode == 0, proc.stderr
    with np.errstate(all="ignore"):
        want = [np.hypot(x, k), np.fmod(x, k), np.logical_or(x, k), np.clip(x, lo, k), np.clip(x, -1, 1.5),
                np.clip(k, -1, 3), np.sign(x), np.power(k, x), np.hypot(np.float64(2.5), 3)]
    for i, (got, w) in enumerate(zip(res, want)):
        w = np.asarray(w)
        assert got.dtype == w.dtype, f"result {i}: dtype {got.dtype}, NumPy {w.dtype}"
        np.testing.assert_allclose(got, w, rtol=1e-6 if w.dtype == np.float32 else 1e-14, equal_nan=True,
                                   err_msg=f"result {i}")


@pytest.mark.parametrize("target", ["cpu", "gpu-emulated"])
def test_composed_binary_ufuncs_with_a_python_scalar_match_numpy(target, tmp_path):
    """Each composed binary ufunc with a Python float on either side (`fmod(v, 2.0)`,
    `hypot(2.0, v)`, `logaddexp2(1.0, v)`): the composition's steps on the scalar alone (its
    `abs`, its comparison with inf) are host arithmetic broadcast by the array operations they
    meet. These were run-time shape errors ("operand has shape (1,)")."""
    v = np.array([-3.5, -1.0, -0.0, 0.0, 0.5, 2.5, 7.0, 1e300, np.inf, -np.inf, np.nan])
    calls = []
    for template, fn, _ in COMPOSED_BINARY:
        if fn is np.clip:
            continue
        for a, b in (("v", "2.5"), ("-2.5", "v")):
            calls.append((template.format(a=a, b=b, e=b), fn, a, b))
    wants = []
    for call, fn, a, b in calls:
        with np.errstate(all="ignore"):
            wants.append(np.asarray(fn(*[v if s == "v" else float(s) for s in (a, b)])))
    outs = ", ".join(("bool" if w.dtype == bool else "f64") + "[N]" for w in wants)
    body = ", ".join(c for c, *_ in calls)
    src = f"fn main(v: f64[N]) -> ({outs}) {{\n    return ({body});\n}}\n"
    proc, res = run_source(src, {"v": v}, tmp_path, flags=("--target", target))
    assert proc.returncode == 0, proc.stderr
    for got, want, (call, *_) in zip(res, wants, calls):
        assert got.dtype == want.dtype, call
        np.testing.assert_allclose(got, want, rtol=1e-14, equal_nan=True, err_msg=call)


@pytest.mark.parametrize("call, dt, words", [
    ("sign(x)", "bool", ["sign", "bool", "NumPy raises"]),
    ("reciprocal(x)", "i64", ["reciprocal", "integer division", "1.0 / x"]),
    ("reciprocal(x)", "bool", ["reciprocal", "1.0 / x"]),
    ("round(x, decimals=-2)", "i64", ["round", "negative `decimals=`", "i64(round(f64(x), decimals=-2))"]),
    ("round(x, decimals=1)", "bool", ["round", "bool", "NumPy raises"]),
])
def test_refused_ufuncs_say_why(call, dt, words, tmp_path):
    """The pairs NumPy rejects or gives integer division for are compile-time errors (E0503) naming
    the call's line and the way to write it, not panics."""
    proc = check_source(f"fn main(x: {dt}[N]) -> {dt}[N] {{\n    let y = {call};\n    return x;\n}}\n", tmp_path)
    assert proc.returncode == 1 and "panicked" not in proc.stderr, proc.stderr
    assert "E0503" in proc.stderr and "e.arr:2:" in proc.stderr, proc.stderr
    for w in words:
        assert w in proc.stderr, proc.stderr


COMPOSED_PROGRAM = """fn main(a: f64[N], b: f64[N], k: i64[N]) -> (f64[N], f64[N], i64[N], bool[N], f64[N], f64[N], f64[N]) {
    let h = hypot(a, b);
    let f = fmod(a, b);
    let g = fmod(k, 3);
    let l = logical_xor(a, k) | logical_not(b) | logical_and(a, b) | logical_or(k, b);
    let c = clip(a, -1.0, b);
    let s = sign(a) + square(b) + reciprocal(b) + round(a);
    let p = power(a, 2.5);
    return (h, f, g, l, c, s, p);
}
"""


def test_composed_ufuncs_fuse_into_one_kernel(tmp_path):
    """Every composed ufunc is elementwise arithmetic the fusion pass contracts: the whole
    program is one kernel launch, and its results are NumPy's."""
    n = 100_001
    a, b, k = np.linspace(-3, 3, n), np.linspace(0.5, 2, n), np.arange(n) - n // 2
    proc, res = run_source(COMPOSED_PROGRAM, {"a": a, "b": b, "k": k}, tmp_path, flags=("--time",))
    assert proc.returncode == 0, proc.stderr
    assert "in 1 kernel launches" in proc.stderr, proc.stderr
    with np.errstate(invalid="ignore"):
        want = [np.hypot(a, b), np.fmod(a, b), np.fmod(k, 3),
                np.logical_xor(a, k) | np.logical_not(b) | np.logical_and(a, b) | np.logical_or(k, b),
                np.clip(a, -1.0, b), np.sign(a) + np.square(b) + np.reciprocal(b) + np.round(a), np.power(a, 2.5)]
    for i, (got, w) in enumerate(zip(res, want)):
        assert got.dtype == w.dtype, f"result {i}"
        np.testing.assert_allclose(got, w, rtol=1e-14, err_msg=f"result {i}")


def test_composed_ufuncs_compile_to_ptx_that_ptxas_accepts(tmp_path):
    """The GPU path: the compositions (and `var`, `std`, `any`, `count_nonzero`) give PTX, with
    libdevice for `fmod`'s float remainder and `power`, that NVIDIA's ptxas accepts for sm_90."""
    from test_gpu import emit_ptx

    prog = tmp_path / "composed.arr"
    prog.write_text(COMPOSED_PROGRAM + """
fn moments(x: f64[M, N]) -> (f64, f64[N], bool, i64[M], bool[N]) {
    return (var(x), std(x, axis=0, ddof=1), any(x), count_nonzero(x, axis=1), all(x, axis=0));
}
""")
    nvcc, ptx = emit_ptx(prog, tmp_path)
    proc = subprocess.run(
        [str(nvcc / "bin" / "ptxas"), "-arch=sm_90", str(ptx), "-o", str(tmp_path / "k.cubin")],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, f"ptxas rejected the PTX:\n{proc.stderr}"


def test_table_covers_every_function():
    """The table above names every elementwise function of the op table in dialect/src/ops.rs, so a
    new function cannot be added without a NumPy comparison."""
    ops_rs = (Path(__file__).resolve().parents[2] / "dialect" / "src" / "ops.rs").read_text()
    numpy_names = {line.split('"')[1] for line in ops_rs.splitlines() if line.strip().startswith("row(")}
    tested = {fn.__name__ for _, fn, _ in BINARY + UNARY}
    assert numpy_names == tested, f"op table functions without a NumPy comparison: {numpy_names - tested}"


@pytest.mark.parametrize("dt", list(DTYPES))
def test_element_writes_cast_like_numpy(dt, tmp_path):
    """`x[i] = v` writes one element on the host (no kernel launch): the value is cast to the
    array's dtype as NumPy's `__setitem__` casts it, for every source and destination dtype."""
    cases = []
    for src in DTYPES:
        vals = np.array(VALUES[src], dtype=DTYPES[src])
        with np.errstate(all="ignore"):
            want = vals.astype(DTYPES[dt])
        cases.append((src, vals, want))
    params = ", ".join(f"v_{src}: {src}[N_{src}]" for src, _, _ in cases)
    body = "".join(
        f"    let w_{src} = zeros(N_{src}, dtype={dt});\n    for i in 0..N_{src} {{ w_{src}[i] = v_{src}[i]; }}\n"
        for src, _, _ in cases
    )
    rets = ", ".join(f"w_{src}" for src, _, _ in cases)
    types = ", ".join(f"{dt}[N_{src}]" for src, _, _ in cases)
    src_file = tmp_path / "writes.arr"
    src_file.write_text(f"fn main({params}) -> ({types}) {{\n{body}    return ({rets});\n}}\n")
    cmd = [str(arrayc_binary()), "run", str(src_file), "--out", str(tmp_path / "out")]
    for src, vals, _ in cases:
        np.save(tmp_path / f"{src}.npy", vals)
        cmd += ["--arg", f"v_{src}=@{tmp_path / f'{src}.npy'}"]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=RUN_TIMEOUT_S)
    assert proc.returncode == 0, proc.stderr
    for i, (src, vals, want) in enumerate(cases):
        got = np.load(tmp_path / "out" / f"result_{i}.npy")
        if dt in INTS and src in ("f64", "f32"):
            # NaN and out-of-range floats have no NumPy-defined integer (it gives i64::MIN on x86,
            # with a warning); compare where the value is representable.
            bits = 63 if dt == "i64" else 31
            ok = np.isfinite(vals) & (np.abs(vals.astype(np.float64)) < 2.0**bits)
            got, want = got[ok], want[ok]
        check(got, want, True, f"{src} written into {dt}")


@pytest.mark.parametrize("path", ["kernel", "host"])
@pytest.mark.parametrize(
    "base, exp",
    [([2, 3], [1, -1]), ([1, 5], [-1, 0]), ([-1, 7], [-3, 2]), ([0, 0], [-2, 1]), ([], [])],
)
def test_integer_power_with_a_negative_exponent_raises_like_numpy(path, base, exp, tmp_path):
    """An integer `**` with any negative exponent is NumPy's `ValueError`, for every base (1 and -1
    included); on the kernel path a kernel fault, on the host path the scalar semantics. The error
    names the line of the `**`, and an empty array raises nothing, as in NumPy."""
    a, e = np.array(base, dtype=np.int64), np.array(exp, dtype=np.int64)
    try:
        want, numpy_error = a**e, None
    except ValueError as err:
        want, numpy_error = None, str(err)
    expr = "a ** e" if path == "kernel" else "zeros(N, dtype=i64);\n    for i in 0..N { r[i] = a[i] ** e[i]; }"
    body = f"    let r = {expr};\n" if path == "kernel" else f"    let r = {expr}\n"
    src = tmp_path / "pow.arr"
    src.write_text(f"fn main(a: i64[N], e: i64[N]) -> i64[N] {{\n{body}    return r;\n}}\n")
    cmd = [str(arrayc_binary()), "run", str(src), "--out", str(tmp_path / "out")]
    for name, arr in (("a", a), ("e", e)):
        np.save(tmp_path / f"{name}.npy", arr)
        cmd += ["--arg", f"{name}=@{tmp_path / f'{name}.npy'}"]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=RUN_TIMEOUT_S)
    if numpy_error is None:
        assert proc.returncode == 0, proc.stderr
        np.testing.assert_array_equal(np.load(tmp_path / "out" / "result_0.npy"), want)
        return
    line = 2 if path == "kernel" else 3
    assert proc.returncode == 1, f"NumPy raises {numpy_error!r}; arrayc exited {proc.returncode}: {proc.stdout}"
    assert f"pow.arr:{line}:" in proc.stderr, proc.stderr
    assert numpy_error.rstrip(".").lower() in proc.stderr.lower(), f"NumPy: {numpy_error}\narrayc: {proc.stderr}"
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir()), "a failed run left outputs"


@pytest.mark.parametrize("op", ["+", "-", "*", "/"])
def test_in_place_operators_compute_in_the_promoted_dtype(op, tmp_path):
    """`a op= y` with an f32 `a` and an f64 `y` (array or strong scalar) is NumPy's
    `op(a, y, out=a)`: computed in f64, then cast to f32 (once computed in f32, rounding `y` first:
    an f32 ulp off in about one element in ten; found by the differential generator, seed 40696),
    through a mask too. A weak literal keeps f32."""
    rng = np.random.default_rng(3)
    x = rng.standard_normal(5000).astype(np.float32)
    y = rng.standard_normal(5000) * 1e-3 + 0.1
    src = f"""fn main(x: f32[N], y: f64[N], s: f64 = 0.1000000001) -> (f32[N], f32[N], f32[N], f32[N]) {{
    let a = copy(x);
    a {op}= y;
    let b = copy(x);
    b[::2] {op}= s;
    let c = copy(x);
    c {op}= 0.1;
    let d = copy(x);
    d[x > 0.0] {op}= y[x > 0.0];
    return (a, b, c, d);
}}
"""
    proc, res = run_source(src, {"x": x, "y": y}, tmp_path)
    assert proc.returncode == 0, proc.stderr
    f = {"+": np.add, "-": np.subtract, "*": np.multiply, "/": np.divide}[op]
    a, b, c = x.copy(), x.copy(), x.copy()
    f(a, y, out=a, casting="same_kind")
    f(b[::2], np.float64(0.1000000001), out=b[::2], casting="same_kind")
    f(c, 0.1, out=c, casting="same_kind")
    d, m = x.copy(), x > 0.0
    d[m] = f(d[m], y[m]).astype(np.float32)
    for got, want in zip(res, [a, b, c, d]):
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(got, want)

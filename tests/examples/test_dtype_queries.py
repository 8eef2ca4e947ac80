"""NumPy's questions about dtypes (issue 31), against NumPy (docs/language.md, "Dtype queries"):
`np.issubdtype`, `x.dtype.kind`, `x.dtype.itemsize`, `np.finfo(x.dtype)`, `np.iinfo(x.dtype)`,
`np.result_type`, `np.promote_types`, `np.can_cast`, `np.isrealobj`, `isinstance`, a dtype by
position, and an `if` on such a question, decided at compile time (the branch not taken may be
ill-typed for the dtype); Python `bool`/`int` answers weak in later arithmetic with `uint8`/`float32` arrays; NumPy's
errors. On the CPU and on the GPU kernels (emulated, and the GPU where there is one)."""
import numpy as np
import pytest

from arrayc_examples import TARGETS, assert_same, run_fails, run_ok

RNG = np.random.default_rng(31)
INPUTS = dict(
    x=RNG.standard_normal(6),
    x32=RNG.standard_normal(6).astype(np.float32),
    xi=RNG.integers(-9, 9, 6),
    xi32=RNG.integers(-9, 9, 6).astype(np.int32),
    ub=RNG.integers(0, 256, 6).astype(np.uint8),
    b=RNG.random(6) < 0.5,
)
SIG = "x: f64[n], x32: f32[n], xi: i64[n], xi32: i32[n], ub: u8[n], b: bool[n]"


def numpy_answers(exprs):
    """NumPy's (Python's) values of the expressions `exprs` over `INPUTS`."""
    env = dict(INPUTS, np=np)
    return [eval(e, env) for e in exprs]


def run_exprs(exprs, types, tmp_path, target):
    """arrayc's values of `exprs`, returned as a tuple of the types `types`."""
    src = f"fn main({SIG}) -> ({', '.join(types)}) {{\n    return ({', '.join(exprs)});\n}}\n"
    got = run_ok(src, INPUTS, tmp_path, target)
    assert len(got) == len(exprs)
    return got


QUESTIONS = [
    "np.issubdtype(x.dtype, np.floating)",
    "np.issubdtype(x32.dtype, np.inexact)",
    "np.issubdtype(xi.dtype, np.floating)",
    "np.issubdtype(xi32.dtype, np.signedinteger)",
    "np.issubdtype(ub.dtype, np.signedinteger)",
    "np.issubdtype(ub.dtype, np.unsignedinteger)",
    "np.issubdtype(b.dtype, np.integer)",
    "np.issubdtype(b.dtype, np.number)",
    "np.issubdtype(b.dtype, np.bool_)",
    "np.issubdtype(ub.dtype, np.generic)",
    "np.issubdtype(x.dtype, np.float64)",
    "np.issubdtype(x32.dtype, np.float64)",
    "np.issubdtype(x32.dtype, float)",
    "np.issubdtype(xi.dtype, int)",
    "np.issubdtype(np.float32, np.floating)",
    "np.issubdtype(np.floating, np.number)",
    "np.issubdtype(x.dtype, 'float64')",
    "x.dtype.kind == 'f'",
    "xi32.dtype.kind == 'i'",
    "ub.dtype.kind != 'u'",
    "b.dtype.kind == 'b'",
    "x.dtype.kind in 'fc'",
    "ub.dtype.kind in 'iu'",
    "x32.dtype.kind in 'iu'",
    "xi.dtype.kind in ('i', 'u')",
    "x.dtype == 'float64'",
    "x32.dtype == float",
    "x32.dtype == np.dtype('float32')",
    "ub.dtype in [np.uint8, np.int32]",
    "ub.dtype in [np.int8, np.uint16]",
    "x32.dtype == 'float16'",
    "x.dtype != np.float16",
    "np.issubdtype(xi.dtype, np.int16)",
    "x.dtype == np.double",
    "xi32.dtype == np.intc",
    "np.can_cast(x.dtype, np.int64)",
    "np.can_cast(xi.dtype, np.float64)",
    "np.can_cast(xi32.dtype, np.float32)",
    "np.can_cast(ub.dtype, np.int32)",
    "np.can_cast(xi.dtype, np.uint64)",
    "np.can_cast(x.dtype, np.float32)",
    "np.can_cast(x.dtype, np.float32, casting='same_kind')",
    "np.can_cast(xi.dtype, np.uint8, casting='same_kind')",
    "np.can_cast(ub.dtype, np.int32, casting='same_kind')",
    "np.can_cast(x.dtype, np.uint8, casting='unsafe')",
    "np.can_cast(x.dtype, np.float64, casting='no')",
    "np.can_cast(x32, np.float64)",
    "np.can_cast(b.dtype, ub.dtype)",
    "np.isrealobj(x)",
    "np.iscomplexobj(xi)",
    "not np.issubdtype(xi.dtype, np.floating)",
    "np.result_type(x32, xi) == np.float64",
    "np.result_type(x32, ub) == np.float32",
    "np.result_type(x32, 1.0) == np.float32",
    "np.result_type(ub, 1) == np.uint8",
    "np.result_type(b, 1.5) == np.float64",
    "np.result_type(ub, xi32, b) == np.int32",
    "np.promote_types(np.float32, np.int64) == np.float64",
    "np.promote_types(ub.dtype, np.int32) == np.int32",
    "np.promote_types(np.uint64, np.int64) == np.float64",
    "np.result_type(x32, len(x)) == np.float32",
    "isinstance(x, np.ndarray)",
    "isinstance(x.sum(), np.ndarray)",
    "isinstance(x.sum(), float)",
    "isinstance(x32.sum(), float)",
    "isinstance(len(x), int)",
    "isinstance(xi.sum(), int)",
    "isinstance(x32.sum(), np.floating)",
    "isinstance(xi[0], np.integer)",
    "isinstance(len(x), np.integer)",
    "isinstance(x.sum(), (int, float))",
    "isinstance(x32[0], np.float32)",
]


@pytest.mark.parametrize("target", TARGETS)
def test_questions_about_dtypes_match_numpy(target, tmp_path):
    got = run_exprs(QUESTIONS, ["bool"] * len(QUESTIONS), tmp_path, target)
    for g, w, e in zip(got, numpy_answers(QUESTIONS), QUESTIONS):
        assert type(w) is bool, e
        assert_same(g, w, e)


NUMBERS = [
    ("x32.dtype.itemsize", "i64"),
    ("ub.dtype.itemsize", "i64"),
    ("xi32.itemsize", "i64"),
    ("x.nbytes // x.dtype.itemsize", "i64"),
    ("np.iinfo(xi.dtype).max", "i64"),
    ("np.iinfo(ub.dtype).max", "i64"),
    ("np.iinfo(xi32.dtype).min", "i64"),
    ("np.iinfo(xi32.dtype).bits", "i64"),
    ("np.finfo(x32.dtype).bits", "i64"),
    ("np.finfo(x.dtype).eps", "f64"),
    ("np.finfo(x32.dtype).eps", "f32"),
    ("np.finfo(x32.dtype).max", "f32"),
    ("np.finfo(x32.dtype).min", "f32"),
    ("np.finfo(x.dtype).tiny", "f64"),
    ("np.finfo(np.float32).smallest_normal", "f32"),
    # Python ints and bools in arithmetic with uint8 and float32 arrays (NEP 50: weak).
    ("ub * ub.itemsize", "u8[n]"),
    ("ub // np.iinfo(xi32.dtype).bits", "u8[n]"),
    ("x32 * x32.dtype.itemsize", "f32[n]"),
    ("ub * np.issubdtype(ub.dtype, np.integer)", "u8[n]"),
    ("ub + np.can_cast(ub.dtype, np.int32)", "u8[n]"),
    ("x32 + (x32.dtype == np.float32)", "f32[n]"),
    ("ub / np.iinfo(ub.dtype).max", "f64[n]"),
    ("x32 / np.iinfo(ub.dtype).max", "f32[n]"),
    # finfo's values are NumPy scalars of their dtype (strong).
    ("x32 + np.finfo(x32.dtype).eps", "f32[n]"),
    ("x32 + np.finfo(x.dtype).eps", "f64[n]"),
    ("np.clip(xi * 40, 0, np.iinfo(ub.dtype).max).astype(ub.dtype)", "u8[n]"),
]


@pytest.mark.parametrize("target", TARGETS)
def test_numbers_of_dtypes_match_numpy_and_stay_weak(target, tmp_path):
    exprs = [e for e, _ in NUMBERS]
    got = run_exprs(exprs, [t for _, t in NUMBERS], tmp_path, target)
    for g, w, e in zip(got, numpy_answers(exprs), exprs):
        if isinstance(w, int):
            assert type(w) is int, e
            w = np.int64(w)
        assert_same(g, w, e)


DTYPES = [
    ("np.zeros(3, x32.dtype)", "f32[3]"),
    ("np.ones((2, 2), ub.dtype)", "u8[2, 2]"),
    ("np.full(3, 7, xi32.dtype)", "i32[3]"),
    ("np.zeros_like(x, dtype=ub.dtype)", "u8[n]"),
    ("np.empty_like(x, dtype=xi.dtype) * 0", "i64[n]"),
    ("np.arange(4, dtype=x32.dtype)", "f32[?]"),
    ("x.astype(x32.dtype)", "f32[n]"),
    ("xi.astype(np.result_type(x32, ub))", "f32[n]"),
    ("np.zeros(2, dtype=np.result_type(xi32, ub))", "i32[2]"),
    ("np.zeros(2, np.promote_types(ub.dtype, np.float32))", "f32[2]"),
    ("np.asarray(xi, dtype=np.dtype('float32'))", "f32[n]"),
]


@pytest.mark.parametrize("target", TARGETS)
def test_dtypes_named_by_questions_match_numpy(target, tmp_path):
    exprs = [e for e, _ in DTYPES]
    got = run_exprs(exprs, [t for _, t in DTYPES], tmp_path, target)
    for g, w, e in zip(got, numpy_answers(exprs), exprs):
        assert_same(g, w, e)


def half(v):
    """A dtype-generic NumPy function: its integer branch is ill-typed for floats and back."""
    if np.issubdtype(v.dtype, np.integer):
        return v // 2
    return v / 2


def normalize(v):
    if v.dtype.kind in 'iu':
        z = v.astype(np.float32) / np.iinfo(v.dtype).max
    else:
        z = v
    return z


def safe_div(a, c):
    eps = np.finfo(a.dtype).eps if np.issubdtype(a.dtype, np.floating) else 1
    return a / (c + eps)


def big(v):
    if not np.issubdtype(v.dtype, np.floating):
        return np.iinfo(v.dtype).max
    return 0


@pytest.mark.parametrize("target", TARGETS)
def test_an_if_on_a_dtype_compiles_the_branch_taken(target, tmp_path):
    # Each body is written once per dtype (arrayc's parameters have one dtype), as NumPy's one
    # function serves them all; the branch not taken is not checked.
    half_body = "{ if np.issubdtype(v.dtype, np.integer) { return v // 2; } return v / 2; }"
    norm_body = ("{ if v.dtype.kind in 'iu' { z = v.astype(np.float32) / np.iinfo(v.dtype).max; } "
                 "else { z = v; } return z; }")
    eps_body = ("{ eps = np.finfo(a.dtype).eps if np.issubdtype(a.dtype, np.floating) else 1; "
                "return a / (c + eps); }")
    big_body = "{ if not np.issubdtype(v.dtype, np.floating) { return np.iinfo(v.dtype).max; } return 0; }"
    src = f"""fn half_i(v: i64[N]) -> i64[N] {half_body}
fn half_f(v: f32[N]) -> f32[N] {half_body}
fn norm_u(v: u8[N]) -> f32[N] {norm_body}
fn norm_f(v: f32[...]) -> f32[...] {norm_body}
fn div_f(a: f32[...], c: f32[...]) -> f32[...] {eps_body}
fn div_i(a: i32[N], c: i32[N]) -> f64[N] {eps_body}
fn big_i(v: i32[N]) -> i64 {big_body}
fn big_f(v: f64[N]) -> i64 {big_body}
fn main({SIG}, m32: f32[r, c]) -> (i64[n], f32[n], f32[n], f32[n], f32[r, c], f32[r, c], f64[n], i64, i64) {{
    return (half_i(xi), half_f(x32), norm_u(ub), norm_f(x32), norm_f(m32), div_f(m32, np.abs(m32)),
            div_i(xi32, xi32 * 0 + 3), big_i(xi32), big_f(x));
}}
"""
    m32 = RNG.standard_normal((3, 4)).astype(np.float32)
    got = run_ok(src, dict(INPUTS, m32=m32), tmp_path, target)
    assert len(got) == 9
    i = INPUTS
    want = [half(i["xi"]), half(i["x32"]), normalize(i["ub"]), normalize(i["x32"]), normalize(m32),
            safe_div(m32, np.abs(m32)), safe_div(i["xi32"], i["xi32"] * 0 + 3), np.int64(big(i["xi32"])),
            np.int64(big(i["x"]))]
    for k, (g, w) in enumerate(zip(got, want)):
        assert_same(g, w, f"result {k}")


# (expression, result type, code, words, whether NumPy raises: else arrayc cannot give its value)
ERRORS = [
    ("np.finfo(xi.dtype).eps", "i64", "E0324", "not inexact", True),
    ("np.finfo(np.int64).eps", "i64", "E0324", "not inexact", True),
    ("np.iinfo(x.dtype).max", "i64", "E0324", "Invalid integer data type 'f'", True),
    ("np.iinfo(np.uint64).max", "i64", "E0324", "beyond", False),
    ("np.issubdtype(x.dtype, 'floaty')", "bool", "E0323", "data type 'floaty' not understood", True),
    ("np.can_cast(x.dtype, np.float16)", "bool", "E0323", "does not have", False),
    ("np.can_cast(x.dtype, np.int64, casting='maybe')", "bool", "E0323", "casting must be one of", True),
    ("np.can_cast(1.0, np.int64)", "bool", "E0323", "Python number", True),
    ("isinstance(x[0] > 0, bool)", "bool", "E0323", "`isinstance` of this type", False),
]


@pytest.mark.parametrize("expr,ty,code,words,raises", ERRORS)
def test_what_numpy_refuses_is_an_error(expr, ty, code, words, raises, tmp_path):
    if raises:
        with pytest.raises((TypeError, ValueError)):
            numpy_answers([expr])
    run_fails(f"fn main({SIG}) -> {ty} {{ return {expr}; }}\n", INPUTS, tmp_path, code)
    run_fails(f"fn main({SIG}) -> {ty} {{ return {expr}; }}\n", INPUTS, tmp_path, words)

"""NumPy's `einsum` and `tensordot` (docs/language.md, "Builtin functions"), lowered to views, one
broadcast product and a sum (or `dot` for a matrix product), against NumPy on f64, f32 and i64,
several sizes (1 and 0 included), on the CPU and on the GPU kernels (emulated, and the GPU where
there is one). Then every error of the checker and of the run time, each naming the fix."""
import numpy as np
import pytest

from arrayc_examples import DTYPES, TARGETS, assert_check_error, assert_run_time_error, run_source

NAMES = {np.dtype(v): k for k, v in DTYPES.items()}

# Subscripts whose operands' shapes follow from one size per letter.
CASES = [
    "ij,jk->ik",  # a matrix product: `dot` (the BLAS path for floats)
    "ij,jk",  # the same, implicit
    "ij,kj->ik",  # transposed operands, still `dot`
    "ji,jk->ki",
    "ij,jk->ki",
    "ii",  # the trace
    "ii->i",  # the diagonal
    "ij->ji",  # a transpose
    "ij->",  # a sum of all
    "ij->j",
    "i,j->ij",  # the outer product
    "i,i",  # the scalar product
    "i,i->i",
    "ij,j->i",
    "bij,bjk->bik",  # batched matrix products
    "ij,jk,kl->il",  # three operands
    "ij,jk,kl",
    "ijk->kji",
    "ijk,ik->j",
    "ba,ab",  # implicit: 'ab' sorted, a scalar
    "ij,ij->ij",
    "ii,i->i",  # a diagonal times a vector
]

SIZES = [
    {"i": 3, "j": 4, "k": 2, "l": 5, "a": 3, "b": 2},
    {"i": 1, "j": 3, "k": 1, "l": 2, "a": 1, "b": 1},
    {"i": 2, "j": 0, "k": 3, "l": 1, "a": 0, "b": 2},
]


def operand_shapes(subscripts, sizes):
    terms = subscripts.split("->")[0].split(",")
    return [tuple(sizes[c] for c in t) for t in terms]


def data(dt, shape, seed):
    rng = np.random.default_rng(seed)
    x = rng.integers(-5, 6, size=shape)
    if dt in ("f64", "f32"):
        x = x + rng.random(shape)
    return x.astype(DTYPES[dt])


def type_of(value):
    """The arrayc type of NumPy's result `value`."""
    value = np.asarray(value)
    t = NAMES[value.dtype]
    return f"{t}[{', '.join(map(str, value.shape))}]" if value.ndim else t


def program(calls, operands):
    """A program returning `calls` (einsum calls as text, with NumPy's results) of `operands`."""
    params = ", ".join(f"{n}: {NAMES[v.dtype]}[{', '.join(map(str, v.shape))}]" for n, v in operands.items())
    results = ", ".join(type_of(w) for _, w in calls)
    values = ", ".join(c for c, _ in calls)
    return f"fn main({params}) -> ({results},) {{\n    return ({values},);\n}}\n"


def assert_results(got, calls, dt):
    for (call, want), g in zip(calls, got):
        want = np.asarray(want)
        g = np.asarray(g)
        assert g.dtype == want.dtype and g.shape == want.shape, f"{call}: {g.dtype}{g.shape} vs {want.dtype}{want.shape}"
        if dt == "i64":
            np.testing.assert_array_equal(g, want, err_msg=call)
        else:
            rtol = 1e-4 if want.dtype == np.float32 else 1e-12
            np.testing.assert_allclose(g, want, rtol=rtol, atol=rtol, err_msg=call)


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("dt", ["f64", "f32", "i64"])
@pytest.mark.parametrize("sizes", range(len(SIZES)))
def test_einsum_matches_numpy(sizes, dt, target, tmp_path):
    """Every subscripts of CASES, explicit and implicit, of one dtype, against `np.einsum`."""
    operands, calls = {}, []
    for n, s in enumerate(CASES):
        names = []
        for m, shape in enumerate(operand_shapes(s, SIZES[sizes])):
            name = f"x{n}_{m}"
            operands[name] = data(dt, shape, 10 * n + m)
            names.append(name)
        want = np.einsum(s, *[operands[k] for k in names])
        calls.append((f'np.einsum("{s}", {", ".join(names)})', want))
    proc, got = run_source(program(calls, operands), operands, tmp_path, flags=["--target", target])
    assert proc.returncode == 0, proc.stderr
    assert_results(got, calls, dt)


@pytest.mark.parametrize("target", TARGETS)
def test_einsum_promotes_broadcasts_and_takes_ellipses(target, tmp_path):
    """Mixed dtypes (promoted as NumPy's), a size 1 that broadcasts, `...` (aligned from the right),
    spaces, upper-case letters, and `tensordot` in its forms."""
    ops = {
        "a": data("f64", (2, 3), 1),
        "b": data("i64", (3, 4), 2),
        "c": data("f32", (3, 4), 3),
        "u": data("i64", (3,), 4),
        "one": data("f64", (2, 1), 5),
        "x": data("f32", (5, 2, 3), 6),
        "y": data("f64", (3, 4, 2), 7),
        "z": data("f64", (4, 2, 3), 8),
    }
    a, b, c, u, one, x, y, z = ops.values()
    calls = [
        ('einsum("ij,jk->ik", a, b)', np.einsum("ij,jk->ik", a, b)),
        ('einsum("ij,jk->ik", b.T, c)', np.einsum("ij,jk->ik", b.T, c)),
        ('einsum("i,i", u, u)', np.einsum("i,i", u, u)),
        ('einsum("ij,j->i", c.T, u)', np.einsum("ij,j->i", c.T, u)),
        ('einsum("ij,ij->ij", one, a)', np.einsum("ij,ij->ij", one, a)),
        ('einsum("ij,jk->ik", one, a[0:1, :])', np.einsum("ij,jk->ik", one, a[0:1, :])),
        ('einsum("...ij,jk", x, c)', np.einsum("...ij,jk", x, c)),
        ('einsum("...ij->...ji", x)', np.einsum("...ij->...ji", x)),
        ('einsum("i...->...", x)', np.einsum("i...->...", x)),
        ('einsum(" i j , j k -> k i ", a, b)', np.einsum(" i j , j k -> k i ", a, b)),
        ('einsum("Ab,bC", a, c)', np.einsum("Ab,bC", a, c)),
        ("tensordot(y, z)", np.tensordot(y, z)),
        ("tensordot(y, z, axes=0)", np.tensordot(y, z, axes=0)),
        ("np.tensordot(a, b, axes=1)", np.tensordot(a, b, axes=1)),
        ("tensordot(y, z, axes=((2, 1), (1, 0)))", np.tensordot(y, z, axes=((2, 1), (1, 0)))),
        ("tensordot(y, z, axes=([0], [-1]))", np.tensordot(y, z, axes=([0], [-1]))),
        ("tensordot(a, c, (1, 0))", np.tensordot(a, c, (1, 0))),
    ]
    proc, got = run_source(program(calls, ops), ops, tmp_path, flags=["--target", target])
    assert proc.returncode == 0, proc.stderr
    assert_results(got, calls, "f64")


SIGNATURE = "fn main(a: f64[2, 3], b: f64[3, 4], s: f64[3, 3], t: f64[2, 2, 2], p: bool[3], k: f64) -> f64"


@pytest.mark.parametrize(
    "expr, code, words",
    [
        ('einsum("ij,jk->ikk", a, b)', "E0503", "output subscript 'k' multiple times"),
        ('einsum("ij,jk->q", a, b)', "E0503", "'q' which never appeared"),
        ('einsum("i1", a)', "E0503", "subscripts must be letters"),
        ('einsum("i..j", a)', "E0503", "not part of an ellipsis"),
        ('einsum("i-j", a)', "E0503", "proper '->'"),
        ('einsum("ij,jk", a)', "E0501", "2 comma-separated terms, one per operand, but 1 operands"),
        ('einsum("ij", a, b)', "E0501", "1 comma-separated terms, one per operand, but 2 operands"),
        ('einsum("ijk", a)', "E0503", "too many subscripts for operand 0"),
        ('einsum("i", a)', "E0503", "no '...' ellipsis"),
        ('einsum("ij,jk", a, a)', "E0401", "index 'j' has size 3 in operand 0 and 2 in operand 1"),
        ('einsum("ii", a)', "E0401", "collapsing index 'i' don't match (2 != 3)"),
        ('einsum("iij", t)', "E0503", "diagonal of 2-d"),
        ("einsum(a, b)", "E0503", "must be a string literal"),
        ('einsum("i,i", p, p)', "E0301", "bool arrays"),
        ('einsum("i,i", k, k)', "E0503", "needs arrays"),
        ("tensordot(a, b, axes=3)", "E0503", "sums the last 3 axes"),
        ("tensordot(a, b, axes=((1,), (2,)))", "E0503", "out of bounds for `b`"),
        ("tensordot(a, b, axes=((0, 0), (1, 0)))", "E0503", "summed twice"),
        ("tensordot(a, b, axes=((0, 1), (1,)))", "E0503", "shape-mismatch for sum"),
        ("tensordot(a, b, axes=k)", "E0503", "must be an integer literal or a pair"),
        ("tensordot(a, a, axes=1)", "E0401", "has size 3 in operand 0 and 2 in operand 1"),
    ],
)
def test_einsum_errors_name_the_fix(expr, code, words, tmp_path):
    src = f"{SIGNATURE} {{\n    let r = {expr};\n    return 0.0;\n}}\n"
    assert_check_error(src, code, words, tmp_path)


@pytest.mark.parametrize(
    "expr, args, message",
    [
        ('sum(einsum("ij,jk->ik", a, b))', {"a": np.ones((2, 3)), "b": np.ones((2, 4))}, "operands could not be broadcast"),
        ('sum(einsum("ij,jk->ki", a, b))', {"a": np.ones((2, 3)), "b": np.ones((2, 4))}, "operands could not be broadcast"),
        ('einsum("ii", a)', {"a": np.ones((2, 3)), "b": np.ones((2, 4))}, "collapsing index 'i' don't match (2 != 3)"),
        ("sum(tensordot(a, b, axes=1))", {"a": np.ones((2, 1)), "b": np.ones((3, 4))}, "tensordot: shape-mismatch for sum"),
    ],
)
def test_einsum_run_time_errors_name_the_line(expr, args, message, tmp_path):
    src = f"fn main(a: f64[n, m], b: f64[p, q]) -> f64 {{\n    return {expr};\n}}\n"
    assert_run_time_error(src, args, message, tmp_path)

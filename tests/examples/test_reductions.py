"""Reductions along every axis against NumPy: every reduce kind (`sum`, `prod`, `min`, `max`,
`mean`) on every dtype (f64, f32, i64, i32, bool), on ranks 1 to 4, on tall and narrow, wide and small
shapes, and on sizes 0 and 1 along each axis. The shapes cover each way the launcher chunks a
reduction (`runtime/src/launch.rs`): along the outputs, along the reduced axis with per-chunk
partial outputs (small outputs, long axis: `sum(x, axis=0)` of a tall narrow matrix), and with sizes
that are not multiples of a chunk. Each program also reduces views (reversed with a negative step,
transposed, offset), elementwise producers (a contracted temporary), several reductions of one
input, and feeds a reduction to an elementwise consumer.

Inputs are small multiples of 1/4 (and, for `prod`, mostly +-1 with rare 2 and 1/2), so every sum
and product is exact in f32 and f64 whatever the order of summation: results must equal NumPy's
exactly (`mean` within a few ulps, NaN where NumPy has NaN). Floating-point sums of general values
depend on the order, which may differ from NumPy's; `test_thread_count_does_not_change_results`
checks that they are within tolerance of NumPy and identical for 1 and 2 threads.
"""
import math
import os
import subprocess

import numpy as np
import pytest

from arrayc_examples import DTYPES, INTS, RUN_TIMEOUT_S, TARGETS, arrayc_binary, load_results, run_source, sum_dtype

DTYPES_NAME = {v: k for k, v in DTYPES.items()}
KINDS = ["sum", "prod", "min", "max", "mean"]

SHAPES = [
    (100_003,),
    (0,),
    (1,),
    (100_003, 3),  # tall and narrow: split along axis 0
    (70_001, 1),
    (1, 70_001),
    (4, 50_001),  # split along the last axis
    (700, 1_000),  # the largest outputs that are split along axis 0
    (1_100, 1_100),  # chunked along the outputs, at least 64 of them per chunk
    (0, 5),
    (5, 0),
    (1, 5),
    (5, 1),
    (1, 1),
    (20_000, 3, 5),
    (3, 40_001, 4),  # split along a middle axis
    (7, 0, 3),
    (2, 1, 3),
    (2, 30_001, 2, 3),
    (3, 4, 5, 6),
]


def result_dtype(kind, dt):
    """The dtype of `kind` on `dt` (docs/language.md: sum/prod of bool, i32 or i64 give i64, of u8 or u64 u64, as
    NumPy's default-integer upcast; mean f64)."""
    if kind in ("sum", "prod"):
        return sum_dtype(dt)
    if kind == "mean":
        return "f32" if dt == "f32" else "f64"
    return dt


def type_str(dt, shape_syms):
    return f"{dt}[{', '.join(shape_syms)}]" if shape_syms else dt


def cases(shape, dt):
    """(expression on `{x}` and `{p}`, NumPy function of (x, p), result dtype, result shape) for every
    reduction of the program."""
    r = len(shape)
    out = []
    for kind in KINDS:
        src = "{p}" if kind == "prod" else "{x}"
        for axis in range(r):
            if kind in ("min", "max") and shape[axis] == 0:
                continue  # NumPy raises, so does arrayc
            fn = getattr(np, kind)
            out.append((f"{kind}({src}, axis={axis})", lambda x, p, fn=fn, a=axis, s=src: fn(p if s == "{p}" else x, axis=a), kind, axis))
    if r >= 2 and shape[0] > 0:
        # Views: reversed along axis 0, transposed (negative axis), offset by one row.
        out.append(("sum({x}[::-1], axis=0)", lambda x, p: np.sum(x[::-1], axis=0), "sum", 0))
        out.append(("max({x}.T, axis=-1)", lambda x, p: np.max(x.T, axis=-1), "max", "T"))
        # Along the last axis of transposes (of 2-d arrays: reduced along the contiguous axis
        # instead, `passes/src/outline/contiguous_axis.rs`), with an elementwise producer.
        out.append(("sum({x}.T, axis=-1)", lambda x, p: np.sum(x.T, axis=-1), "sum", "T"))
        out.append(("mean({x}.T, axis=-1)", lambda x, p: np.mean(x.T, axis=-1), "mean", "T"))
        if dt != "bool":
            out.append(("min({x}.T * {x}.T, axis=-1)", lambda x, p: np.min(x.T * x.T, axis=-1), "min", "T"))
        if dt != "bool":
            # An elementwise producer (contracted) and two reductions of it; a consumer.
            out.append(("sum({x} * {x}, axis=0)", lambda x, p: np.sum(x * x, axis=0), "sum", 0))
            out.append(("min({x} * {x}, axis=0)", lambda x, p: np.min(x * x, axis=0), "min", 0))
            out.append(("sum({x}, axis=0) + {x}[0]", lambda x, p: np.sum(x, axis=0) + x[0], "sum", 0))
    return out


def out_syms(syms, axis):
    if axis == "T":
        return list(reversed(syms))[:-1]
    return [s for k, s in enumerate(syms) if k != axis]


def inputs(shape, dt, rng):
    """`x`: multiples of 1/4 in [-2, 2] (one NaN for floats), `p`: +-1 with rare 2 and 1/2."""
    n = int(np.prod(shape))
    if dt == "bool":
        x = rng.random(n) < 0.5
        p = rng.random(n) < 0.9999
        return x.reshape(shape), p.reshape(shape)
    if dt in INTS:
        x = rng.integers(-8, 9, n)
        p = rng.choice([-1, 1, 2, 3], n, p=[0.4995, 0.4995, 0.0005, 0.0005])
        return x.reshape(shape).astype(DTYPES[dt]), p.reshape(shape).astype(DTYPES[dt])
    x = (rng.integers(-8, 9, n) / 4).astype(DTYPES[dt])
    if n > 10:
        x[n // 3] = np.nan
    p = rng.choice([-1.0, 1.0, 2.0, 0.5], n, p=[0.499, 0.499, 0.001, 0.001]).astype(DTYPES[dt])
    return x.reshape(shape), p.reshape(shape)


def run(src, args, tmp_path, env=None):
    cmd = [str(arrayc_binary()), "run", str(src), "--out", str(tmp_path / "out")]
    for name, arr in args.items():
        np.save(tmp_path / f"{name}.npy", arr)
        cmd += ["--arg", f"{name}=@{tmp_path / f'{name}.npy'}"]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=RUN_TIMEOUT_S, env=env)
    assert proc.returncode == 0, f"arrayc failed on\n{src.read_text()}\n{proc.stderr}"
    return load_results(tmp_path / "out")


@pytest.mark.filterwarnings("ignore:Mean of empty slice")
@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: "x".join(map(str, s)))
def test_axis_reductions_match_numpy(shape, tmp_path):
    rng = np.random.default_rng(len(shape) * 1000 + sum(shape))
    syms = [f"N{k}" for k in range(len(shape))]
    params, results, types, wants = [], [], [], []
    for dt in DTYPES:
        x, p = inputs(shape, dt, rng)
        params += [(f"x_{dt}", x), (f"p_{dt}", p)]
        for expr, fn, kind, axis in cases(shape, dt):
            results.append(expr.format(x=f"x_{dt}", p=f"p_{dt}"))
            rdt = result_dtype(kind, dt)
            types.append(type_str(rdt, out_syms(syms, axis)))
            with np.errstate(all="ignore"):
                want = np.asarray(fn(x, p))
            if kind == "mean" and dt != "f32":
                want = want.astype(np.float64)
            want = want.astype(DTYPES[rdt])
            wants.append((f"{expr.format(x='x', p='p')} on {dt}{list(shape)}", want, kind))
    sig = ", ".join(f"{name}: {type_str(DTYPES_NAME[a.dtype.type], syms)}" for name, a in params)
    src = tmp_path / "reduce.arr"
    src.write_text(f"fn main({sig}) -> ({', '.join(types)}) {{\n    return ({', '.join(results)});\n}}\n")
    got = run(src, dict(params), tmp_path)
    assert len(got) == len(wants)
    for g, (what, want, kind) in zip(got, wants):
        assert g.dtype == want.dtype and g.shape == want.shape, f"{what}: {g.dtype}{g.shape}, NumPy {want.dtype}{want.shape}"
        if kind == "mean":
            np.testing.assert_allclose(g, want, rtol=4 * np.finfo(g.dtype).eps, atol=0, err_msg=what)
        else:
            np.testing.assert_array_equal(g, want, err_msg=what)


@pytest.mark.parametrize("shape,axis", [((500_003, 7), 0), ((5, 30_001, 3), 1), ((3, 5, 20_001, 2), 2), ((6, 100_003), 1)])
def test_thread_count_does_not_change_results(shape, axis, tmp_path):
    """General float values (sums depend on the order): identical bits for 1 and 2 threads, and
    within tolerance of NumPy (f64 rtol 1e-12, f32 rtol 1e-4 of the sum of magnitudes)."""
    rng = np.random.default_rng(7)
    syms = [f"N{k}" for k in range(len(shape))]
    osyms = out_syms(syms, axis)
    x64 = rng.standard_normal(shape)
    x32 = x64.astype(np.float32)
    src = tmp_path / "threads.arr"
    src.write_text(
        f"fn main(a: f64[{', '.join(syms)}], b: f32[{', '.join(syms)}]) -> "
        f"(f64[{', '.join(osyms)}], f32[{', '.join(osyms)}], f64[{', '.join(osyms)}]) {{\n"
        f"    return (sum(a, axis={axis}), sum(b, axis={axis}), prod(1.0 + a / 1000.0, axis={axis}));\n}}\n"
    )
    by_threads = []
    for threads in ("1", "2"):
        env = dict(os.environ, RAYON_NUM_THREADS=threads)
        d = tmp_path / f"t{threads}"
        d.mkdir()
        by_threads.append(run(src, {"a": x64, "b": x32}, d, env))
    for one, two in zip(*by_threads):
        assert one.tobytes() == two.tobytes(), "results differ between 1 and 2 threads"
    got = by_threads[0]
    mag = np.sum(np.abs(x64), axis=axis)
    assert np.all(np.abs(got[0] - np.sum(x64, axis=axis)) <= 1e-12 * mag)
    assert np.all(np.abs(got[1] - np.sum(x32.astype(np.float64), axis=axis)) <= 1e-4 * mag)
    np.testing.assert_allclose(got[2], np.prod(1.0 + x64 / 1000.0, axis=axis), rtol=1e-12)


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("n", [2, 300_001])
def test_min_and_max_of_signed_zeros_and_nan(n, target, tmp_path):
    """`min`/`max` of floats are IEEE 754's `minimum`/`maximum` (docs/language.md): of a -0.0 and a
    0.0, `min` gives -0.0 and `max` 0.0 in either order, also across the launcher's chunks (300,001
    elements: the zeros are a chunk apart); a NaN anywhere gives NaN, as in NumPy. (NumPy itself
    gives either zero, depending on the array's length, so the zeros are checked against the rule.)"""
    zeros = np.zeros(n)
    neg_first, neg_last = zeros.copy(), zeros.copy()
    neg_first[0] = -0.0
    neg_last[-1] = -0.0
    with_nan = np.full(n, 1.5)
    with_nan[n // 2] = np.nan
    src = ("fn main(a: f64[N], b: f64[N], c: f64[N]) -> (f64, f64, f64, f64, f64, f64, f32, f32) {\n"
           "    return (min(a), min(b), max(-a), max(-b), min(c), max(c), min(f32(b)), max(f32(-a)));\n}\n")
    env = dict(os.environ, ARRAYC_GPU_EMULATION_GRID="2,3,32")
    proc, res = run_source(src, {"a": neg_first, "b": neg_last, "c": with_nan}, tmp_path,
                           flags=("--target", target), env=env)
    assert proc.returncode == 0, proc.stderr
    signs = [bool(np.signbit(r)) for r in res[:4]] + [bool(np.signbit(r)) for r in res[6:]]
    assert signs == [True, True, False, False, True, False], signs
    assert np.isnan(res[4]) and np.isnan(res[5])


# `docs/language.md`: a float sum's rounding error is at most about (k + c + 3) * eps * sum(abs(x)),
# with k the longest partial sum (an eighth of a chunk or row) and c the number of chunks.
CHUNK_ELEMS = 1 << 16


@pytest.mark.parametrize("n", [9, 1_000_003])
def test_ill_conditioned_sums_within_the_documented_bound(n, tmp_path):
    """Sums that cancel (values from 1e-8 to 1e8 of both signs, whose exact sum is far smaller than
    the sum of magnitudes) against `math.fsum`, the correctly rounded sum: within the bound of
    docs/language.md, over everything, along the last axis and along axis 0; identical for 1 and
    2 threads. NumPy's pairwise sum has its own error, so it is not the reference here."""
    rng = np.random.default_rng(n)
    x = rng.standard_normal(n) * 10.0 ** rng.integers(-8, 9, n)
    x = np.concatenate([x, -x[::-1] * (1 + 1e-12)])
    rng.shuffle(x)
    m = x.reshape(2, -1)
    src = tmp_path / "ill.arr"
    src.write_text("fn main(x: f64[N], m: f64[R, C]) -> (f64, f64[R], f64[C]) {\n"
                   "    return (sum(x), sum(m, axis=1), sum(m, axis=0));\n}\n")
    outs = []
    for threads in ("1", "2"):
        d = tmp_path / f"t{threads}"
        d.mkdir()
        outs.append(run(src, {"x": x, "m": m}, d, dict(os.environ, RAYON_NUM_THREADS=threads)))
    for one, two in zip(*outs):
        assert one.tobytes() == two.tobytes(), "results differ between 1 and 2 threads"
    total, rows, cols = outs[0]
    eps = 2.0 ** -53

    def bound(vals):
        chunks = -(-len(vals) // CHUNK_ELEMS)
        k = -(-min(len(vals), CHUNK_ELEMS) // 8)
        return (k + chunks + 3) * eps * math.fsum(np.abs(vals))

    assert abs(total - math.fsum(x)) <= bound(x), (total, math.fsum(x), bound(x))
    for r in range(2):
        assert abs(rows[r] - math.fsum(m[r])) <= bound(m[r])
    # Along axis 0 each output adds its two elements in order: exactly rounded.
    np.testing.assert_array_equal(cols, m[0] + m[1])


@pytest.mark.parametrize("n", [1, 7, 8, 9, 33, 70_001])
def test_min_max_nan_anywhere_and_infinities(n, tmp_path):
    """Vectorised min/max loops (4 or 8 lanes, interleaved) against NumPy: a NaN first, in the
    middle or last (at every lane position of the short lengths) gives NaN, over everything and along
    the last axis; without NaN, infinities and a single extreme value at any position; f64 and
    f32."""
    rng = np.random.default_rng(n)
    cases = []
    for pos in sorted({0, n // 2, n - 1}):
        x = rng.standard_normal(n)
        x[pos] = np.nan
        cases.append(x)
    y = rng.standard_normal(n)
    y[n // 3] = np.inf
    y[n - 1 - n // 3] = -np.inf
    cases.append(y)
    z = rng.standard_normal(n)
    z[(n * 2) // 3] = 1e30
    z[n // 4] = -1e30
    cases.append(z)
    x = np.stack(cases)
    src = tmp_path / "nan.arr"
    src.write_text("fn main(x: f64[R, N]) -> (f64[R], f64[R], f32[R], f32[R], f64, f64) {\n"
                   "    return (min(x, axis=1), max(x, axis=1), min(f32(x), axis=1), max(f32(x), axis=1), "
                   "min(x[1:, :]), max(x[1:, :]));\n}\n")
    got = run(src, {"x": x}, tmp_path)
    x32 = x.astype(np.float32)
    wants = [np.min(x, axis=1), np.max(x, axis=1), np.min(x32, axis=1), np.max(x32, axis=1),
             np.min(x[1:]), np.max(x[1:])]
    for g, w in zip(got, wants):
        np.testing.assert_array_equal(g, w)
        assert g.dtype == w.dtype


@pytest.mark.parametrize("dt", ["i64", "i32", "i16", "i8", "u32", "u16", "bool"])
def test_integer_min_max_at_every_position(dt, tmp_path):
    """Integer and bool min/max loops (vectorised too) against NumPy, the extremes at the first, a
    middle and the last position, with the dtype's own limits."""
    n = 1_003
    info = np.iinfo(DTYPES[dt]) if dt != "bool" else None
    rows = []
    for pos in (0, n // 2, n - 1):
        if dt == "bool":
            r = np.ones(n, dtype=bool)
            r[pos] = False
        else:
            r = np.random.default_rng(pos).integers(-100, 100, n).astype(DTYPES[dt])
            r[pos] = info.min
            r[n - 1 - pos] = info.max
        rows.append(r)
    x = np.stack(rows)
    src = tmp_path / "ints.arr"
    src.write_text(f"fn main(x: {dt}[R, N]) -> ({dt}[R], {dt}[R], {dt}, {dt}) {{\n"
                   "    return (min(x, axis=1), max(x, axis=1), min(x), max(x[:, 1:]));\n}\n")
    got = run(src, {"x": x}, tmp_path)
    wants = [np.min(x, axis=1), np.max(x, axis=1), np.min(x), np.max(x[:, 1:])]
    for g, w in zip(got, wants):
        np.testing.assert_array_equal(g, w)


def ieee_min_max(x, axis, is_min):
    """The documented min/max of floats (docs/language.md), built from NumPy's: NaN where the extent
    holds a NaN, else NumPy's extreme value, a zero result being -0.0 for `min` when a -0.0 is in the
    extent (else 0.0), and 0.0 for `max` when a 0.0 is (else -0.0). NumPy's own sign of a zero
    depends on its SIMD layout, so it is not the reference for the sign."""
    m = (np.min if is_min else np.max)(x, axis=axis)
    zero = x == 0
    winner = zero & (np.signbit(x) if is_min else ~np.signbit(x))
    signed = np.where(np.any(winner, axis=axis), -0.0 if is_min else 0.0, 0.0 if is_min else -0.0)
    m = np.where(m == 0, signed.astype(x.dtype), m)
    return np.where(np.any(np.isnan(x), axis=axis), np.nan, m).astype(x.dtype)


def assert_same_floats(got, want, what):
    """Equal values, NaN where `want` has NaN, and the same sign of every zero."""
    got, want = np.asarray(got), np.asarray(want)
    assert got.dtype == want.dtype and got.shape == want.shape, what
    np.testing.assert_array_equal(got, want, err_msg=what)
    zeros = want == 0
    assert np.array_equal(np.signbit(got[zeros]), np.signbit(want[zeros])), f"{what}: signs of zeros differ"


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("dt", ["f64", "f32"])
@pytest.mark.parametrize("n", [9, 33, 70_001])
def test_min_max_nans_and_zeros_at_any_position(n, dt, target, tmp_path):
    """Float min/max (vectorised loops, `MIN_MAX_OPS` of `codegen/src/kernel_codegen/builder.rs`):
    NaNs first, in the middle, last and several; a -0.0 (or 0.0) among zeros of the other sign at
    the first, a middle and the last position (the vector lanes and the launcher's chunks); all
    -0.0; zeros beside positive values; infinities; NaN beside -0.0. Over everything, along the
    last axis, along axis 0 (the form that accumulates in the output), and with a sum of the same
    input in the block (the form with eight accumulators). Against NumPy with the documented sign
    of a zero (`ieee_min_max`)."""
    rng = np.random.default_rng(n + len(dt))
    rows = []
    for pos in sorted({0, n // 2, n - 1}):
        for zero, other in ((-0.0, 0.0), (0.0, -0.0)):
            r = np.full(n, other)
            r[pos] = zero
            rows.append(r)
            r = np.abs(rng.standard_normal(n)) + 1.0
            r[pos] = zero
            rows.append(r)
        r = rng.standard_normal(n)
        r[pos] = np.nan
        rows.append(r)
    rows.append(np.full(n, -0.0))
    r = rng.standard_normal(n)
    r[[0, n - 1]] = np.nan
    rows.append(r)
    r = np.full(n, -0.0)
    r[n // 3] = np.nan
    rows.append(r)
    r = rng.standard_normal(n)
    r[n // 4], r[(3 * n) // 4] = np.inf, -np.inf
    rows.append(r)
    r = np.full(n, np.inf)
    rows.append(r)
    x = np.stack(rows).astype(DTYPES[dt])
    syms = "R, N"
    src = (f"fn main(x: {dt}[{syms}]) -> ({dt}[R], {dt}[R], {dt}[N], {dt}[N], {dt}, {dt}, {dt}[R], {dt}[R]) {{\n"
           "    return (min(x, axis=1), max(x, axis=1), min(x, axis=0), max(x, axis=0), min(x[1:, :]), "
           "max(x[:3, ::-1]), sum(x, axis=1), min(x, axis=1));\n}\n")
    env = dict(os.environ, ARRAYC_GPU_EMULATION_GRID="2,3,32")
    proc, got = run_source(src, {"x": x}, tmp_path, flags=("--target", target), env=env)
    assert proc.returncode == 0, proc.stderr
    wants = [ieee_min_max(x, 1, True), ieee_min_max(x, 1, False), ieee_min_max(x, 0, True),
             ieee_min_max(x, 0, False), ieee_min_max(x[1:], None, True), ieee_min_max(x[:3, ::-1], None, False),
             None, ieee_min_max(x, 1, True)]
    for k, (g, w) in enumerate(zip(got, wants)):
        if w is not None:
            assert_same_floats(g, w, f"result {k}")


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("dt", ["f64", "f32"])
def test_min_max_split_along_a_non_last_axis(dt, target, tmp_path):
    """Min and max along a non-last axis with large outputs, which the CPU launcher splits along
    the axis (`MIN_MAX_SPLIT_ROWS` = 512 rows per chunk, partial outputs combined on the host:
    `runtime/src/launch.rs`, `splits_min_max`): 1,300 rows (two whole chunks and one of 276 rows)
    of 1,100 columns along axis 0, and 1,100 along axis 1 of a 3-d array. A NaN in a middle row of
    a middle chunk, in the last row, in every row of a column (all NaN), beside an infinity; a
    -0.0 among 0.0 in a later chunk (and a 0.0 among -0.0); the extreme values in the last, short
    chunk. Against NumPy with the documented sign of a zero (`ieee_min_max`); on the
    CPU also the same bits for 1 and 2 threads."""
    rng = np.random.default_rng(32)
    x = rng.standard_normal((1_300, 1_100))
    x[700, 5] = np.nan  # a middle row of the second chunk
    x[:, 7] = np.nan  # a column all NaN
    x[1_299, 9] = np.nan  # the last row (the short chunk)
    x[:, 11] = 0.0
    x[1_100, 11] = -0.0  # min: -0.0, from the third chunk
    x[:, 13] = -0.0
    x[600, 13] = 0.0  # max: 0.0, from the second chunk
    x[900, 15], x[901, 15] = np.inf, np.nan
    x[1_290, 17], x[1_291, 17] = -1e30, 1e30  # the extremes in the short chunk
    x[1_099, 1_099] = np.nan  # the last column
    x = x.astype(DTYPES[dt])
    y = rng.standard_normal((2, 1_100, 520)).astype(DTYPES[dt])
    y[1, 600, 4] = np.nan
    y[1, :, 6] = np.nan
    y[0, 1_099, 519] = -1e30
    src = (f"fn main(x: {dt}[R, N], y: {dt}[A, B, C]) -> ({dt}[N], {dt}[N], {dt}[A, C], {dt}[A, C], {dt}[N]) {{\n"
           "    return (min(x, axis=0), max(x, axis=0), min(y, axis=1), max(y, axis=1), min(x * x, axis=0));\n}\n")
    with np.errstate(over="ignore"):  # 1e30 squared
        wants = [ieee_min_max(x, 0, True), ieee_min_max(x, 0, False), ieee_min_max(y, 1, True),
                 ieee_min_max(y, 1, False), ieee_min_max(x * x, 0, True)]
    runs = []
    for threads in ("1", "2") if target == "cpu" else ("2",):
        env = dict(os.environ, RAYON_NUM_THREADS=threads, ARRAYC_GPU_EMULATION_GRID="2,3,32")
        proc, got = run_source(src, {"x": x, "y": y}, tmp_path / f"t{threads}", flags=("--target", target), env=env)
        assert proc.returncode == 0, proc.stderr
        for k, (g, w) in enumerate(zip(got, wants)):
            assert_same_floats(g, w, f"result {k} ({threads} threads)")
        runs.append(got)
    for one, two in zip(runs[0], runs[-1]):
        assert one.tobytes() == two.tobytes(), "results differ between 1 and 2 threads"


@pytest.mark.parametrize("dt", ["i64", "i32", "u8", "bool"])
def test_integer_min_max_split_along_axis_0(dt, tmp_path):
    """Integer and bool min/max along axis 0 of 1,300 x 1,100 (split along the axis in chunks of
    512 rows, `splits_min_max`), the dtype's extremes in a middle row of a middle chunk and in the
    last, short chunk, against NumPy."""
    rng = np.random.default_rng(5)
    if dt == "bool":
        x = rng.random((1_300, 1_100)) < 0.999
        x[:, 3] = True
        x[700, 3] = False
    else:
        info = np.iinfo(DTYPES[dt])
        x = rng.integers(max(info.min, -100), min(info.max, 100), (1_300, 1_100)).astype(DTYPES[dt])
        x[700, 3], x[1_299, 3] = info.min, info.max
        x[1_290, 5], x[520, 5] = info.max, info.min
    src = tmp_path / "ints.arr"
    src.write_text(f"fn main(x: {dt}[R, N]) -> ({dt}[N], {dt}[N]) {{\n    return (min(x, axis=0), max(x, axis=0));\n}}\n")
    got = run(src, {"x": x}, tmp_path)
    for g, w in zip(got, [np.min(x, axis=0), np.max(x, axis=0)]):
        assert g.dtype == w.dtype
        np.testing.assert_array_equal(g, w)


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("n", [2, 9, 70_001])
def test_sum_of_negative_zeros_is_numpys(n, target, tmp_path):
    """A float `sum` of nothing but -0.0 is 0.0, as NumPy's (`np.sum([-0.0, -0.0])` is 0.0: its
    identity is 0.0), over everything, along the last axis and along axis 0, f64 and f32, through
    the split loop's eight accumulators (n >= 8) and the launcher's chunks; `prod` keeps the sign
    rule of a product. The signs of the zeros must be NumPy's."""
    x = np.full((3, n), -0.0)
    src = ("fn main(x: f64[R, N]) -> (f64, f64[R], f64[N], f32, f32[R], f64[R]) {\n"
           "    return (sum(x), sum(x, axis=1), sum(x, axis=0), sum(f32(x)), sum(f32(x), axis=1), "
           "prod(x[:, :3], axis=1));\n}\n")
    env = dict(os.environ, ARRAYC_GPU_EMULATION_GRID="2,3,32")
    proc, got = run_source(src, {"x": x}, tmp_path, flags=("--target", target), env=env)
    assert proc.returncode == 0, proc.stderr
    x32 = x.astype(np.float32)
    wants = [np.sum(x), np.sum(x, axis=1), np.sum(x, axis=0), np.sum(x32), np.sum(x32, axis=1),
             np.prod(x[:, :3], axis=1)]
    for k, (g, w) in enumerate(zip(got, wants)):
        assert_same_floats(g, w, f"result {k}")


@pytest.mark.parametrize("target", ["cpu", "gpu-emulated"])
@pytest.mark.parametrize("op", ["sum", "prod", "max", "min", "mean", "argmax"])
@pytest.mark.parametrize("axis", [0, 1, -1])
def test_reductions_of_contracted_temporaries_along_each_axis(op, axis, target, tmp_path):
    """A reduction whose input is never materialised (every full-rank array of its kernel
    contracted: `sum(ones(n, m), axis=1)`, `max(full(n, 3, 1.25) * 2.0 + 1.0, axis=-1)`): the
    kernel's iteration space then comes from a shape parameter. Found by the differential fuzzer
    (seeds 93005.. of 2026-11-28): along the last axis this was a run-time "shape mismatch", since
    the contiguous-axis rewrite had swapped the reduction's axis without a view to transpose."""
    rd = "i64" if op == "argmax" else "f64"
    out = {0: "m", 1: "n", -1: "n"}[axis]
    src = f"""fn main(n: i64, m: i64) -> ({rd}[{out}], {rd}[{out}], i64[{out}]) {{
    return ({op}(ones(n, m), axis={axis}), {op}(full(n, m, 1.25) * 2.0 + arange(m) * 0.5, axis={axis}),
            sum(ones(n, m, dtype=i64), axis={axis}));
}}
"""
    n, m = 5, 3
    proc, res = run_source(src, {"n": np.int64(n), "m": np.int64(m)}, tmp_path, flags=("--target", target))
    assert proc.returncode == 0, proc.stderr
    f = getattr(np, op)
    want = [f(np.ones((n, m)), axis=axis), f(np.full((n, m), 1.25) * 2.0 + np.arange(m) * 0.5, axis=axis),
            np.sum(np.ones((n, m), dtype=np.int64), axis=axis)]
    for got, w in zip(res, want):
        assert got.dtype == w.dtype and got.shape == w.shape
        np.testing.assert_allclose(got, w, rtol=1e-15)

"""Rank-generic functions (docs/language.md, "Rank-generic functions"): a parameter `x: f64[...]`
takes an array of any rank, and the function is checked and compiled once per tuple of argument
ranks at its calls, as NumPy code uses one function at several ranks. One stencil and a few
elementwise and shape-querying functions, each called at 1-d, 2-d and 3-d, against NumPy on the
CPU and on the GPU kernels (emulated, and the GPU where there is one); then a rank-generic entry
function, which takes the ranks of the arrays given for it, and the checker's errors."""
import subprocess

import numpy as np
import pytest

from arrayc_examples import TARGETS, arrayc_binary, assert_check_error, run_source

# One stencil, used at every rank: the second difference along the last axis and along the first
# (for a 1-d array both are along its one axis), an elementwise function with reductions, a
# function that updates its argument in place through a view, one that calls another rank-generic
# function (an instance inside an instance), one with two `[...]` parameters of different ranks
# (broadcast together), and the shape queries `x.ndim`, `x.shape[k]`, `len(x)`, `x.size`.
PROGRAM = """
fn lap(x: f64[...]) -> f64[...] {
    return x[..., :-2] - 2.0 * x[..., 1:-1] + x[..., 2:];
}

fn lap_first(x: f64[...]) -> f64[...] {
    return x[:-2, ...] - 2.0 * x[1:-1, ...] + x[2:, ...];
}

fn normalize(x: f64[...]) -> f64[...] {
    let m = mean(x);
    return (x - m) / sqrt(sum((x - m) ** 2) / x.size);
}

fn relax(x: f64[...], w: f64) {
    x[..., 1:-1] += w * lap(x);
}

fn smooth_twice(x: f64[...]) -> f64[...] {
    return lap(lap(x));
}

fn axpy(a: f64, x: f64[...], y: f64[...]) -> f64[...] {
    return a * x + y;
}

fn shape_of(x: f64[...]) -> (i64, i64, i64, i64) {
    return (x.ndim, x.shape[-1], len(x), x.size);
}

fn count_positive(k: i64[...]) -> i64 {
    return sum(k > 0);
}

fn main(a: f64[N], b: f64[N, M], c: f64[P, Q, R], k: i64[P, Q]) ->
        (f64[N-2], f64[N, M-2], f64[P, Q, R-2], f64[N-2], f64[N-2, M], f64[P-2, Q, R],
         f64[N], f64[N, M], f64[P, Q, R],
         f64[N], f64[N, M], f64[P, Q, R],
         f64[N-4], f64[N, M-4], f64[P, Q, R-4],
         f64[N, M], f64[P, Q, R],
         i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64) {
    let a2 = copy(a);
    let b2 = copy(b);
    let c2 = copy(c);
    relax(a2, 0.25);
    relax(b2, 0.25);
    relax(c2, 0.25);
    let (n1, l1, len1, s1) = shape_of(a);
    let (n2, l2, len2, s2) = shape_of(b);
    let (n3, l3, len3, s3) = shape_of(c);
    return (lap(a), lap(b), lap(c), lap_first(a), lap_first(b), lap_first(c),
            normalize(a), normalize(b), normalize(c),
            a2, b2, c2,
            smooth_twice(a), smooth_twice(b), smooth_twice(c),
            axpy(2.0, a[:M], b), axpy(-1.5, b[:Q, :R], c[:, :, :]),
            n1, l1, len1, s1, n2, l2, len2, s2, n3, l3, len3, s3,
            count_positive(k[0]), count_positive(k));
}
"""


def lap(x):
    return x[..., :-2] - 2.0 * x[..., 1:-1] + x[..., 2:]


def lap_first(x):
    return x[:-2, ...] - 2.0 * x[1:-1, ...] + x[2:, ...]


def normalize(x):
    return (x - x.mean()) / x.std()


def relaxed(x, w):
    y = x.copy()
    y[..., 1:-1] += w * lap(y)
    return y


def reference(a, b, c, k):
    shapes = [(x.ndim, x.shape[-1], len(x), x.size) for x in (a, b, c)]
    return [
        lap(a), lap(b), lap(c), lap_first(a), lap_first(b), lap_first(c),
        normalize(a), normalize(b), normalize(c),
        relaxed(a, 0.25), relaxed(b, 0.25), relaxed(c, 0.25),
        lap(lap(a)), lap(lap(b)), lap(lap(c)),
        2.0 * a[: b.shape[1]] + b, -1.5 * b[: c.shape[1], : c.shape[2]] + c,
        *[np.int64(v) for s in shapes for v in s],
        np.int64((k[0] > 0).sum()), np.int64((k > 0).sum()),
    ]


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("sizes", [(7, 6, 3, 4, 5), (12, 9, 5, 9, 8)], ids=lambda s: "x".join(map(str, s)))
def test_one_function_at_ranks_1_2_and_3_matches_numpy(sizes, target, tmp_path):
    n, m, p, q, r = sizes
    rng = np.random.default_rng(n * 31 + m)
    ins = {
        "a": rng.standard_normal(n),
        "b": rng.standard_normal((n, m)),
        "c": rng.standard_normal((p, q, r)),
        "k": rng.integers(-3, 4, size=(p, q)).astype(np.int64),
    }
    proc, got = run_source(PROGRAM, ins, tmp_path, flags=["--target", target])
    assert proc.returncode == 0, proc.stderr
    want = reference(ins["a"], ins["b"], ins["c"], ins["k"])
    assert len(got) == len(want)
    for i, (g, w) in enumerate(zip(got, want)):
        w = np.asarray(w)
        assert g.dtype == w.dtype and g.shape == w.shape, f"result {i}: {g.dtype}{g.shape}, NumPy {w.dtype}{w.shape}"
        np.testing.assert_allclose(g, w, rtol=1e-12, atol=1e-12, err_msg=f"result {i}")


def test_instances_are_named_after_the_function_and_rank(tmp_path):
    """`emit --stage=arr` shows one function per rank, `lap.r1`, `lap.r2`, ..., and the calls of
    each; the generic function itself is not compiled."""
    prog = tmp_path / "prog.arr"
    prog.write_text(PROGRAM)
    out = subprocess.run([str(arrayc_binary()), "emit", "--stage=arr", str(prog)], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    for name in ["lap.r1", "lap.r2", "lap.r3", "relax.r1", "relax.r3", "axpy.r1_2", "axpy.r2_3", "count_positive.r1"]:
        assert f"func.func @{name}(" in out.stdout, name
        assert f"call @{name}(" in out.stdout, name
    assert "func.func @lap(" not in out.stdout


@pytest.mark.parametrize("shape", [(9,), (4, 7), (2, 3, 5)], ids=lambda s: "x".join(map(str, s)))
def test_a_rank_generic_entry_takes_the_ranks_of_its_arrays(shape, tmp_path):
    """`arrayc run --entry lap --arg x=@x.npy` compiles the instance of `lap` for the rank of
    `x`, as a call would."""
    x = np.random.default_rng(len(shape)).standard_normal(shape)
    proc, got = run_source(PROGRAM, {"x": x}, tmp_path, flags=["--entry", "lap"])
    assert proc.returncode == 0, proc.stderr
    assert len(got) == 1 and got[0].shape == lap(x).shape
    np.testing.assert_allclose(got[0], lap(x), rtol=1e-12, atol=1e-12)
    proc, got = run_source(PROGRAM, {"x": x}, tmp_path / "2", flags=["--entry", "shape_of"])
    assert proc.returncode == 0, proc.stderr
    assert [int(g) for g in got] == [x.ndim, x.shape[-1], len(x), x.size]


def test_a_rank_generic_entry_without_its_arrays_is_refused_with_the_fix(tmp_path):
    prog = tmp_path / "prog.arr"
    prog.write_text(PROGRAM)
    proc = subprocess.run([str(arrayc_binary()), "run", str(prog), "--entry", "lap"], capture_output=True, text=True)
    assert proc.returncode == 1
    assert "`lap` is rank-generic" in proc.stderr and "--arg x=@file.npy" in proc.stderr, proc.stderr
    assert "panicked" not in proc.stderr
    # An instance is no entry of its own.
    proc = subprocess.run([str(arrayc_binary()), "run", str(prog), "--entry", "lap.r2"], capture_output=True, text=True)
    assert proc.returncode == 1 and "no function `lap.r2`" in proc.stderr, proc.stderr
    # `arrayc build` makes no instance for its entry.
    proc = subprocess.run([str(arrayc_binary()), "build", str(prog), "--entry", "lap", "-o", str(tmp_path / "exe")],
                          capture_output=True, text=True)
    assert proc.returncode == 1 and "`lap` is rank-generic" in proc.stderr, proc.stderr


@pytest.mark.parametrize(
    "src, code, words",
    [
        # An error in the body names the instance (the argument's rank) and the call.
        (
            "fn f(x: f64[...]) -> f64 { return x[0, 0]; }\n"
            "fn main() -> f64 { return f(zeros(3, 3)) + f(zeros(3)); }\n",
            "E0403",
            "in the instance of `f` for `x: f64[_]`, called here",
        ),
        # A scalar, or an array of another dtype, is no `f64[...]`.
        (
            "fn f(x: f64[...]) -> f64[...] { return 2.0 * x; }\nfn main() { let y = f(2.0); }\n",
            "E0312",
            "has type f64, expected f64[...]",
        ),
        (
            "fn f(x: f64[...]) -> f64[...] { return 2.0 * x; }\nfn main() { let y = f(zeros(2, dtype=i64)); }\n",
            "E0312",
            "has type i64[2], expected f64[...]",
        ),
        # An inferred result needs a rank-generic parameter.
        ("fn g(n: i64) -> f64[...] { return zeros(n); }\n", "E0208", "needs a rank-generic parameter"),
        # The result of the second call is that of the instance being checked.
        (
            "fn f(x: f64[...]) -> f64[...] { return f(x); }\nfn main() { let y = f(zeros(2)); }\n",
            "E0209",
            "calls itself before its result's rank is known",
        ),
        (
            "fn f(x: f64[...]) -> f64 { return sum(f(x[newaxis])); }\nfn main() -> f64 { return f(zeros(2)); }\n",
            "E0209",
            "too many nested instances",
        ),
        # The returned value must have the declared dtype, and every `return` the same rank.
        (
            "fn f(x: f64[...]) -> f64[...] { return x > 0.0; }\nfn main() { let y = f(zeros(2)); }\n",
            "E0306",
            "returned value has type bool[x.shape[0]], but the function declares f64[...]",
        ),
        (
            "fn f(x: f64[...], c: bool) -> f64[...] { if c { return x; } return x[0]; }\n"
            "fn main() { let y = f(zeros(2, 2), true); }\n",
            "E0306",
            "returned value has type f64[x.shape[1]], but the function declares f64[x.shape[0], x.shape[1]]",
        ),
    ],
    ids=["error-in-an-instance", "scalar-argument", "other-dtype", "inferred-result-alone", "recursion", "ever-higher-ranks", "result-dtype", "result-ranks"],
)
def test_errors_name_the_instance_and_the_fix(src, code, words, tmp_path):
    assert_check_error(src, code, words, tmp_path)

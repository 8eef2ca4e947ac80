"""Python's list arithmetic on list literals (`grammar/src/list_ops.rs`, `Checked::list_repeats`):
`[..] * k` repeats the list and `[..] + [..]` joins two lists, where NumPy's operators on arrays
are elementwise; a list times an array stays NumPy's elementwise product. Python's `sorted`,
`list` and `tuple` of an array (`grammar/src/py_lists.rs`), `reversed` in comprehensions. Each program compared
with the same Python function run by NumPy, on the CPU and on the emulated GPU target. Also an
array read before anything writes it (`np.empty`, the empty list), which the outliner must not
contract."""
import numpy as np
import pytest

from arrayc_examples import TARGETS, assert_same, run_fails, run_ok

RNG = np.random.default_rng(41)
X = RNG.standard_normal(10)
IMG = RNG.random((4, 5, 3))
INPUTS = {"x": X, "img": IMG, "k": np.int64(3), "ku": np.uint8(2), "kn": np.int64(-2)}
SIG = "x: f64[n], img: f64[h, w, 3], k: i64, ku: u8, kn: i64"


def check(exprs, target, tmp_path, stmts=""):
    """Runs `return e1, e2, ...;` (after `stmts`) and the same Python code; each result as NumPy's."""
    ret = ", ".join(r for _, r in exprs)
    body = f"{stmts}\n    return {', '.join(e for e, _ in exprs)};"
    src = f"import numpy as np;\nfn main({SIG}) -> ({ret},) {{\n    {body}\n}}\n"
    got = run_ok(src, INPUTS, tmp_path, target)
    env = dict(INPUTS, np=np, x=X.copy(), img=IMG.copy())
    py = "".join(f"    {s.strip()}\n" for s in stmts.split(";") if s.strip())
    exec(f"def _f():\n{py}    return ({', '.join(e for e, _ in exprs)},)", env)
    for (e, _), g, w in zip(exprs, got, env["_f"]()):
        assert_same(g, w, e)


@pytest.mark.parametrize("target", TARGETS)
def test_repetitions(target, tmp_path):
    """A literal count (negative: the empty list), a run-time count of each integer dtype, bool
    masks, nested lists, lists of arrays, repetitions inside lists."""
    check([("np.array([0.0] * k)", "f64[?]"), ("np.array([1, 2] * 3)", "i64[?]"),
           ("np.array(3 * [1, 2])", "i64[?]"), ("np.array([1, 2] * -1)", "f64[?]"),
           ("x[[True, False] * 5]", "f64[?]"), ("np.array([[1, 2]] * k)", "i64[?, ?]"),
           ("np.array([x, x + 1] * 2)", "f64[?, ?]"), ("np.array([x, x + 1] * k)", "f64[?, ?]"),
           ("np.array([1.5] * ku)", "f64[?]"), ("np.array([1.5] * (k - 1))", "f64[?]"),
           ("np.array([1.5] * len(x))", "f64[?]"), ("np.array([[0] * 3] * 2)", "i64[?, ?]"),
           ("np.array([[0] * k] * k)", "i64[?, ?]"), ("np.array([0] * 100)", "i64[?]"),
           ("np.array([0.0] * 0)", "f64[?]")], target, tmp_path)


@pytest.mark.parametrize("target", TARGETS)
def test_joins_and_names(target, tmp_path):
    """Joins of lists (with run-time repetitions too), a name bound to a list, a list written into
    a view; a list times an array is NumPy's elementwise product (a name written through a
    subscript is an array, its product elementwise too)."""
    stmts = "w = [1.5, 2.5]; v = [9.0, 1.0]; v[0] = 4.0; z = np.zeros(6); z[:] = [1.0, 2.0] * k;"
    check([("np.array([1, 2] + [3])", "i64[?]"), ("np.array([0] * k + [1])", "i64[?]"),
           ("np.array([0] * 2 + [1] * 3)", "i64[?]"), ("np.array(w * k)", "f64[?]"),
           ("np.array(w + w)", "f64[?]"), ("np.array(v) * 2", "f64[?]"), ("z", "f64[?]"),
           ("img * [0.299, 0.587, 0.114]", "f64[?, ?, ?]"), ("[0.5, 2.0, 1.0] * img", "f64[?, ?, ?]"),
           ("x * [2.0]", "f64[?]")], target, tmp_path, stmts)


def test_negative_run_time_count_is_an_error(tmp_path):
    """Python's `[1] * -2` is the empty list; a run-time negative count is refused, naming it."""
    src = f"import numpy as np;\nfn main({SIG}) -> f64[?] {{\n    return np.array([1.0] * kn);\n}}\n"
    run_fails(src, INPUTS, tmp_path, "negative count")


@pytest.mark.parametrize("target", TARGETS)
def test_read_before_written(target, tmp_path):
    """The empty list joined to another, and an `np.empty` array read before anything writes it
    (its values are arbitrary, so only what does not depend on them is compared)."""
    check([("np.concatenate(([], [1.0]))", "f64[?]"),
           ("np.where(e == e, 1.0, 1.0)", "f64[?]"),
           ("np.concatenate((e, [2.0]))[4:]", "f64[?]")], target, tmp_path, "e = np.empty(4);")


@pytest.mark.parametrize("target", TARGETS)
def test_sorted_list_tuple(target, tmp_path):
    """`sorted` (reversed too, sliced, iterated), `list` and `tuple` of arrays and of `range`; the
    list is a copy: writing it leaves `x` as it was."""
    stmts = ("s = 0.0; l = list(x); l[0] = 100.0; ll = list(range(4)); "
             "t = sorted(x, reverse=True)[:3]; s = t[0] + t[1] + t[2];")
    check([("np.array(sorted(x))", "f64[?]"), ("np.array(sorted(x, reverse=True))", "f64[?]"),
           ("s", "f64"), ("np.array(l)", "f64[?]"), ("x", "f64[?]"), ("np.array(ll)", "i64[?]"),
           ("np.array(tuple(x * 2))", "f64[?]"), ("np.array(sorted(img[0, 0]))", "f64[?]")],
          target, tmp_path, stmts)


@pytest.mark.parametrize("target", TARGETS)
def test_reversed_in_comprehensions(target, tmp_path):
    """Python's `reversed(range(..))` (steps and empty ranges too) and `reversed(x)` as a
    comprehension's iterable, in a list and in a generator, as in a `for` loop."""
    src = """fn main(x: f64[n]) -> (i64[?], i64[?], f64[?], f64, i64[?, ?]) {
    return (np.array([i for i in reversed(range(5))]), np.array([i * 2 for i in reversed(range(1, 10, 3))]),
            np.array([v for v in reversed(x) if v > 0]), sum(v * i for i, v in enumerate(reversed(x))),
            np.array([[i - j for j in reversed(range(3))] for i in range(2)]));
}
"""
    got = run_ok(src, dict(x=X), tmp_path, target)
    want = [np.array([i for i in reversed(range(5))]), np.array([i * 2 for i in reversed(range(1, 10, 3))]),
            np.array([v for v in reversed(X) if v > 0]), sum(v * i for i, v in enumerate(reversed(X))),
            np.array([[i - j for j in reversed(range(3))] for i in range(2)])]
    for k, (g, w) in enumerate(zip(got, want)):
        if k == 3:
            np.testing.assert_allclose(g, w, rtol=1e-12)
        else:
            assert_same(g, w, f"result {k}")

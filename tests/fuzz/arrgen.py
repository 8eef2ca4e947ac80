"""arrgen: a seeded generator of random, well-typed arrayc programs with their NumPy translations.

`generate(seed)` returns a `Program`: the source of an arrayc program (`fn main(...)` with sizes
given as entry parameters with defaults, and up to three helper functions) and the source of a
Python module whose function `main` computes the same results with NumPy, plus the declared result
types. The same seed always gives the same program (`random.Random`; nothing else is random).

What the programs exercise: views with offsets, negative steps and strides (`x[::-1]`,
`x[1:-1:2]`, `x[-2:0:-3]`, 2-d and 3-d slices, integer indices, `...`, `newaxis`), transposes
(`x.T`, `transpose(x)`), `diagonal(x)`, views of views and several names for one array;
broadcasting (newaxis, size-1 dimensions, missing leading dimensions, outer products, size
parameters whose default is 1); in-place writes and in-place operators whose right-hand side reads
the array being written through overlapping views (`a[1:] = a[:-1] + ...`, `x[::-1] += x`,
`v[...] -= w` with v and w views of one base, element writes in loops reading neighbours);
reductions (sum, prod, min, max, mean; whole array and `axis=k`, negative axes too); the
elementwise builtins (abs sqrt exp log sin cos tanh minimum maximum where), casts, `%` and `**`;
dtype mixing (f64, f32, i64, bool; weak literals, strong scalar variables and parameters); scalar
control flow (for, while, if / else if / else, nested, zero-trip loops) around array statements;
element reads and writes; array rebinding and shadowing; helper functions with array parameters
bound to size symbols, arguments that are views of one array, writes through parameters, results
that are views of parameters, several results (`let (r1, r2) = h1(a, a[::-1], 0.5);`); several
results of the entry function (arrays and scalars).

The operations of issue 13, mixed with all of the above (their operands and targets are views with
negative steps, variables aliasing one base, helper parameters, statements in loops and ifs):
gathers `x[idx]`, and NumPy's advanced indexing with whole slices and an integer beside one index
array (`x[:, idx]`, `x[0, idx, :]`, `x[idx, :, -1]`: the index axis in the run's place or first,
`advanced_shape`), in reads and in assignments; gathers with 2-d and 3-d index arrays (`x[idx2]`: the
index shape in place of axis 0, `x[i2, j]` with j of i2's shape or of its trailing size, broadcast
together; `gather_nd`) and `take(x, idx, axis=k)` (NumPy's `np.take`, axis k negative too, no `axis=`
for a 1-d x, 1-d to 3-d idx in place of axis k); scans `cumsum(x)`, `cumprod(x)` (1-d) and `axis=k` (negative too; cumprod of
`x * 0.25 + 1.0` for floats, so products stay in range); `argmin`/`argmax` of a whole array (the
row-major position, also of reversed and strided views) and with `axis=k`, also of bool arrays;
scatters `x[idx] = v` and `x[i, j] = v` (index arrays with repeated indices: the last write wins;
v broadcast, v and idx may read x), `add_at(x, idx, v)` and `add_at(x, (i, j), v)` / `add_at(x, (i, j,
k), v)` with a tuple of index arrays, 1-d or 2-d, broadcast together (`add_at_tuple`); index arrays are
`(arange(k) * c + o) % n` (n-d: an outer sum of one `arange` per axis, `arange(k0)[:, newaxis] * c0 +
arange(k1) * c1`), `abs(e) % n` of a generated i64 array e, or `argmin(a, axis=-1)` of a generated
(k, n) or (k0, k1, n) array, minus n for negative indices, so every index is in range; filters
`x[mask]` (a mask of x's k leading axes: 1-d along axis 0, up to x's rank: the elements in
row-major order), `compress(mask, x)` and
`bincount(idx)`, whose results have a run-time size `?`: they are only reduced (whole, or along
axis 0 to a static shape: `sum(x[m], axis=0)`, `argmax(x[m], axis=0)`), scanned, combined with a
literal, bound to variables (`let f3 = x[m];`) and returned by main as `f64[?]` / `f64[?, m]`;
masked writes `x[m] = s`, `x[m] op= s`, `x[m] = y[m] op s`, `x[m] = row` (masks of any rank
up to x's); `bincount(idx, minlength=m)` and `bincount(idx, w, minlength=m)`
with every index below m (size m, which the checker only knows as `?`, combined with arrays of size
m); `dot(a, b)` and `a @ b` (vector.vector, matrix.vector, vector.matrix, matrix.matrix). Integer
and bool arrays of every result dtype take part (cumsum of bool is i64, argmin is i64, ...).
In-place operators on f32 scalar variables (`let s = f32(...); s -= e;`, `st_f32_update`, and `s op= e`
in `st_scal_update`): with an f64 (or i64) value `op(s, e)` is computed in f64 and cast back to f32
once, as arrayc keeps a scalar variable's dtype (`s = np.float32(np.float64(s) - e)`; `f32_inplace`);
with a weak float literal NumPy computes in f32 (`np.float32(s) - 0.5` is f32; `f32_inplace_lit`).
`features(arr, marks)` counts these operations in a program (`differential.py` prints the tally).

How a program is kept fair (NumPy and arrayc must agree up to rtol 1e-9 / atol 1e-12 for f64,
exactly for i64 and bool): the generator runs the program while it writes it. Every candidate
statement is executed by an *instrumented* NumPy translation (helpers `_v`, `_cmp`, `_trunc`, ...
in `Helpers`) that rejects the statement when a value is not finite or too large (|x| > 1e4 for
floats, > 2**31 for integers: no overflow anywhere), when an integer is divided by zero or raised
to a negative power, when a comparison, a float->int/bool cast, a float `%` or an arg-reduction (the
winner against every other element of its lane) of values that are not computed exactly (sums,
scans, dot products, weighted bincounts, transcendental functions, linspace, ...) comes within a
small margin of its decision point, or when NumPy raises anything (min/max/argmin of an empty
filter result, the mean of one: a warning, an error here). Finally the whole program is run twice more
with every inexact operation perturbed by more than its rounding error can differ between
implementations (summation order, libm ulps; float scans, dot products and weighted bincounts
count as sums); the program is kept only when these runs agree with
the plain one to well within the comparison tolerance (integers and bools exactly), and when the
clean translation gives bit-identical results to the instrumented one. Otherwise the next attempt
(`seed`, attempt k) is generated.

Operations avoided on purpose (semantics known to differ from NumPy, tracked separately, or
documented deviations): float->int casts of NaN/inf/huge values, `%` with negative or zero float
divisors, `minimum`/`maximum` on signed zeros (only observable through division, which is guarded),
integer `**` with negative exponents, min/max of empty arrays (no size is ever 0), integer division
by zero, integer overflow, arithmetic between two bools (arrayc promotes to i64, NumPy keeps bool or
raises: documented in docs/language.md), math functions of bool arrays (NumPy gives float16).

Language features the generator does NOT use because `arrayc check` rejects programs that are
valid (and mean something) in NumPy; found while writing the generator:
  * slice bounds that clip (`x[0:n+5]`, `x[-100:3]` with a symbolic size n): the checker types
    `x[0:n+5]` as `f64[n+5]` (NumPy: n elements) and `x[-100:3]` as `f64[-n+103]`, so combining the
    view with an array of size n fails with E0401 "shapes [n+5] and [n] cannot be broadcast
    together". Only in-range bounds are generated.
  * broadcasting a dimension that is 1 at run time against a larger one when both sizes have the
    same symbols (`x[:-6] + x` with `x: f64[n]`, n = 7: sizes n-6 and n; `a[:-1]` of a strided
    view, sizes ?4-1 and ?4): E0401 "shapes [n-6] and [n] cannot be broadcast together", although
    the sizes are not provably incompatible (n-6 may be 1). The size-1 side of a broadcast is
    always a literal 1 (newaxis, `x[2:3]`) or a plain size parameter (see `one_broadcasts`).
  * assigning to a size parameter (`n = 3;` in `fn f(n: i64) -> f64[n]`): E0205 "size symbol `n`
    in the result type is not bound by any parameter". Parameters are never assigned.
  * a size with a leading minus in a type (`f64[-n+7]`, the form the checker itself prints in its
    messages): E0101 "unexpected `-`". Sizes are written `7-n`.
Not used because they are errors in NumPy too or have no single NumPy meaning: bool - bool, unary
minus of bool, `~`/`&`/`|` on integers (E0301), `i64_array += 1.5` (E0304).

KNOWN_BUGS lists the compiler bugs this generator found; `generate(seed, avoid=tags)` leaves
their triggers out, to look for other bugs while those are open.

Reproducing a failure: `python3 tests/fuzz/arrgen.py SEED [--max-stmts K] [--avoid-known]`
prints the program and its NumPy translation; `python3 tests/fuzz/differential.py --count 1 --seed
SEED` runs it under every configuration and saves it (see differential.py).
"""
import copy
import math
import operator
import random
import sys
import warnings
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[2]
REFERENCE = REPO / "examples" / "reference"  # arrayc_random.py, the NumPy model of `random`
if str(REFERENCE) not in sys.path:
    sys.path.insert(0, str(REFERENCE))

NP = {"f64": np.float64, "f32": np.float32, "i64": np.int64, "bool": np.bool_}
NPN = {"f64": "np.float64", "f32": "np.float32", "i64": "np.int64", "bool": "np.bool_"}
DT_OF = {np.dtype(np.float64): "f64", np.dtype(np.float32): "f32", np.dtype(np.int64): "i64",
         np.dtype(np.bool_): "bool"}
NUM = ("f64", "f32", "i64")
FLOAT = ("f64", "f32")

# Comparison tolerances of the differential test (differential.py and the pytest use these).
TOL = {"f64": (1e-9, 1e-12), "f32": (1e-4, 1e-5)}
# The agreement the generator demands between the plain and the perturbed run of a program.
SELF_TOL = {"f64": (1e-10, 1e-13), "f32": (1e-5, 1e-6)}

FLOAT_LIMIT = 1e4
INT_LIMIT = 2 ** 31


# Compiler bugs found with this generator (issue 10 report), by tag. `generate(seed, avoid=...)`
# and `differential.py --avoid-known` leave their triggers out, so that other bugs stay visible
# while these are open (the tags change the programs generated for a seed). The first four were fixed
# in commits 56560d5 and ac2e703; a bug found later gets a tag and a guard here while it is open.
# "f32-inplace-literal" (found while adding f32 scalar updates; the differential test rarely sees it,
# an f32 ulp is within its tolerance, but `s > 0.0` after `s = f32(0.3); s -= 0.3;` differs) was
# fixed on 2026-11-26 (test_inplace_scalars.py).
KNOWN_BUGS = {
    "linspace-1": "linspace(a, b, 1) gives [nan] (NumPy: [a])",
    "rebind-in-if": "an array variable rebound in one arm of an if/else: wrong result when that arm "
                    "runs, internal error 'value used after arr.del' when the other runs",
    "dead-axis-reduce": "an unused `let b = sum(a, axis=0);` inside a for/if body, or an unused axis reduction "
                        "of an axis reduction: internal error 'the output %v0 of a reduction must be a kernel "
                        "parameter'",
    "call-alias": "a function result that aliases an argument (`fn h(x: f64[N]) -> f64[N] { return x; }`, "
                  "`let r = h(a); r[2:4] += a[3:1:-1];`): the overlap between r and a is ignored when fusing "
                  "(optimal, linear, optimal-baseline)",
    "f32-inplace-literal": "`s op= 0.3;` on an f32 scalar variable with a weak float literal is computed in f64 "
                           "and rounded (`let b = f32(1.7); b *= 0.3;` gives 0.51); NumPy, and `b = b * 0.3;` in "
                           "arrayc, compute in f32 (0.51000005): an f32 ulp",
}


class Reject(Exception):
    """A candidate statement (or program) is not well-conditioned; generate another one."""


# ---------------------------------------------------------------------------------------------
# Sizes: concrete value plus the affine form the checker infers (None when it cannot).

class Aff:
    """An affine size expression: const + sum(coeff * symbol)."""

    __slots__ = ("const", "terms")

    def __init__(self, const=0, terms=()):
        self.const = int(const)
        self.terms = tuple(sorted((n, c) for n, c in terms if c != 0))

    @staticmethod
    def sym(name):
        return Aff(0, ((name, 1),))

    def _combine(self, other, sign):
        if other is None:
            return None
        if isinstance(other, int):
            other = Aff(other)
        d = dict(self.terms)
        for n, c in other.terms:
            d[n] = d.get(n, 0) + sign * c
        return Aff(self.const + sign * other.const, d.items())

    def __add__(self, other):
        return self._combine(other, 1)

    def __sub__(self, other):
        return self._combine(other, -1)

    def __eq__(self, other):
        return isinstance(other, Aff) and (self.const, self.terms) == (other.const, other.terms)

    def __hash__(self):
        return hash((self.const, self.terms))

    def render(self):
        """Positive terms first (the type grammar has no leading unary minus): `n0+n1-2`, `7-n1`."""
        pos = [(n, c) for n, c in self.terms if c > 0]
        neg = [(n, c) for n, c in self.terms if c < 0]
        text = ""
        for n, c in pos:
            text += ("+" if text else "") + (n if c == 1 else f"{c}*{n}")
        if self.const > 0 or not text:
            text += ("+" if text else "") + str(self.const) if self.const >= 0 else ""
        if self.const < 0:
            text = (text + "-" + str(-self.const)) if text else str(self.const)
        for n, c in neg:
            text += "-" + (n if c == -1 else f"{-c}*{n}")
        return text

    def subst(self, mapping):
        """Replace symbols by affine forms (mapping name -> Aff or None); None if any is None."""
        out = Aff(self.const)
        for n, c in self.terms:
            if n not in mapping:
                out = out + Aff(0, ((n, c),))
                continue
            m = mapping[n]
            if m is None:
                return None
            for _ in range(abs(c)):
                out = (out + m) if c > 0 else (out - m)
        return out

    def pure_symbol(self):
        return self.const == 0 and len(self.terms) == 1 and self.terms[0][1] == 1


class Dim:
    __slots__ = ("n", "s")

    def __init__(self, n, s):
        self.n = int(n)
        self.s = s

    def __repr__(self):
        return f"Dim({self.n}, {self.s.render() if self.s else None})"


def lit_dim(n):
    return Dim(n, Aff(n))


def advanced_shape(kinds, slice_dims, kdim):
    """NumPy's result shape of an advanced index whose entries are `kinds` ("A": an index array of
    size kdim, "I": an integer, "S": a whole slice; slice_dims: the sizes of the "S" entries in
    order): the index axis takes the place of the run of "A"/"I" entries when they are adjacent,
    else it comes first."""
    adv = [i for i, k in enumerate(kinds) if k in "AI"]
    slices = list(slice_dims)
    if adv == list(range(adv[0], adv[-1] + 1)):
        before = sum(1 for k in kinds[:adv[0]] if k == "S")
        return tuple(slices[:before]) + (kdim,) + tuple(slices[before:])
    return (kdim,) + tuple(slices)


def dim_text(d):
    return d.s.render() if d.s is not None else str(d.n)


def conc(shape):
    return tuple(d.n for d in shape)


# ---------------------------------------------------------------------------------------------
# Expressions: each node carries its arrayc text, its clean NumPy text and its instrumented
# NumPy text, and its static type.

class E:
    __slots__ = ("arr", "py", "pyi", "dt", "shape", "exact", "lit", "view_of")

    def __init__(self, arr, py, pyi, dt, shape, exact, lit=False, view_of=None):
        self.arr, self.py, self.pyi = arr, py, pyi
        self.dt = dt
        self.shape = shape  # tuple of Dim, or None for a scalar
        self.exact = exact or dt in ("i64", "bool")
        self.lit = lit  # a (weak) literal
        self.view_of = view_of  # storage id when the expression is a pure view of a variable

    @property
    def scalar(self):
        return self.shape is None


class Var:
    __slots__ = ("name", "dt", "shape", "storage", "exact", "param", "loopvar")

    def __init__(self, name, dt, shape, storage=None, exact=True, param=False, loopvar=None):
        self.name, self.dt, self.shape = name, dt, shape
        self.storage = storage
        self.exact = exact
        self.param = param
        self.loopvar = loopvar  # (lo, hi) for a loop variable

    @property
    def scalar(self):
        return self.shape is None


class Env:
    def __init__(self, tag=""):
        self.vars = {}  # name -> Var
        self.storages = {}  # id -> dict(exact=bool, written=bool)
        self.counter = 0
        self.next_storage = 0
        self.tag = tag  # prefix of local names (helper functions: `h1_`)
        self.filters = {}  # name -> (dtype, shape after axis 0, exact): results of run-time size `?`

    def fresh(self, prefix):
        self.counter += 1
        return f"{self.tag}{prefix}{self.counter}"

    def new_storage(self, exact):
        self.next_storage += 1
        self.storages[self.next_storage] = dict(exact=exact, written=False)
        return self.next_storage

    def arrays(self):
        return [v for v in self.vars.values() if not v.scalar]

    def scalars(self):
        return [v for v in self.vars.values() if v.scalar]


def dummy(e):
    if e.lit:
        return {"i64": 1, "f64": 1.0, "bool": True, "f32": 1.0}[e.dt]
    if e.scalar:
        return NP[e.dt](1)
    return np.ones(1, NP[e.dt])


def infer_dt(fn, *operands):
    """The NumPy result dtype of fn applied to operands of these types (None if NumPy refuses,
    or gives a dtype outside the language)."""
    if any(o is None for o in operands):
        return None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            r = fn(*[dummy(o) for o in operands])
    except Exception:
        return None
    if type(r) in (bool, int, float):  # only literals: Python's own type
        return {bool: "bool", int: "i64", float: "f64"}[type(r)]
    return DT_OF.get(np.asarray(r).dtype)


def one_broadcasts(one, other):
    """Whether `arrayc check` accepts broadcasting dimension `one` (concrete size 1) against
    `other` (concrete size != 1). The checker treats sizes with the same symbols and different
    constants (`n-6` vs `n`, `?4-1` vs `?4`) as provably incompatible even when the first is 1 at
    run time (see the report), so such pairs are avoided: the size-1 side must be a literal 1 or a
    plain size symbol (a parameter whose value is 1), and not the same symbol as the other side."""
    if one.s is None:
        return False
    if one.s == Aff(1):
        return True
    if not one.s.pure_symbol():
        return False
    return other.s is None or one.s.terms != other.s.terms


def bshape(a, b):
    """Broadcast shape of two shapes (tuples of Dim; None = scalar); False when incompatible
    (or when the checker would wrongly reject it, see one_broadcasts)."""
    if a is None:
        return b
    if b is None:
        return a
    out = []
    for i in range(1, max(len(a), len(b)) + 1):
        da = a[-i] if i <= len(a) else None
        db = b[-i] if i <= len(b) else None
        if da is None or db is None:
            out.append(da or db)
        elif da.n == db.n:
            if da.s == db.s:
                s = da.s
            elif db.s == Aff(1) and da.n == 1:
                s = da.s
            elif da.s == Aff(1) and da.n == 1:
                s = db.s
            else:
                s = None
            out.append(Dim(da.n, s))
        elif da.n == 1 and one_broadcasts(da, db):
            out.append(Dim(db.n, db.s if da.s == Aff(1) else None))
        elif db.n == 1 and one_broadcasts(db, da):
            out.append(Dim(da.n, da.s if db.s == Aff(1) else None))
        else:
            return False
    return tuple(reversed(out))


def safe_one(d):
    """A size-1 dimension the checker lets broadcast against any other size."""
    return d.s is not None and (d.s == Aff(1) or d.s.pure_symbol())


def matches(shape, S):
    """shape has the concrete sizes of S, and its size-1 dimensions where S asks for a
    broadcastable 1 are ones the checker accepts as such."""
    if shape is None or conc(shape) != conc(S):
        return False
    return all(safe_one(d) for d, t in zip(shape, S) if t.s == Aff(1))


def fits(value_shape, target_shape):
    """Whether a value of value_shape can be written into a view of target_shape."""
    if value_shape is None:
        return True
    if target_shape is None:
        return False
    if len(value_shape) > len(target_shape):
        return False
    b = bshape(target_shape, value_shape)
    return b is not False and conc(b) == conc(target_shape)


# ---------------------------------------------------------------------------------------------
# Instrumented evaluation helpers (namespace of the instrumented translation).

class Helpers:
    """`check` mode: plain NumPy values plus the rejection checks. `perturb` mode: in addition every
    inexact operation is perturbed by about the difference another correct implementation may have."""

    def __init__(self, mode="check", seed=0):
        self.perturb = mode == "perturb"
        self.rng = np.random.default_rng(seed)

    def namespace(self):
        ns = {"np": np}
        for name in ("_v", "_cmp", "_trunc", "_tobool", "_dz", "_fmod", "_red", "_fn", "_pow", "_ipow", "_lin",
                     "_scan", "_arg", "_dot", "_binc"):
            ns[name] = getattr(self, name)
        from arrayc_random import random as _random

        ns["_random"] = _random
        ns["_diag"] = diag_view
        return ns

    # --- checks
    @staticmethod
    def _v(x):
        a = np.asarray(x)
        if a.dtype.kind == "f":
            if not np.all(np.isfinite(a)) or (a.size and np.max(np.abs(a)) > FLOAT_LIMIT):
                raise Reject("float out of range")
        elif a.dtype.kind == "i":
            if a.size and np.max(np.abs(a)) > INT_LIMIT:
                raise Reject("int out of range")
        return x

    @staticmethod
    def _margin(*xs):
        return 1e-3 if any(np.asarray(x).dtype == np.float32 for x in xs) else 1e-9

    def _cmp(self, a, b, op, exact):
        r = {"<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge,
             "==": operator.eq, "!=": operator.ne}[op](a, b)
        if not exact:
            fa, fb = np.asarray(a, np.float64), np.asarray(b, np.float64)
            scale = np.maximum(1.0, np.maximum(np.abs(fa), np.abs(fb)))
            if np.any(np.abs(fa - fb) <= self._margin(a, b) * scale):
                raise Reject("near tie in a comparison")
        return r

    def _trunc(self, x, exact):
        a = np.asarray(x, np.float64)
        if not np.all(np.isfinite(a)) or np.any(np.abs(a) >= INT_LIMIT):
            raise Reject("cast out of range")
        if not exact:
            r = np.round(a)
            if np.any((r != 0) & (np.abs(a - r) <= self._margin(x) * np.maximum(1.0, np.abs(a)))):
                raise Reject("float->int cast near an integer")
        return x

    def _tobool(self, x, exact):
        a = np.asarray(x)
        if a.dtype.kind == "f" and not exact:
            if np.any(np.abs(a) <= self._margin(x)):
                raise Reject("float->bool cast near zero")
        return x

    @staticmethod
    def _dz(x):
        a = np.asarray(x)
        if np.any(np.abs(a.astype(np.float64)) < (1e-2 if a.dtype.kind == "f" else 1)):
            raise Reject("division by (nearly) zero")
        return x

    def _noise(self, r, scale):
        """r plus a uniform perturbation of magnitude `scale` (elementwise), same dtype/kind."""
        a = np.asarray(r)
        p = a + np.asarray(scale) * self.rng.uniform(-1.0, 1.0, a.shape)
        p = p.astype(a.dtype)
        return p if isinstance(r, np.ndarray) else p[()]

    @staticmethod
    def _eps(x):
        return np.finfo(np.asarray(x).dtype).eps

    def _fmod(self, a, c):
        q = np.asarray(a, np.float64) / float(c)
        if np.any(np.abs(q - np.round(q)) <= self._margin(a) * np.maximum(1.0, np.abs(q))):
            raise Reject("float % near a multiple of the divisor")
        r = self._v(a % c)
        if self.perturb:
            r = self._noise(r, 2 * self._eps(r) * np.abs(np.asarray(a, np.float64)))
        return r

    def _red(self, kind, x, axis, exact):
        fn = getattr(np, kind)
        if kind == "prod" and np.asarray(x).dtype.kind in "ib":
            est = np.prod(np.abs(np.asarray(x, np.float64)), axis=axis)
            if np.any(est > INT_LIMIT):
                raise Reject("integer product overflows")
        r = fn(x) if axis is None else fn(x, axis=axis)
        r = self._v(r)
        a = np.asarray(r)
        if self.perturb and a.dtype.kind == "f" and kind in ("sum", "mean", "prod"):
            xa = np.asarray(x, np.float64)
            n = xa.size if axis is None else xa.shape[axis]
            eps = self._eps(r)
            if kind == "prod":
                r = self._noise(r, eps * (n + 2) * 0.5 * np.abs(a))
            else:
                s = np.sum(np.abs(xa)) if axis is None else np.sum(np.abs(xa), axis=axis)
                if kind == "mean":
                    s = s / n
                r = self._noise(r, eps * (n + 2) * 0.5 * s)
        return r

    def _fn(self, name, x):
        r = self._v(getattr(np, name)(x))
        if self.perturb:
            r = self._noise(r, 4 * self._eps(r) * np.abs(np.asarray(r, np.float64)))
        return r

    def _pow(self, a, b):
        r = self._v(a ** b)
        if self.perturb and np.asarray(r).dtype.kind == "f":
            r = self._noise(r, 4 * self._eps(r) * np.abs(np.asarray(r, np.float64)))
        return r

    def _ipow(self, a, b):
        fb = np.asarray(b, np.float64)
        if np.any(fb < 0):
            raise Reject("negative integer exponent")
        if np.any(np.abs(np.asarray(a, np.float64)) ** fb > INT_LIMIT):
            raise Reject("integer power overflows")
        return self._v(a ** b)

    def _lin(self, a, b, n):
        r = np.linspace(a, b, n)
        if self.perturb:
            r = self._noise(r, 2 * self._eps(r) * max(abs(a), abs(b)))
        return r

    def _scan(self, kind, x, axis, exact):
        """cumsum / cumprod along axis (an int: the 1-d form is given axis 0)."""
        xa = np.asarray(x)
        if kind == "cumprod" and xa.dtype.kind in "ib":
            if np.any(np.cumprod(np.abs(xa.astype(np.float64)), axis=axis) > INT_LIMIT):
                raise Reject("integer product overflows")
        r = self._v(getattr(np, kind)(x, axis=axis))
        if self.perturb and r.dtype.kind == "f":
            n = xa.shape[axis]
            if kind == "cumsum":
                s = np.cumsum(np.abs(xa.astype(np.float64)), axis=axis)
            else:
                s = np.abs(r.astype(np.float64))
            r = self._noise(r, self._eps(r) * (n + 2) * 0.5 * s)
        return r

    def _arg(self, kind, x, axis, exact):
        """argmin / argmax; rejected when the input is not computed exactly and another element
        comes within the margin of the winning one (a near tie)."""
        xa = np.asarray(x)
        r = getattr(np, kind)(xa, axis=axis)
        if not exact and xa.dtype.kind == "f":
            ext = (np.min if kind == "argmin" else np.max)(xa, axis=axis, keepdims=True)
            f, e = xa.astype(np.float64), ext.astype(np.float64)
            scale = np.maximum(1.0, np.maximum(np.abs(f), np.abs(e)))
            near = np.abs(f - e) <= self._margin(xa) * scale
            if np.any(np.sum(near, axis=axis) > 1):
                raise Reject("near tie in an arg-reduction")
        return r

    def _dot(self, a, b, form):
        """np.dot (form "dot") or `@` (form "@"): the clean translation's own call, since the two
        may round differently (different BLAS paths)."""
        aa, ba = np.asarray(a), np.asarray(b)
        s = np.abs(aa.astype(np.float64)) @ np.abs(ba.astype(np.float64))
        r = np.dot(a, b) if form == "dot" else a @ b
        if np.asarray(r).dtype.kind == "i" and np.any(s > INT_LIMIT):
            raise Reject("integer dot product overflows")
        r = self._v(r)
        if self.perturb and np.asarray(r).dtype.kind == "f":
            r = self._noise(r, self._eps(r) * (aa.shape[-1] + 2) * 0.5 * s)
        return r

    def _binc(self, idx, w, m):
        if w is None:
            return self._v(np.bincount(idx, minlength=m))
        r = self._v(np.bincount(idx, w, minlength=m))
        if self.perturb:
            s = np.bincount(idx, np.abs(np.asarray(w, np.float64)), minlength=m)
            cnt = np.bincount(idx, minlength=m)
            r = self._noise(r, self._eps(r) * (cnt + 2) * 0.5 * s)
        return r


def diag_view(x):
    """A writable view of the main diagonal of a 2-d array (arrayc's `diagonal`; NumPy's own
    `np.diagonal` is read-only)."""
    return np.lib.stride_tricks.as_strided(x, shape=(min(x.shape),), strides=(x.strides[0] + x.strides[1],))


# ---------------------------------------------------------------------------------------------
# Statements: lines of the three renderings (indentation added by blocks).

class Stmt:
    def __init__(self, arr, py, pyi):
        self.arr, self.py, self.pyi = list(arr), list(py), list(pyi)


def indent(lines, n=1):
    return ["    " * n + l for l in lines]


class Program:
    """A generated program: `arr` (arrayc source), `py` (NumPy translation, function `main`),
    `result_types` (declared types, e.g. `f64[n0, 3]`), `params` (name, type, default)."""

    def __init__(self, seed, arr, py, pyi, params, result_types, attempt):
        self.seed, self.arr, self.py, self.pyi = seed, arr, py, pyi
        self.params, self.result_types, self.attempt = params, result_types, attempt

    def numpy_results(self):
        """Runs the NumPy translation; a tuple of NumPy arrays/scalars."""
        ns = {"__name__": f"arrgen_prog_{self.seed}"}
        exec(compile(self.py, f"<numpy translation of seed {self.seed}>", "exec"), ns)
        with np.errstate(all="ignore"):
            out = ns["main"]()
        return out if isinstance(out, tuple) else (out,)


def run_instrumented(pyi, mode, seed=0):
    h = Helpers(mode, seed)
    ns = h.namespace()
    with warnings.catch_warnings(), np.errstate(all="raise"):
        warnings.simplefilter("error")
        exec(pyi, ns)
    return ns


RECOVERABLE = (Reject, FloatingPointError, ValueError, IndexError, TypeError, OverflowError,
               ZeroDivisionError, RuntimeWarning, np.exceptions.AxisError)


# ---------------------------------------------------------------------------------------------

FLOAT_LITS = [0.5, 1.5, 2.0, 0.25, 0.75, 1.25, 3.0, 0.1, 0.3, 1.7, 2.5, 0.125]
INT_LITS = [1, 2, 3, 4, 5]
OPS_CMP = ["<", "<=", ">", ">=", "==", "!="]


class Generator:
    def __init__(self, seed, max_stmts=None, avoid=()):
        self.seed = seed
        self.r = random.Random(seed)
        self.max_stmts = max_stmts
        self.avoid = frozenset(avoid)
        unknown = self.avoid - set(KNOWN_BUGS)
        if unknown:
            raise ValueError(f"unknown bug tags {sorted(unknown)}; known: {sorted(KNOWN_BUGS)}")
        self.in_if = 0
        self.in_helper = False
        self.functions = []  # (arr lines, py lines) of helper functions
        self.loop_depth = 0
        self.block_depth = 0
        self.loopvars = []  # Var of enclosing loops
        # texts of the new operations whose kind cannot be told from the program text by a
        # token (filter reads, scatter and masked-write statements): see `features`
        self.marks = {"filter": set(), "scatter": set(), "scatter2": set(), "mask_write": set(),
                      "gather_mixed": set(), "scatter_mixed": set(), "gather_nd": set(), "add_at_tuple": set(),
                      "f32_inplace": set(), "f32_inplace_lit": set(),
                      "filter_let": set()}
        self.returned_dynamic = 0

    # ---- random helpers
    def chance(self, p):
        return self.r.random() < p

    def pick(self, options):
        """options: list of (weight, value)."""
        total = sum(w for w, _ in options if w > 0)
        x = self.r.random() * total
        for w, v in options:
            if w <= 0:
                continue
            x -= w
            if x <= 0:
                return v
        return options[-1][1]

    # ---- literals
    def float_lit(self, neg=True):
        v = self.r.choice(FLOAT_LITS)
        if neg and self.chance(0.3):
            v = -v
        return v

    def lit(self, dt, neg=True):
        if dt == "bool":
            v = self.chance(0.5)
            return E("true" if v else "false", f"np.{v}_", f"np.{v}_", "bool", None, True, lit=False)
        if dt == "i64":
            v = self.r.choice(INT_LITS)
            if neg and self.chance(0.3):
                v = -v
        else:
            v = self.float_lit(neg)
        t = repr(v) if v >= 0 else f"({v!r})"
        return E(t, t, t, "i64" if dt == "i64" else "f64", None, True, lit=True)

    def threshold(self):
        v = round(self.r.uniform(-1.5, 1.5), 3)
        if v == 0 or abs(v) in (0.5, 1.0, 1.5):
            v += 0.0371
        t = repr(v) if v >= 0 else f"({v!r})"
        return E(t, t, t, "f64", None, True, lit=True)

    # ---- shapes
    def new_shape(self, env):
        rank = self.pick([(0.35, 1), (0.45, 2), (0.2, 3)])
        dims = []
        for _ in range(rank):
            dims.append(self.pick([(0.7, "param"), (0.15, "lit"), (0.15, "paramoff")]))
        out = []
        for kind in dims:
            p = self.r.choice(self.sizes)
            if kind == "param":
                out.append(Dim(p[1], Aff.sym(p[0])))
            elif kind == "paramoff" and p[1] >= 2:
                off = self.r.choice([-1, 1]) if p[1] >= 2 else 1
                out.append(Dim(p[1] + off, Aff.sym(p[0]) + off))
            else:
                out.append(lit_dim(self.r.choice([1, 2, 3, 4])))
        return tuple(out)

    def some_shape(self, env):
        arrs = env.arrays()
        if arrs and self.chance(0.6):
            return self.r.choice(arrs).shape
        return self.new_shape(env)

    def sub_shape(self, S, allow_scalar=True):
        """A shape that broadcasts to S (leading dims dropped, some dims 1), or None (scalar)."""
        if allow_scalar and self.chance(0.15):
            return None
        k = 0 if (len(S) <= 1 or self.chance(0.6)) else self.r.randint(1, len(S) - 1)
        out = []
        for d in S[k:]:
            out.append(lit_dim(1) if (d.n != 1 and self.chance(0.2)) else d)
        return tuple(out)

    # ---- slices and views
    def make_slice(self, d, t, dsym):
        """Subscript text giving t elements of a dimension of size d (no clipping), and its size as
        the checker infers it."""
        r = self.r
        opts = [(0.4, 1), (0.25, -1)]
        for k in (2, 3):
            if (t - 1) * k <= d - 1:
                opts += [(0.1, k), (0.08, -k)]
        if t == d:
            opts += [(0.5, 0)]
        step = self.pick(opts)
        if step == 0:
            return ":", dsym
        if step == -1 and t == d and self.chance(0.5):
            return "::-1", dsym

        def pos(i):  # a position as a nonnegative or a negative literal
            return str(i) if (self.chance(0.55)) else str(i - d)

        if step > 0:
            a = r.randint(0, d - 1 - (t - 1) * step)
            last = a + (t - 1) * step
            b = r.randint(last + 1, min(d, last + step))
            st = "" if (a == 0 and self.chance(0.5)) else pos(a)
            if b == d and self.chance(0.6):
                en = ""
            elif b == d:
                en = str(d)
            else:
                en = pos(b)
            text = f"{st}:{en}" + (f":{step}" if step != 1 or self.chance(0.1) else "")
            if step == 1:
                def sym_of(txt, dflt):
                    if txt == "":
                        return dflt
                    v = int(txt)
                    return Aff(v) if v >= 0 else (dsym + v if dsym is not None else None)
                s0 = sym_of(st, Aff(0))
                s1 = sym_of(en, dsym)
                sym = (s1 - s0) if (s0 is not None and s1 is not None) else None
            else:
                sym = None
            return text, sym
        k = -step
        i0 = r.randint((t - 1) * k, d - 1)
        last = i0 - (t - 1) * k
        stop = r.randint(max(-1, last - k), last - 1)
        st = "" if (i0 == d - 1 and self.chance(0.5)) else pos(i0)
        en = "" if stop == -1 else pos(stop)
        return f"{st}:{en}:{step}", None

    def base_forms(self, var, plain=False):
        """(text_arr, text_py, shape) of the variable, possibly transposed or its diagonal."""
        forms = [(1.0, (var.name, var.name, var.shape))]
        if len(var.shape) >= 2 and not plain:
            rs = tuple(reversed(var.shape))
            forms.append((0.25, (f"{var.name}.T", f"{var.name}.T", rs)))
            forms.append((0.1, (f"transpose({var.name})", f"np.transpose({var.name})", rs)))
        if len(var.shape) == 2 and not plain:
            m = min(var.shape[0].n, var.shape[1].n)
            forms.append((0.08, (f"diagonal({var.name})", f"_diag({var.name})", (Dim(m, None),))))
        return self.pick(forms)

    def render_subscript(self, items):
        """items: list of ('slice', text) / ('int', text) / ('new',); may use `...` and drop
        trailing full slices."""
        items = list(items)
        texts_arr, texts_py = [], []
        # a run of leading or trailing ':' may become '...' (items cover every dimension here)
        ell = None
        if len(items) >= 2 and self.chance(0.25):
            if items[0] == ("slice", ":"):
                j = 0
                while j < len(items) and items[j] == ("slice", ":"):
                    j += 1
                ell = (0, j)
            elif items[-1] == ("slice", ":"):
                j = len(items)
                while j > 0 and items[j - 1] == ("slice", ":"):
                    j -= 1
                ell = (j, len(items))
        if ell is None:
            # otherwise trailing ':' may be left out
            while items and items[-1] == ("slice", ":") and len(items) > 1 and self.chance(0.4):
                items.pop()
        i = 0
        while i < len(items):
            if ell and i == ell[0]:
                texts_arr.append("...")
                texts_py.append("...")
                i = ell[1]
                continue
            it = items[i]
            if it[0] == "new":
                texts_arr.append("newaxis")
                texts_py.append("np.newaxis")
            else:
                texts_arr.append(it[1])
                texts_py.append(it[1])
            i += 1
        return ", ".join(texts_arr), ", ".join(texts_py)

    def view_to_shape(self, var, S):
        """A view expression of var with concrete shape S (tuple of Dim) or None."""
        ba, bp, V = self.base_forms(var)
        items, out = [], []
        j = 0  # source dim pointer
        for tdim in S:
            t = tdim.n
            if t == 1 and self.chance(0.35):
                items.append(("new",))
                out.append(lit_dim(1))
                continue
            # find a source dim (skipping some, which become integer indices)
            cands = [k for k in range(j, len(V)) if V[k].n >= t]
            if not cands:
                if t == 1:
                    items.append(("new",))
                    out.append(lit_dim(1))
                    continue
                return None
            k = cands[0] if self.chance(0.7) else self.r.choice(cands)
            for kk in range(j, k):
                items.append(("int", self.int_index(V[kk].n)))
            text, sym = self.make_slice(V[k].n, t, V[k].s)
            items.append(("slice", text))
            out.append(Dim(t, sym))
            j = k + 1
        for kk in range(j, len(V)):
            items.append(("int", self.int_index(V[kk].n)))
        return self.finish_view(var, ba, bp, items, tuple(out))

    def int_index(self, d):
        # loop variables as indices when they are in range
        for lv in self.loopvars:
            lo, hi = lv.loopvar
            if hi <= d and lo >= 0 and self.chance(0.5):
                return lv.name
            if lo >= 1 and hi - 1 <= d and self.chance(0.2):
                return f"{lv.name} - 1"
        i = self.r.randint(0, d - 1)
        return str(i) if self.chance(0.6) else str(i - d)

    def finish_view(self, var, ba, bp, items, shape):
        if all(it == ("slice", ":") for it in items) and self.chance(0.6):
            return E(ba, bp, bp, var.dt, shape, self.var_exact(var), view_of=var.storage)
        sa, sp = self.render_subscript(items)
        if not shape:  # all integers: an element read, a scalar
            return E(f"{ba}[{sa}]", f"{bp}[{sp}]", f"{bp}[{sp}]", var.dt, None, self.var_exact(var))
        return E(f"{ba}[{sa}]", f"{bp}[{sp}]", f"{bp}[{sp}]", var.dt, shape, self.var_exact(var),
                 view_of=var.storage)

    def random_view(self, var, allow_elem=False, plain=False):
        """A random view of var (any shape)."""
        ba, bp, V = self.base_forms(var, plain)
        items, out = [], []
        for d in V:
            if self.chance(0.15):
                items.append(("new",))
                out.append(lit_dim(1))
            act = self.pick([(0.45, "slice"), (0.35, "full"), (0.2, "int")])
            if act == "int" and (len(out) or allow_elem or d is not V[-1]):
                items.append(("int", self.int_index(d.n)))
            elif act == "full":
                items.append(("slice", ":"))
                out.append(d)
            else:
                t = self.r.randint(1, d.n)
                text, sym = self.make_slice(d.n, t, d.s)
                items.append(("slice", text))
                out.append(Dim(t, sym))
        if not out and not allow_elem:
            items.append(("new",))
            out.append(lit_dim(1))
        return self.finish_view(var, ba, bp, items, tuple(out))

    def var_exact(self, var):
        if var.dt in ("i64", "bool"):
            return True
        if self.loop_depth > 0:
            return False
        if var.scalar:
            return var.exact
        return self.env.storages[var.storage]["exact"]

    # ---- array expressions
    def kind_ok(self, dt, kind):
        return (kind == "any" or (kind == "num" and dt in NUM) or (kind == "float" and dt in FLOAT)
                or (kind == "bool" and dt == "bool") or kind == dt)

    def creation(self, S, kind):
        dims = ", ".join(dim_text(d) for d in S)
        pyd = "(" + ", ".join(dim_text(d) for d in S) + ("," if len(S) == 1 else "") + ")"
        if kind == "bool":
            c = self.pick([(1, "ones"), (1, "zeros"), (1, "full")])
            if c == "full":
                v = self.chance(0.5)
                return E(f"full({dims}, {'true' if v else 'false'})", f"np.full({pyd}, np.{v}_)",
                         f"np.full({pyd}, np.{v}_)", "bool", S, True)
            return E(f"{c}({dims}, dtype=bool)", f"np.{c}({pyd}, dtype=np.bool_)",
                     f"np.{c}({pyd}, dtype=np.bool_)", "bool", S, True)
        opts = [(3, "random"), (1, "full"), (0.6, "ones"), (0.4, "zeros")]
        if len(S) == 1:
            opts += [(2, "arange"), (0.5, "farange")]
            if S[0].n != 1 or "linspace-1" not in self.avoid:
                opts += [(1, "linspace")]
        c = self.pick(opts)
        if kind == "i64" and c in ("random", "linspace", "farange"):
            c = "arange" if len(S) == 1 else "full"
        if c == "random":
            seed = self.r.randint(0, 99)
            a, b = self.pick([(1, (4.0, 2.0)), (1, (2.0, 1.0)), (1, (3.0, 0.5)), (0.5, (1.0, 0.0))])
            arr = f"random({dims}, seed={seed})"
            py = f"_random({dims}, seed={seed})"
            if b:
                arr, py = f"({arr} * {a} - {b})", f"({py} * {a} - {b})"
            return E(arr, py, py, "f64", S, True)
        if c == "full":
            dt = self.pick([(2, "f64"), (1, "i64"), (0.5, "f32")]) if kind in ("num", "any") else kind
            if dt == "f32":
                v = self.float_lit()
                return E(f"full({dims}, {v!r}, dtype=f32)" if v >= 0 else f"full({dims}, ({v!r}), dtype=f32)",
                         f"np.full({pyd}, {v!r}, dtype=np.float32)", f"np.full({pyd}, {v!r}, dtype=np.float32)",
                         "f32", S, True)
            l = self.lit(dt)
            return E(f"full({dims}, {l.arr})", f"np.full({pyd}, {l.py})", f"np.full({pyd}, {l.py})", l.dt, S, True)
        if c in ("ones", "zeros"):
            dt = self.pick([(2, "f64"), (1, "i64"), (0.5, "f32")]) if kind in ("num", "any") else kind
            if dt == "f64" and self.chance(0.5):
                return E(f"{c}({dims})", f"np.{c}({pyd})", f"np.{c}({pyd})", "f64", S, True)
            return E(f"{c}({dims}, dtype={dt})", f"np.{c}({pyd}, dtype={NPN[dt]})",
                     f"np.{c}({pyd}, dtype={NPN[dt]})", dt, S, True)
        d = S[0]
        if c == "arange":
            off = self.r.randint(0, 3)
            if self.chance(0.3) and d.s is not None and d.s.terms:
                lo = self.r.randint(0, 2)
                hi = d.s + lo
                arr, py = f"arange({lo}, {hi.render()})", f"np.arange({lo}, {hi.render()})"
            else:
                arr, py = f"arange({dim_text(d)})", f"np.arange({dim_text(d)})"
            if off:
                arr, py = f"({arr} - {off})", f"({py} - {off})"
            if kind in ("float",):
                arr, py = f"({arr} * 0.5)", f"({py} * 0.5)"
                return E(arr, py, py, "f64", S, True)
            return E(arr, py, py, "i64", S, True)
        if c == "farange":
            start = self.r.choice([-1.0, -0.5, 0.0, 0.25, 0.5])
            step = self.r.choice([0.25, 0.5, -0.25, -0.5])
            stop = start + step * d.n - step / 2
            t = f"arange({start!r}, {stop!r}, {step!r})"
            return E(t, f"np.{t}", f"np.{t}", "f64", (Dim(d.n, None),), True)
        a, b = self.float_lit(), self.float_lit()
        if a == b:
            b = a + 1.0
        return E(f"linspace({a!r}, {b!r}, {dim_text(d)})", f"np.linspace({a!r}, {b!r}, {dim_text(d)})",
                 f"_lin({a!r}, {b!r}, {dim_text(d)})", "f64", S, False)

    def leaf_arr(self, S, kind, focus=None):
        env = self.env
        arrs = [v for v in env.arrays() if self.kind_ok(v.dt, kind)]
        if focus is not None and self.chance(0.6):
            fa = [v for v in arrs if v.storage == focus]
            if fa:
                arrs = fa
        choice = self.pick([(0.35, "var"), (0.4, "view"), (0.25, "new")]) if arrs else "new"
        if choice == "var":
            m = [v for v in arrs if matches(v.shape, S)]
            if m:
                v = self.r.choice(m)
                return E(v.name, v.name, v.name, v.dt, v.shape, self.var_exact(v), view_of=v.storage)
            choice = "view"
        if choice == "view":
            for _ in range(4):
                v = self.r.choice(arrs)
                e = self.view_to_shape(v, S)
                if e is not None and not e.scalar and matches(e.shape, S):
                    return e
        return self.creation(S, kind if kind != "any" else "num")

    def gen_arr(self, S, depth, kind="num", focus=None):
        """An array expression of shape S (tuple of Dim) whose dtype fits kind."""
        if kind == "any":
            kind = "bool" if self.chance(0.15) else "num"
        if depth <= 0 or self.chance(0.2):
            return self.leaf_arr(S, kind, focus)
        for _ in range(4):
            e = (self.gen_bool_arr(S, depth, focus) if kind == "bool" else self.gen_num_arr(S, depth, kind, focus))
            if e is not None and self.kind_ok(e.dt, kind):
                return e
        return self.leaf_arr(S, kind, focus)

    def operand(self, S, depth, kind="num", focus=None, allow_scalar=True):
        sub = self.sub_shape(S, allow_scalar)
        if sub is None:
            return self.gen_scal(depth - 1, kind, allow_lit=True)
        return self.gen_arr(sub, depth - 1, kind, focus)

    def split_operands(self, S, depth, kind="num", focus=None):
        """Two operands whose broadcast is exactly S."""
        if len(S) >= 2 and self.chance(0.25):  # outer-product style: complementary size-1 dims
            la, ra = [], []
            for d in S:
                c = self.pick([(1, "l"), (1, "r"), (1, "b")]) if d.n != 1 else "b"
                la.append(d if c in ("l", "b") else lit_dim(1))
                ra.append(d if c in ("r", "b") else lit_dim(1))
            while len(ra) > 1 and ra[0].n == 1 and self.chance(0.5):
                ra.pop(0)
            a = self.gen_arr(tuple(la), depth - 1, kind, focus)
            b = self.gen_arr(tuple(ra), depth - 1, kind, focus)
        else:
            a = self.gen_arr(S, depth - 1, kind, focus)
            b = self.operand(S, depth, kind, focus)
        if self.chance(0.5):
            a, b = b, a
        return a, b

    def binop(self, op, a, b, shape=None):
        fn = {"+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.truediv,
              "%": operator.mod, "**": operator.pow}[op]
        dt = infer_dt(fn, a, b)
        if dt is None:
            return None
        sh = bshape(a.shape, b.shape)
        if sh is False:
            return None
        if shape is not None and conc(sh) != conc(shape):
            return None
        arr = f"({a.arr} {op} {b.arr})"
        py = f"({a.py} {op} {b.py})"
        exact = a.exact and b.exact
        if op in "+-*":
            pyi = f"_v(({a.pyi} {op} {b.pyi}))"
        elif op == "/":
            pyi = f"_v(({a.pyi} / _dz({b.pyi})))"
        elif op == "%":
            if dt in FLOAT:
                pyi = f"_fmod({a.pyi}, {b.pyi})"
                exact = False
            else:
                pyi = f"_v(({a.pyi} % _dz({b.pyi})))"
        else:  # **
            if dt in FLOAT:
                pyi = f"_pow({a.pyi}, {b.pyi})"
                exact = False
            else:
                pyi = f"_ipow({a.pyi}, {b.pyi})"
        return E(arr, py, pyi, dt, sh, exact)

    def compare(self, a, b, op=None):
        op = op or self.r.choice(OPS_CMP)
        fn = {"<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge,
              "==": operator.eq, "!=": operator.ne}[op]
        dt = infer_dt(fn, a, b)
        sh = bshape(a.shape, b.shape)
        if dt != "bool" or sh is False:
            return None
        ex = a.exact and b.exact
        return E(f"({a.arr} {op} {b.arr})", f"({a.py} {op} {b.py})",
                 f"_cmp({a.pyi}, {b.pyi}, '{op}', {ex})", "bool", sh, True)

    def func(self, name, a):
        fn = getattr(np, name)
        dt = infer_dt(fn, a)
        if dt is None:
            return None
        if name in ("abs", "sqrt"):
            pyi = f"_v(np.{name}({a.pyi}))"
            exact = a.exact
        else:
            pyi = f"_fn('{name}', {a.pyi})"
            exact = False
        return E(f"{name}({a.arr})", f"np.{name}({a.py})", pyi, dt, a.shape, exact)

    def safe_func(self, name, a):
        """A math function applied so that its argument is in its domain (for most values)."""
        if name == "sqrt":
            a = self.func("abs", a) if self.chance(0.7) else a
            return self.func("sqrt", a)
        if name == "log":
            inner = self.func("abs", a)
            if inner is None:
                return None
            one = E("1.0", "1.0", "1.0", "f64", None, True, lit=True)
            return self.func("log", self.binop("+", inner, one))
        if name == "exp" and self.chance(0.5):
            return self.func("exp", self.func("tanh", a) or a)
        return self.func(name, a)

    def cast(self, dt, a):
        if a is None:
            return None
        inner = a.pyi
        if dt in ("i64",) and a.dt in FLOAT:
            inner = f"_trunc({a.pyi}, {a.exact})"
        elif dt == "bool" and a.dt in FLOAT:
            inner = f"_tobool({a.pyi}, {a.exact})"
        if a.scalar:
            py = f"{NPN[dt]}({a.py})"
            pyi = f"{NPN[dt]}({inner})"
        else:
            py = f"({a.py}).astype({NPN[dt]})"
            pyi = f"({inner}).astype({NPN[dt]})"
        exact = a.exact
        return E(f"{dt}({a.arr})", py, pyi, dt, a.shape, exact)

    def where(self, c, a, b):
        dt = infer_dt(np.where, c, a, b)
        if dt is None:
            return None
        sh = bshape(c.shape, a.shape)
        sh = False if sh is False else bshape(sh, b.shape)
        if sh is False or sh is None:
            return None
        return E(f"where({c.arr}, {a.arr}, {b.arr})", f"np.where({c.py}, {a.py}, {b.py})",
                 f"_v(np.where({c.pyi}, {a.pyi}, {b.pyi}))", dt, sh, a.exact and b.exact)

    def minmax(self, name, a, b):
        dt = infer_dt(getattr(np, name), a, b)
        sh = bshape(a.shape, b.shape)
        if dt is None or sh is False:
            return None
        return E(f"{name}({a.arr}, {b.arr})", f"np.{name}({a.py}, {b.py})",
                 f"_v(np.{name}({a.pyi}, {b.pyi}))", dt, sh, a.exact and b.exact)

    def reduce(self, kind, a, axis, out_shape):
        dt = infer_dt(lambda x: getattr(np, kind)(x, axis=0), a)
        if dt is None:
            return None
        exact = a.exact and (kind in ("min", "max") or a.dt in ("i64", "bool") and kind != "mean")
        if axis is None:
            arr, py = f"{kind}({a.arr})", f"np.{kind}({a.py})"
        else:
            arr, py = f"{kind}({a.arr}, axis={axis})", f"np.{kind}({a.py}, axis={axis})"
        pyi = f"_red('{kind}', {a.pyi}, {axis}, {exact})"
        if axis is None or a.shape is None or len(a.shape) == 1:
            out_shape = None
        else:  # the operand's own sizes (as the checker sees them), not the requested ones
            k = axis % len(a.shape)
            out_shape = a.shape[:k] + a.shape[k + 1:]
        return E(arr, py, pyi, dt, out_shape, exact)

    def reduce_axis(self, S, depth, kind, focus):
        k = self.r.randint(0, len(S))
        extra = self.pick([(2, "param"), (1, "lit")])
        p = self.r.choice(self.sizes)
        d = Dim(p[1], Aff.sym(p[0])) if extra == "param" else lit_dim(self.r.randint(1, 4))
        inner_shape = S[:k] + (d,) + S[k:]
        red = self.pick([(3, "sum"), (1, "prod"), (1.5, "min"), (1.5, "max"), (1.5, "mean")])
        a = self.gen_arr(inner_shape, depth - 1, "bool" if self.chance(0.1) else "num", focus)
        if red == "prod" and a.dt in FLOAT:
            a = self.binop("+", self.binop("*", a, E("0.25", "0.25", "0.25", "f64", None, True, lit=True)),
                           E("1.0", "1.0", "1.0", "f64", None, True, lit=True))
        if a is None:
            return None
        rank = len(inner_shape)
        axis = k if self.chance(0.6) else k - rank
        e = self.reduce(red, a, axis, S)
        if e is None or not self.kind_ok(e.dt, kind) or not matches(e.shape, S):
            return None
        return e

    def gather(self, S, depth, kind, focus):
        """`x[idx]`, a gather along axis 0 (issue 13) into shape S: the source has an axis 0 of its
        own size n, the index array `(arange(S[0]) * c + o) % n` (minus n, for negative indices)
        repeats and wraps. An empty source axis with a non-empty index raises IndexError in NumPy
        (and in arrayc); such attempts are regenerated."""
        if not S:
            return None
        p = self.r.choice(self.sizes)
        d = Dim(p[1], Aff.sym(p[0])) if self.chance(0.6) else lit_dim(self.r.randint(1, 4))
        a = self.gen_arr((d,) + tuple(S[1:]), depth - 1, kind, focus)
        if a is None or a.shape is None or len(a.shape) != len(S):
            return None
        n, k = dim_text(a.shape[0]), dim_text(S[0])
        c, o = self.r.randint(1, 5), self.r.randint(0, 6)
        neg = f" - ({n})" if self.chance(0.4) else ""
        idx = f"((arange({k}) * {c} + {o}) % ({n}){neg})"
        idx_py = f"((np.arange({k}) * {c} + {o}) % ({n}){neg})"
        return E(f"{a.arr}[{idx}]", f"({a.py})[{idx_py}]", f"_v(({a.pyi})[{idx_py}])", a.dt,
                 (S[0],) + tuple(a.shape[1:]), a.exact)

    def gather_mixed(self, S, depth, kind, focus):
        """NumPy's advanced indexing into shape S: one index array with whole slices and at most one
        integer beside it (`x[:, idx]`, `x[0, idx, :]`, `x[idx, :, -1]`), the index axis placed by
        NumPy's rule (`advanced_shape`: in the run's place when the index array and the integer are
        adjacent, else first)."""
        if not S:
            return None
        kinds = ["S"] * (len(S) - 1)
        kinds.insert(self.r.randint(0, len(kinds)), "A")
        if self.chance(0.6):
            kinds.insert(self.r.randint(0, len(kinds)), "I")
        adv = [i for i, k in enumerate(kinds) if k in "AI"]
        adjacent = adv == list(range(adv[0], adv[-1] + 1))
        p = sum(1 for k in kinds[:adv[0]] if k == "S") if adjacent else 0
        kdim, slices = S[p], list(S[:p]) + list(S[p + 1:])
        src, it = [], iter(slices)
        for k in kinds:
            if k == "S":
                src.append(next(it))
            elif k == "A":
                q = self.r.choice(self.sizes)
                src.append(Dim(q[1], Aff.sym(q[0])) if self.chance(0.6) else lit_dim(self.r.randint(1, 4)))
            else:
                src.append(lit_dim(self.r.randint(1, 4)))
        if advanced_shape(kinds, slices, kdim) != tuple(S):
            return None
        a = self.gen_arr(tuple(src), depth - 1, kind, focus)
        if a is None or a.shape is None or len(a.shape) != len(src):
            return None
        idx = self.gen_index(kdim, a.shape[kinds.index("A")], max(depth - 1, 0), focus)
        sa, sp, si = self.advanced_entries(kinds, idx, a.shape)
        line = f"{a.arr}[{sa}]"
        self.marks["gather_mixed"].add(line)
        return E(line, f"({a.py})[{sp}]", f"_v(({a.pyi})[{si}])", a.dt, tuple(S), a.exact)

    def advanced_entries(self, kinds, idx, dims):
        """The index entries of `kinds` ("A": the index array idx, "I": a random in-range integer of
        that axis of dims, "S": `:`) as the texts of the arrayc program, the NumPy translation and
        the instrumented one."""
        ents = {"arr": [], "py": [], "pyi": []}
        for ax, k in enumerate(kinds):
            if k == "A":
                texts = (idx.arr, idx.py, idx.pyi)
            elif k == "I":
                j = str(self.r.randint(-dims[ax].n, dims[ax].n - 1))
                texts = (j, j, j)
            else:
                texts = (":", ":", ":")
            for key, t in zip(("arr", "py", "pyi"), texts):
                ents[key].append(t)
        return tuple(", ".join(ents[k]) for k in ("arr", "py", "pyi"))

    # ---- the operations of issue 13 (index arrays, scans, arg-reductions, filters, dot)
    def gen_index(self, kdim, ndim, depth, focus=None, nonneg=False):
        """A 1-d i64 index array of size kdim whose values are positions in a dimension ndim:
        `(arange(k) * c + o) % n`, `abs(e) % n` of a generated i64 array e, or `argmin(a, axis=1)`
        of a generated (k, n) array; minus n (negative indices, they wrap as in NumPy) unless
        nonneg. Indices repeat when k > n or by chance."""
        n, k = dim_text(ndim), dim_text(kdim)
        form = self.pick([(2, "arange"), (1.5, "data"), (0.5, "arg")])
        idx = None
        if form == "arg" and depth > 0:
            a = self.gen_arr((kdim, ndim), depth - 1, "num", focus)
            if a is not None and a.shape is not None and len(a.shape) == 2:
                e = self.argred(self.r.choice(["argmin", "argmax"]), a, self.r.choice([1, -1]))
                if e is not None and e.shape is not None and conc(e.shape) == (kdim.n,):
                    idx = e
        if form == "data" and depth > 0:
            a = self.gen_arr((kdim,), depth - 1, "i64", focus)
            if a is not None and a.dt == "i64" and a.shape is not None and conc(a.shape) == (kdim.n,):
                idx = E(f"(abs({a.arr}) % ({n}))", f"(np.abs({a.py}) % ({n}))", f"(np.abs({a.pyi}) % ({n}))",
                        "i64", a.shape, True)
        if idx is None:
            c, o = self.r.randint(1, 5), self.r.randint(0, 6)
            idx = E(f"((arange({k}) * {c} + {o}) % ({n}))", f"((np.arange({k}) * {c} + {o}) % ({n}))",
                    f"((np.arange({k}) * {c} + {o}) % ({n}))", "i64", (kdim,), True)
        if not nonneg and self.chance(0.35):
            idx = E(f"({idx.arr} - ({n}))", f"({idx.py} - ({n}))", f"({idx.pyi} - ({n}))", "i64", idx.shape, True)
        return idx

    def index_dim(self):
        """The size of an index array: a size parameter or a literal (may exceed the indexed axis)."""
        p = self.r.choice(self.sizes)
        return Dim(p[1], Aff.sym(p[0])) if self.chance(0.5) else lit_dim(self.r.randint(1, 6))

    def index_shape(self, rank):
        """The shape of an n-d index array: `rank` sizes of `index_dim`."""
        return tuple(self.index_dim() for _ in range(rank))

    def gen_index_nd(self, kshape, ndim, depth, focus=None, nonneg=False):
        """An i64 index array of shape kshape (rank 1: `gen_index`) whose values are positions in a
        dimension ndim: `(arange(k0)[:, newaxis] * c0 + arange(k1) * c1 + o) % n` (an outer sum,
        one arange per axis), `abs(e) % n` of a generated i64 array e of shape kshape, or
        `argmin(a, axis=-1)` of a generated kshape + (n,) array; minus n (negative indices) unless
        nonneg."""
        kshape = tuple(kshape)
        if len(kshape) == 1:
            return self.gen_index(kshape[0], ndim, depth, focus, nonneg)
        n, q = dim_text(ndim), len(kshape)
        form = self.pick([(2, "arange"), (1.5, "data"), (0.5, "arg")])
        idx = None
        if form == "arg" and depth > 0:
            a = self.gen_arr(kshape + (ndim,), depth - 1, "num", focus)
            if a is not None and a.shape is not None and len(a.shape) == q + 1:
                e = self.argred(self.r.choice(["argmin", "argmax"]), a, self.r.choice([q, -1]))
                if e is not None and e.shape is not None and conc(e.shape) == conc(kshape):
                    idx = e
        if form == "data" and depth > 0:
            a = self.gen_arr(kshape, depth - 1, "i64", focus)
            if a is not None and a.dt == "i64" and a.shape is not None and conc(a.shape) == conc(kshape):
                idx = E(f"(abs({a.arr}) % ({n}))", f"(np.abs({a.py}) % ({n}))", f"(np.abs({a.pyi}) % ({n}))",
                        "i64", a.shape, True)
        if idx is None:
            terms_arr, terms_py = [], []
            for ax, d in enumerate(kshape):
                c = self.r.randint(1, 5)
                tail = q - 1 - ax  # trailing size-1 axes of this arange
                sub_a = f"[:{', newaxis' * tail}]" if tail else ""
                sub_p = f"[:{', np.newaxis' * tail}]" if tail else ""
                terms_arr.append(f"arange({dim_text(d)}){sub_a} * {c}")
                terms_py.append(f"np.arange({dim_text(d)}){sub_p} * {c}")
            o = self.r.randint(0, 6)
            arr = f"(({' + '.join(terms_arr)} + {o}) % ({n}))"
            py = f"(({' + '.join(terms_py)} + {o}) % ({n}))"
            idx = E(arr, py, py, "i64", kshape, True)
        if not nonneg and self.chance(0.35):
            idx = E(f"({idx.arr} - ({n}))", f"({idx.py} - ({n}))", f"({idx.pyi} - ({n}))", "i64", idx.shape, True)
        return idx

    def gather_nd(self, S, depth, kind, focus):
        """A gather into shape S with n-d index arrays (NumPy's integer-array indexing: the index
        shape in place of the indexed axes): `x[idx]` with a 2-d or 3-d idx (shape
        `idx.shape + x.shape[1:]`), or `x[i, j]` with a 2-d i and a j of its shape or of its
        trailing size (broadcast together: `broadcast(i.shape, j.shape) + x.shape[2:]`)."""
        if len(S) < 2:
            return None
        q = 3 if (len(S) >= 3 and self.chance(0.25)) else 2
        kshape = tuple(S[:q])
        two = self.chance(0.4)
        src = [self.index_dim() for _ in range(2 if two else 1)]
        a = self.gen_arr(tuple(src) + tuple(S[q:]), depth - 1, kind, focus)
        if a is None or a.shape is None or len(a.shape) != len(src) + len(S) - q:
            return None
        i0 = self.gen_index_nd(kshape, a.shape[0], max(depth - 1, 0), focus)
        if two:
            jshape = kshape if self.chance(0.5) else kshape[1:]
            i1 = self.gen_index_nd(jshape, a.shape[1], max(depth - 1, 0), focus)
            ish = bshape(i0.shape, i1.shape)
            if ish is False:
                return None
            sa, sp, si = f"{i0.arr}, {i1.arr}", f"{i0.py}, {i1.py}", f"{i0.pyi}, {i1.pyi}"
            rest = tuple(a.shape[2:])
        else:
            ish = i0.shape
            sa, sp, si = i0.arr, i0.py, i0.pyi
            rest = tuple(a.shape[1:])
        shape = tuple(ish) + rest
        if not matches(shape, S):
            return None
        line = f"{a.arr}[{sa}]"
        self.marks["gather_nd"].add(line)
        return E(line, f"({a.py})[{sp}]", f"_v(({a.pyi})[{si}])", a.dt, shape, a.exact)

    def take_expr(self, S, depth, kind, focus):
        """`take(x, idx, axis=k)` (NumPy's `np.take`) into shape S: the index array (1-d, 2-d or
        3-d, negative and repeated indices) takes the place of axis k of x, shape
        `x.shape[:k] + idx.shape + x.shape[k+1:]`; k negative too; no `axis=` for a 1-d x."""
        if not S:
            return None
        q = self.pick([(2, 1), (1 if len(S) >= 2 else 0, 2), (0.3 if len(S) >= 3 else 0, 3)])
        k = self.r.randint(0, len(S) - q)
        p = self.r.choice(self.sizes)
        d = Dim(p[1], Aff.sym(p[0])) if self.chance(0.6) else lit_dim(self.r.randint(1, 4))
        xshape = tuple(S[:k]) + (d,) + tuple(S[k + q:])
        a = self.gen_arr(xshape, depth - 1, kind, focus)
        if a is None or a.shape is None or len(a.shape) != len(xshape):
            return None
        idx = self.gen_index_nd(tuple(S[k:k + q]), a.shape[k], max(depth - 1, 0), focus)
        shape = tuple(a.shape[:k]) + tuple(idx.shape) + tuple(a.shape[k + 1:])
        if not matches(shape, S):
            return None
        r = len(xshape)
        if r == 1 and self.chance(0.3):
            ax_a, ax_p = "", ""
        else:
            axis = k if self.chance(0.6) else k - r
            ax_a = ax_p = f", axis={axis}"
        line = f"take({a.arr}, {idx.arr}{ax_a})"
        if len(idx.shape) >= 2:
            self.marks["gather_nd"].add(line)
        return E(line, f"np.take({a.py}, {idx.py}{ax_p})", f"_v(np.take({a.pyi}, {idx.pyi}{ax_p}))", a.dt,
                 shape, a.exact)

    def argred(self, kind, a, axis):
        """argmin / argmax of a (whole array when axis is None): i64."""
        if a is None or a.scalar or a.dt not in ("f64", "f32", "i64", "bool"):
            return None
        if axis is None:
            arr, py = f"{kind}({a.arr})", f"np.{kind}({a.py})"
            shape = None
        else:
            arr, py = f"{kind}({a.arr}, axis={axis})", f"np.{kind}({a.py}, axis={axis})"
            k = axis % len(a.shape)
            shape = (a.shape[:k] + a.shape[k + 1:]) or None
        return E(arr, py, f"_arg('{kind}', {a.pyi}, {axis}, {a.exact})", "i64", shape, True)

    def arg_axis(self, S, depth, kind, focus):
        """`argmin(a, axis=k)` / `argmax(a, axis=k)` of shape S."""
        if not self.kind_ok("i64", kind):
            return None
        k = self.r.randint(0, len(S))
        p = self.r.choice(self.sizes)
        d = Dim(p[1], Aff.sym(p[0])) if self.chance(0.7) else lit_dim(self.r.randint(1, 4))
        inner = S[:k] + (d,) + S[k:]
        a = self.gen_arr(inner, depth - 1, "bool" if self.chance(0.15) else "num", focus)
        axis = k if self.chance(0.6) else k - len(inner)
        e = self.argred(self.r.choice(["argmin", "argmax"]), a, axis)
        if e is None or not matches(e.shape, S):
            return None
        return e

    def bounded_for_prod(self, a):
        """a * 0.25 + 1.0 for a float a (keeps products of a few elements in range)."""
        if a is None or a.dt not in FLOAT:
            return a
        q = E("0.25", "0.25", "0.25", "f64", None, True, lit=True)
        one = E("1.0", "1.0", "1.0", "f64", None, True, lit=True)
        return self.binop("+", self.binop("*", a, q), one)

    def scan(self, S, depth, kind, focus):
        """`cumsum(a)` / `cumprod(a)` of a 1-d a, or with `axis=k` (negative too)."""
        name = self.pick([(3, "cumsum"), (1.2, "cumprod")])
        a = self.gen_arr(S, depth - 1, "bool" if self.chance(0.1) else ("float" if kind == "float" else "num"), focus)
        if name == "cumprod":
            a = self.bounded_for_prod(a)
        if a is None or a.scalar:
            return None
        dt = infer_dt(np.cumsum, a)
        if dt is None or not self.kind_ok(dt, kind):
            return None
        rank = len(a.shape)
        if rank == 1 and self.chance(0.6):
            arr, py, axis = f"{name}({a.arr})", f"np.{name}({a.py})", 0
        else:
            k = self.r.randint(0, rank - 1)
            axis = k if self.chance(0.6) else k - rank
            arr, py = f"{name}({a.arr}, axis={axis})", f"np.{name}({a.py}, axis={axis})"
        exact = a.exact and dt == "i64"
        return E(arr, py, f"_scan('{name}', {a.pyi}, {axis}, {exact})", dt, a.shape, exact)

    def matmul(self, a, b):
        """`dot(a, b)` or `a @ b` of 1-d / 2-d numeric operands (inner sizes equal)."""
        if a is None or b is None or a.scalar or b.scalar or len(a.shape) > 2 or len(b.shape) > 2:
            return None
        if a.dt == "bool" or b.dt == "bool":
            return None
        inner_b = b.shape[0] if len(b.shape) == 1 else b.shape[-2]
        if a.shape[-1].n != inner_b.n:
            return None
        dt = infer_dt(np.matmul, a, b)
        if dt is None:
            return None
        shape = a.shape[:-1] + (b.shape[1:] if len(b.shape) == 2 else ())
        form = "dot" if self.chance(0.5) else "@"
        if form == "dot":
            arr, py = f"dot({a.arr}, {b.arr})", f"np.dot({a.py}, {b.py})"
        else:
            arr, py = f"({a.arr} @ {b.arr})", f"({a.py} @ {b.py})"
        exact = a.exact and b.exact and dt == "i64"
        return E(arr, py, f"_dot({a.pyi}, {b.pyi}, '{form}')", dt, shape or None, exact)

    def dot_expr(self, S, depth, kind, focus):
        """A matrix product of shape S (rank 1: matrix @ vector or vector @ matrix; rank 2)."""
        if len(S) > 2:
            return None
        p = self.r.choice(self.sizes)
        K = Dim(p[1], Aff.sym(p[0])) if self.chance(0.7) else lit_dim(self.r.randint(1, 4))
        sub = "float" if kind == "float" else "num"
        if len(S) == 2:
            ash, bsh = (S[0], K), (K, S[1])
        elif self.chance(0.5):
            ash, bsh = (S[0], K), (K,)
        else:
            ash, bsh = (K,), (K, S[0])
        e = self.matmul(self.gen_arr(ash, depth - 1, sub, focus), self.gen_arr(bsh, depth - 1, sub, focus))
        if e is None or not self.kind_ok(e.dt, kind) or not matches(e.shape, S):
            return None
        return e

    def bincount_expr(self, S, depth, kind, focus):
        """`bincount(idx, minlength=m)` (i64) or `bincount(idx, w, minlength=m)` (f64) with every
        index in [0, m): the result has m elements, a size the checker only knows as `?` (so the
        dimension carries no symbol)."""
        if len(S) != 1:
            return None
        m = S[0]
        weights = self.chance(0.5) if kind in ("num", "any") else self.kind_ok("f64", kind)
        if not self.kind_ok("f64" if weights else "i64", kind):
            return None
        kdim = self.index_dim()
        idx = self.gen_index(kdim, m, depth - 1, focus, nonneg=True)
        mt = dim_text(m)
        if weights:
            w = self.gen_arr((kdim,), depth - 1, "num", focus)
            if w is None or w.dt == "bool" or w.shape is None or conc(w.shape) != (kdim.n,):
                return None
            e = E(f"bincount({idx.arr}, {w.arr}, minlength={mt})", f"np.bincount({idx.py}, {w.py}, minlength={mt})",
                  f"_binc({idx.pyi}, {w.pyi}, {mt})", "f64", (Dim(m.n, None),), False)
        else:
            e = E(f"bincount({idx.arr}, minlength={mt})", f"np.bincount({idx.py}, minlength={mt})",
                  f"_binc({idx.pyi}, None, {mt})", "i64", (Dim(m.n, None),), True)
        return e if matches(e.shape, S) else None

    def filter_expr(self, shape, depth, focus, kind="num"):
        """An expression of run-time size along axis 0 (`?`): `x[mask]` (a 1-d mask along axis 0,
        or a 2-d mask of a matrix: its elements in row-major order), `compress(mask, x)`, a filter
        result variable, `bincount(idx)` without minlength; maybe scanned or combined with a scalar.
        Returns (E with shape None, the shape after axis 0) or None; never sized statically."""
        env = self.env
        d = shape[0]
        opts = [(3, "mask"), (2 if len(shape) == 1 else 0, "compress"), (0.6, "bincount")]
        if len(shape) >= 2:
            opts.append((1.2, "maskk"))
        fvars = [n for n, (dt, R, ex) in env.filters.items() if self.kind_ok(dt, kind) or kind == "any"]
        if fvars:
            opts.append((1, "var"))
        form = self.pick(opts)
        if form == "var":
            name = self.r.choice(fvars)
            dt, R, ex = env.filters[name]
            f = E(name, name, name, dt, None, ex and self.loop_depth == 0)
        elif form == "bincount":
            kdim = self.index_dim()
            idx = self.gen_index(kdim, lit_dim(self.r.randint(1, 8)), depth - 1, focus, nonneg=True)
            f = E(f"bincount({idx.arr})", f"np.bincount({idx.py})", f"_binc({idx.pyi}, None, 0)", "i64", None, True)
            R = ()
        else:
            x = self.gen_arr(shape, depth - 1, kind, focus)
            if x is None or x.scalar or conc(x.shape) != conc(shape):
                return None
            k = self.r.randint(2, len(shape)) if form == "maskk" else 1
            mshape = tuple(shape[:k])
            m = self.gen_arr(mshape, max(depth - 1, 1), "bool", focus)
            if m is None or m.dt != "bool" or m.scalar or conc(m.shape) != conc(mshape):
                return None
            if form == "compress":
                f = E(f"compress({m.arr}, {x.arr})", f"np.compress({m.py}, {x.py})",
                      f"np.compress({m.pyi}, {x.pyi})", x.dt, None, x.exact)
            else:
                f = E(f"{x.arr}[{m.arr}]", f"({x.py})[{m.py}]", f"({x.pyi})[{m.pyi}]", x.dt, None, x.exact)
                self.marks["filter"].add(f.arr)
            R = tuple(x.shape[k:])
        post = self.pick([(3, None), (1, "lit"), (0.6, "scan"), (0.4, "abs")])
        if post == "lit" and f.dt != "bool":
            l = self.lit("f64" if f.dt in FLOAT else "i64", neg=False)
            g = self.binop(self.r.choice("+-*"), f, l)
            f = g if g is not None else f
        elif post == "scan":
            name = self.r.choice(["cumsum", "cumsum", "cumprod"])
            g = self.bounded_for_prod(f) if name == "cumprod" else f
            dt = infer_dt(np.cumsum, g)
            if g is not None and dt is not None:
                ax = "" if not R and self.chance(0.6) else ", axis=0"
                exact = g.exact and dt == "i64"
                f = E(f"{name}({g.arr}{ax})", f"np.{name}({g.py}{ax})", f"_scan('{name}', {g.pyi}, 0, {exact})",
                      dt, None, exact)
        elif post == "abs" and f.dt != "bool":
            f = E(f"abs({f.arr})", f"np.abs({f.py})", f"np.abs({f.pyi})", f.dt, None, f.exact)
        return f, R

    def dyn_reduce(self, f, R, axis):
        """A reduction (sum prod min max mean argmin argmax) of a run-time-sized expression f:
        whole (a scalar) or along axis 0 (shape R). Empty selections are rejected where NumPy
        raises (min, max, arg*) or warns (mean)."""
        red = self.pick([(3, "sum"), (0.7, "prod"), (1.2, "min"), (1.2, "max"), (1, "mean"), (0.6, "argmin"),
                         (0.6, "argmax")])
        if axis is not None and not R:
            axis = None
        if red in ("argmin", "argmax"):
            a = E(f.arr, f.py, f.pyi, f.dt, (lit_dim(1),) + tuple(R), f.exact)  # a stand-in shape
            e = self.argred(red, a, axis)
            if e is None:
                return None
            e.shape = R if axis is not None else None
            return e
        if red == "prod":
            f = self.bounded_for_prod(f)
            if f is None:
                return None
        e = self.reduce(red, E(f.arr, f.py, f.pyi, f.dt, None, f.exact), None, None)
        if e is None:
            return None
        if axis is not None:
            ax = 0 if self.chance(0.6) else -(len(R) + 1)
            e = E(f"{red}({f.arr}, axis={ax})", f"np.{red}({f.py}, axis={ax})",
                  f"_red('{red}', {f.pyi}, {ax}, {e.exact})", e.dt, R, e.exact)
        return e

    def filter_reduce(self, S, depth, kind, focus):
        """`sum(x[mask], axis=0)` and the like: a reduction along the run-time-sized axis 0, of shape S."""
        p = self.r.choice(self.sizes)
        d = Dim(p[1], Aff.sym(p[0])) if self.chance(0.7) else lit_dim(self.r.randint(1, 4))
        r = self.filter_expr((d,) + tuple(S), depth, focus)
        if r is None or not r[1]:
            return None
        e = self.dyn_reduce(r[0], r[1], 0)
        if e is None or e.scalar or not self.kind_ok(e.dt, kind) or not matches(e.shape, S):
            return None
        return e

    def gen_num_arr(self, S, depth, kind, focus):
        op = self.pick([(4, "arith"), (1, "div"), (1.5, "func"), (1, "minmax"), (1, "where"),
                        (0.8, "cast"), (0.6, "mod"), (0.6, "pow"), (1.2, "reduce"), (0.4, "neg"),
                        (0.8, "gather"), (0.4, "gather_mixed"), (0.15, "gather_nd"), (0.15, "take"),
                        (0.7, "scan"), (0.5, "argred"), (0.6, "dot"),
                        (0.5, "bincount"),
                        (0.5, "filtred")])
        sub = "float" if kind == "float" else "num"
        if op == "arith":
            a, b = self.split_operands(S, depth, sub, focus)
            return self.binop(self.r.choice("+-*"), a, b, S)
        if op == "div":
            a, b = self.split_operands(S, depth, "num", focus)
            if self.chance(0.5):  # keep the divisor away from zero
                ab = self.func("abs", b)
                b = self.binop("+", ab, self.lit("f64", neg=False)) if ab is not None else b
            return self.binop("/", a, b, S)
        if op == "func":
            a = self.gen_arr(S, depth - 1, "num", focus)
            return self.safe_func(self.r.choice(["abs", "sqrt", "exp", "log", "sin", "cos", "tanh"]), a)
        if op == "minmax":
            a, b = self.split_operands(S, depth, sub, focus)
            return self.minmax(self.r.choice(["minimum", "maximum"]), a, b)
        if op == "where":
            c = self.gen_arr(self.sub_shape(S, False), depth - 1, "bool", focus)
            a, b = self.split_operands(S, depth, sub, focus)
            return self.where(c, a, b)
        if op == "cast":
            dt = kind if kind in NUM else self.pick([(2, "f64"), (1, "i64"), (1, "f32")])
            a = self.gen_arr(S, depth - 1, "any", focus)
            if dt == "i64" and a.dt in FLOAT and self.chance(0.5):
                a = self.binop("*", a, self.lit("f64", neg=False))
            return self.cast(dt, a) if a is not None else None
        if op == "mod":
            a = self.gen_arr(S, depth - 1, "num", focus)
            if a.dt in FLOAT:
                b = self.lit("f64", neg=False)
            else:
                b = self.lit("i64")
            return self.binop("%", a, b, S)
        if op == "pow":
            a = self.gen_arr(S, depth - 1, "num", focus)
            form = self.pick([(2, "sq"), (1, "real"), (0.6, "litbase"), (0.6, "arrexp")])
            if form == "sq":
                return self.binop("**", a, E(str(e := self.r.choice([2, 3, 0, 1])), str(e), str(e), "i64", None, True, lit=True), S)
            if form == "real" and a.dt in FLOAT:
                base = self.binop("+", self.func("abs", a), self.lit("f64", neg=False))
                return self.binop("**", base, self.lit("f64"), S)
            if form == "litbase":
                e = self.gen_arr(S, depth - 1, "i64", focus)
                base = self.r.choice([2, 3]) if self.chance(0.5) else self.r.choice([0.5, 1.5])
                be = E(repr(base), repr(base), repr(base), "i64" if isinstance(base, int) else "f64", None, True, lit=True)
                return self.binop("**", be, e, S)
            e = self.operand(S, depth - 1, "i64", focus)
            if a.dt in FLOAT:
                a = self.binop("+", self.func("abs", a), E("0.5", "0.5", "0.5", "f64", None, True, lit=True))
            return self.binop("**", a, e, S)
        if op == "reduce":
            return self.reduce_axis(S, depth, kind, focus)
        if op == "gather":
            return self.gather(S, depth, kind, focus)
        if op == "gather_mixed":
            return self.gather_mixed(S, depth, kind, focus)
        if op == "gather_nd":
            return self.gather_nd(S, depth, kind, focus)
        if op == "take":
            return self.take_expr(S, depth, kind, focus)
        if op == "scan":
            return self.scan(S, depth, kind, focus)
        if op == "argred":
            return self.arg_axis(S, depth, kind, focus)
        if op == "dot":
            return self.dot_expr(S, depth, kind, focus)
        if op == "bincount":
            return self.bincount_expr(S, depth, kind, focus)
        if op == "filtred":
            return self.filter_reduce(S, depth, kind, focus)
        a = self.gen_arr(S, depth - 1, kind, focus)
        if a.dt == "bool":
            return None
        return E(f"(-{a.arr})", f"(-{a.py})", f"(-{a.pyi})", a.dt, a.shape, a.exact)

    def gen_bool_arr(self, S, depth, focus):
        op = self.pick([(4, "cmp"), (1.5, "logic"), (0.7, "not"), (0.5, "cast"), (0.6, "where"), (0.4, "reduce")])
        if op == "cmp":
            a, b = self.split_operands(S, depth, "num", focus)
            if self.chance(0.3):
                b = self.threshold()
                a = self.gen_arr(S, depth - 1, "num", focus)
            return self.compare(a, b)
        if op == "logic":
            a, b = self.split_operands(S, depth, "bool", focus)
            o = self.r.choice("&|")
            sh = bshape(a.shape, b.shape)
            if sh is False:
                return None
            return E(f"({a.arr} {o} {b.arr})", f"({a.py} {o} {b.py})", f"({a.pyi} {o} {b.pyi})", "bool", sh, True)
        if op == "not":
            a = self.gen_arr(S, depth - 1, "bool", focus)
            return E(f"(~{a.arr})", f"(~{a.py})", f"(~{a.pyi})", "bool", a.shape, True)
        if op == "cast":
            a = self.gen_arr(S, depth - 1, "num", focus)
            return self.cast("bool", a)
        if op == "where":
            c = self.gen_arr(self.sub_shape(S, False), depth - 1, "bool", focus)
            a, b = self.split_operands(S, depth, "bool", focus)
            return self.where(c, a, b)
        return self.reduce_axis(S, depth, "bool", focus)

    # ---- scalar expressions
    def scalar_leaf(self, kind, allow_lit=True):
        cands = [v for v in self.env.scalars() if self.kind_ok(v.dt, kind)]
        opts = []
        if allow_lit and kind != "bool":
            opts.append((1.5, "lit"))
        if cands:
            opts.append((2, "var"))
        if kind in ("num", "i64", "any"):
            opts.append((0.5, "size"))
        arrs = [v for v in self.env.arrays() if self.kind_ok(v.dt, kind)]
        if arrs:
            opts.append((1.5, "elem"))
        if not opts:
            return None
        c = self.pick(opts)
        if c == "lit":
            return self.lit("i64" if kind == "i64" else ("f64" if kind in ("f64", "float") else self.r.choice(["i64", "f64"])))
        if c == "var":
            v = self.r.choice(cands)
            return E(v.name, v.name, v.name, v.dt, None, self.var_exact(v))
        if c == "size":
            p = self.r.choice(self.sizes)
            if self.chance(0.5):
                return E(p[0], p[0], p[0], "i64", None, True)
            t = f"({p[0]} - 1)"
            return E(t, t, t, "i64", None, True)
        v = self.r.choice(arrs)
        items = [("int", self.int_index(d.n)) for d in v.shape]
        sa, sp = self.render_subscript(items)
        return E(f"{v.name}[{sa}]", f"{v.name}[{sp}]", f"{v.name}[{sp}]", v.dt, None, self.var_exact(v))

    def gen_scal(self, depth, kind="num", allow_lit=True):
        """A scalar expression."""
        if kind == "any":
            kind = "bool" if self.chance(0.15) else "num"
        if kind == "bool":
            return self.gen_bool_scal(depth)
        for _ in range(4):
            e = self._gen_num_scal(depth, kind, allow_lit)
            if e is not None and self.kind_ok(e.dt, kind):
                return e
        e = self.scalar_leaf(kind, allow_lit)
        if e is None or not self.kind_ok(e.dt, kind):
            e = self.lit("i64" if kind == "i64" else "f64")
        return e

    def _gen_num_scal(self, depth, kind, allow_lit):
        if depth <= 0:
            return self.scalar_leaf(kind, allow_lit)
        op = self.pick([(2, "leaf"), (2, "reduce"), (2, "arith"), (0.8, "func"), (0.5, "cast"), (0.4, "minmax"),
                        (0.5, "arg"), (0.7, "dynred"), (0.3, "vdot")])
        if op == "leaf":
            return self.scalar_leaf(kind, allow_lit)
        if op == "arg":  # argmin / argmax of a whole array (its row-major position), or axis 0 of a 1-d one
            S = self.some_shape(self.env)
            a = self.gen_arr(S, depth - 1, "bool" if self.chance(0.15) else "num")
            axis = self.r.choice([0, -1]) if (len(S) == 1 and self.chance(0.25)) else None
            return self.argred(self.r.choice(["argmin", "argmax"]), a, axis)
        if op == "dynred":  # a reduction of a filter (or bincount) result
            S = self.some_shape(self.env)
            r = self.filter_expr(S, depth, None)
            return self.dyn_reduce(r[0], r[1], None) if r is not None else None
        if op == "vdot":
            p = self.r.choice(self.sizes)
            K = Dim(p[1], Aff.sym(p[0])) if self.chance(0.7) else lit_dim(self.r.randint(1, 5))
            return self.matmul(self.gen_arr((K,), depth - 1, "num"), self.gen_arr((K,), depth - 1, "num"))
        if op == "reduce":
            arrs = self.env.arrays()
            S = self.some_shape(self.env)
            red = self.pick([(3, "sum"), (0.7, "prod"), (1.5, "min"), (1.5, "max"), (1.5, "mean")])
            a = self.gen_arr(S, depth - 1, "bool" if self.chance(0.1) else "num")
            if red == "prod" and a.dt in FLOAT:
                a = self.binop("+", self.binop("*", a, E("0.25", "0.25", "0.25", "f64", None, True, lit=True)),
                               E("1.0", "1.0", "1.0", "f64", None, True, lit=True))
            if self.chance(0.25) and len(S) == 1:
                return self.reduce(red, a, self.r.choice([0, -1]), None)
            return self.reduce(red, a, None, None)
        if op == "arith":
            a = self.gen_scal(depth - 1, "num", allow_lit=False)
            b = self.gen_scal(depth - 1, "num", allow_lit=True)
            if self.chance(0.5):
                a, b = b, a
            o = self.pick([(3, "+"), (3, "-"), (3, "*"), (1, "/")])
            if o == "/":
                ab = self.func("abs", b)
                b = self.binop("+", ab, self.lit("f64", neg=False)) if ab is not None else b
            return self.binop(o, a, b)
        if op == "func":
            a = self.gen_scal(depth - 1, "num", allow_lit=False)
            return self.safe_func(self.r.choice(["abs", "sqrt", "exp", "log", "sin", "cos", "tanh"]), a)
        if op == "cast":
            a = self.gen_scal(depth - 1, "any", allow_lit=False)
            dt = kind if kind in NUM else self.pick([(2, "f64"), (1, "i64"), (0.5, "f32")])
            return self.cast(dt, a)
        a = self.gen_scal(depth - 1, "num", allow_lit=False)
        b = self.gen_scal(depth - 1, "num", allow_lit=True)
        return self.minmax(self.r.choice(["minimum", "maximum"]), a, b)

    def gen_bool_scal(self, depth):
        for _ in range(4):
            e = self._gen_bool_scal(depth)
            if e is not None and e.scalar and e.dt == "bool":
                return e
        p = self.r.choice(self.sizes)[0]
        return E(f"({p} > 1)", f"({p} > 1)", f"({p} > 1)", "bool", None, True)

    def _gen_bool_scal(self, depth):
        op = self.pick([(4, "cmp"), (1, "logic"), (0.4, "not"), (0.6, "leaf"), (0.4, "reduce")])
        if op == "cmp" or depth <= 0:
            a = self.gen_scal(depth - 1, "num", allow_lit=False)
            b = self.threshold() if (a.dt in FLOAT and self.chance(0.6)) else self.gen_scal(depth - 1, "num")
            if a.dt in FLOAT and b.lit and b.dt == "i64" and not a.exact:
                b = self.threshold()
            e = self.compare(a, b)
            return e if e is not None else self.compare(a, self.threshold())
        if op == "logic":
            a, b = self.gen_bool_scal(depth - 1), self.gen_bool_scal(depth - 1)
            o = self.r.choice("&|")
            return E(f"({a.arr} {o} {b.arr})", f"({a.py} {o} {b.py})", f"({a.pyi} {o} {b.pyi})", "bool", None, True)
        if op == "not":
            a = self.gen_bool_scal(depth - 1)
            return E(f"(~{a.arr})", f"(~{a.py})", f"(~{a.pyi})", "bool", None, True)
        if op == "leaf":
            e = self.scalar_leaf("bool")
            if e is not None:
                return e
            return self.gen_bool_scal(0)
        S = self.some_shape(self.env)
        a = self.gen_arr(S, depth - 1, "bool")
        return self.reduce(self.r.choice(["min", "max"]), a, None, None)

    # ---- statements
    def declare(self, name, e, top):
        env = self.env
        if e.scalar:
            env.vars[name] = Var(name, e.dt, None, exact=e.exact)
        else:
            st = e.view_of if e.view_of is not None else env.new_storage(e.exact)
            env.vars[name] = Var(name, e.dt, e.shape, storage=st)

    def new_name(self, prefix, top):
        env = self.env
        if top and self.block_depth == 0 and self.chance(0.08):
            cands = [v.name for v in env.vars.values() if v.name[0] == prefix[0] and not v.param and not v.loopvar]
            if cands:
                return self.r.choice(cands)  # shadowing
        return env.fresh(prefix)

    def st_let_arr(self):
        S = self.some_shape(self.env)
        focus = None
        if self.env.arrays() and self.chance(0.3):
            focus = self.r.choice(self.env.arrays()).storage
        e = self.gen_arr(S, self.r.randint(1, 3), "any", focus)
        if self.dead_reduce_risk(e):
            return None
        name = self.new_name("a", True)
        self.declare(name, e, True)
        return Stmt([f"let {name} = {e.arr};"], [f"{name} = {e.py}"], [f"{name} = {e.pyi}"])

    def dead_reduce_risk(self, e):
        """A `let`/rebinding whose value is an axis reduction (the variable may stay unused)."""
        return ("dead-axis-reduce" in self.avoid and ", axis=" in e.arr
                and e.arr.split("(", 1)[0] in ("sum", "prod", "min", "max", "mean"))

    def st_let_view(self):
        arrs = self.env.arrays()
        if not arrs:
            return self.st_let_arr()
        v = self.r.choice(arrs)
        e = self.random_view(v)
        name = self.new_name("v", True)
        self.declare(name, e, True)
        return Stmt([f"let {name} = {e.arr};"], [f"{name} = {e.py}"], [f"{name} = {e.pyi}"])

    def st_let_scal(self):
        e = self.gen_scal(self.r.randint(1, 3), "any", allow_lit=True)
        name = self.new_name("s", True)
        self.declare(name, e, True)
        py, pyi = e.py, e.pyi
        if e.lit or e.arr in ("true", "false"):
            py, pyi = f"{NPN[e.dt]}({py})", f"{NPN[e.dt]}({pyi})"
        return Stmt([f"let {name} = {e.arr};"], [f"{name} = {py}"], [f"{name} = {pyi}"])

    def write_target(self, arrs, bare_ok=False):
        """A view of one of arrs to write into (an E whose texts are `name[subscript]`, or the bare
        name when bare_ok, for in-place operators) and the variable; (None, v) when the view
        would need a transpose or diagonal (assignment targets are subscripted names)."""
        v = self.r.choice(arrs)
        how = self.pick([(1, "whole"), (3, "view"), (0.7, "elem"), (0.8, "loop")])
        if how == "loop" and self.loopvars:
            e = self.loop_view(v)
            if e is not None:
                return e, v
        if how == "whole" or how == "loop":
            t = self.r.choice(["...", ":"])
            if bare_ok and self.chance(0.4):
                return E(v.name, v.name, v.name, v.dt, v.shape, True, view_of=v.storage), v
            return E(f"{v.name}[{t}]", f"{v.name}[{t}]", f"{v.name}[{t}]", v.dt, v.shape, True), v
        if how == "elem":
            items = [("int", self.int_index(d.n)) for d in v.shape]
            sa, sp = self.render_subscript(items)
            return E(f"{v.name}[{sa}]", f"{v.name}[{sp}]", f"{v.name}[{sp}]", v.dt, None, True), v
        e = self.random_view(v, allow_elem=True, plain=True)
        if "[" not in e.arr:
            return E(f"{e.arr}[...]", f"{e.py}[...]", f"{e.pyi}[...]", v.dt, e.shape, True), v
        return e, v

    def loop_view(self, v):
        """A view of v indexed by an enclosing loop variable (x[i], x[i, 1:], x[:, i:i+2], ...)."""
        lv = self.r.choice(self.loopvars)
        lo, hi = lv.loopvar
        dims = [k for k, d in enumerate(v.shape) if d.n >= hi + 1 and lo >= 0]
        if not dims:
            return None
        k = self.r.choice(dims)
        items, out = [], []
        for kk, d in enumerate(v.shape):
            if kk == k:
                if self.chance(0.5):
                    items.append(("int", lv.name))
                else:
                    c = self.r.randint(1, max(1, min(3, d.n - (hi - 1))))
                    items.append(("slice", f"{lv.name}:{lv.name} + {c}"))
                    out.append(lit_dim(c))
            elif self.chance(0.3):
                items.append(("int", self.int_index(d.n)))
            else:
                items.append(("slice", ":"))
                out.append(d)
        sa, sp = self.render_subscript(items)
        return E(f"{v.name}[{sa}]", f"{v.name}[{sp}]", f"{v.name}[{sp}]", v.dt, tuple(out) if out else None, True)

    def value_for(self, T, dt_target, focus, inplace_op=None):
        depth = self.r.randint(1, 3)
        if T is None:
            return self.gen_scal(depth, "num" if dt_target != "bool" else "any")
        if self.chance(0.15):
            return self.gen_scal(depth - 1, "num" if dt_target != "bool" else "any")
        sub = self.sub_shape(T, allow_scalar=False)
        kind = "bool" if (dt_target == "bool" and self.chance(0.6)) else "num"
        return self.gen_arr(sub, depth, kind, focus)

    def setcast(self, val, dt_target, copy=False):
        """The instrumented translation of `val` assigned into an array of `dt_target`; `copy`:
        `val` is read completely before the assignment (a view of the target's array, see
        st_overlap)."""
        pyi = f"np.array({val.pyi})" if copy else val.pyi
        if dt_target == "i64" and val.dt in FLOAT:
            return f"_trunc({pyi}, {val.exact})"
        if dt_target == "bool" and val.dt in FLOAT:
            return f"_tobool({pyi}, {val.exact})"
        return pyi

    def assigned(self, val, dt_target, copy):
        """The plain and the instrumented translation of `val` assigned into an array of
        `dt_target`, each read completely before the assignment when `copy` (see st_overlap)."""
        return (f"np.array({val.py})" if copy else val.py), self.setcast(val, dt_target, copy=copy)

    def mark_written(self, storage, exact):
        st = self.env.storages[storage]
        st["written"] = True
        st["exact"] = st["exact"] and exact

    def st_setitem(self):
        arrs = [v for v in self.env.arrays()]
        if not arrs:
            return self.st_let_arr()
        tgt, v = self.write_target(arrs)
        val = self.value_for(tgt.shape, v.dt, v.storage)
        if not fits(val.shape, tgt.shape):
            return None
        exact = val.exact or v.dt in ("i64", "bool")
        self.mark_written(v.storage, exact)
        # A view of the target's own array is read completely first (see st_overlap).
        val_py, val_pyi = self.assigned(val, v.dt, copy=val.view_of == v.storage)
        return Stmt([f"{tgt.arr} = {val.arr};"], [f"{tgt.py} = {val_py}"], [f"{tgt.pyi} = {val_pyi}"])

    def st_inplace(self):
        arrs = [v for v in self.env.arrays() if v.dt in NUM]
        if not arrs:
            return self.st_let_arr()
        tgt, v = self.write_target(arrs, bare_ok=True)
        op = self.pick([(3, "+"), (2, "-"), (2, "*"), (1, "/")] if v.dt in FLOAT else [(3, "+"), (2, "-"), (2, "*")])
        for _ in range(4):
            val = self.value_for(tgt.shape, v.dt, v.storage, op)
            if not fits(val.shape, tgt.shape):
                continue
            if val.dt == "bool":
                continue
            if op == "/" and self.chance(0.7):
                ab = self.func("abs", val)
                val = self.binop("+", ab, self.lit("f64", neg=False)) if ab is not None else val
            if self.same_kind_ok(v.dt, val, op, tgt.scalar):
                break
        else:
            return None
        self.mark_written(v.storage, val.exact and tgt.exact)
        vpyi = f"_dz({val.pyi})" if op == "/" else val.pyi
        if tgt.scalar:
            # an element: x[i, j] op= e rebinds nothing; NumPy reads, combines and writes back
            return Stmt([f"{tgt.arr} {op}= {val.arr};"], [f"{tgt.py} {op}= {val.py}"],
                        [f"{tgt.pyi} = _v({tgt.pyi} {op} {vpyi})"])
        return Stmt([f"{tgt.arr} {op}= {val.arr};"], [f"{tgt.py} {op}= {val.py}"],
                    [f"{tgt.pyi} {op}= {vpyi}", f"_v({tgt.pyi})"])

    @staticmethod
    def same_kind_ok(dt, val, op, elem):
        fn = {"+": np.add, "-": np.subtract, "*": np.multiply, "/": np.true_divide}[op]
        t = np.ones(1, NP[dt])
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                fn(t, dummy(val), out=t, casting="same_kind")
        except Exception:
            return False
        if elem:  # x[i] op= e on an element: the result must also keep the dtype
            r = infer_dt({"+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.truediv}[op],
                         E("", "", "", dt, None, True), val)
            return r is not None and np.can_cast(NP[r], NP[dt], "same_kind")
        return True

    def st_scal_update(self):
        cands = [v for v in self.env.scalars() if not v.param and not v.loopvar and v.dt in NUM]
        if not cands:
            return self.st_let_scal()
        v = self.r.choice(cands)
        for _ in range(4):
            op = self.pick([(1, "="), (2, "+"), (1, "-"), (1, "*")])
            e = self.gen_scal(self.r.randint(1, 2), "num")
            if op == "=":
                if e.dt != v.dt:
                    continue
                if e.lit:
                    py, pyi = f"{NPN[e.dt]}({e.py})", f"{NPN[e.dt]}({e.pyi})"
                else:
                    py, pyi = e.py, e.pyi
                v.exact = e.exact and (self.block_depth == 0 or v.exact)
                return Stmt([f"{v.name} = {e.arr};"], [f"{v.name} = {py}"], [f"{v.name} = {pyi}"])
            st = self.scal_update(v, op, e)
            if st is not None:
                return st
        return None

    def scal_update(self, v, op, e):
        """`s op= e;` on the scalar variable v: a rebinding `s = op(s, e)` that keeps v's dtype.
        NumPy's dtype of `op(s, e)` when it is v's own (a weak literal keeps f32: `np.float32(s) -
        0.5` is f32 arithmetic); an f32 v with an f64 (or i64) value is computed in f64 and cast
        back once, `s = np.float32(np.float64(s) - e)`; other dtypes are not generated (None)."""
        tmp = E(v.name, v.name, v.name, v.dt, None, True)
        r = self.binop(op, tmp, e)
        if r is None:
            return None
        line = f"{v.name} {op}= {e.arr};"
        epyi = f"_dz({e.pyi})" if op == "/" else e.pyi
        if r.dt == v.dt:
            if v.dt == "f32" and e.lit and e.dt == "f64":
                if "f32-inplace-literal" in self.avoid:
                    return None
                self.marks["f32_inplace_lit"].add(line)
            v.exact = v.exact and e.exact
            return Stmt([line], [f"{v.name} {op}= {e.py}"], [f"{v.name} = _v({v.name} {op} {epyi})"])
        if v.dt == "f32" and r.dt == "f64":
            v.exact = v.exact and e.exact
            self.marks["f32_inplace"].add(line)
            return Stmt([line], [f"{v.name} = np.float32(np.float64({v.name}) {op} ({e.py}))"],
                        [f"{v.name} = np.float32(_v(np.float64({v.name}) {op} ({epyi})))"])
        return None

    def st_f32_update(self):
        """`s op= e;` (+ - * /) on an f32 scalar variable, declared here (`let s = f32(...);`) or
        earlier, with an f64 (or i64) value, computed in f64 and rounded to f32 once, or with a
        weak float literal, computed in f32 (see `scal_update`)."""
        cands = [v for v in self.env.scalars() if v.dt == "f32" and not v.param and not v.loopvar]
        init = None
        if not cands or self.chance(0.4):
            init = self.cast("f32", self.gen_scal(self.r.randint(0, 2), "num"))
            if init is None:
                return None
            v = Var(self.env.fresh("s"), "f32", None, exact=init.exact)
        else:
            v = self.r.choice(cands)
        op = self.pick([(3, "+"), (3, "-"), (2, "*"), (1.2, "/")])
        form = self.pick([(3, "f64"), (0.6, "i64"), (1.5, "lit")])
        if form == "lit":
            e = self.lit("f64")
        else:
            e = self.gen_scal(self.r.randint(1, 2), form, allow_lit=False)
            if op == "/":
                ab = self.func("abs", e)
                e = self.binop("+", ab, self.lit("f64", neg=False)) if ab is not None else e
        if e is None:
            return None
        st = self.scal_update(v, op, e)
        if st is None:
            return None
        if init is not None:
            self.env.vars[v.name] = v
            st = Stmt([f"let {v.name} = {init.arr};"] + st.arr, [f"{v.name} = {init.py}"] + st.py,
                      [f"{v.name} = {init.pyi}"] + st.pyi)
        return st

    def st_rebind_arr(self):
        if self.in_if and "rebind-in-if" in self.avoid:
            return None
        arrs = [v for v in self.env.arrays() if not v.param]
        if not arrs:
            return self.st_let_arr()
        v = self.r.choice(arrs)
        kind = v.dt
        e = self.gen_arr(v.shape, self.r.randint(1, 3), kind if kind != "f32" else "num", v.storage)
        if e.dt != v.dt:
            e = self.cast(v.dt, e)
        if conc(e.shape) != conc(v.shape) or self.dead_reduce_risk(e):
            return None
        old = self.env.storages[v.storage]
        if e.view_of is not None:
            v.storage = e.view_of
            if self.block_depth:
                self.env.storages[v.storage]["exact"] &= old["exact"]
        else:
            v.storage = self.env.new_storage(e.exact and (self.block_depth == 0 or old["exact"]))
        return Stmt([f"{v.name} = {e.arr};"], [f"{v.name} = {e.py}"], [f"{v.name} = {e.pyi}"])

    def gen_block(self, n):
        """n statements inside a block: fresh names, removed from scope after the block."""
        before = set(self.env.vars)
        self.block_depth += 1
        out = []
        for _ in range(n):
            for _ in range(6):
                s = self.gen_stmt(top=False)
                if s is not None:
                    out.append(s)
                    break
        self.block_depth -= 1
        for name in list(self.env.vars):
            if name not in before:
                del self.env.vars[name]
        return out

    @staticmethod
    def join(stmts, attr):
        lines = []
        for s in stmts:
            lines += getattr(s, attr)
        return lines

    def st_for(self):
        name = self.env.fresh("i")
        lo = self.pick([(3, 0), (1, 1)])
        form = self.pick([(2, "lit"), (2, "param"), (0.7, "paramm1")])
        p = self.r.choice(self.sizes)
        if form == "lit":
            hi = lo + self.r.randint(0, 4)
            hi_t = str(hi)
        elif form == "param":
            hi, hi_t = p[1], p[0]
        else:
            hi, hi_t = p[1] - 1, f"{p[0]} - 1"
        lv = Var(name, "i64", None, loopvar=(lo, max(hi, lo)))
        self.env.vars[name] = lv
        self.loopvars.append(lv)
        self.loop_depth += 1
        body = self.gen_block(self.r.randint(1, 3))
        self.loop_depth -= 1
        self.loopvars.pop()
        del self.env.vars[name]
        if not body:
            return None
        arr = [f"for {name} in {lo}..{hi_t} {{"] + indent(self.join(body, "arr")) + ["}"]
        py = [f"for {name} in range({lo}, {hi_t}):", f"    {name} = np.int64({name})"] + indent(self.join(body, "py"))
        pyi = [f"for {name} in range({lo}, {hi_t}):", f"    {name} = np.int64({name})"] + indent(self.join(body, "pyi"))
        return Stmt(arr, py, pyi)

    def st_while(self):
        w = self.env.fresh("w")
        limit = self.r.randint(1, 4)
        self.env.vars[w] = Var(w, "i64", None, loopvar=(0, limit))
        self.loop_depth += 1
        self.block_depth += 1
        cond = self.gen_bool_scal(self.r.randint(1, 2)) if self.chance(0.8) else None
        self.block_depth -= 1
        body = self.gen_block(self.r.randint(1, 3))
        self.loop_depth -= 1
        if not body:
            del self.env.vars[w]
            return None
        self.env.vars[w].loopvar = None  # a plain i64 scalar afterwards (not updated by generator)
        self.env.vars[w].exact = True
        ca = f"{w} < {limit}" + (f" & {cond.arr}" if cond else "")
        cp = f"({w} < {limit})" + (f" & {cond.py}" if cond else "")
        ci = f"({w} < {limit})" + (f" & {cond.pyi}" if cond else "")
        arr = [f"let {w} = 0;", f"while {ca} {{"] + indent(self.join(body, "arr") + [f"{w} += 1;"]) + ["}"]
        py = [f"{w} = np.int64(0)", f"while {cp}:"] + indent(self.join(body, "py") + [f"{w} += 1"])
        pyi = [f"{w} = np.int64(0)", f"while {ci}:"] + indent(self.join(body, "pyi") + [f"{w} += 1"])
        return Stmt(arr, py, pyi)

    def st_if(self):
        arms = [("if", self.gen_bool_scal(self.r.randint(1, 2)))]
        if self.chance(0.3):
            arms.append(("elif", self.gen_bool_scal(self.r.randint(1, 2))))
        if self.chance(0.6):
            arms.append(("else", None))
        arr, py, pyi = [], [], []
        for k, c in arms:
            self.in_if += 1
            body = self.gen_block(self.r.randint(1, 2))
            self.in_if -= 1
            if not body:
                return None
            if k == "if":
                arr.append(f"if {c.arr} {{")
                py.append(f"if {c.py}:")
                pyi.append(f"if {c.pyi}:")
            elif k == "elif":
                arr.append(f"}} else if {c.arr} {{")
                py.append(f"elif {c.py}:")
                pyi.append(f"elif {c.pyi}:")
            else:
                arr.append("} else {")
                py.append("else:")
                pyi.append("else:")
            arr += indent(self.join(body, "arr"))
            py += indent(self.join(body, "py"))
            pyi += indent(self.join(body, "pyi"))
        arr.append("}")
        return Stmt(arr, py, pyi)

    def st_overlap(self):
        """A write into a view of an array whose value reads the same array through another view
        of the same shape (shifted, reversed, strided, transposed): `a[1:] = a[:-1] + ...`,
        `x[::-1] += x`, `x[...] = x.T`, `v[:] -= w` with v, w views of one base."""
        arrs = [v for v in self.env.arrays() if v.dt in NUM]
        if not arrs:
            return None
        v = self.r.choice(arrs)
        tgt = self.random_view(v, plain=True)
        if tgt.scalar:
            return None
        if "[" not in tgt.arr:
            tgt = E(f"{tgt.arr}[...]", f"{tgt.py}[...]", f"{tgt.pyi}[...]", v.dt, tgt.shape, True)
        same = [w for w in self.env.arrays() if w.storage == v.storage]
        src = None
        for _ in range(6):
            w = self.r.choice(same)
            e = self.view_to_shape(w, tgt.shape)
            if e is not None and not e.scalar and fits(e.shape, tgt.shape):
                src = e
                break
        if src is None:
            return None
        bare = True  # src is a view of v's storage, not a computed value
        if self.chance(0.5):
            other = self.operand(tgt.shape, 2, "num", v.storage)
            comb = self.binop(self.r.choice("+-*"), src, other)
            if comb is not None and fits(comb.shape, tgt.shape):
                src, bare = comb, False
        if self.chance(0.5):
            if src.dt in FLOAT and v.dt == "i64":
                return None
            ok = self.same_kind_ok(v.dt, src, "+", False)
            if not ok:
                return None
            op = self.r.choice("+-*")
            self.mark_written(v.storage, src.exact)
            return Stmt([f"{tgt.arr} {op}= {src.arr};"], [f"{tgt.py} {op}= {src.py}"],
                        [f"{tgt.pyi} {op}= {src.pyi}", f"_v({tgt.pyi})"])
        self.mark_written(v.storage, src.exact or v.dt in ("i64", "bool"))
        # NumPy copies one view of an array into another view of it in place, without a copy of
        # the source when both are 1-d with strides of the same sign: with different strides it
        # then reads elements it has already written (`a[0:5:2] = a[0:3]` gives a[4] the new a[2]).
        # arrayc reads the source completely first, as NumPy does for n-d views and for opposite
        # strides (seed 95611; docs/language.md). The translation copies a bare source.
        src_py, src_pyi = self.assigned(src, v.dt, copy=bare)
        return Stmt([f"{tgt.arr} = {src.arr};"], [f"{tgt.py} = {src_py}"], [f"{tgt.pyi} = {src_pyi}"])

    def st_scatter(self):
        """`x[idx] = v` (i64 index array along axis 0; repeated indices: the last write wins) or
        `x[i, j] = v` (one index array per leading axis); x may be a view (negative steps) and v
        may read x: it is read completely before the write, in both languages."""
        arrs = self.env.arrays()
        if not arrs:
            return None
        v = self.r.choice(arrs)
        kdim = self.index_dim()
        depth = self.r.randint(1, 2)
        if len(v.shape) >= 2 and self.chance(0.3):
            # One index array among whole slices and integers (NumPy's advanced indexing).
            r = len(v.shape)
            a = self.r.randrange(r)
            kinds = ["A" if ax == a else ("I" if self.chance(0.4) else "S") for ax in range(r)]
            ia = self.gen_index(kdim, v.shape[a], depth, v.storage)
            sa, sp, si = self.advanced_entries(kinds, ia, v.shape)
            T = advanced_shape(kinds, [d for d, k in zip(v.shape, kinds) if k == "S"], kdim)
            kind = "scatter_mixed"
            val = self.value_for(T, v.dt, v.storage)
            if val is None or not fits(val.shape, T):
                return None
            self.mark_written(v.storage, val.exact or v.dt in ("i64", "bool"))
            line = f"{v.name}[{sa}] = {val.arr};"
            self.marks[kind].add(line)
            return Stmt([line], [f"{v.name}[{sp}] = {val.py}"], [f"{v.name}[{si}] = {self.setcast(val, v.dt)}"])
        i0 = self.gen_index(kdim, v.shape[0], depth, v.storage)
        if len(v.shape) >= 2 and self.chance(0.5):
            i1 = self.gen_index(kdim, v.shape[1], depth, v.storage)
            sa, sp, si = f"{i0.arr}, {i1.arr}", f"{i0.py}, {i1.py}", f"{i0.pyi}, {i1.pyi}"
            T, kind = (kdim,) + tuple(v.shape[2:]), "scatter2"
        else:
            sa, sp, si = i0.arr, i0.py, i0.pyi
            T, kind = (kdim,) + tuple(v.shape[1:]), "scatter"
        val = self.value_for(T, v.dt, v.storage)
        if val is None or not fits(val.shape, T):
            return None
        self.mark_written(v.storage, val.exact or v.dt in ("i64", "bool"))
        line = f"{v.name}[{sa}] = {val.arr};"
        self.marks[kind].add(line)
        return Stmt([line], [f"{v.name}[{sp}] = {val.py}"], [f"{v.name}[{si}] = {self.setcast(val, v.dt)}"])

    def st_add_at(self):
        """`add_at(x, idx, v)`: np.add.at, repeated indices accumulate (in index order)."""
        arrs = [v for v in self.env.arrays() if v.dt in NUM]
        if not arrs:
            return None
        v = self.r.choice(arrs)
        if len(v.shape) >= 2 and self.chance(0.35):
            return self.add_at_tuple(v)
        kdim = self.index_dim()
        idx = self.gen_index(kdim, v.shape[0], self.r.randint(1, 2), v.storage)
        T = (kdim,) + tuple(v.shape[1:])
        val = self.add_at_value(T, v)
        if val is None:
            return None
        self.mark_written(v.storage, val.exact)
        return Stmt([f"add_at({v.name}, {idx.arr}, {val.arr});"], [f"np.add.at({v.name}, {idx.py}, {val.py})"],
                    [f"np.add.at({v.name}, {idx.pyi}, {val.pyi})", f"_v({v.name})"])

    def add_at_value(self, T, v):
        """The values of `add_at` into v at index shape T (up to 4 tries), or None."""
        for _ in range(4):
            val = self.value_for(T, v.dt, v.storage)
            if val is not None and val.dt != "bool" and fits(val.shape, T) and self.same_kind_ok(v.dt, val, "+", False):
                return val
        return None

    def add_at_tuple(self, v):
        """`add_at(x, (i, j), v)` (`np.add.at(x, (i, j), v)`) on x of rank >= 2, with one index
        array per leading axis (two, or three of a rank-3 x): 1-d or 2-d, each of the first one's
        shape or of its trailing size (broadcast together); v broadcasts to
        `broadcast(i.shape, j.shape) + x.shape[m:]`; repeated index tuples accumulate in order."""
        m = 3 if (len(v.shape) >= 3 and self.chance(0.3)) else 2
        kshape = self.index_shape(2 if self.chance(0.3) else 1)
        depth = self.r.randint(1, 2)
        idxs = [self.gen_index_nd(kshape, v.shape[0], depth, v.storage)]
        ish = idxs[0].shape
        for ax in range(1, m):
            sh = kshape if (len(kshape) == 1 or self.chance(0.5)) else kshape[1:]
            ia = self.gen_index_nd(sh, v.shape[ax], depth, v.storage)
            ish = bshape(ish, ia.shape)
            if ish is False:
                return None
            idxs.append(ia)
        T = tuple(ish) + tuple(v.shape[m:])
        val = self.add_at_value(T, v)
        if val is None:
            return None
        self.mark_written(v.storage, val.exact)
        ta = ", ".join(i.arr for i in idxs)
        tp = ", ".join(i.py for i in idxs)
        ti = ", ".join(i.pyi for i in idxs)
        line = f"add_at({v.name}, ({ta}), {val.arr});"
        self.marks["add_at_tuple"].add(line)
        return Stmt([line], [f"np.add.at({v.name}, ({tp}), {val.py})"],
                    [f"np.add.at({v.name}, ({ti}), {val.pyi})", f"_v({v.name})"])

    def st_mask_write(self):
        """Writes through a boolean mask of x's k leading axes (k = 1: along axis 0; k = rank: the
        elements): `x[m] = s`, `x[m] op= s`, `x[m] = y[m] op s` (one value per selected element)
        and `x[m] = row` (k < rank: one row to broadcast)."""
        arrs = self.env.arrays()
        if not arrs:
            return None
        v = self.r.choice(arrs)
        k = self.r.randint(2, len(v.shape)) if len(v.shape) >= 2 and self.chance(0.4) else 1
        mshape = tuple(v.shape[:k])
        m = self.gen_arr(mshape, self.r.randint(1, 2), "bool", v.storage)
        if m is None or m.dt != "bool" or m.scalar or conc(m.shape) != conc(mshape):
            return None
        opts = [(2, "set"), (2 if v.dt in NUM else 0, "op")]
        opts.append((1.2 if v.dt != "bool" else 0, "self"))
        if len(v.shape) > k:
            opts.append((0.7, "row"))
        mode = self.pick(opts)
        tgt = f"{v.name}[{m.arr}]"
        if k == len(v.shape) and m.view_of == v.storage:
            # A mask of all of x's axes that is a view of x itself: NumPy's boolean assignment then
            # reads the mask while it writes (`b[b.T] = False` leaves a triangle), where arrayc reads
            # the whole mask first, as NumPy does for a mask of fewer axes (through `nonzero`) and as
            # its ufuncs do for overlapping operands. The translation copies the mask.
            tgt_py, tgt_pyi = f"{v.name}[np.array({m.py})]", f"{v.name}[np.array({m.pyi})]"
        else:
            tgt_py, tgt_pyi = f"{v.name}[{m.py}]", f"{v.name}[{m.pyi}]"
        if mode == "op":
            ops = [(3, "+"), (2, "-"), (2, "*")] + ([(1, "/")] if v.dt in FLOAT else [])
            op = self.pick(ops)
            val = self.gen_scal(self.r.randint(0, 2), "num")
            if op == "/":
                ab = self.func("abs", val)
                val = self.binop("+", ab, self.lit("f64", neg=False)) if ab is not None else val
            if val is None or not self.same_kind_ok(v.dt, val, op, False):
                return None
            vpyi = f"_dz({val.pyi})" if op == "/" else val.pyi
            self.mark_written(v.storage, val.exact)
            line = f"{tgt} {op}= {val.arr};"
            self.marks["mask_write"].add(line)
            return Stmt([line], [f"{tgt_py} {op}= {val.py}"], [f"{tgt_pyi} {op}= {vpyi}", f"_v({v.name})"])
        if mode == "self":
            same = [w for w in self.env.arrays() if w.dt in NUM and w.shape[0].n == v.shape[0].n
                    and conc(w.shape) == conc(v.shape)]
            w = self.r.choice(same) if same and self.chance(0.6) else v
            if w.dt not in NUM:
                return None
            src = E(f"{w.name}[{m.arr}]", f"{w.name}[{m.py}]", f"{w.name}[{m.pyi}]", w.dt, None, self.var_exact(w))
            form = self.pick([(3, "op"), (1, "func")])
            if form == "func":
                val = self.func(self.r.choice(["abs", "abs", "tanh", "sin"]), src)
            else:
                val = self.binop(self.r.choice("+-*"), src, self.gen_scal(self.r.randint(0, 1), "num"))
            if val is None:
                return None
        elif mode == "row":
            R = tuple(v.shape[k:])
            val = self.gen_arr(self.sub_shape(R, allow_scalar=False), self.r.randint(1, 2),
                               "bool" if v.dt == "bool" else "num", v.storage)
            if val is None or not fits(val.shape, R):
                return None
        else:
            val = self.gen_scal(self.r.randint(0, 2), "num" if v.dt != "bool" else "any")
            if val is None:
                return None
        if v.dt == "bool" and val.dt != "bool" or v.dt != "bool" and val.dt == "bool" and mode != "row":
            return None
        self.mark_written(v.storage, val.exact or v.dt in ("i64", "bool"))
        line = f"{tgt} = {val.arr};"
        self.marks["mask_write"].add(line)
        return Stmt([line], [f"{tgt_py} = {val.py}"], [f"{tgt_pyi} = {self.setcast(val, v.dt)}"])

    def st_filter_let(self):
        """`let f = x[mask];` (or compress, bincount): a variable of run-time size `?` along axis 0,
        used later by reductions and filters, and maybe returned by main as `f64[?]`/`f64[?, m]`."""
        if self.in_helper or self.block_depth or self.loop_depth:
            return None
        S = self.some_shape(self.env)
        r = self.filter_expr(S, self.r.randint(1, 3), None, "any")
        if r is None:
            return None
        f, R = r
        name = self.env.fresh("f")
        self.env.filters[name] = (f.dt, R, f.exact)
        line = f"let {name} = {f.arr};"
        self.marks["filter_let"].add(line)
        return Stmt([line], [f"{name} = {f.py}"], [f"{name} = {f.pyi}"])

    def st_call(self):
        """Defines a helper function for this call site and calls it: array parameters with size
        symbols (arguments are variables or views, possibly of one base), a scalar parameter,
        statements that may write through the parameters (visible to the caller, as in NumPy),
        and one to three results (`let (r1, r2) = h1(a2, a2[::-1], 0.5);`), or none."""
        if self.in_helper or len(self.functions) >= 3:
            return None
        arrs = self.env.arrays()
        if not arrs:
            return None
        caller_env, caller_sizes, caller_loopvars = self.env, self.sizes, self.loopvars
        caller_ld, caller_bd, caller_in_if = self.loop_depth, self.block_depth, self.in_if
        hname = f"h{len(self.functions) + 1}"
        henv = Env(tag=f"{hname}_")
        args = []  # (param name, param type text, arg E, caller storage)
        sizes = []  # (symbol, concrete)
        sym_map = {}  # helper symbol -> caller Aff or None
        nargs = self.r.randint(1, 2)
        for j in range(nargs):
            v = self.r.choice(arrs)
            e = self.random_view(v) if self.chance(0.4) else E(v.name, v.name, v.name, v.dt, v.shape,
                                                                 self.var_exact(v), view_of=v.storage)
            if e.scalar or e.view_of is None:
                e = E(v.name, v.name, v.name, v.dt, v.shape, self.var_exact(v), view_of=v.storage)
            dims = []
            for d in e.shape:
                reuse = [s for s, c in sizes if c == d.n]
                if reuse and self.chance(0.6):
                    sname = self.r.choice(reuse)
                else:
                    sname = f"N{len(sizes) + 1}"
                    sizes.append((sname, d.n))
                    sym_map[sname] = d.s
                dims.append(Dim(d.n, Aff.sym(sname)))
            pname = f"x{j + 1}"
            st = henv.new_storage(e.exact)
            henv.storages[st]["caller"] = e.view_of
            henv.vars[pname] = Var(pname, e.dt, tuple(dims), storage=st, param=True)
            args.append((pname, f"{e.dt}[{', '.join(s.s.render() for s in dims)}]", e, e.view_of))
        scal = None
        if self.chance(0.6):
            se = self.gen_scal(1, "num")
            scal = ("y1", se.dt, se)
            henv.vars["y1"] = Var("y1", se.dt, None, exact=se.exact, param=True)
        # the body, in the helper's own scope
        self.env, self.sizes, self.loopvars = henv, sizes, []
        self.loop_depth = self.block_depth = self.in_if = 0
        self.in_helper = True
        body = []
        for _ in range(self.r.randint(2, 5)):
            for _ in range(6):
                s = self.gen_stmt(top=True)
                if s is not None:
                    body.append(s)
                    break
        # results
        cands = [v for v in henv.vars.values() if not (v.param and v.scalar)]
        if "call-alias" in self.avoid:  # no result may alias a parameter
            cands = [v for v in cands if v.scalar or henv.storages[v.storage].get("caller") is None]
        self.r.shuffle(cands)
        nres = self.pick([(0.15, 0), (1, 1), (1, 2), (0.5, 3)])
        results = cands[:nres]
        self.in_helper = False
        self.env, self.sizes, self.loopvars = caller_env, caller_sizes, caller_loopvars
        self.loop_depth, self.block_depth, self.in_if = caller_ld, caller_bd, caller_in_if
        if not body:
            return None
        # caller bookkeeping: writes through parameters, results
        for st, info in henv.storages.items():
            if info.get("caller") is not None and info["written"]:
                self.mark_written(info["caller"], info["exact"])
        out_names = []
        storage_map = {st: info["caller"] for st, info in henv.storages.items() if info.get("caller") is not None}
        for rv in results:
            name = self.env.fresh("r")
            out_names.append(name)
            if rv.scalar:
                self.env.vars[name] = Var(name, rv.dt, None, exact=rv.exact and not self.loop_depth)
            else:
                shape = tuple(Dim(d.n, d.s.subst(sym_map) if d.s is not None else None) for d in rv.shape)
                if rv.storage in storage_map:
                    cst = storage_map[rv.storage]
                else:
                    cst = self.env.new_storage(henv.storages[rv.storage]["exact"])
                self.env.vars[name] = Var(name, rv.dt, shape, storage=cst)
        # texts
        params_arr = [f"{p}: {t}" for p, t, _, _ in args] + ([f"y1: {scal[1]}"] if scal else [])
        rtypes = []
        for rv in results:
            if rv.scalar:
                rtypes.append(rv.dt)
            else:
                rtypes.append(f"{rv.dt}[{', '.join(dim_text(d) for d in rv.shape)}]")
        sig = f"fn {hname}({', '.join(params_arr)})"
        if len(rtypes) == 1:
            sig += f" -> {rtypes[0]}"
        elif rtypes:
            sig += f" -> ({', '.join(rtypes)})"
        rnames = [rv.name for rv in results]
        ret = [] if not rnames else [f"return {rnames[0]};" if len(rnames) == 1 else f"return ({', '.join(rnames)});"]
        fn_arr = [sig + " {"] + indent(self.join(body, "arr") + ret) + ["}"]
        pargs = [p for p, _, _, _ in args] + (["y1"] if scal else [])
        fn_py = [f"def {hname}({', '.join(pargs)}):"]
        pre = []
        if scal:
            pre.append(f"y1 = {NPN[scal[1]]}(y1)")
        bound = set()
        for pname, _, e, _ in args:
            for k, d in enumerate(henv.vars[pname].shape):
                sname = d.s.render()
                if sname not in bound:
                    bound.add(sname)
                    pre.append(f"{sname} = np.int64({pname}.shape[{k}])")
        py_ret = [] if not rnames else [f"return {rnames[0]}" if len(rnames) == 1 else f"return ({', '.join(rnames)})"]
        fn_py += indent(pre + self.join(body, "py") + (py_ret or ["return None"]))
        self.functions.append((fn_arr, fn_py))
        call_args_arr = [e.arr for _, _, e, _ in args] + ([scal[2].arr] if scal else [])
        call_args_py = [e.py for _, _, e, _ in args] + ([scal[2].py] if scal else [])
        call_arr = f"{hname}({', '.join(call_args_arr)})"
        call_py = f"{hname}({', '.join(call_args_py)})"
        if not out_names:
            arr = [f"{call_arr};"]
            py = [call_py]
        elif len(out_names) == 1:
            arr = [f"let {out_names[0]} = {call_arr};"]
            py = [f"{out_names[0]} = {call_py}"]
        else:
            arr = [f"let ({', '.join(out_names)}) = {call_arr};"]
            py = [f"{', '.join(out_names)} = {call_py}"]
        # instrumented: the body inlined (helper locals have their own names)
        pyi = [f"{p} = {e.pyi}" for p, _, e, _ in args]
        if scal:
            pyi.append(f"y1 = {NPN[scal[1]]}({scal[2].pyi})")
        pyi += pre[1:] if scal else pre
        pyi += self.join(body, "pyi")
        if out_names:
            pyi.append(f"{', '.join(out_names)}{',' if len(out_names) == 1 else ''} = ({', '.join(rnames)}{',' if len(rnames) == 1 else ''})")
        return Stmt(arr, py, pyi)

    def gen_stmt(self, top=True):
        depth_ok = self.block_depth < 2
        opts = [(3, self.st_let_arr), (3, self.st_setitem), (3, self.st_inplace), (1.2, self.st_let_scal),
                (1, self.st_scal_update), (0.6, self.st_rebind_arr), (2, self.st_overlap),
                (0.8 if top else 0.3, self.st_call), (1.2, self.st_scatter), (0.7, self.st_add_at),
                (1.2, self.st_mask_write), (0.3, self.st_f32_update)]
        if top:
            opts += [(2, self.st_let_view), (0.5, self.st_filter_let)]
        if depth_ok:
            opts += [(1.3 if top else 0.4, self.st_for), (0.6 if top else 0.15, self.st_while),
                     (1 if top else 0.4, self.st_if)]
        return self.pick(opts)()

    # ---- the program
    def build(self):
        r = self.r
        self.env = Env()
        nsizes = r.randint(2, 3)
        self.sizes = []
        params = []
        for k in range(nsizes):
            n = self.pick([(0.12, 1), (1, 2), (1, 3), (1, 4), (1, 5), (0.6, 6), (0.4, 7)])
            name = f"n{k}"
            self.sizes.append((name, n))
            params.append((name, "i64", n))
            self.env.vars[name] = Var(name, "i64", None, param=True)
        if self.chance(0.7):
            v = self.float_lit()
            params.append(("p0", "f64", v))
            self.env.vars["p0"] = Var("p0", "f64", None, param=True)
        if self.chance(0.4):
            params.append(("k0", "i64", r.randint(-3, 5)))
            self.env.vars["k0"] = Var("k0", "i64", None, param=True)
        if self.chance(0.25):
            params.append(("f0", "f32", 0.5))
            self.env.vars["f0"] = Var("f0", "f32", None, param=True)
        self.params = params
        header_i = [f"{n} = {NPN[t]}({d!r})" for n, t, d in params]

        stmts = []
        n_init = r.randint(2, 3)
        n_stmts = self.max_stmts or r.randint(6, 14)

        def prefix_code(extra=None):
            lines = header_i + self.join(stmts + ([extra] if extra else []), "pyi")
            return "\n".join(lines) + "\n"

        ns = run_instrumented(prefix_code(), "check")
        self.rejects = 0
        for k in range(n_init + n_stmts):
            for attempt in range(12):
                saved = copy.deepcopy(self.env)
                nfun = len(self.functions)
                self.loop_depth = self.block_depth = 0
                self.loopvars = []
                s = self.st_let_arr() if k < n_init else self.gen_stmt(top=True)
                if s is None:
                    self.env = saved
                    del self.functions[nfun:]
                    continue
                try:
                    h = Helpers("check")
                    ns.update(h.namespace())
                    with warnings.catch_warnings(), np.errstate(all="raise"):
                        warnings.simplefilter("error")
                        exec("\n".join(s.pyi) + "\n", ns)
                    stmts.append(s)
                    break
                except RECOVERABLE:
                    self.rejects += 1
                    self.env = saved
                    del self.functions[nfun:]
                    ns = run_instrumented(prefix_code(), "check")
        self.stmts = stmts
        return self.finish(stmts, header_i)

    def finish(self, stmts, header_i):
        env = self.env
        arrs = env.arrays()
        chosen = []
        seen_storage = set()
        written = [v for v in arrs if env.storages[v.storage]["written"]]
        self.r.shuffle(written)
        for v in written:
            if v.storage not in seen_storage and len(chosen) < 4:
                chosen.append(v)
                seen_storage.add(v.storage)
        others = [v for v in env.vars.values() if v not in chosen and not v.param]
        self.r.shuffle(others)
        for v in others[: self.r.randint(1, 3)]:
            chosen.append(v)
        if not chosen:
            chosen = arrs[:1] or list(env.vars.values())[:1]
        types = []
        for v in chosen:
            if v.scalar:
                types.append(v.dt)
            else:
                types.append(f"{v.dt}[{', '.join(dim_text(d) for d in v.shape)}]")
        names = [v.name for v in chosen]
        # results of run-time size (`f64[?]`, `f64[?, m]`): filter result variables
        fnames = sorted(env.filters)
        self.r.shuffle(fnames)
        for name in fnames[: self.r.randint(0, 2)]:
            dt, R, _ = env.filters[name]
            types.append(f"{dt}[{', '.join(['?'] + [dim_text(d) for d in R])}]")
            names.append(name)
            self.returned_dynamic += 1
        ret_t = types[0] if len(types) == 1 else "(" + ", ".join(types) + ")"
        ret_e = names[0] if len(names) == 1 else "(" + ", ".join(names) + ")"
        sig = ", ".join(f"{n}: {t} = {self.lit_text(d)}" for n, t, d in self.params)
        arr_lines = [f"# generated by tests/fuzz/arrgen.py, seed {self.seed}"]
        for fa, _ in self.functions:
            arr_lines += fa + [""]
        arr_lines += [f"fn main({sig}) -> {ret_t} {{"]
        arr_lines += indent(self.join(stmts, "arr") + [f"return {ret_e};"])
        arr_lines.append("}")
        arr = "\n".join(arr_lines) + "\n"

        pysig = ", ".join(f"{n}={d!r}" for n, t, d in self.params)
        py_lines = [
            f'"""NumPy translation of the arrayc program generated by tests/fuzz/arrgen.py, seed {self.seed}."""',
            "import numpy as np",
            "",
            "from arrayc_random import random as _random  # examples/reference/arrayc_random.py",
            "",
            "",
            "def _diag(x):",
            '    """A writable view of the main diagonal of a 2-d array, like arrayc\'s diagonal()."""',
            "    return np.lib.stride_tricks.as_strided(x, shape=(min(x.shape),), strides=(x.strides[0] + x.strides[1],))",
            "",
            "",
        ]
        for _, fp in self.functions:
            py_lines += fp + ["", ""]
        py_lines += [f"def main({pysig}):"]
        body = [f"{n} = {NPN[t]}({n})" for n, t, d in self.params]
        body += self.join(stmts, "py")
        body.append(f"return {ret_e}")
        py_lines += indent(body)
        py = "\n".join(py_lines) + "\n"
        pyi = "\n".join(header_i + self.join(stmts, "pyi") + [f"_results = {ret_e}" if len(names) > 1 else f"_results = ({ret_e},)"]) + "\n"
        return arr, py, pyi, types

    @staticmethod
    def lit_text(d):
        if isinstance(d, bool):
            return "true" if d else "false"
        return repr(d)


def _same(a, b, tol):
    a, b = np.asarray(a), np.asarray(b)
    if a.shape != b.shape or a.dtype != b.dtype:
        return False
    if a.dtype.kind == "f":
        rtol, atol = tol[DT_OF[a.dtype]]
        return bool(np.allclose(a, b, rtol=rtol, atol=atol, equal_nan=False))
    return bool(np.array_equal(a, b))


def validate(arr, py, pyi, seed):
    """Raises Reject unless the plain run, the perturbed run and the clean translation agree."""
    plain = run_instrumented(pyi, "check")["_results"]
    for k in range(2):
        pert = run_instrumented(pyi, "perturb", seed=1000 + k)["_results"]
        for a, b in zip(plain, pert):
            if not _same(a, b, SELF_TOL):
                raise Reject("ill-conditioned: perturbed run differs")
    prog = Program(seed, arr, py, pyi, [], [], 0)
    clean = prog.numpy_results()
    if len(clean) != len(plain):
        raise AssertionError("generator bug: result count of the clean translation")
    for i, (a, b) in enumerate(zip(clean, plain)):
        a, b = np.asarray(a), np.asarray(b)
        if a.dtype != b.dtype or a.shape != b.shape or not np.array_equal(a, b):
            raise AssertionError(f"generator bug: clean and instrumented translations differ in result {i}")


NEW_OPS = ("cumsum", "cumprod", "argmin", "argmax", "scatter", "scatter2", "scatter_mixed", "gather_mixed",
           "gather_nd", "take", "add_at", "add_at_tuple", "filter", "compress",
           "mask_write", "filter_let", "filter_result", "bincount", "dot", "f32_inplace", "f32_inplace_lit")


def features(arr, marks, returned_dynamic=0):
    """How often each operation of issue 13 occurs in the program text `arr` (operations named by
    a function: by their token; the others by the texts the generator recorded in `marks`)."""
    import re
    out = {}
    for tok in ("cumsum", "cumprod", "argmin", "argmax", "add_at", "compress", "bincount", "take"):
        out[tok] = len(re.findall(rf"\b{tok}\(", arr))
    out["dot"] = len(re.findall(r"\bdot\(", arr)) + arr.count(" @ ")
    for kind in ("scatter", "scatter2", "scatter_mixed", "gather_mixed", "gather_nd", "add_at_tuple", "mask_write",
                 "filter_let", "filter", "f32_inplace", "f32_inplace_lit"):
        # a recorded text not preceded by a name character (`s1 += x;` is not counted in `s11 += x;`)
        out[kind] = sum(len(re.findall(r"(?<!\w)" + re.escape(t), arr)) for t in marks[kind])
    out["filter_result"] = returned_dynamic
    return out


def generate(seed, max_stmts=None, avoid=()):
    """The program for this seed (deterministic). avoid: tags of KNOWN_BUGS whose trigger the
    generator then leaves out (to look for other bugs while known ones are open)."""
    for attempt in range(50):
        g = Generator(seed * 1000 + attempt, max_stmts, avoid)
        arr, py, pyi, types = g.build()
        try:
            validate(arr, py, pyi, seed)
        except RECOVERABLE:
            continue
        p = Program(seed, arr, py, pyi, g.params, types, attempt)
        p.features = features(arr, g.marks, g.returned_dynamic)
        p.arr = p.arr.replace(f"seed {seed * 1000 + attempt}", f"seed {seed} (attempt {attempt})")
        p.py = p.py.replace(f"seed {seed * 1000 + attempt}.", f"seed {seed} (attempt {attempt}).")
        return p
    raise RuntimeError(f"no well-conditioned program for seed {seed} in 50 attempts")


def main(argv):
    """python3 tests/fuzz/arrgen.py SEED... [--max-stmts K] [--avoid-known]"""
    args = list(argv[1:])
    max_stmts, avoid = None, ()
    if "--max-stmts" in args:
        i = args.index("--max-stmts")
        max_stmts = int(args[i + 1])
        del args[i:i + 2]
    if "--avoid-known" in args:
        args.remove("--avoid-known")
        avoid = tuple(KNOWN_BUGS)
    for s in [int(a) for a in args] or [0]:
        p = generate(s, max_stmts=max_stmts, avoid=avoid)
        print(p.arr)
        print(p.py)


if __name__ == "__main__":
    main(sys.argv)

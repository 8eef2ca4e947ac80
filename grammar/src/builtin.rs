//! The builtin functions: one [`Builtin`] per function, and the one table of what the front end,
//! the lowering and the language server know about each (its name, arity, keyword arguments, usage
//! line and documentation).
//!
//! The checker resolves every call once, to a [`Callee`] (a builtin or a function of the program),
//! and records it in [`crate::Checked::callees`]; the lowering and the language server read that
//! resolution instead of names. `docs/language.md`'s table of builtin functions is [`docs_table`]
//! (a test checks that it is), and the language server's hover shows [`Builtin::doc`].
//!
//! A function of the program shadows a builtin of the same name, as a Python function shadows
//! NumPy's after `from numpy import *`: a bare call `fmin(a, b)` calls the program's `fmin`
//! ([`crate::check`]'s `resolve`). NumPy's qualified spellings always call the builtin: `np.fmin(a, b)`
//! (the parser names the call `np.fmin`, [`QUALIFIED`]), a method `x.sum()`, an attribute
//! `x.ndim`, `x.shape[k]`, a ufunc method `add.reduce(x)`, `linalg.norm(x)`, `x.T` and `a @ b`;
//! so do the calls the parser writes itself (`len` in `for v in x`). `range` is the syntax of
//! `for` loops, not a function: a function named `range` is an error (E0203).

use crate::ast::{DType, Expr, ExprKind};

/// The prefix of a call's name that the parser writes for NumPy's qualified spelling `np.f(...)`
/// (and for the calls it writes itself): such a call always calls the builtin `f`, never a
/// function of the program named `f` (no function's name has a dot).
pub const QUALIFIED: &str = "np.";

/// `name` as the name of a call that always calls the builtin `name` ([`QUALIFIED`]).
pub fn qualified(name: &str) -> String {
    format!("{QUALIFIED}{name}")
}

/// Whether a call's name may name a function of the program: a plain identifier, not a qualified
/// or method spelling (`np.sum`, `.sum`, `linalg.norm`, `@`), which only builtins take.
pub fn may_name_a_function(name: &str) -> bool {
    !name.contains('.') && name != "@"
}

/// Python's builtin `min(a, b, ...)` / `max(a, b, ...)`: a call of the bare name `min` or `max`
/// with two or more positional arguments, as a NumPy program writes them (`k = min(n, 3)`). It
/// compares scalars, keeping the first argument unless a later one is smaller (larger), so NaN and
/// ties resolve as Python's do; an array argument is an error (E0318, Python's "truth value of an
/// array is ambiguous"). One exception keeps arrayc's bare NumPy names: `min(x, 1)` of an array
/// `x` and an integer literal is NumPy's reduction along that axis ([`MinMaxCall::Axis`]). The
/// checker and the lowering both ask this one rule, given whether the first argument is an
/// array; `None` for any other call.
pub fn python_min_max(name: &str, args: &[crate::ast::Expr], first_is_array: bool) -> Option<MinMaxCall> {
    let b = match name {
        "min" => Builtin::Min,
        "max" => Builtin::Max,
        _ => return None,
    };
    match args {
        [_, axis] if first_is_array && crate::syntax::literal_axis(axis) => Some(MinMaxCall::Axis(b)),
        [_, _, ..] => Some(MinMaxCall::Python(b)),
        _ => None,
    }
}

/// Python's `round(s)`: a bare call `round` (not `np.round`, `around` or a method) of one scalar
/// and no keyword is Python's built-in, whose result is an `int` (`i64`): the value rounded half to
/// even (the rule of NumPy's `round`), converted; NaN, an infinity or a result beyond `i64` is a
/// run-time error (Python's ValueError and OverflowError). With `ndigits` (`round(s, 2)`), or of an
/// array, it is NumPy's `round`, whose result keeps the dtype. The checker and the lowering both ask
/// this one rule, given whether the argument is a scalar.
pub fn python_round(name: &str, args: &[crate::ast::Expr], no_keywords: bool, arg_is_scalar: bool) -> bool {
    name == "round" && args.len() == 1 && no_keywords && arg_is_scalar
}

/// The two meanings of a bare `min`/`max` call of several arguments ([`python_min_max`]); each
/// carries the reduction's builtin, [`Builtin::Min`] or [`Builtin::Max`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MinMaxCall {
    /// Python's `min(a, b, ...)` of scalars.
    Python(Builtin),
    /// NumPy's `min(x, k)`: the reduction along axis `k`, as `min(x, axis=k)` ([`axis_by_position`]).
    Axis(Builtin),
}

/// The keyword arguments of `f(x, k)` read as `f(x, axis=k)`: `kwargs` with `("axis", k)` added.
pub fn axis_by_position(
    axis: &crate::ast::Expr,
    kwargs: &[(crate::ast::Ident, crate::ast::Expr)],
) -> Vec<(crate::ast::Ident, crate::ast::Expr)> {
    let mut kw = kwargs.to_vec();
    kw.push((crate::ast::Ident { name: "axis".to_string(), span: axis.span.clone() }, axis.clone()));
    kw
}

/// What a call calls, as the checker resolved it (see [`crate::Checked::callee`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Callee {
    /// The function of the program with this index (into `Program::functions` and
    /// [`crate::Checked::signatures`]; of duplicate definitions, the first).
    User(usize),
    /// A builtin function.
    Builtin(Builtin),
}

/// One builtin's row of [`TABLE`].
#[derive(Clone, Copy, Debug)]
pub struct Row {
    /// The builtin.
    pub builtin: Builtin,
    /// Its name in calls.
    pub name: &'static str,
    /// The least and the most positional arguments it takes (`usize::MAX`: no limit).
    pub arity: (usize, usize),
    /// The keyword arguments it takes.
    pub keywords: &'static [&'static str],
    /// Its calling forms on one line, the note of the checker's arity and keyword errors.
    pub usage: &'static str,
}

impl Row {
    /// Its usage line for messages: a family's shared line (`sum(x) | sum(x, axis=k) | ..`) names
    /// this builtin (`min(x) | min(x, axis=k) | ..`); a line listing several functions (`a / b`)
    /// stays as it is.
    pub fn usage_note(&self) -> String {
        match self.usage.split_once('(') {
            Some((example, _)) if !self.usage.contains(" / ") && example != self.name => {
                self.usage.replace(&format!("{example}("), &format!("{}(", self.name))
            }
            _ => self.usage.to_string(),
        }
    }
}

/// Any number of positional arguments.
const ANY: usize = usize::MAX;
/// The keyword argument `dtype=` alone.
const DTYPE: &[&str] = &["dtype"];
/// The keyword argument `axis=` alone.
const AXIS: &[&str] = &["axis"];
/// The keywords of `isclose` and `allclose`.
const CLOSE: &[&str] = &["rtol", "atol", "equal_nan"];
/// The usage lines that several builtins share.
const CREATION: &str = "zeros(d0, d1, ..., dtype=f64)";
const MATH: &str = "abs(x) / sqrt(x) / exp(x) / log(x) / sin(x) / cos(x) / tanh(x)";
const MIN_MAX: &str = "minimum(a, b) / maximum(a, b)";
const REDUCTION: &str = "sum(x) | sum(x, axis=k) | sum(x, axis=(j, k))";
const CAST: &str = "f64(x) (a cast)";
const ARG_REDUCTION: &str = "argmin(x) | argmin(x, axis=k)";
const SCAN: &str = "cumsum(x) | cumsum(x, axis=k)";
const CUMULATIVE: &str = "cumulative_sum(x) (x 1-d) | cumulative_sum(x, axis=k, include_initial=false)";
const UFUNC1: &str = "sign(x) / square(x) / reciprocal(x) / logical_not(x)";
const ANGLE: &str = "deg2rad(x) / rad2deg(x) / radians(x) / degrees(x)";
const UFUNC2: &str =
    "hypot(a, b) / fmod(a, b) / power(a, b) / logical_and(a, b) / logical_or(a, b) / logical_xor(a, b)";
const TEST_REDUCTION: &str = "any(x) | any(x, axis=k) | any(x, axis=(j, k))";
const NAN_REDUCTION: &str = "nansum(x) | nansum(x, axis=k) | nansum(x, axis=(j, k))";
const MOMENT: &str = "var(x) | var(x, axis=k) | var(x, axis=(j, k)) | var(x, axis=k, ddof=1)";

const ATLEAST: &str = "atleast_1d(x) / atleast_2d(x) / atleast_3d(x) (x an array or a scalar)";
const SET_OP: &str = "union1d(a, b) / intersect1d(a, b) / setdiff1d(a, b) / setxor1d(a, b) (arrays, flattened)";

/// Defines [`Builtin`] and [`TABLE`] from one list, so that `TABLE[b as usize]` is `b`'s row.
macro_rules! builtins {
    ($($variant:ident: $name:literal, ($lo:expr, $hi:expr), $keywords:expr, $usage:expr;)*) => {
        /// A builtin function (`docs/language.md`, "Builtin functions"); [`Builtin::row`] gives
        /// its facts.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Builtin {
            $(
                #[doc = concat!("The builtin `", $name, "`.")]
                $variant,
            )*
        }

        /// Every builtin's row, in the order of [`Builtin`]'s variants.
        pub const TABLE: &[Row] = &[
            $(Row { builtin: Builtin::$variant, name: $name, arity: ($lo, $hi), keywords: $keywords, usage: $usage },)*
        ];
    };
}

builtins! {
    Zeros: "zeros", (0, ANY), DTYPE, CREATION;
    Ones: "ones", (0, ANY), DTYPE, CREATION;
    Empty: "empty", (0, ANY), DTYPE, CREATION;
    Full: "full", (1, ANY), DTYPE, "full(d0, ..., value, dtype=...)";
    ZerosLike: "zeros_like", (1, 1), DTYPE, "zeros_like(x, dtype=...)";
    OnesLike: "ones_like", (1, 1), DTYPE, "ones_like(x, dtype=...)";
    EmptyLike: "empty_like", (1, 1), DTYPE, "empty_like(x, dtype=...)";
    FullLike: "full_like", (2, 2), DTYPE, "full_like(x, value, dtype=...)";
    Arange: "arange", (1, 3), DTYPE,
        "arange(stop) | arange(start, stop) | arange(start, stop, step), dtype=...";
    Linspace: "linspace", (3, 3), &["endpoint", "axis"], "linspace(start, stop, num) | linspace(start, stop, num=n) | linspace(start, stop, num, endpoint=false) | linspace(a, b, num, axis=k)";
    Random: "random", (0, ANY), &["seed"], "random(d0, ..., seed=0)";
    Normal: "normal", (0, ANY), &["seed", "loc", "scale"], "normal(d0, ..., seed=0, loc=0.0, scale=1.0)";
    Integers: "integers", (2, ANY), &["seed"], "integers(low, high, d0, ..., seed=0) (low < high integers)";
    Copy: "copy", (1, 1), &[], "copy(x)";
    Abs: "abs", (1, 1), &[], MATH;
    Sqrt: "sqrt", (1, 1), &[], MATH;
    Exp: "exp", (1, 1), &[], MATH;
    Log: "log", (1, 1), &[], MATH;
    Sin: "sin", (1, 1), &[], MATH;
    Cos: "cos", (1, 1), &[], MATH;
    Tanh: "tanh", (1, 1), &[], MATH;
    Tan: "tan", (1, 1), &[], MATH;
    Arcsin: "arcsin", (1, 1), &[], MATH;
    Arccos: "arccos", (1, 1), &[], MATH;
    Arctan: "arctan", (1, 1), &[], MATH;
    Sinh: "sinh", (1, 1), &[], MATH;
    Cosh: "cosh", (1, 1), &[], MATH;
    Arcsinh: "arcsinh", (1, 1), &[], MATH;
    Arccosh: "arccosh", (1, 1), &[], MATH;
    Arctanh: "arctanh", (1, 1), &[], MATH;
    Exp2: "exp2", (1, 1), &[], MATH;
    Expm1: "expm1", (1, 1), &[], MATH;
    Log2: "log2", (1, 1), &[], MATH;
    Log10: "log10", (1, 1), &[], MATH;
    Log1p: "log1p", (1, 1), &[], MATH;
    Floor: "floor", (1, 1), &[], MATH;
    Ceil: "ceil", (1, 1), &[], MATH;
    Trunc: "trunc", (1, 1), &[], MATH;
    Rint: "rint", (1, 1), &[], MATH;
    IsNan: "isnan", (1, 1), &[], MATH;
    IsInf: "isinf", (1, 1), &[], MATH;
    IsFinite: "isfinite", (1, 1), &[], MATH;
    Sign: "sign", (1, 1), &[], UFUNC1;
    Square: "square", (1, 1), &[], UFUNC1;
    Reciprocal: "reciprocal", (1, 1), &[], UFUNC1;
    Round: "round", (1, 2), &["decimals"], "round(x) | round(x, d) | round(x, decimals=d) (d an integer literal)";
    LogicalNot: "logical_not", (1, 1), &[], UFUNC1;
    Minimum: "minimum", (2, 2), &[], MIN_MAX;
    Maximum: "maximum", (2, 2), &[], MIN_MAX;
    Arctan2: "arctan2", (2, 2), &[], "arctan2(y, x)";
    Copysign: "copysign", (2, 2), &[], "copysign(x, y)";
    Hypot: "hypot", (2, 2), &[], UFUNC2;
    Gcd: "gcd", (2, 2), &[], "gcd(a, b) (integers)";
    Lcm: "lcm", (2, 2), &[], "lcm(a, b) (integers)";
    Fmod: "fmod", (2, 2), &[], UFUNC2;
    Power: "power", (2, 2), &[], UFUNC2;
    LogicalAnd: "logical_and", (2, 2), &[], UFUNC2;
    LogicalOr: "logical_or", (2, 2), &[], UFUNC2;
    LogicalXor: "logical_xor", (2, 2), &[], UFUNC2;
    Clip: "clip", (3, 3), &[], "clip(x, lo, hi) | clip(x, a_min=lo, a_max=hi) (or min=, max=; a bound None or left out)";
    Where: "where", (1, 3), &[], "where(cond, a, b) | where(cond) (nonzero(cond))";
    Choose: "choose", (2, 2), &["mode"], "choose(a, [c0, c1, ...]) | choose(a, [c0, ...], mode=\"clip\") (or \"wrap\"; \"raise\" by default) | a.choose([c0, ...])";
    Sum: "sum", (1, 1), &["axis", "where", "dtype"], REDUCTION;
    Prod: "prod", (1, 1), &["axis", "dtype", "where"], REDUCTION;
    Min: "min", (1, 1), &["axis", "initial", "where"], REDUCTION;
    Max: "max", (1, 1), &["axis", "initial", "where"], REDUCTION;
    Mean: "mean", (1, 1), &["axis", "dtype", "where"], REDUCTION;
    Any: "any", (1, 1), AXIS, TEST_REDUCTION;
    All: "all", (1, 1), AXIS, TEST_REDUCTION;
    CountNonzero: "count_nonzero", (1, 1), AXIS, "count_nonzero(x) | count_nonzero(x, axis=k) | count_nonzero(x, axis=(j, k))";
    Var: "var", (1, 1), &["axis", "ddof"], MOMENT;
    Std: "std", (1, 1), &["axis", "ddof"], MOMENT;
    F64: "f64", (1, 1), &[], CAST;
    F32: "f32", (1, 1), &[], CAST;
    I64: "i64", (1, 1), &[], CAST;
    I32: "i32", (1, 1), &[], CAST;
    I16: "i16", (1, 1), &[], CAST;
    I8: "i8", (1, 1), &[], CAST;
    U64: "u64", (1, 1), &[], CAST;
    U32: "u32", (1, 1), &[], CAST;
    U16: "u16", (1, 1), &[], CAST;
    U8: "u8", (1, 1), &[], CAST;
    Bool: "bool", (1, 1), &[], CAST;
    Transpose: "transpose", (1, ANY), &["axes"],
        "transpose(x) (or x.T) | transpose(x, (a0, a1, ...)) | transpose(x, axes=...) | x.transpose(a0, a1, ...) (integer literals)";
    Diagonal: "diagonal", (1, 1), &[], "diagonal(x)";
    Len: "len", (1, 1), &[], "len(x) (x an array)";
    Ndim: "ndim", (1, 1), &[], "ndim(x) (or x.ndim)";
    Size: "size", (1, 1), AXIS, "size(x) | size(x, axis=k) (or x.size, x.shape[k])";
    Itemsize: "itemsize", (1, 1), &[], "x.itemsize / x.nbytes (attributes)";
    Nbytes: "nbytes", (1, 1), &[], "x.itemsize / x.nbytes (attributes)";
    Take: "take", (2, 2), AXIS, "take(x, idx) (x 1-d) | take(x, idx, axis=k) (idx an i64 array)";
    TakeAlongAxis: "take_along_axis", (2, 2), AXIS,
        "take_along_axis(x, idx) | take_along_axis(x, idx, axis=k) (idx an integer array of x's rank; default axis -1) | take_along_axis(x, idx, axis=None) (idx 1-d)";
    PutAlongAxis: "put_along_axis", (3, 3), AXIS, "put_along_axis(x, idx, v, axis=k) (a statement; idx an integer array of x's rank)";
    RavelMultiIndex: "ravel_multi_index", (2, 2), &[], "ravel_multi_index((i, j, ..), (d0, d1, ..)) (integer arrays or scalars, one per size)";
    Dot: "dot", (2, 2), &[], "dot(a, b) or a @ b (a and b 1-d or 2-d)";
    ArgMin: "argmin", (1, 1), AXIS, ARG_REDUCTION;
    ArgMax: "argmax", (1, 1), AXIS, ARG_REDUCTION;
    CumSum: "cumsum", (1, 1), AXIS, SCAN;
    CumProd: "cumprod", (1, 1), AXIS, SCAN;
    CumulativeSum: "cumulative_sum", (1, 1), &["axis", "include_initial"], CUMULATIVE;
    CumulativeProd: "cumulative_prod", (1, 1), &["axis", "include_initial"], CUMULATIVE;
    MaximumAccumulate: "maximum.accumulate", (1, 1), AXIS, "maximum.accumulate(x) | maximum.accumulate(x, axis=k) (default axis 0)";
    MinimumAccumulate: "minimum.accumulate", (1, 1), AXIS, "minimum.accumulate(x) | minimum.accumulate(x, axis=k) (default axis 0)";
    AddAt: "add_at", (3, 3), &[], "add_at(x, idx, v) (x an array, idx an i64 array)";
    Compress: "compress", (2, 2), &[], "compress(mask, x) (x and mask 1-d, mask bool)";
    Bincount: "bincount", (1, 2), &["minlength", "weights"],
        "bincount(idx, minlength=0) | bincount(idx, weights, minlength=0) | bincount(idx, weights=w) (idx 1-d integer or bool)";
    Flip: "flip", (1, 1), AXIS, "flip(x) | flip(x, axis=k)";
    ExpandDims: "expand_dims", (1, 1), AXIS, "expand_dims(x, axis=k)";
    ShapeEqual: "shape==", (2, 2), &[], "x.shape == y.shape | x.shape == (n, m) (and `!=`)";
    DTypeEqual: "dtype==", (2, 2), &[], "x.dtype == y.dtype | x.dtype == f32 (and `!=`)";
    DTypeRel: "issubdtype", (3, 3), &[], "np.issubdtype(x.dtype, np.floating) | x.dtype.kind == 'f' | np.can_cast(x.dtype, np.int64)";
    DTypeLimit: "finfo", (2, 2), &[], "np.finfo(x.dtype).eps | np.iinfo(x.dtype).max | x.dtype.itemsize";
    ListBuffer: "list.buffer", (1, 1), &[], "l = []; ... l.append(e) (a list grown by appends: its buffer)";
    ListItem: "list.item", (2, 2), &[], "l.append(e) (an item of a list grown by appends)";
    ScopeUnbound: "scope.unbound", (1, 1), &[], "a name first assigned in a loop or branch, read after it";
    ScopeValue: "scope.value", (2, 2), &[], "name = e (a name first assigned in a loop or branch)";
    VectorizeBranches: "vectorize.branches", (1, 1), &[], "np.vectorize(lambda t: a if c else b)";
    Squeeze: "squeeze", (1, 1), AXIS, "squeeze(x) | squeeze(x, axis=k)";
    Concatenate: "concatenate", (1, 1), AXIS, "concatenate((a, b, ...)) | concatenate((a, b, ...), axis=k)";
    Stack: "stack", (1, 1), AXIS, "stack((a, b, ...)) | stack((a, b, ...), axis=k)";
    Vstack: "vstack", (1, 1), &[], "vstack((a, b, ...))";
    Hstack: "hstack", (1, 1), &[], "hstack((a, b, ...))";
    Dstack: "dstack", (1, 1), &[], "dstack((a, b, ...))";
    ColumnStack: "column_stack", (1, 1), &[], "column_stack((a, b, ...))";
    Cross: "cross", (2, 2), &[], "cross(a, b) (2 or 3 components along the last axis)";
    Append: "append", (2, 2), &[], "append(x, values) (x 1-d, values a scalar or 1-d)";
    Delete: "delete", (2, 2), AXIS, "delete(x, obj) | delete(x, obj, axis=k) (obj an integer, slice(a, b, c), a list or 1-d integer array of indices, or a bool mask)";
    Insert: "insert", (3, 3), AXIS, "insert(x, obj, values) | insert(x, obj, values, axis=k) (obj an integer, slice(a, b, c), a list or 1-d integer array of indices, or a bool mask)";
    Roll: "roll", (2, 2), AXIS, "roll(x, shift) | roll(x, shift=s, axis=k) (without axis: of x flattened)";
    Split: "split", (2, 2), AXIS, "split(x, k) | split(x, k, axis=a) (k an integer literal: k equal sections)";
    ArraySplit: "array_split", (2, 2), AXIS, "array_split(x, k) | array_split(x, k, axis=a) (k an integer literal)";
    Vsplit: "vsplit", (2, 2), &[], "vsplit(x, k) | vsplit(x, [p0, p1, ..]) (split along axis 0; x at least 2-d)";
    Hsplit: "hsplit", (2, 2), &[], "hsplit(x, k) | hsplit(x, [p0, p1, ..]) (split along axis 1; of a 1-d x, axis 0)";
    Meshgrid: "meshgrid", (2, ANY), &["indexing"], "meshgrid(x1, x2, ...) | meshgrid(x1, x2, ..., indexing=\"ij\") (1-d arrays)";
    Tile: "tile", (2, 2), &[], "tile(x, reps) | tile(x, (r0, r1, ...)) (integers)";
    Repeat: "repeat", (2, 2), AXIS, "repeat(x, k) (of x flattened) | repeat(x, k, axis=a) (k an integer)";
    Pad: "pad", (2, 2), &["constant_values", "mode"],
        "pad(x, w) | pad(x, (before, after)) | pad(x, ((b0, a0), (b1, a1), ...)), constant_values=0 | mode=\"constant\"|\"edge\"|\"wrap\"|\"reflect\"|\"symmetric\"";
    Array: "array", (1, 1), DTYPE, "array([a, b, ...], dtype=...) | array(x, dtype=...)";
    AsArray: "asarray", (1, 1), DTYPE, "asarray([a, b, ...], dtype=...) | asarray(x, dtype=...)";
    Reshape: "reshape", (2, ANY), &[],
        "reshape(x, (d0, d1, ...)) | reshape(x, d) | x.reshape(d0, d1, ...) | x.reshape((d0, d1, ...)) (one size may be -1)";
    Ravel: "ravel", (1, 1), &[], "ravel(x) | x.ravel()";
    Flatten: "flatten", (1, 1), &[], "flatten(x) | x.flatten()";
    Convolve: "convolve", (2, 2), &["mode"], "convolve(a, v) | convolve(a, v, mode=full|same|valid) (a, v 1-d)";
    Sort: "sort", (1, 1), AXIS, "sort(x) | sort(x, axis=k)";
    Argsort: "argsort", (1, 1), AXIS, "argsort(x) | argsort(x, axis=k) (or x.argsort())";
    Partition: "partition", (2, 2), AXIS, "partition(x, kth) | partition(x, kth, axis=k) (kth an integer)";
    Argpartition: "argpartition", (2, 2), AXIS,
        "argpartition(x, kth) | argpartition(x, kth, axis=k) (kth an integer; or x.argpartition(kth))";
    Diff: "diff", (1, 2), &["n", "axis"],
        "diff(x) | diff(x, n) | diff(x, n=k, axis=a) (n a non-negative integer literal, axis default -1)";
    Outer: "outer", (2, 2), &[], "outer(a, b) (a and b arrays, flattened, or scalars)";
    Inner: "inner", (2, 2), &[], "inner(a, b) (a, b 1-d or 2-d)";
    Vdot: "vdot", (2, 2), &[], "vdot(a, b) (a, b arrays of one size, flattened)";
    Kron: "kron", (2, 2), &[], "kron(a, b) (a, b both 1-d or both 2-d)";
    Einsum: "einsum", (2, ANY), &[], "einsum(\"ij,jk->ik\", a, b, ...) (the subscripts a string literal)";
    Tensordot: "tensordot", (2, 3), &["axes"],
        "tensordot(a, b) | tensordot(a, b, axes=n) | tensordot(a, b, axes=((a0, ...), (b0, ...))) (integer literals)";
    Logspace: "logspace", (2, 3), &["num", "endpoint", "base"],
        "logspace(start, stop) | logspace(start, stop, num) | logspace(start, stop, num=n, endpoint=false, base=b)";
    Diag: "diag", (1, 2), &["k"], "diag(v) | diag(v, k) | diag(v, k=j) (v 1-d or 2-d, k an integer literal)";
    Gradient: "gradient", (1, ANY), &["axis", "edge_order"], "gradient(f) | gradient(f, h) (h a spacing or coordinates) | gradient(f, hy, hx) | gradient(f, axis=k) | gradient(f, edge_order=2)";
    UnravelIndex: "unravel_index", (2, 2), &[],
        "unravel_index(i, (d0, d1, ...)) | let (r, c) = unravel_index(idx, (n, m)); (i an integer or integer array)";
    Cov: "cov", (1, 1), &["rowvar", "ddof"], "cov(m) | cov(m, rowvar=false, ddof=k) (m 1-d or 2-d)";
    Corrcoef: "corrcoef", (1, 1), &["rowvar"], "corrcoef(m) | corrcoef(m, rowvar=false) (m 1-d or 2-d)";
    Trapezoid: "trapezoid", (1, 3), &["x", "dx", "axis"],
        "trapezoid(y) | trapezoid(y, x) | trapezoid(y, x=x, axis=k) | trapezoid(y, dx=d, axis=k)";
    Eye: "eye", (1, 3), &["k", "dtype"], "eye(n) | eye(n, m) | eye(n, m, k) | eye(n, k=j), dtype=f64";
    Identity: "identity", (1, 1), DTYPE, "identity(n, dtype=f64)";
    Swapaxes: "swapaxes", (3, 3), &[], "swapaxes(x, a, b) | x.swapaxes(a, b) (a, b integer literals)";
    Moveaxis: "moveaxis", (3, 3), &[],
        "moveaxis(x, source, destination) (integer literals or tuples of them)";
    Trace: "trace", (1, 1), &[], "trace(x) | x.trace() (x 2-d)";
    NanSum: "nansum", (1, 1), AXIS, NAN_REDUCTION;
    NanMax: "nanmax", (1, 1), AXIS, NAN_REDUCTION;
    NanMin: "nanmin", (1, 1), AXIS, NAN_REDUCTION;
    NanMean: "nanmean", (1, 1), AXIS, NAN_REDUCTION;
    Median: "median", (1, 1), AXIS, "median(x) | median(x, axis=k)";
    Norm: "linalg.norm", (1, 1), &["axis", "ord"],
        "linalg.norm(x) | linalg.norm(x, axis=k) | linalg.norm(x, axis=(j, k)) | linalg.norm(v, ord) (ord 1|2|inf|-inf) | linalg.norm(a, ord) (a 2-d; ord 'fro'|'nuc'|1|-1|2|-2|inf|-inf) (or np.linalg.norm)";
    Solve: "linalg.solve", (2, 2), &[], "linalg.solve(a, b) (or np.linalg.solve; a one square matrix, b 1-d or 2-d)";
    Inv: "linalg.inv", (1, 1), &[], "linalg.inv(a) (or np.linalg.inv; a one square matrix)";
    Det: "linalg.det", (1, 1), &[], "linalg.det(a) (or np.linalg.det; a one square matrix)";
    Slogdet: "linalg.slogdet", (1, 1), &[], "let (sign, logabsdet) = linalg.slogdet(a); | linalg.slogdet(a)[1] (or np.linalg.slogdet; a one square matrix)";
    MatrixPower: "linalg.matrix_power", (2, 2), &[], "linalg.matrix_power(a, k) (or np.linalg.matrix_power; k an integer)";
    Cholesky: "linalg.cholesky", (1, 1), &[], "linalg.cholesky(a) (or np.linalg.cholesky; a one square matrix)";
    Eigvalsh: "linalg.eigvalsh", (1, 1), &["UPLO"], "linalg.eigvalsh(a) | linalg.eigvalsh(a, UPLO='U') (or np.linalg.eigvalsh; a one square matrix)";
    Svd: "linalg.svd", (1, 1), &["full_matrices", "compute_uv"], "let (u, s, vh) = linalg.svd(a); | linalg.svd(a, full_matrices=False) | linalg.svd(a, compute_uv=False) (or np.linalg.svd; one matrix)";
    Eigh: "linalg.eigh", (1, 1), &["UPLO"], "let (w, v) = linalg.eigh(a); | linalg.eigh(a, UPLO='U') (or np.linalg.eigh; a one square matrix)";
    Qr: "linalg.qr", (1, 1), &["mode"], "let (q, r) = linalg.qr(a); | linalg.qr(a, mode='complete') | linalg.qr(a, mode='r') (or np.linalg.qr; one matrix)";
    Lstsq: "linalg.lstsq", (2, 3), &["rcond"], "let (x, residuals, rank, s) = linalg.lstsq(a, b, rcond=None); | linalg.lstsq(a, b)[0] (or np.linalg.lstsq; a one matrix, b 1-d or 2-d)";
    Polyfit: "polyfit", (3, 3), &[], "polyfit(x, y, deg) (x 1-d, y 1-d or 2-d, deg an integer literal)";
    MatrixRank: "linalg.matrix_rank", (1, 1), &[], "linalg.matrix_rank(a) (or np.linalg.matrix_rank; a one matrix)";
    Cond: "linalg.cond", (1, 1), &[], "linalg.cond(a) (or np.linalg.cond; the 2-norm condition number of one matrix)";
    Pinv: "linalg.pinv", (1, 2), &["rcond", "rtol"], "linalg.pinv(a) | linalg.pinv(a, rcond) | linalg.pinv(a, rtol=r) | rtol=None (or np.linalg.pinv; a one matrix)";
    Isclose: "isclose", (2, 2), CLOSE, "isclose(a, b) | isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=false)";
    Allclose: "allclose", (2, 2), CLOSE, "allclose(a, b) | allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=false)";
    Ptp: "ptp", (1, 1), AXIS, "ptp(x) | ptp(x, axis=k) | ptp(x, axis=(j, k)) (x not bool)";
    Average: "average", (1, 1), &["axis", "weights", "returned"],
        "average(x) | average(x, axis=k) | average(x, weights=w) | average(x, axis=k, weights=w) (w of x's shape, or 1-d along k) | returned=true";
    Flatnonzero: "flatnonzero", (1, 1), &[], "flatnonzero(x)";
    Argwhere: "argwhere", (1, 1), &[], "argwhere(x)";
    Unique: "unique", (1, 1), &["return_index", "return_inverse", "return_counts"],
        "unique(x) | let (v, c) = unique(x, return_counts=true); (also return_index=, return_inverse=)";
    Searchsorted: "searchsorted", (2, 2), &["side"], "searchsorted(a, v) | searchsorted(a, v, side=left|right) (a sorted, 1-d)";
    Percentile: "percentile", (2, 2), &["axis", "method"],
        "percentile(x, q) | percentile(x, q, axis=k) (q in [0, 100], a scalar or 1-d; method=linear|lower|..)";
    Quantile: "quantile", (2, 2), &["axis", "method"],
        "quantile(x, q) | quantile(x, q, axis=k) (q in [0, 1], a scalar or 1-d; method=linear|lower|..)";
    NanPercentile: "nanpercentile", (2, 2), &["axis", "method"],
        "nanpercentile(x, q) | nanpercentile(x, q, axis=k) (percentile of the numbers; method=)";
    NanQuantile: "nanquantile", (2, 2), &["axis", "method"],
        "nanquantile(x, q) | nanquantile(x, q, axis=k) (quantile of the numbers; method=)";
    Nonzero: "nonzero", (1, 1), &[], "nonzero(x)[0] | let (i,) = nonzero(x); | let (i, j) = nonzero(a); (or x.nonzero())";
    Float: "float", (1, 1), &[], "float(s) (Python's, of a scalar)";
    Int: "int", (1, 1), &[], "int(s) (Python's, of a scalar: toward zero)";
    Fmax: "fmax", (2, 2), &[], "fmax(a, b) / fmin(a, b)";
    Fmin: "fmin", (2, 2), &[], "fmax(a, b) / fmin(a, b)";
    Tril: "tril", (1, 2), &["k"], "tril(x) | tril(x, k) | tril(x, k=j) (x an array, k an integer)";
    Triu: "triu", (1, 2), &["k"], "triu(x) | triu(x, k) | triu(x, k=j) (x an array, k an integer)";
    NanToNum: "nan_to_num", (1, 1), &["nan", "posinf", "neginf"],
        "nan_to_num(x) | nan_to_num(x, nan=0.0, posinf=big, neginf=-big) (numeric scalars)";
    // NumPy's everyday shape and indexing idioms (`crate::numpy_shapes`).
    Fliplr: "fliplr", (1, 1), &[], "fliplr(x) (x at least 2-d) / flipud(x) (x at least 1-d)";
    Flipud: "flipud", (1, 1), &[], "fliplr(x) (x at least 2-d) / flipud(x) (x at least 1-d)";
    Rot90: "rot90", (1, 3), &["k", "axes"], "rot90(x) | rot90(x, k) | rot90(x, k=1, axes=(0, 1)) (integer literals)";
    TriuIndices: "triu_indices", (1, 3), &["k", "m"], "triu_indices(n) | triu_indices(n, k) | triu_indices(n, k=0, m=n)";
    TrilIndices: "tril_indices", (1, 3), &["k", "m"], "tril_indices(n) | tril_indices(n, k) | tril_indices(n, k=0, m=n)";
    Digitize: "digitize", (2, 3), &["right"], "digitize(x, bins) | digitize(x, bins, right=true) (bins 1-d, monotonic)";
    Interp: "interp", (3, 3), &["left", "right"], "interp(x, xp, fp) | interp(x, xp, fp, left=l, right=r) (xp 1-d, increasing)";
    Histogram: "histogram", (1, 2), &["bins", "range", "weights", "density"],
        "histogram(x) | histogram(x, bins=10, range=(lo, hi), weights=w, density=false) (bins an integer or 1-d edges)";
    HistogramBinEdges: "histogram_bin_edges", (1, 2), &["bins", "range", "weights"],
        "histogram_bin_edges(x) | histogram_bin_edges(x, bins=10, range=(lo, hi)) (bins an integer or 1-d edges)";
    Ix: "ix_", (1, ANY), &[], "ix_(i0, i1, ...) (1-d integer arrays or lists), as an index: x[ix_(i, j)]";
    Cbrt: "cbrt", (1, 1), &[], UFUNC1;
    Deg2rad: "deg2rad", (1, 1), &[], ANGLE;
    Rad2deg: "rad2deg", (1, 1), &[], ANGLE;
    Radians: "radians", (1, 1), &[], ANGLE;
    Degrees: "degrees", (1, 1), &[], ANGLE;
    Sinc: "sinc", (1, 1), &[], "sinc(x) (normalised: sin(pi x) / (pi x), sinc(0) = 1)";
    Fabs: "fabs", (1, 1), &[], UFUNC1;
    Positive: "positive", (1, 1), &[], UFUNC1;
    Signbit: "signbit", (1, 1), &[], UFUNC1;
    Heaviside: "heaviside", (2, 2), &[], "heaviside(x, h0)";
    Logaddexp: "logaddexp", (2, 2), &[], "logaddexp(a, b) / logaddexp2(a, b)";
    Logaddexp2: "logaddexp2", (2, 2), &[], "logaddexp(a, b) / logaddexp2(a, b)";
    FloatPower: "float_power", (2, 2), &[], "float_power(a, b) (in f64)";
    UfuncOuter: "ufunc.outer", (2, 2), &[], "add.outer(a, b) / subtract.outer(a, b) / ... (any binary ufunc)";
    Divmod: "divmod", (2, 2), &[], "divmod(a, b)[0] | let (q, r) = divmod(a, b);";
    ArrayEqual: "array_equal", (2, 2), &["equal_nan"], "array_equal(a, b) | array_equal(a, b, equal_nan=true)";
    ArrayEquiv: "array_equiv", (2, 2), &[], "array_equiv(a, b) (a and b broadcast)";
    // NumPy's set routines (`check/set_ops.rs`, `lower_ast/set_ops.rs`).
    Isin: "isin", (2, 2), &["invert"], "isin(a, b) | isin(a, b, invert=true) (a an array, b an array or a scalar)";
    Union1d: "union1d", (2, 2), &[], SET_OP;
    Intersect1d: "intersect1d", (2, 2), &[], SET_OP;
    Setdiff1d: "setdiff1d", (2, 2), &[], SET_OP;
    Setxor1d: "setxor1d", (2, 2), &[], SET_OP;
    NanArgMin: "nanargmin", (1, 1), AXIS, "nanargmin(x) | nanargmin(x, axis=k)";
    NanArgMax: "nanargmax", (1, 1), AXIS, "nanargmax(x) | nanargmax(x, axis=k)";
    Tri: "tri", (1, 3), &["k", "dtype"], "tri(n) | tri(n, m) | tri(n, m, k) | tri(n, k=j), dtype=f64";
    BroadcastTo: "broadcast_to", (2, 2), &[], "broadcast_to(x, shape) (shape a tuple of sizes, an integer or y.shape)";
    Geomspace: "geomspace", (2, 3), &["num", "endpoint"],
        "geomspace(start, stop) | geomspace(start, stop, num) | geomspace(start, stop, num=n, endpoint=false) (nonzero scalars)";
    Polyval: "polyval", (2, 2), &[], "polyval(p, x) (p 1-d of a size known when checked, x an array or a scalar)";
    Vander: "vander", (1, 2), &["increasing"], "vander(x) | vander(x, N) | vander(x, N=n, increasing=true) (x 1-d)";
    AtLeast1d: "atleast_1d", (1, 1), &[], ATLEAST;
    AtLeast2d: "atleast_2d", (1, 1), &[], ATLEAST;
    AtLeast3d: "atleast_3d", (1, 1), &[], ATLEAST;
    Modf: "modf", (1, 1), &[], "modf(x)[0] | let (frac, whole) = modf(x);";
    Ldexp: "ldexp", (2, 2), &[], "ldexp(x, i) (i integers)";
    I0: "i0", (1, 1), &[], "i0(x)";
    Frexp: "frexp", (1, 1), &[], "frexp(x)[0] | let (mantissa, exponent) = frexp(x);";
    FillDiagonal: "fill_diagonal", (2, 2), &["wrap"],
        "fill_diagonal(a, val) (a statement; a at least 2-d, every size equal beyond 2-d; val a scalar or an array, cycled)";
    Copyto: "copyto", (2, 2), &["where"], "copyto(dst, src) | copyto(dst, src, where=m) (a statement)";
    Putmask: "putmask", (3, 3), &[], "putmask(a, mask, values) (a statement)";
    Place: "place", (3, 3), &[], "place(arr, mask, vals) (a statement)";
    Put: "put", (3, 3), &["mode"], "put(a, ind, v) | put(a, ind, v, mode=\"raise\") (a statement; a 1-d)";
}

/// Whether the call `e` of [`Builtin::Dot`] is spelled `a @ b` or `matmul(a, b)` (NumPy's
/// `matmul`, which multiplies stacks of matrices) rather than `dot` (whose n-d form differs); the
/// checker and the lowering both ask this one rule.
pub fn is_matmul(e: &Expr) -> bool {
    let ExprKind::Call { func, .. } = &e.kind else { return false };
    let name = func.name.strip_prefix(QUALIFIED).unwrap_or(&func.name);
    matches!(name, "@" | "matmul")
}

/// NumPy's names that are not builtins, because NumPy itself removed them (`in1d`, `trapz`) or
/// arrayc does not have them yet (`nanmedian`, `gcd`, ...), each with the help an
/// unknown-function error (E0202) gives: the arrayc spelling that replaces it.
pub const REMOVED_NUMPY_NAMES: &[(&str, &str)] = &[
    ("trapz", "NumPy 2.4 removed `trapz`: write `trapezoid(y, x)` (the same arguments)"),
    (
        "lexsort",
        "arrayc's `np.lexsort` takes a tuple or list of 1 to 4 one-dimensional keys, `lexsort((k0, k1))`: \
         for the rows of a 2-d array of keys write them out, `lexsort((a[0], a[1]))`",
    ),
    ("nanmedian", "arrayc's `np.nanmedian` takes `x`, one integer `axis=` (or none) and `keepdims=`; of a tuple of axes, move them together and reshape first"),
    ("gcd", "arrayc has no `np.gcd` yet: Euclid's loop on scalars, `while b != 0 { (a, b) = (b, a % b); }` (then `abs(a)`)"),
    ("lcm", "arrayc has no `np.lcm` yet: `abs(a // g * b)` of the gcd `g` (Euclid's loop, `while b != 0 { (a, b) = (b, a % b); }`)"),
    (
        "diag_indices",
        "arrayc's `np.diag_indices(n, ndim)` takes an integer literal `ndim` and, as an index, the spelling \
         `np.diag_indices(n)`: `x[np.diag_indices(n)]`, `let (i, j) = diag_indices(n);`, or `x[arange(n), arange(n)]`",
    ),
    ("diag_indices_from", "arrayc has no `np.diag_indices_from` yet: index with `x[arange(n), arange(n)]`, or view `diagonal(x)`"),
    (
        "indices",
        "arrayc's `np.indices` takes a tuple literal of sizes, `indices((d0, d1))`; otherwise \
         `meshgrid(arange(d0), arange(d1), indexing=\"ij\")`, one array per axis",
    ),
    (
        "block",
        "arrayc's `np.block` takes a list literal of arrays or of rows of arrays (two levels); deeper: \
         `concatenate` with `axis=` level by level",
    ),
    (
        "rollaxis",
        "arrayc's `rollaxis(x, k, start)` takes nonnegative integer literals: write `moveaxis(x, k, start)` \
         (`start - 1` where `k < start`), negative axes counted from the end",
    ),
    ("unstack", "arrayc has no `np.unstack` yet: its views one by one, `let (a, b) = (x[0], x[1]);`"),
    ("vecdot", "arrayc has no `np.vecdot` yet: `sum(a * b, axis=-1)` of real arrays"),
    ("matvec", "arrayc has no `np.matvec` yet: `m @ v` (a 2-d `m`, a 1-d `v`), `einsum(\"...ij,...j->...i\", m, v)`"),
    ("vecmat", "arrayc has no `np.vecmat` yet: `v @ m` (a 1-d `v`, a 2-d `m`), `einsum(\"...i,...ij->...j\", v, m)`"),
    (
        "trim_zeros",
        "arrayc's `np.trim_zeros(x, trim)` takes a 1-d `x` and `trim` \"f\", \"b\" or \"fb\" (a literal); otherwise \
         `let nz = flatnonzero(x); x[nz[0]:nz[-1] + 1]` of an `x` with a nonzero element",
    ),
    (
        "histogram2d",
        "arrayc's `np.histogram2d(x, y, bins, range=)` takes 1-d `x`, `y`, `bins` an integer, a pair of them or of \
         edge arrays, `range=((xlo, xhi), (ylo, yhi))`; `weights=` and `density=` are not supported: \
         `histogram` of `x * ny + y` bin indices, or compute it in NumPy",
    ),
    ("hanning", "arrayc's `np.hanning(M)` takes one integer `M`, as NumPy's"),
    ("hamming", "arrayc's `np.hamming(M)` takes one integer `M`, as NumPy's"),
    ("blackman", "arrayc's `np.blackman(M)` takes one integer `M`, as NumPy's"),
    ("bartlett", "arrayc's `np.bartlett(M)` takes one integer `M`, as NumPy's"),
    ("broadcast_arrays", "arrayc has no `np.broadcast_arrays` yet: `broadcast_to(a, shape)` of each array"),
    (
        "apply_along_axis",
        "arrayc's `np.apply_along_axis(f, k, x)` takes one of NumPy's functions along an axis by name (`np.sum`, \
         `np.sort`, `np.cumsum`, ..: `f(x, axis=k)`), or another function (a lambda, a function of the program) \
         with a literal axis 0, 1, -1 or -2 of a 2-d `x`; else apply it to the whole array (arithmetic is \
         elementwise, reductions take `axis=`), or loop over the other axes",
    ),
    (
        "vectorize",
        "arrayc's `np.vectorize(f)` is only called, `np.vectorize(f)(x)` or `g = np.vectorize(f); g(x)`; or write the \
         function on arrays (arithmetic and `where` are elementwise)",
    ),
    (
        "piecewise",
        "arrayc's `np.piecewise(x, [c0, c1], [f0, f1, default])` takes lists written out of lambdas of elementwise \
         operations and numbers; otherwise `select([c0, c1], [f0, f1], default)` of the values computed on the whole array",
    ),
    ("in1d", "NumPy 2.4 removed `in1d`: write `isin(a, b)` (`ravel(isin(a, b))` for `in1d`'s flattened result)"),
];

/// What the argument `obj` of NumPy's `delete(x, obj)` and `insert(x, obj, values)` is, as the
/// checker typed it ([`index_object`]); the checker and the lowering both ask this one rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IndexObject {
    /// An integer scalar (a literal or a run-time value; negative counts from the end).
    Single,
    /// Python's `slice(stop)`, `slice(start, stop)` or `slice(start, stop, step)` ([`slice_object`]).
    Slice,
    /// A list or 1-d array of integer indices.
    Indices,
    /// A 1-d bool array: a mask along the axis (`delete`), or `flatnonzero(mask)` (`insert`, NumPy
    /// 2.1.2 on).
    Mask,
}

/// The parts `(start, stop, step)` of `obj` when it is Python's `slice(..)` (one to three
/// arguments, `stop` alone for one; a part `None` where absent or written `None`), else `None`.
pub fn slice_object(e: &Expr) -> Option<[Option<&Expr>; 3]> {
    let ExprKind::Call { func, args, kwargs } = &e.kind else { return None };
    if func.name != "slice" || !kwargs.is_empty() {
        return None;
    }
    let part = |k: usize| args.get(k).filter(|a| !matches!(a.kind, ExprKind::NoneLit));
    match args.len() {
        1 => Some([None, part(0), None]),
        2 | 3 => Some([part(0), part(1), part(2)]),
        _ => None,
    }
}

/// The kind of `obj` (the expression `e`, of checked type `ty`; a slice's type is not asked), or
/// `None` where it is none of them: a float, a `u64`, an array of another rank.
pub fn index_object(e: &Expr, ty: &crate::types::Ty) -> Option<IndexObject> {
    use crate::types::Ty;
    if slice_object(e).is_some() {
        return Some(IndexObject::Slice);
    }
    match ty {
        Ty::Scalar(d) if d.is_int() && *d != DType::U64 => Some(IndexObject::Single),
        Ty::Array(DType::Bool, s) if s.len() == 1 => Some(IndexObject::Mask),
        Ty::Array(d, s) if d.is_int() && *d != DType::U64 && s.len() == 1 => Some(IndexObject::Indices),
        _ => None,
    }
}

/// NumPy's `insert` at one place (its `indices.size == 1` case), where `values` gives the count
/// of new items along the axis: `Some(true)` for an integer `obj` (`values`' first axis is moved to
/// the axis, as `x[:, i]` takes a value), `Some(false)` for a list or index array of one index known
/// when checked (`values` broadcast as it is, as `x[:, [i]]` does); `None` for the others, which
/// insert one item per index (a slice, a mask, and arrays whose size only the run time knows;
/// NumPy's rule for one index at run time differs only where `values` has several items along the
/// axis, where arrayc's broadcast fails).
pub fn insert_at_one(kind: IndexObject, ty: &crate::types::Ty) -> Option<bool> {
    match kind {
        IndexObject::Single => Some(true),
        IndexObject::Indices if ty.shape().is_some_and(|s| s[0].as_const() == Some(1)) => Some(false),
        _ => None,
    }
}

/// The pattern of the elementwise math functions of one value that map to one `arr.compute`
/// function each (`abs`, `sqrt`, ..., `rint`), the one list of them: the checker types them alike
/// (`check/builtins/elementwise.rs`'s `math`) and the lowering computes them alike
/// (`lower_ast/expr/ufuncs.rs`'s `elementwise_fn`); a macro so that both `match`es stay
/// exhaustive (`Builtin::is_elementwise_math` is the test).
#[macro_export]
macro_rules! elementwise_math {
    () => {
        $crate::builtin::Builtin::Abs
            | $crate::builtin::Builtin::Sqrt
            | $crate::builtin::Builtin::Exp
            | $crate::builtin::Builtin::Log
            | $crate::builtin::Builtin::Sin
            | $crate::builtin::Builtin::Cos
            | $crate::builtin::Builtin::Tanh
            | $crate::builtin::Builtin::Tan
            | $crate::builtin::Builtin::Arcsin
            | $crate::builtin::Builtin::Arccos
            | $crate::builtin::Builtin::Arctan
            | $crate::builtin::Builtin::Sinh
            | $crate::builtin::Builtin::Cosh
            | $crate::builtin::Builtin::Arcsinh
            | $crate::builtin::Builtin::Arccosh
            | $crate::builtin::Builtin::Arctanh
            | $crate::builtin::Builtin::Exp2
            | $crate::builtin::Builtin::Expm1
            | $crate::builtin::Builtin::Log2
            | $crate::builtin::Builtin::Log10
            | $crate::builtin::Builtin::Log1p
            | $crate::builtin::Builtin::Floor
            | $crate::builtin::Builtin::Ceil
            | $crate::builtin::Builtin::Trunc
            | $crate::builtin::Builtin::Rint
    };
}
pub use elementwise_math;

impl Builtin {
    /// The builtin a call names: a builtin's name, or the parser's name for `x.T` (`.T`, the
    /// builtin `transpose`) or `a @ b` (`@`, the builtin `dot`), which no function can take, and
    /// of the method calls `x.m(...)` (`.m`, [`crate::methods`]).
    pub fn from_name(name: &str) -> Option<Builtin> {
        if let Some(plain) = name.strip_prefix(QUALIFIED) {
            return Builtin::from_name(plain);
        }
        match name {
            ".T" => Some(Builtin::Transpose),
            "@" => Some(Builtin::Dot),
            _ if name.starts_with('.') => crate::methods::method_builtin(&name[1..]),
            "around" => Some(Builtin::Round),
            "amax" => Some(Builtin::Max),
            "amin" => Some(Builtin::Min),
            "absolute" => Some(Builtin::Abs),
            "matmul" => Some(Builtin::Dot),
            // NumPy 2's array-API names of existing functions.
            "acos" => Some(Builtin::Arccos),
            "asin" => Some(Builtin::Arcsin),
            "atan" => Some(Builtin::Arctan),
            "acosh" => Some(Builtin::Arccosh),
            "asinh" => Some(Builtin::Arcsinh),
            "atanh" => Some(Builtin::Arctanh),
            "atan2" => Some(Builtin::Arctan2),
            "pow" => Some(Builtin::Power),
            "concat" => Some(Builtin::Concatenate),
            "permute_dims" => Some(Builtin::Transpose),
            // NumPy's older name of `vstack` (deprecated since 2.0, still there).
            "row_stack" => Some(Builtin::Vstack),
            // NumPy's rounding toward zero: `trunc`'s values and dtypes (integers kept).
            "fix" => Some(Builtin::Trunc),
            _ => TABLE.iter().find(|r| r.name == name).map(|r| r.builtin),
        }
    }

    /// Every builtin, in the order of [`TABLE`].
    pub fn all() -> impl Iterator<Item = Builtin> {
        TABLE.iter().map(|r| r.builtin)
    }

    /// Its row of [`TABLE`].
    pub fn row(self) -> &'static Row {
        &TABLE[self as usize]
    }

    /// Its name in calls.
    pub fn name(self) -> &'static str {
        self.row().name
    }

    /// The dtype a cast converts to (`f64(x)`, `f32(x)`, `i64(x)`, `bool(x)`); `None` for the
    /// other builtins.
    pub fn cast_dtype(self) -> Option<DType> {
        match self {
            Builtin::F64 => Some(DType::F64),
            Builtin::F32 => Some(DType::F32),
            Builtin::I64 => Some(DType::I64),
            Builtin::I32 => Some(DType::I32),
            Builtin::I16 => Some(DType::I16),
            Builtin::I8 => Some(DType::I8),
            Builtin::U64 => Some(DType::U64),
            Builtin::U32 => Some(DType::U32),
            Builtin::U16 => Some(DType::U16),
            Builtin::U8 => Some(DType::U8),
            Builtin::Bool => Some(DType::Bool),
            _ => None,
        }
    }

    /// The dtype a cast or Python's scalar conversion (`float(s)`, `int(s)`) converts to.
    pub fn conversion_dtype(self) -> Option<DType> {
        match self {
            Builtin::Float => Some(DType::F64),
            Builtin::Int => Some(DType::I64),
            _ => self.cast_dtype(),
        }
    }

    /// Whether it is one of the elementwise math functions of one value that map to one
    /// `arr.compute` function each ([`elementwise_math`]).
    pub fn is_elementwise_math(self) -> bool {
        matches!(self, elementwise_math!())
    }

    /// Whether it reduces over a tuple of axes as well as one (`sum(x, axis=(0, 1))`): the
    /// reductions and those composed from them.
    pub fn reduces_axis_tuples(self) -> bool {
        use Builtin as B;
        matches!(
            self,
            B::Sum
                | B::Prod
                | B::Min
                | B::Max
                | B::Mean
                | B::Any
                | B::All
                | B::CountNonzero
                | B::Var
                | B::Std
                | B::NanSum
                | B::NanMax
                | B::NanMin
                | B::NanMean
                | B::Norm
                | B::Ptp
                | B::Average
        )
    }

    /// Whether it takes NumPy's `keepdims=` (the reductions): the reduced axes stay, of size 1.
    pub fn takes_keepdims(self) -> bool {
        use Builtin as B;
        matches!(
            self,
            B::Sum
                | B::Prod
                | B::Min
                | B::Max
                | B::Mean
                | B::Any
                | B::All
                | B::CountNonzero
                | B::Var
                | B::Std
                | B::ArgMin
                | B::ArgMax
                | B::NanSum
                | B::NanMax
                | B::NanMin
                | B::NanMean
                | B::Median
                | B::Norm
                | B::Percentile
                | B::Quantile
                | B::NanPercentile
                | B::NanQuantile
        )
    }

    /// The axes its result has before the reduced array's (for `keepdims=`): one for the
    /// quantiles of `percentile` and its kin when `q` is an array (`q_array`), else none.
    pub fn leading_axes(self, q_array: bool) -> usize {
        use Builtin as B;
        usize::from(q_array && matches!(self, B::Percentile | B::Quantile | B::NanPercentile | B::NanQuantile))
    }

    /// Whether its result is a view of its argument, so that writes through it change the
    /// argument (`transpose`, `diagonal`; `docs/language.md`).
    pub fn returns_view(self) -> bool {
        matches!(
            self,
            Builtin::Transpose
                | Builtin::Diagonal
                | Builtin::Flip
                | Builtin::ExpandDims
                | Builtin::Squeeze
                | Builtin::Swapaxes
                | Builtin::Moveaxis
                | Builtin::Fliplr
                | Builtin::Flipud
                | Builtin::Rot90
                | Builtin::AtLeast1d
                | Builtin::AtLeast2d
                | Builtin::AtLeast3d
        )
    }

    /// Its documentation as markdown: every row of [`DOCS`] that documents it.
    pub fn doc(self) -> String {
        let rows = DOCS.iter().filter(|r| r.builtins.contains(&self));
        rows.map(|r| format!("builtin {}\n\n{}", r.calls, r.result)).collect::<Vec<_>>().join("\n\n")
    }
}

/// One row of the table of builtin functions in `docs/language.md`.
#[derive(Clone, Copy, Debug)]
pub struct DocRow {
    /// The calls it documents, as markdown.
    pub calls: &'static str,
    /// What they give, as markdown.
    pub result: &'static str,
    /// The builtins it documents (each named in `calls`).
    pub builtins: &'static [Builtin],
}

/// The documentation of the builtins: the rows of `docs/language.md`'s table of builtin
/// functions ([`docs_table`]), every builtin in at least one.
pub const DOCS: &[DocRow] = {
    use Builtin as B;
    &[
        DocRow {
            calls: "`zeros(d0, d1, ..., dtype=f64)`, `ones(...)`, `empty(...)`",
            result: "new array of shape `(d0, d1, ...)`",
            builtins: &[B::Zeros, B::Ones, B::Empty],
        },
        DocRow {
            calls: "`full(d0, ..., value)`",
            result: "new array filled with `value` (last argument), dtype of `value` or `dtype=`",
            builtins: &[B::Full],
        },
        DocRow {
            calls: "`zeros_like(x, dtype=...)`, `ones_like(...)`, `empty_like(...)`, `full_like(x, value, dtype=...)`",
            result: "new array of `x`'s shape (an array) and dtype (or `dtype=`), filled as `zeros`, `ones`, \
                `empty`, `full` (the value cast to the dtype)",
            builtins: &[B::ZerosLike, B::OnesLike, B::EmptyLike, B::FullLike],
        },
        DocRow {
            calls: "`arange(stop)`, `arange(start, stop)`, `arange(start, stop, step)`, `dtype=d`",
            result: "1-d, `i64` if all arguments are integers else `f64`, or `d` (start and step cast to `d`, \
                `start + i * step` in `d`; the length from the arguments as given; `dtype=bool` is E0503)",
            builtins: &[B::Arange],
        },
        DocRow {
            calls: "`linspace(start, stop, num)`, `num=n`, `endpoint=false`, `axis=k`",
            result: "`f64[num]` (`f32[num]` of `float32` bounds, NumPy's `result_type(start, stop, float)`, computed \
                in it): `num` evenly spaced values from `start` to `stop`, `stop` included (with \
                `endpoint=false`: excluded, the step `(stop - start) / num`), as NumPy's; `dtype=d` computes in \
                that dtype, then casts (an integer `d` floors first, NumPy 2's rounding toward -inf); `retstep=True` gives \
                NumPy's tuple `(samples, step)`, the step `(stop - start) / (num - 1)` (`/ num` with `endpoint=false`), \
                NaN where that divisor is 0; array bounds (broadcast together, of shape `B`) give `num` samples along a \
                new first axis, `[num, *B]`, by NumPy's arithmetic (where any step is 0, every sample is \
                `i / div * (stop - start) + start`); `axis=k` (an integer literal) moves the samples' axis to `k`, as NumPy's",
            builtins: &[B::Linspace],
        },
        DocRow {
            calls: "`random(d0, ..., seed=0)`",
            result: "`f64` uniform in [0, 1), counter-based Philox4x32-10 (see `runtime/src/rng.rs`): element `k` in \
                row-major order depends only on `seed` and `k`",
            builtins: &[B::Random],
        },
        DocRow {
            calls: "`normal(d0, ..., seed=0, loc=0.0, scale=1.0)`",
            result: "`f64` normally distributed (NumPy's `Generator.normal` with scalar `loc`, `scale`), from the \
                generator of `random` by Box–Muller: element `k` in row-major order is `loc + scale * sqrt(-2 * \
                log(1 - u(2k))) * cos(2π * u(2k + 1))`, `u(i)` the `i`-th uniform of `random(..., seed=seed)` \
                (`examples/reference/arrayc_random.py` models it): two kernels, the `2 * size` uniforms, then the \
                transform fused. The values differ from NumPy's (another generator), the distribution is the same. \
                `scale < 0` is E0503 for a literal, else a run-time error naming the line (NumPy's ValueError)",
            builtins: &[B::Normal],
        },
        DocRow {
            calls: "`integers(low, high, d0, ..., seed=0)`",
            result: "`i64` uniform in `[low, high)` (NumPy's `Generator.integers`, `high` excluded): element `k` is \
                `low + floor(u(k) * (high - low))`, `u(k)` the uniform of `random(..., seed=seed)`; exact for \
                `high - low <= 2**53`; one fused kernel. `high <= low` is E0503 when both are literals, else a run-time error \
                naming the line (NumPy's ValueError `low >= high`)",
            builtins: &[B::Integers],
        },
        DocRow {
            calls: "`np.random.seed(s)`, `np.random.rand(d0, ..)`, `randn`, `random(size)`, `random_sample`, `uniform`, \
                `normal`, `randint`, `standard_normal`; `rng = np.random.default_rng(s)`, `rng.random(size)`, \
                `rng.normal`, `rng.integers`, `rng.uniform`, `rng.standard_normal`; `permutation`, `shuffle`, `choice` (both)",
            result: "NumPy's random API, with NumPy's parameters, dtypes, shapes (`size=None`: a scalar) and \
                distributions, drawn with `random`, `normal` and `integers` (values differ from NumPy's): each draw \
                of a generator is a new, independent stream, also in a loop; permutations and picks by `argsort` of `random` keys (see \"NumPy's random API\")",
            builtins: &[B::Random, B::Normal, B::Integers],
        },
        DocRow { calls: "`copy(x)`", result: "a new array with the same values", builtins: &[B::Copy] },
        DocRow {
            calls: "`transpose(x)`, `x.T`, `transpose(x, (a0, a1, ...))`, `transpose(x, axes=...)`, \
                `x.transpose(a0, a1, ...)`, `x.transpose((a0, ...))`",
            result: "a view of `x` with its axes reversed (shape `(d0, .., dk)` becomes `(dk, .., d0)`), or with \
                the axes given (integer literals, negative from the end): result axis `i` is `x`'s axis `ai`, \
                NumPy's; axes that are not a permutation of `x`'s are E0503 (NumPy's ValueError); aliases `x`",
            builtins: &[B::Transpose],
        },
        DocRow {
            calls: "`diagonal(x)`, `diagonal(x, k)`, `offset=k`",
            result: "a view of the main diagonal of a 2-d `x`: `min(d0, d1)` elements `x[i, i]`; aliases `x` and, \
                unlike NumPy's, is writable (`let d = diagonal(l); d[:] = 1.0;` makes an identity). An integer \
                literal offset `k` is the diagonal of the view `x[:, k:]` (`x[-k:]` below the main one), NumPy's \
                `offset`",
            builtins: &[B::Diagonal],
        },
        DocRow {
            calls: "`len(x)`, `ndim(x)`, `x.ndim`, `size(x)`, `x.size`, `size(x, axis=k)`, `x.shape[k]`",
            result: "`i64` scalars (Python's `len`, NumPy's `ndim`, `size`, `shape`): the size of the first axis \
                (`len` of a 0-d array or a scalar is E0503, Python's TypeError), the rank, the number of elements, \
                the size of axis `k` (a literal, negative counts from the end); known at compile time where the \
                shape is, else read at run time",
            builtins: &[B::Len, B::Ndim, B::Size],
        },
        DocRow {
            calls: "`x.shape == y.shape`, `x.shape == (n, m)`, `x.shape != ...`, `x.dtype == y.dtype`, `x.dtype == f32`",
            result: "`bool` (Python's comparison of tuples, NumPy's of dtypes): shapes are equal where the ranks and \
                every size are (sizes read at run time where not known); an operand is `x.shape` or a tuple of \
                integers (a number is E0503: Python's tuple never equals one), `x.dtype` or a type name \
                (`np.float32`); decided at compile time for dtypes",
            builtins: &[B::ShapeEqual, B::DTypeEqual],
        },
        DocRow {
            calls: "`np.issubdtype(x.dtype, np.floating)`, `x.dtype.kind == 'f'`, `x.dtype.kind in 'iu'`, \
                `np.can_cast(x.dtype, T, casting='safe')`, `np.isrealobj(x)`, `np.iscomplexobj(x)`, \
                `isinstance(v, float)` (`int`, `np.ndarray`, `np.floating`, a tuple of these)",
            result: "a Python `bool`, decided at compile time (NumPy's dtype hierarchy: `np.number`, `np.integer`, \
                `np.signedinteger`, `np.unsignedinteger`, `np.inexact`, `np.floating`, `np.generic` or a dtype; \
                NumPy's `can_cast` rules; Python's classes of arrays, NumPy scalars and Python numbers); an `if` on \
                it compiles only the branch taken (see Dtype queries)",
            builtins: &[B::DTypeRel],
        },
        DocRow {
            calls: "`np.finfo(x.dtype).eps` (`max`, `min`, `tiny`, `resolution`, `bits`), `np.iinfo(x.dtype).max` \
                (`min`, `bits`), `x.dtype.itemsize`",
            result: "NumPy's machine limits of `x`'s dtype: `finfo`'s a scalar of that float dtype, the others a \
                Python `int`; `finfo` of a dtype that is not a float, `iinfo` of one that is not an integer E0324 \
                (NumPy's ValueError)",
            builtins: &[B::DTypeLimit],
        },
        DocRow {
            calls: "`abs sqrt exp log sin cos tanh (x)`",
            result: "elementwise; all but `abs` give a float (`i64 -> f64`)",
            builtins: &[B::Abs, B::Sqrt, B::Exp, B::Log, B::Sin, B::Cos, B::Tanh],
        },
        DocRow {
            calls: "`tan arcsin arccos arctan sinh cosh arcsinh arccosh arctanh exp2 expm1 log2 log10 log1p rint (x)`",
            result: "elementwise, NumPy's ufuncs of these names; a float (`i64 -> f64`, `bool -> f64` where NumPy \
                gives `float16`)",
            builtins: &[
                B::Tan,
                B::Arcsin,
                B::Arccos,
                B::Arctan,
                B::Sinh,
                B::Cosh,
                B::Arcsinh,
                B::Arccosh,
                B::Arctanh,
                B::Exp2,
                B::Expm1,
                B::Log2,
                B::Log10,
                B::Log1p,
                B::Rint,
            ],
        },
        DocRow {
            calls: "`floor ceil trunc (x)`",
            result: "elementwise rounding toward minus infinity, plus infinity, zero; integers and bools are kept \
                (their own dtype, as NumPy 2)",
            builtins: &[B::Floor, B::Ceil, B::Trunc],
        },
        DocRow {
            calls: "`round(x)`, `round(x, decimals=d)`, `round(x, d)`, `around(x, d)`, `x.round(d)`",
            result: "NumPy's `round`: `rint` (half to even) of a float (`bool -> f64` where NumPy gives \
                `float16`); with `decimals=d` (an integer literal), NumPy's `rint(x * 10**d) / 10**d` (`d < 0`: \
                `rint(x / 10**-d) * 10**-d`) in `x`'s float dtype, so `round(2.675, decimals=2)` is `2.67` as in \
                NumPy. Integers are kept; an integer with `d < 0`, or a bool with `d != 0`, is E0503",
            builtins: &[B::Round],
        },
        DocRow {
            calls: "`sign(x)`",
            result: "elementwise `-1`, `0`, `1` in `x`'s dtype (`sign(-0.0)` is `0.0`, NaN stays NaN); a bool `x` is \
                E0503 (NumPy raises too)",
            builtins: &[B::Sign],
        },
        DocRow {
            calls: "`square(x)`",
            result: "`x * x` (`bool -> i64`, as `*`; NumPy gives `int8`)",
            builtins: &[B::Square],
        },
        DocRow {
            calls: "`reciprocal(x)`",
            result: "`1 / x` of a float `x`, in its dtype; an integer or bool `x` is E0503 (NumPy's integer \
                reciprocal is integer division, `1 // x`, which truncates: write `1.0 / x` for a float)",
            builtins: &[B::Reciprocal],
        },
        DocRow {
            calls: "`power(a, b)`",
            result: "`a ** b`, the same operation (promotion, broadcasting, errors)",
            builtins: &[B::Power],
        },
        DocRow {
            calls: "`fmod(a, b)`",
            result: "NumPy's `fmod`, elementwise, broadcast and promoted as `%` (`bool -> i64`): the remainder \
                with the sign of the dividend `a` (`%` takes the divisor's); `fmod(a, 0)` is `0` for integers, \
                NaN for floats",
            builtins: &[B::Fmod],
        },
        DocRow {
            calls: "`hypot(a, b)`",
            result: "`sqrt(a**2 + b**2)` without overflow or underflow, elementwise, broadcast; a float (`i64 -> \
                f64`); `inf` when either is infinite, even with a NaN",
            builtins: &[B::Hypot],
        },
        DocRow {
            calls: "`gcd(a, b)`, `lcm(a, b)`",
            result: "NumPy's greatest common divisor and least common multiple of integers, elementwise, broadcast, \
                promoted as `&` (a float, a bool, or `u64` with a signed integer is E0301, NumPy's TypeError): \
                never negative (but `gcd` of `i64`'s most negative value and 0, as NumPy's), `gcd(0, 0)` is 0, \
                `lcm(0, x)` is 0, `lcm` `|a| // gcd(a, b) * |b|` (wrapping where it overflows, as NumPy's). \
                Euclid's algorithm unrolled as many remainder steps as the dtype's values can need (Lamé's \
                bound: 94 for `i64` and `u64`, 47 for `i32`, 14 for `u8`), each a no-op once done; fused",
            builtins: &[B::Gcd, B::Lcm],
        },
        DocRow {
            calls: "`logical_and logical_or logical_xor (a, b)`, `logical_not(x)`",
            result: "elementwise, broadcast, a bool; operands of any dtype, nonzero (NaN included) is true",
            builtins: &[B::LogicalAnd, B::LogicalOr, B::LogicalXor, B::LogicalNot],
        },
        DocRow {
            calls: "`clip(x, lo, hi)`, `clip(x, a_min=lo, a_max=hi)`, `min=lo`, `max=hi`",
            result: "NumPy's `clip`: `minimum(maximum(x, lo), hi)`, the three broadcast and promoted together (a \
                NaN stays NaN); a bound `None` or left out (`clip(x, lo)`, `x.clip(max=hi)`) is `maximum(x, lo)` or \
                `minimum(x, hi)`, as NumPy 2 computes it",
            builtins: &[B::Clip],
        },
        DocRow {
            calls: "`arctan2(y, x)`, `copysign(x, y)`",
            result: "elementwise, broadcast, NumPy's ufuncs; a float (`i64 -> f64`)",
            builtins: &[B::Arctan2, B::Copysign],
        },
        DocRow {
            calls: "`cbrt(x)`, `fabs(x)`",
            result: "elementwise cube root (of any sign; `cbrt(-8.0)` is `-2.0`, `-0.0`, infinities and NaN kept), \
                absolute value; a float (`i64 -> f64`, `bool -> f64` where NumPy gives `float16`)",
            builtins: &[B::Cbrt, B::Fabs],
        },
        DocRow {
            calls: "`deg2rad radians rad2deg degrees (x)`",
            result: "elementwise `x * (pi / 180)` (`deg2rad`, `radians`) and `x * (180 / pi)` (`rad2deg`, `degrees`), \
                NumPy's; a float (`i64 -> f64`)",
            builtins: &[B::Deg2rad, B::Radians, B::Rad2deg, B::Degrees],
        },
        DocRow {
            calls: "`sinc(x)`",
            result: "NumPy's normalised sinc, elementwise: `sin(pi y) / (pi y)` with `y = where(x == 0, 1e-20, x)`, so \
                `sinc(0)` is `1.0`; a float (`i64 -> f64`)",
            builtins: &[B::Sinc],
        },
        DocRow {
            calls: "`positive(x)`",
            result: "`+x`: a copy of `x` in its dtype; a bool `x` is E0503 (NumPy raises too)",
            builtins: &[B::Positive],
        },
        DocRow {
            calls: "`signbit(x)`",
            result: "elementwise whether the sign bit is set, a bool: `true` for `-0.0` and a negative NaN, `x < 0` \
                for integers, `false` for bools",
            builtins: &[B::Signbit],
        },
        DocRow {
            calls: "`heaviside(x, h0)`",
            result: "elementwise, broadcast: `0` where `x < 0`, `1` where `x > 0`, `h0` where `x == 0`, NaN where `x` \
                is NaN; a float (`i64 -> f64`)",
            builtins: &[B::Heaviside],
        },
        DocRow {
            calls: "`logaddexp(a, b)`, `logaddexp2(a, b)`",
            result: "`log(exp(a) + exp(b))` and `log2(2**a + 2**b)` elementwise, broadcast, without overflow as \
                NumPy computes them: `max(a, b) + log1p(exp(-|a - b|))` (base 2 alike), `a + log(2)` (`a + 1`) \
                where `a == b` (two equal infinities stay), NaN propagates; a float (`i64 -> f64`)",
            builtins: &[B::Logaddexp, B::Logaddexp2],
        },
        DocRow {
            calls: "`float_power(a, b)`",
            result: "`a ** b` computed in `f64` (`f32` and integers too, as NumPy), broadcast; a negative base with a \
                non-integer exponent is NaN",
            builtins: &[B::FloatPower],
        },
        DocRow {
            calls: "`ufunc.outer(a, b)`: `add.outer(a, b)`, `subtract.outer`, `multiply.outer`, `maximum.outer`, ...",
            result: "NumPy's outer method of every binary ufunc (operators and functions of two arguments): the ufunc of \
                every pair of elements, of shape `a.shape + b.shape`, as `ufunc(a[..., newaxis, ...], b)` with one \
                new axis per axis of `b` (promotion, errors and fusion those of the ufunc)",
            builtins: &[B::UfuncOuter],
        },
        DocRow {
            calls: "`maximum.accumulate(x)`, `minimum.accumulate(x)`, `axis=k`",
            result: "NumPy's running maximum and minimum along axis `k` (default 0, as NumPy's ufunc methods): a scan, \
                of `x`'s dtype and shape, fused as `cumsum` is; a NaN propagates from where it occurs, as `maximum`'s",
            builtins: &[B::MaximumAccumulate, B::MinimumAccumulate],
        },
        DocRow {
            calls: "`x.itemsize`, `x.nbytes`, `itemsize(x)`, `nbytes(x)`, `x.real`, `x.imag`, `x.conj()`, `x.item(k)`",
            result: "`i64` scalars, NumPy's attributes: the bytes of one element of `x`'s dtype (8 for `f64`, `i64`, \
                `u64`; 4 for `f32`, `i32`; 1 for `u8`, `bool`) and `x.size * x.itemsize`. arrayc's arrays are \
                real: `x.real` and `np.real(x)` are `x` itself (a view), `x.imag` and `np.imag(x)` zeros of \
                `x`'s dtype, `x.conj()`, `x.conjugate()`, `np.conj(x)` a copy. `x.item(k)` is element `k` of \
                `x` flattened (`ravel(x)[k]`), `x.item(i, j)` is `x[i, j]`, `x.item()` the one element",
            builtins: &[B::Itemsize, B::Nbytes],
        },
        DocRow {
            calls: "`divmod(a, b)`",
            result: "NumPy's `divmod`: the pair `(a // b, a % b)`, the same operations (promotion, broadcasting, \
                division by zero); `divmod(a, b)[0]`, `let (q, r) = divmod(a, b);`",
            builtins: &[B::Divmod],
        },
        DocRow {
            calls: "`modf(x)`",
            result: "NumPy's `modf`: the pair `(fractional, integral)` of `x` in its float dtype (`f32` stays, others \
                `f64`), `integral` `trunc(x)` and `fractional` `x - trunc(x)`, both with `x`'s sign (`modf(-0.5)` is \
                `(-0.5, -0.0)`, `modf(-inf)` `(-0.0, -inf)`, `modf(nan)` `(nan, nan)`); `modf(x)[0]`, \
                `let (f, i) = modf(x);`",
            builtins: &[B::Modf],
        },
        DocRow {
            calls: "`ldexp(x, i)`, `frexp(x)`",
            result: "NumPy's `ldexp`: `x * 2**i` of integer exponents `i` (a float `i` is E0301, NumPy's TypeError), \
                broadcast, in `x`'s float dtype (`f32` stays, others `f64`, where NumPy gives `float16` of `u8` and \
                `bool`), exactly rounded (a subnormal or overflowing result rounds once, as C's `ldexp`). `frexp`: \
                the pair `(mantissa, exponent)`, the mantissa in `[0.5, 1)` with `x`'s sign in `x`'s float dtype and \
                the `i32` exponent, `x == mantissa * 2**exponent` exactly; `(x, 0)` of a zero (`-0.0` kept), an \
                infinity or NaN; `frexp(x)[1]`, `let (m, e) = frexp(x);`",
            builtins: &[B::Ldexp, B::Frexp],
        },
        DocRow {
            calls: "`i0(x)`",
            result: "NumPy's `i0`, the modified Bessel function of the first kind of order 0, elementwise, in `x`'s \
                float dtype (`f32` stays, computed in `f64`; others `f64`): its power series `sum((x*x/4)**k / \
                (k!)**2)` (50 terms, Horner's rule) for `|x| <= 30`, its asymptotic series `e**|x| / sqrt(2 pi |x|) \
                * sum(((2k-1)!!)**2 / (k! (8|x|)**k))` (15 terms) above; within 2e-15 of NumPy's values, `inf` \
                beyond about 713, NaN of NaN and of infinities (as NumPy's)",
            builtins: &[B::I0],
        },
        DocRow {
            calls: "`array_equal(a, b)`, `array_equal(a, b, equal_nan=true)`, `array_equiv(a, b)`",
            result: "a bool scalar: whether `a` and `b` have one shape and equal elements (compared promoted; two NaNs \
                are equal with `equal_nan=true`), `false` for different shapes; their sizes must be known equal or \
                different when checked (E0503 otherwise: compare `a.shape` first). `array_equiv`: `a == b` \
                broadcast, all true",
            builtins: &[B::ArrayEqual, B::ArrayEquiv],
        },
        DocRow {
            calls: "`isnan isinf isfinite (x)`",
            result: "elementwise tests of a float, a bool (`false`, `false`, `true` for integers and bools)",
            builtins: &[B::IsNan, B::IsInf, B::IsFinite],
        },
        DocRow {
            calls: "`minimum(a, b)`, `maximum(a, b)`",
            result: "elementwise, broadcast",
            builtins: &[B::Minimum, B::Maximum],
        },
        DocRow {
            calls: "`where(c, a, b)`, `where(c)`",
            result: "`a` where `c` else `b`, broadcast; `where(c)` of one argument is NumPy's: `nonzero(c)` (a tuple of \
                index arrays; two arguments are E0501)",
            builtins: &[B::Where],
        },
        DocRow {
            calls: "`choose(a, [c0, c1, ...])`, `choose(a, choices, mode=\"clip\")`, `mode=\"wrap\"`, `a.choose(choices)`",
            result: "NumPy's `choose`: `c[a]` elementwise, `a` (integers or bools) and the choices (a list or tuple \
                written out, of arrays and numbers) broadcast together, the choices promoted together (Python numbers \
                weak: `choose(i, [x_f32, 1.5])` is `f32`); an entry of `a` outside `[0, len(choices))` is a run-time \
                error naming the line (NumPy's ValueError, `mode=\"raise\"`), `mode=\"clip\"` clips it into the range, \
                `mode=\"wrap\"` takes it modulo `len(choices)`",
            builtins: &[B::Choose],
        },
        DocRow {
            calls: "`sum prod min max mean (x)`",
            result: "reduction over all elements: a scalar",
            builtins: &[B::Sum, B::Prod, B::Min, B::Max, B::Mean],
        },
        DocRow {
            calls: "`sum prod min max mean (x, axis=k)`, `axis=(j, k, ..)`",
            result: "reduction along axis `k` (negative counts from the end); with a tuple of distinct axes (integer \
                literals), along all of them, as NumPy (one reduction per axis, the highest first); every \
                axis gives a scalar",
            builtins: &[B::Sum, B::Prod, B::Min, B::Max, B::Mean],
        },
        DocRow {
            calls: "`sum(x, dtype=d)`, `prod(x, dtype=d)`, `mean(x, dtype=d)` (with `axis=` too; `x.sum(dtype=d)`)",
            result: "NumPy's accumulator dtype: `x` converted to `d` (fused), reduced in `d`, a result of `d`; \
                `bool` (and for `mean` an integer `d`) is E0503",
            builtins: &[B::Sum, B::Prod, B::Mean],
        },
        DocRow {
            calls: "`sum(x, where=m)`, `prod(x, where=m)`, `mean(x, where=m)`, `min(x, initial=v)`, `max(x, initial=v)`, \
                `max(x, where=m, initial=v)`, `min(x, where=m, initial=v)` (with `axis=` too)",
            result: "NumPy's: `sum` (`prod`) of the elements where the bool `m` (broadcast to `x`'s shape) is \
                true, `sum(where(m, x, 0))` (`prod(where(m, x, 1))`), `mean` that sum divided by the number of \
                elements selected (NaN where none is, where NumPy warns), in `mean`'s dtype; `min`/`max` of the elements and the \
                numeric scalar `v` (converted to the result's dtype), so an empty `x` or axis gives `v` \
                instead of an error, and with `where=m` of the elements where `m` is true and `v` \
                (`max(where(m, x, v), initial=v)`); `min`/`max` with `where=` but no `initial=` is E0503 \
                (NumPy's ValueError: no identity)",
            builtins: &[B::Sum, B::Prod, B::Mean, B::Min, B::Max],
        },
        DocRow {
            calls: "`keepdims=true` (Python's `keepdims=True`) of `sum prod min max mean any all count_nonzero var std \
                argmin argmax nansum nanmax nanmin nanmean median linalg.norm` (also as methods)",
            result: "NumPy's `keepdims`: the reduced axes (`axis=k`, a tuple, or every axis without `axis=`) stay, \
                of size 1, so `x - x.mean(axis=1, keepdims=true)` broadcasts as in NumPy; `keepdims=false` is the \
                plain reduction. The reduction, then a view with a new axis at each reduced position (without \
                `axis=`, its scalar filled into a new array of ones' shape)",
            builtins: &[
                B::Sum,
                B::Prod,
                B::Min,
                B::Max,
                B::Mean,
                B::Any,
                B::All,
                B::CountNonzero,
                B::Var,
                B::Std,
                B::ArgMin,
                B::ArgMax,
                B::NanSum,
                B::NanMax,
                B::NanMin,
                B::NanMean,
                B::Median,
            ],
        },
        DocRow {
            calls: "`any(x)`, `all(x)`, `count_nonzero(x)`, `axis=k`",
            result: "over all elements (a scalar) or along axis `k` (or a tuple of axes, as `sum`): whether any element is nonzero, whether all \
                are (a bool; NaN is nonzero; `any` of nothing is `false`, `all` `true`), how many are (`i64`). \
                A sum of `x != 0` (or `x == 0`), compared with 0",
            builtins: &[B::Any, B::All, B::CountNonzero],
        },
        DocRow {
            calls: "`var(x)`, `std(x)`, `axis=k`, `ddof=d`",
            result: "NumPy's variance and standard deviation over all elements or along axis `k` (or a tuple of \
                axes, as `sum`): `sum((x - \
                mean(x))**2) / (n - ddof)` (two passes, as NumPy; `ddof` an `i64`, 0 unless given; `n - ddof \
                <= 0` gives `inf` or NaN), `std` its square root. `f32` stays `f32`, integers and bools give `f64`",
            builtins: &[B::Var, B::Std],
        },
        DocRow {
            calls: "`bincount(idx)`, `bincount(idx, weights)`, `weights=w`, `minlength=m`",
            result: "NumPy's `bincount` of a 1-d integer or `bool` array (`u64` is NumPy's TypeError, E0406; \
                the indices are counted as their `i64` values): `i64` counts (with weights: `f64` sums of the weights, \
                added in index order) per index `0 .. max(max(idx) + 1, m)`, an existential size `?`; a \
                negative index is a run-time ValueError naming the line. Of no indices, NumPy gives an \
                integer array even with weights, arrayc `f64` (its dtype is static)",
            builtins: &[B::Bincount],
        },
        DocRow {
            calls: "`compress(mask, x)`",
            result: "NumPy's `compress` of 1-d arrays: `x[mask]` (see Filters)",
            builtins: &[B::Compress],
        },
        DocRow {
            calls: "`add_at(x, idx, v)`, `add_at(x, (i, j, ..), v)`",
            result: "NumPy's `np.add.at`: adds every value of `v` at the indices `idx` (an `i64` array), or at the \
                index arrays `i, j, ..` (one per leading axis, broadcast together), of `x`, in place; a \
                statement (see Scatters). A tuple `(a, b)` is allowed only here and in `return` (else \
                E0309)",
            builtins: &[B::AddAt],
        },
        DocRow {
            calls: "`argmin(x)`, `argmax(x)`",
            result: "`i64`: the row-major position of the first smallest (largest) element of the flattened `x`, as \
                NumPy; a NaN counts as the extreme value (the first NaN wins); an empty `x` is a run-time \
                error naming the line",
            builtins: &[B::ArgMin, B::ArgMax],
        },
        DocRow {
            calls: "`argmin(x, axis=k)`, `argmax(x, axis=k)`",
            result: "`i64` array of `x`'s shape without axis `k`: the position along `k` of the first extreme \
                element; an empty axis `k` is a run-time error. Computed as `min(x, axis=k)`, then the \
                smallest position whose element equals it, `min(where(x == m, position, n), axis=k)`: two \
                kernels, so `x` is read twice (NumPy reads it once)",
            builtins: &[B::ArgMin, B::ArgMax],
        },
        DocRow {
            calls: "`cumsum(x)`, `cumprod(x)`",
            result: "the running sum (product) of `x` flattened (row-major; a copy unless 1-d), 1-d, as NumPy's; \
                `bool`, `i32` and `i64` give `i64` (NumPy's upcast to its default integer), `u8` and `u64` give `u64`",
            builtins: &[B::CumSum, B::CumProd],
        },
        DocRow {
            calls: "`cumsum(x, axis=k)`, `cumprod(x, axis=k)`",
            result: "the running sum (product) along axis `k` (negative counts from the end): `x`'s shape, \
                accumulated in order along the axis (see Scans)",
            builtins: &[B::CumSum, B::CumProd],
        },
        DocRow {
            calls: "`cumsum(x, dtype=d)`, `cumprod(x, dtype=d)` (with `axis=` too)",
            result: "NumPy's accumulator dtype: the scan of `array(x, dtype=d)`, accumulated in `d`",
            builtins: &[B::CumSum, B::CumProd],
        },
        DocRow {
            calls: "`cumulative_sum(x, axis=k, include_initial=b)`, `cumulative_prod(x, axis=k, include_initial=b)`",
            result: "NumPy 2.1's `cumulative_sum` (`cumulative_prod`): the scan of `cumsum(x, axis=k)` (dtype as \
                `cumsum`'s), `axis` optional only for a 1-d `x` (else E0503, NumPy's ValueError); with \
                `include_initial=true` one longer along the axis, the identity (0, or 1) first. A scalar `x` \
                is E0408 (NumPy treats it as 1-d)",
            builtins: &[B::CumulativeSum, B::CumulativeProd],
        },
        DocRow {
            calls: "`dot(a, b)`, `a @ b`, `linalg.multi_dot([a, b, ..])`",
            result: "NumPy's `a @ b` (`@` has `*`'s precedence) for 1-d and 2-d `a` and `b` (vector·vector: a \
                scalar; matrix·vector, vector·matrix, matrix·matrix); numeric dtypes, promoted; the inner \
                sizes must be equal (no broadcasting; checked at compile time when constant, else at run \
                time naming the line). Two `f64` or `f32` matrices (but an inner size of at most 8 written in \
                the program): one call of a matrix-product library \
                (faer) on the CPU, on the operands as they lie (transposed and sliced views too; timings \
                against NumPy's OpenBLAS `@` in `benchmarks/REPORT-e2e.md`); otherwise, and on the GPU, \
                the fused product summed along the inner axis, one kernel. `a @ b` and `matmul(a, b)` of \
                stacks of matrices (both at least 2-d, one more: `(..., n, k) @ (..., k, m)`) broadcast the \
                stacks' leading axes (NumPy's `matmul`), as one fused kernel; an n-d `a` with a 1-d `b` \
                (`rgb @ weights`, `dot(a, v)`) is the sum over `a`'s last axis, as both of NumPy's products \
                give; other n-d `dot`s (NumPy's other product) are E0403. `linalg.multi_dot` of a list of two or \
                more is the products from the left (NumPy picks the cheapest order: the rounding may differ)",
            builtins: &[B::Dot],
        },
        DocRow {
            calls: "`take(x, idx, axis=k)`",
            result: "NumPy's `take`: a gather along axis `k` with the integer index array `idx` (any integer dtype but `u64`, as NumPy's safe cast to `intp`), shape `x.shape[:k] + \
                idx.shape + x.shape[k+1:]`; `axis=` may be left out for a 1-d `x` only (NumPy's `take` \
                without it flattens `x`); `take(x, idx)` of a 1-d `x` is `x[idx]` (see Gathers)",
            builtins: &[B::Take],
        },
        DocRow {
            calls: "`take_along_axis(x, idx, axis=k)`, `put_along_axis(x, idx, v, axis=k)`",
            result: "NumPy's `take_along_axis` (default axis `-1`): a gather from `x` through `idx`, an integer array \
                of `x`'s rank (E0409 else), along axis `k`, broadcast against `x` on the other axes: shape \
                `broadcast(x.shape with 1 at k, idx.shape)`, so `take_along_axis(x, argsort(x, axis=1), axis=1)` \
                is `sort(x, axis=1)` and `take_along_axis(x, argmax(x, axis=1, keepdims=true), axis=1)` the \
                maxima, as a column. `axis=None` takes from `x` flattened (`idx` 1-d). The statement \
                `put_along_axis(x, idx, v, axis=k)` (axis required, as NumPy's; `axis=None` is E0319) scatters \
                `v` (broadcast to that shape, converted to `x`'s dtype) into `x` in place. Negative indices \
                count from the end; an index out of range is a run-time IndexError naming the line. One \
                gather (scatter) kernel, through `idx` and an `arange` per other axis (see Gathers)",
            builtins: &[B::TakeAlongAxis, B::PutAlongAxis],
        },
        DocRow {
            calls: "`ravel_multi_index((i, j, ..), (d0, d1, ..))`",
            result: "NumPy's `ravel_multi_index` (C order, `mode='raise'`): the `i64` flat index \
                `(i * d1 + j) * d2 + ..` of the integer indices (arrays or scalars, one per size, broadcast \
                together; a scalar for scalars); an index outside `[0, d)` (negative too) is NumPy's \
                ValueError \"invalid entry in coordinates array\" at run time, naming the line. The inverse \
                of `unravel_index`",
            builtins: &[B::RavelMultiIndex],
        },
        DocRow {
            calls: "`flip(x)`, `flip(x, axis=k)`",
            result: "a view of `x` reversed along every axis (along axis `k`); aliases `x`, as NumPy's",
            builtins: &[B::Flip],
        },
        DocRow {
            calls: "`expand_dims(x, axis=k)`",
            result: "a view of `x` with a new axis of size 1 at position `k` (negative counts from the end of \
                the result's axes); aliases `x`",
            builtins: &[B::ExpandDims],
        },
        DocRow {
            calls: "`squeeze(x, axis=k)`, `squeeze(x)`",
            result: "a view of `x` without axis `k`, which must have size 1 (checked at compile time when the \
                size is known, else at run time naming the line); without `axis=`, without every axis whose \
                size is 1 in the program (every size must then be known at compile time: NumPy decides at run \
                time, arrayc's ranks are static); aliases `x`. Of every axis: the element, a scalar",
            builtins: &[B::Squeeze],
        },
        DocRow {
            calls: "`concatenate((a, b, ...), axis=0)`, `block([a, b])`, `block([[a, b], [c, d]])`",
            result: "a new array of the arrays joined along axis `k` (default 0): equal ranks (at least 1) and \
                sizes but along `k` (checked at compile time where known, else at run time naming the line), \
                dtypes promoted as NumPy's arrays; one copy per array, fused. NumPy's `block` of a list literal \
                joins its items (as `atleast_1d`) along the last axis; of a list of rows, each row's items (as \
                `atleast_2d`) along the last axis, then the rows along the second last. Of one array `x` \
                instead of a tuple (NumPy iterates it along axis 0, as a list grown by appends is), of its items \
                `x[0], x[1], ..`: `concatenate(x)` of a 3-d `x` `(n, a, b)` is `(n * a, b)` (of a 1-d `x`, whose \
                items are scalars, E0401: NumPy's ValueError); likewise `stack(x, axis=k)` (a copy of `x` with \
                its axis 0 moved to `k`), `vstack(x)`, `hstack(x)`, `dstack(x)`, `column_stack(x)`, their items \
                made 1-, 2- or 3-d as NumPy's (`vstack` of a 1-d `x` is `(n, 1)`); a new array",
            builtins: &[B::Concatenate],
        },
        DocRow {
            calls: "`stack((a, b, ...), axis=0)`",
            result: "a new array of the arrays (all of one shape) along a new axis `k` (default 0; negative \
                counts from the end of the result's axes)",
            builtins: &[B::Stack],
        },
        DocRow {
            calls: "`vstack((a, b, ...))`, `hstack((a, b, ...))`",
            result: "NumPy's: `vstack` joins along axis 0, a 1-d array of size `n` taken as a row `(1, n)`; \
                `hstack` joins 1-d arrays along axis 0 and others along axis 1",
            builtins: &[B::Vstack, B::Hstack],
        },
        DocRow {
            calls: "`dstack((a, b, ...))`, `column_stack((a, b, ...))`",
            result: "NumPy's: `dstack` joins along axis 2, a 1-d array of size `n` taken as `(1, n, 1)` and a \
                2-d `(m, n)` as `(m, n, 1)`; `column_stack` joins along axis 1, a 1-d array taken as a column \
                `(n, 1)`",
            builtins: &[B::Dstack, B::ColumnStack],
        },
        DocRow {
            calls: "`cross(a, b)`",
            result: "NumPy's `cross` of vectors along the last axis, the leading axes broadcast, dtypes \
                promoted: of 3 components each, a new array of the broadcast shape with 3 components; of 2, \
                the `z` component alone (a scalar for two 1-d vectors). The component count must be known \
                at compile time and equal in both (NumPy's mixed 2 and 3 is E0503: pad the 2-d one with \
                a 0); bool vectors are E0503 (NumPy's TypeError). Fused: two products and a difference per \
                component",
            builtins: &[B::Cross],
        },
        DocRow {
            calls: "`append(x, values)`",
            result: "a new 1-d array: `x` (1-d) followed by `values` (a scalar or 1-d), dtypes promoted as \
                NumPy's arrays (`append(i64 array, 1.5)` is `f64`); NumPy flattens arrays of other ranks, \
                which arrayc refuses (E0503)",
            builtins: &[B::Append],
        },
        DocRow {
            calls: "`delete(x, obj)`, `delete(x, obj, axis=k)`",
            result: "NumPy 2's `delete`: a new array of `x`'s dtype without the items along axis `k` that `obj` \
                names (without `axis=`, of `x` flattened): an integer (negative counts from the end; outside \
                `[-n, n)` NumPy's IndexError at run time, naming the line), Python's `slice(a, b, c)` (`None` \
                parts allowed), a list or 1-d integer array of indices (negative ones count from the end, \
                repeated ones delete once, out of range is the IndexError), or a bool mask of the axis' length. \
                An integer is one gather through `p + (p >= i)`, fused with what reads the result; the others keep the items through a mask, \
                a filter (axis 0) or a gather through its positions. A float `obj` is E0406, an array of \
                another rank E0503",
            builtins: &[B::Delete],
        },
        DocRow {
            calls: "`insert(x, obj, values)`, `insert(x, obj, values, axis=k)`",
            result: "NumPy 2's `insert`: a new array of `x`'s dtype with `values` (converted to it, as NumPy \
                does, unsafely) inserted along axis `k` before the indices `obj` names (without `axis=`, into \
                `x` flattened); `obj` an integer in `[-n, n]` (its own values' first axis, moved to axis `k`, \
                gives the count: `insert(v, 1, [7, 8])` inserts two items), a list or 1-d integer array of \
                indices of the original array (one item each, `values` broadcast to their block, equal indices \
                keeping their order as NumPy's stable sort does; a list of one index inserts `values`' items \
                along the axis, as NumPy's), `slice(a, b, c)` (its indices) or a bool mask (`flatnonzero` of \
                it, NumPy 2.1.2's rule). An index outside `[-n, n]` is NumPy's IndexError at run time, naming \
                the line (NumPy's case of several indices lets some of those wrap around silently). An integer `obj` joins views of `x` and the values; the others scatter both into \
                the result (positions from a stable `argsort`). NumPy treats an index array of one index at \
                run time as an integer list of one; arrayc inserts one item there (the same result unless \
                `values` has several items along the axis, where arrayc's broadcast is an error)",
            builtins: &[B::Insert],
        },
        DocRow {
            calls: "`roll(x, shift)`, `roll(x, shift, axis=k)`, `shift=s`, `roll(x, (s0, s1), axis=(k0, k1))`",
            result: "a new array of `x`'s elements shifted by `shift` (an integer, negative to the left) along \
                axis `k`, those pushed out at one end coming back at the other; without `axis=`, NumPy's \
                roll of `x` flattened, in `x`'s shape (a view of the rolled copy). Tuples of shifts and axes \
                (literals, by keyword or position; one shift for several axes or several for one, as NumPy \
                broadcasts them) roll each axis in turn",
            builtins: &[B::Roll],
        },
        DocRow {
            calls: "`split(x, k)`, `array_split(x, k)`, `split(x, [p0, p1, ..])`, `axis=a`, `vsplit(x, k)`, `hsplit(x, k)`",
            result: "NumPy's `split` and `array_split`: a tuple of `k` views of `x` (`k` a positive integer \
                literal), consecutive sections along axis `a` (default 0; `vsplit` is `split` along axis 0 of an array of 2 or more \
                dimensions, E0405 otherwise as NumPy's ValueError; `hsplit` along axis 1, of a 1-d array axis 0), usable as `let (p, q) = split(x, 2);`, \
                `p, q = split(x, 2)` or `split(x, 2)[0]`. `array_split` gives the first `n % k` sections one \
                element more than the others (`n` the axis' size); `split` needs `n % k == 0`, else NumPy's \
                ValueError \"array split does not result in an equal division\" (E0503 when `n` is known, else a \
                run-time error naming the line). With a list (or tuple) of split points, integer literals, both \
                give one more section than points, section `i` the view `x[p(i-1):p(i)]` along the axis (the \
                first from the start, the last to the end; negative points count from the end, points beyond \
                it give empty sections, as NumPy's)",
            builtins: &[B::Split, B::ArraySplit, B::Vsplit, B::Hsplit],
        },
        DocRow {
            calls: "`pad(x, w)`, `pad(x, (before, after))`, `pad(x, ((b0, a0), (b1, a1), ...))`, \
                `constant_values=c`, `mode=\"edge\"`, `\"wrap\"`, `\"reflect\"`, `\"symmetric\"`",
            result: "NumPy's `pad`: in its default mode (constant) a new array with `before` and `after` \
                elements of `c` (default 0, cast to `x`'s dtype) around `x` along every axis (along axis `i`: \
                `bi` and `ai`); the widths are non-negative integers (checked at run time unless literal). \
                The other modes are one gather per axis through NumPy's positions (`edge`: the edge \
                repeated; `wrap`: periodic; `reflect`: mirrored without repeating the edge; `symmetric`: \
                with it; widths beyond the size continue periodically, as NumPy's), fused index arithmetic; \
                padding an empty axis is a run-time error naming the line (NumPy's ValueError)",
            builtins: &[B::Pad],
        },
        DocRow {
            calls: "`tile(x, reps)`, `tile(x, (r0, r1, ...))`",
            result: "NumPy's `tile`: with an integer `reps`, `x` repeated `reps` times along its last axis \
                (shape `(..., n * reps)`), a gather through `arange(n * reps) % n`, fused; with a tuple (or \
                list) of integers, `x` repeated `ri` times along axis `i`, 1s prepended to `x`'s shape or to \
                the repetitions to make them one length (NumPy's rule: `tile(v, (2, 2))` of a 1-d `v` is \
                2-d), shape `(r0 * n0, r1 * n1, ...)`: `x` with a new axis before each axis, broadcast to \
                `(r0, n0, r1, n1, ...)` and copied (one fused kernel), read as the result (a reshape of \
                contiguous data). A negative repetition is a run-time error naming the line",
            builtins: &[B::Tile],
        },
        DocRow {
            calls: "`repeat(x, k)`, `repeat(x, k, axis=a)`, `repeat(x, counts)`",
            result: "NumPy's `repeat` with an integer `k`: each element repeated `k` times along axis `a` (shape \
                `n * k` there); without `axis=`, of `x` flattened (1-d, NumPy's); a gather through \
                `arange(n * k) // k`, fused; a negative `k` is a run-time error naming the line. With a 1-d \
                integer or bool array (or list) `counts`, one per item along the axis (or one for all), item \
                `i` is repeated `counts[i]` times: a size `sum(counts)` known at run time, a gather through the \
                scan of the marked ends (O(n + sum) work); counts of another size or negative ones are run-time \
                errors naming the line (NumPy's ValueErrors), float, `u64` or 2-d counts E0406 (NumPy's TypeError)",
            builtins: &[B::Repeat],
        },
        DocRow {
            calls: "`meshgrid(x1, x2, ...)`, `indexing=\"ij\"`",
            result: "NumPy's `meshgrid` of 1-d arrays (its default `indexing='xy'`, copies): a tuple of \
                new arrays, each of its input's dtype and of shape `(n2, n1, n3, ...)` (with `indexing=\"ij\"`: \
                `(n1, n2, n3, ...)`), array `i` varying along its input's axis (`let (xx, yy) = meshgrid(x, y);`)",
            builtins: &[B::Meshgrid],
        },
        DocRow {
            calls: "`array([a, b, ...])`, `asarray([a, b, ...])`, `dtype=d`",
            result: "NumPy's `np.array` of a list: the array literal `[a, b, ...]` (see Array literals), of \
                dtype `d` when given (each item cast to it); `array(x)` of an array is a new array, a copy (cast to \
                `d`), `asarray(x)` is `x` itself unless `d` differs (then a cast copy); of a scalar, a 0-d array",
            builtins: &[B::Array, B::AsArray],
        },
        DocRow {
            calls: "`reshape(x, (d0, d1, ...))`, `reshape(x, d)`, `x.reshape(d0, d1, ...)`, `x.reshape((d0, d1, ...))`, `order='F'`",
            result: "NumPy's `reshape` (row-major order): `x`'s elements in shape `(d0, d1, ...)`, of as many \
                elements; one size may be `-1`, inferred. A view of `x` (aliasing it: writes through either change \
                both) when `x`'s elements lie in row-major order (a new array, a contiguous view of one: NumPy's rule, \
                decided at run time), else a new array, a copy. A size that cannot hold `x`'s elements is E0412 when \
                known at compile time, else a run-time error naming the line (NumPy's \"cannot reshape array of \
                size 12 into shape (5,2)\"). NumPy's `order='F'` (column-major, by keyword, the sizes written \
                out) is `transpose(reshape(transpose(x), (.., d1, d0)))`; `order='C'` is the default",
            builtins: &[B::Reshape],
        },
        DocRow {
            calls: "`ravel(x)`, `x.ravel()`, `flatten(x)`, `x.flatten()`, `order='C'`, `order='F'`",
            result: "`x`'s elements as a 1-d array in row-major order: `ravel` is a view of `x` when `x` is \
                C-contiguous (NumPy's rule, decided at run time where not known: `x[::2].ravel()` is a copy, \
                where `reshape(x[::2], -1)` is a view), else a new array, a copy; `flatten` always a copy; NumPy's `order='F'` (by keyword or position) \
                is column-major, the row-major order of `transpose(x)` (so a view of an `x` that is a transpose); \
                other orders are E0502",
            builtins: &[B::Ravel, B::Flatten],
        },
        DocRow {
            calls: "`convolve(a, v)`, `mode=full`, `mode=same`, `mode=valid`",
            result: "NumPy's `convolve` of 1-d numeric arrays (dtypes promoted; NumPy's strings `'full'` ... \
                written as names): `out[k] = sum(a[k - j] * v[j])` over the valid `j`, of `n + m - 1` elements \
                (`full`, the default), `max(n, m)` (`same`: centred, from `(min(n, m) - 1) // 2`) or \
                `max(n, m) - min(n, m) + 1` (`valid`), the longer array taken first as NumPy does; an empty \
                array is E0503 when known, else a run-time ValueError naming the line. A host operation \
                (`arr.convolve`, on every target): the shorter array reversed, blocks of outputs in parallel, \
                each summed in vector registers over every tap (`len * min(n, m)` multiplications, as \
                NumPy's direct method, in its order)",
            builtins: &[B::Convolve],
        },
        DocRow {
            calls: "`sort(x)`, `sort(x, axis=k)`",
            result: "NumPy's `np.sort`: a new array, `x` sorted along axis `k` (default `-1`, the last; \
                negative counts from the end), NaN last as in NumPy; any rank at least 1 (NumPy's `axis=None`, \
                the flattened array, is `sort(ravel(x))`; `kind=` and `stable=` are accepted and change nothing: \
                every sort is stable). The method `x.sort(axis=k)` sorts in place as \
                NumPy's, as a statement (`x[...] = sort(x, axis=k)`); as a value it is E0207 (NumPy's is None). On the host, a parallel sort (rayon's, `runtime/src/sort.rs`): many lines one per \
                task, a few long lines each in parallel; on the GPU targets, on the device: a bitonic sorting \
                network (`docs/gpu.md`, Limits), same results",
            builtins: &[B::Sort],
        },
        DocRow {
            calls: "`argsort(x)`, `argsort(x, axis=k)`, `x.argsort()`",
            result: "NumPy's `argsort`: `i64` positions along axis `k` (default `-1`) that sort `x` (`take_along_axis(x, \
                argsort(x))` is `sort(x)`), NaN last; stable, NumPy's `kind='stable'`: NumPy's default \
                quicksort gives the same positions but for the order among equal values. Computed as `sort`",
            builtins: &[B::Argsort],
        },
        DocRow {
            calls: "`partition(x, kth)`, `argpartition(x, kth)`, `axis=k`, `x.argpartition(kth)`",
            result: "NumPy's `partition` and `argpartition` along axis `k` (default `-1`): the element at position \
                `kth` (an integer, negative from the end) is the one a sort puts there, smaller or equal ones \
                before it, larger or equal ones after it. NumPy leaves the order inside the two parts \
                unspecified; arrayc's is sorted: `sort(x, axis=k)` and `argsort(x, axis=k)` (stable), one of the \
                results NumPy allows (NumPy's own differs). A `kth` outside `[-n, n)` of the axis' size `n` is \
                E0503 where both are known, else a run-time error naming the line (NumPy's ValueError); a list \
                of `kth`s is E0503 (a sort is partitioned at every position: `sort(x)`)",
            builtins: &[B::Partition, B::Argpartition],
        },
        DocRow {
            calls: "`diff(x)`, `diff(x, n)`, `diff(x, n=k, axis=a)`",
            result: "NumPy's `diff`: the `n`-th difference (default 1, a non-negative integer literal) along axis \
                `a` (default `-1`), `x[..., 1:] - x[..., :-1]` repeated `n` times, of `x`'s dtype (integers \
                wrap); of a bool `x`, `!=` as NumPy's (a bool); the size along `a` shrinks by `n` (to at \
                least 0); `n = 0` gives `x` itself. `x` must be an array (NumPy's ValueError for a 0-d one); \
                fused: one kernel per difference. `prepend=p`, `append=q` difference `concatenate((p, x, q), \
                axis=a)` (a scalar `p` one element, of a 1-d `x`)",
            builtins: &[B::Diff],
        },
        DocRow {
            calls: "`outer(a, b)`",
            result: "NumPy's `outer`: `ravel(a)[:, newaxis] * ravel(b)[newaxis, :]`, a new array of shape \
                `(size(a), size(b))` (a scalar is one element), dtypes promoted as NumPy's arrays (a Python \
                scalar's too: `outer(2.5, i)` of an `i64` `i` is `f64`; bools: their `&`); fused",
            builtins: &[B::Outer],
        },
        DocRow {
            calls: "`inner(a, b)`",
            result: "NumPy's `inner`: the products of `a` and `b` summed over the last axis of each, of shape \
                `a.shape[:-1] + b.shape[:-1]` (1-d and 2-d operands: `inner(a, b)` of two vectors is their \
                scalar product, of two matrices `a @ b.T`), dtypes promoted as NumPy's; the last sizes must be \
                equal (E0401, or a run-time error naming the line). Bool operands are E0301 (convert with \
                `i64(...)`); fused: one product and one sum",
            builtins: &[B::Inner],
        },
        DocRow {
            calls: "`vdot(a, b)`",
            result: "NumPy's `vdot` of real arrays: `sum(ravel(a) * ravel(b))`, a scalar, dtypes promoted as \
                NumPy's; `a` and `b` of any ranks but one size (a run-time error naming the line otherwise, \
                NumPy's ValueError). Bool operands are E0301; fused",
            builtins: &[B::Vdot],
        },
        DocRow {
            calls: "`kron(a, b)`",
            result: "NumPy's `kron`, the Kronecker product of two 1-d (shape `(n * m,)`) or two 2-d arrays \
                (shape `(n * p, m * q)`): `a[i, j] * b[k, l]` at `(i * p + k, j * q + l)`, dtypes promoted as \
                NumPy's (bools: their `&`); fused, one product written through a 4-d view of the result. \
                Operands of other or mixed ranks are E0503 (write `kron(a[newaxis, :], b)` for a 1-d `a` \
                and a 2-d `b`)",
            builtins: &[B::Kron],
        },
        DocRow {
            calls: "`einsum(subscripts, a, b, ...)`",
            result: "NumPy's `einsum` of one or more arrays, `subscripts` a string literal (`\"ij,jk->ik\"`): a \
                letter per axis of each operand (spaces ignored, `...` for the axes no letter names, aligned \
                from the right and broadcast); after `->` the output's letters, else (implicit) the letters \
                that appear once, in ASCII order, after the `...` axes. A letter repeated in one operand takes \
                its diagonal (`\"ii->i\"`, `\"ii\"` the trace; 2-d operands only, E0503 otherwise); letters \
                missing from the output are summed over. Dtypes promoted as NumPy's; a size 1 broadcasts. \
                Lowered to views (diagonal, transpose, new axes), one broadcast product and a sum over the \
                summed axes, fused; exactly a matrix product of two 2-d operands (`\"ij,jk\"`, `\"ij,kj->ik\"`, \
                ...) is `dot` of (transposed) views, the BLAS path. A new array (NumPy's is a view for a pure \
                transpose or diagonal). Malformed subscripts are E0503 with NumPy's words, another number \
                of operands than terms E0501, sizes of one letter that differ (not 1) E0401 where known, \
                else a run-time error naming the line; bool operands are E0301; `optimize=` and NumPy's \
                interleaved form (`einsum(a, [0, 1], ...)`) are not supported",
            builtins: &[B::Einsum],
        },
        DocRow {
            calls: "`tensordot(a, b)`, `tensordot(a, b, axes=n)`, `tensordot(a, b, axes=((a0, ...), (b0, ...)))`",
            result: "NumPy's `tensordot`: the products of `a` and `b` summed over pairs of axes, the last `n` of \
                `a` with the first `n` of `b` (default 2), or axis `ai` of `a` with `bi` of `b` (integer \
                literals, or one each: `axes=(1, 0)`; negative from the end); shape `a`'s other axes then \
                `b`'s. The einsum it is (`tensordot(a, b, axes=1)` of matrices is `dot`, the BLAS path); paired \
                sizes must be equal (E0401, or a run-time error naming the line); axes out of range or twice, \
                and pairs of other lengths, are E0503",
            builtins: &[B::Tensordot],
        },
        DocRow {
            calls: "`logspace(start, stop)`, `logspace(start, stop, num)`, `num=n`, `endpoint=false`, `base=b`",
            result: "NumPy's `logspace`: `power(base, linspace(start, stop, num, endpoint=endpoint))`, an \
                `f64` array of `num` (default 50) numbers from `base ** start` to `base ** stop` (default \
                `base` 10.0, a numeric scalar); fused",
            builtins: &[B::Logspace],
        },
        DocRow {
            calls: "`diag(v)`, `diag(v, k)`, `diag(v, k=j)`",
            result: "NumPy's `diag`: of a 1-d `v` of size `n`, a new `(n + |k|, n + |k|)` array of `v`'s dtype \
                with `v` on diagonal `k` (default 0, positive above the main diagonal; an integer literal) and \
                zeros elsewhere; of a 2-d `v`, a new 1-d copy of its diagonal `k` (empty past the edge). \
                Other ranks are E0503",
            builtins: &[B::Diag],
        },
        DocRow {
            calls: "`gradient(f)`, `gradient(f, h)`, `gradient(f, hy, hx)`, `gradient(f, axis=k)`, `gradient(f, edge_order=2)`",
            result: "NumPy's `gradient` (unit spacing unless `h` is given): along axis `k` (a 1-d `f` needs none), second-order \
                central differences `(f[2:] - f[:-2]) / 2` inside and first-order ones `f[1] - f[0]`, \
                `f[-1] - f[-2]` at the edges, of `f`'s shape, in `f`'s float dtype (`f64` for integers); \
                at least 2 elements along the axis (E0503, or a run-time error naming the line, NumPy's \
                ValueError). An n-d `f` without `axis=` gives NumPy's gradients along every axis, a tuple \
                (`np.gradient(m)[1]`, `gy, gx = np.gradient(m)`). `gradient(f, h)`: a spacing `h` (a number), or coordinates `h` (1-d, \
                one per point of the axis; NumPy's second-order weights of unequal steps inside, its uniform formulas \
                where the steps are all equal); `edge_order=2`: NumPy's second-order one-sided differences at the \
                edges (at least 3 elements). Without `axis=`, one spacing for every axis (a number) or one per \
                axis (`gradient(f, hy, hx)`; another count is E0501, NumPy's TypeError)",
            builtins: &[B::Gradient],
        },
        DocRow {
            calls: "`unravel_index(i, (d0, d1, ...))`",
            result: "NumPy's `unravel_index` (C order): a tuple of `i64` coordinates, one per size, each of `i`'s \
                shape (a scalar for a scalar `i`), taken as `nonzero`'s are (`let (r, c) = unravel_index(i, (n, m));` \
                or `unravel_index(i, s)[k]`); `i` an integer or integer array, `(i // stride) % d` per axis. An \
                index outside `[0, d0 * d1 * ...)` is a run-time error naming the line (NumPy's ValueError)",
            builtins: &[B::UnravelIndex],
        },
        DocRow {
            calls: "`cov(m)`, `cov(m, rowvar=false, ddof=k)`, `bias=True`, `corrcoef(m)`, `corrcoef(m, rowvar=false)`",
            result: "NumPy's `cov` and `corrcoef`: each row of a 2-d `m` a variable and each column an \
                observation (`rowvar=false`: the other way round), the `(v, v)` `f64` covariance matrix \
                `inner(c, c) * (1 / (n - ddof))` of the rows `c` less their means (`ddof` default 1, an \
                integer; `bias=True` is `ddof=0`, a `ddof=` given wins, as NumPy's); a 1-d `m` is one variable \
                and gives a scalar. `corrcoef` divides by the outer \
                product of the standard deviations and clips to `[-1, 1]` (a 1-d `m`: `c / c`). Other \
                ranks are E0503; fused",
            builtins: &[B::Cov, B::Corrcoef],
        },
        DocRow {
            calls: "`trapezoid(y)`, `trapezoid(y, x)`, `trapezoid(y, x=x)`, `trapezoid(y, dx=d)`, `axis=k`",
            result: "NumPy's `trapezoid` (the trapezoidal rule): `sum((y[1:] + y[:-1]) * d / 2)` along axis `k` \
                (default `-1`), where `d` is `diff(x)` (`x` 1-d of `y`'s size along `k`, or of `y`'s shape) or \
                the scalar `dx` (default 1.0); the result has `y`'s shape without axis `k` (a scalar for a 1-d \
                `y`), a float (`f64`, or `f32` for `f32` operands); fused",
            builtins: &[B::Trapezoid],
        },
        DocRow {
            calls: "`eye(n)`, `eye(n, m)`, `eye(n, m, k)`, `eye(n, k=j)`, `identity(n)`, `dtype=d`",
            result: "NumPy's `eye`: a new `(n, m)` array (`m` defaults to `n`) of `d` (default `f64`) with ones \
                on diagonal `k` (default 0, positive above the main diagonal, any integer) and zeros \
                elsewhere; `identity(n)` is `eye(n)`. A negative size is E0503 when literal, else a run-time \
                error naming the line (NumPy's ValueError)",
            builtins: &[B::Eye, B::Identity],
        },
        DocRow {
            calls: "`tri(n)`, `tri(n, m)`, `tri(n, m, k)`, `tri(n, k=j)`, `dtype=d`",
            result: "NumPy's `tri`: a new `(n, m)` array (`m` defaults to `n`) of `d` (default `f64`), one at \
                and below diagonal `k` (where `j - i <= k`), zero above: `eye`'s diagonal offsets compared \
                with `<=`, fused. A negative size is `eye`'s error (E0503 when literal, else at run time); \
                NumPy gives an empty array there",
            builtins: &[B::Tri],
        },
        DocRow {
            calls: "`broadcast_to(x, shape)`",
            result: "NumPy's `broadcast_to`: `x` (an array or a scalar) broadcast to `shape` (a tuple of sizes, \
                one integer, or another array's `y.shape`) by NumPy's rule (each of `x`'s axes, right-aligned, \
                is the target's size or 1; `x` may not have more axes), E0401 where sizes are known, else a \
                run-time error naming the line. NumPy's result is a read-only view; arrayc's is a new array, \
                which fusion contracts where it is only read",
            builtins: &[B::BroadcastTo],
        },
        DocRow {
            calls: "`geomspace(start, stop)`, `geomspace(start, stop, num)`, `num=n`, `endpoint=false`",
            result: "NumPy's `geomspace` of two nonzero numeric scalars: `num` (default 50) `f64` numbers \
                spaced evenly on a log scale, by NumPy's formula: with `s` the sign of `start`, \
                `s * logspace(log10(start / s), log10(stop / s), num, endpoint)`, its first element \
                `start` and (with the endpoint) its last `stop` exactly; a sign change gives NaNs, as \
                NumPy's. A zero bound is a run-time error naming the line (NumPy's ValueError \
                \"Geometric sequence cannot include zero\"). `linspace`, one fused `power`",
            builtins: &[B::Geomspace],
        },
        DocRow {
            calls: "`vander(x)`, `vander(x, N)`, `N=n`, `increasing=true`",
            result: "NumPy's `vander` of a 1-d `x`: the `(len(x), N)` matrix (`N` default `len(x)`) of the \
                powers of `x`, decreasing from `x ** (N - 1)` to `x ** 0` along each row (`increasing=true`: \
                the other way), of `x`'s dtype promoted with `i64` (bool and integers `i64`, `f32` `f64`). \
                As NumPy computes it: ones, then a running product (`cumprod` along the row) of `x` \
                repeated, written through a reversed view unless increasing. `x` not 1-d is E0503; a \
                negative `N` E0503 when literal, else a run-time error naming the line (NumPy's \
                ValueError)",
            builtins: &[B::Vander],
        },
        DocRow {
            calls: "`polyval(p, x)`, `polyder(p, m)`, `polyint(p, m)`",
            result: "NumPy's `polyval`: the polynomial with coefficients `p` (highest power first) at each \
                element of `x` (an array, or a scalar for a scalar), by NumPy's Horner loop `y = 0; y = y * x \
                + p[j]` for each `j` (so the same roundings, and `polyval(p, inf)` NaN as NumPy's), of the \
                dtypes of `p` and `x` promoted as arrays. `p` is a 1-d array: of a size known when checked, 1 \
                to 256 of them (a literal `[3.0, 0.0, 1.0]` or a parameter `f64[3]`; E0503 otherwise, also for \
                NumPy's empty `p`, zeros), the loop is unrolled into one fused elementwise kernel; of a size known \
                only at run time (`p: f64[d]`), it is a loop over `p` (an empty `p` gives zeros, as NumPy's). \
                `polyder(p, m)` and `polyint(p, m)` (`m` an integer literal, default 1): NumPy's coefficient \
                arrays of the `m`-th derivative, `p[:-1] * arange(n - 1, 0, -1)` each time (`p`'s dtype), and \
                antiderivative, `concatenate((p / arange(n, 0, -1), [0.0]))` each time (a float)",
            builtins: &[B::Polyval],
        },
        DocRow {
            calls: "`swapaxes(x, a, b)`, `x.swapaxes(a, b)`, `moveaxis(x, source, destination)`",
            result: "views of `x` with its axes permuted (aliasing `x`, as NumPy's): `swapaxes` exchanges axes \
                `a` and `b`; `moveaxis` moves axis `source` to position `destination` (both integer \
                literals, or tuples of as many distinct ones), the other axes keeping their order. Negative \
                axes count from the end; an axis out of range is E0405",
            builtins: &[B::Swapaxes, B::Moveaxis],
        },
        DocRow {
            calls: "`trace(x)`, `x.trace()`, `trace(x, k)`, `offset=k`",
            result: "NumPy's `trace` of a 2-d `x`: `sum(diagonal(x))`, of `sum`'s dtype (NumPy's `trace` of a \
                higher rank, along the first two axes, is not supported: E0503); with an integer literal offset \
                `k`, `sum(diagonal(x, k))` (0 beyond the matrix)",
            builtins: &[B::Trace],
        },
        DocRow {
            calls: "`nansum(x)`, `nanmax(x)`, `nanmin(x)`, `nanmean(x)`, `axis=k`, `axis=(j, k)`",
            result: "NumPy's NaN-ignoring reductions: as `sum`, `max`, `min`, `mean` (same dtypes, axes and \
                errors) with NaNs left out: `nansum` counts them as 0 (0 where all are NaN), `nanmean` \
                divides by the number of others (NaN where all are NaN, where NumPy also warns), `nanmax` \
                and `nanmin` give NaN where all are NaN (NumPy warns too). Of integers and bools, the \
                plain reductions. Fused: masks with `x != x`, one reduction (`nanmax`, `nanmin`: two)",
            builtins: &[B::NanSum, B::NanMax, B::NanMin, B::NanMean],
        },
        DocRow {
            calls: "`median(x)`, `median(x, axis=k)`",
            result: "NumPy's `median` of every element (of the flattened array) or along axis `k`: the middle \
                element of the sorted values, or the mean of the two middle ones, `f32` for `f32` and `f64` \
                otherwise (as `mean`); NaN where the values hold a NaN, as NumPy. Through `sort` (a copy \
                sorted along the axis, `arr.sort`), then two elements read at run-time positions. Of an \
                empty array or axis NaN, as NumPy's (which also warns)",
            builtins: &[B::Median],
        },
        DocRow {
            calls: "`linalg.norm(x)`, `np.linalg.norm(x)`, `axis=k`, `axis=(j, k)`, `ord=o`",
            result: "NumPy's `linalg.norm` without `ord`: `sqrt(sum(x * x))` of every element (a vector's \
                2-norm, a matrix's Frobenius norm, of any rank as NumPy's), or along `axis=` (a vector norm \
                per line; a pair of axes, the Frobenius norm of each matrix); `f32` stays `f32`, other \
                dtypes give `f64`. `ord=` of vector norms (a 1-d `x`, or one `axis=k`): `1` (`sum(abs(x))`), \
                `2` (the default), `inf` and `-inf` (`max(abs(x))`, `min(abs(x))`; of an empty vector a \
                run-time error, as NumPy's). Matrix norms of a 2-d `x` without `axis=`, NumPy's: `ord='fro'` \
                (the default's Frobenius norm), `'nuc'` (the sum of the singular values), `1` and `-1` (the \
                largest and smallest column sum of `abs(x)`), `inf` and `-inf` (row sums), `2` and `-2` (the \
                largest and smallest singular value, `linalg.svd`); `ord` also by position \
                (`linalg.norm(v, 1)`, `linalg.norm(a, 'fro')`). Vector norms of other orders, matrix norms \
                with `axis=(j, k)` and of other ranks are E0503",
            builtins: &[B::Norm],
        },
        DocRow {
            calls: "`linalg.solve(a, b)`, `linalg.inv(a)`, `linalg.det(a)`, `sign, logabsdet = linalg.slogdet(a)` (also `np.linalg.`)",
            result: "NumPy's, of one square matrix `a` (`n x n`; NumPy's stacks of matrices, rank above 2, \
                are E0503) and `b` of shape `(n,)` or `(n, k)`: `solve` has `b`'s shape, `inv` `a`'s, `det` \
                is a scalar. `f32` when every operand is `f32`, else `f64` (integers convert, as NumPy). An \
                LU factorisation with partial pivoting (LAPACK's `getrf`, which NumPy calls; `faer` on the \
                host, every target), so results agree with NumPy's to rounding; `det` is NumPy's \
                `sign * exp(sum(log|u_ii|))` (`0.0` for a singular `a`, `1.0` for `0 x 0`). A pivot exactly \
                zero in `solve`/`inv` is NumPy's `LinAlgError: Singular matrix`, a run-time error naming the \
                line; a matrix that is not square, or a `b` whose rows differ from `n`, is E0503 where the \
                sizes are known and a run-time error otherwise. `slogdet` is NumPy's `(sign, logabsdet)`, two \
                scalars (`det = sign * exp(logabsdet)` without its overflow; `(0.0, -inf)` for a singular \
                `a`, `(1.0, 0.0)` for `0 x 0`). A host operation (`arr.linalg`): it ends a fusion region",
            builtins: &[B::Solve, B::Inv, B::Det, B::Slogdet],
        },
        DocRow {
            calls: "`linalg.matrix_power(a, k)` (also `np.linalg.`)",
            result: "NumPy's: `a @ a @ ... @ a` (`k` times) of one square matrix `a`, `k` an integer, \
                by repeated squaring as NumPy (each product a matrix product, `a @ b`); `k = 0` the identity \
                of `a`'s dtype; `k < 0` the power of `linalg.inv(a)` (a float result). Of `a`'s dtype for \
                `k >= 0`. A literal `k` is unrolled; a run-time `k` is NumPy's loop over its bits \
                (`grammar/src/matrix_power.rs`), of `a`'s dtype, so `k < 0` of an integer `a` (a float in \
                NumPy) is a run-time error naming the line, and a non-square `a` too (NumPy's LinAlgError)",
            builtins: &[B::MatrixPower],
        },
        DocRow {
            calls: "`linalg.cholesky(a)`, `linalg.eigvalsh(a)`, `UPLO='U'`, `linalg.svd(a, compute_uv=False)` \
                (also `np.linalg.`)",
            result: "NumPy's, of one matrix `a` (square but for `svd`; stacks of matrices are E0503), `f32` when \
                `a` is `f32`, else `f64`: `cholesky` the lower-triangular `L` of `a = L @ L.T` (LAPACK's \
                `potrf`; `faer`'s `llt`), reading only the lower triangle of `a` as NumPy; a matrix that is not \
                positive definite is NumPy's `LinAlgError: Matrix is not positive definite`, a run-time error \
                naming the line. `eigvalsh` the eigenvalues of the symmetric `a`, ascending, reading only its \
                lower triangle (`UPLO='L'`, NumPy's default) or with `UPLO='U'` its upper one. `svd(a, \
                compute_uv=False)` the `min(m, n)` singular values of the `m x n` `a`, descending (the factors: \
                the next rows). Host operations (`arr.linalg`): \
                results agree with NumPy's LAPACK to rounding, not bit for bit",
            builtins: &[B::Cholesky, B::Eigvalsh, B::Svd],
        },
        DocRow {
            calls: "`linalg.matrix_rank(a)`, `linalg.cond(a)` (also `np.linalg.`)",
            result: "NumPy's, of one matrix `a` (any `m x n`), from its singular values `s` (`linalg.svd(a, \
                compute_uv=False)`): `matrix_rank` the `i64` count of `s > s.max() * max(m, n) * eps` (NumPy's \
                default tolerance, `eps` of `a`'s float dtype; `0` for an empty `a`); `cond` the 2-norm \
                condition number `s[0] / s[-1]` (`inf` for a singular `a`, as NumPy; of an empty `a` NumPy's \
                `LinAlgError: cond is not defined on empty arrays`, a run-time error). NumPy's `tol=`, \
                `rtol=` and `cond`'s `p` are E0502",
            builtins: &[B::MatrixRank, B::Cond],
        },
        DocRow {
            calls: "`linalg.pinv(a)`, `linalg.pinv(a, rcond)`, `rcond=r`, `rtol=r`, `rtol=None` (also `np.linalg.`)",
            result: "NumPy 2's Moore-Penrose pseudo-inverse of one `m x n` matrix `a` (any sizes; stacks of \
                matrices are E0503), `n x m`, `f32` when `a` is `f32`, else `f64`: `V @ diag(1/s) @ U.T` of \
                `a`'s thin SVD (`faer` on the host, every target; NumPy calls LAPACK's `gesdd`, so results \
                agree to rounding), the singular values `s <= cutoff * s.max()` taken as zero. The cutoff is \
                `rcond` (positional or keyword) or `rtol` (numeric scalars); as NumPy 2.4, `1e-15` when \
                neither is given and `max(m, n) * eps` (`eps` of `a`'s float dtype) for `rtol=None`; both \
                given, or `rtol=None` of an integer `a`, is E0503 (NumPy's ValueError). An empty `a` gives an empty `n x m` result; NaN or \
                infinite elements are NumPy's `LinAlgError: SVD did not converge`, a run-time error naming \
                the line. `hermitian=` is E0502. A host operation (`arr.linalg` `pinv`)",
            builtins: &[B::Pinv],
        },
        DocRow {
            calls: "`let (w, v) = linalg.eigh(a)`, `UPLO='U'`; `let (q, r) = linalg.qr(a)`, \
                `mode='reduced'`, `'complete'`, `'r'`; `let (u, s, vh) = linalg.svd(a)`, `full_matrices=False` \
                (also `np.linalg.`)",
            result: "NumPy's factorisations of one matrix `a` (stacks of matrices are E0503), `f32` when `a` is \
                `f32`, else `f64`. `eigh` of a square `a`: the eigenvalues `w` ascending and the unit eigenvectors \
                as the columns of `v` (`a @ v = v * w`), reading only `a`'s lower triangle (`UPLO='L'`) or its \
                upper one; a non-square `a` is NumPy's `LinAlgError` (E0503, or a run-time error where the sizes \
                are known only then). `qr` of an `m x n` `a`: `q` with orthonormal columns and upper-triangular \
                `r`, `a = q @ r`; `mode='reduced'` (default) `q` `m x k`, `r` `k x n` (`k = min(m, n)`), \
                `'complete'` `q` `m x m`, `r` `m x n`, `'r'` only `r` (`k x n`); `'raw'` is E0503. `svd` of an \
                `m x n` `a`: `u` `m x m`, `s` the `k` singular values descending, `vh` `n x n` \
                (`full_matrices=False`: `m x k`, `k x n`), `a = u[:, :k] @ diag(s) @ vh[:k]`. The signs of \
                eigenvectors, of `q`'s columns with `r`'s rows and of singular vectors are `faer`'s, which \
                may differ from NumPy's LAPACK (both are valid factorisations); values agree to rounding. \
                One host operation (`arr.linalg` `eigh`, `qr`, `svd`) writes one packed array and the results \
                are views of it. An empty `a` gives NumPy's empty factors (identity `q`, `u`, `vh`); NaN or \
                infinite elements give NaN from `eigh` and NumPy's `LinAlgError: SVD did not converge` from `svd`",
            builtins: &[B::Eigh, B::Qr, B::Svd],
        },
        DocRow {
            calls: "`let (x, residuals, rank, s) = linalg.lstsq(a, b, rcond=None)`, `linalg.lstsq(a, b)[0]`, \
                `rcond=r` (also `np.linalg.`)",
            result: "NumPy 2's least-squares solution of `a @ x = b` for one `m x n` matrix `a` and `b` of shape \
                `(m,)` or `(m, k)`: `x` (`(n,)` or `(n, k)`) the minimum-norm solution `pinv(a, rcond) @ b` from \
                `a`'s SVD (NumPy calls LAPACK's `gelsd`; results agree to rounding), the singular values \
                `s <= rcond * s.max()` taken as zero; `rcond=None` or omitted is `max(m, n) * eps` (NumPy 2's \
                default); `rank` (`i32`, as NumPy's LAPACK rank) the count of the others; `s` `a`'s `min(m, n)` singular values, \
                descending; `residuals` the squared 2-norms of the columns of `b - a @ x` (shape `(k,)`, `(1,)` \
                for a 1-d `b`) where `rank == n` and `m > n`, else empty (shape `(0,)`), as NumPy",
            builtins: &[B::Lstsq],
        },
        DocRow {
            calls: "`polyfit(x, y, deg)`",
            result: "NumPy's least-squares polynomial fit: the `deg + 1` coefficients, highest power first \
                (`(deg + 1, k)` for a 2-d `y` of `k` columns), of `x` (1-d, `m` points) and `y` (`(m,)` or \
                `(m, k)`), `deg` an integer literal; as NumPy's, `lstsq` of the Vandermonde matrix with its \
                columns scaled to unit 2-norm and `rcond = m * eps`, the solution scaled back, so results \
                agree with NumPy's to rounding. `f64` (as NumPy's, whose `vander` promotes an `f32` `x`; the \
                cutoff's `eps` is `x`'s float dtype's). NumPy's \
                `w=`, `full=`, `cov=` are E0502",
            builtins: &[B::Polyfit],
        },
        DocRow {
            calls: "`isclose(a, b)`, `allclose(a, b)`, `rtol=r`, `atol=t`, `equal_nan=true`",
            result: "NumPy's `isclose`: elementwise `abs(a - b) <= atol + rtol * abs(b)` where `b` is finite, or \
                `a == b` (so equal infinities are close), a bool array of the broadcast shape (a bool of two \
                scalars); `rtol` (default `1e-05`) and `atol` (default `1e-08`) numeric scalars, `equal_nan` \
                (default `false`) a bool literal: with `true`, two NaNs are close too. As NumPy, `b` is \
                converted to a float first (`f32` stays `f32`, others `f64`), the difference is taken in the \
                promoted dtype and the tolerance in `b`'s float dtype. `allclose` is `all(isclose(a, b))`, \
                one bool. Fused: one elementwise kernel (and `allclose`'s reduction)",
            builtins: &[B::Isclose, B::Allclose],
        },
        DocRow {
            calls: "`ptp(x)`, `ptp(x, axis=k)`, `axis=(j, k)`",
            result: "NumPy's `ptp` (peak to peak): `max(x) - min(x)` of every element or along the axes, of \
                `x`'s dtype (integers wrap as NumPy's); of a bool `x` E0503 (NumPy's TypeError: bools have \
                no `-`); of an empty array or axis a run-time error naming the line, as `max`'s. Two \
                reductions and one subtraction",
            builtins: &[B::Ptp],
        },
        DocRow {
            calls: "`average(x)`, `average(x, axis=k)`, `weights=w`, `axis=(j, k)`, `returned=true`",
            result: "NumPy's `average`: without `weights=`, `mean`'s (dtype, axes, result); with `weights=w` (an array of \
                `x`'s shape, or as NumPy's a 1-d array of `x.shape[k]` with one `axis=k`, the weights along that \
                axis, its size checked at run time where it is not known, naming the line; other shapes are \
                E0503), `sum(x * w) / sum(w)` along the axes, of the dtypes promoted (with \
                `f64` for integer and bool `x`); where the weights sum to zero a run-time error naming the line \
                (NumPy's ZeroDivisionError). With `returned=true` (a bool literal) the pair `(average, sum of the \
                weights)`, the latter of the average's shape and dtype (without weights, the count of elements \
                averaged), as `let (avg, sw) = average(x, axis=1, weights=w, returned=true)`",
            builtins: &[B::Average],
        },
        DocRow {
            calls: "`flatnonzero(x)`, `argwhere(x)`",
            result: "NumPy's `flatnonzero`: the `i64` positions of the nonzero elements of `x` flattened \
                (row-major; NaN is nonzero), in order, a new 1-d array whose size is known only at run \
                time: a filter (see Filters) of `arange(size(x))` by `ravel(x) != 0`. `argwhere(x)`: NumPy's `(k, \
                ndim)` `i64` array of the index tuples of the nonzero elements, row-major: `nonzero(x)`'s \
                index arrays as its columns",
            builtins: &[B::Flatnonzero, B::Argwhere],
        },
        DocRow {
            calls: "`unique(x)`, `return_index=true`, `return_inverse=true`, `return_counts=true`",
            result: "NumPy's `unique`: the sorted distinct elements of `x` flattened, a new 1-d array of `x`'s \
                dtype whose size is known only at run time; NaNs, sorted last, count as one (NumPy 2's \
                `equal_nan=True`). `sort` of a copy, then a filter keeping each element that differs from the \
                one before it. With any of the keywords `true` (bool literals), NumPy's tuple of the values \
                and the parts asked for, in its order, taken apart by `let (v, c) = unique(x, \
                return_counts=True);`: `index`, the `i64` position in `x` flattened of each value's first \
                occurrence (the sort is then a stable `argsort`); `inverse`, for each element of `x` the `i64` \
                position of its value, in `x`'s shape (NumPy 2); `counts`, the `i64` number of each value's \
                occurrences (the differences of the runs' starts). Filters, a scan and a scatter",
            builtins: &[B::Unique],
        },
        DocRow {
            calls: "`searchsorted(a, v)`, `a.searchsorted(v)`, `side=left`, `side=right`, `sorter=s`",
            result: "NumPy's `searchsorted` of a sorted 1-d `a` (NaN last, as `sort` leaves it; not checked): for \
                each element of `v` (an array of any shape, or a scalar), the `i64` position where it would \
                be inserted to keep `a` sorted: before equal elements with `side=left` (the default; the \
                number of elements less than it), after them with `side=right` (the number not greater); \
                dtypes promoted, NaN greater than every number as NumPy orders it. The result has `v`'s \
                shape; `sorter=s` (an `argsort` of `a`) searches `a[s]`. Computed as counts of a fused comparison of every pair, `len(a) * size(v)` of them \
                (NumPy's binary search is `log(len(a))` per element: a gather-based search is future work)",
            builtins: &[B::Searchsorted],
        },
        DocRow {
            calls: "`isin(a, b)`, `isin(a, b, invert=true)`",
            result: "NumPy's `isin`: a bool array of `a`'s shape, true where the element of `a` equals some \
                element of `b` (an array of any shape, or a scalar), compared in the dtypes promoted as \
                NumPy's arrays (a scalar `b` is not weak: `isin(x32, 0.1)` compares in `f64`); NaN is in \
                nothing; `invert=true` negates. A fused comparison of every pair and a count per element of \
                `a`, `size(a) * size(b)` of them (NumPy's small-`b` path; its sorting path is future work). \
                `a` must be an array (E0503: `isin(array([v]), b)`); NumPy 2.4 has no `in1d`: `isin` is \
                its spelling",
            builtins: &[B::Isin],
        },
        DocRow {
            calls: "`union1d(a, b)`, `intersect1d(a, b)`, `setdiff1d(a, b)`, `setxor1d(a, b)`",
            result: "NumPy's set routines of two arrays (flattened; E0503 for a scalar: `array([v])`): sorted, \
                distinct elements, a new 1-d array whose size is known only at run time. `union1d`: \
                `unique(concatenate((a, b)))`; `intersect1d`: the elements of `unique(a)` in `b`; \
                `setdiff1d`: those of `unique(a)` not in `b`, of `a`'s dtype; `setxor1d`: those in exactly \
                one, NumPy's formula (the sorted uniques of both, each kept when it differs from both \
                neighbours). The others promote the two dtypes as NumPy's arrays. NaN as NumPy: \
                `union1d` keeps one (as `unique`), `intersect1d` none, `setdiff1d` `a`'s, `setxor1d` one \
                from each side. Built of `unique` (a sort and a filter), `isin`'s comparison and filters; \
                `assume_unique=` is not taken",
            builtins: &[B::Union1d, B::Intersect1d, B::Setdiff1d, B::Setxor1d],
        },
        DocRow {
            calls: "`nanargmin(x)`, `nanargmax(x)`, `axis=k`",
            result: "NumPy's `nanargmin`/`nanargmax`: `argmin`/`argmax` (flat position, or along axis `k`) \
                ignoring NaNs, of `x` with NaN replaced by `inf` (`-inf`), so the first extreme number \
                wins; where `x` is not empty and a slice (all of `x` without `axis=`) is all NaN, a \
                run-time error naming the line (NumPy's ValueError \"All-NaN slice encountered\"); of an \
                empty `x` `argmin`'s error. Integer and bool `x`: `argmin`/`argmax`. A fused `where`, the \
                arg-reduction, and a count of NaN-free elements per slice",
            builtins: &[B::NanArgMin, B::NanArgMax],
        },
        DocRow {
            calls: "`percentile(x, q)`, `quantile(x, q)`, `axis=k`, `method=m`, `keepdims=true`; `nanpercentile(x, q)`, `nanquantile(x, q)`",
            result: "NumPy's `percentile` (`q` in `[0, 100]`) and `quantile` (`q` in `[0, 1]`), of every element (of the \
                flattened array) or along axis `k`, with each of NumPy's methods, written as names or strings \
                (`method=lower`): with `x` sorted along the axis (NaN last) and `n` values, NumPy's virtual index of \
                the method (`linear`, the default: `i = (n - 1) * q`, for `percentile` `q / 100`; \
                `interpolated_inverted_cdf`, `hazen`, `weibull`, `median_unbiased`, `normal_unbiased`: `n * q + \
                (alpha + q * (1 - alpha - beta)) - 1`; `averaged_inverted_cdf`: `n * q - 1`; `midpoint`: the mean of \
                `floor` and `ceil` of `(n - 1) * q`), then NumPy's interpolation between the elements at `floor(i)` \
                and `floor(i) + 1` (clipped to the line), `a + (b - a) * t`, `b - (b - a) * (1 - t)` where `t >= \
                0.5` (`t` the fraction; `averaged_inverted_cdf`: 0.5 where it is 0, else 1; `midpoint`: 0.5 unless \
                `i` is whole), so results equal NumPy's. The methods that take one element, `lower`, `higher`, \
                `nearest` (`floor`, `ceil`, `rint` of `(n - 1) * q`: halves to even, as NumPy's), `inverted_cdf` and \
                `closest_observation`, give `x`'s dtype. `q` a scalar (taken as a Python number: the result is `f32` \
                for an `f32` `x`, else `f64`) or a 1-d array or list (`[25, 50, 75]`: an array, NumPy's promotion of \
                `x`'s and `q`'s dtypes, and a leading axis of `len(q)`); `quantile` of an integer `q` (`0` or `1`) \
                with `linear` is the element itself, of `x`'s dtype, as NumPy's. NaN where the values hold a NaN. \
                `nanpercentile` and `nanquantile` take the same arguments and ignore NaNs: each line's count of \
                numbers stands for `n` (NaN for a line of NaNs only, where NumPy warns); of integers they are \
                `percentile` and `quantile`. A `q` out of range (or NaN) is a run-time error naming the line \
                (NumPy's ValueError), as is an empty array or axis (NumPy's IndexError); a bool `x`, a `q` of rank \
                2, a method NumPy does not have and `weights=` are E0503 or E0502. `keepdims=true` keeps the \
                reduced axes (size 1), after `q`'s. Through `sort`, as `median`",
            builtins: &[B::Percentile, B::Quantile, B::NanPercentile, B::NanQuantile],
        },
        DocRow {
            calls: "`nonzero(x)`, `x.nonzero()`",
            result: "NumPy's `nonzero`: a tuple of `i64` index arrays, one per axis of `x`, of the positions of \
                its nonzero elements in row-major order (NaN is nonzero), each a new 1-d array whose size \
                is known only at run time. arrayc has tuples only of results: take the one of a 1-d `x` \
                as `nonzero(x)[0]` or `let (idx,) = nonzero(x);` (Python's `idx, = np.nonzero(x)`: \
                `idx, = nonzero(x);` assigns a declared `idx`), those of a 2-d `a` as `let (i, j) = \
                nonzero(a);` or `nonzero(a)[1]`. A use as one value (`x[nonzero(x)]`, `len(nonzero(x))`) \
                is E0309, whose help names `flatnonzero`. `flatnonzero(x)`, then `(p // stride) % size` \
                per axis",
            builtins: &[B::Nonzero],
        },
        DocRow {
            calls: "`fmax(a, b)`, `fmin(a, b)`",
            result: "NumPy's `fmax`/`fmin`: `maximum`/`minimum` ignoring NaNs (the other operand where one \
                is NaN, NaN only where both are), broadcast and promoted as `maximum`; fused",
            builtins: &[B::Fmax, B::Fmin],
        },
        DocRow {
            calls: "`tril(x)`, `triu(x)`, `tril(x, k)`, `k=j`",
            result: "NumPy's `tril`/`triu`: `x` with the elements above (`tril`) or below (`triu`) diagonal \
                `k` (default 0, positive above the main diagonal, any integer) set to zero, over the last two \
                axes; a 1-d `x` of size `n` gives an `(n, n)` array, as NumPy's. A `where` of the column \
                minus the row position against `k`; fused",
            builtins: &[B::Tril, B::Triu],
        },
        DocRow {
            calls: "`nan_to_num(x)`, `nan=v`, `posinf=p`, `neginf=m`",
            result: "NumPy's `nan_to_num`: a copy of `x` with NaN replaced by `v` (default `0.0`), `inf` by `p` \
                (default the largest finite value of `x`'s dtype) and `-inf` by `m` (default the most negative \
                finite value), the replacements numeric scalars cast to `x`'s dtype; integers and bools \
                unchanged (a copy). Fused",
            builtins: &[B::NanToNum],
        },
        DocRow {
            calls: "`f64(x) f32(x) i64(x) i32(x) i16(x) i8(x) u64(x) u32(x) u16(x) u8(x) bool(x)`",
            result: "casts, NumPy's `astype` (float to int truncates toward zero; integers wrap; a float out of \
                an integer's range gives what NumPy gives on x86-64)",
            builtins: &[B::F64, B::F32, B::I64, B::I32, B::I16, B::I8, B::U64, B::U32, B::U16, B::U8, B::Bool],
        },
        DocRow {
            calls: "`float(s)`, `int(s)`",
            result: "Python's conversions of a scalar `s` (a 0-d value, a reduction's result): `f64(s)`, `i64(s)` \
                (`int` truncates toward zero: `int(-2.7)` is `-2`); `bool(s)` is the cast above. Of an array \
                E0503, whose help names `x.astype(f64)` (NumPy raises for a size other than 1)",
            builtins: &[B::Float, B::Int],
        },
        DocRow {
            calls: "`fliplr(x)`, `flipud(x)`",
            result: "NumPy's: views of `x` reversed along axis 1 (`x` at least 2-d) and along axis 0; a lower \
                rank is E0503 (NumPy's ValueError); alias `x`",
            builtins: &[B::Fliplr, B::Flipud],
        },
        DocRow {
            calls: "`rot90(x)`, `rot90(x, k)`, `rot90(x, k=1, axes=(0, 1))`",
            result: "NumPy's `rot90`: `x` turned `k` quarter turns (an integer literal, any sign) from axis `a` \
                towards axis `b` of `axes=(a, b)` (two different axes, integer literals; `x` at least 2-d, \
                else E0503), a view: step -1 along `b` (`k = 1`), both (`k = 2`) or `a` (`k = 3`), and for odd \
                `k` the two axes swapped; aliases `x`",
            builtins: &[B::Rot90],
        },
        DocRow {
            calls: "`triu_indices(n, k=0, m=n)`, `tril_indices(n, k=0, m=n)`",
            result: "NumPy's: a tuple of two `i64` index arrays, the rows and the columns of the positions on \
                and above (`tril`: on and below) diagonal `k` of an `(n, m)` matrix, row-major; their length \
                is known when `n`, `k`, `m` are literals, else `?`. A filter of the mask `j - i >= k` (`<=`). \
                `x[triu_indices(n)]` (and `x[np.ix_(...)]`) index with the whole tuple: the parser writes \
                `x[t[0], t[1]]`, repeating the call, a gather; `let (r, c) = triu_indices(n);` destructures",
            builtins: &[B::TriuIndices, B::TrilIndices],
        },
        DocRow {
            calls: "`ix_(i0, i1, ...)`",
            result: "NumPy's `ix_` of 1-d integer index arrays (or lists): a tuple of views, `ik` along axis `k` \
                and size 1 elsewhere, so that `x[np.ix_(i, j)]` is the gather of the cross product \
                `x[i[:, newaxis], j[newaxis, :]]`; bool masks are E0503 (take `nonzero(m)[0]`)",
            builtins: &[B::Ix],
        },
        DocRow {
            calls: "`digitize(x, bins)`, `digitize(x, bins, right=true)`",
            result: "NumPy's `digitize` of monotonic 1-d `bins`: the `i64` index of each element's bin, of `x`'s \
                shape: `searchsorted(bins, x, side=right)` (`right=true`: `side=left`) for increasing bins, \
                `n - searchsorted(bins[::-1], x, side)` for decreasing ones (told apart at run time, both \
                computed); bins neither are a run-time error naming the line (NumPy's ValueError)",
            builtins: &[B::Digitize],
        },
        DocRow {
            calls: "`interp(x, xp, fp)`, `left=l`, `right=r`",
            result: "NumPy's `interp` (its C loop, elementwise) for increasing 1-d `xp`: `f64` of `x`'s shape, \
                the line through the samples on each side of `x` (searchsorted, gathers of `xp` and `fp`, \
                `slope * (x - xp[j]) + fp[j]`), `fp[0]` (or `l`) left of `xp[0]`, `fp[-1]` (or `r`) right of \
                `xp[-1]`, exact at the samples; an empty `xp` or `fp` of another length is a run-time error \
                naming the line (E0401 at compile time when the lengths are known)",
            builtins: &[B::Interp],
        },
        DocRow {
            calls: "`histogram(x)`, `histogram(x, bins=b, range=(lo, hi))`, `weights=w`, `density=true`",
            result: "NumPy's `histogram` of `x` flattened: the tuple `(hist, bin_edges)`. `bins` an integer \
                (default 10): `b` equal bins of `[lo, hi]` (default `[min(x), max(x)]`, `[0, 1]` of no data, \
                equal ends widened by 0.5), the `f64[b + 1]` edges `linspace(lo, hi, b + 1)` (`f32` for \
                `f32` data), each value's bin by NumPy's arithmetic and its one correction against the \
                edges; `bins` a 1-d array or list of `m` edges: `m - 1` bins, the edges as given (their \
                dtype; `range=` not read), each value's bin `searchsorted(edges, v, side=right) - 1`. The \
                last bin closed, values outside (and NaN) left out (a filter), then a `bincount`: `i64` \
                counts; with `weights=w` (an array of `x`'s shape, not bool) the sums of the weights in \
                `f64`, in data order, cast to `w`'s dtype as NumPy's (with edges NumPy differences a \
                cumulative sum of the sorted weights: float sums may differ in the last bits); with \
                `density=true` `f64` `hist / diff(edges) / sum(hist)`. `bins < 1`, `lo > hi` and bounds \
                not finite are E0503 when literal, else run-time errors naming the line, as are \
                decreasing edges, no edges, and weights of another shape (NumPy's ValueErrors)",
            builtins: &[B::Histogram],
        },
        DocRow {
            calls: "`histogram_bin_edges(x, bins=b, range=(lo, hi))`",
            result: "NumPy's `histogram_bin_edges`: the edges `histogram` gives for these arguments (`weights=` \
                accepted and not read, as NumPy's with a count or edges); NumPy's strings (`bins='auto'`) \
                are not supported: give a count",
            builtins: &[B::HistogramBinEdges],
        },
        DocRow {
            calls: "`atleast_1d(x)`, `atleast_2d(x)`, `atleast_3d(x)`",
            result: "NumPy's: `x` with axes of size 1 added until it has 1, 2 or 3 dimensions, a view of `x` (NumPy's \
                shapes: a 1-d `(n,)` is `(1, n)` in 2-d and `(1, n, 1)` in 3-d, a 2-d `(m, n)` is `(m, n, 1)`; of \
                an array of that rank or more, a view of all of it); of a scalar a new array of one element",
            builtins: &[B::AtLeast1d, B::AtLeast2d, B::AtLeast3d],
        },
        DocRow {
            calls: "`fill_diagonal(a, val);`",
            result: "a statement, NumPy's `fill_diagonal` with `wrap=False`: writes `val` into the main diagonal \
                of `a` in place, `a[i, i, ..]` for `i` below the smaller size of a 2-d `a` (tall or wide), or \
                below the common size of a higher-rank `a` (all sizes equal: E0401 where two are known to differ, \
                else a run-time error naming the line, NumPy's ValueError); `a` of rank 1 or a scalar is E0503. \
                `val` a scalar or an array (flattened), converted to `a`'s dtype as an assignment converts, its \
                elements cycled along the diagonal (NumPy's `a.flat[::n + 1] = val`; an empty `val` writes \
                nothing). `wrap=true` is E0503",
            builtins: &[B::FillDiagonal],
        },
        DocRow {
            calls: "`copyto(dst, src);`, `copyto(dst, src, where=m);`, `f(args, out=d)`",
            result: "a statement, NumPy's `copyto`: writes `src`, broadcast to `dst`'s shape (E0401 where it cannot \
                be), into the array `dst` in place (`dst[...] = src;`; `dst` may be any array expression, a view \
                writes through), with `where=` only where the bool mask `m` (broadcast too) is true \
                (`dst[...] = where(m, src, dst);`). NumPy's `casting='same_kind'`: a float into an integer or \
                bool array, a signed integer into an unsigned or bool one is E0320 (NumPy's TypeError), a \
                Python int a float or integer one; a non-bool `where=` or a scalar `dst` is E0321. NumPy's \
                `out=d` (`out=(d,)`) of any builtin (ufuncs, reductions, scans, `clip`, `matmul`) as a statement, \
                an assignment's value or a `return`'s: `copyto(d, f(args))` first (so its casting rule), the \
                value being `d` itself (`w = np.add(a, b, out=d)` aliases `d`); a ufunc's `where=m` with it \
                writes only where `m` is true (`copyto(d, f(args), where=m)`), a reduction's stays its own. \
                Elsewhere in an expression `out=` is E0502",
            builtins: &[B::Copyto],
        },
        DocRow {
            calls: "`putmask(a, mask, values);`",
            result: "a statement, NumPy's `putmask`: where `mask` (`a`'s shape, any dtype, nonzero as true) is true \
                at flat position `k` of `a`, writes `values.flat[k % values.size]` (`values` cycled by the \
                position in `a`; a scalar everywhere; an empty `values` writes nothing). A mask of another size \
                is a run-time error naming the line (NumPy's ValueError \"putmask: mask and data must be the same \
                size\"). NumPy's rule for `values`: an array (or a typed scalar but an `f64` one) casts to `a`'s \
                dtype by `casting='safe'` (else E0320, NumPy's TypeError), a Python scalar converts as an \
                assignment converts",
            builtins: &[B::Putmask],
        },
        DocRow {
            calls: "`place(arr, mask, vals);`",
            result: "a statement, NumPy's `place`: the `j`-th true element of `mask` (`arr`'s shape, nonzero as \
                true), in row-major order, gets `vals.flat[j % vals.size]` (`vals` cycled by the count of trues \
                so far; a scalar everywhere); an empty `vals` with a true element is a run-time error naming the \
                line (NumPy's ValueError \"Cannot insert from an empty array!\"), as is a mask of another \
                size. Casts as `putmask`'s `values` (E0320)",
            builtins: &[B::Place],
        },
        DocRow {
            calls: "`put(a, ind, v);`, `put(a, ind, v, mode=\"raise\");`",
            result: "a statement, NumPy's `put` of a 1-d array `a`: `a[ind[i]] = v.flat[i % v.size]` for each \
                index of `ind` (a scalar or an integer array, flattened; negative counts from the end; out of \
                range NumPy's IndexError at run time naming the line; of repeated indices the last wins; an \
                empty `v` writes nothing), converted as an assignment converts. An `a` of another rank, or \
                `mode=\"wrap\"`/`\"clip\"`, is E0321 (help: `unravel_index` to one index array per axis)",
            builtins: &[B::Put],
        },
        DocRow {
            calls: "`l = []` (or `l = [a, b]`) then `l.append(e);` in loops that do other work (any loop, branches, `break`; \
                internally `list.buffer` and `list.item`)",
            result: "Python's list of the appended items, as an array (`grammar/src/grown_lists.rs`): its reads \
                (`len(l)`, `l[-1]`, `np.array(l)`, `np.mean(l)`, `for t in l`; Python's `sum(l)` adds the items) \
                see the items appended so far; the items' dtype and shape are those of the appended values, \
                promoted as NumPy's `np.array(l)` (items of different ranks are E0207, NumPy's ValueError of an \
                inhomogeneous shape). The buffer doubles when full (8 items first). Other uses of `l` (another \
                method, `l[i] = v`, `l + [x]`) are E0207",
            builtins: &[B::ListBuffer, B::ListItem],
        },
        DocRow {
            calls: "`y = e;` first inside a loop body or an `if` branch, `y` read after it (internally \
                `scope.unbound` and `scope.value`)",
            result: "Python's function scope (`grammar/src/function_scope.rs`): `y` is declared before the loop \
                or `if`, its dtype and rank those of its assigned values there (dtypes promoted as NumPy's; \
                values of different ranks are E0207), and after it holds the value assigned last. A read of `y` \
                where the loop or branch assigned it nothing (a loop of no iteration, a branch not taken) is a \
                run-time error naming the read's line (Python's UnboundLocalError)",
            builtins: &[B::ScopeUnbound, B::ScopeValue],
        },
        DocRow {
            calls: "`np.vectorize(lambda t: a if c else b)(x)` with a number literal in one branch (internally \
                `vectorize.branches`)",
            result: "NumPy's `vectorize` takes the dtype from the first element's result, so the branches' dtypes \
                as NumPy's scalars (a literal `1` is `int64`, `1.0` `float64`) must agree (`t * t if t > 0 else 0.0` \
                of a `float64` `t`); where they differ the dtype would depend on the data: E0215, whose help gives \
                `otypes=`",
            builtins: &[B::VectorizeBranches],
        },
    ]
};

/// The value of a bool keyword argument (`keepdims=true`; Python's `True` is the same token).
pub fn bool_literal(e: &Expr) -> Option<bool> {
    match &e.kind {
        ExprKind::Bool(b) => Some(*b),
        _ => None,
    }
}

/// Whether the shapes of `a` and `b` differ (`array_equal`'s `false`): `Some(true)` where their
/// ranks or two constant sizes differ, `Some(false)` where every size is the same (a scalar has
/// shape `()`), `None` where that is known only at run time.
pub fn shapes_differ(a: &crate::types::Ty, b: &crate::types::Ty) -> Option<bool> {
    use crate::types::Ty;
    let shape = |t: &Ty| match t {
        Ty::Array(_, s) => s.clone(),
        _ => vec![],
    };
    let (sa, sb) = (shape(a), shape(b));
    if sa.len() != sb.len() {
        return Some(true);
    }
    let mut known = true;
    for (x, y) in sa.iter().zip(&sb) {
        match (x.as_const(), y.as_const()) {
            (Some(p), Some(q)) if p != q => return Some(true),
            _ if x == y => {}
            _ => known = false,
        }
    }
    known.then_some(false)
}

/// The table of builtin functions of `docs/language.md` (under "## Builtin functions"), as
/// markdown: a header and one line per row of [`DOCS`].
pub fn docs_table() -> String {
    let mut s = String::from("| call | result |\n|---|---|\n");
    for r in DOCS {
        s += &format!("| {} | {} |\n", r.calls, r.result);
    }
    s
}

/// Which of NumPy's optional results `unique(x, return_index=, return_inverse=, return_counts=)`
/// asks for, in NumPy's order (index, inverse, counts), from its keyword arguments (`kwarg`, the
/// value of a keyword; each a bool literal, checked with the keywords): the checker's tuple type
/// and the lowering's results follow this one reading.
pub fn unique_parts<'a>(kwarg: impl Fn(&str) -> Option<&'a Expr>) -> [bool; 3] {
    ["return_index", "return_inverse", "return_counts"].map(|k| kwarg(k).and_then(bool_literal).unwrap_or(false))
}

/// How `atleast_1d`, `atleast_2d`, `atleast_3d` (`b`) take an array of rank `rank`, and how
/// `vstack`, `dstack` and `column_stack` take it before joining (NumPy's `atleast_2d`,
/// `atleast_3d` and column rule): its axes, `true` for each of its own axes in order and `false`
/// for a new axis of size 1 (NumPy's shapes: `(n,)` is `(1, n)` in 2-d and `(1, n, 1)` in 3-d,
/// `(m, n)` is `(m, n, 1)`); `None` where it is taken as it is (also for every other builtin).
/// The checker (`check/shape_ops.rs`, `check/numpy_shapes.rs`) and the lowering read this one
/// rule, and [`with_unit_axes`] its shape.
pub fn join_unit_axes(b: Builtin, rank: usize) -> Option<&'static [bool]> {
    match (b, rank) {
        (Builtin::AtLeast1d, 0) => Some(&[false]),
        (Builtin::AtLeast2d, 0) => Some(&[false, false]),
        (Builtin::AtLeast3d, 0) => Some(&[false, false, false]),
        (Builtin::Vstack | Builtin::AtLeast2d, 1) => Some(&[false, true]),
        (Builtin::Dstack | Builtin::AtLeast3d, 1) => Some(&[false, true, false]),
        (Builtin::Dstack | Builtin::AtLeast3d, 2) => Some(&[true, true, false]),
        (Builtin::ColumnStack, 1) => Some(&[true, false]),
        _ => None,
    }
}

/// How the join `b` (`concatenate`, `stack`, `vstack`, `hstack`, `column_stack`, `dstack`) of one
/// array joins its items, NumPy iterating the array along its axis 0 (`np.vstack(rows)` of a list
/// grown by appends, `np.concatenate(x)` of a 3-d `x`): the unit axes each item of rank `r` gets
/// ([`join_unit_axes`]'s form, `None` for none: `vstack` of scalars makes each `(1, 1)`, NumPy's
/// `atleast_2d`), the join axis `axis` (given, else the builtin's) along the items so made, and
/// whether it is a new axis (`stack`). `None` where NumPy refuses: `concatenate` of scalars
/// (its ValueError "zero-dimensional arrays cannot be concatenated").
pub fn join_of_items(b: Builtin, r: usize, axis: Option<i64>) -> Option<(Option<&'static [bool]>, i64, bool)> {
    let units = match (b, r) {
        (Builtin::Concatenate, 0) => return None,
        (Builtin::Stack | Builtin::Concatenate, _) => None,
        (Builtin::Hstack, 0) => Some(&[false][..]),
        (Builtin::Vstack | Builtin::ColumnStack, 0) => Some(&[false, false][..]),
        (Builtin::Dstack, 0) => Some(&[false, false, false][..]),
        _ => join_unit_axes(b, r),
    };
    let rank = units.map_or(r, <[bool]>::len);
    let k = match b {
        Builtin::Hstack => i64::from(rank > 1),
        Builtin::Vstack | Builtin::ColumnStack | Builtin::Dstack => join_axis(b) as i64,
        _ => axis.unwrap_or(0),
    };
    Some((units, k, b == Builtin::Stack))
}

/// `shape` with the axes of [`join_unit_axes`] (`axes`): its own sizes in order where `true`, a
/// size 1 where `false`.
pub fn with_unit_axes(axes: &[bool], shape: &[crate::types::Size]) -> Vec<crate::types::Size> {
    let mut own = shape.iter();
    axes.iter()
        .map(
            |&a| if a { own.next().cloned().unwrap_or(crate::types::Size::lit(1)) } else { crate::types::Size::lit(1) },
        )
        .collect()
}

/// The split points of `split(x, [p0, p1, ..])` / `array_split(x, (p0, ..))` (a list or tuple of
/// integer literals, negative counting from the end, as slice bounds): `Some(points)`; `None` when
/// the argument is not one (a section count, or anything else). Section `i` is `x[p(i-1):p(i)]`
/// along the axis, the first from the start and the last to the end (NumPy's `array_split`).
pub fn split_points(e: &crate::ast::Expr) -> Option<Vec<i64>> {
    match &e.kind {
        crate::ast::ExprKind::List(items) | crate::ast::ExprKind::Tuple(items) => {
            items.iter().map(crate::check::literal_int).collect()
        }
        _ => None,
    }
}

/// The axis that `split`-family builtin `b` cuts an array of rank `rank` along when no `axis=`
/// is given: 0, except NumPy's `hsplit` of an array of 2 or more dimensions, axis 1.
pub fn split_default_axis(b: Builtin, rank: usize) -> i64 {
    i64::from(b == Builtin::Hsplit && rank >= 2)
}

/// Whether `split`-family builtin `b` needs equal sections (NumPy's `split`, `vsplit`, `hsplit`;
/// not `array_split`).
pub fn splits_equally(b: Builtin) -> bool {
    matches!(b, Builtin::Split | Builtin::Vsplit | Builtin::Hsplit)
}

/// NumPy's `array_split` section bounds of an axis of size `n` cut into `k >= 1` sections: section
/// `i` is `[i * (n / k) + min(i, n % k), ...)`, so the first `n % k` sections hold one element more.
/// (`split` is the same cut when `n % k == 0`.) The lowering computes the same bound at run time
/// for sizes the checker does not know (`passes/src/lower_ast/shape_ops.rs`, `split`).
pub fn array_split_start(n: i64, k: i64, i: i64) -> i64 {
    i * (n / k) + i.min(n % k)
}

/// The axis along which `vstack` (0), `dstack` (2) and `column_stack` (1) join their arrays, as
/// [`join_unit_axes`] takes them.
pub fn join_axis(b: Builtin) -> usize {
    match b {
        Builtin::Dstack => 2,
        Builtin::ColumnStack => 1,
        _ => 0,
    }
}

/// The component count (2 or 3) of the vectors along the last axis of an array of `shape`, as
/// `cross` takes them; `None` for another or an unknown size.
pub fn cross_components(shape: &[crate::types::Size]) -> Option<usize> {
    match shape.last()?.as_const()? {
        2 => Some(2),
        3 => Some(3),
        _ => None,
    }
}

/// The `(before, after)` width expressions of each of the `r` axes that `pad`'s argument `w`
/// gives, NumPy's forms: an integer `w` (both widths of every axis), a pair `(before, after)` (of
/// every axis) or `r` pairs, one per axis; `None` for another form. The checker
/// (`check/shape_ops.rs`) and the lowering read the widths through this one function.
pub fn pad_width_pairs(w: &Expr, r: usize) -> Option<Vec<(&Expr, &Expr)>> {
    fn pair(e: &Expr) -> Option<(&Expr, &Expr)> {
        match &e.kind {
            ExprKind::Tuple(ab) if ab.len() == 2 && !ab.iter().any(|x| matches!(x.kind, ExprKind::Tuple(_))) => {
                Some((&ab[0], &ab[1]))
            }
            _ => None,
        }
    }
    match &w.kind {
        ExprKind::Tuple(items) if items.len() == r && items.iter().all(|i| pair(i).is_some()) => {
            items.iter().map(pair).collect()
        }
        ExprKind::Tuple(_) => pair(w).map(|p| vec![p; r]),
        _ => Some(vec![(w, w); r]),
    }
}

/// The size expressions of a `reshape`'s arguments after `x` (the checker's and the lowering's one
/// reading of them): the items of one tuple, or the
/// arguments themselves (one integer, or the method's `x.reshape(a, b)`); `None` for a tuple
/// among several arguments.
pub fn reshape_dims(args: &[Expr]) -> Option<Vec<&Expr>> {
    match args {
        [Expr { kind: ExprKind::Tuple(items), .. }] => Some(items.iter().collect()),
        _ if args.iter().any(|a| matches!(a.kind, ExprKind::Tuple(_))) => None,
        _ => Some(args.iter().collect()),
    }
}

/// `choose`'s `mode=` (NumPy's `'raise'`, `'clip'`, `'wrap'`, written as names).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChooseMode {
    /// An entry outside `[0, n)` is an error (the default).
    Raise,
    /// Entries clipped into `[0, n - 1]`.
    Clip,
    /// Entries taken modulo `n`.
    Wrap,
}

/// `choose`'s `mode=` ([`ChooseMode`]), [`ChooseMode::Raise`] when not given; `None` for any other
/// value.
pub fn choose_mode(e: Option<&Expr>) -> Option<ChooseMode> {
    let Some(e) = e else { return Some(ChooseMode::Raise) };
    match &e.kind {
        ExprKind::Var(id) => match id.name.as_str() {
            "raise" => Some(ChooseMode::Raise),
            "clip" => Some(ChooseMode::Clip),
            "wrap" => Some(ChooseMode::Wrap),
            _ => None,
        },
        _ => None,
    }
}

/// `convolve`'s `mode=` (NumPy's `'full'`, `'same'`, `'valid'`, written as names).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConvolveMode {
    /// Every partial overlap: `n + m - 1` elements (the default).
    Full,
    /// `max(n, m)` elements, centred on `full`'s.
    Same,
    /// Only the complete overlaps: `max(n, m) - min(n, m) + 1` elements.
    Valid,
}

/// `side=left` or `side=right` of `searchsorted` (NumPy's strings, written as names): whether it is
/// `right`; `None` for anything else.
pub fn searchsorted_right(e: &Expr) -> Option<bool> {
    match &e.kind {
        ExprKind::Var(id) => match id.name.as_str() {
            "left" => Some(false),
            "right" => Some(true),
            _ => None,
        },
        _ => None,
    }
}

/// The mode that `mode=`'s value `e` names (`full`, `same`, `valid`), else `None`; the checker and
/// the lowering read it through this one function.
pub fn convolve_mode(e: &Expr) -> Option<ConvolveMode> {
    match &e.kind {
        ExprKind::Var(id) => match id.name.as_str() {
            "full" => Some(ConvolveMode::Full),
            "same" => Some(ConvolveMode::Same),
            "valid" => Some(ConvolveMode::Valid),
            _ => None,
        },
        _ => None,
    }
}

/// The modes of NumPy's `linalg.qr(a, mode=...)` that arrayc has ([`qr_mode`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QrMode {
    /// `q` `m x k`, `r` `k x n` (NumPy's default).
    Reduced,
    /// `q` `m x m`, `r` `m x n`.
    Complete,
    /// `r` alone, `k x n`.
    R,
}

/// The mode that `qr`'s `mode=` keyword names (`None`: absent, NumPy's `'reduced'`); `None`
/// also for a value that is not one of [`QrMode`]'s, which the checker reports. The checker and
/// the lowering both read this one rule.
pub fn qr_mode(e: Option<&Expr>) -> Option<QrMode> {
    match &e?.kind {
        ExprKind::Var(id) => match id.name.as_str() {
            "reduced" => Some(QrMode::Reduced),
            "complete" => Some(QrMode::Complete),
            "r" => Some(QrMode::R),
            _ => None,
        },
        _ => None,
    }
}

/// The axes that `moveaxis`'s `source` or `destination` names: one integer literal or a tuple of
/// them; `None` for anything else.
pub fn moveaxis_axes(e: &Expr) -> Option<Vec<i64>> {
    match &e.kind {
        ExprKind::Tuple(items) => items.iter().map(crate::check::literal_int).collect(),
        _ => crate::check::literal_int(e).map(|a| vec![a]),
    }
}

/// The permutation of `moveaxis` on a rank-`r` array, its source and destination axes in range
/// (`0..r`, distinct, as many): result axis `i` is the argument's axis `perm[i]` (NumPy's
/// algorithm: the axes not moved in order, each moved one inserted at its destination, in the
/// order of the destinations).
pub fn moveaxis_perm(r: usize, source: &[usize], destination: &[usize]) -> Vec<usize> {
    let mut perm: Vec<usize> = (0..r).filter(|a| !source.contains(a)).collect();
    let mut pairs: Vec<(usize, usize)> = destination.iter().copied().zip(source.iter().copied()).collect();
    pairs.sort_unstable();
    for (d, s) in pairs {
        perm.insert(d, s);
    }
    perm
}

/// The norm that `linalg.norm`'s `ord` names (NumPy's `ord`): of a vector (`x` 1-d, or one
/// `axis=`) the sum of `abs(x)` (`One`), the Euclidean norm (`Two`, the default), the largest and
/// smallest `abs(x)` (`Inf`, `NegInf`); of a matrix (`x` 2-d, no `axis=`), NumPy's matrix norms:
/// the largest column sum of `abs(x)` (`One`; `NegOne` the smallest), the largest row sum (`Inf`;
/// `NegInf` the smallest), the largest singular value (`Two`; `NegTwo` the smallest), the
/// Frobenius norm (`Fro`, the default) and the sum of the singular values (`Nuc`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NormOrd {
    /// `1`.
    One,
    /// `2`.
    Two,
    /// `inf`.
    Inf,
    /// `-inf`.
    NegInf,
    /// `-1` (matrices only here).
    NegOne,
    /// `-2` (matrices only here).
    NegTwo,
    /// `'fro'` (matrices only, as NumPy).
    Fro,
    /// `'nuc'` (matrices only, as NumPy).
    Nuc,
}

impl NormOrd {
    /// Whether arrayc has it as a vector norm (NumPy's `-1`, `-2` of vectors are not here, and
    /// NumPy has no vector `'fro'` or `'nuc'`).
    pub fn of_vectors(self) -> bool {
        matches!(self, NormOrd::One | NormOrd::Two | NormOrd::Inf | NormOrd::NegInf)
    }
}

/// The order that `ord`'s value `e` names (`1`, `2`, `-1`, `-2`, `inf`, `-inf`: `inf` is a float
/// literal by then, `crate::constants`; `'fro'`, `'nuc'`: names by then,
/// `crate::syntax::keyword_value`), else `None`; the checker and the lowering read it through this
/// one function.
pub fn norm_ord(e: &Expr) -> Option<NormOrd> {
    use crate::ast::UnOp::Neg;
    match &e.kind {
        ExprKind::Int(1) => Some(NormOrd::One),
        ExprKind::Int(2) => Some(NormOrd::Two),
        ExprKind::Int(-1) => Some(NormOrd::NegOne),
        ExprKind::Int(-2) => Some(NormOrd::NegTwo),
        ExprKind::Float(v) if *v == f64::INFINITY => Some(NormOrd::Inf),
        ExprKind::Var(v) if v.name == "fro" => Some(NormOrd::Fro),
        ExprKind::Var(v) if v.name == "nuc" => Some(NormOrd::Nuc),
        ExprKind::Unary(Neg, x) => match norm_ord(x)? {
            NormOrd::Inf => Some(NormOrd::NegInf),
            NormOrd::One if matches!(x.kind, ExprKind::Int(_)) => Some(NormOrd::NegOne),
            NormOrd::Two if matches!(x.kind, ExprKind::Int(_)) => Some(NormOrd::NegTwo),
            _ => None,
        },
        _ => None,
    }
}

/// The dtypes of a `percentile(x, q)` or `quantile(x, q)` (NumPy 2's `_quantile`), the one rule
/// of the checker and the lowering.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct QuantileDtypes {
    /// The dtype the quantiles (`q / 100` for `percentile`), the virtual indices and the fractions
    /// are computed in: `f32` for an `f32` array `q`, `f64` otherwise (a scalar `q` is a Python
    /// number: `f64`); `i64` for `quantile` of an integer `q` (only `0` and `1` are valid) with
    /// method `linear`, whose virtual indices are integers: no interpolation.
    pub q: DType,
    /// The result's dtype: of a method that takes elements ([`quantile_method_takes`]) and of an
    /// integer `q` of `quantile` with `linear`, `x`'s; else with a scalar `q` (weak, as a Python
    /// float), `f32` for an `f32` `x`, else `f64`; with an array `q`, `x`'s dtype and
    /// [`QuantileDtypes::q`] promoted.
    pub result: DType,
}

/// [`QuantileDtypes`] of builtin `b` (`percentile` or `quantile`) with method `method` (one of
/// [`QUANTILE_METHODS`]) for an array of dtype `x` and quantiles `q` of dtype `q` (an array when
/// `q_array`, else a scalar).
pub fn quantile_dtypes(b: Builtin, method: &str, x: DType, q: DType, q_array: bool) -> QuantileDtypes {
    let qd = if q_array && q == DType::F32 { DType::F32 } else { DType::F64 };
    if quantile_method_takes(method) {
        return QuantileDtypes { q: qd, result: x };
    }
    if !quantile_in_percent(b) && q.is_int() && method == "linear" {
        return QuantileDtypes { q: DType::I64, result: x };
    }
    let result = match (q_array, x) {
        (false, DType::F32) => DType::F32,
        (false, _) => DType::F64,
        (true, _) => x.promote(qd),
    };
    QuantileDtypes { q: qd, result }
}

/// Whether builtin `b` (`percentile`, `quantile` or their NaN-ignoring twins) takes `q` in
/// percent (`[0, 100]`) rather than as a fraction (`[0, 1]`).
pub fn quantile_in_percent(b: Builtin) -> bool {
    matches!(b, Builtin::Percentile | Builtin::NanPercentile)
}

/// NumPy's methods of `percentile` and `quantile` (`method=`), all computed.
pub const QUANTILE_METHODS: &[&str] = &[
    "inverted_cdf",
    "averaged_inverted_cdf",
    "closest_observation",
    "interpolated_inverted_cdf",
    "hazen",
    "weibull",
    "linear",
    "median_unbiased",
    "normal_unbiased",
    "lower",
    "higher",
    "midpoint",
    "nearest",
];

/// Whether NumPy's method `method` takes one element of each line (its virtual index an integer:
/// `inverted_cdf`, `closest_observation`, `lower`, `higher`, `nearest`), so that the result has
/// the array's dtype, rather than interpolating between two.
pub fn quantile_method_takes(method: &str) -> bool {
    matches!(method, "inverted_cdf" | "closest_observation" | "lower" | "higher" | "nearest")
}

/// The method that `method=`'s value `e` names, one of [`QUANTILE_METHODS`] written as a name
/// (NumPy's strings), else `None`.
pub fn quantile_method(e: &Expr) -> Option<&'static str> {
    match &e.kind {
        ExprKind::Var(id) => QUANTILE_METHODS.iter().find(|m| **m == id.name).copied(),
        _ => None,
    }
}

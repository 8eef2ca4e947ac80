//! Builtin calls: the checks and result types of the builtins of [`crate::builtin`], one function
//! per family (constructors, copies and views, elementwise math, reductions, arg-reductions and
//! scans, indexing, `dot`), after the checks every builtin shares (keyword arguments, arity).

use super::promote::{promote, weak_of, Weak};
use super::shape::shape_str;
use super::Checker;
use crate::ast::{BinOp, DType, Expr, ExprKind, Ident, Span, UnOp};
use crate::builtin::Builtin;
use crate::diag::Diagnostic;
use crate::types::{Size, Ty};

/// A builtin call being checked: the builtin, its arguments and its keyword arguments.
pub(super) struct Call<'a> {
    pub(super) b: Builtin,
    pub(super) args: &'a [Expr],
    /// The call expression.
    pub(super) e: &'a Expr,
    /// `dtype=`, when given.
    pub(super) dtype: Option<DType>,
    /// `axis=` (its value and its expression), when given as one integer.
    pub(super) axis: Option<(i64, &'a Expr)>,
    /// `axis=` given as a tuple of integers (values, and the tuple's expression), for the
    /// builtins that reduce over several axes ([`Builtin::reduces_axis_tuples`]).
    pub(super) axes: Option<(Vec<i64>, &'a Expr)>,
    /// `decimals=` (an integer literal, `round`'s), when given.
    pub(super) decimals: Option<i64>,
    /// `n=` (an integer literal, `diff`'s), when given.
    pub(super) n: Option<i64>,
    /// Whether `ord=` (`linalg.norm`'s) was given, and valid.
    pub(super) ord: bool,
    /// Whether a keyword argument was wrong; the call's type is then an error.
    pub(super) bad: bool,
    /// `keepdims=true` (a reduction's), when given.
    pub(super) keepdims: bool,
}

impl Checker {
    /// Checks a call of builtin `b` (`e`, with `args` and `kwargs`) and returns its type.
    pub fn builtin(&mut self, b: Builtin, args: &[Expr], kwargs: &[(Ident, Expr)], e: &Expr) -> Ty {
        use Builtin as B;
        let mut c = Call {
            b,
            args,
            e,
            dtype: None,
            axis: None,
            axes: None,
            decimals: None,
            n: None,
            ord: false,
            bad: false,
            keepdims: false,
        };
        self.keywords(&mut c, kwargs);
        if b == B::Round && args.len() == 2 {
            // `round(x, d)`: `decimals=` given by position.
            self.expr(&args[1]);
            match (literal_int(&args[1]), c.decimals) {
                (Some(d), None) => {
                    self.retype_literal(&args[1], Ty::Scalar(DType::I64));
                    c.decimals = Some(d);
                }
                _ => {
                    self.error(
                        "E0503",
                        "`round`'s decimals must be one integer literal",
                        args[1].span.clone(),
                        "not an integer literal",
                    );
                    c.bad = true;
                }
            }
        }
        if !self.arity(&c) {
            return Ty::Error;
        }
        let t = match b {
            B::Zeros | B::Ones | B::Empty | B::Random | B::Full | B::Arange | B::Linspace => self.constructor(&c),
            B::ZerosLike | B::OnesLike | B::EmptyLike | B::FullLike => self.like(&c),
            B::Copy | B::Transpose | B::Diagonal => self.copy_or_view(&c),
            B::Abs | B::Sqrt | B::Exp | B::Log | B::Sin | B::Cos | B::Tanh => self.math(&c),
            B::Tan
            | B::Arcsin
            | B::Arccos
            | B::Arctan
            | B::Sinh
            | B::Cosh
            | B::Arcsinh
            | B::Arccosh
            | B::Arctanh
            | B::Exp2
            | B::Expm1
            | B::Log2
            | B::Log10
            | B::Log1p
            | B::Floor
            | B::Ceil
            | B::Trunc
            | B::Rint => self.math(&c),
            B::IsNan | B::IsInf | B::IsFinite => {
                let t = self.value(&c.args[0]);
                if t.dtype().is_none() {
                    Ty::Error
                } else {
                    with_dtype(&t, DType::Bool)
                }
            }
            B::Sign | B::Square | B::Reciprocal | B::Round | B::LogicalNot => self.ufunc1(&c),
            B::Hypot | B::Fmod | B::Power | B::LogicalAnd | B::LogicalOr | B::LogicalXor => self.ufunc2(&c),
            B::Clip => self.clip(&c),
            B::Minimum | B::Maximum | B::Fmax | B::Fmin => self.selection(&c),
            B::Where if args.len() == 3 => self.selection(&c),
            B::Arctan2 | B::Copysign => self.float_binary(&c),
            B::F64 | B::F32 | B::I64 | B::I32 | B::U64 | B::U8 | B::Bool => self.cast(&c),
            B::Float | B::Int => match self.cast(&c) {
                Ty::Array(..) => {
                    let t = self.types[args[0].id.0 as usize].clone();
                    self.err(
                        Diagnostic::error(
                            "E0503",
                            format!("`{}` converts a scalar, found {t}", b.name()),
                            args[0].span.clone(),
                            "an array",
                        )
                        .with_help(format!(
                            "convert an array elementwise with `x.astype({})`",
                            if b == B::Int { "i64" } else { "f64" }
                        )),
                    );
                    Ty::Error
                }
                t => t,
            },
            B::Where => {
                for a in args {
                    self.expr(a);
                }
                self.err(
                    Diagnostic::error(
                        "E0501",
                        format!("`where` takes 1 or 3 arguments but {} were given", args.len()),
                        e.span.clone(),
                        "wrong number of arguments",
                    )
                    .with_help("`where(c, a, b)` selects, `where(c)` is `nonzero(c)`"),
                );
                Ty::Error
            }
            B::Sum | B::Prod | B::Min | B::Max | B::Mean | B::Any | B::All | B::CountNonzero | B::Var | B::Std => {
                self.reduction(&c)
            }
            B::ArgMin | B::ArgMax | B::CumSum | B::CumProd => self.arg_reduction_or_scan(&c),
            B::Take => self.take(&c),
            B::Bincount => self.bincount(&c),
            B::Compress => self.compress(&c),
            B::AddAt => self.add_at(&c),
            B::Dot => self.dot(&c),
            B::Flip
            | B::ExpandDims
            | B::Squeeze
            | B::Concatenate
            | B::Stack
            | B::Vstack
            | B::Hstack
            | B::Dstack
            | B::ColumnStack
            | B::Cross
            | B::Append
            | B::Roll
            | B::Meshgrid
            | B::Tile
            | B::Repeat
            | B::Pad => self.shape_op(&c),
            B::Len | B::Ndim | B::Size => self.shape_query(&c),
            B::Array | B::AsArray => self.array_call(&c),
            B::Reshape | B::Ravel | B::Flatten => self.reshape(&c),
            B::Normal | B::Integers => self.random_draws(&c),
            B::Convolve => self.convolve(&c, kwargs),
            B::Sort | B::Argsort => self.sort(&c),
            B::Diff
            | B::Outer
            | B::Eye
            | B::Identity
            | B::Swapaxes
            | B::Moveaxis
            | B::Trace
            | B::Tril
            | B::Triu
            | B::NanToNum => self.numpy_func(&c),
            B::NanSum | B::NanMax | B::NanMin | B::NanMean | B::Norm | B::Median => self.reduction(&c),
            B::Isclose
            | B::Allclose
            | B::Ptp
            | B::Flatnonzero
            | B::Argwhere
            | B::Unique
            | B::Searchsorted
            | B::Percentile
            | B::Quantile
            | B::Nonzero => self.numpy_func(&c),
            B::Average => self.average(&c, kwargs),
        };
        if c.bad {
            Ty::Error
        } else if c.keepdims {
            self.keep_dims(&c, t)
        } else {
            t
        }
    }

    /// NumPy's `keepdims=true`: reduction type `t` with a size-1 axis at each reduced position.
    fn keep_dims(&self, c: &Call, t: Ty) -> Ty {
        let s = match self.types.get(c.args[0].id.0 as usize) {
            Some(Ty::Array(_, s)) => s.clone(),
            _ => return t,
        };
        let (Some(d), r) = (t.dtype(), s.len() as i64) else { return t };
        let reduced: Vec<i64> = match (&c.axes, c.axis) {
            (Some((ks, _)), _) => ks.clone(),
            (None, Some((k, _))) => vec![k],
            (None, None) => (0..r).collect(),
        };
        let reduced: Vec<i64> = reduced.iter().map(|&k| if k < 0 { k + r } else { k }).collect();
        let mut kept = match t {
            Ty::Array(_, ks) => ks.into_iter(),
            _ => vec![].into_iter(),
        };
        let shape =
            (0..r).map(|k| if reduced.contains(&k) { Size::lit(1) } else { kept.next().unwrap_or(Size::lit(1)) });
        Ty::Array(d, shape.collect())
    }

    /// Checks the keyword arguments of a call against the builtin's (E0502) and records `dtype=`
    /// and `axis=` in `c`; a wrong one sets `c.bad`.
    fn keywords<'a>(&mut self, c: &mut Call<'a>, kwargs: &'a [(Ident, Expr)]) {
        let row = c.b.row();
        for (k, v) in kwargs {
            let keepdims = k.name == "keepdims" && c.b.takes_keepdims();
            if !keepdims && !row.keywords.contains(&k.name.as_str()) {
                self.err(
                    Diagnostic::error(
                        "E0502",
                        format!("`{}` has no keyword argument `{}`", row.name, k.name),
                        k.span.clone(),
                        "unknown keyword argument",
                    )
                    .with_note(format!("usage: {}", row.usage)),
                );
                self.expr(v);
                c.bad = true;
                continue;
            }
            match k.name.as_str() {
                "keepdims" => match crate::builtin::bool_literal(v) {
                    Some(keep) => {
                        self.set_ty(v.id, Ty::Scalar(DType::Bool));
                        c.keepdims = keep;
                    }
                    None => {
                        self.expr(v);
                        self.error(
                            "E0503",
                            "`keepdims=` must be `true` or `false`",
                            v.span.clone(),
                            "not a bool literal",
                        );
                        c.bad = true;
                    }
                },
                "dtype" => match &v.kind {
                    ExprKind::DTypeName(d) => {
                        self.set_ty(v.id, Ty::Unit);
                        c.dtype = Some(*d);
                    }
                    _ => {
                        self.expr(v);
                        self.error(
                            "E0503",
                            "`dtype=` needs a type name (`f64`, `f32`, `i64`, `i32`, `u64`, `u8`, `bool`)",
                            v.span.clone(),
                            "not a type name",
                        );
                        c.bad = true;
                    }
                },
                "axis" if matches!(v.kind, ExprKind::Tuple(_)) => {
                    let ExprKind::Tuple(items) = &v.kind else { unreachable!("matched a tuple") };
                    for it in items {
                        self.expr(it);
                    }
                    self.set_ty(v.id, Ty::Unit);
                    let values: Option<Vec<i64>> = items.iter().map(literal_int).collect();
                    match values {
                        Some(ks) if c.b.reduces_axis_tuples() => {
                            for it in items {
                                self.retype_literal(it, Ty::Scalar(DType::I64));
                            }
                            c.axes = Some((ks, v));
                        }
                        _ => {
                            let what = if c.b.reduces_axis_tuples() {
                                "a tuple of integer literals"
                            } else {
                                "one integer literal"
                            };
                            self.error(
                                "E0503",
                                format!("`axis=` of `{}` must be {what}", row.name),
                                v.span.clone(),
                                "not allowed here",
                            );
                            c.bad = true;
                        }
                    }
                }
                "axis" | "decimals" | "n" => {
                    self.expr(v);
                    match literal_int(v) {
                        Some(a) => {
                            self.retype_literal(v, Ty::Scalar(DType::I64));
                            match k.name.as_str() {
                                "axis" => c.axis = Some((a, v)),
                                "n" => c.n = Some(a),
                                _ => c.decimals = Some(a),
                            }
                        }
                        None => {
                            self.error(
                                "E0503",
                                format!("`{}=` must be an integer literal", k.name),
                                v.span.clone(),
                                "not an integer literal",
                            );
                            c.bad = true;
                        }
                    }
                }
                "constant_values" => {
                    let t = self.value(v);
                    if !matches!(t, Ty::Scalar(_) | Ty::Error) {
                        self.error(
                            "E0503",
                            format!("`constant_values=` must be a scalar, found {t}"),
                            v.span.clone(),
                            "not a scalar",
                        );
                        c.bad = true;
                    }
                }
                "ord" => {
                    self.expr(v);
                    if crate::builtin::norm_ord(v).is_some() {
                        c.ord = true;
                    } else {
                        self.err(
                            Diagnostic::error(
                                "E0503",
                                "`ord=` of `linalg.norm` must be `1`, `2`, `inf` or `-inf` (vector norms)",
                                v.span.clone(),
                                "not supported",
                            )
                            .with_note("NumPy's other orders (`0`, `-1`, `'fro'`, `'nuc'`, ...) are not supported"),
                        );
                        c.bad = true;
                    }
                }
                "side" => {
                    if crate::builtin::searchsorted_right(v).is_some() {
                        self.set_ty(v.id, Ty::Unit);
                    } else {
                        self.error(
                            "E0503",
                            "`side=` must be `left` or `right` (NumPy's strings, written as names)",
                            v.span.clone(),
                            "not a side",
                        );
                        c.bad = true;
                    }
                }
                "method" => match crate::builtin::quantile_method(v) {
                    Some("linear") => self.set_ty(v.id, Ty::Unit),
                    other => {
                        let what = match other {
                            Some(m) => format!("`method={m}` of `{}` is not supported", row.name),
                            None => format!("`method=` of `{}` is not one of NumPy's methods", row.name),
                        };
                        let help = "leave `method=` out, or write `method=linear` (NumPy's strings, written as names)";
                        self.err(
                            Diagnostic::error("E0503", what, v.span.clone(), "not supported")
                                .with_note("arrayc computes NumPy's default method, `linear`, only")
                                .with_help(help),
                        );
                        c.bad = true;
                    }
                },
                "mode" => {
                    if crate::builtin::convolve_mode(v).is_some() {
                        self.set_ty(v.id, Ty::Unit);
                    } else {
                        self.error(
                            "E0503",
                            "`mode=` must be `full`, `same` or `valid` (NumPy's strings, written as names)",
                            v.span.clone(),
                            "not a mode",
                        );
                        c.bad = true;
                    }
                }
                "loc" | "scale" | "rtol" | "atol" | "nan" | "posinf" | "neginf" => {
                    let t = self.value(v);
                    if !matches!(t, Ty::Scalar(d) if d.is_int() || d.is_float()) && t != Ty::Error {
                        self.error(
                            "E0503",
                            format!("`{}=` must be a numeric scalar, found {t}", k.name),
                            v.span.clone(),
                            "not a numeric scalar",
                        );
                        c.bad = true;
                    }
                }
                "endpoint" | "equal_nan" => {
                    if matches!(v.kind, ExprKind::Bool(_)) {
                        self.set_ty(v.id, Ty::Scalar(DType::Bool));
                    } else {
                        self.expr(v);
                        self.error(
                            "E0503",
                            format!("`{}=` must be `true` or `false`", k.name),
                            v.span.clone(),
                            "not a bool literal",
                        );
                        c.bad = true;
                    }
                }
                // `average`'s, checked with it.
                "weights" => {}
                _ => {
                    // seed, minlength
                    if self.int_operand(v, &format!("`{}`", k.name)).is_err() {
                        c.bad = true;
                    }
                }
            }
        }
    }

    /// Whether the call has as many positional arguments as the builtin takes; if not, reports
    /// E0501 and checks the arguments.
    fn arity(&mut self, c: &Call) -> bool {
        let row = c.b.row();
        let (lo, hi) = row.arity;
        let n = c.args.len();
        if (lo..=hi).contains(&n) {
            return true;
        }
        let want = if lo == hi {
            format!("{lo}")
        } else if hi == usize::MAX {
            format!("at least {lo}")
        } else {
            format!("{lo} to {hi}")
        };
        self.err(
            Diagnostic::error(
                "E0501",
                format!("`{}` takes {want} argument{} but {n} were given", row.name, if hi == 1 { "" } else { "s" }),
                c.e.span.clone(),
                "wrong number of arguments",
            )
            .with_note(format!("usage: {}", row.usage)),
        );
        for a in c.args {
            self.expr(a);
        }
        false
    }

    /// Constructors: `zeros`, `ones`, `empty`, `random`, `full`, `arange`, `linspace`.
    fn constructor(&mut self, c: &Call) -> Ty {
        match c.b {
            Builtin::Full => self.full(c),
            Builtin::Arange => self.arange(c),
            Builtin::Linspace => self.linspace(c),
            _ => match self.dims(c.args) {
                Some(s) if !c.bad => {
                    Ty::Array(if c.b == Builtin::Random { DType::F64 } else { c.dtype.unwrap_or(DType::F64) }, s)
                }
                _ => Ty::Error,
            },
        }
    }

    /// `zeros_like(x)`, `ones_like(x)`, `empty_like(x)`, `full_like(x, value)`: a new array of the
    /// array `x`'s shape, of its dtype or `dtype=`; `value` a scalar.
    fn like(&mut self, c: &Call) -> Ty {
        let t = self.value(&c.args[0]);
        let vt = c.args.get(1).map(|v| self.value(v));
        let Ty::Array(d, shape) = t else {
            if t != Ty::Error {
                let what = format!("`{}` needs an array, found {t}", c.b.name());
                self.error("E0503", what, c.args[0].span.clone(), "not an array");
            }
            return Ty::Error;
        };
        match vt {
            None | Some(Ty::Scalar(_)) if !c.bad => Ty::Array(c.dtype.unwrap_or(d), shape),
            None | Some(Ty::Scalar(_) | Ty::Error) => Ty::Error,
            Some(t) => {
                let what = format!("`full_like` needs a scalar fill value, found {t}");
                self.error("E0503", what, c.args[1].span.clone(), "not a scalar");
                Ty::Error
            }
        }
    }

    /// `full(d0, ..., value)`: the sizes, then a scalar fill value.
    fn full(&mut self, c: &Call) -> Ty {
        let (dims, value) = c.args.split_at(c.args.len() - 1);
        let shape = self.dims(dims);
        let vt = self.value(&value[0]);
        let vd = match vt {
            Ty::Scalar(d) => Some(d),
            Ty::Error => None,
            other => {
                self.error(
                    "E0503",
                    format!("`full` needs a scalar fill value, found {other}"),
                    value[0].span.clone(),
                    "not a scalar",
                );
                None
            }
        };
        match (shape, vd) {
            (Some(s), Some(d)) if !c.bad => Ty::Array(c.dtype.unwrap_or(d), s),
            _ => Ty::Error,
        }
    }

    /// `arange(stop)`, `arange(start, stop)`, `arange(start, stop, step)`: `i64` when every
    /// argument is an integer (NumPy gives `int64` for `int32` arguments too), else `f64`.
    fn arange(&mut self, c: &Call) -> Ty {
        let mut all_int = true;
        let mut ok = true;
        for a in c.args {
            match self.value(a) {
                // NumPy's `arange` of a uint64 is float64.
                Ty::Scalar(DType::U64) => {
                    self.refuse_u64("E0503", a, "an argument of `arange`");
                    ok = false;
                }
                Ty::Scalar(d) if d.is_int() => {}
                Ty::Scalar(DType::F64 | DType::F32) => all_int = false,
                Ty::Error => ok = false,
                other => {
                    self.error(
                        "E0503",
                        format!("`arange` needs numeric scalars, found {other}"),
                        a.span.clone(),
                        "not a numeric scalar",
                    );
                    ok = false;
                }
            }
        }
        if c.dtype == Some(DType::Bool) {
            let span = c.e.span.clone();
            self.error("E0503", "`arange` with `dtype=bool` (NumPy's works for lengths up to 2)", span, "bool");
            return Ty::Error;
        }
        if !ok {
            return Ty::Error;
        }
        if all_int {
            let len = self.arange_len(c.args);
            Ty::Array(c.dtype.unwrap_or(DType::I64), vec![len])
        } else {
            let f = self.fresh();
            Ty::Array(c.dtype.unwrap_or(DType::F64), vec![f])
        }
    }

    /// `linspace(start, stop, num)`: `f64[num]`.
    fn linspace(&mut self, c: &Call) -> Ty {
        let mut ok = true;
        for a in &c.args[..2] {
            match self.value(a) {
                Ty::Scalar(d) if d.is_int() || d.is_float() => {}
                Ty::Error => ok = false,
                other => {
                    self.error(
                        "E0503",
                        format!("`linspace` needs numeric scalar bounds, found {other}"),
                        a.span.clone(),
                        "not a numeric scalar",
                    );
                    ok = false;
                }
            }
        }
        let n = match self.int_operand(&c.args[2], "`num`") {
            Ok(v) => v.unwrap_or_else(|| self.fresh()),
            Err(()) => return Ty::Error,
        };
        if !ok {
            return Ty::Error;
        }
        Ty::Array(DType::F64, vec![n])
    }

    /// Copies and views: `copy(x)`, `transpose(x)` (`x.T`), `diagonal(x)`.
    fn copy_or_view(&mut self, c: &Call) -> Ty {
        let t = self.value(&c.args[0]);
        match (c.b, t) {
            (Builtin::Copy, t) => t,
            (_, Ty::Error) => Ty::Error,
            (Builtin::Transpose, Ty::Array(d, s)) => Ty::Array(d, s.into_iter().rev().collect()),
            (Builtin::Diagonal, Ty::Array(d, s)) if s.len() == 2 => {
                let n = match (s[0].as_const(), s[1].as_const()) {
                    (Some(a), Some(b)) => Size::lit(a.min(b)),
                    _ if s[0].provably_eq(&s[1]) == Some(true) => s[0].clone(),
                    _ => self.fresh(),
                };
                Ty::Array(d, vec![n])
            }
            (b, other) => {
                let (what, label) = if b == Builtin::Diagonal {
                    ("a 2-d array", "not a 2-d array")
                } else {
                    ("an array", "not an array")
                };
                self.error(
                    "E0503",
                    format!("`{}` needs {what}, found {other}", b.name()),
                    c.args[0].span.clone(),
                    label,
                );
                Ty::Error
            }
        }
    }

    /// Elementwise math of one argument: `abs`, `sqrt`, `exp`, `log`, `sin`, `cos`, `tanh`; all
    /// but `abs` give a float.
    fn math(&mut self, c: &Call) -> Ty {
        let t = self.value(&c.args[0]);
        let Some(d) = t.dtype() else { return Ty::Error };
        let keeps = matches!(c.b, Builtin::Abs | Builtin::Floor | Builtin::Ceil | Builtin::Trunc);
        let rd = if keeps || d.is_float() { d } else { DType::F64 };
        with_dtype(&t, rd)
    }

    /// NumPy's ufuncs of one value that are compositions in the lowering: `sign` (not of a bool,
    /// as NumPy), `square` (as `x * x`), `reciprocal` (of a float only: NumPy's integer reciprocal
    /// is integer division), `round` (`rint`, integers kept; `decimals=` of a float, or a
    /// non-negative one of an integer), `logical_not` (a bool).
    fn ufunc1(&mut self, c: &Call) -> Ty {
        let arg = &c.args[0];
        let t = self.value(arg);
        let Some(d) = t.dtype() else { return Ty::Error };
        let refused = match c.b {
            Builtin::Sign if d == DType::Bool => {
                Some(("`sign` of a bool is not defined (NumPy raises too)", "convert first: `sign(i64(x))`"))
            }
            Builtin::Reciprocal if !d.is_float() => Some((
                "`reciprocal` of an integer or bool is NumPy's integer division `1 // x`, which arrayc refuses",
                "for a float reciprocal write `1.0 / x` (or `reciprocal(f64(x))`)",
            )),
            Builtin::Round if d == DType::Bool && c.decimals.is_some_and(|k| k != 0) => Some((
                "`round` of a bool with `decimals=` is not defined (NumPy raises too)",
                "convert first: `f64(x)`",
            )),
            Builtin::Round if d.is_int() && c.decimals.is_some_and(|k| k < 0) => Some((
                "`round` of an integer with negative `decimals=` is not supported (NumPy rounds it in f64 and \
                 casts back, wrapping near the ends of the i64 range)",
                "round in f64 and convert: `i64(round(f64(x), decimals=-2))`",
            )),
            _ => None,
        };
        if let Some((msg, help)) = refused {
            self.err(
                Diagnostic::error("E0503", format!("{msg}; found {t}"), arg.span.clone(), "not defined on this dtype")
                    .with_help(help),
            );
            return Ty::Error;
        }
        match c.b {
            Builtin::Square => self.binary(BinOp::Mul, (&t, weak_of(arg)), (&t, weak_of(arg)), &c.e.span),
            Builtin::LogicalNot => with_dtype(&t, DType::Bool),
            Builtin::Round if !d.is_float() && d != DType::Bool => t,
            Builtin::Round => with_dtype(&t, if d.is_float() { d } else { DType::F64 }),
            _ => t,
        }
    }

    /// NumPy's ufuncs of two values that are compositions in the lowering, broadcast: `power`
    /// (`**`) and `fmod` (promoted as `%`), `hypot` (a float), `logical_and`, `logical_or`,
    /// `logical_xor` (a bool, of any dtypes).
    fn ufunc2(&mut self, c: &Call) -> Ty {
        let (a, b) = (&c.args[0], &c.args[1]);
        let op = match c.b {
            Builtin::Power => BinOp::Pow,
            Builtin::Fmod => BinOp::Rem,
            Builtin::Hypot => return self.float_binary(c),
            _ => {
                let ta = self.value(a);
                let tb = self.value(b);
                if ta.dtype().is_none() || tb.dtype().is_none() {
                    return Ty::Error;
                }
                return self.broadcast_all(&[&ta, &tb], DType::Bool, c.e);
            }
        };
        let ta = self.value(a);
        let tb = self.value(b);
        if let (Some(da), Some(db)) = (ta.dtype(), tb.dtype()) {
            self.check_int_literals(&[a, b], promote(da, weak_of(a), db, weak_of(b)));
        }
        self.binary(op, (&ta, weak_of(a)), (&tb, weak_of(b)), &c.e.span)
    }

    /// `clip(x, lo, hi)`: NumPy's `minimum(maximum(x, lo), hi)`, the three broadcast and promoted
    /// together.
    fn clip(&mut self, c: &Call) -> Ty {
        let ts: Vec<Ty> = c.args.iter().map(|a| self.value(a)).collect();
        let (Some(dx), Some(dl), Some(dh)) = (ts[0].dtype(), ts[1].dtype(), ts[2].dtype()) else {
            return Ty::Error;
        };
        let [wx, wl, wh] = [0, 1, 2].map(|k| weak_of(&c.args[k]));
        let d1 = promote(dx, wx, dl, wl);
        // Two literals promote to a literal of their kind: a float if either is.
        let w1 = match (wx, wl) {
            (Some(_), Some(_)) => Some(if d1.is_float() { Weak::Float } else { Weak::Int }),
            _ => None,
        };
        let d = promote(d1, w1, dh, wh);
        self.check_int_literals(&[&c.args[0], &c.args[1], &c.args[2]], d);
        self.broadcast_all(&[&ts[0], &ts[1], &ts[2]], d, c.e)
    }

    /// Elementwise float functions of two values, broadcast and promoted, then computed in a float
    /// (`f64` for integers and bools): `arctan2(y, x)`, `copysign(x, y)`.
    fn float_binary(&mut self, c: &Call) -> Ty {
        let ta = self.value(&c.args[0]);
        let tb = self.value(&c.args[1]);
        let (Some(da), Some(db)) = (ta.dtype(), tb.dtype()) else { return Ty::Error };
        let d = promote(da, weak_of(&c.args[0]), db, weak_of(&c.args[1]));
        self.broadcast_all(&[&ta, &tb], if d.is_float() { d } else { DType::F64 }, c.e)
    }

    /// Elementwise selections, broadcast and promoted: `minimum(a, b)`, `maximum(a, b)`,
    /// `where(cond, a, b)`.
    fn selection(&mut self, c: &Call) -> Ty {
        if c.b != Builtin::Where {
            let ta = self.value(&c.args[0]);
            let tb = self.value(&c.args[1]);
            let (Some(da), Some(db)) = (ta.dtype(), tb.dtype()) else { return Ty::Error };
            let d = promote(da, weak_of(&c.args[0]), db, weak_of(&c.args[1]));
            self.check_int_literals(&[&c.args[0], &c.args[1]], d);
            return self.broadcast_all(&[&ta, &tb], d, c.e);
        }
        let tc = self.value(&c.args[0]);
        let ta = self.value(&c.args[1]);
        let tb = self.value(&c.args[2]);
        if let Some(dc) = tc.dtype() {
            if dc != DType::Bool {
                self.error(
                    "E0503",
                    format!("`where` needs a bool condition, found {tc}"),
                    c.args[0].span.clone(),
                    "not bool",
                );
                return Ty::Error;
            }
        }
        let (Some(_), Some(da), Some(db)) = (tc.dtype(), ta.dtype(), tb.dtype()) else {
            return Ty::Error;
        };
        let d = promote(da, weak_of(&c.args[1]), db, weak_of(&c.args[2]));
        self.check_int_literals(&[&c.args[1], &c.args[2]], d);
        self.broadcast_all(&[&tc, &ta, &tb], d, c.e)
    }

    /// Casts: `f64(x)`, `f32(x)`, `i64(x)`, `bool(x)`.
    fn cast(&mut self, c: &Call) -> Ty {
        let t = self.value(&c.args[0]);
        match c.b.conversion_dtype() {
            Some(d) if t.dtype().is_some() => with_dtype(&t, d),
            _ => Ty::Error,
        }
    }

    /// Reductions: `sum`, `prod`, `min`, `max`, `mean` (and those composed like them: `any`,
    /// `all`, `count_nonzero`, `var`, `std`, the `nan` reductions, `linalg.norm`, `median`), of every
    /// element or along `axis=`.
    pub(super) fn reduction(&mut self, c: &Call) -> Ty {
        let t = self.value(&c.args[0]);
        let Some(d) = t.dtype() else { return Ty::Error };
        if c.bad {
            return Ty::Error;
        }
        if c.ord {
            let vector = match (&t, c.axis, &c.axes) {
                (_, Some(_), _) => true,
                (Ty::Array(_, s), None, None) => s.len() == 1,
                _ => false,
            };
            if !vector {
                self.err(
                    Diagnostic::error(
                        "E0503",
                        format!("`linalg.norm` with `ord=` of {t} without one `axis=`: a matrix norm"),
                        c.e.span.clone(),
                        "not a vector norm",
                    )
                    .with_note("only vector norms take `ord=` here (a 1-d array, or `axis=k`); the default is the Frobenius norm"),
                );
                return Ty::Error;
            }
        }
        let rd = match c.b {
            Builtin::Sum | Builtin::Prod | Builtin::NanSum => d.sum_dtype(),
            Builtin::Any | Builtin::All => DType::Bool,
            Builtin::CountNonzero => DType::I64,
            Builtin::Mean
            | Builtin::Var
            | Builtin::Std
            | Builtin::NanMean
            | Builtin::Norm
            | Builtin::Median
            | Builtin::Average => {
                if d == DType::F32 {
                    DType::F32
                } else {
                    DType::F64
                }
            }
            _ => d,
        };
        let (values, ae) = match (c.axis, &c.axes) {
            (Some((a, ae)), _) => (vec![a], ae),
            (None, Some((ks, ae))) => (ks.clone(), *ae),
            (None, None) => return Ty::Scalar(rd),
        };
        let shape = match &t {
            Ty::Array(_, s) => s.clone(),
            _ => Vec::new(),
        };
        let mut axes = vec![];
        for a in values {
            let Some(k) = self.axis_in_range(a, &shape, &ae.span) else { return Ty::Error };
            if axes.contains(&k) {
                self.error("E0503", format!("duplicate value {a} in `axis=`"), ae.span.clone(), "axis given twice");
                return Ty::Error;
            }
            axes.push(k);
        }
        let s: Vec<Size> = shape.into_iter().enumerate().filter(|(k, _)| !axes.contains(k)).map(|(_, s)| s).collect();
        if s.is_empty() {
            Ty::Scalar(rd)
        } else {
            Ty::Array(rd, s)
        }
    }

    /// Arg-reductions and scans along an axis: `argmin`, `argmax` (of every element, or along
    /// `axis=`), `cumsum`, `cumprod` (along `axis=`, which a 1-d array may leave out).
    fn arg_reduction_or_scan(&mut self, c: &Call) -> Ty {
        let name = c.b.name();
        let t = self.value(&c.args[0]);
        if c.bad || t == Ty::Error {
            return Ty::Error;
        }
        let Ty::Array(d, shape) = t else {
            self.error("E0408", format!("`{name}` needs an array, found {t}"), c.args[0].span.clone(), "not an array");
            return Ty::Error;
        };
        let r = shape.len() as i64;
        let axis = match c.axis {
            None => None,
            Some((a, ae)) => match self.axis_in_range(a, &shape, &ae.span) {
                Some(k) => Some(k),
                None => return Ty::Error,
            },
        };
        let scan = matches!(c.b, Builtin::CumSum | Builtin::CumProd);
        if scan && axis.is_none() && r > 1 {
            self.err(
                Diagnostic::error(
                    "E0405",
                    format!("`{name}` of a rank-{r} array needs `axis=`"),
                    c.e.span.clone(),
                    "no axis",
                )
                .with_note(format!(
                    "NumPy's `{name}` without an axis scans the flattened array, which arrayc does not do"
                )),
            );
            return Ty::Error;
        }
        match (scan, axis) {
            // NumPy: the flat (row-major) position of the first extreme element.
            (false, None) => Ty::Scalar(DType::I64),
            (false, Some(k)) => {
                let mut s = shape;
                s.remove(k);
                if s.is_empty() {
                    Ty::Scalar(DType::I64)
                } else {
                    Ty::Array(DType::I64, s)
                }
            }
            // A scan keeps the shape; it accumulates like `sum`/`prod`: a bool or integer array
            // gives i64.
            (true, _) => Ty::Array(d.sum_dtype(), shape),
        }
    }

    /// `take(x, idx, axis=k)`: a gather along axis `k` (which a 1-d `x` may leave out).
    fn take(&mut self, c: &Call) -> Ty {
        let t = self.value(&c.args[0]);
        let ti = self.value(&c.args[1]);
        if c.bad || t == Ty::Error || ti == Ty::Error {
            return Ty::Error;
        }
        let Ty::Array(d, shape) = t else {
            self.error("E0408", format!("`take` needs an array, found {t}"), c.args[0].span.clone(), "not an array");
            return Ty::Error;
        };
        let Ty::Array(DType::I64, ishape) = ti else {
            self.err(
                Diagnostic::error(
                    "E0406",
                    format!("the indices of `take` must be an i64 array, found {ti}"),
                    c.args[1].span.clone(),
                    format!("has type {ti}"),
                )
                .with_help("index with a scalar as `x[i]`, or convert with `i64(...)`"),
            );
            return Ty::Error;
        };
        let r = shape.len() as i64;
        let (a, ae) = match c.axis {
            Some((a, ae)) => (a, &ae.span),
            None if r == 1 => (0, &c.e.span),
            None => {
                self.err(
                    Diagnostic::error(
                        "E0405",
                        format!("`take` of a rank-{r} array needs `axis=`"),
                        c.e.span.clone(),
                        "no axis",
                    )
                    .with_note(
                        "NumPy's `take` without an axis takes from the flattened array, which arrayc does not do",
                    ),
                );
                return Ty::Error;
            }
        };
        let Some(k) = self.axis_in_range(a, &shape, ae) else { return Ty::Error };
        let out = shape[..k].iter().chain(&ishape).chain(&shape[k + 1..]).cloned().collect();
        Ty::Array(d, out)
    }

    /// NumPy's `bincount(idx)`, `bincount(idx, weights)`: counts (or sums of weights) per
    /// non-negative index, as many as the largest index + 1 (at least `minlength`): a size known
    /// only at run time.
    fn bincount(&mut self, c: &Call) -> Ty {
        let ti = self.value(&c.args[0]);
        let tw = c.args.get(1).map(|w| self.value(w));
        if c.bad || ti == Ty::Error || tw.as_ref() == Some(&Ty::Error) {
            return Ty::Error;
        }
        let Ty::Array(DType::I64, ishape) = &ti else {
            self.error(
                "E0406",
                format!("the indices of `bincount` must be a 1-d i64 array, found {ti}"),
                c.args[0].span.clone(),
                format!("has type {ti}"),
            );
            return Ty::Error;
        };
        if ishape.len() != 1 {
            self.error(
                "E0409",
                format!("`bincount` counts a 1-d array, found {ti}"),
                c.args[0].span.clone(),
                "not 1-d",
            );
            return Ty::Error;
        }
        match &tw {
            None => Ty::Array(DType::I64, vec![self.fresh()]),
            Some(Ty::Array(d, ws)) if *d != DType::Bool && ws.len() == 1 => {
                if ws[0].provably_eq(&ishape[0]) == Some(false) {
                    self.error(
                        "E0401",
                        format!("{} weights for {} indices", ws[0], ishape[0]),
                        c.args[1].span.clone(),
                        "one weight per index",
                    );
                    return Ty::Error;
                }
                Ty::Array(DType::F64, vec![self.fresh()])
            }
            Some(t) => {
                self.error(
                    "E0406",
                    format!("the weights of `bincount` must be a 1-d numeric array, found {t}"),
                    c.args[1].span.clone(),
                    format!("has type {t}"),
                );
                Ty::Error
            }
        }
    }

    /// NumPy's `compress(mask, x)` of 1-d arrays: `x[mask]`, a filter.
    fn compress(&mut self, c: &Call) -> Ty {
        let tm = self.value(&c.args[0]);
        let t = self.value(&c.args[1]);
        if c.bad || tm == Ty::Error || t == Ty::Error {
            return Ty::Error;
        }
        match (&tm, &t) {
            (Ty::Array(DType::Bool, m), Ty::Array(d, s)) if m.len() == 1 && s.len() == 1 => {
                if m[0].provably_eq(&s[0]) == Some(false) {
                    self.error(
                        "E0401",
                        format!("a boolean mask of size {} cannot filter an array of size {}", m[0], s[0]),
                        c.args[0].span.clone(),
                        "mask size differs",
                    );
                    return Ty::Error;
                }
                Ty::Array(*d, vec![self.fresh()])
            }
            _ => {
                self.error(
                    "E0409",
                    format!("`compress` takes a 1-d bool mask and a 1-d array, found {tm} and {t}"),
                    c.e.span.clone(),
                    "not a 1-d mask and array",
                );
                Ty::Error
            }
        }
    }

    /// NumPy's `np.add.at(x, idx, v)` or `np.add.at(x, (i, j), v)`, a statement: adds `v` at the
    /// indices, every value (repeated indices accumulate); `v` broadcasts to `B + x.shape[c:]`,
    /// `B` the broadcast shape of the c index arrays.
    fn add_at(&mut self, c: &Call) -> Ty {
        let t = self.value(&c.args[0]);
        // One index array, or a tuple of them, one per leading axis (`(i, j)`).
        let index = match &c.args[1].kind {
            ExprKind::Tuple(items) => items.iter().collect::<Vec<_>>(),
            _ => vec![&c.args[1]],
        };
        let tis: Vec<Ty> = index.iter().map(|ix| self.value(ix)).collect();
        let tv = self.value(&c.args[2]);
        if c.bad || tis.contains(&Ty::Error) || [&t, &tv].contains(&&Ty::Error) {
            return Ty::Error;
        }
        let Ty::Array(d, shape) = t else {
            self.error("E0408", format!("`add_at` needs an array, found {t}"), c.args[0].span.clone(), "not an array");
            return Ty::Error;
        };
        let mut shapes = vec![];
        for (ix, ti) in index.iter().zip(&tis) {
            let Ty::Array(DType::I64, ishape) = ti else {
                // The index arrays before this one are checked first, in order.
                if self.broadcast_index_arrays(std::mem::take(&mut shapes)).is_some() {
                    self.error(
                        "E0406",
                        format!("the indices of `add_at` must be i64 arrays, found {ti}"),
                        ix.span.clone(),
                        format!("has type {ti}"),
                    );
                }
                return Ty::Error;
            };
            shapes.push((ix.span.clone(), ishape.as_slice()));
        }
        let Some(b) = self.broadcast_index_arrays(shapes) else { return Ty::Error };
        if index.len() > shape.len() {
            self.error(
                "E0403",
                format!("too many index arrays: {} for an array of rank {}", index.len(), shape.len()),
                c.args[1].span.clone(),
                "one per leading axis at most",
            );
            return Ty::Error;
        }
        // A tuple of index arrays is typed as their broadcast shape (the lowering's `B`).
        self.set_ty(c.args[1].id, Ty::Array(DType::I64, b.clone()));
        let target: Vec<Size> = b.iter().chain(&shape[index.len()..]).cloned().collect();
        let vs = match &tv {
            Ty::Array(_, s) => s.clone(),
            _ => vec![],
        };
        if let Err(be) = self.fits_into(&vs, &target) {
            self.error(
                "E0401",
                format!(
                    "a value of shape {} cannot be broadcast to the indexed shape {}",
                    shape_str(&vs),
                    shape_str(&target)
                ),
                c.args[2].span.clone(),
                format!("size {} vs {}", be.left, be.right),
            );
            return Ty::Error;
        }
        let Some(vd) = tv.dtype() else { return Ty::Error };
        let rd = promote(d, None, vd, weak_of(&c.args[2]));
        if !super::promote::same_kind(rd, d) {
            self.error(
                "E0304",
                format!("cannot add {} values into `add_at`'s {} array", vd.name(), d.name()),
                c.args[2].span.clone(),
                format!("has dtype {}", vd.name()),
            );
            return Ty::Error;
        }
        Ty::Unit
    }

    /// `dot(a, b)` (`a @ b`) of 1-d and 2-d arrays, NumPy's `a @ b`.
    fn dot(&mut self, c: &Call) -> Ty {
        let ta = self.value(&c.args[0]);
        let tb = self.value(&c.args[1]);
        if c.bad || ta == Ty::Error || tb == Ty::Error {
            return Ty::Error;
        }
        let (Ty::Array(da, sa), Ty::Array(db, sb)) = (&ta, &tb) else {
            let (which, t) = if ta.is_array() { (&c.args[1], &tb) } else { (&c.args[0], &ta) };
            self.err(
                Diagnostic::error(
                    "E0408",
                    format!("`dot` needs arrays, found {t}"),
                    which.span.clone(),
                    "not an array",
                )
                .with_help("multiply by a scalar with `*`"),
            );
            return Ty::Error;
        };
        if *da == DType::Bool || *db == DType::Bool {
            let which = if *da == DType::Bool { &c.args[0] } else { &c.args[1] };
            self.err(
                Diagnostic::error("E0301", "`dot` of bool arrays is not supported", which.span.clone(), "a bool array")
                    .with_help("convert with `i64(...)` or `f64(...)`"),
            );
            return Ty::Error;
        }
        let d = promote(*da, weak_of(&c.args[0]), *db, weak_of(&c.args[1]));
        let (inner_a, out): (&Size, Vec<Size>) = match (sa.len(), sb.len()) {
            (1, 1) => (&sa[0], vec![]),
            (2, 1) => (&sa[1], vec![sa[0].clone()]),
            (1, 2) => (&sa[0], vec![sb[1].clone()]),
            (2, 2) => (&sa[1], vec![sa[0].clone(), sb[1].clone()]),
            (ra, rb) => {
                self.error(
                    "E0403",
                    format!("`dot` of a {ra}-d and a {rb}-d array: only 1-d and 2-d operands are supported"),
                    c.e.span.clone(),
                    "operand ranks",
                );
                return Ty::Error;
            }
        };
        if inner_a.sub(&sb[0]).as_const().is_some_and(|v| v != 0) {
            self.err(
                Diagnostic::error(
                    "E0401",
                    format!("`dot`: shapes {} and {} are not aligned", shape_str(sa), shape_str(sb)),
                    c.e.span.clone(),
                    format!("size {inner_a} vs {}", sb[0]),
                )
                .with_note("the last dimension of `a` must equal the first of `b` (no broadcasting)"),
            );
            return Ty::Error;
        }
        if out.is_empty() {
            Ty::Scalar(d)
        } else {
            Ty::Array(d, out)
        }
    }

    /// `len(x)`, `ndim(x)`, `size(x)`, `size(x, axis=k)` (also `x.ndim`, `x.size`, `x.shape[k]`):
    /// an `i64` scalar. `len` needs an array of rank 1 or more (Python's `len` of a 0-d array is
    /// a TypeError); `ndim` and `size` of a scalar are 0 and 1, as NumPy's.
    fn shape_query(&mut self, c: &Call) -> Ty {
        let t = self.value(&c.args[0]);
        let shape: Vec<Size> = match &t {
            Ty::Array(_, s) => s.clone(),
            Ty::Scalar(_) => vec![],
            _ => return Ty::Error,
        };
        if c.b == Builtin::Len && shape.is_empty() {
            self.err(
                Diagnostic::error(
                    "E0503",
                    format!("`len` of a {t}, which has no axis"),
                    c.args[0].span.clone(),
                    "no first axis",
                )
                .with_note("Python raises TypeError: len() of unsized object")
                .with_help("`size(x)` (or `x.size`) is its number of elements, 1"),
            );
            return Ty::Error;
        }
        if let Some((a, ae)) = c.axis {
            self.axis_in_range(a, &shape, &ae.span);
        }
        Ty::Scalar(DType::I64)
    }

    /// The value of `len(x)`, `ndim(x)`, `size(x)` or `size(x, axis=k)` (`e`, checked) as an affine
    /// size, when `x`'s shape gives it (a product of symbolic sizes is not affine).
    pub fn shape_query_size(&self, b: Builtin, e: &Expr) -> Option<Size> {
        let ExprKind::Call { args, kwargs, .. } = &e.kind else { return None };
        let shape: Vec<Size> = match self.types.get(args.first()?.id.0 as usize)? {
            Ty::Array(_, s) => s.clone(),
            Ty::Scalar(_) => vec![],
            _ => return None,
        };
        let axis = kwargs.iter().find(|(k, _)| k.name == "axis").and_then(|(_, a)| literal_int(a));
        let r = shape.len() as i64;
        match (b, axis) {
            (Builtin::Ndim, _) => Some(Size::lit(r)),
            (Builtin::Len, _) => shape.first().cloned(),
            (Builtin::Size, Some(a)) => shape.get(if a < 0 { a + r } else { a } as usize).cloned(),
            (Builtin::Size, None) => shape.iter().try_fold(Size::lit(1), |p, s| p.mul(s)),
            _ => None,
        }
    }

    /// Axis `a` (negative counts from the end) of an array of shape `shape`, or E0405 at `span`
    /// (the `axis=` argument) when it is out of range.
    pub(super) fn axis_in_range(&mut self, a: i64, shape: &[Size], span: &Span) -> Option<usize> {
        let r = shape.len() as i64;
        let k = if a < 0 { a.saturating_add(r) } else { a };
        if (0..r).contains(&k) {
            return Some(k as usize);
        }
        self.err(
            Diagnostic::error(
                "E0405",
                format!("axis {a} is out of range for an array of rank {r}"),
                span.clone(),
                "bad axis",
            )
            .with_note(format!(
                "the argument has shape {}; valid axes are -{r} ..= {}",
                shape_str(shape),
                r - 1
            )),
        );
        None
    }

    /// Checks dimension arguments (`i64` scalars) and returns their sizes.
    pub(super) fn dims(&mut self, args: &[Expr]) -> Option<Vec<Size>> {
        if let [Expr { kind: ExprKind::Tuple(items), id, .. }] = args {
            // NumPy's `zeros((2, 3))`: the sizes as one tuple (the lowering takes its items).
            self.set_ty(*id, Ty::Unit);
            return self.dims(items);
        }
        let mut out = Vec::new();
        let mut ok = true;
        for a in args {
            if let ExprKind::Tuple(items) = &a.kind {
                // A tuple beside other sizes, or nested.
                for i in items {
                    self.expr(i);
                }
                self.err(
                    Diagnostic::error(
                        "E0503",
                        "array sizes are one tuple or separate integers",
                        a.span.clone(),
                        "a tuple",
                    )
                    .with_help(
                        "write the sizes as one tuple, `zeros((2, 3))`, or as separate arguments, `zeros(2, 3)`",
                    ),
                );
                ok = false;
                continue;
            }
            match self.int_operand(a, "an array size") {
                Ok(v) => {
                    if let Some(c) = v.as_ref().and_then(|v| v.as_const()) {
                        if c < 0 {
                            self.error("E0503", format!("negative array size {c}"), a.span.clone(), "negative size");
                            ok = false;
                        }
                    }
                    let s = v.unwrap_or_else(|| self.fresh());
                    out.push(s);
                }
                Err(()) => ok = false,
            }
        }
        ok.then_some(out)
    }

    fn arange_len(&mut self, args: &[Expr]) -> Size {
        let vals: Vec<Option<Size>> = args.iter().map(|a| self.affine(a)).collect();
        let (start, stop, step) = match vals.as_slice() {
            [b] => (Some(Size::lit(0)), b.clone(), Some(1)),
            [a, b] => (a.clone(), b.clone(), Some(1)),
            [a, b, c] => (a.clone(), b.clone(), c.as_ref().and_then(|c| c.as_const())),
            _ => (None, None, None),
        };
        let (Some(a), Some(b), Some(st)) = (start, stop, step) else { return self.fresh() };
        if st == 0 {
            return self.fresh();
        }
        let len = b.sub(&a);
        match len.as_const() {
            Some(l) => {
                let n = if st > 0 { (l + st - 1).div_euclid(st) } else { (l + st + 1).div_euclid(st) };
                Size::lit(n.max(0))
            }
            None if st == 1 => len,
            None => self.fresh(),
        }
    }

    /// Broadcasts several operand types to one result of dtype `d`.
    pub(super) fn broadcast_all(&mut self, ts: &[&Ty], d: DType, e: &Expr) -> Ty {
        let mut shape: Option<Vec<Size>> = None;
        for t in ts {
            if let Ty::Array(_, s) = t {
                shape = Some(match shape {
                    None => s.clone(),
                    Some(prev) => match self.broadcast(&prev, s) {
                        Ok(r) => r,
                        Err(be) => {
                            self.err(
                                Diagnostic::error(
                                    "E0401",
                                    format!(
                                        "shapes {} and {} cannot be broadcast together",
                                        shape_str(&prev),
                                        shape_str(s)
                                    ),
                                    e.span.clone(),
                                    format!("size {} vs {}", be.left, be.right),
                                )
                                .with_note(
                                    "broadcasting needs equal sizes or a size of 1 in each right-aligned dimension",
                                ),
                            );
                            return Ty::Error;
                        }
                    },
                });
            }
        }
        match shape {
            Some(s) => Ty::Array(d, s),
            None => Ty::Scalar(d),
        }
    }
}

fn with_dtype(t: &Ty, d: DType) -> Ty {
    match t {
        Ty::Scalar(_) => Ty::Scalar(d),
        Ty::Array(_, s) => Ty::Array(d, s.clone()),
        _ => Ty::Error,
    }
}

/// The value of an integer literal, optionally negated.
pub fn literal_int(e: &Expr) -> Option<i64> {
    match &e.kind {
        ExprKind::Int(v) => Some(*v),
        ExprKind::Unary(UnOp::Neg, a) => literal_int(a).map(|v| v.wrapping_neg()),
        _ => None,
    }
}

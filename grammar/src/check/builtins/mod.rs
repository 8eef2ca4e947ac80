//! Builtin calls: the checks and result types of the builtins of [`crate::builtin`], one function
//! per family (constructors, copies and views, elementwise math, reductions, arg-reductions and
//! scans, indexing, `dot`), after the checks every builtin shares (keyword arguments, arity).
//!
//! This file holds the dispatch (`Checker::builtin`), the call record [`Call`], the shape queries
//! and the helpers the families share; each family is a child module: `args` (keywords, arity),
//! `creation`, `elementwise`, `reductions` (and `dot`), `indexing` (`take`, `bincount`, ...).

mod args;
mod creation;
mod elementwise;
mod indexing;
mod reductions;
mod writes;

use super::shape::shape_str;
use super::Checker;
use crate::ast::{DType, Expr, ExprKind, Ident, Span, UnOp};
use crate::builtin::Builtin;
use crate::diag::Diagnostic;
use crate::dtype_queries;
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

impl Call<'_> {
    /// The value of keyword argument `name` of the call, when given (checked with the keywords,
    /// [`Checker::keywords`], unless its builtin checks it).
    pub(super) fn kwarg(&self, name: &str) -> Option<&Expr> {
        let ExprKind::Call { kwargs, .. } = &self.e.kind else { return None };
        kwargs.iter().find(|(k, _)| k.name == name).map(|(_, v)| v)
    }
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
            B::Zeros
            | B::Ones
            | B::Empty
            | B::Random
            | B::Full
            | B::Arange
            | B::Linspace
            | B::Logspace
            | B::Geomspace => self.constructor(&c),
            B::ZerosLike | B::OnesLike | B::EmptyLike | B::FullLike => self.like(&c),
            B::Transpose if args.len() > 1 || c.kwarg("axes").is_some() => self.numpy_shape(&c),
            B::Copy | B::Transpose | B::Diagonal => self.copy_or_view(&c),
            crate::builtin::elementwise_math!() => self.math(&c),
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
            B::Gcd | B::Lcm => self.gcd_lcm(&c),
            B::Choose => self.choose(&c),
            B::Cbrt | B::Deg2rad | B::Rad2deg | B::Radians | B::Degrees | B::Sinc | B::Fabs => self.math(&c),
            B::Positive | B::Signbit => self.ufunc1(&c),
            B::Heaviside | B::Logaddexp | B::Logaddexp2 => self.float_binary(&c),
            B::FloatPower => {
                let (ta, tb) = (self.value(&c.args[0]), self.value(&c.args[1]));
                if ta.dtype().is_none() || tb.dtype().is_none() {
                    return Ty::Error;
                }
                self.broadcast_all(&[&ta, &tb], DType::F64, c.e)
            }
            B::Modf => match self.math(&c) {
                Ty::Error => Ty::Error,
                t => Ty::Tuple(vec![t.clone(), t]),
            },
            B::Frexp => match self.math(&c) {
                Ty::Error => Ty::Error,
                t => Ty::Tuple(vec![t.clone(), with_dtype(&t, DType::I32)]),
            },
            B::Ldexp => self.ldexp(&c),
            B::I0 => self.math(&c),
            B::FillDiagonal => self.fill_diagonal(&c),
            B::Copyto | B::Putmask | B::Place | B::Put => self.write_call(&c),
            B::Divmod => match self.ufunc2(&c) {
                Ty::Error => Ty::Error,
                t => Ty::Tuple(vec![t.clone(), t]),
            },
            B::ArrayEqual | B::ArrayEquiv => self.array_equal(&c),
            B::Itemsize | B::Nbytes => match self.value(&c.args[0]).dtype() {
                Some(_) => Ty::Scalar(DType::I64),
                None => Ty::Error,
            },
            B::UfuncOuter => {
                // `a` with `b`'s axes appended (size 1), `b` read for its rank only.
                let ta = self.value(&c.args[0]);
                let tb = self.value(&c.args[1]);
                match (ta, tb) {
                    (Ty::Array(d, mut s), Ty::Array(_, sb)) => {
                        s.extend(sb.iter().map(|_| Size::lit(1)));
                        Ty::Array(d, s)
                    }
                    (ta @ (Ty::Array(..) | Ty::Scalar(_)), Ty::Array(..) | Ty::Scalar(_)) => ta,
                    _ => Ty::Error,
                }
            }
            B::Clip => self.clip(&c),
            B::Minimum | B::Maximum | B::Fmax | B::Fmin => self.selection(&c),
            B::Where if args.len() == 3 => self.selection(&c),
            B::Arctan2 | B::Copysign => self.float_binary(&c),
            B::F64 | B::F32 | B::I64 | B::I32 | B::I16 | B::I8 | B::U64 | B::U32 | B::U16 | B::U8 | B::Bool => {
                self.cast(&c)
            }
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
            B::ArgMin
            | B::ArgMax
            | B::NanArgMin
            | B::NanArgMax
            | B::CumSum
            | B::CumProd
            | B::CumulativeSum
            | B::CumulativeProd
            | B::MaximumAccumulate
            | B::MinimumAccumulate => self.arg_reduction_or_scan(&c),
            B::Take => self.take(&c),
            B::TakeAlongAxis | B::PutAlongAxis => self.along_axis(&c),
            B::RavelMultiIndex => self.ravel_multi_index(&c),
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
            | B::Split
            | B::ArraySplit
            | B::Vsplit
            | B::Hsplit
            | B::Tile
            | B::Repeat
            | B::Pad => self.shape_op(&c),
            B::Delete | B::Insert => self.insert_delete(&c),
            B::Len | B::Ndim | B::Size => self.shape_query(&c),
            B::ShapeEqual => self.shape_equal(&c),
            B::DTypeRel => self.dtype_relation(c.args),
            B::DTypeLimit => self.dtype_limit(c.args),
            B::ListBuffer | B::ScopeUnbound => self.learnt_placeholder(b, c.args),
            B::VectorizeBranches => self.vectorize_branches(c.args),
            B::ListItem | B::ScopeValue => self.learn(b, c.args),
            B::DTypeEqual => {
                for a in c.args {
                    self.dtype_operand(a);
                }
                Ty::Scalar(DType::Bool)
            }
            B::Array | B::AsArray => self.array_call(&c),
            B::Reshape | B::Ravel | B::Flatten => self.reshape(&c),
            B::Normal | B::Integers => self.random_draws(&c),
            B::Convolve => self.convolve(&c, kwargs),
            B::Solve
            | B::Inv
            | B::Det
            | B::Slogdet
            | B::MatrixPower
            | B::Cholesky
            | B::Eigvalsh
            | B::Svd
            | B::MatrixRank
            | B::Cond
            | B::Pinv
            | B::Eigh
            | B::Qr
            | B::Lstsq => self.linalg(&c),
            B::Polyfit => self.polyfit(&c),
            B::Sort | B::Argsort | B::Partition | B::Argpartition => self.sort(&c),
            B::Diff
            | B::Outer
            | B::Eye
            | B::Identity
            | B::Tri
            | B::Swapaxes
            | B::Moveaxis
            | B::Trace
            | B::Tril
            | B::Triu
            | B::NanToNum => self.numpy_func(&c),
            B::Inner
            | B::Vdot
            | B::Kron
            | B::Diag
            | B::Trapezoid
            | B::Cov
            | B::Corrcoef
            | B::UnravelIndex
            | B::Gradient => self.numpy_more(&c),
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
            | B::NanPercentile
            | B::NanQuantile
            | B::Nonzero => self.numpy_func(&c),
            B::Average => self.average(&c, kwargs),
            B::Einsum | B::Tensordot => self.einsum(&c),
            B::Fliplr
            | B::Flipud
            | B::Rot90
            | B::TriuIndices
            | B::TrilIndices
            | B::Digitize
            | B::Interp
            | B::Histogram
            | B::HistogramBinEdges
            | B::Ix
            | B::AtLeast1d
            | B::AtLeast2d
            | B::AtLeast3d => self.numpy_shape(&c),
            B::Vander => self.vander(&c),
            B::BroadcastTo => self.broadcast_to(&c),
            B::Polyval => self.polyval(&c),
            B::Isin | B::Union1d | B::Intersect1d | B::Setdiff1d | B::Setxor1d => self.set_op(&c),
        };
        if c.bad {
            Ty::Error
        } else if c.keepdims {
            self.keep_dims(&c, t)
        } else {
            t
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

    /// `x.shape == y.shape`, `x.shape == (n, m)` ([`crate::syntax::comparison`]): each operand
    /// `x.shape` of an array or a tuple of integers (E0503 otherwise: Python's tuple is never
    /// equal to a number); a `bool`, false where the ranks differ.
    fn shape_equal(&mut self, c: &Call) -> Ty {
        for a in c.args {
            if let Some(x) = crate::syntax::shape_base(a) {
                self.set_ty(a.id, Ty::Unit);
                match self.value(x) {
                    Ty::Array(..) | Ty::Error => {}
                    t => {
                        let what = format!("`x.shape` needs an array `x`, found {t}");
                        self.error("E0503", what, x.span.clone(), "not an array");
                    }
                }
            } else if let ExprKind::Tuple(items) = &a.kind {
                self.set_ty(a.id, Ty::Unit);
                for i in items {
                    match self.value(i) {
                        Ty::Scalar(d) if d.is_int() => {}
                        Ty::Error => {}
                        t => self.error(
                            "E0503",
                            format!("a size is an integer, found {t}"),
                            i.span.clone(),
                            "not an integer",
                        ),
                    }
                }
            } else {
                let t = self.expr(a);
                self.err(
                    Diagnostic::error(
                        "E0503",
                        format!("`x.shape` is a tuple, compared here with {t}"),
                        a.span.clone(),
                        "not a tuple",
                    )
                    .with_note("Python's tuple is never equal to a number")
                    .with_help("compare with a tuple, `x.shape == (n,)`, or one size, `x.shape[0] == n`"),
                );
            }
        }
        Ty::Scalar(DType::Bool)
    }

    /// An operand of `x.dtype == y` ([`crate::syntax::comparison`]): `x.dtype`, a type name or
    /// another dtype operand ([`dtype_queries::is_dtype_operand`]: `'float32'`, `float`,
    /// `np.result_type(a, b)`, `np.int8`), checked (E0503 for anything else).
    pub fn dtype_operand(&mut self, a: &Expr) {
        match &a.kind {
            ExprKind::DTypeName(_) => self.set_ty(a.id, Ty::Unit),
            ExprKind::Str(_) | ExprKind::Var(_) | ExprKind::Call { .. } if dtype_queries::is_dtype_operand(a) => {
                self.dtype_side(a)
            }
            _ => {
                let t = self.expr(a);
                self.err(
                    Diagnostic::error("E0503", format!("`x.dtype` compared with {t}"), a.span.clone(), "not a type")
                        .with_help("compare with a type name, `x.dtype == f32` (`np.float32`), or another `y.dtype`"),
                );
            }
        }
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
            .with_note(if r == 0 {
                "the argument is a scalar (rank 0): it has no axis".to_string()
            } else {
                format!("the argument has shape {}; valid axes are -{r} ..= {}", shape_str(shape), r - 1)
            }),
        );
        None
    }

    /// Checks dimension arguments (`i64` scalars) and returns their sizes.
    pub(super) fn dims(&mut self, args: &[Expr]) -> Option<Vec<Size>> {
        if let [shape @ Expr { id, .. }] = args {
            if let Some(x) = crate::syntax::shape_base(shape) {
                // NumPy's `zeros(x.shape)`: `x`'s sizes (the lowering takes its dimensions).
                self.set_ty(*id, Ty::Unit);
                return match self.value(x) {
                    Ty::Array(_, sizes) => Some(sizes),
                    Ty::Error => None,
                    t => {
                        let what = format!("`x.shape` needs an array `x`, found {t}");
                        self.error("E0503", what, x.span.clone(), "not an array");
                        None
                    }
                };
            }
        }
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

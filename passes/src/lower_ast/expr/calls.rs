//! Builtin calls: the dispatch of each checked builtin to its lowering (`builtin_call`), and the
//! families without a file of their own: creation (`zeros`, `arange`, `linspace`, ...), `dot`,
//! casts, the float tests (`isnan`, ...) and the shape queries.

use super::reductions::reduce_kind;
use super::ufuncs::elementwise_fn;
use crate::lower_ast::{LResult, Lowerer, Root};
use arrayc_core::ops::matmul_by_library;
use arrayc_dialect::ir::{
    BinFn, ComputeFn, IndexEntry, OpKind, ReduceKind, Scalar, ScatterKind, ScatterMode, Type, UnFn, ValueId,
};
use arrayc_grammar::ast::{self, DType, Expr, ExprKind};
use arrayc_grammar::builtin::{bool_literal, Builtin};
use arrayc_grammar::types::{Size, Ty};

impl Lowerer<'_> {
    /// A call of builtin `b`: its `arr` operations (the checker checked its arguments).
    pub(super) fn builtin_call(
        &mut self,
        b: Builtin,
        args: &[Expr],
        kwargs: &[(ast::Ident, Expr)],
        ty: &Ty,
        e: &Expr,
    ) -> LResult<Vec<ValueId>> {
        use Builtin as B;
        if let Some(keep) = Self::kwarg(kwargs, "keepdims").filter(|_| b.takes_keepdims()) {
            let rest: Vec<(ast::Ident, Expr)> = kwargs.iter().filter(|(k, _)| k.name != "keepdims").cloned().collect();
            if arrayc_grammar::builtin::bool_literal(keep) != Some(true) {
                return self.builtin_call(b, args, &rest, ty, e);
            }
            return Ok(vec![self.keep_dims(b, args, &rest, ty, e)?]);
        }
        if let (B::AddAt, Some(ExprKind::Tuple(items))) = (b, args.get(1).map(|a| &a.kind)) {
            // `add_at(x, (i, j), v)`: one index array per leading axis, broadcast together (as checked).
            let x = self.expr(&args[0])?;
            let mut indices = vec![];
            for item in items {
                indices.push(self.expr(item)?);
            }
            let v = self.expr(&args[2])?;
            let Ty::Array(_, b) = self.ty_of(&args[1]).clone() else { unreachable!("checked: index arrays") };
            self.scatter(x, &indices, Some(&b), v, ScatterKind::Add, ScatterMode::Raise);
            return Ok(vec![]);
        }
        if let Some(vs) = self.numpy_shape(b, args, kwargs, ty, e)? {
            return Ok(vs);
        }
        if let Some(vs) = self.shape_op(b, args, kwargs, ty)? {
            return Ok(vs);
        }
        if b == B::UfuncOuter {
            // `a` viewed with `b`'s axes appended (size 1); `b` (a copy the parser made) is not computed.
            let x = self.expr(&args[0])?;
            let (Type::Array(_, ra), Ty::Array(_, s)) = (self.f.ty(x), ty) else { return Ok(vec![x]) };
            let entries = (0..s.len()).map(|k| if k < ra { IndexEntry::Full } else { IndexEntry::NewAxis }).collect();
            return Ok(vec![self.view_with(x, entries, vec![])]);
        }
        if b == B::Nonzero {
            return self.nonzero(&args[0], ty);
        }
        if b == B::Unique && matches!(ty, Ty::Tuple(_)) {
            return self.unique_with_parts(&args[0], kwargs, ty);
        }
        if let Some(v) = self.set_op(b, args, kwargs, ty)? {
            return Ok(vec![v]);
        }
        if b == B::Average && matches!(ty, Ty::Tuple(_)) {
            return self.average_returned(args, kwargs, ty, e);
        }
        if let Some(v) = self.numpy_func(b, args, kwargs, ty, e)? {
            return Ok(vec![v]);
        }
        if b == B::UnravelIndex {
            return self.unravel_index(args, ty, e);
        }
        if b == B::ShapeEqual {
            return Ok(vec![self.shape_equal(args)?]);
        }
        if b == B::VectorizeBranches {
            // Checked only: the conditional expression itself.
            return Ok(vec![self.expr(&args[0])?]);
        }
        if matches!(b, B::ListBuffer | B::ListItem | B::ScopeUnbound | B::ScopeValue) {
            return Ok(vec![self.learnt_type(b, args, ty)?]);
        }
        if matches!(b, B::DTypeEqual | B::DTypeRel | B::DTypeLimit) {
            // Questions about dtypes: known from the checked types (`dtype_queries`).
            return Ok(vec![self.dtype_query(b, args, e)?]);
        }
        if matches!(b, B::Copyto | B::Putmask | B::Place | B::Put) {
            // Checked only: `grammar/src/writes.rs` wrote the statement's assignments after it.
            return Ok(vec![]);
        }
        if let Some(vs) = self.along_axis(b, args, kwargs, ty, e)? {
            return Ok(vs);
        }
        if let Some(v) = self.numpy_more(b, args, kwargs, ty, e)? {
            return Ok(vec![v]);
        }
        if let Some(v) = self.einsum(b, args, kwargs, ty, e)? {
            return Ok(vec![v]);
        }
        if let Some(vs) = self.linalg_results(b, args, kwargs, ty, e)? {
            return Ok(vs);
        }
        if let Some(v) = self.linalg(b, args, kwargs, ty, e)? {
            return Ok(vec![v]);
        }
        match b {
            B::Array | B::AsArray => return Ok(vec![self.array_call(&args[0], b == B::Array, ty)?]),
            B::Reshape | B::Ravel | B::Flatten => return Ok(vec![self.reshape_call(b, args, ty)?]),
            _ => {}
        }
        if b == B::Gradient {
            return self.gradients(args, kwargs, ty);
        }
        if b == B::Choose {
            return Ok(vec![self.choose(args, kwargs, ty, e)?]);
        }
        let mut vals = vec![];
        for a in args {
            vals.extend(self.flat_operands(a)?);
        }
        if let (B::Minimum | B::Maximum | B::Fmax | B::Fmin | B::Power | B::Fmod | B::Gcd | B::Lcm, Some(d)) =
            (b, ty.dtype())
        {
            // NumPy's OverflowError of a Python int beside a narrower integer (`maximum(x_u8, k)`).
            for (a, &v) in args.iter().zip(&vals) {
                self.check_python_int(a, v, d);
            }
        }
        if let (B::Clip, Some(d)) = (b, ty.dtype()) {
            // NumPy 2's `clip(x_u8, 0, k)`: a Python int bound beyond the dtype is its end.
            for (a, v) in args.iter().zip(vals.iter_mut()).skip(1) {
                *v = self.fit_python_int(a, *v, d, [true, true]);
            }
        }
        if b == B::Frexp {
            return Ok(self.frexp(vals[0], &args[0], ty, e)?.to_vec());
        }
        if b == B::I0 {
            return Ok(vec![self.i0(vals[0], &args[0], ty, e)?]);
        }
        if b == B::Ldexp {
            return Ok(vec![self.ldexp(&vals, args, ty, e)?]);
        }
        if b == B::Modf {
            let Ty::Tuple(ts) = ty else { unreachable!("checked: a pair") };
            return Ok(self.modf(vals[0], &args[0], &ts[0], e)?.to_vec());
        }
        if b == B::Divmod {
            // NumPy's `divmod`: `(a // b, a % b)`, the operations themselves.
            let Ty::Tuple(ts) = ty else { unreachable!("checked: a pair") };
            let dt = ts[0].dtype().expect("checked: a value");
            for (a, &v) in args.iter().zip(&vals) {
                self.check_python_int(a, v, dt);
            }
            let q = self.binary(super::bin_fn_in(ast::BinOp::FloorDiv, dt), vals[0], vals[1], &ts[0])?;
            let r = self.binary(BinFn::Rem, vals[0], vals[1], &ts[1])?;
            return Ok(vec![q, r]);
        }
        let v = match b {
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
            | B::Pad
            | B::Delete
            | B::Insert => unreachable!("lowered by `shape_op`"),
            B::Solve
            | B::Inv
            | B::Det
            | B::MatrixPower
            | B::Cholesky
            | B::Eigvalsh
            | B::Svd
            | B::MatrixRank
            | B::Cond
            | B::Pinv
            | B::Eigh
            | B::Slogdet
            | B::Qr
            | B::Lstsq
            | B::Polyfit => {
                unreachable!("lowered by `linalg` and `linalg_results`")
            }
            B::Diff
            | B::Outer
            | B::Eye
            | B::Tri
            | B::NanArgMin
            | B::NanArgMax
            | B::Tril
            | B::Triu
            | B::NanToNum
            | B::Identity
            | B::Swapaxes
            | B::Moveaxis
            | B::Trace
            | B::NanSum
            | B::NanMax
            | B::NanMin
            | B::NanMean
            | B::Median
            | B::Norm
            | B::Isclose
            | B::Allclose
            | B::Ptp
            | B::Average
            | B::Flatnonzero
            | B::Argwhere
            | B::Unique
            | B::Searchsorted
            | B::Percentile
            | B::ArrayEqual
            | B::ArrayEquiv
            | B::Quantile
            | B::NanPercentile
            | B::NanQuantile => unreachable!("lowered by `numpy_func`"),
            B::Divmod
            | B::Modf
            | B::Frexp
            | B::Ldexp
            | B::I0
            | B::Choose
            | B::Gradient
            | B::UfuncOuter
            | B::ShapeEqual
            | B::ListBuffer
            | B::ListItem
            | B::ScopeUnbound
            | B::ScopeValue
            | B::VectorizeBranches
            | B::DTypeEqual
            | B::DTypeRel
            | B::DTypeLimit => unreachable!("lowered above"),
            B::Inner | B::Vdot | B::Kron | B::Diag | B::Trapezoid | B::Cov | B::Corrcoef | B::UnravelIndex => {
                unreachable!("lowered by `numpy_more`")
            }
            B::Nonzero => unreachable!("lowered by `nonzero`"),
            B::TakeAlongAxis | B::PutAlongAxis | B::RavelMultiIndex | B::FillDiagonal => {
                unreachable!("lowered by `along_axis`")
            }
            B::Copyto | B::Putmask | B::Place | B::Put => unreachable!("checked only, lowered to nothing above"),
            B::Einsum | B::Tensordot => unreachable!("lowered by `einsum`"),
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
            | B::AtLeast3d => unreachable!("lowered by `numpy_shape`"),
            B::Isin | B::Union1d | B::Intersect1d | B::Setdiff1d | B::Setxor1d => unreachable!("lowered by `set_op`"),
            B::Array | B::AsArray | B::Reshape | B::Ravel | B::Flatten => unreachable!("lowered above"),
            B::Zeros | B::Ones | B::Empty | B::Full | B::Random => self.creation(b, &vals, kwargs, ty)?,
            B::ZerosLike | B::OnesLike | B::EmptyLike | B::FullLike => self.creation(b, &vals, kwargs, ty)?,
            B::Arange => self.arange(&vals, ty),
            B::BroadcastTo => self.broadcast_to_call(&vals, ty),
            B::Normal | B::Integers => self.random_draws(b, &vals, kwargs, ty)?,
            B::Convolve => self.convolve(&vals, kwargs, ty)?,
            B::Sort | B::Argsort => {
                let axis = self.axis_kwarg(kwargs, vals[0])?;
                self.sort(vals[0], axis, b == B::Argsort, ty)
            }
            B::Partition | B::Argpartition => {
                let axis = self.axis_kwarg(kwargs, vals[0])?;
                self.partition(vals[0], vals[1], axis, b == B::Argpartition, ty)
            }
            B::Linspace => {
                let endpoint = !matches!(Self::kwarg(kwargs, "endpoint").map(|e| &e.kind), Some(ExprKind::Bool(false)));
                // NumPy's dtype of the bounds with a Python float (checked: `f32` or `f64`).
                let Ty::Array(dt, shape) = ty else { unreachable!("checked: linspace is an array") };
                // `axis=k` (checked: in range): the samples computed along axis 0, then moved.
                let k = self.axes_of_rank(kwargs, shape.len())?.and_then(|a| a.first().copied()).unwrap_or(0);
                let mut samples_shape = shape.clone();
                let n = samples_shape.remove(k);
                samples_shape.insert(0, n);
                let samples_ty = Ty::Array(*dt, samples_shape);
                let samples = if shape.len() > 1 {
                    self.linspace_arrays(args, &vals, endpoint, &samples_ty, e)?
                } else {
                    self.linspace_in(&vals, endpoint, *dt)
                };
                if k == 0 {
                    samples
                } else {
                    let mut perm: Vec<usize> = (1..shape.len()).collect();
                    perm.insert(k, 0);
                    self.transpose(samples, perm)
                }
            }
            B::Logspace => {
                // `power(base, linspace(start, stop, num, endpoint))`, NumPy's definition.
                let endpoint = !matches!(Self::kwarg(kwargs, "endpoint").map(|e| &e.kind), Some(ExprKind::Bool(false)));
                let num = match vals.get(2) {
                    Some(&num) => num,
                    None => self.i64_const(50),
                };
                let exponents = self.linspace(&[vals[0], vals[1], num], endpoint);
                let base = match Self::kwarg(kwargs, "base") {
                    Some(b) => {
                        let b = self.expr(b)?;
                        self.cast_scalar(b, DType::F64)
                    }
                    None => self.constant(Scalar::F64(10.0)),
                };
                self.array_op(ComputeFn::Binary(BinFn::Pow), vec![base, exponents], ty)?
            }
            B::Geomspace => {
                let endpoint = !matches!(Self::kwarg(kwargs, "endpoint").map(|e| &e.kind), Some(ExprKind::Bool(false)));
                self.geomspace(&vals, endpoint, ty)?
            }
            B::Polyval => {
                let Ty::Array(_, s) = self.ty_of(&args[0]) else { unreachable!("checked: 1-d") };
                match s[0].as_const() {
                    Some(count) => self.polyval(vals[0], vals[1], count, ty)?,
                    None => self.polyval_loop(vals[0], vals[1], ty, e)?,
                }
            }
            B::Vander => {
                let increasing = Self::kwarg(kwargs, "increasing").and_then(arrayc_grammar::builtin::bool_literal);
                self.vander(vals[0], vals.get(1).copied(), increasing == Some(true), ty)
            }
            B::Copy => self.fresh_copy(vals[0]),
            B::Transpose => {
                let src = vals[0];
                let Type::Array(_, rank) = self.f.ty(src) else { unreachable!("checked: an array") };
                self.transpose(src, (0..rank).rev().collect())
            }
            B::Diagonal => self.diagonal(vals[0]),
            arrayc_grammar::builtin::elementwise_math!()
            | B::Minimum
            | B::Maximum
            | B::Where
            | B::Arctan2
            | B::Copysign => {
                let Some(f) = elementwise_fn(b) else { return Err(self.not_lowered(b, e)) };
                self.elementwise(f, vals, ty, e)?
            }
            B::IsNan | B::IsInf | B::IsFinite => self.float_test(b, vals[0], &args[0], ty, e)?,
            B::F64
            | B::F32
            | B::I64
            | B::I32
            | B::I16
            | B::I8
            | B::U64
            | B::U32
            | B::U16
            | B::U8
            | B::Bool
            | B::Float
            | B::Int => {
                let Some(d) = b.conversion_dtype() else { return Err(self.not_lowered(b, e)) };
                match self.f.ty(vals[0]) {
                    _ if ty.is_array() => self.array_op(ComputeFn::Copy, vals, ty)?,
                    // `bool(s)` of a number: `s != 0` (Python's truth, NaN true).
                    Type::Scalar(src)
                        if d == DType::Bool && src != DType::Bool && !self.consts.contains_key(&vals[0]) =>
                    {
                        let zero = self.constant(Scalar::I64(0).cast(src));
                        self.scalar_binary(BinFn::Ne, vals[0], zero, src)
                    }
                    _ => self.cast_scalar(vals[0], d),
                }
            }
            B::Dot => self.dot(vals[0], vals[1], args, ty, e)?,
            B::Len | B::Ndim | B::Size => self.shape_query(b, vals[0], kwargs)?,
            B::Itemsize | B::Nbytes => {
                // NumPy's attributes: the element's bytes, times the element count for `nbytes`.
                let item = self.i64_const(self.f.ty(vals[0]).dtype().size_bytes() as i64);
                if b == B::Itemsize {
                    item
                } else {
                    let n = self.shape_query(B::Size, vals[0], &[])?;
                    self.scalar_binary(BinFn::Mul, n, item, DType::I64)
                }
            }
            B::Take => {
                let axis = self.axis_kwarg(kwargs, vals[0])?.unwrap_or(0);
                let (Ty::Array(dt, shape), Type::Array(_, q)) = (ty, self.f.ty(vals[1])) else {
                    unreachable!("checked: a gather through an index array")
                };
                // The indices as NumPy takes them, `i64` (checked: an integer dtype but `u64`).
                let ishape = self.ty_of(&args[1]).shape().expect("checked: an index array").to_vec();
                let idx = self.converted(vals[1], DType::I64, &ishape)?;
                self.gather(vals[0], &[idx], axis, *dt, &shape[axis..axis + q], Some(shape))
            }
            B::Compress => self.filter(vals[1], vals[0], ty.shape()),
            B::Bincount => {
                let minlength = match Self::kwarg(kwargs, "minlength") {
                    Some(m) => self.expr(m)?,
                    None => self.i64_const(0),
                };
                // The indices as NumPy counts them, `i64` (checked: an integer or bool dtype).
                let ishape = self.ty_of(&args[0]).shape().expect("checked: an index array").to_vec();
                let idx = self.converted(vals[0], DType::I64, &ishape)?;
                self.bincount(idx, vals.get(1).copied(), minlength, ty.shape())
            }
            B::AddAt => {
                self.scatter(vals[0], &vals[1..2], None, vals[2], ScatterKind::Add, ScatterMode::Raise);
                return Ok(vec![]);
            }
            B::CumSum | B::CumProd | B::MaximumAccumulate | B::MinimumAccumulate => {
                if matches!(b, B::CumSum | B::CumProd) && Self::kwarg(kwargs, "axis").is_none() {
                    // NumPy's scan without an axis: of the array flattened (1-d already: itself).
                    // A ufunc's `accumulate` goes along axis 0 instead.
                    vals[0] = self.flat(vals[0]);
                }
                let Type::Array(_, r) = self.f.ty(vals[0]) else { unreachable!("checked: an array") };
                let axis = self.axis_kwarg(kwargs, vals[0])?.unwrap_or(0);
                let kind = match b {
                    B::CumSum => ReduceKind::Sum,
                    B::CumProd => ReduceKind::Prod,
                    B::MaximumAccumulate => ReduceKind::Max,
                    _ => ReduceKind::Min,
                };
                let Ty::Array(dt, shape) = ty else { unreachable!("checked: a scan gives an array") };
                let sizes = (0..r).map(|a| self.dim(vals[0], a)).collect();
                self.compute_new(ComputeFn::Scan(kind, axis), vec![vals[0]], *dt, sizes, Some(shape))
            }
            B::CumulativeSum | B::CumulativeProd => self.cumulative(b, vals[0], kwargs, ty)?,
            B::ArgMin | B::ArgMax => {
                let axis = self.axis_kwarg(kwargs, vals[0])?;
                let kind = if b == B::ArgMin { ReduceKind::Min } else { ReduceKind::Max };
                self.arg_reduction(kind, vals[0], axis, ty, e)?
            }
            B::Sign
            | B::Square
            | B::Reciprocal
            | B::Round
            | B::LogicalNot
            | B::Hypot
            | B::Gcd
            | B::Lcm
            | B::Fmod
            | B::Power
            | B::LogicalAnd
            | B::LogicalOr
            | B::LogicalXor
            | B::Fmax
            | B::Fmin
            | B::Cbrt
            | B::Deg2rad
            | B::Rad2deg
            | B::Radians
            | B::Degrees
            | B::Sinc
            | B::Fabs
            | B::Positive
            | B::Signbit
            | B::Heaviside
            | B::Logaddexp
            | B::Logaddexp2
            | B::FloatPower
            | B::Clip => {
                let decimals = Self::kwarg(kwargs, "decimals").or(args.get(1).filter(|_| b == B::Round));
                let decimals = decimals.map(|d| self.const_int(d)).transpose()?;
                let n = if b == B::Round { 1 } else { vals.len() };
                self.composed_ufunc(b, &vals[..n], &args[..n], decimals, ty, e)?
            }
            B::Any | B::All | B::CountNonzero => {
                let axes = self.axes_kwarg(kwargs, vals[0])?;
                self.nonzero_reduction(b, vals[0], &args[0], axes.as_deref(), ty, e)?
            }
            B::Var | B::Std => {
                let axes = self.axes_kwarg(kwargs, vals[0])?;
                let ddof = match Self::kwarg(kwargs, "ddof") {
                    Some(d) => Some(self.expr(d)?),
                    None => None,
                };
                self.moment(b, vals[0], &args[0], axes.as_deref(), ddof, ty, e)?
            }
            B::Sum | B::Prod | B::Min | B::Max | B::Mean => {
                let Some(kind) = reduce_kind(b) else { return Err(self.not_lowered(b, e)) };
                let axes = self.axes_kwarg(kwargs, vals[0])?;
                let mut x = vals[0];
                let mut counted = None;
                if let (Some(_), Some(d)) = (Self::kwarg(kwargs, "dtype"), ty.dtype()) {
                    // `sum(x, dtype=d)`: `x` converted to `d` (fused), then reduced in `d`.
                    let xty = self.ty_of(&args[0]).clone();
                    x = self.as_dtype(x, &xty, d)?;
                }
                if let Some(mask) = Self::kwarg(kwargs, "where") {
                    // `sum(x, where=m)`: `sum(where(m, x, 0))`, NumPy's result; `prod` with 1,
                    // `min`/`max` with their `initial=` (checked to be given).
                    let m = self.expr(mask)?;
                    let xty = self.ty_of(&args[0]).clone();
                    let d = xty.dtype().expect("checked: an array");
                    let fill = match (b, Self::kwarg(kwargs, "initial")) {
                        (B::Min | B::Max, Some(v)) => {
                            let v = self.expr(v)?;
                            self.cast_scalar(v, d)
                        }
                        (B::Prod, _) => self.constant(Scalar::I64(1).cast(d)),
                        _ => self.constant(Scalar::I64(0).cast(d)),
                    };
                    if b == B::Mean {
                        // `mean(x, where=m)` divides by the number of elements selected.
                        let (one, zero) = (self.i64_const(1), self.i64_const(0));
                        let m = self.broadcast_to(m, x);
                        let sizes = (0..self.rank(x)).map(|a| self.dim(x, a)).collect();
                        counted = Some(self.compute_new(ComputeFn::Where, vec![m, one, zero], DType::I64, sizes, None));
                    }
                    x = self.array_op(ComputeFn::Where, vec![m, x, fill], &xty)?;
                }
                if let Some(ones) = counted {
                    return Ok(vec![self.masked_mean(x, ones, axes.as_deref(), ty, e)?]);
                }
                match Self::kwarg(kwargs, "initial") {
                    // `min(x, initial=v)`: the reduction's identity where it has no element, so no
                    // emptiness check, then `minimum` with `v` (NumPy's `initial` takes part).
                    Some(v) => {
                        let v = self.expr(v)?;
                        let v = self.cast_scalar(v, ty.dtype().expect("checked: numeric"));
                        let r = self.reduction_of(kind, x, axes.as_deref(), ty, e, false)?;
                        let r = if ty.is_array() { r } else { self.load_element(r) };
                        let f = if kind == ReduceKind::Min { BinFn::Minimum } else { BinFn::Maximum };
                        self.binary(f, r, v, ty)?
                    }
                    None => self.reduction(b == B::Mean, kind, x, axes.as_deref(), ty, e)?,
                }
            }
        };
        Ok(vec![v])
    }

    /// The error for a builtin that the lowering's tables do not map as its family requires: a
    /// bug in this file.
    pub(super) fn not_lowered(&self, b: Builtin, e: &Expr) -> Box<arrayc_grammar::Diagnostic> {
        let msg = format!("internal error: the lowering does not map the builtin `{}`; please report it", b.name());
        self.error("E0912", &e.span, &msg, "")
    }

    /// `zeros`, `ones`, `empty`, `full`, `random`: a new array of the sizes `vals` (and `full`'s
    /// value after them), filled.
    pub(super) fn creation(
        &mut self,
        b: Builtin,
        vals: &[ValueId],
        kwargs: &[(ast::Ident, Expr)],
        ty: &Ty,
    ) -> LResult<ValueId> {
        let Ty::Array(dt, shape) = ty else { unreachable!() };
        let ndims = shape.len();
        let like = matches!(b, Builtin::ZerosLike | Builtin::OnesLike | Builtin::EmptyLike | Builtin::FullLike);
        let sizes: Vec<ValueId> = match like {
            true => (0..ndims).map(|d| self.dim(vals[0], d)).collect(),
            false => vals[..ndims].iter().map(|v| self.cast_scalar(*v, DType::I64)).collect(),
        };
        let out = self.new_array(*dt, sizes);
        let fill = match b {
            Builtin::Zeros | Builtin::ZerosLike => Some(self.constant(Scalar::I64(0).cast(*dt))),
            Builtin::Ones | Builtin::OnesLike => Some(self.constant(Scalar::I64(1).cast(*dt))),
            Builtin::Full => Some(vals[ndims]),
            Builtin::FullLike => Some(self.cast_scalar(vals[1], *dt)),
            _ => None,
        };
        if let Some(f) = fill {
            self.emit(OpKind::Compute { func: ComputeFn::Fill, out, ins: vec![f] });
        }
        if b == Builtin::Random {
            let seed = match Self::kwarg(kwargs, "seed") {
                Some(s) => self.expr(s)?,
                None => self.i64_const(0),
            };
            let seed = self.cast_scalar(seed, DType::I64);
            self.emit(OpKind::Compute { func: ComputeFn::Random, out, ins: vec![seed] });
        }
        Ok(out)
    }

    /// The values of argument `a` as the checker's `dims` reads sizes: `x.shape` is `x`'s sizes
    /// (`zeros(x.shape)`), a tuple its items (`zeros((2, 3))`), any other expression itself.
    pub(crate) fn flat_operands(&mut self, a: &Expr) -> LResult<Vec<ValueId>> {
        if let Some(x) = arrayc_grammar::syntax::shape_base(a) {
            let x = self.expr(x)?;
            return Ok((0..self.rank(x)).map(|d| self.dim(x, d)).collect());
        }
        match &a.kind {
            ExprKind::Tuple(items) => items.iter().map(|i| self.expr(i)).collect(),
            _ => Ok(vec![self.expr(a)?]),
        }
    }

    /// `a.shape == b` (the builtin `shape==`, `args` as the checker's `shape_equal` reads them):
    /// false for other ranks, else every size equal (host `i64` comparisons).
    fn shape_equal(&mut self, args: &[Expr]) -> LResult<ValueId> {
        let a = self.flat_operands(&args[0])?;
        let b = self.flat_operands(&args[1])?;
        let mut all = self.constant(Scalar::Bool(a.len() == b.len()));
        if a.len() == b.len() {
            for (x, y) in a.into_iter().zip(b) {
                let (x, y) = (self.cast_scalar(x, DType::I64), self.cast_scalar(y, DType::I64));
                let eq = self.scalar_binary(BinFn::Eq, x, y, DType::I64);
                all = self.scalar_binary(BinFn::And, all, eq, DType::Bool);
            }
        }
        Ok(all)
    }

    /// `broadcast_to(x, shape)` (`vals`: `x`, then the sizes, as the checker's `dims` reads them):
    /// a new array of `x` broadcast (`arr.broadcast`, which checks the sizes at run time) and copied;
    /// a scalar `x` fills it.
    pub(super) fn broadcast_to_call(&mut self, vals: &[ValueId], ty: &Ty) -> ValueId {
        let Ty::Array(dt, _) = ty else { unreachable!("checked: an array") };
        let sizes: Vec<ValueId> = vals[1..].iter().map(|v| self.cast_scalar(*v, DType::I64)).collect();
        if !self.f.ty(vals[0]).is_array() {
            let out = self.new_array(*dt, sizes);
            let v = self.cast_scalar(vals[0], *dt);
            self.emit(OpKind::Compute { func: ComputeFn::Fill, out, ins: vec![v] });
            return out;
        }
        let b = self.broadcast_to_sizes(vals[0], &sizes);
        self.fresh_copy(b)
    }

    /// `arange`: size `max(0, ceil((stop - start) / step))` computed on the host in f64, like NumPy;
    /// a zero step or a length that is not finite is a run-time error, as NumPy raises.
    pub(super) fn arange(&mut self, vals: &[ValueId], ty: &Ty) -> ValueId {
        let dt = ty.dtype().unwrap();
        let (start, stop, step) = match vals {
            [stop] => (self.constant(Scalar::I64(0)), *stop, self.constant(Scalar::I64(1))),
            [start, stop] => (*start, *stop, self.constant(Scalar::I64(1))),
            _ => (vals[0], vals[1], vals[2]),
        };
        let f = |l: &mut Self, v| l.cast_scalar(v, DType::F64);
        let (a, b, s) = (f(self, start), f(self, stop), f(self, step));
        // NumPy raises for a zero step and for a length that is not finite (a NaN or infinite bound).
        let zero = self.constant(Scalar::F64(0.0));
        let nonzero = self.scalar_binary(BinFn::Ne, s, zero, DType::F64);
        self.emit(OpKind::Assert { cond: nonzero, msg: "arange: the step must not be zero".into() });
        let span = self.scalar_binary(BinFn::Sub, b, a, DType::F64);
        let q = self.scalar_binary(BinFn::Div, span, s, DType::F64);
        let q_minus_q = self.scalar_binary(BinFn::Sub, q, q, DType::F64);
        let finite = self.scalar_binary(BinFn::Eq, q_minus_q, zero, DType::F64);
        self.emit(OpKind::Assert {
            cond: finite,
            msg: "arange: cannot compute the length: start, stop or step is NaN or infinite".into(),
        });
        let c = self.scalar_unary(UnFn::Ceil, q);
        let c = self.scalar_binary(BinFn::Maximum, c, zero, DType::F64);
        let n = self.cast_scalar(c, DType::I64);
        let out = self.new_array(dt, vec![n]);
        let (start, step) = (self.cast_scalar(start, dt), self.cast_scalar(step, dt));
        self.emit(OpKind::Compute { func: ComputeFn::Arange, out, ins: vec![start, step] });
        out
    }

    /// NumPy 2.1's `cumulative_sum(x, axis=k, include_initial=b)` (`cumulative_prod`) of array
    /// `x`, of checked type `ty`: the scan along the axis (0 for a 1-d `x`), `cumsum`'s; with
    /// `include_initial`, written into the view `[1:]` along the axis of a new array whose first
    /// index along it holds the identity (0, or 1 for the product), so that signs of zeros stay
    /// as NumPy's.
    fn cumulative(&mut self, b: Builtin, x: ValueId, kwargs: &[(ast::Ident, Expr)], ty: &Ty) -> LResult<ValueId> {
        let Type::Array(_, r) = self.f.ty(x) else { unreachable!("checked: an array") };
        let axis = self.axis_kwarg(kwargs, x)?.unwrap_or(0);
        let kind = if b == Builtin::CumulativeSum { ReduceKind::Sum } else { ReduceKind::Prod };
        let Ty::Array(dt, shape) = ty else { unreachable!("checked: a scan gives an array") };
        let mut sizes: Vec<ValueId> = (0..r).map(|a| self.dim(x, a)).collect();
        if Self::kwarg(kwargs, "include_initial").and_then(bool_literal) != Some(true) {
            return Ok(self.compute_new(ComputeFn::Scan(kind, axis), vec![x], *dt, sizes, Some(shape)));
        }
        let one = self.i64_const(1);
        sizes[axis] = self.scalar_binary(BinFn::Add, sizes[axis], one, DType::I64);
        let out = self.new_array(*dt, sizes);
        self.shapes.insert(out, shape.clone());
        let identity = if kind == ReduceKind::Sum { Scalar::I64(0) } else { Scalar::I64(1) };
        let identity = self.constant(identity.cast(*dt));
        self.emit(OpKind::Compute { func: ComputeFn::Fill, out, ins: vec![identity] });
        let mut entries = vec![IndexEntry::Full; r];
        entries[axis] = IndexEntry::Slice { start: true, stop: false, step: false };
        let rest = self.view_with(out, entries, vec![one]);
        self.emit(OpKind::Compute { func: ComputeFn::Scan(kind, axis), out: rest, ins: vec![x] });
        Ok(out)
    }

    /// `linspace(start, stop, num)`: `start + i * step` with `step = (stop - start) / (num - 1)`, and
    /// the last element set to `stop` exactly, as NumPy does; without the endpoint
    /// (`endpoint=false`), `step = (stop - start) / num` and no such last element.
    pub(crate) fn linspace(&mut self, vals: &[ValueId], endpoint: bool) -> ValueId {
        self.linspace_in(vals, endpoint, DType::F64)
    }

    /// [`Self::linspace`] computed in the float dtype `dt` (NumPy computes `float32` bounds'
    /// `linspace` in `float32`: the difference, the step and each `start + i * step`).
    pub(crate) fn linspace_in(&mut self, vals: &[ValueId], endpoint: bool, dt: DType) -> ValueId {
        let start = self.cast_scalar(vals[0], dt);
        let stop = self.cast_scalar(vals[1], dt);
        let num = self.cast_scalar(vals[2], DType::I64);
        let one = self.i64_const(1);
        // The number of steps from `start` to `stop`: `num - 1`, or `num` without the endpoint.
        let div = if endpoint { self.scalar_binary(BinFn::Sub, num, one, DType::I64) } else { num };
        let divf = self.cast_scalar(div, dt);
        let span = self.scalar_binary(BinFn::Sub, stop, start, dt);
        let step = self.scalar_binary(BinFn::Div, span, divf, dt);
        // No step (num == 1 with the endpoint, num == 0 without): the step is 0/0 or x/0; NumPy
        // gives [start] (or nothing), so the step must be 0 (0 * inf is NaN).
        let zero_i = self.i64_const(0);
        let several = self.scalar_binary(BinFn::Gt, div, zero_i, DType::I64);
        let zero = self.constant(Scalar::F64(0.0).cast(dt));
        let step_or_zero = self.value(Type::Scalar(dt), None);
        self.emit(OpKind::Select { res: step_or_zero, cond: several, lhs: step, rhs: zero });
        let step = step_or_zero;
        let out = self.new_array(dt, vec![num]);
        self.emit(OpKind::Compute { func: ComputeFn::Arange, out, ins: vec![start, step] });
        if !endpoint {
            return out;
        }
        // out[num-1:] = stop (empty when num == 1 would make it overwrite start; NumPy keeps start then).
        let last = self.value(Type::Array(dt, 1), None);
        let from = self.scalar_binary(BinFn::Maximum, div, one, DType::I64);
        self.emit(OpKind::View {
            res: last,
            src: out,
            index: vec![IndexEntry::Slice { start: true, stop: false, step: false }],
            operands: vec![from],
        });
        self.roots.insert(last, Root::New(out));
        self.emit(OpKind::Compute { func: ComputeFn::Fill, out: last, ins: vec![stop] });
        out
    }

    /// `dot(a, b)` of 1-d and 2-d operands (NumPy `a @ b`). Where the cost model's rule
    /// [`matmul_by_library`] says so (two float matrices, unless a literal inner size is small), an `arr.matmul` into a new array, its
    /// operands first converted to the result's dtype where they differ (as NumPy does before
    /// calling BLAS). Otherwise the operands' product, broadcast over the output's axes and the
    /// inner axis, summed along the inner axis (for two matrices
    /// `sum(a[:, :, newaxis] * b[newaxis, :, :], axis=1)`): fused, one kernel that accumulates each
    /// output row over the inner axis (`kernel_codegen::loops`, reductions along an axis that is
    /// not the last). The inner sizes are checked at run time (NumPy raises for unaligned shapes;
    /// broadcasting would hide a size 1).
    pub(crate) fn dot(&mut self, a: ValueId, b: ValueId, args: &[Expr], ty: &Ty, e: &Expr) -> LResult<ValueId> {
        let (Ty::Array(_, sa), Ty::Array(_, sb)) = (self.ty_of(&args[0]).clone(), self.ty_of(&args[1]).clone()) else {
            unreachable!("the checker types `dot`'s operands as arrays")
        };
        self.dot_of(a, b, sa, sb, ty, e)
    }

    /// NumPy's `a @ b` of stacks of matrices (checked: `a` of shape `(..., n, k)`, `b` of
    /// `(..., k, m)`, one of them more than 2-d, `ty` the result `(..., n, m)`): the product
    /// `a[..., :, :, None] * b[..., None, :, :]` over the broadcast stacks, summed over `k`, one
    /// fused kernel as `dot`'s fused form; a `k` that differs at run time is NumPy's ValueError.
    fn batched_matmul(
        &mut self,
        a: ValueId,
        b: ValueId,
        sa: &[Size],
        sb: &[Size],
        ty: &Ty,
        e: &Expr,
    ) -> LResult<ValueId> {
        use IndexEntry::{Full, NewAxis};
        let Ty::Array(d, out) = ty else { unreachable!("checked: a stack of matrices") };
        let (ra, rb) = (sa.len(), sb.len());
        let r = ra.max(rb);
        let (ka, kb) = (self.dim(a, ra - 1), self.dim(b, rb - 2));
        let aligned = self.scalar_binary(BinFn::Eq, ka, kb, DType::I64);
        let msg = "matmul: Input operand 1 has a mismatch in its core dimension 0 (size {rhs} is different from {lhs})"
            .into();
        self.emit(OpKind::Assert { cond: aligned, msg });
        let pad = |n: usize| std::iter::repeat_n(NewAxis, r - n);
        let a4: Vec<IndexEntry> = pad(ra).chain(std::iter::repeat_n(Full, ra)).chain([NewAxis]).collect();
        let b4: Vec<IndexEntry> =
            pad(rb).chain(std::iter::repeat_n(Full, rb - 2)).chain([NewAxis, Full, Full]).collect();
        let (x, y) = (self.expand(a, a4), self.expand(b, b4));
        let mut shape = out[..r - 2].to_vec();
        shape.extend([sa[ra - 2].clone(), sa[ra - 1].clone(), sb[rb - 1].clone()]);
        let pty = Ty::Array(*d, shape);
        let v = self.broadcast_operands(&[x, y], &pty);
        let prod = self.array_op(ComputeFn::Binary(BinFn::Mul), v, &pty)?;
        self.reduction(false, ReduceKind::Sum, prod, Some(&[r - 1]), ty, e)
    }

    /// [`dot`](Self::dot) of `a` and `b` of checked shapes `sa` and `sb` (1-d or 2-d, or an n-d `a`
    /// and a 1-d `b`: a sum over `a`'s last axis).
    pub(crate) fn dot_of(
        &mut self,
        a: ValueId,
        b: ValueId,
        sa: Vec<Size>,
        sb: Vec<Size>,
        ty: &Ty,
        e: &Expr,
    ) -> LResult<ValueId> {
        use IndexEntry::{Full, NewAxis};
        let d = ty.dtype().expect("`dot` has a dtype");
        if (sa.len() > 2 || sb.len() > 2) && sb.len() > 1 {
            return self.batched_matmul(a, b, &sa, &sb, ty, e);
        }
        let ka = self.dim(a, sa.len() - 1);
        let kb = self.dim(b, 0);
        let aligned = self.scalar_binary(BinFn::Eq, ka, kb, DType::I64);
        // `{lhs}` and `{rhs}`: the executor puts in the compared sizes (see `cf.assert`).
        let msg = "dot: shapes not aligned: the last dimension of `a` has size {lhs}, the first of `b` {rhs}".into();
        self.emit(OpKind::Assert { cond: aligned, msg });
        let inner = sa.last().and_then(Size::as_const).or_else(|| sb[0].as_const());
        if matmul_by_library(d, sa.len(), sb.len(), inner) {
            let Ty::Array(_, shape) = ty else { unreachable!("`dot` of matrices is an array") };
            let (lhs, rhs) = (self.converted(a, d, &sa)?, self.converted(b, d, &sb)?);
            let sizes = vec![self.dim(lhs, 0), self.dim(rhs, 1)];
            let out = self.new_array(d, sizes);
            self.shapes.insert(out, shape.clone());
            self.emit(OpKind::MatMul { out, lhs, rhs });
            return Ok(out);
        }
        let (x, y, shape, axis) = match (sa.len(), sb.len()) {
            (1, 1) => (a, b, sa.clone(), None),
            (r, 1) => {
                let index = std::iter::repeat_n(NewAxis, r - 1).chain([Full]).collect();
                (a, self.expand(b, index), sa.clone(), Some(r - 1))
            }
            (1, 2) => (self.expand(a, vec![Full, NewAxis]), b, sb.clone(), Some(0)),
            _ => {
                let a3 = self.expand(a, vec![Full, Full, NewAxis]);
                let b3 = self.expand(b, vec![NewAxis, Full, Full]);
                (a3, b3, vec![sa[0].clone(), sa[1].clone(), sb[1].clone()], Some(1))
            }
        };
        let prod = self.array_op(ComputeFn::Binary(BinFn::Mul), vec![x, y], &Ty::Array(d, shape))?;
        self.reduction(false, ReduceKind::Sum, prod, axis.as_ref().map(std::slice::from_ref), ty, e)
    }

    /// Types learnt at assignments (`grammar/src/check/learnt.rs`): `list.buffer(K)` (a list grown
    /// by appends) and `scope.unbound(K)` (a name first assigned in a loop or branch) a value of the
    /// checked type, an empty array (every size 0) or a scalar 0, which the first assignment
    /// replaces; `list.item(e, K)` and `scope.value(e, K)` the value `e` in the learnt dtype.
    fn learnt_type(&mut self, b: Builtin, args: &[Expr], ty: &Ty) -> LResult<ValueId> {
        let placeholder = matches!(b, Builtin::ListBuffer | Builtin::ScopeUnbound);
        match (placeholder, ty) {
            (true, Ty::Array(dt, shape)) => {
                let zero = self.i64_const(0);
                Ok(self.new_array(*dt, vec![zero; shape.len()]))
            }
            (true, t) => Ok(self.constant(Scalar::I64(0).cast(t.dtype().expect("checked: a scalar")))),
            (false, Ty::Array(dt, shape)) => {
                let v = self.expr(&args[0])?;
                self.converted(v, *dt, shape)
            }
            (false, t) => {
                let v = self.expr(&args[0])?;
                Ok(self.cast_scalar(v, t.dtype().expect("checked: a scalar")))
            }
        }
    }

    /// `v` (of checked shape `shape`) in dtype `dt`: itself when it has that dtype, else a
    /// converted copy (`arr.copy` converts).
    pub(crate) fn converted(&mut self, v: ValueId, dt: DType, shape: &[Size]) -> LResult<ValueId> {
        if self.f.ty(v).dtype() == dt {
            return Ok(v);
        }
        self.array_op(ComputeFn::Copy, vec![v], &Ty::Array(dt, shape.to_vec()))
    }

    /// `isnan(x)`, `isinf(x)`, `isfinite(x)` (NumPy's): for a float `x`, `x != x`, `abs(x) == inf`
    /// and `abs(x) < inf`, elementwise (fused like any comparison); for an integer or bool `x`, the
    /// constant `false`, `false`, `true` of `x`'s shape. `ty`: the (bool) result type.
    pub(super) fn float_test(&mut self, b: Builtin, x: ValueId, arg: &Expr, ty: &Ty, e: &Expr) -> LResult<ValueId> {
        let xt = self.ty_of(arg).clone();
        let dt = xt.dtype().expect("checked: a value with a dtype");
        if !dt.is_float() {
            let c = self.constant(Scalar::Bool(b == Builtin::IsFinite));
            if !ty.is_array() {
                return Ok(c);
            }
            let rank = match self.f.ty(x) {
                Type::Array(_, r) => r,
                Type::Scalar(_) => 0,
            };
            let sizes = (0..rank).map(|d| self.dim(x, d)).collect();
            return Ok(self.compute_new(ComputeFn::Fill, vec![c], DType::Bool, sizes, ty.shape()));
        }
        let inf = self.constant(if dt == DType::F32 { Scalar::F32(f32::INFINITY) } else { Scalar::F64(f64::INFINITY) });
        let (cmp, a, b) = match b {
            Builtin::IsNan => (BinFn::Ne, x, x),
            Builtin::IsInf => (BinFn::Eq, self.elementwise(ComputeFn::Unary(UnFn::Abs), vec![x], &xt, e)?, inf),
            _ => (BinFn::Lt, self.elementwise(ComputeFn::Unary(UnFn::Abs), vec![x], &xt, e)?, inf),
        };
        if ty.is_array() {
            self.array_op(ComputeFn::Binary(cmp), vec![a, b], ty)
        } else {
            // A comparison in the operand's dtype (`elementwise` would compute in the result's).
            Ok(self.scalar_binary(cmp, a, b, dt))
        }
    }

    /// `len(x)` (the size of axis 0), `ndim(x)` (the rank), `size(x)` (the product of the sizes; 1
    /// for a scalar) or `size(x, axis=k)`: an `i64` scalar, read from `x`'s sizes at run time
    /// (constants where the sizes are).
    pub(super) fn shape_query(&mut self, b: Builtin, x: ValueId, kwargs: &[(ast::Ident, Expr)]) -> LResult<ValueId> {
        let rank = match self.f.ty(x) {
            Type::Array(_, r) => r,
            Type::Scalar(_) => 0,
        };
        Ok(match (b, self.axis_kwarg(kwargs, x)?) {
            (Builtin::Ndim, _) => self.i64_const(rank as i64),
            (Builtin::Size, Some(axis)) => self.dim(x, axis),
            (Builtin::Size, None) => {
                let mut n = self.i64_const(1);
                for axis in 0..rank {
                    let d = self.dim(x, axis);
                    n = self.scalar_binary(BinFn::Mul, n, d, DType::I64);
                }
                n
            }
            _ => self.dim(x, 0),
        })
    }

    pub(super) fn const_int(&self, e: &Expr) -> LResult<i64> {
        match &e.kind {
            ExprKind::Int(i) => Ok(*i),
            ExprKind::Unary(ast::UnOp::Neg, inner) => Ok(-self.const_int(inner)?),
            _ => Err(self.error("E0910", &e.span, "`axis` must be an integer literal", "")),
        }
    }
}

//! NumPy's `linspace(start, stop, num)` of array bounds (`docs/language.md`, the `linspace` row):
//! `num` samples along a new first axis, each `start + i * step` of the bounds' broadcast shape,
//! with NumPy's own arithmetic so the values are NumPy's to the bit: `step = (stop - start) /
//! div` (`div` = `num - 1`, or `num` without the endpoint); where any `step` is 0, every sample
//! is `i / div * delta` instead of `i * step`; where `div` is 0, `i * delta`; then `start` added,
//! and the last sample `stop` itself where the endpoint is included and `num > 1`.

use crate::lower_ast::{LResult, Lowerer};
use arrayc_dialect::ir::{BinFn, ComputeFn, IndexEntry, OpKind, ReduceKind, Scalar, ValueId};
use arrayc_grammar::ast::{DType, Expr};
use arrayc_grammar::types::{Size, Ty};

impl Lowerer<'_> {
    /// `linspace` of `args` (values `vals`; checked: a bound is an array, `ty` is `dt[num, *B]`
    /// with `B` the bounds' broadcast shape, `dt` a float), see the module's docs.
    pub(crate) fn linspace_arrays(
        &mut self,
        args: &[Expr],
        vals: &[ValueId],
        endpoint: bool,
        ty: &Ty,
        e: &Expr,
    ) -> LResult<ValueId> {
        let Ty::Array(dt, shape) = ty else { unreachable!("checked: linspace is an array") };
        let (dt, rank) = (*dt, shape.len() - 1);
        let bounds = Ty::Array(dt, shape[1..].to_vec());
        let start_ty = self.ty_of(&args[0]).clone();
        let stop_ty = self.ty_of(&args[1]).clone();
        let start = self.as_dtype(vals[0], &start_ty, dt)?;
        let stop = self.as_dtype(vals[1], &stop_ty, dt)?;
        let num = self.cast_scalar(vals[2], DType::I64);
        let (zero_i, one_i) = (self.i64_const(0), self.i64_const(1));
        let div = if endpoint { self.scalar_binary(BinFn::Sub, num, one_i, DType::I64) } else { num };
        let divf = self.cast_scalar(div, dt);
        let delta = self.array_op(ComputeFn::Binary(BinFn::Sub), vec![stop, start], &bounds)?;
        let step = self.array_op(ComputeFn::Binary(BinFn::Div), vec![delta, divf], &bounds)?;
        // Whether any step is 0: a count of them.
        let zero = self.constant(Scalar::F64(0.0).cast(dt));
        let flat = Ty::Array(DType::I64, shape[1..].to_vec());
        let is_zero = self.array_op(
            ComputeFn::Binary(BinFn::Eq),
            vec![step, zero],
            &Ty::Array(DType::Bool, shape[1..].to_vec()),
        )?;
        let as_int = self.array_op(ComputeFn::Copy, vec![is_zero], &flat)?;
        let zeros = self.reduction(false, ReduceKind::Sum, as_int, None, &Ty::Scalar(DType::I64), e)?;
        let any_zero = self.scalar_binary(BinFn::Gt, zeros, zero_i, DType::I64);
        let several = self.scalar_binary(BinFn::Gt, div, zero_i, DType::I64);
        // `i` along the new axis, as a column of `dt` (`arange(num)[:, None, ..]`).
        let one = self.constant(Scalar::F64(1.0).cast(dt));
        let i = self.new_array(dt, vec![num]);
        self.emit(OpKind::Compute { func: ComputeFn::Arange, out: i, ins: vec![zero, one] });
        let column = |l: &mut Self, v: ValueId| {
            let mut entries = vec![IndexEntry::Full];
            entries.extend(std::iter::repeat_n(IndexEntry::NewAxis, rank));
            l.view_with(v, entries, vec![])
        };
        let col = column(self, i);
        let mut col_shape = vec![shape[0].clone()];
        col_shape.extend(std::iter::repeat_n(Size::lit(1), rank));
        let by_step = self.array_op(ComputeFn::Binary(BinFn::Mul), vec![col, step], ty)?;
        let scaled = self.array_op(ComputeFn::Binary(BinFn::Div), vec![col, divf], &Ty::Array(dt, col_shape))?;
        let by_fraction = self.array_op(ComputeFn::Binary(BinFn::Mul), vec![scaled, delta], ty)?;
        let by_delta = self.array_op(ComputeFn::Binary(BinFn::Mul), vec![col, delta], ty)?;
        let stepped = self.array_op(ComputeFn::Where, vec![any_zero, by_fraction, by_step], ty)?;
        let samples = self.array_op(ComputeFn::Where, vec![several, stepped, by_delta], ty)?;
        let samples = self.array_op(ComputeFn::Binary(BinFn::Add), vec![samples, start], ty)?;
        if !endpoint {
            return Ok(samples);
        }
        // The last sample is `stop` where `num > 1`: row `max(div, 1)`, which is past the end of
        // one sample.
        let last = self.scalar_binary(BinFn::Maximum, div, one_i, DType::I64);
        let rows = self.new_array(DType::I64, vec![num]);
        let (zero_r, one_r) = (self.i64_const(0), self.i64_const(1));
        self.emit(OpKind::Compute { func: ComputeFn::Arange, out: rows, ins: vec![zero_r, one_r] });
        let is_last = self.array_op(
            ComputeFn::Binary(BinFn::Eq),
            vec![rows, last],
            &Ty::Array(DType::Bool, vec![shape[0].clone()]),
        )?;
        let is_last = column(self, is_last);
        self.array_op(ComputeFn::Where, vec![is_last, stop, samples], ty)
    }
}

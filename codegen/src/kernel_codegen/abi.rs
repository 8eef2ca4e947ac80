//! The kernels' calling convention as MLIR types (see the parent module's docs): a view of dtype `T`
//! and rank `r` is a `memref<?x..x?xT, strided<[?, .., ?], offset: ?>>` (sizes, strides and offset in
//! elements, all dynamic), a scalar its element type. A kernel that can fault takes the fault cell
//! after its parameters, a chunked scan its carries and pass after that. On the CPU every kernel then ends with the
//! chunk bounds `%lo, %hi: index` of dimension 0, and a kernel ending in reductions along an axis
//! with `%axis_lo, %axis_hi: index`, the bounds along that axis (Kristensen et al. 2016, Sec. IV: one
//! launch per block, here split into chunks by `arrayc_runtime::launch`; added by `cpu`).

use arrayc_core::DType;
use arrayc_dialect::ir::{self, Type as IrType};
use arrayc_passes::kernel_layout::KernelLayout;
use melior::{
    ir::{
        attribute::StridedLayoutAttribute,
        r#type::{FunctionType, IntegerType, MemRefType},
        Type,
    },
    Context,
};

/// MLIR's marker for a dynamic size, stride or offset (`ShapedType::kDynamic`).
pub(super) fn dynamic() -> i64 {
    // SAFETY: a pure C API call without arguments.
    unsafe { mlir_sys::mlirShapedTypeGetDynamicSize() }
}

/// The element type of dtype `d`: `f64`, `f32`, `i64`, or `i1` for bool.
pub fn elem_type(context: &Context, d: DType) -> Type<'_> {
    match d {
        DType::F64 => Type::float64(context),
        DType::F32 => Type::float32(context),
        DType::I64 => IntegerType::new(context, 64).into(),
        DType::Bool => IntegerType::new(context, 1).into(),
    }
}

/// The type of a view of dtype `d` and rank `rank`: dynamic sizes, offset and strides, except the
/// last stride when `last_stride` gives it (the loop nest specialised to `arr.inner_strides`).
pub fn view_type(context: &Context, d: DType, rank: usize, last_stride: Option<i64>) -> MemRefType<'_> {
    let mut strides = vec![dynamic(); rank];
    if let (Some(s), Some(last)) = (last_stride, strides.last_mut()) {
        *last = s;
    }
    let layout = StridedLayoutAttribute::new(context, dynamic(), &strides);
    MemRefType::new(elem_type(context, d), &vec![dynamic(); rank], Some(layout.into()), None)
}

/// The MLIR type of a kernel parameter of type `t`.
pub fn param_type(context: &Context, t: IrType) -> Type<'_> {
    match t {
        IrType::Scalar(d) => elem_type(context, d),
        IrType::Array(d, r) => view_type(context, d, r, None).into(),
    }
}

/// The target-neutral signature of kernel `f` (block layout `layout`): its parameters' types, then,
/// when the kernel can fault, the fault cell: a 0-d `i64` view (see
/// `arrayc_runtime::launch::KernelFault`), then, for a [`KernelLayout::chunked_scan`], the carries
/// (a 1-d `i64` view) and the pass (`i64`; `arrayc_runtime::launch::scan_carry_words`); no
/// results. (The CPU target appends the chunk bounds, see `cpu`.)
pub fn signature<'c>(context: &'c Context, f: &ir::Func, layout: &KernelLayout) -> FunctionType<'c> {
    let mut inputs: Vec<Type> = f.params.iter().map(|&p| param_type(context, f.ty(p))).collect();
    if !layout.faults.is_empty() {
        inputs.push(view_type(context, DType::I64, 0, None).into());
    }
    if layout.chunked_scan {
        inputs.push(view_type(context, DType::I64, 1, None).into());
        inputs.push(elem_type(context, DType::I64));
    }
    FunctionType::new(context, &inputs, &[])
}

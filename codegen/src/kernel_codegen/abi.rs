//! The kernels' calling convention as MLIR types. The convention itself, which arguments a kernel
//! takes in which order on which target, is defined once, in `arrayc_core::abi` ([`KernelAbi`]);
//! this module only gives its arguments their MLIR types: a view of dtype `T` and rank `r` is a
//! `memref<?x..x?xT, strided<[?, .., ?], offset: ?>>` (sizes, strides and offset in elements, all
//! dynamic), a contiguous array (the GPU's partials) a `memref<?xT>`, a scalar its element type, a
//! chunk bound or grid coordinate an `index`. Kernels are built with the target-neutral arguments
//! ([`signature`]); the CPU target appends its chunk bounds (`cpu`), the GPU target its partials and
//! (emulated) grid coordinates (`gpu`).

use arrayc_core::abi::{AbiArg, ArgType, KernelAbi, Target};
use arrayc_core::DType;
use arrayc_dialect::ir;
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

/// The element type of dtype `d`: `f64`, `f32`, or the signless integer of its width (`i1` for bool).
pub fn elem_type(context: &Context, d: DType) -> Type<'_> {
    match d {
        DType::F64 => Type::float64(context),
        DType::F32 => Type::float32(context),
        // Signless, as `arith` needs: the unsigned dtypes' operations are chosen by dtype.
        _ => IntegerType::new(context, d.bits()).into(),
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

/// The MLIR type of a kernel argument of type `t` (see the module docs).
pub fn arg_type(context: &Context, t: ArgType) -> Type<'_> {
    match t {
        ArgType::Scalar(d) => elem_type(context, d),
        ArgType::View(d, r) => view_type(context, d, r, None).into(),
        ArgType::Vector(d) => MemRefType::new(elem_type(context, d), &[dynamic()], None, None).into(),
        ArgType::Index => Type::index(context),
    }
}

/// The arguments of kernel `f` (block layout `layout`) on `target` ([`KernelAbi::of`]).
pub fn kernel_abi(f: &ir::Func, layout: &KernelLayout, target: Target) -> KernelAbi {
    let types: Vec<ir::Type> = f.params.iter().map(|&p| f.ty(p)).collect();
    KernelAbi::of(&f.params, &types, layout, target)
}

/// The function type (no results) whose inputs are the arguments `args`, in order.
pub fn function_type<'c>(context: &'c Context, args: &[AbiArg]) -> FunctionType<'c> {
    let inputs: Vec<Type> = args.iter().map(|a| arg_type(context, a.ty)).collect();
    FunctionType::new(context, &inputs, &[])
}

/// The target-neutral signature of a kernel whose arguments on some target are `abi`: the arguments
/// every target takes ([`KernelArg::is_neutral`](arrayc_core::abi::KernelArg::is_neutral): the
/// parameters, then the fault cell and a chunked scan's carries and pass where the layout calls for
/// them), a prefix of every target's arguments.
pub fn signature<'c>(context: &'c Context, abi: &KernelAbi) -> FunctionType<'c> {
    let neutral: Vec<AbiArg> = abi.args().iter().copied().take_while(|a| a.arg.is_neutral()).collect();
    function_type(context, &neutral)
}

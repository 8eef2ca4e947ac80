# RUN: %arrayc emit --stage=llvm --fuse singleton %s | FileCheck %s
fn axpy(n: i64 = 8, alpha: f64 = 2.0) -> f64[n] {
    let x = ones(n);
    let y = arange(n) * 1.0;
    return alpha * x + y;
}

# Kernels after the MLIR pipeline: memrefs become (allocated ptr, aligned ptr, offset, sizes,
# strides), scalars become doubles, and the chunk bounds are the last two i64 parameters.
# The output's last stride is known to be 1 (`arr.inner_strides`), so the kernel reinterprets the view
# with that constant (`Gen::cast_last_stride`): the store's address is the loop index itself, not a
# product with a stride read from the descriptor, which LLVM would have to version on at run time
# (it gives up beyond a few views: "too many SCEV assumptions", and the loop stays scalar).
# CHECK: define void @kernel0_fill(ptr %0, ptr %1, i64 %2, i64 %3, i64 %4, double %5, i64 %6, i64 %7)
# CHECK: insertvalue {{.*}} i64 1, 4, 0
# CHECK: [[I:%[0-9]+]] = phi i64
# CHECK-NOT: mul
# CHECK: getelementptr inbounds nuw double, ptr %{{[0-9]+}}, i64 [[I]]
# CHECK-NEXT: store double %5
# CHECK: define void @kernel1_arange(
# CHECK: define void @kernel2_mul(
# CHECK: sitofp i64 %{{[0-9]+}} to double
# CHECK: fmul double
# CHECK: define void @kernel3_mul(
# CHECK: fmul double %5,
# CHECK: define void @kernel4_add(
# CHECK: fadd double
# CHECK-NOT: define

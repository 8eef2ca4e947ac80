# RUN: %arrayc emit --stage=mlir %s | FileCheck %s
fn main(x: f64[N, M]) -> f64[M] {
    return min(x, axis=0);
}

# A float min along axis 0 accumulates in its output row by row; before each row of the axis
# (the launcher's chunk of it) the kernel prefetches, one 64-byte line (8 f64) at a time, the
# columns of its chunk in the next row, the last row clamped (`Gen::prefetch_next_slab`), when
# the chunk holds only part of each row (a launch split along the axis streams whole rows:
# `arrayc_runtime::launch::MIN_MAX_SPLIT_ROWS`).
# CHECK-LABEL: // Kernels, lowered to scf/memref/arith/math:
# CHECK:       scf.for %[[I:arg[0-9]+]] =
# CHECK:       %[[NEXT:[0-9]+]] = arith.addi %[[I]], %{{c1[_0-9]*}} : index
# CHECK:       %[[PAST:[0-9]+]] = arith.cmpi sgt, %[[NEXT]], %[[END:[0-9]+]] : index
# CHECK:       %[[ROW:[0-9]+]] = arith.select %[[PAST]], %[[END]], %[[NEXT]] : index
# CHECK:       %[[W:[0-9]+]] = arith.subi
# CHECK:       %[[PART:[0-9]+]] = arith.cmpi slt, %[[W]], %{{[0-9a-z_]+}} : index
# CHECK:       scf.if %[[PART]] {
# CHECK:       scf.for %[[J:arg[0-9]+]] = %{{[0-9]+}} to %{{[0-9]+}} step %{{c8[_0-9]*}} {
# CHECK-NEXT:  memref.prefetch %{{.*}}[%[[ROW]], %[[J]]], read, locality<3>, data
# CHECK:       arith.minimumf

# RUN: %arrayc emit --stage=mlir --fuse singleton %s | FileCheck %s
fn axpy(n: i64 = 8, alpha: f64 = 2.0) -> f64[n] {
    let x = ones(n);
    let y = arange(n) * 1.0;
    return alpha * x + y;
}

# With the singleton partition the host launches one outlined kernel per array operation.
# CHECK-LABEL: // Host functions
# CHECK:       func.func @axpy(%{{n_[0-9]+}}: i64, %[[ALPHA:alpha_[0-9]+]]: f64)
# CHECK:       func.call @kernel0_fill(%[[X:x_[0-9]+]], %{{[0-9]+}}) : (memref<?xf64, strided<[?], offset: ?>>, f64) -> ()
# CHECK:       func.call @kernel1_arange(
# CHECK:       func.call @kernel2_mul(
# CHECK:       func.call @kernel3_mul(%{{[0-9]+}}, %[[ALPHA]], %[[X]])
# CHECK:       func.call @kernel4_add(
# CHECK:       func.return
# Each kernel is a parallel loop over the iteration space, which the CPU target runs over its chunk
# [lo, hi): the last two (index) parameters; it loads the inputs, computes with arith and stores into
# the output view. The loop nest runs on the views reinterpreted with the last-dimension strides
# that the fusion symbols know (`arr.inner_strides`; 1 here, a fresh row-major array) as constants,
# which LLVM vectorises.
# There is no generic copy for other strides: the launcher rejects views without them.
# CHECK-LABEL: // Kernels, lowered to scf/memref/arith/math:
# CHECK:       func.func @kernel0_fill(%[[OUT:arg[0-9]+]]: memref<?xf64, strided<[?], offset: ?>>, %[[V:arg[0-9]+]]: f64, %[[LO:arg[0-9]+]]: index, %[[HI:arg[0-9]+]]: index)
# CHECK-NOT:   scf.if
# CHECK:       %[[OFF:offset[_0-9]*]], %[[SZ:sizes[_0-9]*]], %{{strides[_0-9]*}} = memref.extract_strided_metadata %[[OUT]]
# CHECK:       %[[C:reinterpret_cast[_0-9]*]] = memref.reinterpret_cast %[[OUT]] to offset: [%[[OFF]]], sizes: [%[[SZ]]], strides: [1] : memref<?xf64, strided<[?], offset: ?>> to memref<?xf64, strided<[1], offset: ?>>
# CHECK-NOT:   scf.if
# CHECK:       scf.parallel (%[[I:arg[0-9]+]]) = (%[[LO]]) to (%[[HI]]) step (%{{c1[_0-9]*}}) {
# CHECK-NEXT:  memref.store %[[V]], %[[C]][%[[I]]] : memref<?xf64, strided<[1], offset: ?>>
# CHECK-NOT:   scf.parallel
# CHECK:       func.func @kernel1_arange(
# CHECK:       arith.index_cast
# CHECK:       func.func @kernel2_mul(%{{arg[0-9]+}}: memref<?xf64, strided<[?], offset: ?>>, %{{arg[0-9]+}}: memref<?xi64, strided<[?], offset: ?>>, %{{arg[0-9]+}}: f64, %[[LO2:arg[0-9]+]]: index, %[[HI2:arg[0-9]+]]: index)
# CHECK:       scf.parallel (%[[J:arg[0-9]+]]) = (%[[LO2]]) to (%[[HI2]]) step (%{{c1[_0-9]*}}) {
# CHECK-NEXT:  %[[L:[0-9]+]] = memref.load %{{reinterpret_cast[_0-9]*}}[%[[J]]] : memref<?xi64, strided<[1], offset: ?>>
# CHECK-NEXT:  %[[F:[0-9]+]] = arith.sitofp %[[L]] : i64 to f64
# CHECK-NEXT:  %[[P:[0-9]+]] = arith.mulf %[[F]], %{{arg[0-9]+}} : f64
# CHECK-NEXT:  memref.store %[[P]], %{{reinterpret_cast[_0-9]*}}[%[[J]]]
# CHECK:       func.func @kernel4_add(
# CHECK:       memref.load
# CHECK-NEXT:  memref.load
# CHECK-NEXT:  arith.addf %{{[0-9]+}}, %{{[0-9]+}} : f64
# CHECK-NEXT:  memref.store
# CHECK-NOT:   arr.

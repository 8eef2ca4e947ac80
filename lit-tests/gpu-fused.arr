# RUN: %arrayc emit --stage=gpu %s | FileCheck %s
# RUN: not %arrayc emit --target cpu --stage=gpu %s 2>&1 | FileCheck %s --check-prefix=BADTARGET
fn f(a: f64[N], b: f64[N]) -> f64 {
    let t = a * b + 1.0;
    return sum(t * t);
}

# One fused block (WSP, --cost gpu): the temporaries are contracted into one loop body, which runs
# in grid-stride loops (rows along y, the last dimension along x) with one accumulator per thread;
# the thread block combines its threads' values with gpu.all_reduce, thread 0 writes the block's
# partial result, and a second kernel combines the partials in block order.
# CHECK:       module attributes {gpu.container_module}
# CHECK:       gpu.module @kernels
# CHECK:       gpu.func @[[K:kernel0[a-z_0-9]*]](
# CHECK-SAME:  memref<?xf64>) kernel
# CHECK:       gpu.block_id y
# CHECK:       gpu.grid_dim y
# CHECK:       scf.for
# CHECK:       gpu.thread_id x
# CHECK:       scf.for
# CHECK-NEXT:  memref.load
# CHECK-NEXT:  memref.load
# CHECK-NEXT:  arith.mulf
# CHECK-NEXT:  arith.addf
# CHECK-NEXT:  arith.mulf
# CHECK-NEXT:  arith.addf
# CHECK-NEXT:  scf.yield
# CHECK-NOT:   memref.store
# CHECK:       gpu.all_reduce
# CHECK:       arith.addf
# CHECK:       gpu.yield
# CHECK:       gpu.thread_id x
# CHECK:       scf.if
# CHECK-NEXT:  memref.store
# CHECK:       gpu.return
# CHECK:       gpu.func @[[K]]_combine(
# CHECK:       scf.for
# CHECK:       memref.load
# CHECK:       arith.addf
# CHECK:       memref.store
# CHECK:       gpu.return

# BADTARGET: error: --stage=gpu and --stage=ptx show GPU kernels; drop --target cpu

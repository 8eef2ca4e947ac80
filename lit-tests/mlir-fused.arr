# RUN: %arrayc emit --stage=mlir %s | FileCheck %s
# RUN: %arrayc fuse-report %s | FileCheck %s --check-prefix=REPORT
fn chain(a: f64[N], b: f64[N], c: f64[N]) -> f64[N] {
    let t = a * b;
    let u = t + c;
    return sqrt(u);
}

# The optimal partition (bohrium) puts the three operations in one block: one launch, and t and u
# are contracted (Kristensen et al. 2016, Sec. IV-A2): no arr.new for them in the host, and inside
# the loop three loads (a, b, c), no load or store of t or u, one store of the result.
# CHECK-LABEL: // Host functions
# CHECK:       func.func @chain(
# CHECK-COUNT-1: "arr.new"
# CHECK-NOT:   "arr.new"
# CHECK:       func.call @kernel0_mul_add_sqrt(
# CHECK-NOT:   func.call @kernel
# CHECK:       func.return
# (One loop nest: the result's inner stride, 1, is known, a and b's are not; see mlir-kernels.arr.)
# CHECK-LABEL: // Kernels, lowered to scf/memref/arith/math:
# CHECK:       func.func @kernel0_mul_add_sqrt(
# CHECK-NOT:   scf.if
# CHECK:       scf.parallel
# CHECK-NEXT:  memref.load
# CHECK-NEXT:  memref.load
# CHECK-NEXT:  arith.mulf
# CHECK-NEXT:  memref.load
# CHECK-NEXT:  arith.addf
# CHECK-NEXT:  math.sqrt
# CHECK-NEXT:  memref.store
# CHECK-NOT:   memref.store
# CHECK-NOT:   scf.parallel
# CHECK:       return

# REPORT: chain region 0: optimal under bohrium: cost {{[0-9]+}} elements (singleton {{[0-9]+}}), {{[0-9]+}} blocks; optimality proven
# REPORT: contracted: {{.*}}t{{.*}}u

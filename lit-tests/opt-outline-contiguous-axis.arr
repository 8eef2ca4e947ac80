# outline-kernels: a reduction along the last axis of a transposed row-major array reduces the
# transpose back (a view, no copy) along axis 0 instead, so the kernel's innermost loop walks the
# contiguous axis (passes/src/outline/contiguous_axis.rs); the view is then known to have
# stride 1 in its last axis (arr.inner_strides).
# RUN: %arrayc-opt %s --pass lower-ast --pass insert-del-sync --pass wsp-fusion --pass outline-kernels | FileCheck %s
fn col_sums(n: i64) -> f64[n] {
    let a = random(n, n, seed=1);
    a[0, 0] = 2.0;
    return sum(a.T * 2.0, axis=1);
}
# CHECK:      %[[T:[0-9]+]] = "arr.transpose"(%a_1) {perm = array<i64: 1, 0>}
# CHECK:      %[[B:[0-9]+]] = "arr.transpose"(%[[T]]) {perm = array<i64: 1, 0>}
# CHECK-NEXT: func.call @[[K:kernel[0-9]+_mul_reduce]](%[[B]],
# CHECK:      func.func @[[K]]({{.*}}) -> () attributes {arr.inner_strides = array<i64: 1, -1, 1>, arr.kernel}
# CHECK:      "arr.reduce"({{.*}}) {kind = "sum", axis = 0 : i64}

# On the GPU targets `expand-sort` turns `arr.sort` into a bitonic sorting network: lines padded
# to a power of two (a doubling loop), then one `scf.while` over the stages, each a gather of the
# partners and a select; the padding's key is NaN, the greatest; after fusion each stage is one kernel launch in the loop.
# RUN: %arrayc-opt %s --pass lower-ast | FileCheck %s --check-prefix=LOWER
# RUN: %arrayc-opt %s --pass lower-ast --pass expand-sort | FileCheck %s
# RUN: %arrayc emit --stage=mlir --target gpu-emulated %s | FileCheck %s --check-prefix=KERNELS
fn main(x: f64[n]) -> f64[n] {
    return sort(x);
}
# LOWER:     "arr.sort"({{.*}}, %x_0) {axis = 0 : i64, indices = false}
# CHECK-NOT: "arr.sort"
# CHECK:     "scf.while"
# CHECK:     "arr.arange"
# CHECK:     arith.constant 0x7FF8000000000000 : f64
# CHECK-NEXT: "arr.fill"
# CHECK:     "scf.while"
# CHECK:     "arr.xor"
# CHECK:     "arr.gather"
# CHECK:     "arr.gather"
# CHECK:     "arr.ne"
# CHECK:     "arr.where"
# CHECK:     "arr.where"
# CHECK:     "scf.yield"
# CHECK-NOT: "arr.sort"
# KERNELS:      "scf.condition"(%{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}})
# KERNELS-NEXT: }, {
# KERNELS-NOT:  func.call
# KERNELS:      func.call @kernel{{[0-9]+}}_xor
# KERNELS-NOT:  func.call
# KERNELS:      "scf.yield"

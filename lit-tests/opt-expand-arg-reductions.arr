# argmin/argmax lower to one `arr.reduce {kind = "argmin"}`; on the CPU `expand-arg-reductions`
# keeps those over everything and along the last axis (one pass in the kernels) and composes the
# others of a `min` along the axis and a position search (a `min` of `where(found, position, n)`).
# RUN: %arrayc-opt %s --pass lower-ast | FileCheck %s --check-prefix=LOWER
# RUN: %arrayc-opt %s --pass lower-ast --pass expand-arg-reductions | FileCheck %s
fn main(x: f64[n, k]) -> (i64, i64[n], i64[k]) {
    return (argmin(x), argmax(x, axis=1), argmin(x, axis=0));
}
# LOWER:     "arr.reduce"({{.*}}, %x_0) {kind = "argmin"}
# LOWER:     "arr.reduce"({{.*}}, %x_0) {kind = "argmax", axis = 1 : i64}
# LOWER:     "arr.reduce"({{.*}}, %x_0) {kind = "argmin", axis = 0 : i64}
# CHECK:     "arr.reduce"({{.*}}, %x_0) {kind = "argmin"}
# CHECK:     "arr.reduce"({{.*}}, %x_0) {kind = "argmax", axis = 1 : i64}
# CHECK-NOT: kind = "argmin", axis = 0
# CHECK:     "arr.reduce"({{.*}}, %x_0) {kind = "min", axis = 0 : i64}
# CHECK:     "arr.eq"
# CHECK:     "arr.ne"
# CHECK:     "arr.where"
# CHECK:     "arr.reduce"({{.*}}) {kind = "min", axis = 0 : i64}

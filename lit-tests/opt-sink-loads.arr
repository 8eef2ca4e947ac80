# sink-loads puts the host's read of a reduction's value above the allocations just before its
# first use: the composed argmin (`expand-arg-reductions`' form, written out here) compares `x`
# with `min(x)`, and the comparison's array must be allocated in the region that writes it, or
# wsp-fusion cannot contract it (it was stored whole: 10^7 bools).
# RUN: %arrayc-opt %s --pass lower-ast --pass sink-loads | FileCheck %s
# RUN: %arrayc-opt %s --pass lower-ast --pass sink-loads --pass insert-del-sync --pass wsp-fusion | FileCheck %s --check-prefix=FUSED
fn first_min(x: f64[n]) -> i64 {
    let m = min(x);
    return min(where(x == m, arange(n), n));
}
# CHECK:       "arr.reduce"(%[[M:[0-9]+]], %x_0) {kind = "min"}
# CHECK:       = "arr.load"(%[[M]])
# CHECK-NEXT:  %[[E:[0-9]+]] = "arr.new"
# CHECK-NEXT:  "arr.eq"(%[[E]], %x_0,
# The comparison, its allocation and the reduction of the positions share one block.
# FUSED:       %[[E:[0-9]+]] = "arr.new"({{.*}}) {arr.block = [[B:[0-9]+]] : i64}
# FUSED:       "arr.eq"(%[[E]], %x_0, {{.*}}) {arr.block = [[B]] : i64}
# FUSED:       "arr.reduce"({{.*}}) {kind = "min", arr.block = [[B]] : i64}

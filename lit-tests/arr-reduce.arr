# RUN: %arrayc emit --stage=arr %s | FileCheck %s
fn reduce(n: i64 = 4) -> (f64, f64[n], i64) {
    let m = ones(3, n);
    let total = sum(m);
    let cols = max(m, axis=0);
    let k = prod(arange(1, 5));
    return (total, cols, k);
}

# CHECK-LABEL: func.func @reduce(
# sum(m): a 0-d result, kind only.
# CHECK: %[[T:[0-9]+]] = "arr.new"() : () -> (memref<f64, strided<[], offset: ?>>)
# CHECK-NEXT: "arr.reduce"(%[[T]], %[[M:m_[0-9]+]]) {kind = "sum"} : (memref<f64, strided<[], offset: ?>>, memref<?x?xf64, strided<[?, ?], offset: ?>>) -> ()
# CHECK-NOT: "arr.load"
# max(m, axis=0): kind and axis, rank 2 -> 1.
# CHECK: "arr.reduce"(%{{cols_[0-9]+}}, %[[M]]) {kind = "max", axis = 0 : i64} : (memref<?xf64, strided<[?], offset: ?>>, memref<?x?xf64, strided<[?, ?], offset: ?>>) -> ()
# prod of an i64 array is i64.
# CHECK: "arr.reduce"(%{{[0-9]+}}, %{{[0-9]+}}) {kind = "prod"} : (memref<i64, strided<[], offset: ?>>, memref<?xi64, strided<[?], offset: ?>>) -> ()
# The host reads both scalars (SYNC, load, DEL) where they are used, at the return (sink-loads), so
# the three reductions share one region.
# CHECK: "arr.sync"(%[[T]])
# CHECK-NEXT: %{{total_[0-9]+}} = "arr.load"(%[[T]]) : (memref<f64, strided<[], offset: ?>>) -> (f64)
# CHECK-NEXT: "arr.del"(%[[T]])
# CHECK: %{{k_[0-9]+}} = "arr.load"({{.*}}-> (i64)

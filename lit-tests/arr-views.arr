# RUN: %arrayc emit --stage=arr %s | FileCheck %s
fn views(n: i64 = 6) -> (f64[n - 2], f64[2, n], f64, f64[1, n]) {
    let x = zeros(n);
    let m = ones(3, n);
    let s = x[1:-1];
    let r = m[::2, :];
    let e = x[2];
    let c = x[newaxis, :];
    return (s, r, e, c);
}

# Index codes: 0 full, 1 integer, 2 newaxis, 8 + start + 2*stop + 4*step for a slice.
# CHECK: func.func @views(%[[N:[a-z0-9_]+]]: i64)
# x[1:-1]: a slice with start and stop (code 11), two operands.
# CHECK: %[[S:[a-z0-9_]+]] = "arr.view"(%[[X:[a-z0-9_]+]], %{{[0-9]+}}, %{{[0-9]+}}) {index = array<i64: 11>} : (memref<?xf64, strided<[?], offset: ?>>, i64, i64) -> (memref<?xf64, strided<[?], offset: ?>>)
# m[::2, :]: a slice with only a step (12), then a whole slice (8).
# CHECK: %[[R:[a-z0-9_]+]] = "arr.view"(%[[M:[a-z0-9_]+]], %{{[0-9]+}}) {index = array<i64: 12, 8>} : (memref<?x?xf64
# x[2]: an integer index gives a 0-d view, read by the host after SYNC.
# CHECK: %[[EV:[0-9]+]] = "arr.view"(%[[X]], %{{[0-9]+}}) {index = array<i64: 1>} : (memref<?xf64, strided<[?], offset: ?>>, i64) -> (memref<f64, strided<[], offset: ?>>)
# CHECK-NEXT: "arr.sync"(%[[X]])
# CHECK-NEXT: %[[E:[a-z0-9_]+]] = "arr.load"(%[[EV]]) : (memref<f64, strided<[], offset: ?>>) -> (f64)
# x[newaxis, :]: code 2 then 8, rank 2.
# CHECK: %[[C:[a-z0-9_]+]] = "arr.view"(%[[X]]) {index = array<i64: 2, 8>} : (memref<?xf64, strided<[?], offset: ?>>) -> (memref<?x?xf64, strided<[?, ?], offset: ?>>)
# CHECK: func.return %[[S]], %[[R]], %[[E]], %[[C]] :

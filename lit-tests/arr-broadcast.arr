# RUN: %arrayc emit --stage=arr %s | FileCheck %s
fn bcast(n: i64 = 4) -> f64[3, n] {
    let row = arange(n) * 1.0;
    let col = ones(3, 1);
    return row + col;
}

# row (f64[n]) + col (f64[3, 1]): the result shape is computed on the host (a size of 1 takes
# the other size), then both operands are broadcast to it.
# CHECK-LABEL: func.func @bcast(
# CHECK: "arr.arange"(%[[AR:[0-9]+]], %{{[0-9]+}}, %{{[0-9]+}}) : (memref<?xi64, strided<[?], offset: ?>>, i64, i64) -> ()
# CHECK: %[[ROW:row_[0-9]+]] = "arr.new"
# CHECK: "arr.mul"(%[[ROW]], %[[AR]], %{{[0-9]+}}) : (memref<?xf64, strided<[?], offset: ?>>, memref<?xi64, strided<[?], offset: ?>>, f64) -> ()
# CHECK: %[[COL:col_[0-9]+]] = "arr.new"(%{{[0-9]+}}, %{{[0-9]+}}) : (i64, i64) -> (memref<?x?xf64
# CHECK: %[[C:[0-9]+]] = arith.cmpi eq,
# CHECK-NEXT: %[[S1:[0-9]+]] = arith.select %[[C]],
# CHECK-NEXT: %[[OUT:[0-9]+]] = "arr.new"(%[[S0:[0-9]+]], %[[S1]])
# CHECK-NEXT: %[[BR:[0-9]+]] = "arr.broadcast"(%[[ROW]], %[[S0]], %[[S1]]) : (memref<?xf64, strided<[?], offset: ?>>, i64, i64) -> (memref<?x?xf64, strided<[?, ?], offset: ?>>)
# CHECK-NEXT: %[[BC:[0-9]+]] = "arr.broadcast"(%[[COL]], %[[S0]], %[[S1]]) : (memref<?x?xf64, strided<[?, ?], offset: ?>>, i64, i64) -> (memref<?x?xf64, strided<[?, ?], offset: ?>>)
# CHECK-NEXT: "arr.add"(%[[OUT]], %[[BR]], %[[BC]])

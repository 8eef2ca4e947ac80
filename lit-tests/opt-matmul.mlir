// arr.matmul: a hand-written module with a product of a transposed view; insert-del-sync syncs both
// operands' base arrays before it (a host read), the fusion and outline passes leave it in the host
// function (a region ends at it), and expand-matmul turns it into the fused form.
// RUN: %arrayc-opt %s --pass insert-del-sync --pass wsp-fusion --pass outline-kernels --pass dce | FileCheck %s
// RUN: %arrayc-opt %s --pass expand-matmul | FileCheck %s --check-prefix=EXPAND
module {
  func.func @main(%n: i64, %k: i64) -> memref<?x?xf64, strided<[?, ?], offset: ?>> {
    %one = arith.constant 1.0 : f64
    %a = "arr.new"(%k, %n) : (i64, i64) -> (memref<?x?xf64, strided<[?, ?], offset: ?>>)
    "arr.fill"(%a, %one) : (memref<?x?xf64, strided<[?, ?], offset: ?>>, f64) -> ()
    %at = "arr.transpose"(%a) {perm = array<i64: 1, 0>} : (memref<?x?xf64, strided<[?, ?], offset: ?>>) -> (memref<?x?xf64, strided<[?, ?], offset: ?>>)
    %c = "arr.new"(%n, %n) : (i64, i64) -> (memref<?x?xf64, strided<[?, ?], offset: ?>>)
    "arr.matmul"(%c, %at, %a) : (memref<?x?xf64, strided<[?, ?], offset: ?>>, memref<?x?xf64, strided<[?, ?], offset: ?>>, memref<?x?xf64, strided<[?, ?], offset: ?>>) -> ()
    %d = "arr.new"(%n, %n) : (i64, i64) -> (memref<?x?xf64, strided<[?, ?], offset: ?>>)
    "arr.add"(%d, %c, %one) : (memref<?x?xf64, strided<[?, ?], offset: ?>>, memref<?x?xf64, strided<[?, ?], offset: ?>>, f64) -> ()
    func.return %d : memref<?x?xf64, strided<[?, ?], offset: ?>>
  }
}

// CHECK-LABEL: func.func @main(
// The fill is a kernel of its own; a is synced, then read by the product.
// CHECK: func.call @[[FILL:[a-z_0-9]+]](
// CHECK: "arr.sync"(%[[A:[0-9a-z_]+]])
// CHECK-NEXT: "arr.matmul"(%[[C:[0-9a-z_]+]], %{{[0-9a-z_]+}}, %[[A]]) : (memref<?x?xf64, strided<[?, ?], offset: ?>>, memref<?x?xf64, strided<[?, ?], offset: ?>>, memref<?x?xf64, strided<[?, ?], offset: ?>>) -> ()
// a's last use was the product: its del comes after it, in the next region, with the add, which reads
// the product's result in a kernel of its own.
// CHECK: "arr.del"(%[[A]])
// CHECK-NEXT: func.call @{{[a-z_0-9]+}}(%{{[0-9]+}}, %[[C]],
// CHECK-NOT: arr.matmul
// CHECK: func.func @[[FILL]](

// EXPAND-LABEL: func.func @main(
// EXPAND-NOT: arr.matmul
// EXPAND: %[[P:[0-9]+]] = "arr.new"(%{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}) : (i64, i64, i64) -> (memref<?x?x?xf64
// EXPAND-NEXT: "arr.mul"(%[[P]], %{{[0-9]+}}, %{{[0-9]+}})
// EXPAND-NEXT: "arr.reduce"(%{{c_[0-9]+|[0-9]+}}, %[[P]]) {kind = "sum", axis = 1 : i64}
// EXPAND-NOT: arr.matmul

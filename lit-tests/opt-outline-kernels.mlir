// outline-kernels turns every array computation into a call of an arr.kernel function.
// RUN: %arrayc-opt %s --pass insert-del-sync --pass outline-kernels | FileCheck %s
module {
  func.func @main(%n: i64) -> (memref<?xf64, strided<[?], offset: ?>>) {
    %one = arith.constant 1.0 : f64
    %a = "arr.new"(%n) : (i64) -> (memref<?xf64, strided<[?], offset: ?>>)
    "arr.fill"(%a, %one) : (memref<?xf64, strided<[?], offset: ?>>, f64) -> ()
    %b = "arr.new"(%n) : (i64) -> (memref<?xf64, strided<[?], offset: ?>>)
    "arr.mul"(%b, %a, %a) : (memref<?xf64, strided<[?], offset: ?>>, memref<?xf64, strided<[?], offset: ?>>, memref<?xf64, strided<[?], offset: ?>>) -> ()
    func.return %b : memref<?xf64, strided<[?], offset: ?>>
  }
}

// The host keeps arr.new/del/sync and calls one kernel per computation.
// CHECK: func.func @main(%[[N:[0-9]+]]: i64)
// CHECK:      %[[A:[0-9]+]] = "arr.new"(%[[N]])
// CHECK-NEXT: func.call @[[FILL:kernel[0-9]+_fill]](%[[A]], %{{[0-9]+}}) : (memref<?xf64, strided<[?], offset: ?>>, f64) -> ()
// CHECK-NEXT: %[[B:[0-9]+]] = "arr.new"(%[[N]])
// CHECK-NEXT: func.call @[[MUL:kernel[0-9]+_mul]](%[[B]], %[[A]])
// CHECK-NEXT: "arr.del"(%[[A]])
// CHECK-NEXT: "arr.sync"(%[[B]])
// CHECK-NEXT: "arr.del"(%[[B]])
// CHECK-NEXT: func.return %[[B]]
// CHECK-NEXT: }
// Kernels: arr.kernel functions holding the computation on their parameters.
// CHECK:      func.func @[[FILL]](%[[O:[0-9]+]]: memref<?xf64, strided<[?], offset: ?>>, %[[V:[0-9]+]]: f64) -> () attributes {arr.kernel} {
// CHECK-NEXT: "arr.fill"(%[[O]], %[[V]])
// CHECK-NEXT: func.return
// CHECK:      func.func @[[MUL]](%[[O2:[0-9]+]]: memref<?xf64, strided<[?], offset: ?>>, %[[I:[0-9]+]]: memref<?xf64, strided<[?], offset: ?>>) -> () attributes {arr.kernel} {
// CHECK-NEXT: "arr.mul"(%[[O2]], %[[I]], %[[I]])
// CHECK-NEXT: func.return

// --list-passes names both passes.
// RUN: %arrayc-opt --list-passes | FileCheck %s --check-prefix=LIST
// LIST: insert-del-sync
// LIST: outline-kernels

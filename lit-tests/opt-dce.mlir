// dce on its own: unused views, sizes and constants go, and so does a base array that only its own
// arr.del still mentions (an array outlining contracted into a kernel); used values stay.
// RUN: %arrayc-opt %s --pass dce | FileCheck %s
module {
  func.func @main(%n: i64) -> (memref<?xf64, strided<[?], offset: ?>>) {
    %one = arith.constant 1.0 : f64
    %unused = arith.constant 2.0 : f64
    %dead = "arr.new"(%n) : (i64) -> (memref<?xf64, strided<[?], offset: ?>>)
    %b = "arr.new"(%n) : (i64) -> (memref<?xf64, strided<[?], offset: ?>>)
    "arr.fill"(%b, %one) : (memref<?xf64, strided<[?], offset: ?>>, f64) -> ()
    "arr.del"(%dead) : (memref<?xf64, strided<[?], offset: ?>>) -> ()
    "arr.sync"(%b) : (memref<?xf64, strided<[?], offset: ?>>) -> ()
    func.return %b : memref<?xf64, strided<[?], offset: ?>>
  }
}
// CHECK:      func.func @main(%[[N:[0-9]+]]: i64)
// CHECK-NEXT: %[[ONE:[0-9]+]] = arith.constant 1.0
// CHECK-NEXT: %[[B:[0-9]+]] = "arr.new"(%[[N]])
// CHECK-NEXT: "arr.fill"(%[[B]], %[[ONE]])
// CHECK-NEXT: "arr.sync"(%[[B]])
// CHECK-NEXT: func.return %[[B]]

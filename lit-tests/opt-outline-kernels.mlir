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

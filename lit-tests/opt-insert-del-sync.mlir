// A hand-written arr module without del/sync: insert-del-sync adds arr.sync before the host reads
// an array (arr.load, func.return) and arr.del after each base array's last use.
// RUN: %arrayc-opt %s --pass insert-del-sync | FileCheck %s
module {
  func.func @main(%n: i64) -> (memref<?xf64, strided<[?], offset: ?>>, f64) {
    %one = arith.constant 1.0 : f64
    %a = "arr.new"(%n) : (i64) -> (memref<?xf64, strided<[?], offset: ?>>)
    "arr.fill"(%a, %one) : (memref<?xf64, strided<[?], offset: ?>>, f64) -> ()
    %b = "arr.new"(%n) : (i64) -> (memref<?xf64, strided<[?], offset: ?>>)
    "arr.add"(%b, %a, %one) : (memref<?xf64, strided<[?], offset: ?>>, memref<?xf64, strided<[?], offset: ?>>, f64) -> ()
    %s = "arr.new"() : () -> (memref<f64, strided<[], offset: ?>>)
    "arr.reduce"(%s, %b) {kind = "sum"} : (memref<f64, strided<[], offset: ?>>, memref<?xf64, strided<[?], offset: ?>>) -> ()
    %x = "arr.load"(%s) : (memref<f64, strided<[], offset: ?>>) -> (f64)
    func.return %b, %x : memref<?xf64, strided<[?], offset: ?>>, f64
  }
}

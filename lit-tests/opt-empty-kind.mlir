// An `arr.reduce` whose `kind` is the empty string is an unsupported operation, not a panic in
// melior (its StringRef::as_str indexes the last byte of the string; issue 34).
// RUN: not %arrayc-opt %s 2>&1 | FileCheck %s
// CHECK: error: `{{.*}}opt-empty-kind.mlir`: v.arr:4:5: unsupported operation `arr.reduce`: `kind` must be "sum", "prod", "min", "max", "argmin" or "argmax"
// CHECK-NOT: panicked
module {
  func.func @main() -> (f64) {
    %0 = arith.constant 8 : i64 loc("v.arr":2:5)
    %a_1 = "arr.new"(%0) : (i64) -> (memref<?xf64, strided<[?], offset: ?>>) loc("v.arr":2:5)
    %2 = arith.constant 0.0 : f64 loc("v.arr":2:5)
    "arr.fill"(%a_1, %2) : (memref<?xf64, strided<[?], offset: ?>>, f64) -> () loc("v.arr":2:5)
    %3 = arith.constant 1 : i64 loc("v.arr":3:5)
    %4 = arith.constant 3 : i64 loc("v.arr":3:5)
    %b_5 = "arr.view"(%a_1, %3, %4) {index = array<i64: 11>} : (memref<?xf64, strided<[?], offset: ?>>, i64, i64) -> (memref<?xf64, strided<[?], offset: ?>>) loc("v.arr":3:5)
    %6 = "arr.new"() : () -> (memref<f64, strided<[], offset: ?>>) loc("v.arr":4:5)
    "arr.reduce"(%6, %b_5) {kind = ""} : (memref<f64, strided<[], offset: ?>>, memref<?xf64, strided<[?], offset: ?>>) -> () loc("v.arr":4:5)
    "arr.del"(%a_1) : (memref<?xf64, strided<[?], offset: ?>>) -> () loc("v.arr":4:5)
    "arr.sync"(%6) : (memref<f64, strided<[], offset: ?>>) -> () loc("v.arr":4:5)
    %7 = "arr.load"(%6) : (memref<f64, strided<[], offset: ?>>) -> (f64) loc("v.arr":4:5)
    "arr.del"(%6) : (memref<f64, strided<[], offset: ?>>) -> () loc("v.arr":4:5)
    func.return %7 : f64 loc("v.arr":4:5)
  }
}

// Modules that MLIR's verifier accepts but that break a rule of the arr dialect stated in
// dialect/README.md: arrayc-opt rejects each with the function, the operation and the rule, before
// any pass runs (these once panicked inside the fusion pass). Each RUN line cuts one module out
// of this file with sed.
// RUN: sed -n '/^\/\/ DIM-BEGIN/,/^\/\/ DIM-END/p' %s | not %arrayc-opt --pass outline-kernels - 2>&1 | FileCheck %s --check-prefix=DIM
// RUN: sed -n '/^\/\/ DIAG-BEGIN/,/^\/\/ DIAG-END/p' %s | not %arrayc-opt --pass outline-kernels - 2>&1 | FileCheck %s --check-prefix=DIAG
// RUN: sed -n '/^\/\/ PERM-BEGIN/,/^\/\/ PERM-END/p' %s | not %arrayc-opt - 2>&1 | FileCheck %s --check-prefix=PERM
// RUN: sed -n '/^\/\/ VIEW-BEGIN/,/^\/\/ VIEW-END/p' %s | not %arrayc-opt - 2>&1 | FileCheck %s --check-prefix=VIEW
// RUN: sed -n '/^\/\/ RED-BEGIN/,/^\/\/ RED-END/p' %s | not %arrayc-opt - 2>&1 | FileCheck %s --check-prefix=RED
// RUN: sed -n '/^\/\/ SCAN-BEGIN/,/^\/\/ SCAN-END/p' %s | not %arrayc-opt - 2>&1 | FileCheck %s --check-prefix=SCAN
// RUN: sed -n '/^\/\/ CALL-BEGIN/,/^\/\/ CALL-END/p' %s | not %arrayc-opt - 2>&1 | FileCheck %s --check-prefix=CALL
// RUN: sed -n '/^\/\/ RANK-BEGIN/,/^\/\/ RANK-END/p' %s | not %arrayc-opt - 2>&1 | FileCheck %s --check-prefix=RANK
// RUN: sed -n '/^\/\/ INT-BEGIN/,/^\/\/ INT-END/p' %s | not %arrayc-opt - 2>&1 | FileCheck %s --check-prefix=INT

// DIM-BEGIN
module {
  func.func @f(%n: i64) -> i64 {
    %a = "arr.new"(%n) : (i64) -> (memref<?xf64, strided<[?], offset: ?>>)
    %d = "arr.dim"(%a) {axis = 5 : i64} : (memref<?xf64, strided<[?], offset: ?>>) -> (i64)
    return %d : i64
  }
}
// DIM-END
// DIM: error: `<stdin>`: invalid arr module: @f: arr.dim: axis 5 of a 1-d source

// DIAG-BEGIN
module {
  func.func @f(%n: i64) {
    %a = "arr.new"(%n) : (i64) -> (memref<?xf64, strided<[?], offset: ?>>)
    %d = "arr.diagonal"(%a) : (memref<?xf64, strided<[?], offset: ?>>) -> (memref<?xf64, strided<[?], offset: ?>>)
    return
  }
}
// DIAG-END
// DIAG: invalid arr module: @f: arr.diagonal: takes a 2-d source to a 1-d result

// PERM-BEGIN
module {
  func.func @f(%n: i64) {
    %a = "arr.new"(%n) : (i64) -> (memref<?xf64, strided<[?], offset: ?>>)
    %t = "arr.transpose"(%a) {perm = array<i64: 1, 0>} : (memref<?xf64, strided<[?], offset: ?>>) -> (memref<?xf64, strided<[?], offset: ?>>)
    return
  }
}
// PERM-END
// PERM: invalid arr module: @f: arr.transpose: `perm` must be a permutation of 0..1, the source's dimensions

// VIEW-BEGIN
module {
  func.func @f(%n: i64) {
    %a = "arr.new"(%n, %n) : (i64, i64) -> (memref<?x?xf64, strided<[?, ?], offset: ?>>)
    %v = "arr.view"(%a) {index = array<i64: 0>} : (memref<?x?xf64, strided<[?, ?], offset: ?>>) -> (memref<?xf64, strided<[?], offset: ?>>)
    return
  }
}
// VIEW-END
// VIEW: invalid arr module: @f: arr.view: 1 index entries cover the dimensions of a 2-d source

// RED-BEGIN
module {
  func.func @f(%n: i64) {
    %a = "arr.new"(%n) : (i64) -> (memref<?xf64, strided<[?], offset: ?>>)
    %s = "arr.new"() : () -> (memref<f64, strided<[], offset: ?>>)
    "arr.reduce"(%s, %a) {kind = "sum", axis = 3 : i64} : (memref<f64, strided<[], offset: ?>>, memref<?xf64, strided<[?], offset: ?>>) -> ()
    return
  }
}
// RED-END
// RED: invalid arr module: @f: arr.reduce: reduces axis 3 of a 1-d input into a 0-d out

// CALL-BEGIN
module {
  func.func @g(%x: f64) -> f64 {
    return %x : f64
  }
  func.func @f(%n: i64) -> f64 {
    %r = func.call @g(%n) : (i64) -> f64
    return %r : f64
  }
}
// CALL-END
// CALL: error: `<stdin>`: MLIR could not parse the module

// SCAN-BEGIN
module {
  func.func @f(%n: i64) {
    %a = "arr.new"(%n) : (i64) -> (memref<?xf64, strided<[?], offset: ?>>)
    %b = "arr.new"(%n) : (i64) -> (memref<?xf64, strided<[?], offset: ?>>)
    "arr.scan"(%b, %a) {kind = "sum", axis = 1 : i64} : (memref<?xf64, strided<[?], offset: ?>>, memref<?xf64, strided<[?], offset: ?>>) -> ()
    return
  }
}
// SCAN-END
// SCAN: error: `<stdin>`: invalid arr module: @f: arr.scan: scans axis 1 of a 1-d input into a 1-d out

// arr.matmul takes 2-d views of one float dtype.
// RANK-BEGIN
module {
  func.func @f(%n: i64) {
    %a = "arr.new"(%n) : (i64) -> (memref<?xf64, strided<[?], offset: ?>>)
    %c = "arr.new"(%n, %n) : (i64, i64) -> (memref<?x?xf64, strided<[?, ?], offset: ?>>)
    "arr.matmul"(%c, %a, %a) : (memref<?x?xf64, strided<[?, ?], offset: ?>>, memref<?xf64, strided<[?], offset: ?>>, memref<?xf64, strided<[?], offset: ?>>) -> ()
    return
  }
}
// RANK-END
// RANK: error: `<stdin>`: invalid arr module: @f: arr.matmul: takes 2-d views only

// INT-BEGIN
module {
  func.func @f(%n: i64) {
    %a = "arr.new"(%n, %n) : (i64, i64) -> (memref<?x?xi64, strided<[?, ?], offset: ?>>)
    "arr.matmul"(%a, %a, %a) : (memref<?x?xi64, strided<[?, ?], offset: ?>>, memref<?x?xi64, strided<[?, ?], offset: ?>>, memref<?x?xi64, strided<[?, ?], offset: ?>>) -> ()
    return
  }
}
// INT-END
// INT: error: `<stdin>`: invalid arr module: @f: arr.matmul: takes `f64` or `f32` views of one dtype

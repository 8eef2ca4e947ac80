// arrayc-opt's errors: an unknown pass (with the list of passes), a missing file, MLIR's own
// diagnostics for text that does not parse, an operation arrayc's IR does not have, and a NUL byte
// (once a panic in melior).
// RUN: not %arrayc-opt %s --pass no-such-pass 2>&1 | FileCheck %s --check-prefix=PASS
// RUN: not %arrayc-opt %s.missing 2>&1 | FileCheck %s --check-prefix=FILE
// RUN: echo 'module { func.func @f( }' | not %arrayc-opt - 2>&1 | FileCheck %s --check-prefix=PARSE
// RUN: not %arrayc-opt %s 2>&1 | FileCheck %s --check-prefix=UNSUP
// RUN: printf 'module {}\0' | not %arrayc-opt - 2>&1 | FileCheck %s --check-prefix=NUL
module {
  func.func @main(%m: memref<?xf64>) -> (f64) {
    %c = arith.constant 0 : index
    %x = memref.load %m[%c] : memref<?xf64>
    func.return %x : f64
  }
}

// PASS: error: unknown pass `no-such-pass`; available passes:
// PASS-NEXT: lower-ast
// PASS-NEXT: expand-matmul
// PASS-NEXT: expand-sort
// PASS-NEXT: expand-arg-reductions
// PASS-NEXT: fold-filters
// PASS-NEXT: sink-loads
// PASS-NEXT: distribute
// PASS-NEXT: insert-del-sync
// PASS-NEXT: wsp-fusion
// PASS-NEXT: outline-kernels
// PASS-NEXT: dce
// FILE: error: cannot read `{{.*}}opt-errors.mlir.missing`: No such file or directory
// PARSE: error: `<stdin>`: MLIR could not parse the module:
// PARSE-NEXT: loc("-":1:23) expected non-function type
// UNSUP: error: `{{.*}}opt-errors.mlir`: unsupported type `index` in `arith.constant`
// NUL: error: `<stdin>`: MLIR could not parse the module:
// NUL-NEXT: line 1: a NUL byte (byte offset 9); MLIR text cannot contain one

// arrayc-opt's errors: an unknown pass (with the list of passes), a missing file, MLIR's own
// diagnostics for text that does not parse, and an operation arrayc's IR does not have.
// RUN: not %arrayc-opt %s --pass no-such-pass 2>&1 | FileCheck %s --check-prefix=PASS
// RUN: not %arrayc-opt %s.missing 2>&1 | FileCheck %s --check-prefix=FILE
// RUN: echo 'module { func.func @f( }' | not %arrayc-opt - 2>&1 | FileCheck %s --check-prefix=PARSE
// RUN: not %arrayc-opt %s 2>&1 | FileCheck %s --check-prefix=UNSUP
module {
  func.func @main(%m: memref<?xf64>) -> (f64) {
    %c = arith.constant 0 : index
    %x = memref.load %m[%c] : memref<?xf64>
    func.return %x : f64
  }
}

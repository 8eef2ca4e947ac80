// outline-kernels turns every block of the fusion partition into a call of an arr.kernel function.
// RUN: %arrayc-opt %s --pass insert-del-sync --pass wsp-fusion --pass outline-kernels | FileCheck %s
// RUN: %arrayc-opt %s --pass insert-del-sync --pass wsp-fusion --pass outline-kernels --pass dce | FileCheck %s --check-prefix=DCE
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

// The optimal partition fuses the fill and the multiplication into one kernel; `a` is created and
// deleted inside that block and never synced, so it is contracted: an arr.contracted value in the
// kernel (one scalar per iteration), no parameter, no memory.
// CHECK: func.func @main(%[[N:[0-9]+]]: i64)
// Without dce the contracted array's arr.new is still in the host, unused.
// CHECK:      "arr.new"(%[[N]])
// CHECK-NEXT: %[[B:[0-9]+]] = "arr.new"(%[[N]])
// CHECK-NEXT: func.call @[[K:kernel[0-9]+_fill_mul]](%{{[0-9]+}}, %[[B]]) : (f64, memref<?xf64, strided<[?], offset: ?>>) -> ()
// CHECK-NEXT: "arr.sync"(%[[B]])
// CHECK-NEXT: "arr.del"(%[[B]])
// CHECK-NEXT: func.return %[[B]]
// The kernel records the inner stride the fusion symbols know for each argument (-1: a scalar or
// unknown; 1: the fresh row-major array b), for the code generator's vectorisable loop version.
// CHECK:      func.func @[[K]](%[[V:[0-9]+]]: f64, %[[O:[0-9]+]]: memref<?xf64, strided<[?], offset: ?>>) -> () attributes {arr.inner_strides = array<i64: -1, 1>, arr.kernel} {
// CHECK-NEXT: %[[T:[0-9]+]] = "arr.contracted"() : () -> (memref<?xf64, strided<[?], offset: ?>>)
// CHECK-NEXT: "arr.fill"(%[[T]], %[[V]])
// CHECK-NEXT: "arr.mul"(%[[O]], %[[T]], %[[T]])
// CHECK-NEXT: func.return
// dce removes it.
// DCE-LABEL: func.func @main(
// DCE-NEXT:  arith.constant 1.0
// DCE-NEXT:  "arr.new"
// DCE-NEXT:  func.call
// DCE-NOT:   "arr.new"
// DCE:       func.return

// RUN: %arrayc-opt --list-passes | FileCheck %s --check-prefix=LIST
// LIST: insert-del-sync
// LIST: outline-kernels

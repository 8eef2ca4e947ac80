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

// CHECK: func.func @main(%[[N:[0-9]+]]: i64)
// CHECK:      %[[A:[0-9]+]] = "arr.new"(%[[N]])
// CHECK-NEXT: "arr.fill"(%[[A]],
// CHECK-NEXT: %[[B:[0-9]+]] = "arr.new"(%[[N]])
// CHECK-NEXT: "arr.add"(%[[B]], %[[A]],
// a is dead after the add.
// CHECK-NEXT: "arr.del"(%[[A]]) : (memref<?xf64, strided<[?], offset: ?>>) -> ()
// CHECK-NEXT: %[[S:[0-9]+]] = "arr.new"() : () -> (memref<f64, strided<[], offset: ?>>)
// CHECK-NEXT: "arr.reduce"(%[[S]], %[[B]]) {kind = "sum"}
// The host reads s: SYNC before the load, DEL after it.
// CHECK-NEXT: "arr.sync"(%[[S]]) : (memref<f64, strided<[], offset: ?>>) -> ()
// CHECK-NEXT: %[[X:[0-9]+]] = "arr.load"(%[[S]])
// CHECK-NEXT: "arr.del"(%[[S]])
// b is returned: SYNC, then DEL before the return.
// CHECK-NEXT: "arr.sync"(%[[B]])
// CHECK-NEXT: "arr.del"(%[[B]])
// CHECK-NEXT: func.return %[[B]], %[[X]] : memref<?xf64, strided<[?], offset: ?>>, f64

// Without --pass the module is printed back unchanged (up to value names).
// RUN: %arrayc-opt %s | FileCheck %s --check-prefix=NOPASS
// NOPASS-NOT: arr.del
// NOPASS-NOT: arr.sync
// NOPASS: func.return

// Reading from standard input.
// RUN: cat %s | %arrayc-opt - --pass insert-del-sync | FileCheck %s --check-prefix=STDIN
// STDIN-COUNT-3: "arr.del"
// STDIN-NOT: "arr.del"

// Round trip through arrayc: the arr stage of a program imports and verifies again.
// RUN: %arrayc emit --stage=arr %S/arr-fig3.arr > %t.mlir
// RUN: %arrayc-opt %t.mlir | FileCheck %s --check-prefix=FIG3
// RUN: %arrayc-opt %t.mlir | grep -c '"arr.del"' | FileCheck %s --check-prefix=FIG3DELS
// FIG3DELS: 5
// FIG3: "arr.mul"
// FIG3-NEXT: "arr.del"
// FIG3-NEXT: "arr.del"
// FIG3: "arr.sync"
// FIG3-NEXT: "arr.del"
// FIG3-NEXT: func.return

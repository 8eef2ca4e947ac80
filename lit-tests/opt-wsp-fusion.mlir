// wsp-fusion on its own: it partitions the region (here after insert-del-sync) and records the
// blocks as arr.block attributes, with the region reordered into host operations and arr.new
// first, then the blocks; an arr.new carries the block its array is contracted in.
// RUN: %arrayc-opt %s --pass wsp-fusion | FileCheck %s
// RUN: %arrayc-opt %s --pass wsp-fusion --fuse singleton | FileCheck %s --check-prefix=SINGLE
// RUN: %arrayc-opt %s --pass wsp-fusion --fuse linear --cost max-locality | FileCheck %s
// RUN: %arrayc-opt %s --pass wsp-fusion --cost robinson | FileCheck %s
// The pass's options are checked like the driver's.
// RUN: not %arrayc-opt %s --pass wsp-fusion --fuse no-such 2>&1 | FileCheck %s --check-prefix=BADFUSE
module {
  func.func @main(%n: i64) -> (memref<?xf64, strided<[?], offset: ?>>) {
    %one = arith.constant 1.0 : f64
    %a = "arr.new"(%n) : (i64) -> (memref<?xf64, strided<[?], offset: ?>>)
    "arr.fill"(%a, %one) : (memref<?xf64, strided<[?], offset: ?>>, f64) -> ()
    %b = "arr.new"(%n) : (i64) -> (memref<?xf64, strided<[?], offset: ?>>)
    "arr.mul"(%b, %a, %a) : (memref<?xf64, strided<[?], offset: ?>>, memref<?xf64, strided<[?], offset: ?>>, memref<?xf64, strided<[?], offset: ?>>) -> ()
    "arr.del"(%a) : (memref<?xf64, strided<[?], offset: ?>>) -> ()
    "arr.sync"(%b) : (memref<?xf64, strided<[?], offset: ?>>) -> ()
    func.return %b : memref<?xf64, strided<[?], offset: ?>>
  }
}

// One block: the fill, the multiplication and a's del; a is contracted in it. b's sync follows in a
// block of its own.
// CHECK:      %[[A:[0-9]+]] = "arr.new"(%{{[0-9]+}}) {arr.block = [[B:[0-9]+]] : i64}
// CHECK-NEXT: %[[R:[0-9]+]] = "arr.new"(%{{[0-9]+}}) :
// CHECK-NEXT: "arr.fill"(%[[A]], %{{[0-9]+}}) {arr.block = [[B]] : i64}
// CHECK-NEXT: "arr.mul"(%[[R]], %[[A]], %[[A]]) {arr.block = [[B]] : i64}
// CHECK-NEXT: "arr.del"(%[[A]]) {arr.block = [[B]] : i64}
// CHECK-NEXT: "arr.sync"(%[[R]]) {arr.block = {{[0-9]+}} : i64}
// CHECK-NEXT: func.return

// singleton: every operation its own block, nothing contracted.
// SINGLE:      "arr.new"(%{{[0-9]+}}) :
// SINGLE-NEXT: "arr.new"(%{{[0-9]+}}) :
// SINGLE-NEXT: "arr.fill"({{.*}}) {arr.block = [[F:[0-9]+]] : i64}
// SINGLE-NOT:  {arr.block = [[F]] : i64}
// SINGLE:      "arr.mul"
// SINGLE:      func.return

// BADFUSE: error: invalid value 'no-such' for '--fuse <FUSE>'

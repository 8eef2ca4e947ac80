// arr.sort: a hand-written module that sorts a filled array along axis 1 and adds to the result;
// insert-del-sync syncs the input's base array before the sort (a host read), the fusion and
// outline passes leave the sort in the host function (a region ends at it), and the printer keeps
// its attributes. Then the verifier's rules: the output's dtype and the axis.
// RUN: sed -n '/^\/\/ MAIN-BEGIN/,/^\/\/ MAIN-END/p' %s | %arrayc-opt - --pass insert-del-sync --pass wsp-fusion --pass outline-kernels --pass dce | FileCheck %s
// RUN: sed -n '/^\/\/ DTYPE-BEGIN/,/^\/\/ DTYPE-END/p' %s | not %arrayc-opt - 2>&1 | FileCheck %s --check-prefix=DTYPE
// RUN: sed -n '/^\/\/ AXIS-BEGIN/,/^\/\/ AXIS-END/p' %s | not %arrayc-opt - 2>&1 | FileCheck %s --check-prefix=AXIS
// MAIN-BEGIN
module {
  func.func @main(%n: i64, %k: i64) -> memref<?x?xi64, strided<[?, ?], offset: ?>> {
    %one = arith.constant 1.0 : f64
    %a = "arr.new"(%n, %k) : (i64, i64) -> (memref<?x?xf64, strided<[?, ?], offset: ?>>)
    "arr.fill"(%a, %one) : (memref<?x?xf64, strided<[?, ?], offset: ?>>, f64) -> ()
    %s = "arr.new"(%n, %k) : (i64, i64) -> (memref<?x?xi64, strided<[?, ?], offset: ?>>)
    "arr.sort"(%s, %a) {axis = 1 : i64, indices = true} : (memref<?x?xi64, strided<[?, ?], offset: ?>>, memref<?x?xf64, strided<[?, ?], offset: ?>>) -> ()
    %c1 = arith.constant 1 : i64
    %d = "arr.new"(%n, %k) : (i64, i64) -> (memref<?x?xi64, strided<[?, ?], offset: ?>>)
    "arr.add"(%d, %s, %c1) : (memref<?x?xi64, strided<[?, ?], offset: ?>>, memref<?x?xi64, strided<[?, ?], offset: ?>>, i64) -> ()
    func.return %d : memref<?x?xi64, strided<[?, ?], offset: ?>>
  }
}
// MAIN-END

// CHECK-LABEL: func.func @main(
// CHECK: func.call @[[FILL:[a-z_0-9]+]](
// CHECK: "arr.sync"(%[[A:[0-9a-z_]+]])
// CHECK-NEXT: "arr.sort"(%[[S:[0-9a-z_]+]], %[[A]]) {axis = 1 : i64, indices = true}
// CHECK: func.call @{{[a-z_0-9]+}}(%{{[0-9]+}}, %[[S]],
// CHECK-NOT: arr.sort
// CHECK: func.func @[[FILL]](

// DTYPE-BEGIN
module {
  func.func @f(%n: i64) {
    %a = "arr.new"(%n) : (i64) -> (memref<?xf64, strided<[?], offset: ?>>)
    %s = "arr.new"(%n) : (i64) -> (memref<?xf64, strided<[?], offset: ?>>)
    "arr.sort"(%s, %a) {axis = 0 : i64, indices = true} : (memref<?xf64, strided<[?], offset: ?>>, memref<?xf64, strided<[?], offset: ?>>) -> ()
    return
  }
}
// DTYPE-END
// DTYPE: error: `<stdin>`: invalid arr module: @f: arr.sort: writes `i64` indices, or values of its input's dtype

// AXIS-BEGIN
module {
  func.func @f(%n: i64) {
    %a = "arr.new"(%n) : (i64) -> (memref<?xf64, strided<[?], offset: ?>>)
    %s = "arr.new"(%n) : (i64) -> (memref<?xf64, strided<[?], offset: ?>>)
    "arr.sort"(%s, %a) {axis = 1 : i64, indices = false} : (memref<?xf64, strided<[?], offset: ?>>, memref<?xf64, strided<[?], offset: ?>>) -> ()
    return
  }
}
// AXIS-END
// AXIS: error: `<stdin>`: invalid arr module: @f: arr.sort: takes views of one rank with an axis below it

// arr.linalg: a hand-written module that solves with a filled matrix and adds to the result;
// insert-del-sync syncs the matrix's and the right-hand side's base arrays before the solve (host
// reads), fusion and outlining leave it in the host function (a region ends at it), and the
// printer keeps its `func` attribute; a `cholesky`, an `eigvalsh` and an `svdvals` (one operand
// besides `out`), a `pinv` (with its 0-d `rtol`) and the packed `eigh`, `qr`, `svd` round-trip too. Then the verifier's rules: ranks
// of `det`, `svdvals` and `pinv`, and a known `func`.
// RUN: sed -n '/^\/\/ MAIN-BEGIN/,/^\/\/ MAIN-END/p' %s | %arrayc-opt - --pass insert-del-sync --pass wsp-fusion --pass outline-kernels --pass dce | FileCheck %s
// RUN: sed -n '/^\/\/ RANK-BEGIN/,/^\/\/ RANK-END/p' %s | not %arrayc-opt - 2>&1 | FileCheck %s --check-prefix=RANK
// RUN: sed -n '/^\/\/ FACT-BEGIN/,/^\/\/ FACT-END/p' %s | %arrayc-opt - | FileCheck %s --check-prefix=FACT
// RUN: sed -n '/^\/\/ SVRANK-BEGIN/,/^\/\/ SVRANK-END/p' %s | not %arrayc-opt - 2>&1 | FileCheck %s --check-prefix=SVRANK
// RUN: sed -n '/^\/\/ PINVRANK-BEGIN/,/^\/\/ PINVRANK-END/p' %s | not %arrayc-opt - 2>&1 | FileCheck %s --check-prefix=PINVRANK
// RUN: sed -n '/^\/\/ FUNC-BEGIN/,/^\/\/ FUNC-END/p' %s | not %arrayc-opt - 2>&1 | FileCheck %s --check-prefix=FUNC
// MAIN-BEGIN
module {
  func.func @main(%n: i64) -> memref<?xf64, strided<[?], offset: ?>> {
    %one = arith.constant 1.0 : f64
    %a = "arr.new"(%n, %n) : (i64, i64) -> (memref<?x?xf64, strided<[?, ?], offset: ?>>)
    "arr.fill"(%a, %one) : (memref<?x?xf64, strided<[?, ?], offset: ?>>, f64) -> ()
    %b = "arr.new"(%n) : (i64) -> (memref<?xf64, strided<[?], offset: ?>>)
    "arr.fill"(%b, %one) : (memref<?xf64, strided<[?], offset: ?>>, f64) -> ()
    %x = "arr.new"(%n) : (i64) -> (memref<?xf64, strided<[?], offset: ?>>)
    "arr.linalg"(%x, %a, %b) {func = "solve"} : (memref<?xf64, strided<[?], offset: ?>>, memref<?x?xf64, strided<[?, ?], offset: ?>>, memref<?xf64, strided<[?], offset: ?>>) -> ()
    %d = "arr.new"(%n) : (i64) -> (memref<?xf64, strided<[?], offset: ?>>)
    "arr.add"(%d, %x, %one) : (memref<?xf64, strided<[?], offset: ?>>, memref<?xf64, strided<[?], offset: ?>>, f64) -> ()
    func.return %d : memref<?xf64, strided<[?], offset: ?>>
  }
}
// MAIN-END

// CHECK-LABEL: func.func @main(
// CHECK-DAG: "arr.sync"(%[[A:[0-9a-z_]+]])
// CHECK-DAG: "arr.sync"(%[[B:[0-9a-z_]+]])
// CHECK: "arr.linalg"(%[[X:[0-9a-z_]+]], %[[A]], %[[B]]) {func = "solve"}
// CHECK: func.call @{{[a-z_0-9]+}}(%{{[0-9]+}}, %[[X]],
// CHECK-NOT: arr.linalg

// RANK-BEGIN
module {
  func.func @f(%n: i64) {
    %a = "arr.new"(%n, %n) : (i64, i64) -> (memref<?x?xf64, strided<[?, ?], offset: ?>>)
    %d = "arr.new"(%n) : (i64) -> (memref<?xf64, strided<[?], offset: ?>>)
    "arr.linalg"(%d, %a) {func = "det"} : (memref<?xf64, strided<[?], offset: ?>>, memref<?x?xf64, strided<[?, ?], offset: ?>>) -> ()
    return
  }
}
// RANK-END
// RANK: error: `<stdin>`: invalid arr module: @f: arr.linalg: `det` takes a 2-d `a` and a 0-d `out`, no `b`

// FACT-BEGIN
module {
  func.func @f(%n: i64, %m: i64, %k: i64) {
    %a = "arr.new"(%n, %n) : (i64, i64) -> (memref<?x?xf32, strided<[?, ?], offset: ?>>)
    %l = "arr.new"(%n, %n) : (i64, i64) -> (memref<?x?xf32, strided<[?, ?], offset: ?>>)
    "arr.linalg"(%l, %a) {func = "cholesky"} : (memref<?x?xf32, strided<[?, ?], offset: ?>>, memref<?x?xf32, strided<[?, ?], offset: ?>>) -> ()
    %w = "arr.new"(%n) : (i64) -> (memref<?xf32, strided<[?], offset: ?>>)
    "arr.linalg"(%w, %a) {func = "eigvalsh"} : (memref<?xf32, strided<[?], offset: ?>>, memref<?x?xf32, strided<[?, ?], offset: ?>>) -> ()
    %r = "arr.new"(%n, %m) : (i64, i64) -> (memref<?x?xf64, strided<[?, ?], offset: ?>>)
    %s = "arr.new"(%k) : (i64) -> (memref<?xf64, strided<[?], offset: ?>>)
    "arr.linalg"(%s, %r) {func = "svdvals"} : (memref<?xf64, strided<[?], offset: ?>>, memref<?x?xf64, strided<[?, ?], offset: ?>>) -> ()
    %t = "arr.new"() : () -> (memref<f64, strided<[], offset: ?>>)
    %p = "arr.new"(%m, %n) : (i64, i64) -> (memref<?x?xf64, strided<[?, ?], offset: ?>>)
    "arr.linalg"(%p, %r, %t) {func = "pinv"} : (memref<?x?xf64, strided<[?, ?], offset: ?>>, memref<?x?xf64, strided<[?, ?], offset: ?>>, memref<f64, strided<[], offset: ?>>) -> ()
    %e = "arr.new"(%n, %m) : (i64, i64) -> (memref<?x?xf64, strided<[?, ?], offset: ?>>)
    "arr.linalg"(%e, %r) {func = "eigh"} : (memref<?x?xf64, strided<[?, ?], offset: ?>>, memref<?x?xf64, strided<[?, ?], offset: ?>>) -> ()
    "arr.linalg"(%e, %r) {func = "qr"} : (memref<?x?xf64, strided<[?, ?], offset: ?>>, memref<?x?xf64, strided<[?, ?], offset: ?>>) -> ()
    "arr.linalg"(%e, %r) {func = "svd"} : (memref<?x?xf64, strided<[?, ?], offset: ?>>, memref<?x?xf64, strided<[?, ?], offset: ?>>) -> ()
    return
  }
}
// FACT-END
// FACT: "arr.linalg"(%{{[0-9a-z_]+}}, %{{[0-9a-z_]+}}) {func = "cholesky"} : (memref<?x?xf32
// FACT: "arr.linalg"(%{{[0-9a-z_]+}}, %{{[0-9a-z_]+}}) {func = "eigvalsh"} : (memref<?xf32
// FACT: "arr.linalg"(%{{[0-9a-z_]+}}, %{{[0-9a-z_]+}}) {func = "svdvals"} : (memref<?xf64
// FACT: "arr.linalg"(%{{[0-9a-z_]+}}, %{{[0-9a-z_]+}}, %{{[0-9a-z_]+}}) {func = "pinv"} : (memref<?x?xf64
// FACT: "arr.linalg"(%{{[0-9a-z_]+}}, %{{[0-9a-z_]+}}) {func = "eigh"} : (memref<?x?xf64
// FACT: "arr.linalg"(%{{[0-9a-z_]+}}, %{{[0-9a-z_]+}}) {func = "qr"} : (memref<?x?xf64
// FACT: "arr.linalg"(%{{[0-9a-z_]+}}, %{{[0-9a-z_]+}}) {func = "svd"} : (memref<?x?xf64

// SVRANK-BEGIN
module {
  func.func @f(%n: i64) {
    %a = "arr.new"(%n, %n) : (i64, i64) -> (memref<?x?xf64, strided<[?, ?], offset: ?>>)
    %s = "arr.new"(%n, %n) : (i64, i64) -> (memref<?x?xf64, strided<[?, ?], offset: ?>>)
    "arr.linalg"(%s, %a) {func = "svdvals"} : (memref<?x?xf64, strided<[?, ?], offset: ?>>, memref<?x?xf64, strided<[?, ?], offset: ?>>) -> ()
    return
  }
}
// SVRANK-END
// SVRANK: error: `<stdin>`: invalid arr module: @f: arr.linalg: `svdvals` takes a 2-d `a` and a 1-d `out`, no `b`

// PINVRANK-BEGIN
module {
  func.func @f(%n: i64) {
    %a = "arr.new"(%n, %n) : (i64, i64) -> (memref<?x?xf64, strided<[?, ?], offset: ?>>)
    %p = "arr.new"(%n, %n) : (i64, i64) -> (memref<?x?xf64, strided<[?, ?], offset: ?>>)
    "arr.linalg"(%p, %a) {func = "pinv"} : (memref<?x?xf64, strided<[?, ?], offset: ?>>, memref<?x?xf64, strided<[?, ?], offset: ?>>) -> ()
    return
  }
}
// PINVRANK-END
// PINVRANK: error: {{.*}}`solve` and `pinv` take (out, a, b), the other functions (out, a)

// FUNC-BEGIN
module {
  func.func @f(%n: i64) {
    %a = "arr.new"(%n, %n) : (i64, i64) -> (memref<?x?xf64, strided<[?, ?], offset: ?>>)
    %d = "arr.new"() : () -> (memref<f64, strided<[], offset: ?>>)
    "arr.linalg"(%d, %a) {func = "eig"} : (memref<f64, strided<[], offset: ?>>, memref<?x?xf64, strided<[?, ?], offset: ?>>) -> ()
    return
  }
}
// FUNC-END
// FUNC: error: {{.*}}`func` must name a `LinAlgFn` ("solve", "det", ...)

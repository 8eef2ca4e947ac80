# lower-ast on its own, from source: one arr operation per array operation, destination-passing,
# no arr.del/arr.sync yet (insert-del-sync adds them), no arr.block (wsp-fusion adds them).
# RUN: %arrayc-opt %s --pass lower-ast | FileCheck %s
# lower-ast reads source text: anywhere but first it is an error.
# RUN: not %arrayc-opt %s --pass dce --pass lower-ast 2>&1 | FileCheck %s --check-prefix=ORDER
fn main(n: i64 = 8) -> f64[n] {
    let a = ones(n);
    return a * a;
}
# CHECK:      func.func @main(%n_0: i64) -> (memref<?xf64, strided<[?], offset: ?>>)
# CHECK:      %[[A:a_[0-9]+]] = "arr.new"(%n_0)
# CHECK:      "arr.fill"(%[[A]], %{{[0-9]+}}) : {{.*}} loc("{{.*}}opt-lower-ast.arr":7:5)
# CHECK:      "arr.mul"(%{{[0-9]+}}, %[[A]], %[[A]]) : {{.*}} loc("{{.*}}opt-lower-ast.arr":8:5)
# CHECK-NOT:  arr.del
# CHECK-NOT:  arr.block
# ORDER: error: `lower-ast` reads a .arr program, so it can only be the first --pass

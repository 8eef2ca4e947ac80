# RUN: %arrayc emit --stage=arr --entry main %s | FileCheck %s
fn twice(v: f64[N]) -> f64[N] {
    return v * 2.0;
}

fn main(n: i64 = 5) -> f64[n] {
    let a = arange(n) * 1.0;
    return twice(a);
}

# The callee works on its parameter's view and returns a new array; the caller passes its own
# array, deletes it after the call and syncs the returned one.
# CHECK: func.func @twice(%[[V:v_[0-9]+]]: memref<?xf64, strided<[?], offset: ?>>) -> (memref<?xf64, strided<[?], offset: ?>>)
# CHECK:       %[[R:[0-9]+]] = "arr.new"
# CHECK-NEXT:  "arr.mul"(%[[R]], %[[V]], %{{[0-9]+}})
# CHECK-NEXT:  func.return %[[R]] : memref<?xf64, strided<[?], offset: ?>>
# CHECK-LABEL: func.func @main(%{{n_[0-9]+}}: i64) -> (memref<?xf64, strided<[?], offset: ?>>)
# CHECK:       %[[RES:[0-9]+]] = func.call @twice(%[[A:a_[0-9]+]]) : (memref<?xf64, strided<[?], offset: ?>>) -> (memref<?xf64, strided<[?], offset: ?>>)
# CHECK-NEXT:  "arr.del"(%[[A]])
# CHECK-NEXT:  "arr.sync"(%[[RES]])
# CHECK-NEXT:  func.return %[[RES]]

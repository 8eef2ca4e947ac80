# Kristensen et al. 2016, Fig. 3 at the arr stage: 4 allocations with fills, the 7 array
# operations in program order, DEL after each base array's last use, SYNC + DEL of the result.
# RUN: %arrayc emit --stage=arr %s | FileCheck %s

fn synthetic() -> f64[5] {
    let a = zeros(4);
    let b = zeros(4);
    let d = zeros(5);
    let e = zeros(5);
    a += d[:-1];
    a[:] = d[:-1];
    b += e[:-1];
    b[:] = e[:-1];
    let t = a * b;
    d[1:] = maximum(t, e[1:]);
    e[1:] = minimum(t, d[1:]);
    return d;
}

# CHECK-LABEL: func.func @synthetic() -> (memref<?xf64, strided<[?], offset: ?>>)
# The four allocations, each filled with zeros.
# CHECK:      %[[A:[a-z0-9_]+]] = "arr.new"
# CHECK-NEXT: %[[Z1:[0-9]+]] = arith.constant 0.0 : f64
# CHECK-NEXT: "arr.fill"(%[[A]], %[[Z1]])
# CHECK:      %[[B:[a-z0-9_]+]] = "arr.new"
# CHECK:      "arr.fill"(%[[B]],
# CHECK:      %[[D:[a-z0-9_]+]] = "arr.new"
# CHECK:      "arr.fill"(%[[D]],
# CHECK:      %[[E:[a-z0-9_]+]] = "arr.new"
# CHECK:      "arr.fill"(%[[E]],
# The seven computations in program order, with DEL after the last use of each base array.
# CHECK:      %[[DV:[0-9]+]] = "arr.view"(%[[D]], %{{[0-9]+}}) {index = array<i64: 10>}
# CHECK:      "arr.add"(%[[A]], %[[A]], %{{[0-9]+}}) {{.*}}loc("{{.*}}arr-fig3.arr":10:5)
# CHECK:      %[[AV:[0-9]+]] = "arr.view"(%[[A]]) {index = array<i64: 8>}
# CHECK:      "arr.copy"(%[[AV]], %{{[0-9]+}}) {{.*}}loc("{{.*}}arr-fig3.arr":11:5)
# CHECK:      "arr.add"(%[[B]], %[[B]], %{{[0-9]+}}) {{.*}}:12:5)
# CHECK:      "arr.copy"
# CHECK:      %[[T:[a-z0-9_]+]] = "arr.new"
# CHECK-NEXT: "arr.mul"(%[[T]], %[[A]], %[[B]])
# CHECK-NEXT: "arr.del"(%[[A]])
# CHECK-NEXT: "arr.del"(%[[B]])
# CHECK:      "arr.maximum"(%{{[0-9]+}}, %[[T]], %{{[0-9]+}})
# CHECK:      "arr.minimum"(%{{[0-9]+}}, %[[T]], %{{[0-9]+}})
# CHECK-NEXT: "arr.del"(%[[E]])
# CHECK-NEXT: "arr.del"(%[[T]])
# The host reads d: SYNC, then DEL (the returned reference keeps the storage), then return.
# CHECK-NEXT: "arr.sync"(%[[D]])
# CHECK-NEXT: "arr.del"(%[[D]])
# CHECK-NEXT: func.return %[[D]] : memref<?xf64, strided<[?], offset: ?>>

# RUN: %arrayc emit --stage=arr %s | FileCheck %s --check-prefix=COUNT
# COUNT-COUNT-4: "arr.fill"
# COUNT-NOT:     "arr.fill"
# COUNT-COUNT-5: "arr.del"
# COUNT-NOT:     "arr.del"

# RUN: %arrayc emit --stage=arr %s | FileCheck %s --check-prefix=SYNC
# SYNC-COUNT-1: "arr.sync"
# SYNC-NOT:     "arr.sync"

# RUN: %arrayc emit --stage=arr %s | FileCheck %s --check-prefix=ORDER
# ORDER:     "arr.add"
# ORDER:     "arr.copy"
# ORDER:     "arr.add"
# ORDER:     "arr.copy"
# ORDER:     "arr.mul"
# ORDER:     "arr.maximum"
# ORDER:     "arr.minimum"
# ORDER-NOT: "arr.{{add|copy|mul|maximum|minimum|sub|div|fill}}"

# RUN: %arrayc emit --stage=arr %s | FileCheck %s
fn first_negative(x: f64[N]) -> i64 {
    let found = -1;
    for i in 0..N {
        if x[i] < 0.0 {
            found = i;
            break;
        }
    }
    return found;
}

# A `for` loop with a `break` is an `scf.while` over its iteration count that also carries the flag
# `break`, false at first: the condition is false once it is set, else `iteration < N`. The `if`
# around the `break` sets it (and the iteration's `skip`) and yields `found`.
# CHECK: func.func @first_negative
# CHECK: %[[FALSE:[0-9]+]] = arith.constant false
# CHECK: %[[FOUND:found_[0-9]+]], %{{break[.0-9_]+}}, %{{iteration[.0-9_]+}} = "scf.while"(%{{found_[0-9]+}}, %[[FALSE]], %{{[0-9]+}}) ({
# CHECK-NEXT: ^bb0(%{{found_[0-9]+}}: i64, %[[BRK:break[.0-9_]+]]: i1, %[[K:iteration[.0-9_]+]]: i64):
# CHECK-NEXT: %[[GO:go_[0-9]+]] = "scf.if"(%[[BRK]]) ({
# CHECK:      arith.cmpi slt, %[[K]], %{{N_[0-9]+}} : i64
# CHECK:      "scf.condition"(%[[GO]],
# CHECK:      ^bb0(%[[F2:found_[0-9]+]]: i64, %[[B2:break[.0-9_]+]]: i1, %[[K2:iteration[.0-9_]+]]: i64):
# CHECK:      %[[NEXT:[0-9]+]] = arith.addi %[[K2]], %{{[0-9]+}} : i64
# CHECK:      %[[F3:found_[0-9]+]], %[[B3:break[.0-9_]+]], %{{skip[.0-9_]+}} = "scf.if"
# CHECK:      %[[TRUE:[0-9]+]] = arith.constant true
# CHECK-NEXT: "scf.yield"(%[[K2]], %[[TRUE]], %[[TRUE]]) : (i64, i1, i1) -> ()
# CHECK:      "scf.yield"(%[[F3]], %[[B3]], %[[NEXT]]) : (i64, i1, i64) -> ()
# CHECK:      func.return %[[FOUND]] : i64

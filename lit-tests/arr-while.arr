# RUN: %arrayc emit --stage=arr %s | FileCheck %s
fn countdown(n: i64 = 10) -> (i64, f64) {
    let i = n;
    let acc = 0.0;
    while i > 0 {
        acc += 0.5;
        i -= 1;
    }
    return (i, acc);
}

# Both carried variables go through the loop: before-region computes the condition and forwards
# them, after-region updates and yields them; the results are the final values.
# CHECK: func.func @countdown(%[[N:n_[0-9]+]]: i64) -> (i64, f64)
# CHECK: %[[ACC0:acc_[0-9]+]] = arith.constant 0.0 : f64
# CHECK: %[[ACCR:acc_[0-9]+]], %[[IR:i_[0-9]+]] = "scf.while"(%[[ACC0]], %[[N]]) ({
# CHECK-NEXT: ^bb0(%[[A:acc_[0-9]+]]: f64, %[[I:i_[0-9]+]]: i64):
# CHECK:      %[[C:[0-9]+]] = arith.cmpi sgt, %[[I]], %{{[0-9]+}} : i64
# CHECK-NEXT: "scf.condition"(%[[C]], %[[A]], %[[I]]) : (i1, f64, i64) -> ()
# CHECK-NEXT: }, {
# CHECK-NEXT: ^bb0(%[[A2:acc_[0-9]+]]: f64, %[[I2:i_[0-9]+]]: i64):
# CHECK:      %[[A3:acc_[0-9]+]] = arith.addf %[[A2]], %{{[0-9]+}} : f64
# CHECK:      %[[I3:i_[0-9]+]] = arith.subi %[[I2]], %{{[0-9]+}} : i64
# CHECK-NEXT: "scf.yield"(%[[A3]], %[[I3]]) : (f64, i64) -> ()
# CHECK-NEXT: }) : (f64, i64) -> (f64, i64)
# CHECK-NEXT: func.return %[[IR]], %[[ACCR]] : i64, f64

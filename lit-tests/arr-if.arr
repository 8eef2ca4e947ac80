# RUN: %arrayc emit --stage=arr %s | FileCheck %s
fn pick(x: f64 = 2.0) -> f64 {
    let y = 0.0;
    if x > 1.0 {
        y = x * 2.0;
    } else {
        y = x - 1.0;
    }
    return y;
}

# CHECK: func.func @pick(%[[X:x_[0-9]+]]: f64) -> (f64)
# CHECK:      %[[C:[0-9]+]] = arith.cmpf ogt, %[[X]], %{{[0-9]+}} : f64
# CHECK-NEXT: %[[Y:y_[0-9]+]] = "scf.if"(%[[C]]) ({
# CHECK:      %[[T:y_[0-9]+]] = arith.mulf %[[X]], %{{[0-9]+}} : f64
# CHECK-NEXT: "scf.yield"(%[[T]]) : (f64) -> ()
# CHECK-NEXT: }, {
# CHECK:      %[[E:y_[0-9]+]] = arith.subf %[[X]], %{{[0-9]+}} : f64
# CHECK-NEXT: "scf.yield"(%[[E]]) : (f64) -> ()
# CHECK-NEXT: }) : (i1) -> (f64)
# CHECK-NEXT: func.return %[[Y]] : f64

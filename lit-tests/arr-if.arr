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

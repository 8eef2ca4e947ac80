# RUN: %arrayc emit --stage=mlir %s | FileCheck %s
fn axpy(n: i64 = 8, alpha: f64 = 2.0) -> f64[n] {
    let x = ones(n);
    let y = arange(n) * 1.0;
    return alpha * x + y;
}

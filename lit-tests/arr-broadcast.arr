# RUN: %arrayc emit --stage=arr %s | FileCheck %s
fn bcast(n: i64 = 4) -> f64[3, n] {
    let row = arange(n) * 1.0;
    let col = ones(3, 1);
    return row + col;
}

# RUN: not %arrayc run --arg k=7 %s 2>&1 | FileCheck %s
fn main(k: i64 = 0) -> f64 {
    let x = zeros(4);
    return x[k];
}

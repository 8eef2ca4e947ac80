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

# RUN: %arrayc emit --stage=arr %s | FileCheck %s
fn reduce(n: i64 = 4) -> (f64, f64[n], i64) {
    let m = ones(3, n);
    let total = sum(m);
    let cols = max(m, axis=0);
    let k = prod(arange(1, 5));
    return (total, cols, k);
}

# RUN: %arrayc emit --stage=arr %s | FileCheck %s
fn views(n: i64 = 6) -> (f64[n - 2], f64[2, n], f64, f64[1, n]) {
    let x = zeros(n);
    let m = ones(3, n);
    let s = x[1:-1];
    let r = m[::2, :];
    let e = x[2];
    let c = x[newaxis, :];
    return (s, r, e, c);
}

# expect: E0403
# at: x[0, 1]
fn f(x: f64[N]) { let y = x[0, 1]; }

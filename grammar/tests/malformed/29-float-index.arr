# expect: E0406
# at: 1.0
fn f(x: f64[N]) { let y = x[1.0]; }

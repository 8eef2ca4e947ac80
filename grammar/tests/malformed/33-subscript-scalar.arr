# expect: E0408
# at: x[0]
fn f(x: f64) { let y = x[0]; }

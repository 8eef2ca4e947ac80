# expect: E0107
# at: x[0]
fn f(x: f64[3]) { let a = x[0] = 2.0; }

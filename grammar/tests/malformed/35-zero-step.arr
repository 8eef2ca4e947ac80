# expect: E0407
# at: 0
fn f(x: f64[N]) { let y = x[::0]; }

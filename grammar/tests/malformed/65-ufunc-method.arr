# expect: E0108
# at: subtract.reduce(x)
fn f(x: f64[3]) -> f64 { return subtract.reduce(x); }

# expect: E0207
# at: reshape
fn f(x: f64[N]) -> f64 { return x.reshape(2, 3)[0, 0]; }

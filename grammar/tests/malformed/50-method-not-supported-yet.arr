# expect: E0207
# at: sort
fn f(x: f64[N]) -> f64 { return x.sort()[0]; }

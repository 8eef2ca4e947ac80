# expect: E0205
# at: f64[M]
fn f(x: f64[N]) -> f64[M] { return x; }

# expect: E0312
# at: b
fn g(x: f64[N]) -> f64[N] { return x; }
fn f(b: i64[3]) { let y = g(b); }

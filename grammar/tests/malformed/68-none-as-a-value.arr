# expect: E0319
# at: None
fn f(x: f64[N]) -> f64[N] { let y = None; return x; }

# expect: E0307
# at: return x;
fn f(x: f64) -> (f64, f64) { return x; }

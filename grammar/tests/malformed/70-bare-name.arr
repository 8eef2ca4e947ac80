# expect: E0112
# at: x;
fn f(x: f64) -> f64 { x; return x; }

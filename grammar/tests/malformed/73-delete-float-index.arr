# expect: E0406
# at: 1.5
fn f(x: f64[n]) -> f64[?] { return delete(x, 1.5); }

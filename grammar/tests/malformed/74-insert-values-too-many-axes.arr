# expect: E0503
# at: y
fn f(x: f64[n], y: f64[2, 2]) -> f64[?] { return insert(x, 1, y); }

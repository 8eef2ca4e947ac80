# expect: E0318
# at: max(x
fn f(x: f64[n]) -> f64[n] { return max(x * k for k in range(3)); }

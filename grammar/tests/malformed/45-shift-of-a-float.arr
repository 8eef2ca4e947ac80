# expect: E0301
# at: x << 2
fn f(x: f64[N]) -> f64[N] { return x << 2; }

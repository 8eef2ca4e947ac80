# expect: E0405
# at: 2
fn f(x: f64[N, M]) -> f64[N] { return sum(x, axis=2); }

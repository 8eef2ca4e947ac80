# expect: E0502
# at: start
fn f(x: f64[n, m]) -> i64 { return math.prod(x.shape, start=2); }

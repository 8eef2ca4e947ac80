# expect: E0306
# at: x
fn f(x: f64[N]) -> i64[N] { return x; }

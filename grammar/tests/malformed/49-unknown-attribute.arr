# expect: E0003
# at: dtype
fn f(x: f64[N]) -> i64 { return x.dtype; }

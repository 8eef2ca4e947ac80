# expect: E0503
# at: x)
fn f(x: f64[]) -> i64 { return len(x); }

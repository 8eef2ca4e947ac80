# expect: E0003
# at: flags
fn f(x: f64[N]) -> i64 { return x.flags; }

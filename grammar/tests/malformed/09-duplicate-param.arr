# expect: E0204
# at: a: i64
fn f(a: f64, a: i64) { }

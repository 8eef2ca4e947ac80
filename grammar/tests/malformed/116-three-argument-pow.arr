# expect: E0331
# at: pow
fn f(a: i64, b: i64) -> i64 { return pow(a, b, 7); }

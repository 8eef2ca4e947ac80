# expect: E0101
# at: //
fn f(x: i64) -> i64 { return x // // 2; }

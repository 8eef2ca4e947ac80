# expect: E0101
# at: <
fn f(a: i64) -> bool { return 0 < a < 3; }

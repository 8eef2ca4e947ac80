# expect: E0308
# at: 1 + 2
fn f(n: i64 = 1 + 2) { }

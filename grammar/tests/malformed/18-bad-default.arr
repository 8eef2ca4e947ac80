# expect: E0308
# at: 1.5
fn f(n: i64 = 1.5) { }

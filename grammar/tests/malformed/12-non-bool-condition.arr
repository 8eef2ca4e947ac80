# expect: E0302
# at: n
fn f(n: i64) { while n { } }

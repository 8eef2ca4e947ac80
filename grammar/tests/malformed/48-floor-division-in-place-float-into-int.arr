# expect: E0304
# at: x //= 2.5;
fn f(x: i64[N]) { x //= 2.5; }

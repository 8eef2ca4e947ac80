# expect: E0304
# at: x[idx] += 0.5
fn f(x: i64[4], idx: i64[2]) -> i64[4] { x[idx] += 0.5; return x; }

# expect: E0109
# at: break;
fn f(n: i64) -> i64 { let s = 0; for i in 0..n { s += i; } if s > 3 { break; } return s; }

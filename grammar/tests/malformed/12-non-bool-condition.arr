# expect: E0302
# at: a or b
fn f(a: i64, b: i64) -> bool { let v = a or b; return v; }

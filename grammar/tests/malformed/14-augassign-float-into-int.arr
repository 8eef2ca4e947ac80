# expect: E0304
# at: a += 1.5;
fn f() { let a = zeros(4, dtype=i64); a += 1.5; }

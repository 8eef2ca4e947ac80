# expect: E0202
# at: zeroes
fn f() { let a = zeroes(3); }

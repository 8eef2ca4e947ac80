# expect: E0503
# at: 2
fn f() { let a = zeros(3, dtype=2); }

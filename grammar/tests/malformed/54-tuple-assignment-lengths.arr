# expect: E0106
# at: (1, 2, 3)
fn f() { let a = 1; let b = 2; (a, b) = (1, 2, 3); }

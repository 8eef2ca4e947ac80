# expect: E0001
# at: $
fn f() { let x = 1 $ 2; }

# expect: E0404
# at: 5
fn f() { let x = zeros(5); let y = x[5]; }

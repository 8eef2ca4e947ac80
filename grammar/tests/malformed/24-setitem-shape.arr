# expect: E0401
# at: zeros(3)
fn f() { let a = zeros(5); a[1:] = zeros(3); }

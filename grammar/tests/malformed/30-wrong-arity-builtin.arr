# expect: E0501
# at: linspace(0.0, 1.0)
fn f() { let y = linspace(0.0, 1.0); }

# expect: E0310
# at: g()
fn g() { }
fn f() { let y = g(); }

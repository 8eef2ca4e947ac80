# expect: E0203
# at: f()
fn f() { }
fn f() { }

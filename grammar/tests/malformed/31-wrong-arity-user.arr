# expect: E0501
# at: g(1.0, 2.0)
fn g(x: f64) { }
fn f() { g(1.0, 2.0); }

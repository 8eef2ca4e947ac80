# expect: E0309
# at: g(1.0)
fn g(x: f64) -> (f64, f64) { return (x, x); }
fn f() { let y = g(1.0) + 1.0; }

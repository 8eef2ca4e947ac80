# expect: E0107
# at: f(a)
fn f(a: f64) { let b = 1.0; b = f(a) = 2.0; }

# expect: E0303
# at: 1.5 * x
fn f(x: f64) { let i = 0; i = 1.5 * x; }

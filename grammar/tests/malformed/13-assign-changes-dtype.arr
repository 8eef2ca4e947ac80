# expect: E0303
# at: 1.5 * x
fn f(x: f64, k: i64) { let i = k; i = 1.5 * x; }

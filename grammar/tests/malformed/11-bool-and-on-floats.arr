# expect: E0301
# at: a & b
fn f(a: f64, b: f64) { let c = a & b; }

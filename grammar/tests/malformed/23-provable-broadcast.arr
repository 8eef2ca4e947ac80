# expect: E0401
# at: a + b
fn f(a: f64[N], b: f64[N-1]) { let c = a + b; }

# expect: E0206
# at: N*M
fn f(x: f64[N*M]) { }

# expect: E0502
# at: axes
fn f(x: f64[N]) { let s = sum(x, axes=0); }

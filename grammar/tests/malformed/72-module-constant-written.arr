# expect: E0113
# at: f(
W = [1.0, 2.0];
fn f(x: f64) -> f64 { W[0] = x; return W[1]; }

# expect: E0111
# at: mean(t for t in v)
fn f(v: f64[N]) -> f64 { return mean(t for t in v); }

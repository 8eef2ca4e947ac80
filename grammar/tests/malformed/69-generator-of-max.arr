# expect: E0111
# at: max(t for t in v)
fn f(v: f64[N]) -> f64 { return max(t for t in v); }

# expect: E0208
# at: f64[...]
fn g(n: i64) -> f64[...] { return zeros(n); }

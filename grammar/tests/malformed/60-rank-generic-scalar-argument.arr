# expect: E0312
# at: 2.0
fn f(x: f64[...]) -> f64[...] { return 2.0 * x; }
fn main() { let y = f(2.0); }

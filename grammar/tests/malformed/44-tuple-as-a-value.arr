# expect: E0309
# at: (a, b)
fn main(a: f64, b: f64) -> f64 { let t = 2.0 * (a, b); return a; }

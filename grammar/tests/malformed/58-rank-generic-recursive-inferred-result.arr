# expect: E0209
# at: f(x)
fn f(x: f64[...]) -> f64[...] { return f(x); }
fn main() { let y = f(zeros(2)); }

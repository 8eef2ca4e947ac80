# expect: E0403
# at: x[0, 0]
fn f(x: f64[...]) -> f64 { return x[0, 0]; }
fn main() -> f64 { return f(zeros(3, 3)) + f(zeros(3)); }

# expect: E0209
# at: f(x[newaxis])
fn f(x: f64[...]) -> f64 { return sum(f(x[newaxis])); }
fn main() -> f64 { return f(zeros(2)); }

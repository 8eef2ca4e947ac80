# expect: E0503
# at: (2, 3)
fn main() -> f64[2, 3, 4] { return zeros((2, 3), 4); }

# expect: E0412
# at: reshape
fn f() -> f64[5, 2] { return reshape(zeros(12), (5, 2)); }

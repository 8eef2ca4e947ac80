# expect: E0411
# at: [3]
fn f() -> f64[2, 2] { return [[1.0, 2.0], [3]]; }

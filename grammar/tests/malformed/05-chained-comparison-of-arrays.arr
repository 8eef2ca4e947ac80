# expect: E0302
# at: 0 < a
fn f(a: f64[3]) -> bool[3] { return 0 < a < 3; }

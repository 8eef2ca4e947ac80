# expect: E0402
# at: zeros(4)
fn g(x: f64[N], y: f64[N]) { }
fn f() { g(zeros(3), zeros(4)); }

# expect: E0201
# at: grd
fn f() -> f64[3] { let grid = zeros(3); return grd; }

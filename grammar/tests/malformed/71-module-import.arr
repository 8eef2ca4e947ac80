# expect: E0113
# at: import scipy;
import scipy;
fn f(x: f64) -> f64 { return x; }

# expect: E0330
# at: fsum
import math;
fn f(x: f64[n]) -> f64 { return math.fsum(x); }

# expect: E0326
# at: *v
import numpy as np;
fn f(x: f64[n]) -> f64 {
    v = x[x > 0];
    return np.hypot(*v);
}

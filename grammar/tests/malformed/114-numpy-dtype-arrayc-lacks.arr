# expect: E0216
# at: int16)
import numpy as np;
fn f(x: f64[n]) -> f64[n] { return x.astype(np.int16) * 2.0; }

# expect: E0216
# at: float16)
import numpy as np;
fn f(x: f64[n]) -> f64[n] { return x.astype(np.float16) * 2.0; }

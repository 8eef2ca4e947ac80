# expect: E0210
# at: is None
fn f(x: f64[N], w: f64[N]) -> f64 {
    if w is None { return x.sum(); }
    return (x * w).sum();
}

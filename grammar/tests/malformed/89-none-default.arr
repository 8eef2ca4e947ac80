# expect: E0211
# at: None)
fn f(x: f64[N], w: f64[N] = None) -> f64 {
    return (x * w).sum();
}

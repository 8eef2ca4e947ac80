# expect: E0215
# at: np.sum
fn f(x: f64[n], y: f64[n]) -> f64[n] {
    return np.sum(x)(y);
}

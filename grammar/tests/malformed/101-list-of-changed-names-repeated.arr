# expect: E0322
# at: w * k
fn f(x: f64[n], k: i64) -> f64[?] {
    a = x[0];
    w = [a, 2.0];
    a = 7.0;
    return np.array(w * k);
}

# expect: E0212
# at: axis);
fn f(x: f64[N, M], axis: i64 = 0) -> f64[?] {
    return np.sum(x, axis=axis);
}

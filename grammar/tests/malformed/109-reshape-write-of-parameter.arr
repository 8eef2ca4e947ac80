# expect: E0328
# at: m.reshape
fn f(m: f64[r, c]) -> f64[r, c] {
    m.reshape(-1)[0] = 1.0;
    return m;
}

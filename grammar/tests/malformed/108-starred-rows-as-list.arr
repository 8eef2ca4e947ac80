# expect: E0327
# at: rest
fn f(m: f64[n, k]) -> f64[?, k] {
    first, *rest = m;
    return rest * 2;
}

# expect: E0327
# at: *b
fn f(x: f64[n]) -> f64 {
    *a, *b = (1.0, 2.0, 3.0);
    return 1.0;
}

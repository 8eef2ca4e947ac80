# expect: E0320
# at: y)
fn f(z: i64[n], y: f64[n]) -> i64 {
    np.copyto(z, y);
    return 0;
}

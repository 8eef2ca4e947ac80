# expect: E0329
# at: sl
fn f(x: f64[n]) -> i64 {
    sl = slice(1, 3);
    return len(sl);
}

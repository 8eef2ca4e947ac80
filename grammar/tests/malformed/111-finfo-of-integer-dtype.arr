# expect: E0324
# at: x.dtype
fn f(x: i64[n]) -> i64 { return np.finfo(x.dtype).eps; }

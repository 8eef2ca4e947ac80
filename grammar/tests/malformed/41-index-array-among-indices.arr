# expect: E0409
# at: idx
fn f(x: f64[N, M], idx: i64[K]) -> f64[K] { return x[idx, 0]; }

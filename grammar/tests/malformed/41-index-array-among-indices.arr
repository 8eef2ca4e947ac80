# expect: E0409
# at: idx
fn f(x: f64[N, M], idx: i64[K]) -> f64[K, 1, M] { return x[idx, newaxis]; }

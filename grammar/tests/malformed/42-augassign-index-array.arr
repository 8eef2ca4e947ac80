# expect: E0410
# at: idx
fn f(x: f64[N], idx: i64[K]) { x[idx] += 1.0; }

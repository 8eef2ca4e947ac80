# expect: E0309
# at: g[i]
fn main(x: f64[N, M], i: i64) -> i64 {
    g = x.shape;
    return g[i];
}

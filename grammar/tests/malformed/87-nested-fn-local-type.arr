# expect: E0213
# at: first
fn main(x: f64[N]) -> f64 {
    y = x * 2.0;
    fn first() -> f64 { return y[0]; }
    return first();
}

# expect: E0114
# at: lambda v: v * 2.0
fn main(x: f64[N]) -> f64[N] {
    return apply(lambda v: v * 2.0, x);
}

# expect: E0116
# at: f(x)
fn main(x: f64[N]) -> f64[N] {
    f = lambda a, b: a * b;
    return f(x);
}

# expect: E0214
# at: f(x[c])
fn main(x: f64[N]) -> f64 {
    c = 2.0;
    f = lambda v: v * c;
    return sum(f(x[c]) for c in range(3));
}

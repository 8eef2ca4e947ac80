# expect: E0405
# at: v, 2)
fn main(v: f64[6]) -> f64[3] {
    return np.vsplit(v, 2)[0];
}

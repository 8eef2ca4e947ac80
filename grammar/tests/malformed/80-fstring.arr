# expect: E0119
# at: f"sum = {s:.3f}"
fn main(s: f64) -> f64 {
    print(f"sum = {s:.3f}");
    return s;
}

# expect: E0325
# at: d}
fn main(s: f64) -> f64 {
    print(f"sum = {s:d}");
    return s;
}

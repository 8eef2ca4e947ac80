# expect: E0119
# at: !r
fn main(s: f64) -> f64 {
    print(f"sum = {s!r}");
    return s;
}

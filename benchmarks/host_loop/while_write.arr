# Issue 9: a host loop of n scalar element writes (`while` form).
fn main(n: i64 = 1000000) -> f64[n] {
    let x = zeros(n);
    let i = 0;
    while i < n {
        x[i] = f64(i) * 0.5;
        i = i + 1;
    }
    return x;
}

# Issue 9: a host loop of n scalar element writes (`for` form).
fn main(n: i64 = 1000000) -> f64[n] {
    let x = zeros(n);
    for i in 0..n {
        x[i] = f64(i) * 0.5;
    }
    return x;
}

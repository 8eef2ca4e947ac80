# Issue 9: a host loop that reads the previous element and writes the next (a prefix sum).
fn main(n: i64 = 1000000) -> f64[n] {
    let x = ones(n);
    for i in 1..n {
        x[i] = x[i - 1] + f64(i) * 0.5;
    }
    return x;
}

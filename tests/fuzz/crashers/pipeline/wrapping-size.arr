fn main(n: i64 = 4611686018427387904) -> f64 {
    let a = zeros(n, 4);
    return a[1, 2];
}

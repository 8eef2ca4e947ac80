# Leibniz series for pi: pi = 4 * sum_{k=0}^{n-1} (-1)^k / (2k + 1) (error about 1/n).
# The sign (-1)^k is `(-1.0) ** k`: an f64 base with an i64 array exponent gives f64.
fn leibnitz_pi(n: i64 = 1000000) -> f64 {
    let k = arange(n);
    return 4.0 * sum((-1.0) ** k / (2 * k + 1));
}

# American put option priced on a binomial tree (bh107/benchpress at c16e8ec,
# benchmarks/pricing/python_numpy/pricing.py, the NumPy version of Rolf Poulsen's R code
# UsualBinomAmrPut.R): n = expiry * magic_number steps (the original: 252, one year of
# trading days), spot 100, strike 100, r = 0.03, alpha = 0.07, sigma = 0.20. put[:, n] is
# the payoff at expiry; the loops then go back through the tree, element by element, taking
# the larger of the exercise value and the discounted expectation
# (q put[j+1, i+1] + (1 - q) put[j, i+1]) / R.
# The exercise value uses S = S0 * u * (j - 1) * d^(i - j), as the NumPy original writes it
# (the R code has S0 * u^(j-1) * d^(i-j) with 1-based j); the port keeps the NumPy program's
# arithmetic.
# Deviations from the NumPy spelling:
# * math.exp / math.sqrt of Python floats are exp / sqrt of f64 scalars; Python's builtin
#   `max(a, b)` of two floats is `maximum(a, b)` (the same value: a tie between 0.0 and -0.0,
#   where they would differ, does not occur here); `np.array(range(0, n+1))` and
#   `np.array(range(n, -1, -1))` are `arange(0, n + 1)` and `arange(n, -1, -1)`.
# Results: the tree `put` and the option's price put[0, 0].
fn pricing(magic_number: i64 = 32) -> (f64[?, ?], f64) {
    let s0 = 100.0;
    let r = 0.03;
    let alpha = 0.07;
    let sigma = 0.20;
    let expiry = 1.0;
    let strike = 100.0;
    let n = i64(expiry * f64(magic_number));
    let dt = expiry / f64(n);
    let u = exp(alpha * dt + sigma * sqrt(dt));
    let d = exp(alpha * dt - sigma * sqrt(dt));
    let R = exp(r * dt);
    let q = (R - d) / (u - d);
    let asc = arange(0, n + 1);
    let desc = arange(n, -1, -1);
    let put = zeros(n + 1, n + 1);
    put[:, n] = maximum(strike - s0 * (u ** asc) * (d ** desc), 0);
    for i in range(n - 1, -1, -1) {
        for j in range(0, i + 1) {
            let s = s0 * u * f64(j - 1) * (d ** (i - j));
            put[j, i] = maximum(maximum(strike - s, 0.0), (q * put[j + 1, i + 1] + (1.0 - q) * put[j, i + 1]) / R);
        }
    }
    return (put, put[0, 0]);
}

# Black-Scholes: price of a European call option, averaged over n random stock prices,
# for `steps` expiry times.
# Stock prices S are uniform in [58, 62): random(n, seed=seed) * 4 + 58; strike X = 65,
# risk-free rate r = 0.08, volatility v = 0.3. The time to expiry (in years) of step i
# (0-based) is t = (i + 1) / 365: it starts at one day and grows by one day per step.
# The cumulative normal distribution CND uses the Abramowitz-Stegun polynomial
# (formula 26.2.17) in Horner form, mirrored for negative arguments. It is applied to
# d1 and d2 at once, stacked as the rows of a [2, n] array, so the file has a single
# function and `arrayc run examples/black_scholes.arr` needs no --entry.
# Result: the mean call price of every step, an f64[steps].
fn black_scholes(n: i64 = 100000, steps: i64 = 20, seed: i64 = 42) -> f64[steps] {
    let s = random(n, seed=seed) * 4.0 + 58.0;
    let x = 65.0;
    let r = 0.08;
    let v = 0.3;
    let a1 = 0.31938153;
    let a2 = -0.356563782;
    let a3 = 1.781477937;
    let a4 = -1.821255978;
    let a5 = 1.330274429;
    let prices = zeros(steps);
    let d = zeros(2, n);
    for i in 0..steps {
        let t = f64(i + 1) / 365.0;
        d[0] = (log(s / x) + (r + v * v / 2.0) * t) / (v * sqrt(t));    # d1
        d[1] = d[0] - v * sqrt(t);                                     # d2
        # CND(d) for both rows
        let l = abs(d);
        let k = 1.0 / (1.0 + 0.2316419 * l);
        let poly = k * (a1 + k * (a2 + k * (a3 + k * (a4 + k * a5))));
        let w = 1.0 - 0.3989422804014327 * exp(-l * l / 2.0) * poly;   # 0.398... = 1/sqrt(2 pi)
        let cnd = where(d < 0.0, 1.0 - w, w);
        let call = s * cnd[0] - x * exp(-r * t) * cnd[1];
        prices[i] = sum(call) / f64(n);
    }
    return prices;
}

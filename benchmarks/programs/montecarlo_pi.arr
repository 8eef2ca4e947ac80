# Monte Carlo estimate of pi (Benchpress "Monte Carlo PI", Kristensen et al. 2016, Table I).
# Each iteration draws n points (x, y) uniform in the unit square, x from
# random(n, seed=seed+2*i) and y from random(n, seed=seed+2*i+1), counts the points
# inside the quarter circle (sqrt(x*x + y*y) <= 1) and estimates pi as 4 * count / n.
# Results: the mean of the `iterations` estimates, and the estimate of each iteration.
fn montecarlo_pi(n: i64 = 100000, iterations: i64 = 10, seed: i64 = 0) -> (f64, f64[iterations]) {
    let estimates = zeros(iterations);
    let total = 0.0;
    for i in 0..iterations {
        let x = random(n, seed=seed + 2 * i);
        let y = random(n, seed=seed + 2 * i + 1);
        let estimate = 4 * sum(sqrt(x * x + y * y) <= 1.0) / n;
        estimates[i] = estimate;
        total += estimate;
    }
    return (total / iterations, estimates);
}

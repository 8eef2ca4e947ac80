# Rosenbrock function, summed over consecutive pairs of an n-vector:
#   f(x) = sum_{i=0}^{n-2} 100 * (x[i+1] - x[i]^2)^2 + (1 - x[i])^2
# x is uniform in [-2, 2): random(n, seed=seed) * 4 - 2 (deterministic for a given seed).
fn rosenbrock(n: i64 = 1000000, seed: i64 = 7) -> f64 {
    let x = random(n, seed=seed) * 4.0 - 2.0;
    return sum(100.0 * (x[1:] - x[:-1] ** 2) ** 2 + (1.0 - x[:-1]) ** 2);
}

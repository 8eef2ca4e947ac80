# Naive k-nearest-neighbours distance kernel (bh107/benchpress at c16e8ec,
# benchmarks/knn_naive/python_numpy/knn_naive.py): `data` holds n + 1 points of f features
# (uniform random, f x (n + 1)), `x` the target point (0.5 in every feature, f x 1); the
# timed part is np.sum(np.sqrt((data - x)**2)), one number.
# Deviations from the original:
# * `np.random.random((F, N+1))` is `random(f, n + 1, seed=seed)` (another generator).
# * `x = np.empty((F, 1)); x[:, :] = 0.5` is written the same way, `x[:, :] = 0.5`.
# * The original's third size, K (the neighbours to find), is only used in its commented-out
#   argsort, so it is left out.
# Result: the summed distances.
fn knn_naive(n: i64 = 1000, f: i64 = 10, seed: i64 = 1) -> f64 {
    let data = random(f, n + 1, seed=seed);
    let x = empty(f, 1);
    x[:, :] = 0.5;
    return sum(sqrt((data - x) ** 2));
}

# Sparse matrix-vector products in ELLPACK format (issue 13's gather-heavy benchmark; van Balen et
# al. 2024 fuse such gathers): an n x n matrix with k nonzeros per row, stored as their values
# vals[n, k] and column indices cols[n, k], so that y = A x is sum(vals * x[cols], axis=1). Power
# iteration: `iterations` products, each result normalised to the next x. Returns the last x.
fn spmv_ell(n: i64 = 1000, k: i64 = 8, iterations: i64 = 3, seed: i64 = 1) -> f64[n] {
    let vals = random(n, k, seed=seed) - 0.5;
    let cols = i64(random(n, k, seed=seed + 1) * f64(n));
    let x = random(n, seed=seed + 2);
    for it in 0..iterations {
        let y = sum(vals * x[cols], axis=1);
        x = y / sqrt(sum(y * y));
    }
    return x;
}

# The device sort probe (benchmarks/sort_probe.py): n uniform draws made where the kernels run,
# then, by `what`, nothing (0), `sort` (1) or `argsort` (2), and three elements of the result.
fn probe(n: i64, what: i64, seed: i64) -> f64 {
    x = random(n, seed=seed);
    if what == 1 {
        y = sort(x);
        return y[0] + y[n // 2] + y[n - 1];
    }
    if what == 2 {
        i = argsort(x);
        return float(i[0] + i[n // 2] + i[n - 1]);
    }
    return x[0] + x[n // 2] + x[n - 1];
}

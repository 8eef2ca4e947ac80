# k-means clustering (issue 13's benchmark of arg-reductions and scatters): n random points in
# `d` dimensions, k centres (initially the first k points), `iterations` Lloyd steps: each point's
# nearest centre (argmin over the squared distances), then each centre moves to the mean of its
# points (add_at of the points and of ones per centre; an empty cluster keeps its centre).
fn kmeans(n: i64 = 1000, d: i64 = 2, k: i64 = 8, iterations: i64 = 4, seed: i64 = 1) -> (f64[k, d], i64[n]) {
    let p = random(n, d, seed=seed);
    let c = copy(p[0:k, :]);
    let labels = zeros(n, dtype=i64);
    for it in 0..iterations {
        let dist = sum((p[:, newaxis, :] - c[newaxis, :, :]) ** 2, axis=2);
        labels = argmin(dist, axis=1);
        let counts = zeros(k);
        add_at(counts, labels, 1.0);
        let sums = zeros(k, d);
        add_at(sums, labels, p);
        c = where(counts[:, newaxis] > 0.0, sums / maximum(counts, 1.0)[:, newaxis], c);
    }
    return (c, labels);
}

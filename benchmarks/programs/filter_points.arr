# Filters (issue 13's filter-heavy benchmark; Robinson et al. 2014): n random points in the square
# [-1, 1)^2; the ones inside the unit circle are kept (a boolean mask, about pi/4 of them: an
# existential size), then their radii, the mean radius and the points of the upper half of the
# kept ones (a filter of a filtered array).
fn filter_points(n: i64 = 1000, seed: i64 = 1) -> (f64[?], f64, f64[?]) {
    let x = random(n, seed=seed) * 2.0 - 1.0;
    let y = random(n, seed=seed + 1) * 2.0 - 1.0;
    let inside = x * x + y * y < 1.0;
    let xs = x[inside];
    let ys = y[inside];
    let r = sqrt(xs * xs + ys * ys);
    return (r, mean(r), xs[ys > 0.0]);
}

# Histograms with bincount (issue 13's histogram benchmark): n samples, a skewed distribution
# (the square of a uniform sample) put into `bins` equal bins; the counts, and the sums of weights
# per bin, from which the mean weight per bin follows. bincount is NumPy's: its size is the largest
# bin index + 1, known only at run time (an existential size, `?`).
fn histogram(n: i64 = 1000, bins: i64 = 64, seed: i64 = 1) -> (i64[?], f64[?], f64[?]) {
    let u = random(n, seed=seed);
    let w = random(n, seed=seed + 1) * 2.0 - 1.0;
    let b = i64(u * u * f64(bins));
    let counts = bincount(b, minlength=bins);
    let sums = bincount(b, w, minlength=bins);
    return (counts, sums, sums / maximum(f64(counts), 1.0));
}

# Gauss elimination (Benchpress `gauss`): reduce a dense n x n system to upper-triangular form with
# a unit diagonal, without pivoting.
# The matrix is random (uniform in [0, 1)) plus n on the diagonal, so it is strictly diagonally
# dominant and elimination without pivoting is stable.
# Column c-1 (c = 1 .. n-1) is eliminated from the rows below it by one in-place update of the
# loop-dependent view a[c:, c-1:]; the pivot a[c-1, c-1] is read as the one-element view
# a[c-1, c-1:c], so no element goes back to the host and each step stays one fused kernel.
# Finally every row is divided by its diagonal element (through the diagonal view).
# Result: the reduced matrix, f64[n, n].
fn gauss(n: i64 = 100, seed: i64 = 1) -> f64[n, n] {
    let a = random(n, n, seed=seed);
    let d = diagonal(a);
    d += f64(n);
    for c in 1..n {
        a[c:, c-1:] -= (a[c:, c-1] / a[c-1, c-1:c])[:, newaxis] * a[c-1, c-1:];
    }
    a /= diagonal(a)[:, newaxis];
    return a;
}

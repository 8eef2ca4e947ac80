# LU factorisation (Benchpress `lu`): Doolittle's elimination without pivoting, a = l u with l unit
# lower-triangular and u upper-triangular.
# The matrix is random (uniform in [0, 1)) plus n on the diagonal (strictly diagonally dominant, so no
# pivoting is needed). l starts as the identity, written through its diagonal view. Step c
# (c = 1 .. n-1) stores the multipliers of column c-1 in l[c:, c-1] and eliminates that column from
# u[c:, c-1:]; the pivot is the one-element view u[c-1, c-1:c] (no host read).
# Results: l and u, both f64[n, n].
fn lu(n: i64 = 100, seed: i64 = 1) -> (f64[n, n], f64[n, n]) {
    let a = random(n, n, seed=seed);
    let ad = diagonal(a);
    ad += f64(n);
    let u = copy(a);
    let l = zeros(n, n);
    let ld = diagonal(l);
    ld[:] = 1.0;
    for c in 1..n {
        l[c:, c-1] = u[c:, c-1] / u[c-1, c-1:c];
        u[c:, c-1:] -= l[c:, c-1][:, newaxis] * u[c-1, c-1:];
    }
    return (l, u);
}

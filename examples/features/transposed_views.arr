# Transposed and diagonal views: `x.T` (= `transpose(x)`) reverses the axes, `diagonal(x)` is the
# main diagonal of a 2-d array. Both alias their base array, so writing through them changes it;
# an assignment whose right-hand side reads the same base through another view is evaluated
# completely before the write (NumPy semantics), as `a[:] = a.T` shows.
fn transposed_views(n: i64 = 4, m: i64 = 3) -> (f64[n, n], f64[n, m], f64[m, n], f64[n], f64[n, n], f64[2, 3, 4], f64, f64[m, m]) {
    let x = arange(n) * 1.0;
    let pairwise = x[newaxis, :].T - x;          # pairwise[i, j] = x[i] - x[j]
    let a = random(n, m, seed=5);
    let at = a.T;                                # (m, n), a view of a
    let b = zeros(n, n);
    let d = diagonal(b);
    d[:] = 1.0;                                  # identity matrix, written through the view
    d[1:] += x[1:];
    let s = random(n, n, seed=6);
    s[:] = s.T;                                  # overlapping views: the right side is copied first
    s += s.T;                                    # symmetric
    let t3 = transpose(reshape3());              # 3-d: (4, 3, 2) -> (2, 3, 4)
    let trace = sum(diagonal(s));
    let g = a.T[:, :m] * 2.0;                    # a view of a view, (m, m) when m <= n
    return (pairwise, a, at, diagonal(b), s, t3, trace, g);
}

fn reshape3() -> f64[4, 3, 2] {
    let r = zeros(4, 3, 2);
    r[:] = arange(4)[:, newaxis, newaxis] * 100.0 + arange(3)[:, newaxis] * 10.0 + arange(2) * 1.0;
    return r;
}

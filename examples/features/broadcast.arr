# Broadcasting: newaxis, missing leading dimensions, size-1 dimensions, ellipsis,
# broadcasting in setitem and in-place operators, mixed dtypes.
fn broadcast(n: i64 = 4, m: i64 = 3) -> (f64[n, m], f64[n, m], f64[2, n, m], f64[n, 1], f64[n, m, n], i64[n, m], bool[n, m], f64[n, m]) {
    let x = linspace(0.0, 1.0, n);
    let y = arange(m) + 1.0;                    # 1 2 ... m
    let outer = x[:, newaxis] * y[newaxis, :];  # (n, 1) * (1, m)
    let plus = x[:, newaxis] + y;               # (n, 1) + (m,)
    let s2 = arange(2) + 1;                     # i64: 1 2
    let t3 = outer[newaxis, :, :] * s2[:, newaxis, newaxis];  # (1, n, m) * (2, 1, 1), i64 * f64
    let col = x[:, newaxis];
    let q = outer[..., newaxis] - x[newaxis, newaxis, :];     # (n, m, 1) - (1, 1, n)
    let kn = arange(n);
    let km = arange(m);
    let ii = kn[:, newaxis] * 10 + km;          # i64[n, m]
    let bb = x[:, newaxis] * 3.0 > y - 0.45;    # bool[n, m] (no near-ties for small n)
    let g = zeros(n, m);
    g[:, 1:] = y[1:];                           # a row broadcast over all rows
    g[1:, :] += x[1:, newaxis];                 # a column broadcast over all columns
    g[0, :] -= 0.5;                             # a scalar
    return (outer, plus, t3, col, q, ii, bb, g);
}

# Writes whose right-hand side reads the array being written, through overlapping
# views. NumPy semantics: the right-hand side is evaluated completely (as if into a
# temporary) before the write; in-place operators behave as if their inputs were
# copied first (NumPy's ufunc overlap rule).
fn setitem_overlap(n: i64 = 8) -> (f64[n], f64[n], f64[n], f64[n], f64[n], f64[n], i64[n, n], i64[n, n], i64[n, n], f64[n]) {
    let a = arange(n) + 1.0;
    a[1:] = a[:-1];                 # shift right: 1 1 2 3 ... (not all ones)
    let b = arange(n) + 1.0;
    b[:-1] = b[1:];                 # shift left: 2 3 ... n n
    let c = arange(n) + 1.0;
    c[::-1] = c;                    # reverse in place (not a palindrome)
    let d = arange(n) + 1.0;
    d[1:] += d[:-1];                # d[i] = old d[i] + old d[i-1]
    let f = arange(n) + 1.0;
    f[2:] = f[:-2] * f[1:-1] + f[2:];
    let g = arange(n) + 1.0;
    g[:-1] -= g[1:] * 0.5;          # reads the elements it writes next

    let k = arange(n);
    let h1 = k[:, newaxis] * n + k;
    h1[1:, 1:] = h1[:-1, :-1];      # shift along the diagonal
    let h2 = k[:, newaxis] * n + k;
    h2[::-1, :] = h2;               # flip the rows in place
    let h3 = k[:, newaxis] * n + k;
    h3[1:, :] += h3[:-1, :];        # i64 in-place add of the row above

    # The overlap hidden behind a second name for a view of the same array.
    let p = arange(n) * 2.0;
    let v = p[2:];
    p[:-2] = v;                     # p[i] = old p[i + 2]
    v[:] = p[:-2] + 1.0;            # p[i + 2] = p[i] + 1, all read before written
    return (a, b, c, d, f, g, h1, h2, h3, p);
}

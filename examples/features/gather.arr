# Gathers: indexing with an i64 index array (NumPy integer-array indexing along axis 0) gives a new
# array of shape idx.shape + x.shape[1:]; negative indices count from the end, repeated indices
# repeat elements or rows. A gather fuses with the producer of its index array and with its
# consumers; the gathered array itself is computed first (docs/language.md, "Gathers").
fn gather(n: i64 = 10) -> (f64[6], i64[2, 3], f64[4, 3], f64, f64[2, 3, 3], f64[5, 4]) {
    let x = arange(n) * 0.5 + 1.0;
    let idx = (arange(6) * 7) % n - 4;            # negative and positive indices
    let a = x[idx] * 2.0 - x[0:6];                # index producer, gather and consumer fuse
    let t = arange(12) * 3;
    let j2 = arange(2)[:, newaxis] * 3 + arange(3);
    let b = t[j2[:, ::-1]];                       # a 2-d index array (a view): shape [2, 3]
    let m = arange(5)[:, newaxis] * 10.0 + arange(3);
    let rows = m[arange(4) % 2 * 2 - 1];          # rows -1, 1, -1, 1 of a matrix
    let s = sum(x[idx % 3]);                      # a gather inside a reduction
    let c = m[j2 % 5];                            # [2, 3] indices into a [5, 3] matrix
    let cols = take(m, arange(4) % 3 - 1, axis=1);  # columns -1, 0, 1, -1 (NumPy's take)
    return (a, b, rows, s, c, cols);
}

# Integer indexing: each integer index drops a dimension (negative ones count from
# the end), all-integer subscripts give scalars, integer-indexed writes, and scalar
# element reads/writes inside loops with computed (also negative) indices.
fn indexing() -> (i64[2, 3, 4], i64[3, 4], i64[2, 4], i64[3], i64[2, 3], i64, i64[4], i64[3, 2], f64[2, 3, 4], f64[6], f64, i64[4]) {
    let i0 = arange(2);
    let i1 = arange(3);
    let i2 = arange(4);
    let t = i0[:, newaxis, newaxis] * 100 + i1[:, newaxis] * 10 + i2;   # t[i, j, k] = 100 i + 10 j + k
    let r1 = t[1];
    let r2 = t[:, 2];
    let r3 = t[-1, :, 0];
    let r4 = t[..., -1];
    let r5 = t[1, 2, 3];           # scalar 123
    let r6 = t[0, -1];
    let r7 = t[1, ::-1, 1:3];

    let f = zeros(2, 3, 4);
    f[1] = 1.0;
    f[0, 2] = arange(4);           # i64 values cast to f64
    f[:, 1, -1] = 7.0;
    f[1, 0, 0] = 9.5;
    f[..., 1] += 0.25;

    let s = zeros(6);
    for i in 0..6 {
        s[i] = f64(i * i);
    }
    let acc = 0.0;
    for i in 0..6 {
        acc += s[-1 - i] * f64(i + 1);    # s[5], s[4], ..., s[0]
    }
    let row = r1[1 - 2];           # index -1: the last row of r1
    return (t, r1, r2, r3, r4, r5, r6, r7, f, s, acc, row);
}

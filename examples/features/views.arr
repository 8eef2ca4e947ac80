# Views: slices with negative bounds and negative steps, bound clipping, integer
# indices with negative values, views of views, and writing through views
# (a view aliases its base array).
fn views() -> (i64[10], i64[3], i64[4], i64[3], i64[3], i64[5], i64[4], i64, i64[4, 5], i64[4, 2], i64[2, 3], f64[4, 5], i64[10], i64[4]) {
    let a = arange(10);
    let rev = a[::-1];            # 9 8 ... 0
    let last3 = a[-3:];           # 7 8 9
    let back2 = a[-2:1:-2];       # 8 6 4 2
    let step3 = a[1:-1:3];        # 1 4 7
    let clipped = a[-100:3];      # 0 1 2 (start clipped to 0)
    let down = a[7:2:-1];         # 7 6 5 4 3
    let every3 = a[::-3];         # 9 6 3 0
    let elem = a[-4];             # 6, a scalar

    let r = arange(4);
    let c = arange(5);
    let m = r[:, newaxis] * 10 + c;    # m[i, j] = 10 i + j, i64[4, 5]
    let m2 = m[::-1, 1::2];            # rows 3 2 1 0, columns 1 3
    let m3 = m[-1:0:-2, ::-2];         # rows 3 1, columns 4 2 0

    # Writing through views of a 2-d array.
    let b = f64(m);
    let v = b[1:, ::-2];               # rows 1 2 3, columns 4 2 0
    v[:] = -1.0;
    v[0, :] += 100.0;                  # row 1 of b, columns 4 2 0
    b[::-1, 1] = arange(4);            # column 1, bottom to top: 0 1 2 3 (cast to f64)

    # A view of a view, written through: changes the base.
    let z = arange(10);
    let inner = z[2:9];                # 2 .. 8
    let w = inner[::-2];               # z[8], z[6], z[4], z[2]
    w[:] = -7;
    w[-1] = 55;                        # z[2]
    return (rev, last3, back2, step3, clipped, down, every3, elem, m, m2, m3, b, z, w);
}

# Reductions over all elements and along every axis (positive and negative axis
# numbers) of 3-d arrays of f64, i64, bool and f32.
fn reductions(seed: i64 = 3) -> (f64, f64[3, 4], f64[2, 4], f64[2, 3], f64[2, 3], f64, f64[2, 4], f64, f64[3, 4], f64, f64[2, 3], f64, f64[2, 4], i64, i64[2, 4], i64[2, 3], i64[3, 4], i64, f64, f64[2, 3], i64, i64[3, 4], f32, f32[2, 4]) {
    let x = random(2, 3, 4, seed=seed) * 2.0 - 0.5;    # uniform in [-0.5, 1.5)
    let s_all = sum(x);
    let s0 = sum(x, axis=0);
    let s1 = sum(x, axis=1);
    let s2 = sum(x, axis=2);
    let sm1 = sum(x, axis=-1);
    let p = 1.0 + x * 0.1;                              # in [0.95, 1.15)
    let p_all = prod(p);
    let p1 = prod(p, axis=1);
    let mn = min(x);
    let mn0 = min(x, axis=0);
    let mx = max(x);
    let mx2 = max(x, axis=2);
    let av = mean(x);
    let avm2 = mean(x, axis=-2);

    let i0 = arange(2);
    let i1 = arange(3);
    let i2 = arange(4);
    let t = i0[:, newaxis, newaxis] * 100 + i1[:, newaxis] * 10 + i2 - 50;   # i64[2, 3, 4]
    let ti = sum(t);
    let ti1 = sum(t, axis=1);
    let tp2 = prod(t % 5 + 1, axis=2);
    let tmin0 = min(t, axis=0);
    let tmax = max(t);
    let tmean = mean(t);
    let tmean2 = mean(t, axis=2);

    let bm = x > 0.5;
    let bsum = sum(bm);
    let bsum0 = sum(bm, axis=0);

    let xf = f32(x);
    let fs = sum(xf);
    let fs1 = sum(xf, axis=1);
    return (s_all, s0, s1, s2, sm1, p_all, p1, mn, mn0, mx, mx2, av, avm2,
            ti, ti1, tp2, tmin0, tmax, tmean, tmean2, bsum, bsum0, fs, fs1);
}

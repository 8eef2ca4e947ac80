# Array creation: arange in its three forms (integer and float, negative step),
# linspace, full (dtype from the value or dtype=), ones/zeros/empty with dtype=,
# copy (a copy does not alias its source), and random with several dimensions
# (element k in row-major order depends only on seed and k).
fn creation(n: i64 = 5, seed: i64 = 11) -> (i64[n], i64[n + 1], i64[4], f64[9], f64[8], f64[4], f64[n], f64[9], f64[6], f64[2, 3], i64[n], bool[3], f32[2, 2], i64[3], bool[2, 2], f64[n], f64[3], f64[n], f64[n], f64[n], f64[2, 3], f64[6], f64[4]) {
    let a1 = arange(n);
    let a2 = arange(2, n + 3);
    let a3 = arange(10, 0, -3);          # 10 7 4 1
    let a4 = arange(0.5, 5.0, 0.5);      # 0.5 .. 4.5
    let a5 = arange(-1.0, 1.0, 0.25);    # -1 .. 0.75
    let a6 = arange(1, 3, 0.5);          # mixed: f64, 1 1.5 2 2.5
    let l1 = linspace(0.0, 1.0, n);
    let l2 = linspace(2.0, -2.0, 9);     # decreasing
    let l3 = linspace(0, 10, 6);         # integer arguments, f64 result
    let f1 = full(2, 3, 7.5);
    let f2 = full(n, 4);                 # i64
    let f3 = full(3, true);              # bool
    let f4 = full(2, 2, 1, dtype=f32);
    let o1 = ones(3, dtype=i64);
    let z1 = zeros(2, 2, dtype=bool);
    let o2 = ones(n);
    let e1 = empty(3);
    e1[:] = 2.0;

    let src = arange(n) * 1.5;
    let cp = copy(src);
    let cv = copy(src[::-1]);            # a reversed copy
    cp[0] = -1.0;
    src[1] = 100.0;
    src[-1] = 42.0;                      # neither cp nor cv sees these writes

    let r2 = random(2, 3, seed=seed);
    let r1 = random(6, seed=seed);       # the same values, flat
    let r0 = random(4);                  # seed 0
    return (a1, a2, a3, a4, a5, a6, l1, l2, l3, f1, f2, f3, f4, o1, z1, o2, e1, src, cp, cv, r2, r1, r0);
}

# Elementwise operations: where/minimum/maximum, math functions, remainder with
# negative operands, casts, `**` with integer and real exponents and bases, dtype
# promotion with literals, f32 arithmetic, bool logic and unary operators.
fn elementwise(n: i64 = 7) -> (f64[n], i64[n], f64[n], f64[n], f64[n], f64[n], f64[n], f64[n], f64[n], f64[n], f64[n], f64[n], i64[n], f64[n], i64[n], bool[n], f64[n], f32[n], i64[n], i64[n], i64[n], i64[n], f64[n], f64[n], f64[n], f64[n], f64[n], f64[n], f32[n], f32[n], f64[n], f64[n], bool[n], bool[n], bool[n], f64[n], i64[n]) {
    let x = linspace(-3.0, 3.0, n);
    let k = arange(n) - 3;                       # i64, negative values too
    let kp = arange(n);                          # i64, non-negative

    let w1 = where(x > 0.0, x, -x * 0.5);
    let w2 = where(x < -1.5, -1, 1);             # literal branches: i64
    let mn = minimum(x, 1.0);
    let mx = maximum(x, -x * x + 1.0);

    let ab = abs(x);
    let sq = sqrt(abs(x));
    let ex = exp(x);
    let lg = log(abs(x) + 1.0);
    let sn = sin(x);
    let cs = cos(x);
    let th = tanh(x);

    let rf = x % 2.0;                            # floor remainder: sign of the divisor
    let ri = k % 3;
    let rneg = x % -1.25;

    let c1 = i64(x * 0.7);                       # truncation toward zero
    let c2 = bool(k);
    let c3 = f64(x > 0.0);
    let c4 = f32(x);
    let c5 = i64(k > 0);

    let p1 = k ** 2;                             # i64 ** literal: i64
    let p2 = kp ** 3;
    let p3 = 2 ** kp;                            # literal base, i64 exponent: i64
    let p4 = x ** 2;
    let p5 = abs(x) ** 0.5;
    let p6 = (abs(x) + 1.0) ** x;                # f64 ** f64 array
    let p7 = x ** kp;                            # f64 ** i64 array: f64
    let p8 = (-1.0) ** kp;
    let p9 = -x ** 2;                            # -(x ** 2)

    let yf = c4 * 2.0 + 1;                       # literals keep f32
    let zf = c4 * c4 - c4 / 3.0;
    let mixed1 = c4 + k;                         # f32 with an i64 array: f64
    let mixed2 = c4 + x;                         # f32 with f64: f64

    let b1 = x > 0.0 & k % 2 == 0;               # & binds looser than comparisons
    let b2 = ~(x < 1.0) | x == -3.0;
    let b3 = (x >= 0.0) != (k <= 0);
    let dv = k / 4;                              # i64 / i64: f64
    let ng = -k;
    return (w1, w2, mn, mx, ab, sq, ex, lg, sn, cs, th, rf, ri, rneg, c1, c2, c3, c4, c5,
            p1, p2, p3, p4, p5, p6, p7, p8, p9, yf, zf, mixed1, mixed2, b1, b2, b3, dv, ng);
}

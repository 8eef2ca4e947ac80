# Magnetic field extrapolation: bh107/benchpress (master), benchpress/benchmarks/
# magnetic_field_extrapolation/python_numpy/magnetic_field_extrapolation.py, "Magnetic Field
# Extrapolation" (size <x-size>*<y-size>*<iterations>). A linear force-free field above a
# magnetogram: the n x n boundary field B_x0 (random here, as the original's default input) is
# tapered at its edges by a cosine window, expanded in a double sine series (coefficients C),
# and the field (Bx, By, Bz) is summed from that series on n x n x n points, each mode decaying
# as exp(-r x) with its wave number r. The original forms the series' products as 4-d and 5-d
# broadcast arrays (n^4 and n^5 elements) and sums them; so does this port. The results are the
# three field components of the last of `iterations` evaluations.
# Deviations from the original's NumPy spelling:
# - `x[:, None]` is `x[:, newaxis]` (arrayc's name for None in a subscript); `np.` is left out,
#   as arrayc writes every builtin (`sum(x, -1)`, `ones_like(B[0])`).
# - `np.arange(n, dtype=B_x0.dtype)` is `arange(n, dtype=f64)`: a dtype is written by its name
#   (B_x0 is f64).
# - `int(np.ceil(...))` is `i64(ceil(...))`; `.astype(B_x0.dtype, copy=False)` of an f64
#   linspace is left out (f64 already).
# - the input B_x0 is `random(n, n, seed=seed)` (Benchpress's `bench.random_array`, NumPy's
#   `np.random.rand`; its .npz magnetogram is not used), square as `window` asserts.

fn window(b: f64[N, N], a: f64) -> f64[N, N] {
    let n = N;
    let wl = ones_like(b[0]);
    let nb = i64(ceil(a * (n - 1) / 2.0));
    wl[:nb] = 0.5 * (1.0 + cos(pi * (2.0 * arange(nb) / (a * (n - 1)) - 1.0)));
    wl[-nb:] = 0.5 * (1.0 + cos(pi * (2.0 * arange(nb - 1, -1, -1) / (a * (n - 1)) - 1.0)));
    wl *= wl;
    let w = sqrt(wl + wl[:, newaxis]);
    return b * w;
}

fn calc_b(b_x0: f64[N, N], alpha: f64, x_min: f64, x_max: f64, y_min: f64, y_max: f64,
          z_min: f64, z_max: f64) -> (f64[N, N, N], f64[N, N, N], f64[N, N, N]) {
    let n = N;
    let x = linspace(x_min, x_max, n, endpoint=false);
    let y = linspace(y_min, y_max, n);
    let z = linspace(z_min, z_max, n);
    let u = arange(n, dtype=f64);

    # the coefficients C of the double sine series
    let c = 4.0 / (n - 1.0) ** 2 * sum(sum(
        (b_x0 * sin(pi / y_max * u * y[:, newaxis])[:, :, newaxis])[:, newaxis] * sin(
            pi / z_max * u * z[:, newaxis])[:, newaxis], -1), -1);
    let l = pi ** 2 * ((u ** 2 / y_max)[:, newaxis] + (u ** 2 / z_max));
    l[0, 0] = 1.0;
    let r = sqrt(l - alpha ** 2);

    # the field
    let sincos = sin(pi / y_max * u * y[:, newaxis])[:, newaxis, :, newaxis] * (u * cos(
        pi / z_max * u * z[:, newaxis]))[newaxis, :, newaxis, :];
    let cossin = (u * cos(pi / y_max * u * y[:, newaxis]))[:, newaxis, :, newaxis] * sin(
        pi / z_max * u * z[:, newaxis])[newaxis, :, newaxis, :];
    let temp_x = c * sin(pi / y_max * u * y[:, newaxis])[:, newaxis, :, newaxis] * sin(
        pi / z_max * u * z[:, newaxis])[newaxis, :, newaxis, :];
    let temp_y = c / l * (alpha * pi / z_max * sincos - r * pi / y_max * cossin);
    let temp_z = c / l * (alpha * pi / y_max * cossin + r * pi / z_max * sincos);
    let exprx = exp(-r * x[:, newaxis, newaxis]);

    let bx = sum(sum(temp_x * exprx[:, newaxis, newaxis], -1), -1);
    let by = sum(sum(temp_y * exprx[:, newaxis, newaxis], -1), -1);
    let bz = sum(sum(temp_z * exprx[:, newaxis, newaxis], -1), -1);
    return (bx, by, bz);
}

fn magnetic_field_extrapolation(n: i64 = 16, iterations: i64 = 10, seed: i64 = 1)
    -> (f64[n, n, n], f64[n, n, n], f64[n, n, n]) {
    let b_x0 = random(n, n, seed=seed);
    let rx = zeros(n, n, n);
    let ry = zeros(n, n, n);
    let rz = zeros(n, n, n);
    for it in range(iterations) {
        (rx, ry, rz) = calc_b(window(b_x0, 0.37), 0.0, 0.0, 0.25, 0.0, 1.0, 0.0, 1.0);
    }
    return (rx, ry, rz);
}

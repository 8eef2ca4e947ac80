# Quasicrystal: bh107/benchpress (master), benchpress/benchmarks/quasicrystal/python_numpy/
# quasicrystal.py, "Quasi Crystal simulation" (size k*stripes*image_size*iterations). The image of
# a quasicrystal: the sum of k plane waves of `stripes` stripes each, in log-polar coordinates
# (angle theta, log radius r) of an n x n grid centred on 0, drawn at `iterations` phases of one
# turn; the result is the image of the last phase.
# Deviations from the original's NumPy spelling:
# - `np.empty((N, N), dtype=bench.dtype)` is `empty(n, n)` (f64, Benchpress's default dtype), and
#   `np.arange(-N / 2, N / 2, dtype=bench.dtype)` is `arange(-n / 2, n / 2, dtype=f64)`: a dtype
#   is written by its name; `np.` is left out, as arrayc writes every builtin.
fn quasicrystal(k: i64 = 5, stripes: i64 = 37, n: i64 = 64, iterations: i64 = 5) -> f64[n, n] {
    let phases = arange(0, 2 * pi, 2 * pi / iterations);
    let image = empty(n, n);
    let d = arange(-n / 2, n / 2, dtype=f64);
    let (xv, yv) = meshgrid(d, d);
    let theta = arctan2(yv, xv);
    let r = log(sqrt(xv * xv + yv * yv));
    r[isinf(r) == true] = 0;

    let tcos = theta * cos(arange(0, pi, pi / k))[:, newaxis, newaxis];
    let rsin = r * sin(arange(0, pi, pi / k))[:, newaxis, newaxis];
    let inner = (tcos - rsin) * stripes;

    let cinner = cos(inner);
    let sinner = sin(inner);

    for phase in phases {
        image[:] = sum(cinner * cos(phase) - sinner * sin(phase), axis=0) + k;
    }
    return image;
}

# 1-d convolution filter: bh107/benchpress (master), benchpress/benchmarks/convolve1d/python_numpy/
# convolve1d.py, "Convolution Filter 1D" (size <image-size>*<filter-size>*<niters>). A random image
# of `image_size` values is convolved with a random filter of `filter_size` values, `iterations`
# times, NumPy's `np.convolve(image, image_filter)` (mode 'full'); the result is the last
# convolution, of image_size + filter_size - 1 values.
# Deviations from the original's NumPy spelling:
# - inputs: `bench.random_array((n,))` (NumPy's `np.random.rand`) is `random(n, seed=...)`, the
#   filter from seed + 1, so the reference sees the same numbers.
# - `R` is bound before the loop (`zeros`) since arrayc has no variable that a loop alone defines
#   (Python's `R` exists only after the first iteration).
fn convolve1d(image_size: i64 = 1000, filter_size: i64 = 10, iterations: i64 = 10, seed: i64 = 1)
    -> f64[image_size + filter_size - 1] {
    let image = random(image_size, seed=seed);
    let image_filter = random(filter_size, seed=seed + 1);
    let r = zeros(image_size + filter_size - 1);
    for i in 0..iterations {
        r = convolve(image, image_filter);
    }
    return r;
}

# 3-D convolution with a Gaussian filter (bh107/benchpress at c16e8ec,
# benchmarks/convolve_3d/python_numpy/convolve_3d.py): an n x n x n f64 image of uniform
# random values (the original: 512^3, B.random_array) is filtered by an fsize^3 f32 Gaussian
# of weight 13.0 normalised to sum 1 (gen_3d_filter, which keeps the 2-D normalisation
# 1 / (2 pi weight^2) before it normalises), computed as the sum of the fsize^3 views of
# the image shifted by (i, j, k), each times the filter's weight (i, j, k), in row-major
# order of the filter: a "valid" correlation, (n - fsize + 1)^3 values.
# fsize must be odd (the original's filter loop writes out of bounds otherwise).
# Deviations from the NumPy spelling:
# * `B.random_array((512, 512, 512))` is `random(n, n, n, seed=seed)` (another generator).
# * `np.zeros((size,) * 3, dtype=np.float32)` is `zeros(fsize, fsize, fsize, dtype=f32)`;
#   Python 2's `size / 2` is `fsize // 2`; Python's `totalsum = 0`, an int that the first f32
#   element makes an np.float32, is `f32(0.0)`.
# * bohrium.stdviews' `cartesian(image, fsize)` (a list of views built from tuples of slices)
#   and Python's `sum(d[0] * d[1] for d in zip(views, filter.flatten()))` are a loop that adds
#   each view times its weight to `result`, in the same order (the generator's sum starts
#   from 0, which changes nothing).
# * The harness (util.Benchmark) and its `image + 1, image_filter + 1` (a no-op that placed the
#   arrays for Bohrium) are left out.
# Result: the filtered image.
fn convolve_3d(n: i64 = 24, fsize: i64 = 5, seed: i64 = 1) -> f64[n - fsize + 1, n - fsize + 1, n - fsize + 1] {
    let image = random(n, n, n, seed=seed);
    # gen_3d_filter(fsize, 13.0)
    let weight = 13.0;
    let kernel = zeros(fsize, fsize, fsize, dtype=f32);
    let totalsum = f32(0.0);
    let kernelrad = fsize // 2;
    let caleuler = 1.0 / (2.0 * pi * weight ** 2);
    for filter_z in range(-kernelrad, kernelrad + 1, 1) {
        for filter_y in range(-kernelrad, kernelrad + 1, 1) {
            for filter_x in range(-kernelrad, kernelrad + 1, 1) {
                let distance = f64(filter_x * filter_x + filter_y * filter_y + filter_z * filter_z) / (2.0 * (weight * weight));
                kernel[filter_z + kernelrad, filter_y + kernelrad, filter_x + kernelrad] = caleuler * exp(-distance);
                totalsum += kernel[filter_z + kernelrad, filter_y + kernelrad, filter_x + kernelrad];
            }
        }
    }
    kernel *= 1.0 / totalsum;
    # convolve_3d(image, kernel)
    let m = n - fsize + 1;
    let result = zeros(m, m, m);
    for i in range(fsize) {
        for j in range(fsize) {
            for k in range(fsize) {
                result += image[i:i + m, j:j + m, k:k + m] * kernel[i, j, k];
            }
        }
    }
    return result;
}

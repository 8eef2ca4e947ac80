# 2-D convolution with a Gaussian filter (bh107/benchpress at c16e8ec,
# benchmarks/convolve_2d/python_numpy/convolve_2d.py): a grey-scale f32 image, the sum of an
# RGB image's channels weighted by the tones (0.3, 0.6, 0.11), is filtered by an fsize x fsize
# f32 Gaussian of weight 13.0 normalised to sum 1 (gen_2d_filter), computed as the sum of the
# fsize^2 views of the image shifted by (i, j), each times the filter's weight (i, j), in
# row-major order of the filter: a "valid" correlation, (n - fsize + 1)^2 values.
# fsize must be odd (the original's filter loop writes out of bounds otherwise).
# Deviations from the original:
# * The image was read from a photo (/tmp/Hell.jpg, PIL); here it is an n x n RGB image of
#   random integer levels 0..255 (`integers(0, 256, n, n, 3, seed=seed)`), cast to f32 as
#   `np.array(img, dtype=np.float32)` does.
# * `np.add.reduce` is `add.reduce` (no `np.`, as every builtin); `np.zeros((size, size), dtype=np.float32)`
#   is `zeros(fsize, fsize, dtype=f32)`; Python 2's `size / 2` is `fsize // 2`; Python's
#   `totalsum = 0`, an int that the first f32 element makes an np.float32, is `f32(0.0)`.
# * bohrium.stdviews' `cartesian(image, fsize)` (a list of views built from tuples of slices)
#   and Python's `sum(d[0] * d[1] for d in zip(views, filter.flatten()))` are a loop that adds
#   each view times its weight to `result`, in the same order (the generator's sum starts
#   from 0, which changes nothing).
# * The harness (util.Benchmark) and its `image + 1, image_filter + 1` (a no-op that placed the
#   arrays for Bohrium) are left out.
# Result: the filtered image.
fn convolve_2d(n: i64 = 64, fsize: i64 = 5, seed: i64 = 1) -> f32[n - fsize + 1, n - fsize + 1] {
    let rgb = f32(integers(0, 256, n, n, 3, seed=seed));
    let tones = array([0.3, 0.6, 0.11], dtype=f32);
    let image = add.reduce(rgb * tones[newaxis, newaxis, :], axis=2);
    # gen_2d_filter(fsize, 13.0)
    let weight = 13.0;
    let kernel = zeros(fsize, fsize, dtype=f32);
    let totalsum = f32(0.0);
    let kernelrad = fsize // 2;
    let caleuler = 1.0 / (2.0 * pi * weight ** 2);
    for filter_y in range(-kernelrad, kernelrad + 1, 1) {
        for filter_x in range(-kernelrad, kernelrad + 1, 1) {
            let distance = f64(filter_x * filter_x + filter_y * filter_y) / (2.0 * (weight * weight));
            kernel[filter_y + kernelrad, filter_x + kernelrad] = caleuler * exp(-distance);
            totalsum += kernel[filter_y + kernelrad, filter_x + kernelrad];
        }
    }
    kernel *= 1.0 / totalsum;
    # convolve_2d(image, kernel)
    let m = n - fsize + 1;
    let result = zeros(m, m, dtype=f32);
    for i in range(fsize) {
        for j in range(fsize) {
            result += image[i:i + m, j:j + m] * kernel[i, j];
        }
    }
    return result;
}

# Convolution filter (any dimensional): bh107/benchpress (master), benchpress/benchmarks/convolve/
# python_numpy/convolve.py, "Convolution Filter (any dimensional)" (size
# <image-size>*<filter-size>*<ndims>*<niters>). A random image of image_size**ndims values is
# convolved with a random filter of filter_size**ndims values, `iterations` times, SciPy's
# `scipy.signal.convolve(image, image_filter)` (mode 'full'); the result is the last convolution.
# Deviations from the original's spelling:
# - `ndims` is fixed at 2 (Benchpress's test size 1000*10*2*10): arrayc's ranks are static, and
#   `np.random.rand(image_size ** ndims).reshape([image_size] * ndims)` needs a rank known only at
#   run time.
# - `scipy.signal.convolve` (arrayc has no n-d convolution, and no SciPy; `convolve` is NumPy's
#   1-d one) is written as its definition, the direct method: the full output is the sum, over
#   every filter position (i, j), of the image scaled by image_filter[i, j] and shifted by (i, j),
#   `r[i:i+n, j:j+n] += image * image_filter[i, j]`. SciPy's 'auto' method may use an FFT for
#   large inputs, which agrees to rounding.
# - inputs: `bench.random_array(...)` (NumPy's `np.random.rand`) is `random(..., seed=...)`, the
#   filter from seed + 1; `R` is bound before the loop (`zeros`), as arrayc has no variable that
#   a loop alone defines.
# - the entry is `convolve_filter`, not `convolve`: a builtin's name (NumPy's 1-d convolve) is
#   reserved (E0203).
fn convolve_filter(image_size: i64 = 64, filter_size: i64 = 5, iterations: i64 = 2, seed: i64 = 1)
    -> f64[image_size + filter_size - 1, image_size + filter_size - 1] {
    let n = image_size;
    let m = filter_size;
    let image = random(n, n, seed=seed);
    let image_filter = random(m, m, seed=seed + 1);
    let r = zeros(n + m - 1, n + m - 1);
    for it in 0..iterations {
        r = zeros(n + m - 1, n + m - 1);
        for i in 0..m {
            for j in 0..m {
                r[i:i + n, j:j + n] += image * image_filter[i, j];
            }
        }
    }
    return r;
}

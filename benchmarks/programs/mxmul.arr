# Matrix multiplication by broadcasting (bh107/benchpress at c16e8ec,
# benchmarks/mxmul/python_numpy/mxmul.py): x and y are n x n matrices of the values
# arange(n*n) / (n*n) in row-major order, and each of `iterations` rounds adds
# x @ y to C, computed as NumPy's add.reduce(x[:, newaxis] * transpose(y), -1): the
# n x n x n products x[i, k] * y[k, j], summed along the last axis.
# Deviations from the NumPy spelling: `x.shape = (n, n)` (an in-place reshape) is
# `reshape(..., (n, n))` (arrayc has no assignment to `shape`); `np.add.reduce` and
# `np.zeros_like` are written without `np.`, as every arrayc builtin; `np.arange(nelements, dtype=float64)`, with
# the float count N*N, is `arange(n * n)` (i64), the same values once divided by the f64
# `nelements`. The benchmark harness (util.Benchmark, input files, flush) is left out.
# Result: C.
fn mxmul(n: i64 = 32, iterations: i64 = 1) -> f64[n, n] {
    let nelements = f64(n * n);
    let x = reshape(arange(n * n) / nelements, (n, n));
    let y = reshape(arange(n * n) / nelements, (n, n));
    let c = zeros_like(x);
    for it in range(iterations) {
        c += add.reduce(x[:, newaxis] * transpose(y), -1);
    }
    return c;
}

# STREAM triad (McCalpin's STREAM benchmark, kernel "Triad"): a[:] = b + s * c over three
# f64 arrays of n elements, repeated `iterations` times. With the defaults each array is
# 400 MB (far beyond any cache), so every sweep streams 3 * 8 * n bytes: b and c are read,
# a is written (s * c lives in a register once the two operations are fused).
# benchmarks/harness.py runs it to measure the memory bandwidth that arrayc's runtime reaches
# (traffic bytes of the launched kernels / run time): the roofline of the benchmark suite.
# b is 1.0 and c is 2.0 everywhere, so every element of a is 1 + s * 2.
# Result: the last element of a (7.0 with the defaults), which also keeps the loop alive.
fn stream_triad(n: i64 = 50000000, iterations: i64 = 20, s: f64 = 3.0) -> f64 {
    let a = zeros(n);
    let b = full(n, 1.0);
    let c = full(n, 2.0);
    for i in 0..iterations {
        a[:] = b + s * c;
    }
    return a[n - 1];
}

# The streaming probe of issue 33 (benchmarks/stream_probe.py): `sweeps` sweeps of two
# element-wise statements over f64 arrays of n elements (with the default n = 10^8, 800 MB each,
# far beyond any cache). Each statement is one kernel reading two arrays and writing one, so a
# sweep streams 6 * 8 * n bytes (the probe takes the figure from `--time`'s traffic line).
# b is 1 and a starts at 1, so after k sweeps every element of a is 2.5 - 1.5 * 0.5^k
# (c = a + 0.5, a = 1 + 0.5 * c): the result, sum(a), is n * (2.5 - 1.5 * 0.5^k), one number,
# so the run copies 8 bytes to the host.
fn stream(n: i64 = 100000000, sweeps: i64 = 20) -> f64 {
    let a = full(n, 1.0);
    let b = full(n, 1.0);
    let c = zeros(n);
    for i in 0..sweeps {
        c[:] = a + 0.5 * b;
        a[:] = b + 0.5 * c;
    }
    return sum(a);
}

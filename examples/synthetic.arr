# The synthetic example of Kristensen et al., "Fusion of Array Operations at Runtime"
# (2016), Fig. 3: seven array operations with views that overlap in different ways,
# a small test for fusion and for the order of reads and writes.

# Exactly the paper's program. Everything starts at zero, so the result is all zeros.
fn synthetic() -> f64[5] {
    let a = zeros(4);
    let b = zeros(4);
    let d = zeros(5);
    let e = zeros(5);
    a += d[:-1];
    a[:] = d[:-1];
    b += e[:-1];
    b[:] = e[:-1];
    let t = a * b;
    d[1:] = maximum(t, e[1:]);
    e[1:] = minimum(t, d[1:]);
    return d;
}

# The same seven operations on non-zero data, so that every one of them matters:
# d = [-1, 0, 1, 2, 3] (linspace), e = [5, 4, 3, 2, 1] (5 - arange), both times `scale`,
# a = [0.5, 1.5, 2.5, 3.5], b = 1.0 (both are overwritten after the in-place adds).
# Returns all four arrays plus t.
fn synthetic_nonzero(scale: f64 = 1.0) -> (f64[5], f64[5], f64[4], f64[4], f64[4]) {
    let a = arange(4) + 0.5;
    let b = ones(4);
    let d = linspace(-1.0, 3.0, 5) * scale;
    let e = (5.0 - arange(5)) * scale;
    a += d[:-1];
    a[:] = d[:-1];
    b += e[:-1];
    b[:] = e[:-1];
    let t = a * b;
    d[1:] = maximum(t, e[1:]);
    e[1:] = minimum(t, d[1:]);
    return (d, e, a, b, t);
}

# Kristensen et al. 2016, Fig. 3 at the arr stage: 4 allocations with fills, the 7 array
# operations in program order, DEL after each base array's last use, SYNC + DEL of the result.
# RUN: %arrayc emit --stage=arr %s | FileCheck %s

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

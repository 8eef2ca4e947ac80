# The program fragment of Kristensen et al. 2016, Fig. 21(a), from Darte and Huard: the WSP
# fusion pass with bohrium, max-contract or robinson gives the loops of Fig. 21(c), where the
# temporaries f and g become scalars (contracted); max-locality gives Fig. 21(b) or, at equal
# cost at operation level, (c) (see docs/fuse-report.md).
# Fortran's E(0:N+1) is e[0:n+2] here; A..D, F..H have n elements.
fn darte(n: i64 = 8) -> (f64[n], f64[n + 2], f64[n]) {
    let e = linspace(0.0, 1.0, n + 2);
    let a = zeros(n);
    a[:] = e[:n];                       # A(1:N) = E(0:N-1)
    let b = a * 2.0 + 3.0;              # B = A*2 + 3
    let c = b + 99.0;                   # C = B + 99
    let d = a[::-1] + a;                # D(1:N) = A(N:1:-1) + A(1:N)
    e[1:n + 1] = b + c * d;             # E = B + C*D
    let f = e[1:n + 1] * 4.0 + 2.0;     # F = E*4 + 2
    let g = e[1:n + 1] * 8.0 - 3.0;     # G = E*8 - 3
    let h = f + g * e[2:];              # H(1:N) = F(1:N) + G(1:N)*E(2:N+1)
    return (a, e, h);
}

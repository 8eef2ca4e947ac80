# Matrix products (`@`, `dot`). A product of two f64 or f32 matrices is one `arr.matmul`, computed
# on the CPU by a library (faer) on the operands' views as they lie: transposed, sliced with steps,
# reversed. Integer products and products with a 1-d operand stay fused kernels. With n, k or m 0
# or 1 the shapes are empty, single rows and columns, or an inner axis of nothing (zeros).
fn matmul(n: i64 = 5, k: i64 = 7, m: i64 = 3) -> (f64[n, m], f64[n, m], f32[n, m], f64[n, m], f64[n, m], f64[n, k], f64[n, m], f64[1, m], i64[n, m], f64[n]) {
    let a = random(n, k, seed=1);
    let b = random(k, m, seed=2);
    let plain = a @ b;
    let at = random(k, n, seed=3);
    let transposed = at.T @ b[::-1, :] * 2.0 + 1.0;     # (at.T @ b[::-1, :]) * 2.0 + 1.0
    let single = f32(a) @ f32(b);
    let mixed = dot(f32(a), b);                         # f32 converted to f64 first, as NumPy does
    let big = random(2 * n, 3 * k, seed=4);
    let stepped = big[::2, ::-3] @ b;                   # strides 2 and -3 in the base
    let chain = (a @ b) @ b.T;
    let outer = a[:, :1] @ b[:1, :];                    # n x 1 by 1 x m (0 x m when k = 0)
    let row = ones(1, n) @ plain;
    let ints = i64(a * 10.0) @ i64(b * 10.0);           # i64: the fused kernel
    let mv = a @ ones(k) * 0.5;                         # matrix-vector: the fused kernel
    return (plain, transposed, single, mixed, stepped, chain, outer, row, ints, mv);
}

# Scans (cumsum, cumprod) and arg-reductions (argmin, argmax). A scan keeps its input's shape and
# runs along its axis in order (float results are bit-identical to NumPy's); it fuses with the
# elementwise producer of its input and with consumers of its output, which is then contracted.
# argmin/argmax give NumPy's first occurrence (docs/language.md, builtin functions).
fn scans(n: i64 = 9, m: i64 = 5) -> (f64[n], i64[n], f64[n, m], f64[n, m], f64[n, m]) {
    let x = arange(n) * 0.5 - 1.0;
    let c = cumsum(x * 2.0) + 1.0;                # producer, scan and consumer: one kernel
    let p = cumprod(arange(n) % 3 + 1);           # i64
    let g = (arange(n)[:, newaxis] * 3 + arange(m)) % 7 * 0.25;
    let rows = cumsum(g, axis=0);                 # down the columns
    let cols = cumprod(g[:, ::-1] + 0.5, axis=-1);  # along the rows of a reversed view
    let both = cumsum(cumsum(g, axis=1), axis=0);   # two scans along different axes
    return (c, p, rows, cols, both);
}

fn arg_reductions(n: i64 = 9, m: i64 = 5) -> (i64[m], i64[n], i64) {
    let g = (arange(n)[:, newaxis] * 3 + arange(m)) % 7 * 0.25;
    let lo = argmin(g, axis=0);                   # ties: the first occurrence
    let hi = argmax(g, axis=1);
    let flat = argmax(g[1:, :]);                  # the row-major position in the flattened view
    return (lo, hi, flat);
}

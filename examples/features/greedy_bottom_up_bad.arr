# van Balen et al. 2024, Sec. 5, `greedyBottomUpBad`: an n x m array gathered from xs and reduced
# twice along its rows. Fusing the gather with both reductions contracts the large array; the
# paper's bottom-up greedy fuses the final map first and then cannot fuse both reductions, so the
# large array is materialised. `benchmarks/REPORT-fusion.md` compares arrayc's greedy and optimal.
fn greedy_bottom_up_bad(n: i64 = 1000, m: i64 = 500) -> f64[n] {
    let xs = 1.0 + arange(n) * 0.000001;
    let is = (arange(n)[:, newaxis] * 7 + arange(m)) % n;
    let large = xs[is];
    let ys = sum(large, axis=1);
    let zs = prod(large, axis=1);
    return ys + zs;
}

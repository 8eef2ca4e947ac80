# van Balen et al. 2024, Sec. 5, `greedyTopDownBad`: the paper's top-down greedy fuses cs with bs
# (a diagonal fusion) where the optimum fuses cs with es (vertically). `ds` reads one element of
# bs (`bs!0`), which arrayc's host reads, so here that read splits the program into two regions.
# `benchmarks/REPORT-fusion.md` compares arrayc's greedy and optimal.
fn greedy_top_down_bad(n: i64 = 1000000) -> f64 {
    let xs = arange(n) * 0.5;
    let bs = xs * 2.0;
    let cs = bs + 1.0;
    let ds = arange(n) + bs[0];
    let es = cs + ds;
    return sum(es);
}

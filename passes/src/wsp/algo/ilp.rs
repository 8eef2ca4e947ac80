//! `--fuse ilp`: the WSP problem as an integer linear program, solved exactly by HiGHS — a second
//! exact solver beside `optimal`'s branch and bound, to cross-check it (van Balen et al. 2024,
//! Fig. 4; Robinson et al. 2014, Sec. 4, after Megiddo and Sarkar).
//!
//! The papers order loops with an integer `π` per operation and a fusion variable per pair; arrayc
//! states the same legality with block assignments instead, because its cost models are sums over
//! blocks of set functions (`ext[B]`, contracted bases: `super::super::cost`), which are linear in
//! per-block indicators but not in pair variables:
//!
//! * `y[i][k]` (binary): operation `i` is in block `k`, for `k < n` (a partition has at most `n`
//!   blocks); every operation is in exactly one block;
//! * blocks run in index order: for each dependency edge `i -> j` (Def. 9),
//!   `Σ k·y[j][k] - Σ k·y[i][k] >= 0`, and `>= 1` when the pair is also fuse-preventing; any other
//!   fuse-preventing pair is never in one block (`y[i][k] + y[j][k] <= 1`). Ordering the blocks
//!   along every edge makes the quotient acyclic (Def. 5), and every legal partition has such an
//!   order (a topological one);
//! * the objective is the model's [`BlockTerms`] with indicator variables per block: a view `v` in
//!   `ext[B]` (read with its base not created in the block; written with its base not deleted in
//!   it, or synced after the write), a contracted base (created and deleted in the block, not
//!   synced), a pair of operations in one block, a block that launches a kernel, a non-empty block.
//!   Each indicator is bounded by the linear constraints that force it where the cost counts it; the
//!   minimisation sets it no higher.
//!
//! The result is a partition of the same cost as `optimal`'s (`passes/tests/wsp.rs` checks it on
//! random regions). The program has `n²` binaries: it is a cross-check, slow on large regions
//! (`benchmarks/REPORT-fusion.md`); its time limit is the region's budget (`--fuse-budget-ms`),
//! after which the best partition HiGHS found is used (not proven optimal), or the singletons.

use super::{BitSet, Budget, Deadline, Problem, Stats};
use crate::wsp::cost::BlockTerms;
use highs::{HighsModelStatus, RowProblem, Sense};

/// A column of the program: its index in the solution.
type Col = usize;

/// The program under construction: columns with their costs, and rows.
struct Program {
    pb: RowProblem,
    cols: Vec<highs::Col>,
}

impl Program {
    fn binary(&mut self, cost: f64) -> Col {
        self.cols.push(self.pb.add_integer_column(cost, 0..=1));
        self.cols.len() - 1
    }
    /// An indicator in `[0, 1]` that the constraints push up to where the cost counts it (a
    /// continuous column: at an optimum it is 0 or 1 whenever the `y` are).
    fn indicator(&mut self, cost: f64) -> Col {
        self.cols.push(self.pb.add_column(cost, 0.0..=1.0));
        self.cols.len() - 1
    }
    /// `lo <= Σ coef·col <= hi`; a column named twice (an operation that both creates and reads
    /// a base) gets the sum of its coefficients, since HiGHS rejects repeated entries.
    fn row(&mut self, bounds: impl std::ops::RangeBounds<f64>, terms: &[(Col, f64)]) {
        let mut merged: Vec<(Col, f64)> = vec![];
        for &(c, k) in terms {
            match merged.iter_mut().find(|(d, _)| *d == c) {
                Some((_, sum)) => *sum += k,
                None => merged.push((c, k)),
            }
        }
        let t: Vec<(highs::Col, f64)> =
            merged.into_iter().filter(|&(_, k)| k != 0.0).map(|(c, k)| (self.cols[c], k)).collect();
        self.pb.add_row(bounds, t);
    }
}

/// The ILP partition of `prob` (see the module docs); `stats.optimal_proven` when HiGHS proved it
/// optimal within the budget. The budget's time bounds building the program too (it has about
/// `n³` rows for a region of `n` operations with many fuse-preventing pairs): past `deadline`,
/// the singletons.
pub fn ilp(prob: &Problem, budget: Budget, deadline: Deadline, stats: &mut Stats) -> Vec<Vec<usize>> {
    let n = prob.n();
    if n == 0 {
        stats.optimal_proven = true;
        return vec![];
    }
    let singletons = || (0..n).map(|i| vec![i]).collect();
    let mut p = Program { pb: RowProblem::default(), cols: vec![] };
    let Some(y) = assignment(&mut p, prob, deadline) else { return singletons() };
    let terms: BlockTerms = prob.prep.terms();
    if !block_costs(&mut p, prob, &terms, &y, deadline) || !pair_costs(&mut p, prob, &terms, &y, deadline) {
        return singletons();
    }
    solve(p, prob, &y, budget, stats).unwrap_or_else(singletons)
}

/// The assignment columns `y[i][k]` (operation `i` in block `k`) with their rows: every operation
/// in one block, blocks in order along dependency edges, fuse-preventing pairs apart. `None` past
/// `deadline`.
fn assignment(p: &mut Program, prob: &Problem, deadline: Deadline) -> Option<Vec<Vec<Col>>> {
    let n = prob.n();
    let g = &prob.graph;
    let y: Vec<Vec<Col>> = (0..n).map(|_| (0..n).map(|_| p.binary(0.0)).collect()).collect();
    for row in &y {
        let t: Vec<(Col, f64)> = row.iter().map(|&col| (col, 1.0)).collect();
        p.row(1.0..=1.0, &t);
    }
    // `Σ k·y[j][k] - Σ k·y[i][k]`: how many blocks after `i`'s block `j`'s is.
    let later = |j: usize, i: usize| -> Vec<(Col, f64)> {
        (1..n).flat_map(|k| [(y[j][k], k as f64), (y[i][k], -(k as f64))]).collect()
    };
    for i in 0..n {
        if deadline.passed() {
            return None;
        }
        for j in g.succ[i].iter() {
            let t = later(j, i);
            let gap = if g.fp[i].contains(j) { 1.0 } else { 0.0 };
            p.row(gap.., &t);
        }
        for j in g.fp[i].iter().filter(|&j| j > i && !g.succ[i].contains(j)) {
            if g.path(i, j) || g.path(j, i) {
                let (a, b) = if g.path(i, j) { (i, j) } else { (j, i) };
                p.row(1.0.., &later(b, a));
            } else {
                for (&a, &b) in y[i].iter().zip(&y[j]) {
                    p.row(..=1.0, &[(a, 1.0), (b, 1.0)]);
                }
            }
        }
    }
    Some(y)
}

/// The operations that create, delete and sync each base, and, per view of positive weight, its
/// weight and the operations that read and write it: what [`block_costs`] needs for every block.
struct Uses {
    news: Vec<Vec<usize>>,
    dels: Vec<Vec<usize>>,
    syncs: Vec<Vec<usize>>,
    /// `(view, weight, readers, writers)`.
    views: Vec<(usize, u64, Vec<usize>, Vec<usize>)>,
}

impl Uses {
    fn of(prob: &Problem, terms: &BlockTerms) -> Uses {
        let (n, c) = (prob.n(), &prob.prep.ctx);
        let ops_with =
            |sets: &[Vec<usize>], x: usize| -> Vec<usize> { (0..n).filter(|&f| sets[f].contains(&x)).collect() };
        let views = terms
            .view_weight
            .map(|weights| {
                let weighted = weights.iter().enumerate().filter(|&(_, &w)| w > 0);
                weighted.map(|(v, &w)| (v, w, ops_with(&c.ins, v), ops_with(&c.outs, v))).collect()
            })
            .unwrap_or_default();
        Uses {
            news: (0..c.nbases()).map(|b| ops_with(&c.new, b)).collect(),
            dels: (0..c.nbases()).map(|b| ops_with(&c.del, b)).collect(),
            syncs: (0..c.nbases()).map(|b| ops_with(&c.sync, b)).collect(),
            views,
        }
    }
}

/// The objective's indicators of every block `k` and the rows that force them: a non-empty block,
/// a block that launches a kernel, each view in `ext[B]` (read or written outside), each contracted
/// base (the model's [`BlockTerms`]). `false` past `deadline`.
fn block_costs(p: &mut Program, prob: &Problem, terms: &BlockTerms, y: &[Vec<Col>], deadline: Deadline) -> bool {
    let c = &prob.prep.ctx;
    let Uses { news, dels, syncs, views } = Uses::of(prob, terms);
    for k in 0..prob.n() {
        if deadline.passed() {
            return false;
        }
        if terms.per_block != 0 {
            let u = p.indicator(terms.per_block as f64);
            for row in y {
                p.row(0.0.., &[(u, 1.0), (row[k], -1.0)]);
            }
        }
        if terms.per_launch != 0 {
            let l = p.indicator(terms.per_launch as f64);
            for (f, row) in y.iter().enumerate() {
                if !c.ins[f].is_empty() || !c.outs[f].is_empty() {
                    p.row(0.0.., &[(l, 1.0), (row[k], -1.0)]);
                }
            }
        }
        for (v, w, readers, writers) in &views {
            let base = c.view_base[*v];
            if !readers.is_empty() {
                // Read from outside unless the base is created in the block.
                let r = p.indicator(*w as f64);
                for &f in readers {
                    let mut t = vec![(r, 1.0), (y[f][k], -1.0)];
                    t.extend(news[base].iter().map(|&a| (y[a][k], 1.0)));
                    p.row(0.0.., &t);
                }
            }
            if !writers.is_empty() {
                // Written to outside unless the base is deleted in the block and not synced after
                // the write there.
                let o = p.indicator(*w as f64);
                for &f in writers {
                    let mut t = vec![(o, 1.0), (y[f][k], -1.0)];
                    t.extend(dels[base].iter().map(|&d| (y[d][k], 1.0)));
                    p.row(0.0.., &t);
                    for &s in syncs[base].iter().filter(|&&s| s > f) {
                        p.row(-1.0.., &[(o, 1.0), (y[f][k], -1.0), (y[s][k], -1.0)]);
                    }
                }
            }
        }
        if terms.per_contracted != 0 {
            for base in 0..c.nbases() {
                if news[base].is_empty() || dels[base].is_empty() {
                    continue;
                }
                let x = p.indicator(terms.per_contracted as f64);
                for set in [&news[base], &dels[base]] {
                    let mut t = vec![(x, 1.0)];
                    t.extend(set.iter().map(|&a| (y[a][k], -1.0)));
                    p.row(..=0.0, &t);
                }
                for &s in &syncs[base] {
                    p.row(..=1.0, &[(x, 1.0), (y[s][k], 1.0)]);
                }
            }
        }
    }
    true
}

/// The objective's indicator of each pair of operations that the model prices when they share a
/// block ([`BlockTerms::pair`]), with its rows. `false` past `deadline`.
fn pair_costs(p: &mut Program, prob: &Problem, terms: &BlockTerms, y: &[Vec<Col>], deadline: Deadline) -> bool {
    let Some((pair, unit)) = terms.pair else { return true };
    let n = prob.n();
    for f in 0..n {
        if deadline.passed() {
            return false;
        }
        for h in f + 1..n {
            let w = pair[f][h] + pair[h][f];
            if w == 0 || prob.graph.fp[f].contains(h) {
                continue;
            }
            // One when `f` and `h` share a block: `f`'s block must hold `h` (checking every
            // block `k` with `f` in it suffices).
            let s = p.indicator(unit as f64 * w as f64);
            for (&a, &b) in y[f].iter().zip(&y[h]) {
                p.row(..=1.0, &[(s, 1.0), (a, 1.0), (b, -1.0)]);
            }
        }
    }
    true
}

/// Solves the program within the budget's time left and reads the partition from `y`; `None` when
/// HiGHS refuses the program (it should not), no time is left, or it found no legal solution.
fn solve(p: Program, prob: &Problem, y: &[Vec<Col>], budget: Budget, stats: &mut Stats) -> Option<Vec<Vec<usize>>> {
    let n = prob.n();
    let ncols = p.cols.len();
    let mut model = p.pb.try_optimise(Sense::Minimise).ok()?;
    model.set_option("output_flag", false);
    model.set_option("threads", 1);
    if let Some(ms) = budget.max_ms {
        let left = ms as f64 / 1e3 - prob.started.elapsed().as_secs_f64();
        if left <= 0.0 {
            return None;
        }
        model.set_option("time_limit", left);
    }
    let solved = model.solve();
    let status = solved.status();
    let values = solved.get_solution().columns().to_vec();
    if values.len() != ncols {
        return None;
    }
    let mut blocks: Vec<Vec<usize>> = vec![vec![]; n];
    for (i, row) in y.iter().enumerate() {
        let k = (0..n).max_by(|&a, &b| values[row[a]].total_cmp(&values[row[b]])).expect("n > 0 blocks");
        blocks[k].push(i);
    }
    blocks.retain(|b| !b.is_empty());
    let bits: Vec<BitSet> = blocks.iter().map(|b| BitSet::from_iter(n, b.iter().copied())).collect();
    if blocks.is_empty() || !prob.is_legal(&bits) {
        return None;
    }
    stats.optimal_proven = status == HighsModelStatus::Optimal;
    // The program's objective is the blocks' terms; the model adds its constant.
    stats.ilp_objective = stats.optimal_proven.then(|| solved.objective_value() + prob.prep.constant as f64);
    Some(blocks)
}

//! Optimal partition by branch and bound (Sec. V-D, Figs. 10-11).
//!
//! Both variants start from the unintrusive partition `P0` (Fig. 6), take as search edges the
//! pairs of `P0` blocks that are legal to merge (Lemma 1) and have positive weight -- plus
//! zero-weight pairs adjacent in `E_d` (e.g. a `del`/`sync` vertex and its user), without which
//! some legal optima are unreachable -- and use GREEDY's cost as the initial bound. A search
//! node is a mask `M` over the edges with an offset `o`: the partition is the connected
//! components of the kept edges (MERGEBYMASK), children cut one more edge at index `>= o`.
//! Descendants are finer, so by monotonicity (Def. 6(2)) `cost(node)` bounds the subtree; a
//! legal node is a leaf.
//!
//! `optimal-baseline` is exactly that (sequential DFS, edges in slot order). `optimal` adds:
//! * lifetime attachment before the unintrusive merges ([`super::lifetime`]);
//! * independent components (no edge of any kind between them) solved separately;
//! * edges sorted by weight, lightest first, so that cheap cuts (good partitions) come early;
//! * a feasibility bound: the *finest* partition of a subtree is given by the kept edges before
//!   the offset; if one of its blocks holds a forbidden pair, the whole subtree is illegal;
//! * memoisation of `(offset, partition of the kept prefix)`, which determines the subtree
//!   exactly, so equal keys are never searched twice;
//! * rayon over the top-level children with a shared atomic bound;
//! * a node works over P0 blocks, not ops: one union-find over the blocks gives the kept prefix's
//!   partition and, continued over the later edges (all kept), the node's; fuse-preventing edges
//!   are checked as pairs of P0 blocks; costs are memoised per set of P0 blocks; no allocation
//!   except for a new memo entry or a legal node (water_ice's region 1: 337,269 nodes in 240 M
//!   instructions instead of 410 M, about half the time).
//!
//! The parallel search returns the same partition as the sequential one, whatever the thread
//! count or timing: candidates are ordered by `(cost, top-level child)`, the greedy incumbent
//! first, so among partitions of equal cost the earliest in DFS order wins (see
//! [`Shared::prunes`]). A [`Budget`] stops the search; the best partition so far is returned
//! unproven, and only then may the result depend on timing.
use super::{
    acyclic, greedy::greedy, lifetime::attach_lifetime_ops, to_partition, unintrusive::unintrusive, Budget, Deadline,
    PState, Problem, Stats,
};
use crate::wsp::bitset::BitSet;
use rayon::prelude::*;
use std::collections::{HashMap, HashSet};
use std::hash::BuildHasher;
use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU64, Ordering};
use std::sync::Mutex;

struct Comp<'p, 'a> {
    p: &'p Problem<'a>,
    /// P0 blocks of this component (op bitsets).
    blocks: Vec<BitSet>,
    /// Search edges `(i, j)` over local block indices.
    edges: Vec<(usize, usize)>,
    /// The fuse-preventing edges between P0 blocks: the pairs `(i, j)`, `i <= j`, of local blocks
    /// that hold the two ends of a fuse-preventing edge (`(i, i)` if block `i` does). A merged
    /// block is illegal by Lemma 1 exactly when it holds both blocks of such a pair, so a search
    /// node checks these pairs instead of ops.
    fp_pairs: Vec<(usize, usize)>,
    improved: bool,
}

/// The incumbent: the best legal partition found so far and the top-level child that found it
/// (`-1` for the greedy bound, `0` in sequential searches).
struct Incumbent {
    cost: i64,
    task: i64,
    part: Vec<BitSet>,
}

struct Shared {
    /// The incumbent's cost, readable without the lock; it only decreases.
    best: AtomicI64,
    incumbent: Mutex<Incumbent>,
    nodes: AtomicU64,
    stop: AtomicBool,
    max_nodes: u64,
    deadline: Deadline,
}

impl Shared {
    /// Whether a node of cost `c` in top-level child `task` cannot beat the incumbent in the
    /// order `(cost, task)`. Costs only decrease down the tree (Def. 6), so pruning at `c ==
    /// best` is exact unless the incumbent came from a later child: then this subtree may hold
    /// an equal-cost partition that comes first in DFS order, and it is searched.
    fn prunes(&self, c: i64, task: i64) -> bool {
        let b = self.best.load(Ordering::Relaxed);
        if c != b {
            return c > b;
        }
        let inc = self.incumbent.lock().unwrap();
        (c, task) >= (inc.cost, inc.task)
    }
    /// Makes `part` the incumbent if `(c, task)` comes before the incumbent's.
    fn offer(&self, c: i64, task: i64, part: Vec<BitSet>) {
        let mut inc = self.incumbent.lock().unwrap();
        if (c, task) < (inc.cost, inc.task) {
            *inc = Incumbent { cost: c, task, part };
            self.best.store(c, Ordering::Relaxed);
        }
    }
}

/// A fixed-seed hash (deterministic across runs and threads).
type Hashing = foldhash::fast::FixedState;

/// One searcher's state: its memo tables and the scratch buffers a node reuses (a node is done
/// with them before it recurses).
struct Task {
    /// The top-level child this task searches (`0` for a sequential search).
    index: i64,
    /// 128-bit hashes of the `(offset, partition of the kept prefix)` keys already searched.
    memo: HashSet<u128, Hashing>,
    /// The cost of each merged block met so far, keyed by its set of P0 blocks.
    cost_memo: HashMap<BitSet, i64, Hashing>,
    /// Union-find over P0 blocks (the root of a set is its smallest block).
    uf: Vec<usize>,
    /// `labels[i]`: the smallest P0 block merged with block `i`.
    labels: Vec<usize>,
    /// `members[r]`: the P0 blocks labelled `r` (set by [`Comp::collect_members`]).
    members: Vec<BitSet>,
}

impl Task {
    fn new(index: usize, k: usize) -> Task {
        Task {
            index: index as i64,
            memo: HashSet::with_hasher(Hashing::default()),
            cost_memo: HashMap::with_hasher(Hashing::default()),
            uf: vec![0; k],
            labels: vec![0; k],
            members: vec![BitSet::new(k); k],
        }
    }
}

fn find(uf: &mut [usize], x: usize) -> usize {
    let mut r = x;
    while uf[r] != r {
        r = uf[r];
    }
    let mut y = x;
    while uf[y] != r {
        let nx = uf[y];
        uf[y] = r;
        y = nx;
    }
    r
}

/// The two independent 64-bit hashes of a memo key, as one 128-bit value.
fn memo_key(o: usize, labels: &[usize]) -> u128 {
    let h = |seed: u64| Hashing::with_seed(seed).hash_one((o, labels));
    (u128::from(h(0x9e37_79b9_7f4a_7c15)) << 64) | u128::from(h(0xc2b2_ae3d_27d4_eb4f))
}

impl Comp<'_, '_> {
    fn new<'p, 'a>(
        p: &'p Problem<'a>,
        blocks: Vec<BitSet>,
        edges: Vec<(usize, usize)>,
        improved: bool,
    ) -> Comp<'p, 'a> {
        let mut fp_pairs = vec![];
        for (i, a) in blocks.iter().enumerate() {
            let mut fp_ops = BitSet::new(p.n());
            for op in a.iter() {
                fp_ops.union_with(&p.graph.fp[op]);
            }
            fp_pairs.extend((i..blocks.len()).filter(|&j| fp_ops.intersects(&blocks[j])).map(|j| (i, j)));
        }
        Comp { p, blocks, edges, fp_pairs, improved }
    }

    /// Unites the blocks of the kept edges among `edges[from..to]` in `t.uf`, then sets
    /// `t.labels` to the partition so far.
    fn unite(&self, kept: &[bool], from: usize, to: usize, t: &mut Task) {
        for (e, &(a, b)) in self.edges.iter().enumerate().take(to).skip(from) {
            if kept[e] {
                let (x, y) = (find(&mut t.uf, a), find(&mut t.uf, b));
                if x != y {
                    t.uf[x.max(y)] = x.min(y);
                }
            }
        }
        for i in 0..self.blocks.len() {
            t.labels[i] = find(&mut t.uf, i);
        }
    }
    /// The partition of the kept edges among the first `upto`, as labels (see [`Task::labels`]).
    fn labels(&self, kept: &[bool], upto: usize, t: &mut Task) {
        for (i, u) in t.uf.iter_mut().enumerate() {
            *u = i;
        }
        self.unite(kept, 0, upto, t);
    }
    /// Whether a merged block of `t`'s partition holds a fuse-preventing edge.
    fn has_fp(&self, t: &Task) -> bool {
        self.fp_pairs.iter().any(|&(i, j)| t.labels[i] == t.labels[j])
    }
    /// Sets `t.members` from `t.labels`.
    fn collect_members(&self, t: &mut Task) {
        for m in &mut t.members {
            m.clear();
        }
        for i in 0..self.blocks.len() {
            t.members[t.labels[i]].insert(i);
        }
    }
    /// The merged blocks of `t`'s partition as op sets, in the order of their smallest P0 block
    /// (`t.members` must be current).
    fn merged(&self, t: &Task) -> Vec<BitSet> {
        (0..self.blocks.len())
            .filter(|&r| t.labels[r] == r)
            .map(|r| {
                let mut b = BitSet::new(self.p.n());
                for i in t.members[r].iter() {
                    b.union_with(&self.blocks[i]);
                }
                b
            })
            .collect()
    }
    /// The cost of `t`'s partition, each merged block's cost computed once per task.
    fn eval(&self, t: &mut Task) -> i64 {
        self.collect_members(t);
        let mut total = 0;
        for r in 0..self.blocks.len() {
            if t.labels[r] != r {
                continue;
            }
            total += match t.cost_memo.get(&t.members[r]) {
                Some(&c) => c,
                None => {
                    let mut ops = BitSet::new(self.p.n());
                    for i in t.members[r].iter() {
                        ops.union_with(&self.blocks[i]);
                    }
                    let c = self.p.block_cost(&ops);
                    t.cost_memo.insert(t.members[r].clone(), c);
                    c
                }
            };
        }
        total
    }
    /// Whether `t`'s partition is legal (Lemma 1: no fuse-preventing edge inside a block, and
    /// the blocks acyclic); if so, its merged blocks. After [`Comp::eval`] (it needs `t.members`).
    fn legal(&self, t: &Task) -> Option<Vec<BitSet>> {
        if self.has_fp(t) {
            return None;
        }
        let groups = self.merged(t);
        let mut owner = vec![usize::MAX; self.p.n()];
        for (k, b) in groups.iter().enumerate() {
            for i in b.iter() {
                owner[i] = k;
            }
        }
        acyclic(&self.p.graph, &groups, &owner).then_some(groups)
    }

    fn dfs(&self, kept: &mut Vec<bool>, o: usize, sh: &Shared, t: &mut Task) {
        if sh.stop.load(Ordering::Relaxed) {
            return;
        }
        let nodes = sh.nodes.fetch_add(1, Ordering::Relaxed) + 1;
        if nodes >= sh.max_nodes || (nodes.is_multiple_of(256) && sh.deadline.passed()) {
            sh.stop.store(true, Ordering::Relaxed);
            return;
        }
        if self.improved && o > 0 {
            // The kept prefix's partition, then (continuing the same union-find) the node's.
            self.labels(kept, o, t);
            if !t.memo.insert(memo_key(o, &t.labels)) {
                return;
            }
            if self.has_fp(t) {
                return;
            }
            self.unite(kept, o, kept.len(), t);
        } else {
            self.labels(kept, kept.len(), t);
        }
        let c = self.eval(t);
        if sh.prunes(c, t.index) {
            return;
        }
        if let Some(groups) = self.legal(t) {
            sh.offer(c, t.index, groups);
            return;
        }
        for i in o..kept.len() {
            kept[i] = false;
            // One level per removed edge: with thousands of search edges (`robinson` finds many)
            // the recursion outgrows a rayon worker's stack, so it continues on a new segment.
            stacker::maybe_grow(64 << 10, 4 << 20, || self.dfs(kept, i + 1, sh, t));
            kept[i] = true;
        }
    }
}

/// Run the branch and bound; `improved = false` gives `optimal-baseline`. `budget.max_nodes`
/// bounds the search; `deadline` every phase: past it, the preconditioning and the incumbent stop
/// where they are, the search edges found so far are kept, and the search stops at once, so the
/// result is the (legal) incumbent.
pub fn optimal(p: &Problem, budget: Budget, deadline: Deadline, improved: bool, stats: &mut Stats) -> Vec<Vec<usize>> {
    let g = &p.graph;
    let first = if improved { attach_lifetime_ops(p, PState::singletons(g)) } else { PState::singletons(g) };
    let p0 = unintrusive(p, first, deadline);
    let slots = p0.live();
    let q0 = p0.quotient(g);
    // Search edges over P0 slots.
    let mut edges: Vec<(usize, usize, i64)> = Vec::new();
    let mut edges_cut = false;
    for (i, &a) in slots.iter().enumerate() {
        if deadline.passed() {
            edges_cut = true;
            break;
        }
        for &b in &slots[i + 1..] {
            if !q0.legal_merge(&p0, a, b) {
                continue;
            }
            let w = p.weight(p0.block(a), p0.block(b));
            if w > 0 || p0.adjacent(g, a, b) {
                edges.push((a, b, w));
            }
        }
    }
    stats.search_edges = edges.len();
    // Components over slots: search edges plus dependency adjacency.
    let mut uf: Vec<usize> = (0..p.n()).collect();
    let join = |uf: &mut Vec<usize>, a: usize, b: usize| {
        let (x, y) = (find(uf, a), find(uf, b));
        if x != y {
            uf[x.max(y)] = x.min(y);
        }
    };
    if improved {
        for &(a, b, _) in &edges {
            join(&mut uf, a, b);
        }
        for &a in &slots {
            for c in p0.bsucc(g, a).iter() {
                join(&mut uf, a, c);
            }
        }
    } else {
        for &a in &slots {
            join(&mut uf, slots[0], a);
        }
    }
    let mut comp_of = vec![0usize; p.n()];
    for &a in &slots {
        comp_of[a] = find(&mut uf, a);
    }
    // Incumbent: GREEDY on the preconditioned graph (per component when improved).
    let gr = greedy(p, p0.clone(), if improved { Some(&comp_of) } else { None }, deadline);
    let whole_greedy = greedy(p, p0.clone(), None, deadline);
    let mut comps: Vec<usize> = slots.iter().map(|&a| comp_of[a]).collect();
    comps.sort();
    comps.dedup();
    stats.components = comps.len();
    let nodes = AtomicU64::new(0);
    let mut stopped = edges_cut || deadline.passed();
    let mut result: Vec<BitSet> = Vec::new();
    for &c in &comps {
        let local: Vec<usize> = slots.iter().copied().filter(|&a| comp_of[a] == c).collect();
        let idx = |s: usize| local.iter().position(|&x| x == s).unwrap();
        let mut ce: Vec<(usize, usize, i64)> =
            edges.iter().filter(|e| comp_of[e.0] == c).map(|&(a, b, w)| (idx(a), idx(b), w)).collect();
        if improved {
            ce.sort_by_key(|e| e.2);
        }
        let comp = Comp::new(
            p,
            local.iter().map(|&s| p0.block(s).clone()).collect(),
            ce.iter().map(|e| (e.0, e.1)).collect(),
            improved,
        );
        // Incumbent restricted to this component.
        let inc: Vec<BitSet> =
            gr.live().into_iter().filter(|&s| comp_of[s] == c).map(|s| gr.block(s).clone()).collect();
        let inc_cost: i64 = inc.iter().map(|b| p.block_cost(b)).sum();
        let sh = Shared {
            best: AtomicI64::new(inc_cost),
            incumbent: Mutex::new(Incumbent { cost: inc_cost, task: -1, part: inc }),
            nodes: AtomicU64::new(nodes.load(Ordering::Relaxed)),
            stop: AtomicBool::new(false),
            max_nodes: budget.max_nodes.unwrap_or(u64::MAX),
            deadline,
        };
        let m = comp.edges.len();
        let new_task = |index: usize| Task::new(index, comp.blocks.len());
        if improved && m > 1 {
            // Root, then its children in parallel (top level of the search tree).
            sh.nodes.fetch_add(1, Ordering::Relaxed);
            let all = vec![true; m];
            let mut t = new_task(0);
            comp.labels(&all, m, &mut t);
            let cost = comp.eval(&mut t);
            if !sh.prunes(cost, 0) {
                if let Some(groups) = comp.legal(&t) {
                    sh.offer(cost, 0, groups);
                } else {
                    (0..m).into_par_iter().for_each(|i| {
                        let mut kept = vec![true; m];
                        kept[i] = false;
                        comp.dfs(&mut kept, i + 1, &sh, &mut new_task(i));
                    });
                }
            }
        } else {
            let mut kept = vec![true; m];
            comp.dfs(&mut kept, 0, &sh, &mut new_task(0));
        }
        nodes.store(sh.nodes.load(Ordering::Relaxed), Ordering::Relaxed);
        stopped |= sh.stop.load(Ordering::Relaxed);
        result.extend(sh.incumbent.into_inner().unwrap().part);
    }
    stats.search_nodes = nodes.load(Ordering::Relaxed);
    stats.optimal_proven = !stopped;
    // Keep whichever is cheaper: the searched partition or the plain greedy one (greedy may
    // merge across components through multi-block savings the edge set does not list).
    let wg = whole_greedy.to_blocks();
    let rc: i64 = result.iter().map(|b| p.block_cost(b)).sum();
    let gc: i64 = wg.iter().map(|b| p.block_cost(b)).sum();
    if gc < rc {
        to_partition(&wg)
    } else {
        to_partition(&result)
    }
}

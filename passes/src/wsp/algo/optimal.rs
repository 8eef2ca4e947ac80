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
//! * rayon over the top-level children with a shared atomic bound.
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
use std::hash::{Hash, Hasher};
use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU64, Ordering};
use std::sync::Mutex;

struct Comp<'p, 'a> {
    p: &'p Problem<'a>,
    /// P0 blocks of this component (op bitsets).
    blocks: Vec<BitSet>,
    /// Search edges `(i, j)` over local block indices.
    edges: Vec<(usize, usize)>,
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

struct Task {
    /// The top-level child this task searches (`0` for a sequential search).
    index: i64,
    memo: HashSet<u128>,
    cost_memo: HashMap<BitSet, i64>,
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

impl Comp<'_, '_> {
    fn groups(&self, kept: &[bool], upto: usize) -> Vec<usize> {
        let k = self.blocks.len();
        let mut uf: Vec<usize> = (0..k).collect();
        for (e, &(a, b)) in self.edges.iter().enumerate().take(upto) {
            if kept[e] {
                let (x, y) = (find(&mut uf, a), find(&mut uf, b));
                if x != y {
                    uf[x.max(y)] = x.min(y);
                }
            }
        }
        (0..k).map(|i| find(&mut uf, i)).collect()
    }
    fn merged(&self, labels: &[usize]) -> Vec<BitSet> {
        let mut m: HashMap<usize, BitSet> = HashMap::new();
        for (i, &l) in labels.iter().enumerate() {
            m.entry(l).or_insert_with(|| BitSet::new(self.p.n())).union_with(&self.blocks[i]);
        }
        let mut v: Vec<(usize, BitSet)> = m.into_iter().collect();
        v.sort_by_key(|x| x.0);
        v.into_iter().map(|x| x.1).collect()
    }
    fn has_fp(&self, groups: &[BitSet]) -> bool {
        groups.iter().any(|b| b.iter().any(|i| self.p.graph.fp[i].intersects(b)))
    }
    fn eval(&self, groups: &[BitSet], t: &mut Task) -> i64 {
        groups
            .iter()
            .map(|b| match t.cost_memo.get(b) {
                Some(&c) => c,
                None => {
                    let c = self.p.block_cost(b);
                    t.cost_memo.insert(b.clone(), c);
                    c
                }
            })
            .sum()
    }
    fn legal(&self, groups: &[BitSet]) -> bool {
        if self.has_fp(groups) {
            return false;
        }
        let mut owner = vec![usize::MAX; self.p.n()];
        for (k, b) in groups.iter().enumerate() {
            for i in b.iter() {
                owner[i] = k;
            }
        }
        acyclic(&self.p.graph, groups, &owner)
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
            let prefix = self.groups(kept, o);
            let mut h1 = std::collections::hash_map::DefaultHasher::new();
            (o, &prefix).hash(&mut h1);
            let mut h2 = std::collections::hash_map::DefaultHasher::new();
            (&prefix, o, 0x9e37u32).hash(&mut h2);
            if !t.memo.insert(((h1.finish() as u128) << 64) | h2.finish() as u128) {
                return;
            }
            if self.has_fp(&self.merged(&prefix)) {
                return;
            }
        }
        let groups = self.merged(&self.groups(kept, kept.len()));
        let c = self.eval(&groups, t);
        if sh.prunes(c, t.index) {
            return;
        }
        if self.legal(&groups) {
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
        let comp = Comp {
            p,
            blocks: local.iter().map(|&s| p0.block(s).clone()).collect(),
            edges: ce.iter().map(|e| (e.0, e.1)).collect(),
            improved,
        };
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
        let new_task = |index: usize| Task { index: index as i64, memo: HashSet::new(), cost_memo: HashMap::new() };
        if improved && m > 1 {
            // Root, then its children in parallel (top level of the search tree).
            sh.nodes.fetch_add(1, Ordering::Relaxed);
            let all = vec![true; m];
            let mut t = new_task(0);
            let groups = comp.merged(&comp.groups(&all, m));
            let cost = comp.eval(&groups, &mut t);
            if !sh.prunes(cost, 0) {
                if comp.legal(&groups) {
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

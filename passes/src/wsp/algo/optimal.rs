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
//!   are checked between P0 blocks; costs are memoised per set of P0 blocks; no allocation per
//!   node but a new memo entry, a legal node or an expanded one;
//! * children that add nothing are not visited (see [`Comp::dfs`]): those that cut an edge after
//!   the first one whose union is illegal, and those that cut an edge the prefix already joins.
//!
//! The last two change no result and no search order, only the work: on water_ice's region 1
//! (`fuse-report`, one thread), 276,073 nodes instead of 337,269 and 0.33 s instead of 0.96 s.
//!
//! The parallel search returns the same partition as the sequential one, whatever the thread
//! count or timing: candidates are ordered by `(cost, top-level child)`, the greedy incumbent
//! first, so among partitions of equal cost the earliest in DFS order wins (see
//! [`Shared::prunes`]). A [`Budget`] stops the search; the best partition so far is returned
//! unproven, and only then may the result depend on timing.
use super::{
    acyclic,
    greedy::greedy,
    lifetime::{attach_communication, attach_lifetime_ops},
    to_partition,
    unintrusive::unintrusive,
    Budget, Deadline, PState, Problem, Stats,
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
    /// The fuse-preventing edges between P0 blocks: `fp_blocks[i]` holds every local block `j`
    /// such that blocks `i` and `j` hold the two ends of a fuse-preventing edge (`i` itself if
    /// block `i` does). A merged block is illegal by Lemma 1 exactly when it holds two blocks
    /// related here, so a search node checks this over P0 blocks instead of ops.
    fp_blocks: Vec<BitSet>,
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
    /// `conflicts[r]`: the P0 blocks with a fuse-preventing edge to a P0 block labelled `r`, and
    /// `redundant[e]`: whether search edge `e` joins blocks already joined ([`Comp::extend_prefix`]).
    conflicts: Vec<BitSet>,
    redundant: Vec<bool>,
}

impl Task {
    fn new(index: usize, k: usize, m: usize) -> Task {
        Task {
            index: index as i64,
            memo: HashSet::with_hasher(Hashing::default()),
            cost_memo: HashMap::with_hasher(Hashing::default()),
            uf: vec![0; k],
            labels: vec![0; k],
            members: vec![BitSet::new(k); k],
            conflicts: vec![BitSet::new(k); k],
            redundant: vec![false; m],
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
        let fp_blocks = blocks
            .iter()
            .map(|a| {
                let mut fp_ops = BitSet::new(p.n());
                for op in a.iter() {
                    fp_ops.union_with(&p.graph.fp[op]);
                }
                BitSet::from_iter(blocks.len(), (0..blocks.len()).filter(|&j| fp_ops.intersects(&blocks[j])))
            })
            .collect();
        Comp { p, blocks, edges, fp_blocks, improved }
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
    /// From the kept prefix's partition in `t` (edges `..o`): `None` if a block of it holds a
    /// fuse-preventing edge (the whole subtree is illegal). Otherwise unites the blocks of the
    /// edges `o..` (all kept at a node of offset `o`), sets `t.labels` to the node's partition and
    /// returns the first of these edges whose union makes a block hold a fuse-preventing edge,
    /// if any (`Some(None)` if none does). Sets `t.redundant[e]` for each of these edges `e` whose
    /// blocks the edges before it (from the prefix on) already join.
    fn extend_prefix(&self, o: usize, t: &mut Task) -> Option<Option<usize>> {
        // Per block of the prefix (at its label): its P0 blocks, and those they must not meet.
        for r in 0..self.blocks.len() {
            t.members[r].clear();
            t.conflicts[r].clear();
        }
        for i in 0..self.blocks.len() {
            let r = t.labels[i];
            t.members[r].insert(i);
            t.conflicts[r].union_with(&self.fp_blocks[i]);
        }
        if (0..self.blocks.len()).any(|r| t.labels[r] == r && t.conflicts[r].intersects(&t.members[r])) {
            return None;
        }
        let mut first_fp = None;
        for (e, &(a, b)) in self.edges.iter().enumerate().skip(o) {
            let (x, y) = (find(&mut t.uf, a), find(&mut t.uf, b));
            t.redundant[e] = x == y;
            if x == y {
                continue;
            }
            if first_fp.is_none() && t.conflicts[x].intersects(&t.members[y]) {
                first_fp = Some(e);
            }
            let (lo, hi) = (x.min(y), x.max(y));
            t.uf[hi] = lo;
            for sets in [&mut t.members, &mut t.conflicts] {
                let (below, from_hi) = sets.split_at_mut(hi);
                below[lo].union_with(&from_hi[0]);
            }
        }
        for i in 0..self.blocks.len() {
            t.labels[i] = find(&mut t.uf, i);
        }
        Some(first_fp)
    }
    /// The partition of the kept edges among the first `upto`, as labels (see [`Task::labels`]).
    fn labels(&self, kept: &[bool], upto: usize, t: &mut Task) {
        for (i, u) in t.uf.iter_mut().enumerate() {
            *u = i;
        }
        self.unite(kept, 0, upto, t);
    }
    /// Whether a merged block of `t`'s partition holds a fuse-preventing edge (`t.members` must be
    /// current).
    fn has_fp(&self, t: &Task) -> bool {
        (0..self.blocks.len()).any(|i| self.fp_blocks[i].intersects(&t.members[t.labels[i]]))
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

    /// Searches the node whose cut edges are those of `kept` (all before `o`) and its subtree.
    fn dfs(&self, kept: &mut Vec<bool>, o: usize, sh: &Shared, t: &mut Task) {
        if sh.stop.load(Ordering::Relaxed) {
            return;
        }
        let nodes = sh.nodes.fetch_add(1, Ordering::Relaxed) + 1;
        if nodes >= sh.max_nodes || (nodes.is_multiple_of(256) && sh.deadline.passed()) {
            sh.stop.store(true, Ordering::Relaxed);
            return;
        }
        // The first edge (from `o`) whose union makes the node's partition illegal, if any.
        let mut first_fp = None;
        if self.improved {
            // The kept prefix's partition, then (continuing the same union-find) the node's.
            self.labels(kept, o, t);
            if o > 0 && !t.memo.insert(memo_key(o, &t.labels)) {
                return;
            }
            match self.extend_prefix(o, t) {
                None => return,
                Some(f) => first_fp = f,
            }
        } else {
            self.labels(kept, kept.len(), t);
        }
        let c = self.eval(t);
        if sh.prunes(c, t.index) {
            return;
        }
        if first_fp.is_none() {
            if let Some(groups) = self.legal(t) {
                sh.offer(c, t.index, groups);
                return;
            }
        }
        // Children not visited, in the improved search, because they add nothing (the result and
        // the order in which the other subtrees are searched stay the same; only nodes are saved):
        // * one that cuts an edge after `first_fp` keeps the edges up to it in its prefix, whose
        //   partition then holds a fuse-preventing edge: its subtree is illegal;
        // * one that cuts a redundant edge has this node's partition (it is not legal) and, for
        //   each later child of this node, a child with the same memo key (cutting the redundant
        //   edge changes no prefix's partition), which it would search first.
        let end = first_fp.map_or(kept.len(), |f| f + 1);
        let children: Vec<usize> = (o..end).filter(|&i| !(self.improved && t.redundant[i])).collect();
        for i in children {
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
    let first = attach_communication(p, first);
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
        let new_task = |index: usize| Task::new(index, comp.blocks.len(), comp.edges.len());
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

//! Partition algorithms of Sec. V over partition graphs (Def. 14) and WSP states (Def. 15).
//! Every algorithm returns a legal partition (Def. 5) as sorted blocks of op indices.
pub mod greedy;
pub mod ilp;
pub mod lifetime;
pub mod linear;
pub mod optimal;
pub mod singleton;
pub mod unintrusive;

use super::bitset::BitSet;
use super::cost::{CostModel, Prepared};
use super::graph::WspGraph;
use super::region::Region;
use std::time::Instant;

/// Which partition algorithm to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Algorithm {
    Singleton,
    Linear,
    Greedy,
    Unintrusive,
    /// Branch and bound with the improvements (components, weight order, memo, parallel).
    Optimal,
    /// The paper's plain mask search of Fig. 11 (sequential, no memo, no components).
    OptimalBaseline,
    /// The integer linear program of [`ilp`], solved by HiGHS: a second exact solver.
    Ilp,
}

impl Algorithm {
    pub const ALL: [Algorithm; 7] = [
        Algorithm::Singleton,
        Algorithm::Linear,
        Algorithm::Greedy,
        Algorithm::Unintrusive,
        Algorithm::Optimal,
        Algorithm::OptimalBaseline,
        Algorithm::Ilp,
    ];
    pub fn name(&self) -> &'static str {
        match self {
            Algorithm::Singleton => "singleton",
            Algorithm::Linear => "linear",
            Algorithm::Greedy => "greedy",
            Algorithm::Unintrusive => "unintrusive",
            Algorithm::Optimal => "optimal",
            Algorithm::OptimalBaseline => "optimal-baseline",
            Algorithm::Ilp => "ilp",
        }
    }
    pub fn by_name(s: &str) -> Option<Algorithm> {
        Algorithm::ALL.into_iter().find(|a| a.name() == s)
    }
}

/// Limits of one region's partitioning. `max_nodes` bounds the search of `optimal` and
/// `optimal-baseline`; `max_ms` bounds the whole of [`solve`] for every algorithm: the WSP graph,
/// the cost model's preparation, the preconditioning, greedy and the search. When a limit is hit
/// the best legal partition found so far is returned (`optimal_proven = false`): every phase keeps
/// a legal partition at each step, so stopping early only costs quality.
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    pub max_nodes: Option<u64>,
    pub max_ms: Option<u64>,
}

impl Budget {
    /// The default node limit of `--fuse-budget-nodes`.
    pub const DEFAULT_NODES: u64 = 1_000_000;
    /// The default time limit of `--fuse-budget-ms`, in milliseconds. Measured on the 37 programs
    /// of the benchmark corpus at LARGE (`benchmarks/REPORT-compile.md`): only two regions take
    /// longer than 150 ms (water_ice's, proven optimal at 487 ms, and magnetic_field_extrapolation's
    /// `calc_b`, not proven in 60 s), and both have the same partition at 200 ms as at 1000 ms, so a
    /// longer default would only slow cold compiles.
    pub const DEFAULT_MS: u64 = 250;
}

impl Default for Budget {
    /// [`Budget::DEFAULT_NODES`] search nodes and [`Budget::DEFAULT_MS`] per region.
    fn default() -> Self {
        Budget { max_nodes: Some(Budget::DEFAULT_NODES), max_ms: Some(Budget::DEFAULT_MS) }
    }
}

/// The instant by which a [`solve`] stops working ([`Budget::max_ms`] after it started), if any.
#[derive(Clone, Copy, Debug)]
pub struct Deadline(Option<Instant>);

impl Deadline {
    /// No deadline.
    pub const NONE: Deadline = Deadline(None);
    /// `ms` milliseconds after `start`, or none.
    pub fn after(start: Instant, ms: Option<u64>) -> Deadline {
        Deadline(ms.map(|ms| start + std::time::Duration::from_millis(ms)))
    }
    /// Has the deadline passed?
    pub fn passed(&self) -> bool {
        self.0.is_some_and(|d| Instant::now() > d)
    }
}

#[derive(Clone, Debug, Default)]
pub struct Stats {
    /// Branch-and-bound nodes (partitions) evaluated; 0 for the non-search algorithms.
    pub search_nodes: u64,
    /// True when the partition is known to be optimal (always false for heuristics, except
    /// when the search finished within budget).
    pub optimal_proven: bool,
    pub solve_ms: f64,
    /// Independent components searched separately (optimal only).
    pub components: usize,
    /// Weight edges left after unintrusive preconditioning (optimal only).
    pub search_edges: usize,
    /// True when the partition was read from the disk cache (the other fields are then the original
    /// search's).
    pub from_disk: bool,
    /// `ilp` only, when HiGHS proved its optimum: the integer program's objective plus the model's
    /// constant term (`Prepared::constant`), which equals
    /// the model's cost of the partition when the program states the cost model exactly
    /// (`passes/tests/wsp.rs` checks it); `None` otherwise.
    pub ilp_objective: Option<f64>,
}

/// A partition with its cost and statistics.
#[derive(Clone, Debug)]
pub struct Solution {
    pub partition: Vec<Vec<usize>>,
    pub cost: u64,
    pub stats: Stats,
}

/// A region prepared for partitioning: WSP graph plus block-local cost model. Built once per region
/// and shared by everything that asks about it (the search, the merge cache's check of a stored
/// partition, the singleton cost of the report, the block order of `wsp-fusion`).
pub struct Problem<'a> {
    pub region: &'a Region,
    pub model: &'a dyn CostModel,
    pub graph: WspGraph,
    pub prep: Prepared,
    /// When preparation began: a search's time budget counts from here, so that it bounds graph
    /// building and the cost model's preparation too.
    pub started: Instant,
}

impl<'a> Problem<'a> {
    pub fn new(region: &'a Region, model: &'a dyn CostModel) -> Self {
        let started = Instant::now();
        Problem { region, model, graph: WspGraph::build(region), prep: model.prepare(region), started }
    }
    pub fn n(&self) -> usize {
        self.graph.n
    }
    pub fn block_cost(&self, b: &BitSet) -> i64 {
        let v: Vec<usize> = b.iter().collect();
        self.prep.block(&v)
    }
    /// `w(B1,B2) = cost(P) - cost(P/(B1,B2))` (Def. 15), computed block-locally.
    pub fn weight(&self, a: &BitSet, b: &BitSet) -> i64 {
        self.block_cost(a) + self.block_cost(b) - self.block_cost(&a.union(b))
    }
    pub fn cost_of(&self, blocks: &[Vec<usize>]) -> u64 {
        self.prep.cost(blocks).max(0) as u64
    }
    /// Def. 5 legality of a whole partition: no forbidden edge in a block, acyclic quotient.
    pub fn is_legal(&self, blocks: &[BitSet]) -> bool {
        let n = self.n();
        let mut owner = vec![usize::MAX; n];
        for (k, b) in blocks.iter().enumerate() {
            for i in b.iter() {
                owner[i] = k;
            }
            for i in b.iter() {
                if self.graph.fp[i].intersects(b) {
                    return false;
                }
            }
        }
        acyclic(&self.graph, blocks, &owner)
    }
}

/// Kahn's algorithm on the quotient (partition) graph of `E_d` (Def. 14).
pub fn acyclic(g: &WspGraph, blocks: &[BitSet], owner: &[usize]) -> bool {
    let k = blocks.len();
    let mut succ: Vec<Vec<usize>> = vec![Vec::new(); k];
    let mut indeg = vec![0usize; k];
    for (a, b) in blocks.iter().enumerate() {
        let mut seen = BitSet::new(k);
        for i in b.iter() {
            for j in g.succ[i].iter() {
                let c = owner[j];
                if c != a && c != usize::MAX && !seen.contains(c) {
                    seen.insert(c);
                    succ[a].push(c);
                    indeg[c] += 1;
                }
            }
        }
    }
    let mut stack: Vec<usize> = (0..k).filter(|&a| indeg[a] == 0).collect();
    let mut done = 0;
    while let Some(a) = stack.pop() {
        done += 1;
        for &c in &succ[a] {
            indeg[c] -= 1;
            if indeg[c] == 0 {
                stack.push(c);
            }
        }
    }
    done == k
}

/// A partition graph state with stable block slots (slot = smallest op index of the block
/// when started from singletons). Merging keeps the lower slot (Def. 16 vertex contraction).
#[derive(Clone)]
pub struct PState {
    pub n: usize,
    pub blocks: Vec<Option<BitSet>>,
    pub owner: Vec<usize>,
    /// Union of the forbidden-edge rows of the block's members (`theta`-like, Def. 18).
    pub fpu: Vec<BitSet>,
}

impl PState {
    pub fn singletons(g: &WspGraph) -> PState {
        let n = g.n;
        PState {
            n,
            blocks: (0..n).map(|i| Some(BitSet::singleton(n, i))).collect(),
            owner: (0..n).collect(),
            fpu: g.fp.clone(),
        }
    }
    pub fn from_blocks(g: &WspGraph, blocks: &[BitSet]) -> PState {
        let mut s = PState::singletons(g);
        for b in blocks {
            let ops: Vec<usize> = b.iter().collect();
            for &o in &ops[1..] {
                let (x, y) = (s.owner[ops[0]], s.owner[o]);
                if x != y {
                    s.merge(x, y);
                }
            }
        }
        s
    }
    pub fn live(&self) -> Vec<usize> {
        (0..self.n).filter(|&s| self.blocks[s].is_some()).collect()
    }
    pub fn block(&self, s: usize) -> &BitSet {
        self.blocks[s].as_ref().expect("live slot")
    }
    /// Merge slots `a` and `b`; returns the surviving slot.
    pub fn merge(&mut self, a: usize, b: usize) -> usize {
        let (keep, gone) = if a < b { (a, b) } else { (b, a) };
        let bb = self.blocks[gone].take().expect("live slot");
        for i in bb.iter() {
            self.owner[i] = keep;
        }
        self.blocks[keep].as_mut().unwrap().union_with(&bb);
        let f = self.fpu[gone].clone();
        self.fpu[keep].union_with(&f);
        keep
    }
    /// Slots other than `a` that hold a neighbour (by the op-level rows `adj`) of an op of `a`.
    fn neighbour_slots(&self, adj: &[BitSet], a: usize) -> BitSet {
        let mut r = BitSet::new(self.n);
        for i in self.block(a).iter() {
            for j in adj[i].iter() {
                r.insert(self.owner[j]);
            }
        }
        r.remove(a);
        r
    }
    /// Successor slots of `a` in the partition graph `E_d(P)`.
    pub fn bsucc(&self, g: &WspGraph, a: usize) -> BitSet {
        self.neighbour_slots(&g.succ, a)
    }
    /// Predecessor slots of `a` in the partition graph `E_d(P)`.
    pub fn bpred(&self, g: &WspGraph, a: usize) -> BitSet {
        self.neighbour_slots(&g.pred, a)
    }
    /// Is there a path of length >= 2 from `a` to `b` in `E_d(P)`?
    pub fn indirect(&self, g: &WspGraph, a: usize, b: usize) -> bool {
        let mut seen = BitSet::new(self.n);
        let mut stack: Vec<usize> = self.bsucc(g, a).iter().filter(|&c| c != b).collect();
        for &c in &stack {
            seen.insert(c);
        }
        while let Some(c) = stack.pop() {
            for d in self.bsucc(g, c).iter() {
                if d == b {
                    return true;
                }
                if d != a && !seen.contains(d) {
                    seen.insert(d);
                    stack.push(d);
                }
            }
        }
        false
    }
    /// Lemma 1: merging `a` and `b` keeps a legal partition legal.
    pub fn legal_merge(&self, g: &WspGraph, a: usize, b: usize) -> bool {
        !self.fpu[a].intersects(self.block(b)) && !self.indirect(g, a, b) && !self.indirect(g, b, a)
    }
    /// The quotient graph `E_d(P)` over live slots (Def. 14) with its transitive closure, for
    /// answering many [`Quotient::legal_merge`] questions about one state: one closure for all
    /// pairs instead of a graph search per pair.
    pub fn quotient(&self, g: &WspGraph) -> Quotient {
        let n = self.n;
        let live = self.live();
        let mut succ = vec![BitSet::new(n); n];
        for &a in &live {
            succ[a] = self.bsucc(g, a);
        }
        // Topological order by DFS (the partition is legal, so the quotient is a DAG).
        let mut order = Vec::new();
        let mut mark = vec![false; n];
        for &s in &live {
            let mut stack = vec![(s, false)];
            while let Some((v, done)) = stack.pop() {
                if done {
                    order.push(v);
                    continue;
                }
                if mark[v] {
                    continue;
                }
                mark[v] = true;
                stack.push((v, true));
                stack.extend(succ[v].iter().filter(|&c| !mark[c]).map(|c| (c, false)));
            }
        }
        let mut reach = vec![BitSet::new(n); n];
        for &v in &order {
            let mut r = succ[v].clone();
            for c in succ[v].iter() {
                r.union_with(&reach[c]);
            }
            reach[v] = r;
        }
        Quotient { succ, reach }
    }
    /// Are `a` and `b` adjacent in `E_d(P)` (either direction)?
    pub fn adjacent(&self, g: &WspGraph, a: usize, b: usize) -> bool {
        self.bsucc(g, a).contains(b) || self.bsucc(g, b).contains(a)
    }
    pub fn to_blocks(&self) -> Vec<BitSet> {
        self.blocks.iter().flatten().cloned().collect()
    }
    pub fn to_partition(&self) -> Vec<Vec<usize>> {
        to_partition(&self.to_blocks())
    }
}

/// The partition graph of one [`PState`] and its transitive closure, indexed by slot.
pub struct Quotient {
    /// Successor slots of each live slot in `E_d(P)`.
    pub succ: Vec<BitSet>,
    /// Slots reachable from each live slot by a path of length >= 1.
    pub reach: Vec<BitSet>,
}

impl Quotient {
    /// Is there a path of length >= 2 from `a` to `b`? ([`PState::indirect`], from the closure.)
    pub fn indirect(&self, a: usize, b: usize) -> bool {
        self.succ[a].iter().any(|c| c != b && self.reach[c].contains(b))
    }
    /// [`PState::legal_merge`] of `st`, the state this quotient was computed from.
    pub fn legal_merge(&self, st: &PState, a: usize, b: usize) -> bool {
        !st.fpu[a].intersects(st.block(b)) && !self.indirect(a, b) && !self.indirect(b, a)
    }
}

/// Sorted blocks of sorted op indices.
pub fn to_partition(blocks: &[BitSet]) -> Vec<Vec<usize>> {
    let mut p: Vec<Vec<usize>> =
        blocks.iter().map(|b| b.iter().collect::<Vec<_>>()).filter(|b| !b.is_empty()).collect();
    p.sort();
    p
}

/// Run `algo` on `region` under `model`;
/// `budget.max_ms` bounds the whole call (see [`Budget`]).
pub fn solve(region: &Region, model: &dyn CostModel, algo: Algorithm, budget: Budget) -> Solution {
    solve_problem(&Problem::new(region, model), algo, budget)
}

/// [`solve`] on a region already prepared as a [`Problem`]; the budget's time counts from
/// [`Problem::started`].
pub fn solve_problem(prob: &Problem, algo: Algorithm, budget: Budget) -> Solution {
    let t0 = prob.started;
    let deadline = Deadline::after(t0, budget.max_ms);
    let mut stats = Stats::default();
    let partition = match algo {
        Algorithm::Singleton => singleton::singleton(prob),
        Algorithm::Linear => linear::linear(prob),
        Algorithm::Greedy => greedy::greedy(prob, PState::singletons(&prob.graph), None, deadline).to_partition(),
        Algorithm::Unintrusive => {
            unintrusive::unintrusive(prob, PState::singletons(&prob.graph), deadline).to_partition()
        }
        Algorithm::Optimal => optimal::optimal(prob, budget, deadline, true, &mut stats),
        Algorithm::OptimalBaseline => optimal::optimal(prob, budget, deadline, false, &mut stats),
        Algorithm::Ilp => ilp::ilp(prob, budget, deadline, &mut stats),
    };
    stats.solve_ms = t0.elapsed().as_secs_f64() * 1e3;
    let cost = prob.cost_of(&partition);
    Solution { partition, cost, stats }
}

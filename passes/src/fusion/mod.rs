//! Pass `fusion`: partitions the array operations of every straight-line region of a host function
//! into blocks, one kernel per block, by solving the WSP problem (Kristensen et al. 2016, Secs.
//! III-V) with the chosen algorithm and cost model.
//!
//! A region (a *segment* here) is a maximal run of array operations (`new`, computations, `del`,
//! `sync`), pure host operations (constants, scalar arithmetic, views, sizes) and host checks
//! (`cf.assert`, run ahead of the region's kernels) inside one body; control flow, calls, host reads
//! (`arr.load`, `arr.print`) and `return` end it, as the
//! paper's fusion works on the straight-line bytecode between front-end interactions. Bases that
//! are created and deleted inside one block, and not synced there, are contracted (Sec. IV-A2).

pub mod region;

use crate::wsp::{self, Algorithm, Budget, PartitionCache};
use arrayc_dialect::ir::{Body, ComputeFn, Func, OpKind, ValueId};
use region::{build_region, is_host_check, is_pure_host_op, is_wsp_op, Symbols};
use std::collections::{BTreeSet, BinaryHeap, HashSet};
use std::ops::Range;

/// How to partition: algorithm, cost model (`bohrium`, `max-contract`, `max-locality`,
/// `robinson`) and the search budget of `optimal`.
#[derive(Clone, Debug)]
pub struct FusionOptions {
    pub algorithm: Algorithm,
    pub cost_model: String,
    pub budget: Budget,
    /// What is known of the entry function's arguments, if anything (see [`Specialization`]).
    pub specialize: Option<Specialization>,
}

impl Default for FusionOptions {
    /// `optimal` under `bohrium`, the default [`Budget`] per region, no specialization.
    fn default() -> Self {
        FusionOptions {
            algorithm: Algorithm::Optimal,
            cost_model: "bohrium".into(),
            budget: Budget::default(),
            specialize: None,
        }
    }
}

/// The argument values one function will be called with, for partitioning with concrete sizes.
///
/// Bohrium fuses at run time, when every shape is known (Kristensen et al. 2016, Sec. IV); `arrayc
/// run` knows its entry's arguments before it compiles, so the fusion pass of that function sees
/// the same: scalar parameters become constants, which fold through the host arithmetic that
/// computes sizes (including `select`s of broadcasting and the float arithmetic of `arange`), and
/// array parameters get their concrete shapes. Views are then compared and costed exactly instead
/// of conservatively. The IR itself stays generic (kernels take dynamic shapes); only the
/// partition depends on the values, and the host computes the same values when it runs.
#[derive(Clone, Debug, PartialEq)]
pub struct Specialization {
    /// The function whose parameters these are.
    pub func: String,
    /// One entry per parameter, `None` where nothing is known.
    pub args: Vec<Option<KnownArg>>,
}

/// A known argument: a scalar's value, or a (contiguous, freshly allocated) array's shape in
/// elements per dimension.
#[derive(Clone, Debug, PartialEq)]
pub enum KnownArg {
    Scalar(arrayc_dialect::ir::Scalar),
    Shape(Vec<i64>),
}

/// One operation of a region, for reports: views as `(base, offset, shape, strides)` in elements.
#[derive(Clone, Debug)]
pub struct OpReport {
    pub index: usize,
    pub name: String,
    pub line: Option<u32>,
    pub ins: Vec<(String, wsp::View)>,
    pub outs: Vec<(String, wsp::View)>,
    pub new: Vec<String>,
    pub del: Vec<String>,
    pub sync: Vec<String>,
}

/// What the fusion pass decided for one region, with the search statistics (the `fuse-report`).
#[derive(Clone, Debug)]
pub struct RegionReport {
    pub function: String,
    pub region: usize,
    pub algorithm: String,
    pub cost_model: String,
    pub cost: u64,
    pub cost_singleton: u64,
    pub cost_unit: String,
    pub optimal_proven: bool,
    pub search_nodes: u64,
    pub solve_ms: f64,
    /// Blocks as lists of region operation indices (into `ops`).
    pub blocks: Vec<Vec<usize>>,
    /// Names of the contracted base arrays.
    pub contracted: Vec<String>,
    pub ops: Vec<OpReport>,
    /// Symbols whose value was unknown and got the cost model's default.
    pub defaulted_symbols: Vec<String>,
    /// Dependency edges `(from, to)` of the WSP graph (Def. 1's E_d), region op indices.
    pub dep_edges: Vec<(usize, usize)>,
    /// Fuse-preventing edges `(a, b)`, `a < b` (Def. 1's E_f).
    pub fp_edges: Vec<(usize, usize)>,
}

/// The partition of one segment, in body indices.
pub struct SegmentPlan {
    /// Blocks of body operation indices, in an order that respects every dependency (the region
    /// order of the quotient graph, earliest first).
    pub blocks: Vec<Vec<usize>>,
    /// Base arrays (values of `arr.new`) contracted in each block, parallel to `blocks`.
    pub contracted: Vec<Vec<ValueId>>,
}

/// Can `k` be part of a segment: a WSP operation, a pure host operation or a host check?
fn in_segment(k: &OpKind) -> bool {
    is_wsp_op(k) || is_pure_host_op(k) || is_host_check(k)
}

/// Maximal runs of WSP operations, pure host operations and host checks in `body` that contain at
/// least one computation.
pub fn segments(body: &Body) -> Vec<Range<usize>> {
    let mut out = vec![];
    let mut i = 0;
    while i < body.len() {
        if !in_segment(&body[i].kind) {
            i += 1;
            continue;
        }
        let start = i;
        while i < body.len() && in_segment(&body[i].kind) {
            i += 1;
        }
        if body[start..i].iter().any(|o| matches!(o.kind, OpKind::Compute { .. })) {
            out.push(start..i);
        }
    }
    out
}

/// Solves the WSP problem of `body[range]` and returns the plan and the report.
pub fn plan_segment(
    f: &Func,
    body: &Body,
    range: Range<usize>,
    syms: &mut Symbols,
    opts: &FusionOptions,
    cache: &mut PartitionCache,
    region_no: usize,
) -> (SegmentPlan, RegionReport) {
    let (region, index) = build_region(f, body, range, syms);
    let model = wsp::model_by_name(&opts.cost_model).expect("cost model names are checked by the driver");
    let sol = cache.solve(&region, model.as_ref(), opts.algorithm, opts.budget);
    let singleton = wsp::solve(&region, model.as_ref(), Algorithm::Singleton, opts.budget);
    let graph = wsp::WspGraph::build(&region);
    // A cycle would mean an illegal partition (a bug); fall back to the singleton partition then.
    let (sol, order) = match topological_blocks(&sol.partition, &graph) {
        Some(order) => (sol, order),
        None => {
            let order = (0..singleton.partition.len()).collect();
            (singleton.clone(), order)
        }
    };
    let blocks_r: Vec<Vec<usize>> = order.iter().map(|&b| sol.partition[b].clone()).collect();
    let mut contracted = vec![];
    let mut contracted_names = vec![];
    for b in &blocks_r {
        let mut news = HashSet::new();
        let mut dels = HashSet::new();
        let mut syncs = HashSet::new();
        for &r in b {
            let op = &region.ops[r];
            news.extend(op.new.iter().copied());
            dels.extend(op.del.iter().copied());
            syncs.extend(op.sync.iter().copied());
        }
        // A reduction's output is never contracted, even when nothing reads it afterwards (a dead
        // `let s = sum(x, axis=0);`): the kernel writes it through a parameter.
        let mut reduced = HashSet::new();
        for &r in b {
            if let OpKind::Compute { func: ComputeFn::Reduce(..), out, .. } = &body[index[r]].kind {
                reduced.insert(syms.base(f, *out));
            }
        }
        let mut c = vec![];
        for &r in b {
            if let OpKind::New { res, .. } = body[index[r]].kind {
                let base = syms.base(f, res);
                if dels.contains(&base)
                    && !syncs.contains(&base)
                    && !reduced.contains(&base)
                    && b.iter().any(|&x| matches!(body[index[x]].kind, OpKind::Compute { .. }))
                {
                    c.push(res);
                    contracted_names.push(region.base_names.get(&base).cloned().unwrap_or_default());
                }
            }
        }
        contracted.push(c);
    }
    let cost = model.cost(&region, &sol.partition);
    let report = RegionReport {
        function: f.name.clone(),
        region: region_no,
        algorithm: opts.algorithm.name().to_string(),
        cost_model: opts.cost_model.clone(),
        cost: sol.cost,
        cost_singleton: singleton.cost,
        cost_unit: cost.unit.to_string(),
        optimal_proven: sol.stats.optimal_proven,
        search_nodes: sol.stats.search_nodes,
        solve_ms: sol.stats.solve_ms,
        blocks: blocks_r.clone(),
        contracted: contracted_names,
        ops: region
            .ops
            .iter()
            .enumerate()
            .map(|(i, o)| {
                let name = |b: &wsp::BaseId| region.base_names.get(b).cloned().unwrap_or_default();
                OpReport {
                    index: i,
                    name: o.name.clone(),
                    line: o.line,
                    ins: o.ins.iter().map(|v| (name(&v.base), v.clone())).collect(),
                    outs: o.outs.iter().map(|v| (name(&v.base), v.clone())).collect(),
                    new: o.new.iter().map(name).collect(),
                    del: o.del.iter().map(name).collect(),
                    sync: o.sync.iter().map(name).collect(),
                }
            })
            .collect(),
        defaulted_symbols: cost.defaulted_symbols.clone(),
        dep_edges: (0..graph.n).flat_map(|u| graph.succ[u].iter().map(move |v| (u, v))).collect(),
        fp_edges: (0..graph.n).flat_map(|u| graph.fp[u].iter().filter(move |v| *v > u).map(move |v| (u, v))).collect(),
    };
    let blocks = blocks_r.iter().map(|b| b.iter().map(|&r| index[r]).collect()).collect();
    (SegmentPlan { blocks, contracted }, report)
}

/// Block indices of `partition` in a topological order of its quotient graph, preferring the
/// block whose first operation comes first (Def. 5: a legal partition's quotient graph is acyclic;
/// `None` if it is not).
fn topological_blocks(partition: &[Vec<usize>], g: &wsp::WspGraph) -> Option<Vec<usize>> {
    let mut block_of = vec![0; g.n];
    for (b, ops) in partition.iter().enumerate() {
        for &o in ops {
            block_of[o] = b;
        }
    }
    let mut preds: Vec<BTreeSet<usize>> = vec![BTreeSet::new(); partition.len()];
    for u in 0..g.n {
        for v in g.succ[u].iter() {
            if block_of[u] != block_of[v] {
                preds[block_of[v]].insert(block_of[u]);
            }
        }
    }
    let first = |b: usize| partition[b].iter().min().copied().unwrap_or(usize::MAX);
    let mut ready: BinaryHeap<std::cmp::Reverse<(usize, usize)>> = BinaryHeap::new();
    let mut indeg: Vec<usize> = preds.iter().map(|p| p.len()).collect();
    for (b, _) in indeg.iter().enumerate().filter(|(_, &d)| d == 0) {
        ready.push(std::cmp::Reverse((first(b), b)));
    }
    let mut order = vec![];
    while let Some(std::cmp::Reverse((_, b))) = ready.pop() {
        order.push(b);
        for c in 0..partition.len() {
            if preds[c].contains(&b) {
                indeg[c] -= 1;
                if indeg[c] == 0 {
                    ready.push(std::cmp::Reverse((first(c), c)));
                }
            }
        }
    }
    (order.len() == partition.len()).then_some(order)
}

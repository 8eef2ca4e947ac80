//! Pass `wsp-fusion`: partitions the array operations of every straight-line region of a host
//! function into blocks, one kernel per block, by solving the WSP problem (Kristensen et al. 2016,
//! Secs. III-V) with the chosen algorithm and cost model.
//!
//! The partition is recorded in the IR for `outline-kernels` ([`crate::outline`]): each region is
//! reordered into its pure host operations and `arr.new`s (original order), then its blocks in a
//! topological order of the quotient graph, each block's computations, `arr.sync`s and `arr.del`s
//! contiguous and marked with the block's number ([`Op::block`], printed `arr.block`); an `arr.new`
//! whose base array is contracted in a block carries that block's number.
//!
//! A region (a *segment* here) is a maximal run of array operations (`new`, computations, `del`,
//! `sync`), pure host operations (constants, scalar arithmetic, views, sizes) and host checks
//! (`cf.assert`, run ahead of the region's kernels) inside one body; control flow, calls, host reads
//! (`arr.load`, `arr.print`) and `return` end it, as the
//! paper's fusion works on the straight-line bytecode between front-end interactions. Bases that
//! are created and deleted inside one block, and not synced there, are contracted (Sec. IV-A2).

pub mod region;
pub mod versions;

use crate::roots::base_arrays;
use crate::wsp::{self, Algorithm, Budget, PartitionCache};
use arrayc_dialect::ir::{Body, ComputeFn, Func, Module, Op, OpKind, ValueId};
use region::{build_region, is_host_check, is_pure_host_op, is_wsp_op, Symbols};
use std::collections::{BTreeSet, BinaryHeap, HashMap, HashSet};
use std::ops::Range;

/// The pass's name: its `arrayc-opt --pass` flag.
pub const NAME: &str = "wsp-fusion";

/// The partition the algorithm returned for a region is not legal: its quotient graph has a cycle
/// (Def. 5), so no order of its blocks respects every dependency edge. This is a bug in the
/// algorithm, reported instead of running a wrong program.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error(
    "{NAME}: the `{algorithm}` partition of region {region} of @{function} cannot be scheduled (its blocks depend on each other in a cycle); this is a compiler bug: try another --fuse algorithm"
)]
pub struct UnschedulablePartition {
    pub function: String,
    pub region: usize,
    pub algorithm: String,
}

/// Runs the pass on every host function of `m` with `opts`; returns one report per region.
/// Errors: a region whose partition cannot be scheduled ([`UnschedulablePartition`]).
pub fn run(m: &mut Module, opts: &FusionOptions) -> Result<Vec<RegionReport>, UnschedulablePartition> {
    let called = called_functions(m);
    let mut reports = vec![];
    let mut cache = opts.decisions.clone().map_or_else(PartitionCache::default, PartitionCache::with_disk);
    for f in m.funcs.iter_mut().filter(|f| !f.kernel) {
        let bases = base_arrays(f);
        let mut syms = function_symbols(f, &bases, opts, &called);
        let mut body = std::mem::take(&mut f.body);
        let mut next_block = 0;
        let r = fuse_body(&mut body, f, &mut syms, opts, &mut cache, &mut reports, &mut next_block);
        f.body = body;
        r?;
    }
    Ok(reports)
}

/// Functions called from the program: they run with other arguments too, so they are never
/// specialized ([`Specialization`]).
pub(crate) fn called_functions(m: &Module) -> HashSet<String> {
    fn walk(body: &Body, out: &mut HashSet<String>) {
        for op in body {
            if let OpKind::Call { callee, .. } = &op.kind {
                out.insert(callee.clone());
            }
            for b in op.kind.bodies() {
                walk(b, out);
            }
        }
    }
    let mut out = HashSet::new();
    for f in &m.funcs {
        walk(&f.body, &mut out);
    }
    out
}

/// The symbolic sizes and views of host function `f`, specialized to `opts.specialize` when that
/// names `f` and nothing calls `f`.
pub(crate) fn function_symbols(
    f: &Func,
    bases: &HashMap<ValueId, ValueId>,
    opts: &FusionOptions,
    called: &HashSet<String>,
) -> Symbols {
    let mut syms = Symbols::for_function(f, bases);
    if let Some(spec) = opts.specialize.iter().find(|s| s.func == f.name && !called.contains(&f.name)) {
        syms.specialize(f, &spec.args);
    }
    syms
}

/// Partitions every segment of `body` (and of the bodies nested in it) and records the partition.
fn fuse_body(
    body: &mut Body,
    host: &Func,
    syms: &mut Symbols,
    opts: &FusionOptions,
    cache: &mut PartitionCache,
    reports: &mut Vec<RegionReport>,
    next_block: &mut u32,
) -> Result<(), UnschedulablePartition> {
    let segs = segments(body);
    let old = std::mem::take(body);
    let mut out: Body = Vec::with_capacity(old.len());
    let mut i = 0;
    let mut seg_iter = segs.into_iter().peekable();
    while i < old.len() {
        if let Some(seg) = seg_iter.next_if(|s| s.start == i) {
            let region_no = reports.len();
            let (plan, report) = plan_segment(host, &old, seg.clone(), syms, opts, cache, region_no)?;
            reports.push(report);
            let first = *next_block;
            *next_block += plan.blocks.len() as u32;
            let mut block_of: HashMap<usize, u32> = HashMap::new();
            for (b, ops) in plan.blocks.iter().enumerate() {
                block_of.extend(ops.iter().map(|&j| (j, first + b as u32)));
            }
            let contracted_in: HashMap<ValueId, u32> = plan
                .contracted
                .iter()
                .enumerate()
                .flat_map(|(b, vs)| vs.iter().map(move |&v| (v, first + b as u32)))
                .collect();
            // Pure host operations and allocations keep their order, ahead of the blocks.
            for j in seg.clone() {
                match &old[j].kind {
                    OpKind::New { res, .. } => {
                        out.push(Op { block: contracted_in.get(res).copied(), ..old[j].clone() })
                    }
                    _ if !block_of.contains_key(&j) => out.push(old[j].clone()),
                    _ => {}
                }
            }
            for (b, ops) in plan.blocks.iter().enumerate() {
                for &j in ops.iter().filter(|&&j| !matches!(old[j].kind, OpKind::New { .. })) {
                    out.push(Op { block: Some(first + b as u32), ..old[j].clone() });
                }
            }
            i = seg.end;
            continue;
        }
        let mut op = old[i].clone();
        syms.learn(host, &op.kind);
        for b in op.kind.bodies_mut() {
            fuse_body(b, host, syms, opts, cache, reports, next_block)?;
        }
        out.push(op);
        i += 1;
    }
    *body = out;
    Ok(())
}

/// How to partition: algorithm, cost model (`bohrium`, `max-contract`, `max-locality`,
/// `robinson`) and the search budget of `optimal`.
#[derive(Clone, Debug)]
pub struct FusionOptions {
    pub algorithm: Algorithm,
    pub cost_model: String,
    pub budget: Budget,
    /// What is known of the arguments of some functions (the entry, and the versions of it that
    /// [`versions`] makes), if anything (see [`Specialization`]).
    pub specialize: Vec<Specialization>,
    /// Where partitions persist across compilations (the merge cache on disk, `wsp::cache`); `None`:
    /// only within this compilation.
    pub decisions: Option<crate::disk_cache::DiskCache>,
}

impl Default for FusionOptions {
    /// `optimal` under `bohrium`, the default [`Budget`] per region, no specialization.
    fn default() -> Self {
        FusionOptions {
            algorithm: Algorithm::Optimal,
            cost_model: "bohrium".into(),
            budget: Budget::default(),
            specialize: vec![],
            decisions: None,
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
    /// An i64 scalar known only modulo `modulus` (`>= 2`): it is `residue` (in `0..modulus`) plus a
    /// multiple of `modulus`, for the partitions of [`versions`] (`n % 2 == 0`).
    Residue {
        modulus: i64,
        residue: i64,
    },
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
    /// Whether the partition came from the disk cache (`arrayc run`), not a search.
    pub from_disk: bool,
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
) -> Result<(SegmentPlan, RegionReport), UnschedulablePartition> {
    let (region, index) = build_region(f, body, range, syms);
    let model = wsp::model_by_name(&opts.cost_model).expect("cost model names are checked by the driver");
    let prob = wsp::Problem::new(&region, model.as_ref());
    let sol = cache.solve(&prob, opts.algorithm, opts.budget);
    let singleton = wsp::solve_problem(&prob, Algorithm::Singleton, opts.budget);
    let order = topological_blocks(&sol.partition, &prob.graph).ok_or_else(|| UnschedulablePartition {
        function: f.name.clone(),
        region: region_no,
        algorithm: opts.algorithm.name().to_string(),
    })?;
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
        // A reduction's output, or a scatter's target, is never contracted, even when nothing reads
        // it afterwards (a dead `let s = sum(x, axis=0);`): the kernel writes it through a parameter.
        let mut reduced = HashSet::new();
        for &r in b {
            if let OpKind::Compute { func, out, .. } = &body[index[r]].kind {
                if matches!(func, ComputeFn::Reduce(..)) || func.own_shape_output() {
                    reduced.insert(syms.base(f, *out));
                }
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
        from_disk: sol.stats.from_disk,
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
        dep_edges: (0..prob.graph.n).flat_map(|u| prob.graph.succ[u].iter().map(move |v| (u, v))).collect(),
        fp_edges: (0..prob.graph.n)
            .flat_map(|u| prob.graph.fp[u].iter().filter(move |v| *v > u).map(move |v| (u, v)))
            .collect(),
    };
    let blocks = blocks_r.iter().map(|b| b.iter().map(|&r| index[r]).collect()).collect();
    Ok((SegmentPlan { blocks, contracted }, report))
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

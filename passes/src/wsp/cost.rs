//! Partition cost models behind one trait, [`CostModel`] (Def. 6): Bohrium (Def. 13),
//! Max Contract (Def. 19), Max Locality (Def. 20) and Robinson (Def. 21).
//!
//! Every model here is *block-decomposable*: `cost(P) = constant + sum_{B in P} block(B)`, which
//! lets the algorithms compute merge weights `w(B1,B2) = block(B1) + block(B2) - block(B1 u B2)`
//! (Def. 15) locally, as Prop. 1 does for Bohrium.
//!
//! SYNC rule: an array `sync`ed inside a block stays materialized there (external / not
//! contracted) even if its `new` and `del` are in the same block. For Def. 13 the rule applies
//! to a sync that follows a write of the array in the block (a sync before any write reads the
//! value from an earlier block); this keeps Bohrium monotone on well-formed regions (`new` is
//! a base's first touch, `del` its last).
//!
//! Symbolic sizes are evaluated with the region's `bindings`; each unbound symbol defaults to
//! [`DEFAULT_SYMBOL_VALUE`] and is reported in [`Cost::defaulted_symbols`].
use super::region::{BaseId, Region, View};
use std::collections::HashMap;

/// Value of an unbound size symbol when a cost must be a number.
pub const DEFAULT_SYMBOL_VALUE: i64 = 1024;

/// A partition cost with its unit and the symbols that had to be defaulted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cost {
    pub value: u64,
    pub unit: String,
    pub defaulted_symbols: Vec<String>,
}

/// Pre-digested region for cost evaluation: views interned (identical views share an id,
/// Def. 11 "identical arrays"), bases densely numbered, sizes evaluated.
pub struct CostCtx {
    pub n: usize,
    pub ins: Vec<Vec<usize>>,
    pub outs: Vec<Vec<usize>>,
    pub new: Vec<Vec<usize>>,
    pub del: Vec<Vec<usize>>,
    pub sync: Vec<Vec<usize>>,
    pub view_base: Vec<usize>,
    pub view_elems: Vec<u64>,
    pub base_ids: Vec<BaseId>,
    pub defaulted_symbols: Vec<String>,
}

impl CostCtx {
    pub fn new(region: &Region) -> CostCtx {
        let b = &region.bindings;
        let mut views: Vec<View> = Vec::new();
        let mut base_ids: Vec<BaseId> = Vec::new();
        let mut defaulted = Vec::new();
        let mut view_elems = Vec::new();
        let mut view_base = Vec::new();
        let base_of = |x: BaseId, base_ids: &mut Vec<BaseId>| match base_ids.iter().position(|y| *y == x) {
            Some(p) => p,
            None => {
                base_ids.push(x);
                base_ids.len() - 1
            }
        };
        let intern = |v: &View,
                      views: &mut Vec<View>,
                      base_ids: &mut Vec<BaseId>,
                      defaulted: &mut Vec<String>,
                      view_elems: &mut Vec<u64>,
                      view_base: &mut Vec<usize>| {
            if let Some(p) = views.iter().position(|w| super::view::identical(v, w, b)) {
                return p;
            }
            let (e, miss) = v.elems().eval_or_default(b, DEFAULT_SYMBOL_VALUE);
            defaulted.extend(miss);
            views.push(v.clone());
            view_elems.push(e.max(0) as u64);
            view_base.push(base_of(v.base, base_ids));
            views.len() - 1
        };
        let (mut ins, mut outs, mut new, mut del, mut sync) = (vec![], vec![], vec![], vec![], vec![]);
        for op in &region.ops {
            let mut i: Vec<usize> = op
                .ins
                .iter()
                .map(|v| intern(v, &mut views, &mut base_ids, &mut defaulted, &mut view_elems, &mut view_base))
                .collect();
            let mut o: Vec<usize> = op
                .outs
                .iter()
                .map(|v| intern(v, &mut views, &mut base_ids, &mut defaulted, &mut view_elems, &mut view_base))
                .collect();
            i.sort();
            i.dedup();
            o.sort();
            o.dedup();
            ins.push(i);
            outs.push(o);
            let mut m = |xs: &[BaseId]| {
                let mut v: Vec<usize> = xs.iter().map(|x| base_of(*x, &mut base_ids)).collect();
                v.sort();
                v.dedup();
                v
            };
            new.push(m(&op.new));
            del.push(m(&op.del));
            sync.push(m(&op.sync));
        }
        defaulted.sort();
        defaulted.dedup();
        CostCtx {
            n: region.ops.len(),
            ins,
            outs,
            new,
            del,
            sync,
            view_base,
            view_elems,
            base_ids,
            defaulted_symbols: defaulted,
        }
    }
    pub fn nviews(&self) -> usize {
        self.view_base.len()
    }
    pub fn nbases(&self) -> usize {
        self.base_ids.len()
    }
    fn union(&self, sets: &[Vec<usize>], block: &[usize]) -> Vec<usize> {
        let mut v: Vec<usize> = block.iter().flat_map(|&f| sets[f].iter().copied()).collect();
        v.sort_unstable();
        v.dedup();
        v
    }
    /// `ext[B]` of Def. 10 with the SYNC rule, as (view id, counted once) list; a view both read
    /// and written externally appears twice (disjoint union).
    pub fn ext(&self, block: &[usize]) -> Vec<usize> {
        let newb = self.union(&self.new, block);
        let delb = self.union(&self.del, block);
        let syncb = self.union(&self.sync, block);
        let mut out = Vec::new();
        for v in self.union(&self.ins, block) {
            if newb.binary_search(&self.view_base[v]).is_err() {
                out.push(v);
            }
        }
        // A write is external unless its base is deleted in the block, and also when a SYNC of
        // its base follows it in the block (the front end reads that value). Per write, so a dead
        // write after the sync stays free and merging never makes a cost grow (Def. 6).
        let mut writes: Vec<usize> = vec![];
        for &f in block {
            for &v in &self.outs[f] {
                let base = self.view_base[v];
                let synced_later =
                    syncb.binary_search(&base).is_ok() && block.iter().any(|&s| s > f && self.sync[s].contains(&base));
                if delb.binary_search(&base).is_err() || synced_later {
                    writes.push(v);
                }
            }
        }
        writes.sort_unstable();
        writes.dedup();
        out.extend(writes);
        out
    }
    /// Number of bases contracted in `block`: new and del inside, not synced inside.
    pub fn contracted(&self, block: &[usize]) -> usize {
        let newb = self.union(&self.new, block);
        let delb = self.union(&self.del, block);
        let syncb = self.union(&self.sync, block);
        newb.iter().filter(|b| delb.binary_search(b).is_ok() && syncb.binary_search(b).is_err()).count()
    }
    /// Total number of `new` events (|new[A]| of Def. 19).
    pub fn new_count(&self) -> usize {
        self.new.iter().map(|v| v.len()).sum()
    }
    /// Max Locality pair weight `|ext[f] n io[f']|` (Def. 20) for single ops.
    pub fn locality_pair(&self, f: usize, g: usize) -> u64 {
        let e = self.ext(&[f]);
        e.iter().filter(|v| self.ins[g].contains(v) || self.outs[g].contains(v)).count() as u64
    }
}

/// A WSP cost function (Def. 6): non-negative and monotone (merging never increases the cost).
/// Implementations are block-decomposable: `cost(P) = constant + sum block(B)`.
pub trait CostModel: Send + Sync {
    fn name(&self) -> &str;
    fn unit(&self) -> &str;
    /// Model-specific preprocessing (e.g. pair tables); called once per region.
    fn prepare(&self, region: &Region) -> Prepared;
    /// Cost of a full partition (blocks of op indices).
    fn cost(&self, region: &Region, partition: &[Vec<usize>]) -> Cost {
        let p = self.prepare(region);
        let v = p.constant + partition.iter().map(|b| p.block(b)).sum::<i64>();
        Cost {
            value: v.max(0) as u64,
            unit: self.unit().to_string(),
            defaulted_symbols: p.ctx.defaulted_symbols.clone(),
        }
    }
}

/// The block-local form of a cost model for one region.
pub struct Prepared {
    pub ctx: CostCtx,
    pub constant: i64,
    kind: Kind,
}

enum Kind {
    Bohrium { view_weight: Vec<u64> },
    Gpu { view_weight: Vec<u64>, launch: i64 },
    MaxContract,
    MaxLocality { pair: Vec<Vec<u64>> },
    Robinson { pair: Vec<Vec<u64>>, n: i64 },
}

impl Prepared {
    /// Contribution of one block.
    pub fn block(&self, block: &[usize]) -> i64 {
        let c = &self.ctx;
        match &self.kind {
            Kind::Bohrium { view_weight } => c.ext(block).iter().map(|&v| view_weight[v] as i64).sum(),
            Kind::Gpu { view_weight, launch } => {
                // A block of array operations is one kernel launch; `new`, `del` and `sync` alone are not.
                let launches = block.iter().any(|&f| !c.ins[f].is_empty() || !c.outs[f].is_empty());
                launch * launches as i64 + c.ext(block).iter().map(|&v| view_weight[v] as i64).sum::<i64>()
            }
            Kind::MaxContract => -(c.contracted(block) as i64),
            Kind::MaxLocality { pair } => -inner(pair, block),
            Kind::Robinson { pair, n } => 1 - n * c.contracted(block) as i64 - n * n * inner(pair, block),
        }
    }
    /// Cost of a whole partition.
    pub fn cost<B: AsRef<[usize]>>(&self, partition: &[B]) -> i64 {
        self.constant + partition.iter().map(|b| self.block(b.as_ref())).sum::<i64>()
    }
}

/// The terms of [`Prepared::block`] in a form that an integer linear program can state
/// (`crate::wsp::algo::ilp`): a block costs
/// `per_block + per_launch * [it has an array op] + sum of view weights over ext[B]
/// + per_contracted * contracted(B) + pair_weight * sum of pair[f][g] over ordered pairs in B`.
pub struct BlockTerms<'a> {
    /// Cost of every block (Robinson's loop count).
    pub per_block: i64,
    /// Cost of every block with an array operation (a kernel launch: the GPU model).
    pub per_launch: i64,
    /// Weight of each view (by [`CostCtx`] view id) counted in `ext[B]` (Bohrium, GPU).
    pub view_weight: Option<&'a [u64]>,
    /// Cost of each base contracted in a block (negative: a saving).
    pub per_contracted: i64,
    /// The pair table (Max Locality, Robinson) and the cost of one unit of it (negative).
    pub pair: Option<(&'a [Vec<u64>], i64)>,
}

impl Prepared {
    /// This model's block cost as [`BlockTerms`].
    pub fn terms(&self) -> BlockTerms<'_> {
        let none = BlockTerms { per_block: 0, per_launch: 0, view_weight: None, per_contracted: 0, pair: None };
        match &self.kind {
            Kind::Bohrium { view_weight } => BlockTerms { view_weight: Some(view_weight), ..none },
            Kind::Gpu { view_weight, launch } => {
                BlockTerms { view_weight: Some(view_weight), per_launch: *launch, ..none }
            }
            Kind::MaxContract => BlockTerms { per_contracted: -1, ..none },
            Kind::MaxLocality { pair } => BlockTerms { pair: Some((pair, -1)), ..none },
            Kind::Robinson { pair, n } => {
                BlockTerms { per_block: 1, per_contracted: -n, pair: Some((pair, -n * n)), ..none }
            }
        }
    }
}

fn inner(pair: &[Vec<u64>], block: &[usize]) -> i64 {
    let mut s = 0;
    for &f in block {
        for &g in block {
            if f != g {
                s += pair[f][g] as i64;
            }
        }
    }
    s
}

fn pair_table(ctx: &CostCtx) -> (Vec<Vec<u64>>, i64) {
    let n = ctx.n;
    let mut t = vec![vec![0u64; n]; n];
    let mut total = 0i64;
    for (f, row) in t.iter_mut().enumerate() {
        let e = ctx.ext(&[f]);
        if e.is_empty() {
            continue;
        }
        for (g, cell) in row.iter_mut().enumerate() {
            if f != g {
                let w = e
                    .iter()
                    .filter(|v| ctx.ins[g].binary_search(v).is_ok() || ctx.outs[g].binary_search(v).is_ok())
                    .count() as u64;
                *cell = w;
                total += w as i64;
            }
        }
    }
    (t, total)
}

/// Def. 13: `cost(P) = sum_B ||ext[B]||`. Sizes in elements, or in bytes when `dtype_bytes`
/// gives an element size per base (missing bases count 1 byte per element... i.e. elements).
#[derive(Default, Clone)]
pub struct Bohrium {
    pub dtype_bytes: HashMap<BaseId, u64>,
}
impl CostModel for Bohrium {
    fn name(&self) -> &str {
        "bohrium"
    }
    fn unit(&self) -> &str {
        if self.dtype_bytes.is_empty() {
            "elements"
        } else {
            "bytes"
        }
    }
    fn prepare(&self, region: &Region) -> Prepared {
        let ctx = CostCtx::new(region);
        let view_weight = (0..ctx.nviews())
            .map(|v| ctx.view_elems[v] * self.dtype_bytes.get(&ctx.base_ids[ctx.view_base[v]]).copied().unwrap_or(1))
            .collect();
        Prepared { ctx, constant: 0, kind: Kind::Bohrium { view_weight } }
    }
}

/// A kernel launch on the GPU priced as device-memory traffic, in elements of 8 bytes: about 5 us of
/// launch and synchronisation overhead at an H100's 3.35 TB/s of HBM3 bandwidth (NVIDIA's data
/// sheet) is about 16 MiB, 2^21 elements. An estimate from published figures: no GPU was available
/// to measure it.
pub const GPU_LAUNCH_ELEMENTS: u64 = 1 << 21;

/// The GPU cost model (`--cost gpu`, the default with `--target gpu`): Def. 13's elements moved
/// (external accesses of each block, Bohrium's model, which stands for device-memory traffic here)
/// plus [`GPU_LAUNCH_ELEMENTS`] per block of array operations (one kernel launch each; a block of only
/// `new`, `del` or `sync` launches nothing). Still a WSP cost function (Def. 6): merging two blocks
/// never adds a launch or external accesses. On small arrays the launch
/// term dominates and the model favours fewer kernels; on large ones it is Bohrium's model.
#[derive(Default, Clone)]
pub struct Gpu;
impl CostModel for Gpu {
    fn name(&self) -> &str {
        "gpu"
    }
    fn unit(&self) -> &str {
        "elements"
    }
    fn prepare(&self, region: &Region) -> Prepared {
        let Prepared { ctx, constant, kind } = Bohrium::default().prepare(region);
        let Kind::Bohrium { view_weight } = kind else { unreachable!("Bohrium's model prepares its own kind") };
        Prepared { ctx, constant, kind: Kind::Gpu { view_weight, launch: GPU_LAUNCH_ELEMENTS as i64 } }
    }
}

/// Def. 19: number of allocated arrays that are not contracted.
#[derive(Default, Clone)]
pub struct MaxContract;
impl CostModel for MaxContract {
    fn name(&self) -> &str {
        "max-contract"
    }
    fn unit(&self) -> &str {
        "arrays"
    }
    fn prepare(&self, region: &Region) -> Prepared {
        let ctx = CostCtx::new(region);
        Prepared { constant: ctx.new_count() as i64, ctx, kind: Kind::MaxContract }
    }
}

/// Def. 20: `sum_B sum_{f in B} sum_{f' not in B} |ext[f] n io[f']|` (views as arrays).
#[derive(Default, Clone)]
pub struct MaxLocality;
impl CostModel for MaxLocality {
    fn name(&self) -> &str {
        "max-locality"
    }
    fn unit(&self) -> &str {
        "access pairs"
    }
    fn prepare(&self, region: &Region) -> Prepared {
        let ctx = CostCtx::new(region);
        let (pair, total) = pair_table(&ctx);
        Prepared { ctx, constant: total, kind: Kind::MaxLocality { pair } }
    }
}

/// Def. 21: `|P| + N*MaxContract + N^2*MaxLocality`. The paper takes N = number of accessed
/// arrays; to *guarantee* the stated priority we use `N = 1 + max(#arrays, #ops, #new)`.
#[derive(Default, Clone)]
pub struct Robinson;
impl CostModel for Robinson {
    fn name(&self) -> &str {
        "robinson"
    }
    fn unit(&self) -> &str {
        "weighted"
    }
    fn prepare(&self, region: &Region) -> Prepared {
        let ctx = CostCtx::new(region);
        let (pair, total) = pair_table(&ctx);
        let n = 1 + ctx.nviews().max(ctx.n).max(ctx.new_count()) as i64;
        Prepared { constant: n * ctx.new_count() as i64 + n * n * total, ctx, kind: Kind::Robinson { pair, n } }
    }
}

/// Look a model up by name: `bohrium`, `max-contract`, `max-locality`, `robinson`.
/// Names of the cost models, as [`model_by_name`] accepts them.
pub const MODEL_NAMES: [&str; 5] = ["bohrium", "max-contract", "max-locality", "robinson", "gpu"];

pub fn model_by_name(name: &str) -> Option<Box<dyn CostModel>> {
    Some(match name {
        "bohrium" => Box::new(Bohrium::default()),
        "max-contract" => Box::new(MaxContract),
        "max-locality" => Box::new(MaxLocality),
        "robinson" => Box::new(Robinson),
        "gpu" => Box::new(Gpu),
        _ => return None,
    })
}

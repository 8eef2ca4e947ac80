//! Merge cache (Sec. V-F): partitions of previously seen regions, keyed by a structural hash
//! (op kinds, view relations, sizes/offsets/strides with bases renamed canonically; names and
//! line numbers ignored) together with the algorithm and cost model. In memory for one
//! compilation, and optionally on disk ([`DiskCache`]) across compilations: a partition read from
//! disk is used only after it checks out as a legal partition of the region (Def. 5).
use super::algo::{solve_problem, Algorithm, Budget, Problem, Solution, Stats};
use super::bitset::BitSet;
use super::cost::CostModel;
use super::region::{BaseId, Region, View};
use crate::disk_cache::{compiler_identity, DiskCache, Key, Lookup};
use std::collections::hash_map::DefaultHasher;
use std::collections::HashMap;
use std::hash::{Hash, Hasher};

/// Structural hash of a region: invariant under renaming bases/ops, sensitive to everything the
/// partition algorithms look at.
pub fn structural_hash(region: &Region) -> u64 {
    let mut h = DefaultHasher::new();
    hash_structure(region, &mut h);
    h.finish()
}

/// A [`Hasher`] over BLAKE3, for the 256-bit structural key of the disk cache.
struct Blake3(blake3::Hasher);

impl Hasher for Blake3 {
    fn write(&mut self, bytes: &[u8]) {
        self.0.update(bytes);
    }
    fn finish(&self) -> u64 {
        u64::from_le_bytes(self.0.finalize().as_bytes()[..8].try_into().expect("8 bytes"))
    }
}

/// Feeds the structure of `region` (see [`structural_hash`]) to `h`.
fn hash_structure<H: Hasher>(region: &Region, h: &mut H) {
    let mut canon: HashMap<BaseId, u32> = HashMap::new();
    let id = |b: BaseId, canon: &mut HashMap<BaseId, u32>| {
        let n = canon.len() as u32;
        *canon.entry(b).or_insert(n)
    };
    let mut bindings: Vec<(&String, &i64)> = region.bindings.iter().collect();
    bindings.sort();
    bindings.hash(h);
    region.facts.hash(h);
    let hv = |v: &View, canon: &mut HashMap<BaseId, u32>, h: &mut H| {
        id(v.base, canon).hash(h);
        region.base_sizes.get(&v.base).hash(h);
        v.offset.hash(h);
        v.shape.hash(h);
        v.strides.hash(h);
        v.facts.hash(h);
    };
    region.ops.len().hash(h);
    for op in &region.ops {
        op.kind.hash(h);
        op.ins.len().hash(h);
        for v in &op.ins {
            hv(v, &mut canon, h);
        }
        op.outs.len().hash(h);
        for v in &op.outs {
            hv(v, &mut canon, h);
        }
        for set in [&op.new, &op.del, &op.sync] {
            set.len().hash(h);
            for &b in set.iter() {
                id(b, &mut canon).hash(h);
                region.base_sizes.get(&b).hash(h);
            }
        }
    }
}

/// Cache of partitions; repeated regions are not searched twice, within a compilation and, with a
/// [`DiskCache`] ([`PartitionCache::with_disk`]), across compilations.
#[derive(Default)]
pub struct PartitionCache {
    map: HashMap<(u64, String, &'static str), Solution>,
    disk: Option<DiskCache>,
    pub hits: u64,
    pub misses: u64,
    /// Partitions read from the disk cache (and checked).
    pub disk_hits: u64,
}

impl PartitionCache {
    pub fn new() -> Self {
        Self::default()
    }
    /// Solve through the cache. On a hit the stored solution is returned (stats as recorded at
    /// the original solve).
    pub fn solve(&mut self, prob: &Problem, algo: Algorithm, budget: Budget) -> Solution {
        let (region, model) = (prob.region, prob.model);
        let key = (structural_hash(region), model.name().to_string(), algo.name());
        if let Some(s) = self.map.get(&key) {
            self.hits += 1;
            return s.clone();
        }
        self.misses += 1;
        let disk_key = self.disk.as_ref().map(|_| disk_key(region, model, algo, budget));
        if let (Some(d), Some(k)) = (&self.disk, &disk_key) {
            if let Lookup::Hit(bytes) = d.get(k) {
                if let Some(s) = decode(&bytes, prob) {
                    self.disk_hits += 1;
                    self.map.insert(key, s.clone());
                    return s;
                }
            }
        }
        let s = solve_problem(prob, algo, budget);
        if let (Some(d), Some(k)) = (&self.disk, &disk_key) {
            // A cache that cannot be written only costs the next compilation a search.
            let _ = d.put(k, encode(&s).as_bytes());
        }
        self.map.insert(key, s.clone());
        s
    }
    /// A cache that also reads and writes the partitions of `disk`.
    pub fn with_disk(disk: DiskCache) -> Self {
        PartitionCache { disk: Some(disk), ..Self::default() }
    }
    pub fn len(&self) -> usize {
        self.map.len()
    }
    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }
}

/// The disk cache key of a region's partition: [`compiler_identity`], the region's structure (with
/// BLAKE3), the cost model, the algorithm and the budget.
pub fn disk_key(region: &Region, model: &dyn CostModel, algo: Algorithm, budget: Budget) -> Key {
    let mut h = Blake3(blake3::Hasher::new());
    hash_structure(region, &mut h);
    let structure = h.0.finalize();
    let settings = format!("{} {} {:?} {:?}", model.name(), algo.name(), budget.max_nodes, budget.max_ms);
    Key::of(&[b"arrayc fusion decision v1", compiler_identity().as_bytes(), structure.as_bytes(), settings.as_bytes()])
}

/// A solution as text: `nodes N`, `proven 0|1`, `ms X`, then one line of op indices per block.
fn encode(s: &Solution) -> String {
    let mut t =
        format!("nodes {}\nproven {}\nms {}\n", s.stats.search_nodes, s.stats.optimal_proven as u8, s.stats.solve_ms);
    for b in &s.partition {
        let ops: Vec<String> = b.iter().map(usize::to_string).collect();
        t.push_str(&ops.join(" "));
        t.push('\n');
    }
    t
}

/// The solution [`encode`] wrote, if it is a legal partition of `region` (every op in exactly one
/// block, no fuse-preventing edge inside a block, an acyclic quotient graph: Def. 5), with its cost
/// recomputed under `model`; `None` for anything else.
fn decode(bytes: &[u8], prob: &Problem) -> Option<Solution> {
    let text = std::str::from_utf8(bytes).ok()?;
    let mut lines = text.lines();
    let mut field = |name: &str| lines.next()?.strip_prefix(name)?.strip_prefix(' ').map(str::to_string);
    let search_nodes = field("nodes")?.parse().ok()?;
    let optimal_proven = field("proven")? == "1";
    let solve_ms = field("ms")?.parse().ok()?;
    let n = prob.region.ops.len();
    let mut seen = vec![false; n];
    let mut partition = vec![];
    for l in lines {
        let block: Vec<usize> = l.split(' ').map(|x| x.parse().ok()).collect::<Option<_>>()?;
        for &i in &block {
            if i >= n || std::mem::replace(&mut seen[i], true) {
                return None;
            }
        }
        partition.push(block);
    }
    if seen.iter().any(|s| !s) {
        return None;
    }
    let sets: Vec<BitSet> = partition
        .iter()
        .map(|b| {
            let mut s = BitSet::new(n);
            b.iter().for_each(|&i| s.insert(i));
            s
        })
        .collect();
    if !prob.is_legal(&sets) {
        return None;
    }
    let cost = prob.cost_of(&partition);
    let stats = Stats { search_nodes, optimal_proven, solve_ms, from_disk: true, ..Stats::default() };
    Some(Solution { partition, cost, stats })
}

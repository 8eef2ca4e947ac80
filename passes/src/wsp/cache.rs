//! Merge cache (Sec. V-F): partitions of previously seen regions, keyed by a structural hash
//! (op kinds, view relations, sizes/offsets/strides with bases renamed canonically; names and
//! line numbers ignored) together with the algorithm and cost model.
use super::algo::{solve, Algorithm, Budget, Solution};
use super::cost::CostModel;
use super::region::{BaseId, Region, View};
use std::collections::hash_map::DefaultHasher;
use std::collections::HashMap;
use std::hash::{Hash, Hasher};

/// Structural hash of a region: invariant under renaming bases/ops, sensitive to everything the
/// partition algorithms look at.
pub fn structural_hash(region: &Region) -> u64 {
    let mut h = DefaultHasher::new();
    let mut canon: HashMap<BaseId, u32> = HashMap::new();
    let id = |b: BaseId, canon: &mut HashMap<BaseId, u32>| {
        let n = canon.len() as u32;
        *canon.entry(b).or_insert(n)
    };
    let mut bindings: Vec<(&String, &i64)> = region.bindings.iter().collect();
    bindings.sort();
    bindings.hash(&mut h);
    let hv = |v: &View, canon: &mut HashMap<BaseId, u32>, h: &mut DefaultHasher| {
        id(v.base, canon).hash(h);
        region.base_sizes.get(&v.base).hash(h);
        v.offset.hash(h);
        v.shape.hash(h);
        v.strides.hash(h);
    };
    region.ops.len().hash(&mut h);
    for op in &region.ops {
        op.kind.hash(&mut h);
        op.ins.len().hash(&mut h);
        for v in &op.ins {
            hv(v, &mut canon, &mut h);
        }
        op.outs.len().hash(&mut h);
        for v in &op.outs {
            hv(v, &mut canon, &mut h);
        }
        for set in [&op.new, &op.del, &op.sync] {
            set.len().hash(&mut h);
            for &b in set.iter() {
                id(b, &mut canon).hash(&mut h);
                region.base_sizes.get(&b).hash(&mut h);
            }
        }
    }
    h.finish()
}

/// Cache of partitions; repeated regions are not searched twice.
#[derive(Default)]
pub struct PartitionCache {
    map: HashMap<(u64, String, &'static str), Solution>,
    pub hits: u64,
    pub misses: u64,
}

impl PartitionCache {
    pub fn new() -> Self {
        Self::default()
    }
    /// Solve through the cache. On a hit the stored solution is returned (stats as recorded at
    /// the original solve).
    pub fn solve(&mut self, region: &Region, model: &dyn CostModel, algo: Algorithm, budget: Budget) -> Solution {
        let key = (structural_hash(region), model.name().to_string(), algo.name());
        if let Some(s) = self.map.get(&key) {
            self.hits += 1;
            return s.clone();
        }
        self.misses += 1;
        let s = solve(region, model, algo, budget);
        self.map.insert(key, s.clone());
        s
    }
    pub fn len(&self) -> usize {
        self.map.len()
    }
    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }
}

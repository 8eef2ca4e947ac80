//! Weighted Subroutine Partition (WSP) fusion, after Kristensen et al., "Fusion of Array
//! Operations at Runtime" (2016).
//!
//! * [`sym`]: symbolic sizes ([`SymExpr`]); [`region`]: the input ([`Region`], [`Op`], [`View`]);
//! * [`view`]: view overlap/identity (Defs. 11-12); [`graph`]: the WSP graph (Defs. 1, 9-12);
//! * [`cost`]: cost models (Defs. 6, 13, 19-21); [`algo`]: singleton, linear (Sec. V-E),
//!   greedy (Fig. 7), unintrusive (Fig. 6), optimal (Figs. 10-11) and optimal-baseline;
//! * [`cache`]: the merge cache (Sec. V-F).
//!
//! ```ignore
//! let sol = wsp::solve(&region, &wsp::Bohrium::default(), wsp::Algorithm::Optimal, wsp::Budget::default());
//! ```
pub mod algo;
pub mod bitset;
pub mod cache;
pub mod cost;
pub mod graph;
pub mod prove;
pub mod region;
pub mod sym;
pub mod view;

pub use algo::{solve, solve_problem, Algorithm, Budget, Problem, Solution, Stats};
pub use cache::{disk_key, structural_hash, PartitionCache};
pub use cost::{model_by_name, Bohrium, Cost, CostModel, Gpu, MaxContract, MaxLocality, Robinson, MODEL_NAMES};
pub use graph::WspGraph;
pub use region::{BaseId, Op, OpKind, Region, View, ViewFacts};
pub use sym::SymExpr;

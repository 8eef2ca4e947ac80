//! Pass `fusion`: partitions the array operations of each straight-line region into blocks, one
//! kernel per block (Kristensen et al. 2016, Sec. IV, Def. 11: a partition of the WSP graph).
//!
//! Only the singleton partition exists so far: every array computation is its own block. The WSP
//! algorithms (linear, greedy, unintrusive, optimal; Sec. V) replace [`partition`] in a later issue.

use arrayc_dialect::ir::{Body, OpKind};

/// A block: indices of operations of one region (body) fused into one kernel, in region order.
pub type Block = Vec<usize>;

/// The partition of one region into blocks of `arr` computations. Operations that are not
/// computations (`new`, `del`, `sync`, views, host code) belong to no block.
pub fn partition(body: &Body) -> Vec<Block> {
    body.iter()
        .enumerate()
        .filter(|(_, op)| matches!(op.kind, OpKind::Compute { .. }))
        .map(|(i, _)| vec![i])
        .collect()
}

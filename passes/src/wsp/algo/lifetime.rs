//! Lifetime attachment: a preconditioning step of `optimal` (our addition to Sec. V-D's
//! unintrusive preconditioning, Fig. 6), which merges standalone `new` and `del` vertices into
//! the block where the base array's life begins or ends.
//!
//! A standalone `new v` (no inputs, outputs, `del` or `sync`) with no predecessor and no
//! fuse-preventing edge, whose successors `S` (every operation touching the base) all lie
//! downstream of one of them, `W` (`S \ {W}` reachable from `W`), is merged with `W`. Symmetrically
//! a standalone `del d` with no successor whose predecessors all reach one of them, `L`, is merged
//! with `L`. `W` and `L` are never standalone `new`/`del` vertices themselves.
//!
//! Why no optimum is lost: take any legal partition and move `v` into `W`'s block. The quotient
//! graph only gains edges `block(W) -> block(s)` for `s` in `S`, which `W`'s paths already imply,
//! so it stays acyclic (Def. 5). The block `v` left cannot hold an accessor `s != W` of the base
//! (it would reach `block(W)` through `v -> W` and be reached from it through `W -> s`: a cycle),
//! so its cost does not change; `W`'s block gains a `new`, which only turns reads of the base into
//! internal ones and enables contraction (Defs. 13, 19-21 never charge for a `new`). The same
//! argument, mirrored, holds for `del`. Moves of different vertices do not interfere, since no
//! moved vertex is another's target. The property tests compare `optimal` with an exhaustive
//! search on random regions that contain standalone `new`/`del` vertices.
use super::{PState, Problem};
use crate::wsp::region::OpKind;

/// Merges every attachable standalone `new`/`del` vertex of `st` (a state whose blocks are still
/// singletons for those vertices) into its target's block.
/// Puts each communication op of a distributed run (pass `distribute`: `arr.exchange`,
/// `arr.allreduce`) in the block of its partner, the computation it goes with. Never excludes an
/// optimal partition: the op is fusible with its partner, touches only the partner's view (no cost
/// of its own in that block), and any partition keeping it apart can move it there. Without this
/// the search would also place these ops, each fusible with most of the region.
pub fn attach_communication(p: &Problem, mut st: PState) -> PState {
    for (v, op) in p.region.ops.iter().enumerate().take(p.graph.n) {
        if let OpKind::Communication { partner: Some(w) } = op.kind {
            let (a, b) = (st.owner[v], st.owner[w]);
            if a != b && !st.fpu[a].contains(w) {
                st.merge(a, b);
            }
        }
    }
    st
}

pub fn attach_lifetime_ops(p: &Problem, mut st: PState) -> PState {
    let g = &p.graph;
    let ops = &p.region.ops;
    let standalone = |i: usize| {
        let o = &ops[i];
        o.ins.is_empty() && o.outs.is_empty() && o.sync.is_empty() && o.new.len() + o.del.len() == 1
    };
    for (v, op) in ops.iter().enumerate().take(g.n) {
        if !standalone(v) || !g.fp[v].is_empty() {
            continue;
        }
        let is_new = op.new.len() == 1;
        let (before, after) = if is_new { (&g.pred[v], &g.succ[v]) } else { (&g.succ[v], &g.pred[v]) };
        if !before.is_empty() {
            continue;
        }
        let near: Vec<usize> = after.iter().collect();
        // The target: the first (for `new`) or last (for `del`) touch, which every other touch
        // follows (precedes).
        let target = near.iter().copied().find(|&w| {
            !standalone(w)
                && near.iter().all(|&s| s == w || if is_new { g.reach[w].contains(s) } else { g.reach[s].contains(w) })
        });
        if let Some(w) = target {
            let (a, b) = (st.owner[v], st.owner[w]);
            if a != b {
                st.merge(a, b);
            }
        }
    }
    st
}

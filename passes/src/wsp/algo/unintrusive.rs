//! Unintrusive merge (Fig. 6, Theorem 3, Def. 18).
//!
//! FINDCANDIDATE: drop illegal weight edges (Lemma 1); pick an edge `(u, v)` where one end, `x`,
//! has weight-degree 1 (its only legal positive-weight edge is this one), is *pendant* in the
//! transitive reduction of `E_d(P)` (degree <= 1, and its only neighbour is the other end `y`),
//! and whose non-fusible set is covered: `theta[x] <= theta[y]` (Def. 18 with theta = the ops
//! forbidden with the block). Paper's Theorem 3 asks `theta[u] = theta[v]`; the inclusion is
//! what the proof uses (merging adds no new forbidden edge to anyone) and lets Fig. 4's `a`,`e`
//! merge as the text says. Such a merge never excludes an optimal partition: any partition
//! keeping `x` apart can move `x` into `y`'s block at no cost increase.
use super::{Deadline, PState, Problem};
use crate::wsp::bitset::BitSet;
use std::collections::HashMap;

/// Neighbours of `x` in the transitive reduction of the quotient DAG.
fn reduced_neighbours(succ: &[BitSet], reach: &[BitSet], live: &[usize], x: usize) -> Vec<usize> {
    let mut out = Vec::new();
    for s in succ[x].iter() {
        if !succ[x].iter().any(|t| t != s && reach[t].contains(s)) {
            out.push(s);
        }
    }
    for &q in live {
        if succ[q].contains(x) && !succ[q].iter().any(|t| t != x && reach[t].contains(x)) {
            out.push(q);
        }
    }
    out
}

/// Unintrusive merges from `st` until none is left or the deadline passes (each merge keeps the
/// partition legal, so the state is legal whenever it stops).
pub fn unintrusive(p: &Problem, mut st: PState, deadline: Deadline) -> PState {
    // Weights are block-local (Def. 15), so a merge changes only the weights of pairs with the
    // merged blocks: the others are kept from one round to the next.
    let mut weights: HashMap<(usize, usize), i64> = HashMap::new();
    loop {
        if deadline.passed() {
            return st;
        }
        let live = st.live();
        let q = st.quotient(&p.graph);
        // Legal positive-weight edges (FINDCANDIDATE lines 1-6).
        let mut ew: Vec<(usize, usize)> = Vec::new();
        for (i, &a) in live.iter().enumerate() {
            for &b in &live[i + 1..] {
                if st.fpu[a].intersects(st.block(b)) {
                    continue;
                }
                let w = *weights.entry((a, b)).or_insert_with(|| p.weight(st.block(a), st.block(b)));
                if w > 0 && q.legal_merge(&st, a, b) {
                    ew.push((a, b));
                }
            }
        }
        let mut deg = vec![0usize; st.n];
        for &(a, b) in &ew {
            deg[a] += 1;
            deg[b] += 1;
        }
        let (succ, reach) = (&q.succ, &q.reach);
        let theta = |s: usize| -> BitSet {
            let mut t = st.fpu[s].clone();
            t.difference_with(st.block(s));
            t
        };
        let ok = |x: usize, y: usize| {
            if deg[x] != 1 {
                return false;
            }
            let nb = reduced_neighbours(succ, reach, &live, x);
            (nb.is_empty() || nb == [y]) && theta(x).is_subset(&theta(y))
        };
        let cand = ew.iter().find(|&&(a, b)| ok(a, b) || ok(b, a)).copied();
        match cand {
            Some((a, b)) => {
                st.merge(a, b);
                weights.retain(|&(x, y), _| x != a && x != b && y != a && y != b);
            }
            None => return st,
        }
    }
}

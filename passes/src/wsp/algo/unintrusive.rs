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
use super::{PState, Problem};
use crate::wsp::bitset::BitSet;

/// Quotient successors and transitive closure of `E_d(P)` over live slots.
fn closure(p: &Problem, st: &PState) -> (Vec<BitSet>, Vec<BitSet>) {
    let n = st.n;
    let live = st.live();
    let mut succ = vec![BitSet::new(n); n];
    for &a in &live {
        succ[a] = st.bsucc(&p.graph, a);
    }
    // Topological order by DFS (the partition is legal, so the quotient is a DAG).
    let mut order = Vec::new();
    let mut mark = vec![0u8; n];
    for &s in &live {
        if mark[s] != 0 {
            continue;
        }
        let mut stack = vec![(s, false)];
        while let Some((v, done)) = stack.pop() {
            if done {
                order.push(v);
                continue;
            }
            if mark[v] != 0 {
                continue;
            }
            mark[v] = 1;
            stack.push((v, true));
            for c in succ[v].iter() {
                if mark[c] == 0 {
                    stack.push((c, false));
                }
            }
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
    (succ, reach)
}

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

pub fn unintrusive(p: &Problem, mut st: PState) -> PState {
    let g = &p.graph;
    loop {
        let live = st.live();
        // Legal positive-weight edges (FINDCANDIDATE lines 1-6).
        let mut ew: Vec<(usize, usize)> = Vec::new();
        for (i, &a) in live.iter().enumerate() {
            for &b in &live[i + 1..] {
                if !st.fpu[a].intersects(st.block(b)) && p.weight(st.block(a), st.block(b)) > 0 && st.legal_merge(g, a, b) {
                    ew.push((a, b));
                }
            }
        }
        let mut deg = vec![0usize; st.n];
        for &(a, b) in &ew {
            deg[a] += 1;
            deg[b] += 1;
        }
        let (succ, reach) = closure(p, &st);
        let theta = |s: usize| -> BitSet {
            let mut t = st.fpu[s].clone();
            t.difference_with(st.block(s));
            t
        };
        let ok = |x: usize, y: usize| {
            if deg[x] != 1 {
                return false;
            }
            let nb = reduced_neighbours(&succ, &reach, &live, x);
            (nb.is_empty() || nb == [y]) && theta(x).is_subset(&theta(y))
        };
        let cand = ew.iter().find(|&&(a, b)| ok(a, b) || ok(b, a)).copied();
        match cand {
            Some((a, b)) => {
                st.merge(a, b);
            }
            None => return st,
        }
    }
}

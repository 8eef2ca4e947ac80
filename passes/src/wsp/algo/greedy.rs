//! Greedy merge (Fig. 7): repeatedly take the heaviest weight edge (Def. 15); merge over it when
//! Lemma 1 allows, otherwise drop it. Weights of edges incident to a merged vertex are
//! recomputed (MERGE, Def. 17). Ties break towards the lowest slot pair (region order).
//! Past the deadline it stops and returns the state reached, which is legal after every merge.
use super::{Deadline, PState, Problem};
use std::collections::BTreeMap;

/// Greedy from `state`. `comp`: optional component label per slot; only pairs within one
/// component are considered (used by the optimal search).
pub fn greedy(p: &Problem, mut st: PState, comp: Option<&[usize]>, deadline: Deadline) -> PState {
    let g = &p.graph;
    let same = |a: usize, b: usize| comp.is_none_or(|c| c[a] == c[b]);
    // E_w: positive-weight pairs that are not forbidden.
    let mut ew: BTreeMap<(usize, usize), i64> = BTreeMap::new();
    let live = st.live();
    for (x, &a) in live.iter().enumerate() {
        if deadline.passed() {
            return st;
        }
        for &b in &live[x + 1..] {
            if same(a, b) && !st.fpu[a].intersects(st.block(b)) {
                let w = p.weight(st.block(a), st.block(b));
                if w > 0 {
                    ew.insert((a, b), w);
                }
            }
        }
    }
    while let Some((&(a, b), _)) = ew.iter().max_by(|x, y| x.1.cmp(y.1).then(y.0.cmp(x.0))) {
        if deadline.passed() {
            break;
        }
        if st.legal_merge(g, a, b) {
            let z = st.merge(a, b);
            ew.retain(|&(x, y), _| x != a && x != b && y != a && y != b);
            for c in st.live() {
                if c != z && same(z, c) && !st.fpu[z].intersects(st.block(c)) {
                    let w = p.weight(st.block(z), st.block(c));
                    if w > 0 {
                        ew.insert((z.min(c), z.max(c)), w);
                    }
                }
            }
        } else {
            ew.remove(&(a, b));
        }
    }
    st
}

//! Linear merge (Sec. V-E, Fig. 13): walk the op list and add each op to the current block
//! unless that makes the block illegal; then it starts a new current block.
//!
//! Blocks are runs of consecutive ops and every dependency edge points forward in region order,
//! so no cycle can arise: only forbidden edges (Def. 5(1)) need checking.
use super::Problem;

pub fn linear(p: &Problem) -> Vec<Vec<usize>> {
    let mut out: Vec<Vec<usize>> = Vec::new();
    for i in 0..p.n() {
        match out.last_mut() {
            Some(cur) if cur.iter().all(|&j| !p.graph.fp[i].contains(j)) => cur.push(i),
            _ => out.push(vec![i]),
        }
    }
    out
}

//! The trivial partition `{{v1},...,{vn}}` (the bottom of Def. 3's lattice; Fig. 4, cost 94).
use super::Problem;

pub fn singleton(p: &Problem) -> Vec<Vec<usize>> {
    (0..p.n()).map(|i| vec![i]).collect()
}

//! View relations used by the dependency and fusibility analysis (Defs. 11-12):
//! [`relation`] classifies two views as disjoint, identical or (partially) overlapping.
//!
//! Exact when offsets/shapes/strides are constant after substituting the region's `bindings`
//! (element enumeration up to [`ENUM_LIMIT`] elements, interval reasoning beyond); conservative
//! (overlap assumed) when symbolic and not provably identical.
use super::region::View;
use super::sym::SymExpr;
use std::collections::{HashMap, HashSet};

/// Views with at most this many elements are compared by enumerating their element sets.
pub const ENUM_LIMIT: i64 = 1 << 14;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Relation {
    /// No common element (different bases, or provably disjoint).
    Disjoint,
    /// Same base, offset, shape and strides.
    Identical,
    /// Share (or may share) an element without being identical.
    Overlap,
}

fn concrete(v: &View, b: &HashMap<String, i64>) -> Option<(i64, Vec<i64>, Vec<i64>)> {
    let off = v.offset.eval(b)?;
    let sh: Option<Vec<i64>> = v.shape.iter().map(|s| s.eval(b)).collect();
    let st: Option<Vec<i64>> = v.strides.iter().map(|s| s.eval(b)).collect();
    Some((off, sh?, st?))
}

fn elems(off: i64, sh: &[i64], st: &[i64]) -> HashSet<i64> {
    let mut out = HashSet::new();
    let n: i64 = sh.iter().product();
    if n <= 0 {
        return out;
    }
    let mut idx = vec![0i64; sh.len()];
    loop {
        out.insert(off + idx.iter().zip(st).map(|(i, s)| i * s).sum::<i64>());
        let mut d = sh.len();
        loop {
            if d == 0 {
                return out;
            }
            d -= 1;
            idx[d] += 1;
            if idx[d] < sh[d] {
                break;
            }
            idx[d] = 0;
        }
    }
}

fn interval(off: i64, sh: &[i64], st: &[i64]) -> Option<(i64, i64)> {
    let mut lo = off;
    let mut hi = off;
    for (n, s) in sh.iter().zip(st) {
        if *n <= 0 {
            return None;
        }
        let ext = (n - 1) * s;
        if ext < 0 { lo += ext } else { hi += ext }
    }
    Some((lo, hi))
}

/// Symbolic identity: same base and equal offset/shape/strides after substitution.
pub fn identical(a: &View, b: &View, bindings: &HashMap<String, i64>) -> bool {
    if a.base != b.base || a.shape.len() != b.shape.len() {
        return false;
    }
    let eq = |x: &SymExpr, y: &SymExpr| x == y || x.substitute(bindings) == y.substitute(bindings);
    eq(&a.offset, &b.offset) && a.shape.iter().zip(&b.shape).all(|(x, y)| eq(x, y)) && a.strides.iter().zip(&b.strides).all(|(x, y)| eq(x, y))
}

/// Classify two views (Def. 11: "overlapping arrays ... point to some of the same elements").
pub fn relation(a: &View, b: &View, bindings: &HashMap<String, i64>) -> Relation {
    if a.base != b.base {
        return Relation::Disjoint;
    }
    if identical(a, b, bindings) {
        return Relation::Identical;
    }
    let (Some(ca), Some(cb)) = (concrete(a, bindings), concrete(b, bindings)) else {
        return Relation::Overlap; // conservative
    };
    let (Some(ia), Some(ib)) = (interval(ca.0, &ca.1, &ca.2), interval(cb.0, &cb.1, &cb.2)) else {
        return Relation::Disjoint; // an empty view touches nothing
    };
    if ia.1 < ib.0 || ib.1 < ia.0 {
        return Relation::Disjoint;
    }
    let na: i64 = ca.1.iter().product();
    let nb: i64 = cb.1.iter().product();
    if na <= ENUM_LIMIT && nb <= ENUM_LIMIT {
        let ea = elems(ca.0, &ca.1, &ca.2);
        let eb = elems(cb.0, &cb.1, &cb.2);
        if ea.is_disjoint(&eb) {
            return Relation::Disjoint;
        }
    }
    Relation::Overlap
}

/// Symbolic equality of two iteration spaces (after substituting `bindings`).
pub fn same_space(a: &[SymExpr], b: &[SymExpr], bindings: &HashMap<String, i64>) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x == y || x.substitute(bindings) == y.substitute(bindings))
}

//! Sign proofs of symbolic sizes: is a polynomial ([`SymExpr`]) non-negative for every value of
//! its symbols that satisfies some hypotheses? What [`super::view::relation`] needs to decide two
//! symbolic views disjoint for every size.
//!
//! The method is sound and simple, not complete: every atom (a symbol, or a ceiling division taken
//! as one unknown) gets a bound from the hypotheses that are affine in it alone (`c*x + d >= 0`:
//! a lower bound for `c > 0`, an upper one for `c < 0`; a ceiling division, whose canonical
//! numerator has non-negative coefficients, is at least its value at its symbols' lower bounds,
//! and its definition `d C - num` in `0..d` is tried as a joint hypothesis).
//! The goal is rewritten with `x = lo + t` (or `x = hi - t`), `t >= 0`, and expanded; it is proven
//! when every coefficient of the result is non-negative, since a sum of such monomials of
//! non-negative unknowns is. An atom with no bound in the goal fails the proof.
use super::sym::{Atom, SymExpr};
use std::collections::BTreeMap;

/// Bounds of the atoms implied by a list of hypotheses (`h >= 0` each).
#[derive(Clone, Debug, Default)]
pub struct Prover {
    /// The hypotheses of more than one atom, tried whole: `g >= 0` where `g - h >= 0` is proven.
    joint: Vec<SymExpr>,
    lower: BTreeMap<Atom, i64>,
    upper: BTreeMap<Atom, i64>,
    /// A hypothesis that is a negative constant: nothing satisfies them all, every goal holds.
    contradiction: bool,
}

/// What defines each ceiling division `C = ceil(num / d)` among `goal`'s atoms, as two facts
/// `d C - num >= 0` and `num + d - 1 - d C >= 0` (`num` is integer-valued), which
/// [`Prover::nonneg`] tries as joint hypotheses: `n + 2 - 2 ceil(n / 2) >= 0`, the last column of a
/// step-2 slice of a row of `n + 2`.
fn ceil_definitions(goal: &SymExpr) -> Vec<SymExpr> {
    let mut out = vec![];
    for a in goal.atoms() {
        if let Atom::Ceil(num, d) = &a {
            let dc = &SymExpr::atom(a.clone()) * &SymExpr::constant(*d);
            out.push(&dc - num);
            out.push(&(num.as_ref() + &SymExpr::constant(d - 1)) - &dc);
        }
    }
    out
}

/// `ceil(p / q)` and `floor(p / q)` for `q > 0`, in i128 so that no bound overflows.
fn ceil_div(p: i128, q: i128) -> i128 {
    -((-p).div_euclid(q))
}

impl Prover {
    /// The bounds that `hypotheses` (each `h >= 0`) imply for single atoms.
    pub fn new(hypotheses: &[SymExpr]) -> Prover {
        let mut p = Prover::default();
        for h in hypotheses {
            if let Some(c) = h.as_const() {
                p.contradiction |= c < 0;
                continue;
            }
            // Affine in one atom: c*x + d >= 0.
            let atoms = h.atoms();
            let [x] = atoms.as_slice() else {
                p.joint.push(h.clone());
                continue;
            };
            let (c, d) = (h.coefficient(&vec![x.clone()]), h.coefficient(&vec![]));
            if h.terms().count() != if d == 0 { 1 } else { 2 } || c == 0 {
                continue; // a power or product of x
            }
            let (c, d) = (c as i128, d as i128);
            if c > 0 {
                let lo = ceil_div(-d, c).clamp(i64::MIN as i128, i64::MAX as i128) as i64;
                let e = p.lower.entry(x.clone()).or_insert(lo);
                *e = (*e).max(lo);
            } else {
                let hi = (d).div_euclid(-c).clamp(i64::MIN as i128, i64::MAX as i128) as i64;
                let e = p.upper.entry(x.clone()).or_insert(hi);
                *e = (*e).min(hi);
            }
        }
        p
    }

    /// The lower bound the hypotheses give atom `x`, if any.
    pub fn lower_bound(&self, x: &Atom) -> Option<i64> {
        self.lower_of(x)
    }

    /// The lower bound of atom `x`: its own, or for a ceiling division the value at its symbols'
    /// lower bounds (a canonical numerator's coefficients are non-negative, so it is monotone).
    fn lower_of(&self, x: &Atom) -> Option<i64> {
        let own = self.lower.get(x).copied();
        let derived = match x {
            Atom::Sym(_) => None,
            Atom::Ceil(num, d) => {
                let mut ok = true;
                let at = num.map_atoms(&mut |a| match (a, self.lower.get(a)) {
                    (Atom::Sym(_), Some(&lo)) => Some(SymExpr::constant(lo)),
                    _ => {
                        ok = false;
                        None
                    }
                });
                let nonneg = num.terms().all(|(m, c)| m.is_empty() || c >= 0);
                match at.as_const() {
                    Some(v) if ok && nonneg => Some(ceil_div(v as i128, *d as i128) as i64),
                    _ => None,
                }
            }
        };
        match (own, derived) {
            (Some(a), Some(b)) => Some(a.max(b)),
            (a, b) => a.or(b),
        }
    }

    /// Is `goal >= 0` for every value of its atoms that satisfies the hypotheses? Proven from the
    /// atoms' bounds, or as a hypothesis of several atoms plus something proven so.
    pub fn nonneg(&self, goal: &SymExpr) -> bool {
        if self.contradiction {
            return true;
        }
        self.nonneg_by_bounds(goal)
            || self.joint.iter().chain(&ceil_definitions(goal)).any(|h| self.nonneg_by_bounds(&(goal - h)))
    }

    /// `goal >= 0` from the atoms' bounds alone.
    fn nonneg_by_bounds(&self, goal: &SymExpr) -> bool {
        if let Some(c) = goal.as_const() {
            return c >= 0;
        }
        let mut bounded = true;
        let atoms = goal.atoms();
        let shifted = goal.map_atoms(&mut |x| {
            // One unknown per atom, named by its place in `atoms` (no symbol starts with NUL).
            let t = SymExpr::sym(&format!("\u{0}t{}", atoms.binary_search(x).unwrap_or(0)));
            if let Some(lo) = self.lower_of(x) {
                Some(&SymExpr::constant(lo) + &t)
            } else if let Some(&hi) = self.upper.get(x) {
                Some(&SymExpr::constant(hi) - &t)
            } else {
                bounded = false;
                None
            }
        });
        bounded && shifted.terms().all(|(_, c)| c >= 0)
    }

    /// `nonneg` of every goal.
    pub fn all_nonneg<'a>(&self, goals: impl IntoIterator<Item = &'a SymExpr>) -> bool {
        goals.into_iter().all(|g| self.nonneg(g))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    /// Brute force: `goal >= 0` at every n, m in -12..=12 where every hypothesis holds.
    fn holds(goal: &SymExpr, hyps: &[SymExpr]) -> bool {
        (-12..=12).all(|n| {
            (-12..=12).all(|m| {
                let b = HashMap::from([("n".to_string(), n), ("m".to_string(), m)]);
                let v = |e: &SymExpr| e.eval(&b).unwrap();
                hyps.iter().any(|h| v(h) < 0) || v(goal) >= 0
            })
        })
    }

    #[test]
    fn proofs_hold_at_every_value_and_the_simple_ones_are_found() {
        let (n, m) = (SymExpr::sym("n"), SymExpr::sym("m"));
        let c = SymExpr::constant;
        let hyp_sets = [
            vec![],
            vec![&n + &c(1)],
            vec![&n - &c(3), &m + &c(2)],
            vec![&c(5) - &n, n.clone()],
            vec![&n - &c(1), (&n - &c(1)).ceil_div(2).unwrap() - c(1)],
            vec![&(&m - &n) - &c(2), &n + &c(1)],
        ];
        let mut goals = vec![];
        for a in -2..=2 {
            for b in -2..=2 {
                for k in -3..=3 {
                    goals.push(&(&(&n * &c(a)) + &(&m * &c(b))) + &c(k));
                    goals.push(&(&(&n * &n) * &c(a)) + &(&(&n * &c(b)) + &c(k)));
                    goals.push(&(n.ceil_div(2).unwrap() * c(a)) + &(&(&n * &c(b)) + &c(k)));
                }
            }
        }
        let mut proven = 0;
        for hyps in &hyp_sets {
            let p = Prover::new(hyps);
            for g in &goals {
                if p.nonneg(g) {
                    proven += 1;
                    assert!(holds(g, hyps), "{g} >= 0 under {hyps:?}");
                }
            }
        }
        assert!(proven > 200, "{proven}");
        // The cases views need: n + 2 is at least 1 for n >= -1; n^2 + 3n + 2 - (n^2 + 2n + n + 1) = 1.
        let p = Prover::new(&[&n + &c(1)]);
        assert!(p.nonneg(&(&n + &c(1))));
        assert!(p.nonneg(&(&(&n * &n) + &(&n * &c(2)))) == holds(&(&(&n * &n) + &(&n * &c(2))), &[&n + &c(1)]));
        assert!(!Prover::new(&[]).nonneg(&n));
        // A ceiling division's definition: 2 ceil(n / 2) is at most n + 1 (the last column of a
        // step-2 slice of a row of n + 2 is at most n + 1), not at most n.
        let half = n.ceil_div(2).unwrap();
        let last = &(&n + &c(2)) - &(&half * &c(2));
        assert!(Prover::new(&[]).nonneg(&last) && holds(&last, &[]));
        assert!(!Prover::new(&[]).nonneg(&(&last - &c(2))) && !holds(&(&last - &c(2)), &[]));
    }
}

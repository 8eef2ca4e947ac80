//! Symbolic sizes: [`SymExpr`], a polynomial over named symbols with `i64` coefficients.
//!
//! Sizes, offsets and strides of [`super::View`]s are `SymExpr`s counted in ELEMENTS. The
//! representation is normalised (monomials are sorted atom multisets, zero coefficients are
//! dropped), so structural equality is exact polynomial equality: `N-2 == N-2`, `N*M == M*N`.
//! An atom is a symbol or the ceiling division of a polynomial by a constant ([`Atom::Ceil`]: the
//! length of a step slice, `ceil(n/2)`), in the canonical form of
//! [`arrayc_core::shape::ceil_div_split`] that the checker's sizes share, so equal forms are
//! equal for every value of the symbols.
use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::ops::{Add, Mul, Neg, Sub};

/// The largest [`SymExpr::weight`] of a step slice's length that `wsp_fusion` keeps; a longer one
/// (a chain of step slices of step slices) makes the view opaque (overlapping everything on its
/// base: conservative), so that chains stay linear in time and memory.
pub const MAX_WEIGHT: usize = 64;

/// A factor of a monomial.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Atom {
    /// A named symbol (`n_0`, `dim(x_0,1)`).
    Sym(String),
    /// `ceil(num / d)`: `num`'s coefficients and constant in `0..d`, their gcd with `d` 1,
    /// `d >= 2` (built only by [`SymExpr::ceil_div`]).
    Ceil(Box<SymExpr>, i64),
}

/// A monomial: sorted list of atoms (with repetition for powers). `[]` is the constant 1.
pub type Monomial = Vec<Atom>;

/// Polynomial over named symbols, normalised: no zero coefficients, monomials kept sorted.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct SymExpr {
    terms: BTreeMap<Monomial, i64>,
}

impl SymExpr {
    /// The constant `c`.
    pub fn constant(c: i64) -> Self {
        let mut terms = BTreeMap::new();
        if c != 0 {
            terms.insert(Vec::new(), c);
        }
        SymExpr { terms }
    }
    /// The symbol `name`.
    pub fn sym(name: &str) -> Self {
        SymExpr::atom(Atom::Sym(name.to_string()))
    }
    /// The polynomial `a` (one atom, coefficient 1).
    pub fn atom(a: Atom) -> Self {
        let mut terms = BTreeMap::new();
        terms.insert(vec![a], 1);
        SymExpr { terms }
    }
    /// `ceil(self / k)` for a constant `k > 0`, canonical
    /// ([`arrayc_core::shape::ceil_div_split`], each monomial an integer-valued term): whole
    /// multiples of `k` leave the division. `None` for `k <= 0` or where a coefficient overflows.
    pub fn ceil_div(&self, k: i64) -> Option<SymExpr> {
        let mut monos: Vec<&Monomial> = vec![];
        let mut coeffs = vec![];
        let mut constant = 0;
        for (m, &c) in &self.terms {
            if m.is_empty() {
                constant = c;
            } else {
                monos.push(m);
                coeffs.push(c);
            }
        }
        let split = arrayc_core::shape::ceil_div_split(&coeffs, constant, k)?;
        let mut out = SymExpr::constant(split.constant);
        for (m, &q) in monos.iter().zip(&split.quotients) {
            out.add_term((*m).clone(), q);
        }
        if let Some((r, rc, d)) = split.residual {
            let mut num = SymExpr::constant(rc);
            for (m, ri) in monos.iter().zip(r) {
                num.add_term((*m).clone(), ri);
            }
            out.add_term(vec![Atom::Ceil(Box::new(num), d)], 1);
        }
        Some(out)
    }
    /// The number of coefficients and atoms, counted through ceiling divisions: what bounds the
    /// views `wsp_fusion` resolves exactly ([`MAX_WEIGHT`]).
    pub fn weight(&self) -> usize {
        let atom = |a: &Atom| match a {
            Atom::Sym(_) => 1,
            Atom::Ceil(num, _) => 1 + num.weight(),
        };
        self.terms.keys().map(|m| 1 + m.iter().map(atom).sum::<usize>()).sum()
    }
    /// `Some(c)` when the polynomial has no symbols.
    pub fn as_const(&self) -> Option<i64> {
        match self.terms.len() {
            0 => Some(0),
            1 => self.terms.get(&Vec::new()).copied(),
            _ => None,
        }
    }
    pub fn is_const(&self) -> bool {
        self.as_const().is_some()
    }
    /// Symbols occurring in the expression, inside ceiling divisions too (sorted, deduplicated).
    pub fn symbols(&self) -> Vec<String> {
        let mut s: Vec<String> = vec![];
        for a in self.terms.keys().flatten() {
            match a {
                Atom::Sym(n) => s.push(n.clone()),
                Atom::Ceil(num, _) => s.extend(num.symbols()),
            }
        }
        s.sort();
        s.dedup();
        s
    }
    /// Substitute the bound symbols; unbound symbols stay symbolic. A ceiling division whose
    /// numerator becomes constant becomes its value.
    pub fn substitute(&self, bindings: &HashMap<String, i64>) -> SymExpr {
        if bindings.is_empty() {
            return self.clone();
        }
        let mut out = SymExpr::default();
        for (mono, &c) in &self.terms {
            let mut coef = c;
            let mut rest = Vec::new();
            let mut factors = vec![];
            for a in mono {
                match a {
                    Atom::Sym(s) => match bindings.get(s) {
                        Some(&v) => coef = coef.wrapping_mul(v),
                        None => rest.push(a.clone()),
                    },
                    Atom::Ceil(num, d) => {
                        let num = num.substitute(bindings);
                        match num.ceil_div(*d) {
                            Some(e) => match e.as_const() {
                                Some(v) => coef = coef.wrapping_mul(v),
                                None => factors.push(e),
                            },
                            // Unreachable for a canonical divisor; keep the atom as it was.
                            None => rest.push(a.clone()),
                        }
                    }
                }
            }
            rest.sort();
            let mut term = SymExpr::default();
            term.add_term(rest, coef);
            out = out + factors.into_iter().fold(term, |t, e| &t * &e);
        }
        out
    }
    /// Concrete value under `bindings`, or `None` if a symbol is unbound.
    pub fn eval(&self, bindings: &HashMap<String, i64>) -> Option<i64> {
        self.substitute(bindings).as_const()
    }
    /// Concrete value where each unbound symbol takes `default`; the second component lists the
    /// symbols that were defaulted.
    pub fn eval_or_default(&self, bindings: &HashMap<String, i64>, default: i64) -> (i64, Vec<String>) {
        let sub = self.substitute(bindings);
        let missing = sub.symbols();
        let mut all = bindings.clone();
        for m in &missing {
            all.insert(m.clone(), default);
        }
        (sub.eval(&all).unwrap_or(0), missing)
    }
    /// The terms: each monomial (sorted atoms, `[]` for the constant) with its non-zero coefficient.
    pub fn terms(&self) -> impl Iterator<Item = (&Monomial, i64)> {
        self.terms.iter().map(|(m, &c)| (m, c))
    }
    /// The coefficient of `mono` (0 where it does not occur).
    pub fn coefficient(&self, mono: &Monomial) -> i64 {
        self.terms.get(mono).copied().unwrap_or(0)
    }
    /// The distinct atoms of the top-level monomials (a ceiling division counts as one atom; its
    /// numerator is not entered), sorted.
    pub fn atoms(&self) -> Vec<Atom> {
        let mut out: Vec<Atom> = self.terms.keys().flatten().cloned().collect();
        out.sort();
        out.dedup();
        out
    }
    /// The polynomial with every top-level atom `x` replaced by `f(x)` where that is `Some`
    /// (products expanded; a ceiling division is replaced whole, its numerator not entered).
    pub fn map_atoms(&self, f: &mut impl FnMut(&Atom) -> Option<SymExpr>) -> SymExpr {
        let mut out = SymExpr::default();
        for (mono, &c) in &self.terms {
            let mut term = SymExpr::constant(c);
            let mut rest = vec![];
            for a in mono {
                match f(a) {
                    Some(e) => term = &term * &e,
                    None => rest.push(a.clone()),
                }
            }
            let mut kept = SymExpr::default();
            kept.add_term(rest, 1);
            out = out + &term * &kept;
        }
        out
    }
    fn add_term(&mut self, mono: Monomial, c: i64) {
        if c == 0 {
            return;
        }
        let v = self.terms.get(&mono).copied().unwrap_or(0).wrapping_add(c);
        if v == 0 {
            self.terms.remove(&mono);
        } else {
            self.terms.insert(mono, v);
        }
    }
}

impl arrayc_core::shape::SymbolicSize for SymExpr {
    fn lit(c: i64) -> SymExpr {
        SymExpr::constant(c)
    }
    fn as_const(&self) -> Option<i64> {
        SymExpr::as_const(self)
    }
    fn plus(&self, o: &SymExpr) -> SymExpr {
        self + o
    }
    fn minus(&self, o: &SymExpr) -> SymExpr {
        self - o
    }
    fn ceil_div(&self, k: i64) -> Option<SymExpr> {
        SymExpr::ceil_div(self, k)
    }
    fn scale(&self, c: i64) -> SymExpr {
        self * &SymExpr::constant(c)
    }
}

impl From<i64> for SymExpr {
    fn from(c: i64) -> Self {
        SymExpr::constant(c)
    }
}
impl From<&str> for SymExpr {
    fn from(s: &str) -> Self {
        SymExpr::sym(s)
    }
}

impl Add for SymExpr {
    type Output = SymExpr;
    fn add(mut self, rhs: SymExpr) -> SymExpr {
        for (m, c) in rhs.terms {
            self.add_term(m, c);
        }
        self
    }
}
impl<'a> Add<&'a SymExpr> for &'a SymExpr {
    type Output = SymExpr;
    fn add(self, rhs: &SymExpr) -> SymExpr {
        self.clone() + rhs.clone()
    }
}
impl Neg for SymExpr {
    type Output = SymExpr;
    fn neg(mut self) -> SymExpr {
        for v in self.terms.values_mut() {
            *v = -*v;
        }
        self
    }
}
impl Sub for SymExpr {
    type Output = SymExpr;
    fn sub(self, rhs: SymExpr) -> SymExpr {
        self + (-rhs)
    }
}
impl<'a> Sub<&'a SymExpr> for &'a SymExpr {
    type Output = SymExpr;
    fn sub(self, rhs: &SymExpr) -> SymExpr {
        self.clone() - rhs.clone()
    }
}
impl Mul for SymExpr {
    type Output = SymExpr;
    fn mul(self, rhs: SymExpr) -> SymExpr {
        &self * &rhs
    }
}
impl<'a> Mul<&'a SymExpr> for &'a SymExpr {
    type Output = SymExpr;
    fn mul(self, rhs: &SymExpr) -> SymExpr {
        let mut out = SymExpr::default();
        for (m1, c1) in &self.terms {
            for (m2, c2) in &rhs.terms {
                let mut m: Monomial = m1.iter().chain(m2.iter()).cloned().collect();
                m.sort();
                out.add_term(m, c1.wrapping_mul(*c2));
            }
        }
        out
    }
}

impl fmt::Display for SymExpr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.terms.is_empty() {
            return write!(f, "0");
        }
        // Highest-degree monomials first, constant last.
        let mut terms: Vec<(&Monomial, &i64)> = self.terms.iter().collect();
        terms.sort_by(|a, b| b.0.len().cmp(&a.0.len()).then(a.0.cmp(b.0)));
        for (i, (m, &c)) in terms.into_iter().enumerate() {
            let (sign, mag) = if c < 0 { ("-", c.unsigned_abs()) } else { ("+", c as u64) };
            if i == 0 {
                if c < 0 {
                    write!(f, "-")?;
                }
            } else {
                write!(f, " {sign} ")?;
            }
            if m.is_empty() {
                write!(f, "{mag}")?;
            } else {
                if mag != 1 {
                    write!(f, "{mag}*")?;
                }
                for (k, a) in m.iter().enumerate() {
                    if k > 0 {
                        write!(f, "*")?;
                    }
                    match a {
                        Atom::Sym(s) => write!(f, "{s}")?,
                        Atom::Ceil(num, d) => write!(f, "ceil(({num})/{d})")?,
                    }
                }
            }
        }
        Ok(())
    }
}
impl fmt::Debug for SymExpr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arrayc_core::shape::{slice_indices, symbolic_slice, SymbolicSize};

    fn at(e: &SymExpr, n: i64, m: i64) -> i64 {
        e.eval(&HashMap::from([("n".to_string(), n), ("m".to_string(), m)])).expect("every symbol bound")
    }

    #[test]
    fn ceiling_and_floor_divisions_of_polynomials_equal_brute_force() {
        // Numerators a*n + b*n*m + c (a product of symbols is one integer-valued term).
        let (n, m) = (SymExpr::sym("n"), SymExpr::sym("m"));
        for k in 1..=5 {
            for a in -3..=3 {
                for b in -2..=2 {
                    for c in -5..=5 {
                        let x = &(&n * &SymExpr::constant(a)) + &(&(&n * &m) * &SymExpr::constant(b));
                        let x = x + SymExpr::constant(c);
                        let cd = x.ceil_div(k).unwrap();
                        let fd = SymbolicSize::floor_div(&x, -k).unwrap();
                        for nv in -9..=9 {
                            for mv in -4..=4 {
                                let v = a * nv + b * nv * mv + c;
                                assert_eq!(at(&cd, nv, mv), -((-v).div_euclid(k)), "ceil(({x})/{k})");
                                assert_eq!(at(&fd, nv, mv), (v as f64 / -k as f64).floor() as i64, "({x}) // -{k}");
                                // Partial substitution keeps the value.
                                let half = cd.substitute(&HashMap::from([("n".to_string(), nv)]));
                                assert_eq!(at(&half, nv, mv), at(&cd, nv, mv), "{cd} at n={nv}: {half}");
                            }
                        }
                    }
                }
            }
        }
        assert_eq!((&n + &SymExpr::constant(2 - 1 - 1)).ceil_div(2), n.ceil_div(2));
        assert_eq!((&n * &SymExpr::constant(2)).ceil_div(2), Some(n.clone()));
        assert_eq!(n.ceil_div(2).unwrap().symbols(), vec!["n".to_string()]);
        assert_eq!(n.ceil_div(2).unwrap().to_string(), "ceil((n)/2)");
    }

    #[test]
    fn step_slices_of_a_symbolic_axis_equal_python_and_compare_exactly() {
        // Every slice of an axis of n + 2 with bounds in -2..=2 or n-1..=n+1 and steps -3..=3.
        let n = SymExpr::sym("n");
        let dim = &n + &SymExpr::constant(2);
        let bounds: Vec<Option<SymExpr>> = std::iter::once(None)
            .chain((-2..=2).map(|c| Some(SymExpr::constant(c))))
            .chain((-1..=1).map(|c| Some(&n + &SymExpr::constant(c))))
            .collect();
        let mut lens = vec![];
        for a in &bounds {
            for b in &bounds {
                for step in (-3..=3i64).filter(|&s| s != 0) {
                    let (first, len) = symbolic_slice(&dim, a.clone(), b.clone(), step).unwrap();
                    for nv in 3..30 {
                        let v = |x: &Option<SymExpr>| x.as_ref().map(|e| at(e, nv, 0));
                        let (pf, plen) = slice_indices(nv + 2, v(a), v(b), step);
                        assert_eq!(at(&len, nv, 0).max(0), plen, "[{a:?}:{b:?}:{step}] at n={nv}");
                        if plen > 0 {
                            assert_eq!(at(&first, nv, 0), pf);
                        }
                    }
                    lens.push(len);
                }
            }
        }
        // Structurally equal lengths are equal at every n.
        let mut pairs = 0;
        for (i, x) in lens.iter().enumerate() {
            for y in &lens[i + 1..] {
                if x == y && !x.is_const() {
                    pairs += 1;
                    assert!((3..30).all(|nv| at(x, nv, 0) == at(y, nv, 0)));
                }
            }
        }
        assert!(pairs > 100, "{pairs}");
    }
}

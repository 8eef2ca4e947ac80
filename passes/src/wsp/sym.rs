//! Symbolic sizes: [`SymExpr`], a polynomial over named symbols with `i64` coefficients.
//!
//! Sizes, offsets and strides of [`super::View`]s are `SymExpr`s counted in ELEMENTS. The
//! representation is normalised (monomials are sorted symbol multisets, zero coefficients are
//! dropped), so structural equality is exact polynomial equality: `N-2 == N-2`, `N*M == M*N`.
use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::ops::{Add, Mul, Neg, Sub};

/// A monomial: sorted list of symbol names (with repetition for powers). `[]` is the constant 1.
pub type Monomial = Vec<String>;

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
        let mut terms = BTreeMap::new();
        terms.insert(vec![name.to_string()], 1);
        SymExpr { terms }
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
    /// Symbols occurring in the expression (sorted, deduplicated).
    pub fn symbols(&self) -> Vec<String> {
        let mut s: Vec<String> = self.terms.keys().flatten().cloned().collect();
        s.sort();
        s.dedup();
        s
    }
    /// Substitute the bound symbols; unbound symbols stay symbolic.
    pub fn substitute(&self, bindings: &HashMap<String, i64>) -> SymExpr {
        let mut out = SymExpr::default();
        for (mono, &c) in &self.terms {
            let mut coef = c;
            let mut rest = Vec::new();
            for s in mono {
                match bindings.get(s) {
                    Some(&v) => coef = coef.wrapping_mul(v),
                    None => rest.push(s.clone()),
                }
            }
            out.add_term(rest, coef);
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
                write!(f, "{}", m.join("*"))?;
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

//! Checked types: element type plus a symbolic shape.
//!
//! Sizes are affine expressions over size symbols (`N`, `M`, fresh unknowns), in the spirit of
//! Robinson et al. 2014, Sec. 3 (size inference): `N-2` equals `N-2`, `N-1` and `N` provably differ,
//! and sizes that cannot be decided are checked at run time by the lowering.

use crate::ast::DType;
use std::collections::BTreeMap;
use std::fmt;

/// A size symbol: a named size from a signature (`N`), an immutable `i64` parameter, or a fresh
/// unknown (`?3`) standing for a size only known at run time; or the ceiling division of a size by
/// a constant, which step slices (`x[1:-1:2]`: `ceil(n/2)` of an `n+2` axis) and `//` make.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SizeSym {
    Named(String),
    Unknown(u32),
    /// `ceil(num / d)`, in the canonical form of [`arrayc_core::shape::ceil_div_split`] (`num`'s
    /// coefficients and constant in `0..d`, their gcd with `d` 1, `d >= 2`), built only by
    /// [`Size::ceil_div`]: two of them are equal exactly when their numerators and divisors are,
    /// and then they are equal for every value of the symbols.
    Ceil(Box<Size>, i64),
    /// NumPy's broadcast of these sizes, which only the run time can decide (`ceil(n/2)` against
    /// `ceil((n-1)/2)`): once the run-time broadcast has succeeded, every size in the set that is
    /// not 1 has one value, and this is it (1 if there is none). Built only by [`Size::broadcast`]:
    /// at least two sizes, sorted, without repeats, none the literal 1 or itself such a set (the
    /// broadcast of broadcasts is one set: it is associative, commutative and idempotent), so two
    /// results of broadcasting the same sizes in any order and grouping are one size.
    Bcast(Vec<Size>),
}

/// The largest [`Size::weight`] the checker builds with ceiling divisions and broadcast sets; a
/// larger one becomes a fresh unknown (checked at run time, as any unknown), so that long chains
/// of slices and broadcasts (each nesting the previous size) stay linear in time and memory.
pub const MAX_SIZE_WEIGHT: usize = 64;

/// An affine size expression `c + sum(k_i * s_i)` in elements (a `s_i` may be a [`SizeSym::Ceil`]
/// of another size).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Size {
    pub constant: i64,
    pub terms: BTreeMap<SizeSym, i64>,
}

impl Size {
    pub fn lit(c: i64) -> Size {
        Size { constant: c, terms: BTreeMap::new() }
    }
    pub fn sym(s: SizeSym) -> Size {
        let mut terms = BTreeMap::new();
        terms.insert(s, 1);
        Size { constant: 0, terms }
    }
    /// The value if the size is a known constant.
    pub fn as_const(&self) -> Option<i64> {
        self.terms.is_empty().then_some(self.constant)
    }
    pub fn add(&self, o: &Size) -> Size {
        let mut r = self.clone();
        r.constant = r.constant.wrapping_add(o.constant);
        for (s, k) in &o.terms {
            let e = r.terms.entry(s.clone()).or_insert(0);
            *e = e.wrapping_add(*k);
        }
        r.terms.retain(|_, k| *k != 0);
        r
    }
    pub fn neg(&self) -> Size {
        Size {
            constant: self.constant.wrapping_neg(),
            terms: self.terms.iter().map(|(s, k)| (s.clone(), k.wrapping_neg())).collect(),
        }
    }
    pub fn sub(&self, o: &Size) -> Size {
        self.add(&o.neg())
    }
    /// Product, defined when one side is constant (affine sizes only); `None` otherwise.
    pub fn mul(&self, o: &Size) -> Option<Size> {
        let (c, e) = match (self.as_const(), o.as_const()) {
            (Some(c), _) => (c, o),
            (_, Some(c)) => (c, self),
            _ => return None,
        };
        let mut r = Size {
            constant: e.constant.wrapping_mul(c),
            terms: e.terms.iter().map(|(s, k)| (s.clone(), k.wrapping_mul(c))).collect(),
        };
        r.terms.retain(|_, k| *k != 0);
        Some(r)
    }
    /// `ceil(self / k)` for a constant `k > 0`, canonical ([`arrayc_core::shape::ceil_div_split`]:
    /// whole multiples of `k` leave the division, so `ceil((2n-1)/2)` is `n` and `ceil((n+2-2)/2)`
    /// is `ceil(n/2)`); `None` for `k <= 0` or where a coefficient overflows.
    pub fn ceil_div(&self, k: i64) -> Option<Size> {
        let syms: Vec<&SizeSym> = self.terms.keys().collect();
        let coeffs: Vec<i64> = self.terms.values().copied().collect();
        let split = arrayc_core::shape::ceil_div_split(&coeffs, self.constant, k)?;
        let mut out = Size::lit(split.constant);
        for (s, q) in syms.iter().zip(&split.quotients) {
            out = out.add(&Size::sym((*s).clone()).mul(&Size::lit(*q))?);
        }
        if let Some((r, rc, d)) = split.residual {
            let mut num = Size::lit(rc);
            num.terms = syms.iter().zip(r).filter(|(_, ri)| *ri != 0).map(|(s, ri)| ((*s).clone(), ri)).collect();
            out = out.add(&Size::sym(SizeSym::Ceil(Box::new(num), d)));
        }
        Some(out)
    }
    /// NumPy's `self // k` for a constant `k != 0` ([`arrayc_core::shape::SymbolicSize::floor_div`]).
    pub fn floor_div(&self, k: i64) -> Option<Size> {
        arrayc_core::shape::SymbolicSize::floor_div(self, k)
    }
    /// NumPy's `self % k` for a constant `k != 0` ([`arrayc_core::shape::SymbolicSize::rem`]).
    pub fn rem(&self, k: i64) -> Option<Size> {
        arrayc_core::shape::SymbolicSize::rem(self, k)
    }
    /// The size of NumPy's broadcast of two sizes that are not provably equal, neither the
    /// literal 1 ([`SizeSym::Bcast`]; the run time checks that they broadcast): the set of both
    /// (a set's members taken in), without 1s and repeats; a single remaining size is itself.
    pub fn broadcast(a: &Size, b: &Size) -> Size {
        let mut members = vec![];
        for s in [a, b] {
            match s.terms.iter().next() {
                Some((SizeSym::Bcast(m), 1)) if s.terms.len() == 1 && s.constant == 0 => {
                    members.extend(m.iter().cloned())
                }
                _ => members.push(s.clone()),
            }
        }
        members.retain(|s| s.as_const() != Some(1));
        members.sort();
        members.dedup();
        match members.len() {
            0 => Size::lit(1),
            1 => members.swap_remove(0),
            _ => Size::sym(SizeSym::Bcast(members)),
        }
    }
    /// The number of symbols and constants in the size, counted through ceiling divisions and
    /// broadcast sets: what [`MAX_SIZE_WEIGHT`] bounds.
    pub fn weight(&self) -> usize {
        1 + self.terms.keys().map(|s| 1 + Size::inner(s).iter().map(Size::weight).sum::<usize>()).sum::<usize>()
    }
    /// The sizes inside a ceiling division or a broadcast set.
    fn inner(s: &SizeSym) -> &[Size] {
        match s {
            SizeSym::Ceil(num, _) => std::slice::from_ref(num),
            SizeSym::Bcast(m) => m,
            SizeSym::Named(_) | SizeSym::Unknown(_) => &[],
        }
    }
    /// Whether a fresh unknown (`?3`) occurs in the size, inside a ceiling division or a broadcast
    /// set too.
    pub fn has_unknown(&self) -> bool {
        self.terms.keys().any(|s| matches!(s, SizeSym::Unknown(_)) || Size::inner(s).iter().any(Size::has_unknown))
    }
    /// Whether the size is affine in named symbols and unknowns only (no ceiling division or
    /// broadcast set), so that it can be written as a dimension of a declared type.
    pub fn is_affine(&self) -> bool {
        !self.terms.keys().any(|s| matches!(s, SizeSym::Ceil(..) | SizeSym::Bcast(_)))
    }
    /// The named symbols of the size, inside ceiling divisions and broadcast sets too.
    pub fn named_symbols(&self) -> Vec<String> {
        let mut out = vec![];
        for s in self.terms.keys() {
            if let SizeSym::Named(n) = s {
                out.push(n.clone());
            }
            out.extend(Size::inner(s).iter().flat_map(Size::named_symbols));
        }
        out
    }
    /// `Some(true)` if provably equal, `Some(false)` if provably different, `None` if unknown.
    /// Two affine expressions differ provably only when their difference is a non-zero constant.
    pub fn provably_eq(&self, o: &Size) -> Option<bool> {
        let d = self.sub(o);
        match d.as_const() {
            Some(0) => Some(true),
            Some(_) => Some(false),
            None => None,
        }
    }
}

impl arrayc_core::shape::SymbolicSize for Size {
    fn lit(c: i64) -> Size {
        Size::lit(c)
    }
    fn as_const(&self) -> Option<i64> {
        Size::as_const(self)
    }
    fn plus(&self, o: &Size) -> Size {
        self.add(o)
    }
    fn minus(&self, o: &Size) -> Size {
        self.sub(o)
    }
    fn ceil_div(&self, k: i64) -> Option<Size> {
        Size::ceil_div(self, k)
    }
    fn scale(&self, c: i64) -> Size {
        let terms = self.terms.iter().map(|(s, k)| (s.clone(), k.wrapping_mul(c))).filter(|(_, k)| *k != 0);
        Size { constant: self.constant.wrapping_mul(c), terms: terms.collect() }
    }
}

/// The size symbol of axis `axis` of a rank-generic parameter `param` in one instance of its
/// function: `x.shape.1`, which no program can write (it contains dots, as the parser's own
/// names do: [`crate::syntax::is_synthesized`]) and which is a valid MLIR value name. Shown as
/// `x.shape[1]`.
pub fn shape_symbol(param: &str, axis: usize) -> String {
    format!("{param}.shape.{axis}")
}

/// How a size symbol is shown: `x.shape[1]` for [`shape_symbol`]'s, else the name.
pub fn shape_symbol_text(name: &str) -> String {
    if let Some((param, axis)) = name.rsplit_once(".shape.") {
        if !axis.is_empty() && axis.bytes().all(|b| b.is_ascii_digit()) {
            return format!("{param}.shape[{axis}]");
        }
    }
    name.to_string()
}

impl fmt::Display for Size {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut first = true;
        for (s, k) in &self.terms {
            let name = match s {
                SizeSym::Named(n) => shape_symbol_text(n),
                SizeSym::Unknown(i) => format!("?{i}"),
                SizeSym::Ceil(num, d) if num.constant == 0 && num.terms.len() == 1 => format!("ceil({num}/{d})"),
                SizeSym::Ceil(num, d) => format!("ceil(({num})/{d})"),
                SizeSym::Bcast(m) => {
                    format!("broadcast({})", m.iter().map(|s| s.to_string()).collect::<Vec<_>>().join(", "))
                }
            };
            let (sign, mag) = if *k < 0 { ("-", k.unsigned_abs()) } else { ("+", k.unsigned_abs()) };
            if first {
                if sign == "-" {
                    write!(f, "-")?;
                }
            } else {
                write!(f, "{sign}")?;
            }
            if mag == 1 {
                write!(f, "{name}")?;
            } else {
                write!(f, "{mag}*{name}")?;
            }
            first = false;
        }
        if first {
            write!(f, "{}", self.constant)
        } else if self.constant > 0 {
            write!(f, "+{}", self.constant)
        } else if self.constant < 0 {
            write!(f, "{}", self.constant)
        } else {
            Ok(())
        }
    }
}

/// The checked type of an expression or variable.
#[derive(Clone, Debug, PartialEq)]
pub enum Ty {
    Scalar(DType),
    /// An n-d array (rank = `shape.len()`, may be 0) with a symbolic shape in elements.
    Array(DType, Vec<Size>),
    /// Result of a call with several results, only valid on the right of `let (a, b) = ...`.
    Tuple(Vec<Ty>),
    /// Expressions with no value (calls of functions without results).
    Unit,
    /// `f64[...]`, an array of any rank: the type of a rank-generic parameter (or inferred result)
    /// in the signature of the generic function itself. Its instances have concrete types
    /// (`docs/language.md`, "Rank-generic functions"); no expression has this type.
    AnyRank(DType),
    /// Produced after an error so checking can go on without cascading diagnostics.
    Error,
}

impl Ty {
    pub fn dtype(&self) -> Option<DType> {
        match self {
            Ty::Scalar(d) | Ty::Array(d, _) | Ty::AnyRank(d) => Some(*d),
            _ => None,
        }
    }
    pub fn rank(&self) -> Option<usize> {
        match self {
            Ty::Array(_, s) => Some(s.len()),
            Ty::Scalar(_) => Some(0),
            _ => None,
        }
    }
    pub fn is_array(&self) -> bool {
        matches!(self, Ty::Array(..))
    }
    /// The shape of an array type (`None` for anything else).
    pub fn shape(&self) -> Option<&[Size]> {
        match self {
            Ty::Array(_, s) => Some(s),
            _ => None,
        }
    }
}

impl fmt::Display for Ty {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ty::Scalar(d) => write!(f, "{}", d.name()),
            Ty::Array(d, shape) => {
                write!(f, "{}[", d.name())?;
                for (i, s) in shape.iter().enumerate() {
                    if i > 0 {
                        write!(f, ", ")?;
                    }
                    write!(f, "{s}")?;
                }
                write!(f, "]")
            }
            Ty::Tuple(ts) => {
                write!(f, "(")?;
                for (i, t) in ts.iter().enumerate() {
                    if i > 0 {
                        write!(f, ", ")?;
                    }
                    write!(f, "{t}")?;
                }
                write!(f, ")")
            }
            Ty::AnyRank(d) => write!(f, "{}[...]", d.name()),
            Ty::Unit => write!(f, "()"),
            Ty::Error => write!(f, "<error>"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::sig::subst;
    use arrayc_core::shape::{slice_indices, symbolic_slice};
    use std::collections::HashMap;

    fn n() -> Size {
        Size::sym(SizeSym::Named("n".into()))
    }
    fn m() -> Size {
        Size::sym(SizeSym::Named("m".into()))
    }
    /// The value of `s` at `n`, `m` (every symbol bound, so a constant).
    fn at(s: &Size, nv: i64, mv: i64) -> i64 {
        let b = HashMap::from([("n".to_string(), Size::lit(nv)), ("m".to_string(), Size::lit(mv))]);
        subst(s, &b).and_then(|v| v.as_const()).expect("every symbol bound")
    }

    #[test]
    fn ceil_floor_and_rem_by_constants_equal_numpy_for_every_value() {
        for k in (-5..=5i64).filter(|&k| k != 0) {
            for a in -3..=3 {
                for b in -2..=2 {
                    for c in -6..=6 {
                        let x =
                            n().mul(&Size::lit(a)).unwrap().add(&m().mul(&Size::lit(b)).unwrap()).add(&Size::lit(c));
                        let fd = x.floor_div(k).unwrap();
                        let rm = x.rem(k).unwrap();
                        let cd = (k > 0).then(|| x.ceil_div(k).unwrap());
                        for nv in -12..=12 {
                            for mv in -5..=5 {
                                let v = a * nv + b * mv + c;
                                // NumPy's floor_divide and remainder of integers.
                                assert_eq!(
                                    at(&fd, nv, mv),
                                    v.div_euclid(k) - ((v.rem_euclid(k) != 0 && k < 0) as i64),
                                    "({x}) // {k}"
                                );
                                assert_eq!(at(&rm, nv, mv), v - k * at(&fd, nv, mv), "({x}) % {k}");
                                assert!(at(&rm, nv, mv) == 0 || (at(&rm, nv, mv) < 0) == (k < 0));
                                if let Some(cd) = &cd {
                                    assert_eq!(at(cd, nv, mv), -((-v).div_euclid(k)), "ceil(({x}) / {k})");
                                }
                            }
                        }
                    }
                }
            }
        }
        // Canonical forms: one size for one value.
        assert_eq!(n().add(&Size::lit(2 - 1 - 1)).ceil_div(2), n().ceil_div(2));
        assert_eq!(n().mul(&Size::lit(2)).unwrap().sub(&Size::lit(1)).ceil_div(2), Some(n()));
        assert_eq!(n().floor_div(2).unwrap().to_string(), "ceil((n+1)/2)-1");
        assert_eq!(n().ceil_div(0), None);
    }

    /// NumPy's broadcast of concrete sizes: `None` where they do not broadcast.
    fn np_broadcast(sizes: &[i64]) -> Option<i64> {
        let big: Vec<i64> = sizes.iter().copied().filter(|&s| s != 1).collect();
        match big.first() {
            None => Some(1),
            Some(&b) => big.iter().all(|&s| s == b).then_some(b),
        }
    }

    #[test]
    fn broadcast_sets_are_one_size_for_any_order_and_equal_numpy_where_it_broadcasts() {
        // Sizes ceil(n/2), ceil((n-1)/2), n, n-1 and 1, broadcast in every order and grouping of
        // up to 3: equal sets are equal sizes, and at every n where NumPy broadcasts the sizes, the
        // set's value (through substitution) is NumPy's.
        let c1 = n().ceil_div(2).unwrap();
        let c2 = n().sub(&Size::lit(1)).ceil_div(2).unwrap();
        let pool = [c1.clone(), c2.clone(), n(), n().sub(&Size::lit(1)), Size::lit(1), m()];
        let value = |s: &Size, nv: i64, mv: i64| -> Option<i64> {
            // A set's value: NumPy's broadcast of its members' values.
            match s.terms.iter().next() {
                Some((SizeSym::Bcast(ms), 1)) if s.terms.len() == 1 && s.constant == 0 => {
                    np_broadcast(&ms.iter().map(|x| at(x, nv, mv)).collect::<Vec<_>>())
                }
                _ => Some(at(s, nv, mv)),
            }
        };
        let mut checked = 0;
        for a in &pool {
            for b in &pool {
                for c in &pool {
                    let left = Size::broadcast(&Size::broadcast(a, b), c);
                    let right = Size::broadcast(a, &Size::broadcast(c, b));
                    assert_eq!(left, right, "({a} {b}) {c}");
                    assert_eq!(Size::broadcast(&left, a), left, "idempotent");
                    for nv in 0..12 {
                        for mv in 0..4 {
                            let want = np_broadcast(&[at(a, nv, mv), at(b, nv, mv), at(c, nv, mv)]);
                            if let Some(w) = want {
                                assert_eq!(value(&left, nv, mv), Some(w), "{left} at n={nv}, m={mv}");
                                // Substituting the symbols gives the same value.
                                let b =
                                    HashMap::from([("n".to_string(), Size::lit(nv)), ("m".to_string(), Size::lit(mv))]);
                                assert_eq!(subst(&left, &b).and_then(|v| v.as_const()), Some(w));
                                checked += 1;
                            }
                        }
                    }
                }
            }
        }
        assert!(checked > 1000);
        assert_eq!(Size::broadcast(&c1, &Size::lit(1)), c1);
        assert_eq!(Size::broadcast(&c1, &c2).to_string(), "broadcast(ceil((n+1)/2)-1, ceil(n/2))");
        assert!(!Size::broadcast(&c1, &c2).is_affine());
    }

    #[test]
    fn slice_sizes_equal_python_and_equality_claims_hold_for_every_n() {
        // Slices of an axis of n + 2 with constant and symbolic bounds and steps -3..=3.
        let dim = n().add(&Size::lit(2));
        let bounds: Vec<Option<Size>> = std::iter::once(None)
            .chain((-3..=3).map(|c| Some(Size::lit(c))))
            .chain((-1..=1).map(|c| Some(n().add(&Size::lit(c)))))
            .collect();
        let mut slices = vec![];
        for start in &bounds {
            for stop in &bounds {
                for step in (-3..=3i64).filter(|&s| s != 0) {
                    let (_, len) = symbolic_slice(&dim, start.clone(), stop.clone(), step).unwrap();
                    slices.push((start.clone(), stop.clone(), step, len));
                }
            }
        }
        // The values of n where every bound of both slices lies in the axis (what the sizes assume):
        // n >= 4 here (constants -3..=3, n-1..=n+1 within 0..=n+2).
        let ns = 4..40i64;
        for (start, stop, step, len) in &slices {
            for nv in ns.clone() {
                let b = |x: &Option<Size>| x.as_ref().map(|s| at(s, nv, 0));
                let (_, want) = slice_indices(nv + 2, b(start), b(stop), *step);
                assert_eq!(at(len, nv, 0).max(0), want, "[{start:?}:{stop:?}:{step}] at n={nv}: {len}");
            }
        }
        // Every equality the sizes claim holds at every n, every difference too.
        let (mut equal, mut differ) = (0, 0);
        for (i, x) in slices.iter().enumerate() {
            for y in &slices[i + 1..] {
                match x.3.provably_eq(&y.3) {
                    Some(true) => {
                        equal += 1;
                        assert!(ns.clone().all(|nv| at(&x.3, nv, 0) == at(&y.3, nv, 0)), "{} == {}", x.3, y.3);
                    }
                    Some(false) => {
                        differ += 1;
                        assert!(ns.clone().all(|nv| at(&x.3, nv, 0) != at(&y.3, nv, 0)), "{} != {}", x.3, y.3);
                    }
                    None => {}
                }
            }
        }
        assert!(equal > 100 && differ > 100, "{equal} {differ}");
        // sor: rows 1, 3, .. (`1:-1:2`) and 0, 2, .. (`:-2:2`) of n + 2 have one size; rows 2, 4, ..
        // (`2:-1:2`) another, equal only at even n.
        let len =
            |a: Option<i64>, b: Option<i64>| symbolic_slice(&dim, a.map(Size::lit), b.map(Size::lit), 2).unwrap().1;
        assert_eq!(len(Some(1), Some(-1)).provably_eq(&len(None, Some(-2))), Some(true));
        assert_eq!(len(Some(1), Some(-1)).provably_eq(&len(Some(2), Some(-1))), None);
        assert_eq!(len(Some(1), Some(-1)).to_string(), "ceil(n/2)");
    }
}

//! Checked types: element type plus a symbolic shape.
//!
//! Sizes are affine expressions over size symbols (`N`, `M`, fresh unknowns), in the spirit of
//! Robinson et al. 2014, Sec. 3 (size inference): `N-2` equals `N-2`, `N-1` and `N` provably differ,
//! and sizes that cannot be decided are checked at run time by the lowering.

use crate::ast::DType;
use std::collections::BTreeMap;
use std::fmt;

/// A size symbol: a named size from a signature (`N`), an immutable `i64` parameter, or a fresh
/// unknown (`?3`) standing for a size only known at run time.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SizeSym {
    Named(String),
    Unknown(u32),
}

/// An affine size expression `c + sum(k_i * s_i)` in elements.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
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

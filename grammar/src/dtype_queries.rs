//! NumPy's questions about dtypes (issue 31), answered at compile time: every dtype of an arrayc
//! program is known when it is compiled, so `np.issubdtype(x.dtype, np.floating)`,
//! `x.dtype.kind == 'f'`, `np.can_cast(x.dtype, np.int64)`, `np.finfo(x.dtype).eps` and the
//! others are constants of the instance being compiled.
//!
//! The parser writes each question as a call of an internal builtin no program can name
//! ([`REL`]: a `bool`, [`LIMIT`]: a number), whose operands are *dtype operands*: a type name
//! (`np.float32`, Python's `float`), `x.dtype`, a string naming a dtype (`'float32'`), one of
//! NumPy's abstract classes (`np.floating`, `np.integer`, ...), `np.result_type(..)`,
//! `np.promote_types(a, b)`, `np.dtype(..)`, or an array or scalar (`np.result_type(x, y)`,
//! `np.can_cast(x, np.float64)`: its dtype). The checker and the lowering both evaluate them
//! with [`relation`], [`limit`] and [`dtype_of`] (one rule, given the types of the values), and
//! an `if` (or `a if c else b`) whose condition is such a question is decided at compile time
//! ([`static_truth`]): only the branch taken is checked and compiled, as NumPy only runs that one
//! (`if np.issubdtype(x.dtype, np.integer): .. np.iinfo(x.dtype).max ..` of a float `x`).
//!
//! NumPy's errors are errors here: a string that names no dtype arrayc has (NumPy's
//! `TypeError: data type 'float99' not understood`), an unknown `casting=`, E0323;
//! `np.finfo` of a dtype that is not a float, `np.iinfo` of one that is not an integer (NumPy's
//! `ValueError`), E0324.

use crate::ast::{BinOp, BoolOp, Expr, ExprKind, Ident, Span};
use crate::diag::Diagnostic;
use crate::syntax::{bool_op, mk};
use arrayc_core::dtype::DType;
use std::cell::Cell;

/// The call of the builtin of a `bool` question about dtypes (`Builtin::DTypeRel`, its three
/// arguments `a, b, "relation"` only the parser writes; [`relation`]).
pub const REL: &str = "np.issubdtype";
/// The call of the builtin of a number NumPy reads off a dtype (`Builtin::DTypeLimit`,
/// `np.finfo(a, "finfo.eps")` as the parser writes `np.finfo(a).eps`; [`limit`]).
pub const LIMIT: &str = "np.finfo";
/// The attribute `x.dtype.kind`, which only a comparison with a string makes something of.
const KIND: &str = ".dtype.kind";

/// NumPy's abstract scalar types, the classes `np.issubdtype` tests against.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    Generic,
    Number,
    Integer,
    SignedInteger,
    UnsignedInteger,
    Inexact,
    Floating,
    ComplexFloating,
}

impl Class {
    /// The class NumPy names `name` (`np.floating` is the name `floating` once `np.` is read).
    fn named(name: &str) -> Option<Class> {
        Some(match name {
            "generic" => Class::Generic,
            "number" => Class::Number,
            "integer" => Class::Integer,
            "signedinteger" => Class::SignedInteger,
            "unsignedinteger" => Class::UnsignedInteger,
            "inexact" => Class::Inexact,
            "floating" => Class::Floating,
            "complexfloating" | "complex" | "complex128" | "complex64" => Class::ComplexFloating,
            _ => return None,
        })
    }

    /// Whether `d` is one of the class's dtypes.
    fn contains(self, d: DType) -> bool {
        match self {
            Class::Generic => true,
            Class::Number => d != DType::Bool,
            Class::Integer => d.is_int(),
            Class::SignedInteger => d.is_int() && !d.is_unsigned(),
            Class::UnsignedInteger => d.is_unsigned(),
            Class::Inexact | Class::Floating => d.is_float(),
            Class::ComplexFloating => false,
        }
    }

    /// Whether every dtype of `self` is one of `other`'s (NumPy's subclass test of the types).
    fn within(self, other: Class) -> bool {
        use Class::*;
        match (self, other) {
            (a, b) if a == b => true,
            (_, Generic) => true,
            (Integer | SignedInteger | UnsignedInteger | Inexact | Floating | ComplexFloating, Number) => true,
            (SignedInteger | UnsignedInteger, Integer) => true,
            (Floating | ComplexFloating, Inexact) => true,
            _ => false,
        }
    }
}

/// A dtype operand's meaning.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Operand {
    /// A dtype (`np.float32`, `x.dtype`, the dtype of an array).
    DType(DType),
    /// An abstract class (`np.floating`).
    Class(Class),
    /// A Python number (weak in `np.result_type`): `true` for a float.
    Weak(bool),
    /// One of NumPy's dtypes that arrayc does not have ([`foreign`]): no value's dtype.
    Foreign,
}

/// What the checker and the lowering know of the values an operand names.
pub trait Types {
    /// The dtype of the value `e` (an array or a scalar); `None` after an error (reported).
    fn value_dtype(&mut self, e: &Expr) -> Option<DType>;
    /// Whether the value `e` (its dtype asked for first) is a Python number (weak, NEP 50: `len(x)`,
    /// `n - 1`), not a NumPy scalar or an array.
    fn python_number(&mut self, e: &Expr) -> bool;
    /// Whether the value `e` (its dtype asked for first) is an array.
    fn is_array(&mut self, e: &Expr) -> bool;
    /// `e` is a dtype operand, not a value (the checker records it).
    fn operand(&mut self, _e: &Expr) {}
}

/// An error of a question (reported by the checker), or `None` where one was reported already.
pub type QueryError = Option<Box<Diagnostic>>;

fn error(code: &'static str, message: String, span: &Span, label: &str, help: &str) -> QueryError {
    Some(Box::new(Diagnostic::error(code, message, span.clone(), label).with_help(help)))
}

/// The name of a call with NumPy's qualification, if any, taken off.
fn call_name(e: &Expr) -> Option<(&str, &[Expr], usize)> {
    match &e.kind {
        ExprKind::Call { func, args, kwargs } => {
            Some((func.name.strip_prefix(crate::builtin::QUALIFIED).unwrap_or(&func.name), args, kwargs.len()))
        }
        _ => None,
    }
}

/// Whether `e` is an expression whose value is a dtype: `x.dtype`, `np.result_type(..)`,
/// `np.promote_types(..)` or `np.dtype(..)` (the parser's test, before types are known).
pub fn is_dtype_expr(e: &Expr) -> bool {
    matches!(call_name(e), Some((".dtype" | "result_type" | "promote_types" | "dtype", _, 0)))
}

/// Whether `e` is written as a dtype operand other than a type name: a dtype expression
/// ([`is_dtype_expr`]), a string, Python's `float`, `int`, `bool`, or one of NumPy's classes.
pub fn is_dtype_operand(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Str(_) => true,
        ExprKind::Var(v) => {
            v.name == "bool" || alias(&v.name).is_some() || Class::named(&v.name).is_some() || foreign(&v.name)
        }
        _ => is_dtype_expr(e),
    }
}

/// The dtype a string names: as `np.dtype` reads it ([`DType::from_numpy_string`]: NumPy's names,
/// their aliases, codes, Python's types), or arrayc's name (`'f32'`).
fn dtype_named(text: &str) -> Option<DType> {
    DType::from_numpy_string(text).or_else(|| DType::from_name(text))
}

/// The dtype the name `name` (`np.NAME`, Python's `float`, `int`) stands for: one of NumPy's names
/// or aliases of arrayc's dtypes ([`DType::from_numpy_name`]), or Python's type.
fn alias(name: &str) -> Option<DType> {
    match name {
        "float" => Some(DType::F64),
        "int" => Some(DType::I64),
        _ => DType::from_numpy_name(name),
    }
}

/// One of NumPy's dtypes that arrayc does not have, named (`np.float16`) or as a string
/// (`'int16'`, `'<i2'`, [`crate::syntax::keyword_value`]'s `np.<i2`): no array of arrayc is of
/// one, so a comparison with one is `False` (`x.dtype == np.float16`, `x.dtype in (np.int8, np.int16)`).
pub(crate) fn foreign(name: &str) -> bool {
    match name.strip_prefix(crate::builtin::QUALIFIED) {
        Some(text) => DType::numpy_lacks(text),
        None => DType::numpy_lacks_name(name),
    }
}

/// The meaning of the dtype operand `e` (module docs).
pub fn operand(e: &Expr, t: &mut dyn Types) -> Result<Operand, QueryError> {
    let not_understood = |what: &str| {
        error(
            "E0323",
            format!("data type {what} not understood"),
            &e.span,
            "not a dtype arrayc has",
            "arrayc's dtypes are `np.float64`, `np.float32`, `np.int64`, `np.int32`, `np.uint64`, `np.uint8` and \
             `np.bool_` (NumPy's TypeError for an unknown name)",
        )
    };
    let found = match &e.kind {
        ExprKind::DTypeName(d) => Operand::DType(*d),
        ExprKind::Var(v) => match (v.name.as_str(), alias(&v.name), Class::named(&v.name)) {
            ("bool", ..) => Operand::DType(DType::Bool),
            (_, Some(d), _) => Operand::DType(d),
            (_, _, Some(c)) if v.name != "complex" => Operand::Class(c),
            (name, ..) if foreign(name) => Operand::Foreign,
            _ => return value(e, t),
        },
        ExprKind::Str(s) => match dtype_named(s) {
            Some(d) => Operand::DType(d),
            None if DType::numpy_lacks(s) => Operand::Foreign,
            None => return Err(not_understood(&format!("'{s}'"))),
        },
        ExprKind::Int(_) => Operand::Weak(false),
        ExprKind::Float(_) => Operand::Weak(true),
        _ => match call_name(e) {
            Some((".dtype", [x], 0)) => {
                t.operand(e);
                return t.value_dtype(x).map(Operand::DType).ok_or(None);
            }
            Some((name @ ("result_type" | "promote_types" | "dtype"), args, 0)) => {
                t.operand(e);
                let mut ds = Vec::with_capacity(args.len());
                for a in args {
                    ds.push(operand(a, t)?);
                }
                return combine(name, &ds, e);
            }
            _ => return value(e, t),
        },
    };
    t.operand(e);
    Ok(found)
}

/// The operand of the value `e`: its dtype, or, of a Python number, weak.
fn value(e: &Expr, t: &mut dyn Types) -> Result<Operand, QueryError> {
    let d = t.value_dtype(e).ok_or(None)?;
    Ok(if t.python_number(e) { Operand::Weak(d.is_float()) } else { Operand::DType(d) })
}

/// `np.result_type(..)`, `np.promote_types(a, b)` or `np.dtype(a)` of the operands `ds`: NumPy 2's
/// promotion, a Python number (a literal) weak (NEP 50: `np.result_type(x_f32, 1.0)` is `float32`).
fn combine(name: &str, ds: &[Operand], e: &Expr) -> Result<Operand, QueryError> {
    let wrong = |help: &str| error("E0323", format!("`np.{name}` of these arguments"), &e.span, "not dtypes", help);
    match (name, ds) {
        ("dtype", [Operand::DType(d)]) => return Ok(Operand::DType(*d)),
        ("dtype", _) => {
            return Err(wrong(
                "`np.dtype(T)` takes one dtype: `np.dtype(np.float32)`, `np.dtype('float32')`, `x.dtype`",
            ))
        }
        ("promote_types", [Operand::DType(a), Operand::DType(b)]) => return Ok(Operand::DType(a.promote(*b))),
        ("promote_types", _) => {
            return Err(wrong("`np.promote_types(a, b)` takes two dtypes: `np.promote_types(x.dtype, np.float32)`"))
        }
        _ => {}
    }
    let strong = ds.iter().filter_map(|d| if let Operand::DType(d) = d { Some(*d) } else { None });
    let weak_float = ds.contains(&Operand::Weak(true));
    if ds.is_empty() || ds.iter().any(|d| matches!(d, Operand::Class(_))) {
        return Err(wrong("`np.result_type` takes arrays, dtypes and Python numbers: `np.result_type(x, y)`"));
    }
    let d = match strong.reduce(DType::promote) {
        // A Python float with an integer or bool dtype gives the default float.
        Some(d) if weak_float && !d.is_float() => DType::F64,
        // A Python int with bool gives the default integer.
        Some(DType::Bool) if ds.contains(&Operand::Weak(false)) => DType::I64,
        Some(d) => d,
        None if weak_float => DType::F64,
        None => DType::I64,
    };
    Ok(Operand::DType(d))
}

/// The dtype of a dtype operand used where NumPy takes a dtype (`dtype=`, `x.astype(..)`, a side of
/// `x.dtype == ..`): a class there is an error (NumPy's `np.zeros(3, np.floating)` is deprecated
/// and means `float64`; arrayc asks for the dtype).
pub fn dtype_of(e: &Expr, t: &mut dyn Types) -> Result<DType, QueryError> {
    let op = operand(e, t)?;
    as_dtype(op, e)
}

/// The dtype of the operand `op` of `e` ([`dtype_of`]).
fn as_dtype(op: Operand, e: &Expr) -> Result<DType, QueryError> {
    match op {
        Operand::DType(d) => Ok(d),
        Operand::Weak(_) => {
            Err(error("E0323", "a number is not a dtype".to_string(), &e.span, "not a dtype", "name the dtype: `np.float64`, `x.dtype`"))
        }
        Operand::Foreign => Err(error(
            "E0323",
            "a NumPy dtype that arrayc does not have".to_string(),
            &e.span,
            "not one of arrayc's dtypes",
            "arrayc's dtypes are `np.float64`, `np.float32`, `np.int64`, `np.int32`, `np.uint64`, `np.uint8` and `np.bool_`",
        )),
        Operand::Class(_) => Err(error(
            "E0323",
            "an abstract NumPy type is not a dtype".to_string(),
            &e.span,
            "a class of dtypes",
            "test a dtype against it with `np.issubdtype(x.dtype, np.floating)`, or name one dtype: `np.float64`",
        )),
    }
}

/// NumPy's `np.can_cast(from, to, casting)` of two dtypes; `None` for a `casting` NumPy refuses.
pub fn can_cast(from: DType, to: DType, casting: &str) -> Option<bool> {
    // NumPy's kinds in the order `same_kind` may cast up: bool, unsigned, signed, float.
    let rank = |d: DType| match d.kind() {
        'b' => 0,
        'u' => 1,
        'i' => 2,
        _ => 3,
    };
    let safe = from.promote(to) == to;
    Some(match casting {
        "no" | "equiv" => from == to,
        "safe" => safe,
        "same_kind" => safe || rank(from) <= rank(to),
        "unsafe" => true,
        _ => return None,
    })
}

/// The value of `np.issubdtype(a, b, relation)` ([`REL`]) (module docs): `issubdtype`, `kind==` and `kind_in`
/// (`b` a string), `can_cast:CASTING`, `isinstance` (`a` a value).
pub fn relation(args: &[Expr], t: &mut dyn Types) -> Result<bool, QueryError> {
    let [a, b, rel] = args else { unreachable!("the parser writes three arguments") };
    let ExprKind::Str(rel) = &rel.kind else { unreachable!("the parser writes the relation's name") };
    t.operand(args.last().unwrap_or_else(|| unreachable!("three")));
    if let Some(kinds) = rel.strip_prefix("kind") {
        let d = dtype_of(a, t)?;
        let ExprKind::Str(s) = &b.kind else { unreachable!("the parser writes a string") };
        t.operand(b);
        let k = d.kind().to_string();
        return Ok(if kinds == "==" { *s == k } else { s.contains(&k) });
    }
    if rel == "isinstance" {
        let d = t.value_dtype(a).ok_or(None)?;
        let (array, python) = (t.is_array(a), t.python_number(a));
        return isinstance(d, array, python, b, t);
    }
    if let Some(casting) = rel.strip_prefix("can_cast:") {
        let from = match operand(a, t)? {
            Operand::DType(d) => d,
            _ => {
                return Err(error(
                    "E0323",
                    "`np.can_cast` of a Python number or a class".to_string(),
                    &a.span,
                    "not a dtype or an array",
                    "NumPy 2's `can_cast` takes a dtype or an array (its TypeError for Python numbers): `np.can_cast(x.dtype, np.int64)`",
                ))
            }
        };
        let to = dtype_of(b, t)?;
        return can_cast(from, to, casting).ok_or_else(|| {
            error(
                "E0323",
                format!("casting must be one of 'no', 'equiv', 'safe', 'same_kind', 'unsafe' (got '{casting}')"),
                &args[2].span,
                "not a casting rule",
                "NumPy's ValueError: `casting='safe'` (the default), `'same_kind'`, `'unsafe'`, `'no'` or `'equiv'`",
            )
        });
    }
    let (a, b) = (operand(a, t)?, operand(b, t)?);
    Ok(match (a, b) {
        (Operand::DType(x), Operand::DType(y)) => x == y,
        (Operand::DType(x), Operand::Class(c)) => c.contains(x),
        (Operand::Class(x), Operand::Class(c)) => x.within(c),
        (Operand::Class(_), Operand::DType(_)) => false,
        // No value has a dtype arrayc lacks; a class does not lie within one dtype.
        (Operand::Foreign, _) | (_, Operand::Foreign) => false,
        (Operand::Weak(_), _) | (_, Operand::Weak(_)) => {
            return Err(error(
                "E0323",
                "`np.issubdtype` of a number".to_string(),
                &(args[0].span.start..args[1].span.end),
                "not dtypes",
                "`np.issubdtype(x.dtype, np.floating)` takes dtypes or classes of them",
            ))
        }
    })
}

/// Python's `isinstance(v, ty)` of a value of dtype `d`, an array or not, a Python number or a
/// NumPy scalar: `np.ndarray`; Python's `float` (which `np.float64` is a subclass of) and `int`
/// (which no NumPy integer is); NumPy's classes and scalar types (of NumPy scalars only); a tuple
/// of these. Python's `bool` is E0323: arrayc does not tell Python's `bool` from `np.bool_`.
fn isinstance(d: DType, array: bool, python: bool, ty: &Expr, t: &mut dyn Types) -> Result<bool, QueryError> {
    t.operand(ty);
    let numpy_scalar = !array && !python;
    Ok(match &ty.kind {
        ExprKind::Tuple(items) => {
            let mut any = false;
            for item in items {
                any |= isinstance(d, array, python, item, t)?;
            }
            any
        }
        ExprKind::Var(v) if v.name == "ndarray" => array,
        ExprKind::Var(v) if v.name == "float" => !array && d == DType::F64,
        ExprKind::Var(v) if v.name == "int" => python && d == DType::I64,
        ExprKind::Var(v) if Class::named(&v.name).is_some() => {
            numpy_scalar && Class::named(&v.name).is_some_and(|c| c.contains(d))
        }
        ExprKind::DTypeName(n) if *n != DType::Bool => numpy_scalar && *n == d,
        _ if array => false,
        _ => {
            return Err(error(
                "E0323",
                "`isinstance` of this type is not known at compile time in arrayc".to_string(),
                &ty.span,
                "not `np.ndarray`, `float`, `int` or a NumPy scalar type",
                "arrayc does not tell Python's `bool` from `np.bool_`: ask about the dtype instead, \
                 `np.asarray(v).dtype == np.bool_`, or test `np.ndarray`, `float`, `int`, `np.floating`, `np.integer`",
            ))
        }
    })
}

/// A number NumPy reads off a dtype, the value of `np.finfo(a, "info.attr")` ([`LIMIT`]): a Python
/// `int` (`itemsize`, `iinfo`'s, `finfo(..).bits`) or a NumPy scalar of the float dtype
/// (`finfo`'s others).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Limit {
    Int(i64),
    Float(DType, f64),
}

/// NumPy's `np.finfo(d).attr` of a float dtype `d`, as an `f64` (`None` for another dtype or
/// attribute). One table for the constants the parser folds and for [`limit`].
pub fn finfo(d: DType, attr: &str) -> Option<f64> {
    let (eps, max, tiny, resolution) = match d {
        DType::F64 => (f64::EPSILON, f64::MAX, f64::MIN_POSITIVE, 1e-15),
        DType::F32 => (f32::EPSILON as f64, f32::MAX as f64, f32::MIN_POSITIVE as f64, 1e-6),
        _ => return None,
    };
    Some(match attr {
        "eps" => eps,
        "max" => max,
        "min" => -max,
        "tiny" | "smallest_normal" => tiny,
        "resolution" => resolution,
        _ => return None,
    })
}

/// The value of `np.finfo(a, what)` ([`LIMIT`]) (module docs); E0324 where NumPy raises.
pub fn limit(args: &[Expr], t: &mut dyn Types) -> Result<Limit, QueryError> {
    let [a, what] = args else { unreachable!("the parser writes two arguments") };
    let ExprKind::Str(what) = &what.kind else { unreachable!("the parser writes the attribute") };
    t.operand(&args[1]);
    let d = dtype_of(a, t)?;
    let numpy = format!("<class 'numpy.{}'>", d.numpy_name().replace("bool", "bool_"));
    let refused = |message: String, help: &str| error("E0324", message, &a.span, "NumPy raises here", help);
    let (info, attr) = what.split_once('.').unwrap_or(("", what));
    match info {
        "" if attr == "itemsize" => Ok(Limit::Int(d.size_bytes() as i64)),
        "finfo" if d.is_float() => match (attr, finfo(d, attr)) {
            ("bits", _) => Ok(Limit::Int(8 * d.size_bytes() as i64)),
            ("precision", _) => Ok(Limit::Int(if d == DType::F64 { 15 } else { 6 })),
            (_, Some(v)) => Ok(Limit::Float(d, v)),
            _ => Err(refused(
                format!("`np.finfo` has no attribute `{attr}` in arrayc"),
                "`np.finfo(T)` has `eps`, `max`, `min`, `tiny`, `smallest_normal`, `resolution`, `bits`, `precision`",
            )),
        },
        "finfo" => Err(refused(
            format!("data type {numpy} not inexact"),
            "NumPy's ValueError: `np.finfo` takes a float dtype; of an integer dtype use `np.iinfo(T)`, or branch \
             on `np.issubdtype(x.dtype, np.floating)`",
        )),
        "iinfo" if d.is_int() => {
            let (lo, hi) = d.int_range().unwrap_or_else(|| unreachable!("an integer dtype"));
            let v = match attr {
                "max" => hi,
                "min" => lo,
                "bits" => 8 * d.size_bytes() as i128,
                _ => {
                    return Err(refused(
                        format!("`np.iinfo` has no attribute `{attr}` in arrayc"),
                        "`np.iinfo(T)` has `max`, `min` and `bits`",
                    ))
                }
            };
            i64::try_from(v).map(Limit::Int).map_err(|_| {
                refused(
                    format!("`np.iinfo({}).{attr}` is beyond arrayc's Python integers (`int64`)", d.numpy_name()),
                    "write the value as a `np.uint64` scalar: `np.uint64(18446744073709551615)` is not available either; \
                     compare in `uint64` arithmetic instead (`x == ~np.uint64(0)`)",
                )
            })
        }
        _ => Err(refused(
            format!("Invalid integer data type '{}'.", d.kind()),
            "NumPy's ValueError: `np.iinfo` takes an integer dtype; of a float dtype use `np.finfo(T)`, or branch \
             on `np.issubdtype(x.dtype, np.integer)`",
        )),
    }
}

/// The value of the condition `c` where it is decided at compile time: a question about dtypes
/// ([`REL`], `dtype==`), `not` of one, or `and`/`or` whose value the questions decide
/// (`np.issubdtype(x.dtype, np.integer) and k > 0` of a float `x` is `False`); `None` for any
/// other condition (or one with an error).
pub fn static_truth(c: &Expr, t: &mut dyn Types) -> Option<bool> {
    truth(c, t, true)
}

fn truth(c: &Expr, t: &mut dyn Types, top: bool) -> Option<bool> {
    match &c.kind {
        ExprKind::Bool(v) if !top => Some(*v),
        ExprKind::BoolOp(_, parts) => {
            let first = truth(&parts[0], t, false)?;
            truth(if first { &parts[1] } else { &parts[2] }, t, false)
        }
        ExprKind::Call { func, args, .. } if func.name == REL => relation(args, t).ok(),
        ExprKind::Call { func, args, .. } if func.name == "dtype==" => same_dtype(args, t).ok(),
        _ => None,
    }
}

/// The value of `dtype==(a, b)`, `a.dtype == b` ([`crate::syntax::comparison`]): whether both
/// name one dtype (one of NumPy's that arrayc lacks, `np.float16`, equals no dtype of a value).
pub fn same_dtype(args: &[Expr], t: &mut dyn Types) -> Result<bool, QueryError> {
    let (a, b) = (side(&args[0], t)?, side(&args[1], t)?);
    Ok(a.is_some() && a == b)
}

/// A side of `x.dtype == b`: its dtype, `None` for one of NumPy's that arrayc lacks.
pub fn side(e: &Expr, t: &mut dyn Types) -> Result<Option<DType>, QueryError> {
    match operand(e, t)? {
        Operand::Foreign => Ok(None),
        op => as_dtype(op, e).map(Some),
    }
}

/// Whether the condition `c` asks a question about dtypes ([`REL`], `dtype==`) anywhere, which
/// may decide it at compile time ([`static_truth`]).
pub fn asks_about_dtypes(c: &Expr) -> bool {
    let mut found = false;
    c.clone().for_each_mut(&mut |e| {
        found |= matches!(&e.kind, ExprKind::Call { func, .. } if func.name == REL || func.name == "dtype==");
    });
    found
}

/// A call of the builtin `name` under a fresh id.
fn call(ids: &Cell<u32>, name: &str, args: Vec<Expr>, span: &Span) -> Expr {
    let func = Ident { name: name.to_string(), span: span.clone() };
    mk(ids, ExprKind::Call { func, args, kwargs: vec![] }, span.clone())
}

fn string(ids: &Cell<u32>, s: &str, span: &Span) -> Expr {
    mk(ids, ExprKind::Str(s.to_string()), span.clone())
}

/// NumPy's functions of dtypes, as the parser reads a call of `name` (NumPy's name, without
/// `np.`): `issubdtype(a, b)`, `can_cast(a, b, casting='safe')`, `isrealobj(x)`,
/// `iscomplexobj(x)`, Python's `isinstance(v, ty)` become [`REL`]; `np.dtype('float32')` the type name. Any other call is
/// left as it is.
pub fn rewrite_call(ids: &Cell<u32>, name: &str, e: &mut Expr) {
    let span = e.span.clone();
    let ExprKind::Call { args, kwargs, .. } = &mut e.kind else { return };
    let rel = match (name, args.len(), kwargs.as_slice()) {
        ("issubdtype", 2, []) => "issubdtype".to_string(),
        ("can_cast", 2, []) => "can_cast:safe".to_string(),
        ("can_cast", 2, [(k, v)]) if k.name == "casting" => match &v.kind {
            ExprKind::Str(s) | ExprKind::Var(Ident { name: s, .. }) => format!("can_cast:{s}"),
            _ => return,
        },
        ("isinstance", 2, []) => "isinstance".to_string(),
        ("isreal" | "iscomplex", 1, []) => {
            // NumPy's `imag(x) == 0` and `imag(x) != 0`; a real array's `imag` is `zeros_like(x)`.
            let x = args.pop().unwrap_or_else(|| unreachable!("one argument"));
            let imag = call(ids, &crate::builtin::qualified("zeros_like"), vec![x], &span);
            let zero = mk(ids, ExprKind::Int(0), span.clone());
            let op = if name == "isreal" { BinOp::Eq } else { BinOp::Ne };
            *e = mk(ids, ExprKind::Binary(op, Box::new(imag), Box::new(zero)), span);
            return;
        }
        ("isrealobj" | "iscomplexobj", 1, []) => {
            let x = args.pop().unwrap_or_else(|| unreachable!("one argument"));
            let complex =
                mk(ids, ExprKind::Var(Ident { name: "complexfloating".to_string(), span: span.clone() }), span.clone());
            let rel = string(ids, "issubdtype", &span);
            let test = call(ids, REL, vec![x, complex, rel], &span);
            *e = match name {
                "isrealobj" => bool_op(ids, BoolOp::Not, test, None, span),
                _ => test,
            };
            return;
        }
        ("dtype", 1, []) => {
            if let ExprKind::Str(s) = &args[0].kind {
                if let Some(d) = dtype_named(s) {
                    e.kind = ExprKind::DTypeName(d);
                }
            }
            return;
        }
        _ => return,
    };
    kwargs.clear();
    args.push(string(ids, &rel, &span));
    let ExprKind::Call { func, .. } = &mut e.kind else { unreachable!("matched a call") };
    func.name = REL.to_string();
}

/// `base.name` of a dtype expression ([`is_dtype_expr`]) or of `np.finfo(T)` / `np.iinfo(T)`:
/// `x.dtype.kind` (compared with a string, [`kind_comparison`]), `x.dtype.itemsize`, and the
/// limits NumPy reads off a dtype ([`LIMIT`]); `Err(base)` for any other.
pub fn attribute(ids: &Cell<u32>, base: Expr, name: &Ident, span: &Span) -> Result<Expr, Expr> {
    let what = match (call_name(&base), name.name.as_str()) {
        (Some((info @ ("finfo" | "iinfo"), [_], 0)), attr) => format!("{info}.{attr}"),
        (_, "kind" | "itemsize") if is_dtype_expr(&base) => name.name.clone(),
        _ => return Err(base),
    };
    if what == "kind" {
        return Ok(call(ids, KIND, vec![base], span));
    }
    let operand = match base.kind {
        ExprKind::Call { mut args, .. } if what != "itemsize" => args.remove(0),
        _ => base,
    };
    let what = string(ids, &what, &name.span);
    Ok(call(ids, LIMIT, vec![operand, what], span))
}

/// `x.dtype.kind == 'f'` (or `!=`): [`REL`] `kind==`; `Err` gives the operands back for any other
/// comparison.
pub fn kind_comparison(ids: &Cell<u32>, a: Expr, op: BinOp, b: Expr, span: &Span) -> Result<Expr, Box<(Expr, Expr)>> {
    let is_kind =
        |e: &Expr| matches!(&e.kind, ExprKind::Call { func, args, .. } if func.name == KIND && args.len() == 1);
    let (k, s) = match (op, is_kind(&a), is_kind(&b)) {
        (BinOp::Eq | BinOp::Ne, true, _) if matches!(b.kind, ExprKind::Str(_)) => (a, b),
        (BinOp::Eq | BinOp::Ne, _, true) if matches!(a.kind, ExprKind::Str(_)) => (b, a),
        _ => return Err(Box::new((a, b))),
    };
    let test = kind_test(ids, k, s, "kind==", span);
    Ok(match op {
        BinOp::Ne => bool_op(ids, BoolOp::Not, test, None, span.clone()),
        _ => test,
    })
}

/// `x.dtype.kind in 'iu'` (Python's substring test of the one-letter kind): [`REL`] `kind_in`;
/// `Err` gives the operands back for any other membership test.
pub fn kind_in(ids: &Cell<u32>, k: Expr, b: Expr, span: &Span) -> Result<Expr, Box<(Expr, Expr)>> {
    match (&k.kind, &b.kind) {
        (ExprKind::Call { func, args, .. }, ExprKind::Str(_)) if func.name == KIND && args.len() == 1 => {
            Ok(kind_test(ids, k, b, "kind_in", span))
        }
        _ => Err(Box::new((k, b))),
    }
}

fn kind_test(ids: &Cell<u32>, k: Expr, s: Expr, rel: &str, span: &Span) -> Expr {
    let ExprKind::Call { mut args, .. } = k.kind else { unreachable!("a call of `.dtype.kind`") };
    let dtype = args.remove(0);
    let rel = string(ids, rel, span);
    call(ids, REL, vec![dtype, s, rel], span)
}

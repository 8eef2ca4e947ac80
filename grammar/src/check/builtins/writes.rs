//! The types of NumPy's in-place write functions `copyto`, `putmask`, `place` and `put`: statements
//! that [`crate::writes`] rewrote into assignments, each kept before its assignments for these
//! checks (lowered to nothing). The assignments convert as an assignment does; these add NumPy's
//! casting rule of each function (E0320) and the forms arrayc does not write (E0321).

use super::Call;
use crate::ast::DType;
use crate::builtin::Builtin;
use crate::check::promote::{same_kind, weak_of, Weak};
use crate::check::Checker;
use crate::diag::Diagnostic;
use crate::types::Ty;

/// NumPy's casting rule of a write function's values.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Rule {
    /// `copyto`'s default `casting='same_kind'` (a Python int any integer or float dtype, a Python
    /// float a float one).
    SameKind,
    /// `putmask`'s and `place`'s: an array (or a typed scalar but an `f64` one, NumPy's
    /// `float64` being a Python float) casts safely; a Python scalar as an assignment converts.
    Safe,
    /// `put`'s: as an assignment converts.
    Unsafe,
}

impl Checker {
    /// A statement `copyto(dst, src, where=m)`, `putmask(a, mask, values)`, `place(arr, mask,
    /// vals)` or `put(a, ind, v)` (checked: its target is an array, its values cast to the
    /// target's dtype by the function's rule, E0320; `put` writes a 1-d array, `copyto`'s `where=`
    /// is a bool mask, E0321; `put`'s `mode=` is checked with the keywords). Its type is `Unit`.
    pub(super) fn write_call(&mut self, c: &Call) -> Ty {
        let name = c.b.name();
        let t = self.value(&c.args[0]);
        let tv = self.value(&c.args[if c.b == Builtin::Copyto { 1 } else { 2 }]);
        if c.b != Builtin::Copyto {
            // The mask (index array) is checked by the assignment the statement became.
            self.value(&c.args[1]);
        }
        let where_t = c.kwarg("where").map(|w| (w, self.value(w)));
        if c.bad || t == Ty::Error || tv == Ty::Error || matches!(where_t, Some((_, Ty::Error))) {
            return Ty::Error;
        }
        let Ty::Array(d, shape) = &t else {
            self.err(
                Diagnostic::error(
                    "E0321",
                    format!("`{name}` writes into an array, found {t}"),
                    c.args[0].span.clone(),
                    "not an array",
                )
                .with_note(format!("NumPy's TypeError: {name}() argument 1 must be numpy.ndarray"))
                .with_help("pass the array (or a view of it, `x[1:]`) to write into"),
            );
            return Ty::Error;
        };
        if let Some((w, wt)) = &where_t {
            if wt.dtype() != Some(DType::Bool) {
                self.err(
                    Diagnostic::error(
                        "E0321",
                        format!("`copyto`'s `where=` must be a bool mask, found {wt}"),
                        w.span.clone(),
                        "not bool",
                    )
                    .with_note("NumPy casts `where=` to bool by its 'safe' rule, which refuses numbers")
                    .with_help("compare: `where=m != 0`"),
                );
                return Ty::Error;
            }
        }
        if c.b == Builtin::Put && shape.len() != 1 {
            self.err(
                Diagnostic::error(
                    "E0321",
                    format!("arrayc's `put` writes a 1-d array, found {t}"),
                    c.args[0].span.clone(),
                    "not 1-d",
                )
                .with_note("NumPy's `put` writes through flat indices, `a.flat[ind] = v`")
                .with_help("write through the index arrays of each axis: `let (i, j) = unravel_index(ind, a.shape); a[i, j] = v;`"),
            );
            return Ty::Error;
        }
        let Some(vd) = tv.dtype() else { return Ty::Error };
        let rule = match c.b {
            Builtin::Copyto => Rule::SameKind,
            Builtin::Put => Rule::Unsafe,
            _ => Rule::Safe,
        };
        let vi = if c.b == Builtin::Copyto { 1 } else { 2 };
        let value = &c.args[vi];
        let weak = weak_of(value);
        if weak == Some(Weak::Int) {
            self.check_int_literal(value, *d);
        }
        let fits = match (rule, weak) {
            (Rule::Unsafe, _) => true,
            (Rule::SameKind, Some(Weak::Int)) => *d != DType::Bool,
            (Rule::SameKind, Some(Weak::Bool)) => true,
            (Rule::SameKind, Some(Weak::Float)) => d.is_float(),
            (Rule::SameKind, None) => same_kind(vd, *d),
            (Rule::Safe, Some(_)) => true,
            (Rule::Safe, None) if vd == DType::F64 && !tv.is_array() => true,
            (Rule::Safe, None) => vd.promote(*d) == *d,
        };
        if !fits {
            let rule_name = if rule == Rule::SameKind { "same_kind" } else { "safe" };
            self.err(
                Diagnostic::error(
                    "E0320",
                    format!("`{name}` cannot cast {} values into a {} array", vd.name(), d.name()),
                    value.span.clone(),
                    format!("has dtype {}", vd.name()),
                )
                .with_note(format!(
                    "NumPy's TypeError: Cannot cast array data from dtype('{}') to dtype('{}') according to the rule '{rule_name}'",
                    vd.numpy_name(),
                    d.numpy_name()
                ))
                .with_help(format!("convert the values first: `{}(v)`, or assign, `a[...] = v;`, which converts", d.name())),
            );
            return Ty::Error;
        }
        Ty::Unit
    }
}

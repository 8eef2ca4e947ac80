//! Dtype promotion (NumPy 2 with "weak" Python scalars, NEP 50) and casting rules.
//!
//! NEP 50: a Python `int` or `float` operand is "weak": it takes the other operand's dtype
//! (`x_u8 + k` is `uint8`, `x_f32 * k` is `float32`), where a NumPy scalar (`np.int64(3)`,
//! `x.sum()`, `x[0]`) promotes as its dtype. [`weak_of`] knows the literals from the syntax; the
//! checker knows the other Python numbers (`len(x)`, `x.shape[0]`, a `range` variable, ...:
//! [`crate::check`]'s `weak` module lists them) and records them in [`crate::Checked::weak`].

use crate::ast::{BinOp, DType, Expr, ExprId, ExprKind, UnOp};
use crate::types::Ty;
use std::collections::HashSet;

/// A Python number operand (a literal, or another Python `bool`, `int` or `float`) whose dtype
/// adapts to the other operand (NumPy 2's "weak" scalars, NEP 50).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Weak {
    /// Python's `bool` (`True`, `len(x) > 3`): NumPy's `bool` beside a NumPy value, but Python's
    /// `int` in arithmetic with another Python bool (`True + True` is `2`: [`promote_op`]).
    Bool,
    Int,
    Float,
}

impl Weak {
    /// The kind of a Python number of dtype `d`: a float for a float dtype, a bool for `bool`,
    /// else an integer.
    pub fn of_dtype(d: DType) -> Weak {
        if d.is_float() {
            Weak::Float
        } else if d == DType::Bool {
            Weak::Bool
        } else {
            Weak::Int
        }
    }
}

/// `Some` if `e` is a bool, integer or float literal, optionally negated (or parenthesised).
pub fn weak_of(e: &Expr) -> Option<Weak> {
    match &e.kind {
        ExprKind::Bool(_) => Some(Weak::Bool),
        ExprKind::Int(_) => Some(Weak::Int),
        ExprKind::Float(_) => Some(Weak::Float),
        ExprKind::Unary(UnOp::Neg, inner) => weak_of(inner),
        _ => None,
    }
}

/// The weak kind of the checked `e`: a literal ([`weak_of`]) or a Python number in `weak` (by id;
/// [`crate::Checked::weak`]), of its dtype in `types`; `None` for a NumPy value.
pub fn weak_in(e: &Expr, types: &[Ty], weak: &HashSet<ExprId>) -> Option<Weak> {
    weak_of(e).or_else(|| {
        let d = types.get(e.id.0 as usize)?.dtype()?;
        weak.contains(&e.id).then(|| Weak::of_dtype(d))
    })
}

/// Common dtype of two operands: [`DType::promote`] (NumPy's `result_type`) of two NumPy values;
/// a weak (Python) integer takes the other operand's dtype (bool becomes `i64`), a weak float with
/// an integer or bool operand gives `f64` (NEP 50).
pub fn promote(a: DType, aw: Option<Weak>, b: DType, bw: Option<Weak>) -> DType {
    match (aw, bw) {
        (Some(Weak::Bool), Some(Weak::Bool)) => DType::Bool,
        (Some(x), Some(y)) => {
            if x == Weak::Float || y == Weak::Float {
                DType::F64
            } else {
                DType::I64
            }
        }
        (Some(w), None) => weak_with(w, b),
        (None, Some(w)) => weak_with(w, a),
        (None, None) => a.promote(b),
    }
}

/// The dtype `a op b` computes in: [`promote`], except that Python computes arithmetic of two
/// Python bools in its `int` (`True + True` is `2`, `True * True` is `1`, `True / True` is
/// `1.0`), where `&`, `|`, `^` and comparisons keep them bools.
pub fn promote_op(op: BinOp, a: DType, aw: Option<Weak>, b: DType, bw: Option<Weak>) -> DType {
    use BinOp::*;
    let logical = matches!(op, And | Or | Xor | Eq | Ne | Lt | Le | Gt | Ge);
    if (aw, bw) == (Some(Weak::Bool), Some(Weak::Bool)) && !logical {
        DType::I64
    } else {
        promote(a, aw, b, bw)
    }
}

fn weak_with(w: Weak, strong: DType) -> DType {
    match (w, strong) {
        (Weak::Bool, d) => d,
        (Weak::Int, DType::Bool) => DType::I64,
        (Weak::Int, d) => d,
        (Weak::Float, d) if d.is_float() => d,
        (Weak::Float, _) => DType::F64,
    }
}

/// Result dtype of a binary operator given the promoted operand dtype; `None` when the operator
/// does not apply: `&`, `|`, `^` need bools (logical) or integers (bitwise); `<<`/`>>` integers
/// or bools, computed in the integer dtype (bools in `i64`: NumPy computes bool shifts in an
/// integer too). NumPy raises
/// `TypeError` for all five on floats.
pub fn binop_result(op: BinOp, promoted: DType) -> Option<DType> {
    use BinOp::*;
    match op {
        Eq | Ne | Lt | Le | Gt | Ge => Some(DType::Bool),
        And | Or | Xor => (!promoted.is_float()).then_some(promoted),
        Shl | Shr => (!promoted.is_float()).then_some(if promoted == DType::Bool { DType::I64 } else { promoted }),
        Div => Some(if promoted.is_float() { promoted } else { DType::F64 }),
        // NumPy's bools: `+` is `|` and `*` is `&` (bool), `-` a TypeError; the rest compute in `i64`.
        Add | Mul if promoted == DType::Bool => Some(DType::Bool),
        Sub if promoted == DType::Bool => None,
        Add | Sub | Mul | Rem | FloorDiv | Pow => Some(if promoted == DType::Bool { DType::I64 } else { promoted }),
    }
}

/// What a binary operator's operands must be, for [`binop_result`]'s error: `None` for the
/// operators defined on every dtype.
pub fn binop_operands(op: BinOp) -> Option<&'static str> {
    match op {
        BinOp::And | BinOp::Or | BinOp::Xor | BinOp::Shl | BinOp::Shr => Some("integer or bool"),
        _ => None,
    }
}

/// NumPy `same_kind` casting: safe casts plus casts within a kind (`f64 -> f32`).
pub fn same_kind(from: DType, to: DType) -> bool {
    match from {
        DType::Bool => true,
        // NumPy: an unsigned integer casts to any integer within the kind, a signed one to the
        // signed ones only (`i64` to `u8` is not `same_kind`).
        d if d.is_unsigned() => to.is_int() || to.is_float(),
        d if d.is_int() => to.is_int() && !to.is_unsigned() || to.is_float(),
        _ => to.is_float(),
    }
}

/// Whether a weak literal of kind `w` may stand for a value of dtype `to` (argument, default, result).
pub fn weak_fits(w: Weak, to: DType) -> bool {
    match w {
        Weak::Bool => true,
        Weak::Int => to != DType::Bool,
        Weak::Float => to.is_float(),
    }
}

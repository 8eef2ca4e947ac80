//! Dtype promotion (NumPy 2 with "weak" Python literals) and casting rules.

use crate::ast::{BinOp, DType, Expr, ExprKind, UnOp};

/// A literal operand whose dtype adapts to the other operand (NumPy 2 "weak" scalars).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Weak {
    Int,
    Float,
}

/// `Some` if `e` is an integer or float literal, optionally negated (or parenthesised).
pub fn weak_of(e: &Expr) -> Option<Weak> {
    match &e.kind {
        ExprKind::Int(_) => Some(Weak::Int),
        ExprKind::Float(_) => Some(Weak::Float),
        ExprKind::Unary(UnOp::Neg, inner) => weak_of(inner),
        _ => None,
    }
}

/// Common dtype of two operands: [`DType::promote`] (NumPy's `result_type`) of two non-literals;
/// an integer literal takes the other operand's dtype (bool becomes `i64`), a float literal with
/// an integer or bool operand gives `f64`.
pub fn promote(a: DType, aw: Option<Weak>, b: DType, bw: Option<Weak>) -> DType {
    match (aw, bw) {
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

fn weak_with(w: Weak, strong: DType) -> DType {
    match (w, strong) {
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
    use DType::*;
    match from {
        Bool => true,
        // NumPy: an unsigned integer casts to any integer within the kind, a signed one to the
        // signed ones only (`i64` to `u8` is not `same_kind`).
        U64 | U8 => to.is_int() || to.is_float(),
        I64 | I32 => to.is_int() && !to.is_unsigned() || to.is_float(),
        F32 | F64 => to.is_float(),
    }
}

/// Whether a weak literal of kind `w` may stand for a value of dtype `to` (argument, default, result).
pub fn weak_fits(w: Weak, to: DType) -> bool {
    match w {
        Weak::Int => to != DType::Bool,
        Weak::Float => to.is_float(),
    }
}

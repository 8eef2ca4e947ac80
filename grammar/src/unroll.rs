//! Python's `sum` of a generator whose iteration is over constants, unrolled at compile time.
//!
//! `sum(e for i in (-1, 0, 1) for j in range(3) if i != j)` is Python's `0 + e1 + e2 + ...`, left
//! to right, each `+` NumPy's (broadcasting and promotion: `0 + bool_array` is `int64`). Where every
//! clause iterates constants (a tuple or list of number literals, `range` of integer constants, an
//! inner clause's maybe computed from the outer variables) and every condition is computed from
//! them, [`unrolled_sum`] writes that sum as one expression: each item `e` with the clauses'
//! variables replaced by their values (Python ints and floats, weak literals as NumPy 2 treats
//! them), so the items may be arrays of any shape and fusion makes the sum one kernel; an item's
//! `a if c else b` of a constant `c` is the branch taken. No item is Python's `0` (or the start of
//! `sum([..], start)`). Other generators stay `crate::comprehension`'s accumulator loop.

use crate::ast::{BinOp, Expr, ExprKind, Span, UnOp};
use crate::comprehension::Clause;
use crate::syntax::{fresh_copy, mk};
use std::cell::Cell;

/// The most items an unrolled sum has (a longer one stays a loop).
pub const MAX_ITEMS: usize = 64;

/// A constant: a Python int, float or bool.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Value {
    Int(i64),
    Float(f64),
    Bool(bool),
}

impl Value {
    /// Python's truth of the value.
    fn truthy(self) -> bool {
        match self {
            Value::Int(v) => v != 0,
            Value::Float(f) => f != 0.0,
            Value::Bool(b) => b,
        }
    }

    /// The value as an integer (a bool is 0 or 1, as Python's); `None` for a float.
    fn int(self) -> Option<i64> {
        match self {
            Value::Int(v) => Some(v),
            Value::Bool(b) => Some(i64::from(b)),
            Value::Float(_) => None,
        }
    }

    fn float(self) -> f64 {
        match self {
            Value::Int(v) => v as f64,
            Value::Float(f) => f,
            Value::Bool(b) => f64::from(u8::from(b)),
        }
    }

    /// The literal of the value, a negative number as the parser writes it (`-(1)`).
    fn literal(self, ids: &Cell<u32>, at: &Span) -> Expr {
        let neg = |ids: &Cell<u32>, kind: ExprKind| {
            let inner = mk(ids, kind, at.clone());
            mk(ids, ExprKind::Unary(UnOp::Neg, Box::new(inner)), at.clone())
        };
        match self {
            Value::Int(v) if v < 0 && v != i64::MIN => neg(ids, ExprKind::Int(-v)),
            Value::Int(v) => mk(ids, ExprKind::Int(v), at.clone()),
            Value::Float(f) if f.is_sign_negative() && !f.is_nan() => neg(ids, ExprKind::Float(-f)),
            Value::Float(f) => mk(ids, ExprKind::Float(f), at.clone()),
            Value::Bool(b) => mk(ids, ExprKind::Bool(b), at.clone()),
        }
    }
}

/// The variables bound so far, innermost last.
type Env = Vec<(String, Value)>;

/// Python's floor division and remainder of integers (`None` for a zero divisor or an overflow).
fn floor_div_rem(a: i64, b: i64) -> Option<(i64, i64)> {
    let (q, r) = (a.checked_div(b)?, a.checked_rem(b)?);
    Some(if r != 0 && ((r < 0) != (b < 0)) { (q - 1, r + b) } else { (q, r) })
}

/// The value of the constant expression `e` under `env`, where arrayc knows it as Python's.
fn eval(e: &Expr, env: &Env) -> Option<Value> {
    match &e.kind {
        ExprKind::Int(v) => Some(Value::Int(*v)),
        ExprKind::Float(f) => Some(Value::Float(*f)),
        ExprKind::Bool(b) => Some(Value::Bool(*b)),
        ExprKind::Var(v) => env.iter().rev().find(|(n, _)| *n == v.name).map(|&(_, x)| x),
        ExprKind::Unary(UnOp::Neg, a) => match eval(a, env)? {
            Value::Float(f) => Some(Value::Float(-f)),
            x => Some(Value::Int(x.int()?.checked_neg()?)),
        },
        ExprKind::Unary(UnOp::Not, a) => match eval(a, env)? {
            Value::Bool(b) => Some(Value::Bool(!b)),
            Value::Int(v) => Some(Value::Int(!v)),
            Value::Float(_) => None,
        },
        ExprKind::IfElse(parts) | ExprKind::BoolOp(_, parts) => {
            let [c, t, f] = parts.as_ref();
            eval(if eval(c, env)?.truthy() { t } else { f }, env)
        }
        ExprKind::Binary(op, a, b) => binary(*op, eval(a, env)?, eval(b, env)?),
        _ => None,
    }
}

/// `a op b` of Python's constants (`None` where arrayc does not compute it here).
fn binary(op: BinOp, a: Value, b: Value) -> Option<Value> {
    use BinOp::*;
    let ints = a.int().zip(b.int());
    let cmp = |o: std::cmp::Ordering| match op {
        Eq => Some(o.is_eq()),
        Ne => Some(o.is_ne()),
        Lt => Some(o.is_lt()),
        Le => Some(o.is_le()),
        Gt => Some(o.is_gt()),
        Ge => Some(o.is_ge()),
        _ => None,
    };
    if let (Value::Bool(x), Value::Bool(y), And | Or | Xor) = (a, b, op) {
        return Some(Value::Bool(match op {
            And => x && y,
            Or => x || y,
            _ => x != y,
        }));
    }
    match (op, ints) {
        (Eq | Ne | Lt | Le | Gt | Ge, Some((x, y))) => Some(Value::Bool(cmp(x.cmp(&y))?)),
        (Eq | Ne | Lt | Le | Gt | Ge, None) => Some(Value::Bool(cmp(a.float().partial_cmp(&b.float())?)?)),
        (Add, Some((x, y))) => x.checked_add(y).map(Value::Int),
        (Sub, Some((x, y))) => x.checked_sub(y).map(Value::Int),
        (Mul, Some((x, y))) => x.checked_mul(y).map(Value::Int),
        (FloorDiv, Some((x, y))) => floor_div_rem(x, y).map(|(q, _)| Value::Int(q)),
        (Rem, Some((x, y))) => floor_div_rem(x, y).map(|(_, r)| Value::Int(r)),
        (And, Some((x, y))) => Some(Value::Int(x & y)),
        (Or, Some((x, y))) => Some(Value::Int(x | y)),
        (Xor, Some((x, y))) => Some(Value::Int(x ^ y)),
        (Add, None) => Some(Value::Float(a.float() + b.float())),
        (Sub, None) => Some(Value::Float(a.float() - b.float())),
        (Mul, None) => Some(Value::Float(a.float() * b.float())),
        _ => None,
    }
}

/// The items of the constant iterable `it` under `env`: `range(..)` of integers (at most
/// [`MAX_ITEMS`]), a tuple or list of constants.
fn items(it: &Expr, env: &Env) -> Option<Vec<Value>> {
    match &it.kind {
        ExprKind::Call { func, args, kwargs } if func.name == "range" && kwargs.is_empty() => {
            let bounds: Vec<i64> = args.iter().map(|a| eval(a, env)?.int()).collect::<Option<_>>()?;
            let (start, stop, step) = match bounds.as_slice() {
                [stop] => (0, *stop, 1),
                [start, stop] => (*start, *stop, 1),
                [start, stop, step] if *step != 0 => (*start, *stop, *step),
                _ => return None,
            };
            let mut out = Vec::new();
            let mut k = start;
            while (step > 0 && k < stop) || (step < 0 && k > stop) {
                if out.len() == MAX_ITEMS {
                    return None;
                }
                out.push(Value::Int(k));
                k = k.checked_add(step)?;
            }
            Some(out)
        }
        ExprKind::Tuple(xs) | ExprKind::List(xs) => xs.iter().map(|x| eval(x, env)).collect(),
        _ => None,
    }
}

/// The bindings of every item of the clauses, in Python's order (the first clause outermost),
/// those whose conditions hold; `None` where an iterable or a condition is not constant or there
/// are more than [`MAX_ITEMS`].
fn bindings(clauses: &[Clause], env: &mut Env, out: &mut Vec<Env>) -> Option<()> {
    let Some((c, rest)) = clauses.split_first() else {
        if out.len() == MAX_ITEMS {
            return None;
        }
        out.push(env.clone());
        return Some(());
    };
    for v in items(&c.it, env)? {
        env.push((c.var.name.clone(), v));
        let holds = match &c.cond {
            None => true,
            Some(cond) => eval(cond, env)?.truthy(),
        };
        if holds {
            bindings(rest, env, out)?;
        }
        env.pop();
    }
    Some(())
}

/// Whether `elt` binds one of `names` again (a comprehension of its own over the same name), where
/// replacing the names would be wrong.
fn rebinds(elt: &Expr, names: &[&str]) -> bool {
    let mut found = false;
    elt.clone().walk_mut(&mut |e| {
        if let ExprKind::Call { func, kwargs, .. } = &e.kind {
            if func.name.starts_with(crate::comprehension::GENERATOR) || func.name == crate::comprehension::LIST {
                found |= kwargs.iter().any(|(v, _)| names.contains(&v.name.as_str()));
            }
        }
    });
    found
}

/// `sum(elt for clauses)` from `start` (Python's `0` where `None`) as `start + e1 + e2 + ...` (see
/// the module's docs); `None` where the iteration is not over constants.
pub(crate) fn unrolled_sum(
    ids: &Cell<u32>,
    elt: &Expr,
    clauses: &[Clause],
    start: Option<Expr>,
    at: &Span,
) -> Option<Expr> {
    let names: Vec<&str> = clauses.iter().map(|c| c.var.name.as_str()).collect();
    if rebinds(elt, &names) {
        return None;
    }
    let mut envs = Vec::new();
    bindings(clauses, &mut Vec::new(), &mut envs)?;
    let mut total = start.unwrap_or_else(|| mk(ids, ExprKind::Int(0), at.clone()));
    for env in envs {
        let mut item = fresh_copy(ids, elt);
        item.walk_mut(&mut |x| {
            if let ExprKind::Var(v) = &x.kind {
                if let Some(&(_, value)) = env.iter().rev().find(|(n, _)| *n == v.name) {
                    *x = value.literal(ids, &x.span);
                }
            }
        });
        // `a if c else b` of a constant `c` is the branch taken (Python evaluates only it), so
        // the branches may differ in type (`x_i64 if k == 0 else x * 0.5`).
        item.walk_mut(&mut |x| {
            let taken = match &x.kind {
                ExprKind::IfElse(parts) => eval(&parts[0], &Env::new()).map(Value::truthy),
                _ => None,
            };
            if let Some(taken) = taken {
                let ExprKind::IfElse(parts) = std::mem::replace(&mut x.kind, ExprKind::Int(0)) else {
                    unreachable!("matched: a conditional")
                };
                let [_, t, f] = *parts;
                *x = if taken { t } else { f };
            }
        });
        total = mk(ids, ExprKind::Binary(BinOp::Add, Box::new(total), Box::new(item)), at.clone());
    }
    Some(total)
}

//! Which values are Python numbers, "weak" in NumPy 2's promotion (NEP 50).
//!
//! NEP 50: a Python `int` or `float` takes the dtype of the NumPy operand beside it (`x_u8 + k`
//! is `uint8`, `x_f32 / len(x)` is `float32`), and an `int` that does not fit an integer dtype
//! is NumPy's `OverflowError` ("Python integer 300 out of bounds for uint8"); a NumPy scalar
//! (`np.int64(3)`, `x.sum()`, `x[0]`, a parameter `k: i64`) promotes as its dtype. The literals are
//! weak by their syntax ([`weak_of`]); this module lists, in one place ([`Checker::python_number`]),
//! the other expressions whose Python value is a Python number:
//! - a variable holding one: assigned from one (`m = len(x)`, `total = 0`), a `range` loop
//!   variable, a name unpacked from `x.shape`, a size symbol of a signature used as a value
//!   (`n` of `x: f64[n]`, NumPy's `x.shape[0]`);
//! - `len(x)`, `x.ndim`, `x.size`, `x.shape[k]` (`size`), `x.itemsize`, `x.nbytes`, the integers
//!   NumPy reads off a dtype (`np.iinfo(x.dtype).max`, `x.dtype.itemsize`), Python's `int(..)`,
//!   `float(..)` and `round(s)`;
//! - Python's arithmetic of Python numbers (`n - 1`, `m // 2`, `-k`, `k / 2`), `abs(k)`,
//!   Python's `min(k, 3)` and `max(..)`, and `a if c else b` of two of them;
//! - Python's bools: `True`, comparisons of Python numbers (`len(x) > 3`), `not`, and `and`/`or`
//!   of Python bools. Beside a NumPy value a Python bool is NumPy's `bool` (as before NEP 50), but
//!   arithmetic of two of them is Python's `int` (`True + True` is `2`:
//!   [`super::promote::promote_op`]), and `~True` (Python's `-2`) is refused.
//!
//! A variable that one assignment gives a NumPy scalar (`s = 0` ... `s = s + x[i]`) is a NumPy
//! scalar at every use (arrayc's variable has one type): the function is checked again with the
//! declaration made strong ([`Checker::strong`]). The checker records the weak non-literal
//! expressions in [`crate::Checked::weak`]; the lowering converts them to the other operand's
//! dtype and checks at run time that an integer fits it (`OverflowError`, a run-time error naming
//! the line).

use super::promote::{weak_in, weak_of, Weak};
use super::{Checker, Widening};
use crate::ast::{BoolOp, DType, Expr, ExprKind, UnOp};
use crate::builtin::{python_min_max, python_round, Builtin, Callee, MinMaxCall};
use crate::types::Ty;

impl Checker {
    /// The weak kind of `e` (checked): a literal ([`weak_of`]) or another Python number
    /// ([`Checker::python_number`], recorded when `e` was checked), `None` for a NumPy value.
    pub(crate) fn weak_of(&self, e: &Expr) -> Option<Weak> {
        weak_in(e, &self.types, &self.weak)
    }

    /// Records whether the checked `e` of type `t` is a Python number other than a literal.
    pub(crate) fn record_weak(&mut self, e: &Expr, t: &Ty) {
        let weak = matches!(t, Ty::Scalar(DType::I64 | DType::F64 | DType::Bool))
            && weak_of(e).is_none()
            && self.python_number(e);
        if weak {
            self.weak.insert(e.id);
        } else {
            self.weak.remove(&e.id);
        }
    }

    /// Whether the (checked, scalar) `e` is a Python `int` or `float` in NumPy code: the one list
    /// of the sources of weak values (this module's documentation).
    fn python_number(&self, e: &Expr) -> bool {
        let weak = |x: &Expr| self.weak_of(x).is_some();
        match &e.kind {
            ExprKind::Var(name) => self.lookup(&name.name).is_some_and(|v| v.py_number.is_some()),
            // Comparisons of Python numbers are Python bools (`len(x) > 3`).
            ExprKind::Binary(_, a, b) => weak(a) && weak(b),
            // Python's `not` is a Python bool whatever its operand; `and`/`or` of Python values one of them.
            ExprKind::BoolOp(BoolOp::Not, ..) => true,
            ExprKind::BoolOp(op, parts) => op.operands(parts).into_iter().all(weak),
            ExprKind::Unary(UnOp::Neg | UnOp::Not, a) => weak(a),
            // A question about dtypes chooses the branch at compile time (`crate::dtype_queries`).
            ExprKind::IfElse(parts) => match self.static_truth(&parts[0]) {
                Some(taken) => weak(&parts[if taken { 1 } else { 2 }]),
                None => weak(&parts[1]) && weak(&parts[2]),
            },
            ExprKind::Call { func, args, kwargs } => match self.callees.get(e.id.0 as usize).copied().flatten() {
                Some(Callee::Builtin(
                    Builtin::Len
                    | Builtin::Ndim
                    | Builtin::Size
                    | Builtin::Int
                    | Builtin::Float
                    | Builtin::Itemsize
                    | Builtin::Nbytes,
                )) => true,
                // `np.iinfo(x.dtype).max`, `x.dtype.itemsize` (`finfo`'s floats are NumPy scalars).
                Some(Callee::Builtin(Builtin::DTypeLimit)) => {
                    matches!(self.types.get(e.id.0 as usize), Some(Ty::Scalar(DType::I64)))
                }
                // Python's `round(s)` is a Python int.
                Some(Callee::Builtin(Builtin::Round)) => python_round(&func.name, args, kwargs.is_empty(), true),
                Some(Callee::Builtin(Builtin::Abs)) => args.iter().all(weak),
                Some(Callee::Builtin(Builtin::Min | Builtin::Max)) => {
                    matches!(python_min_max(&func.name, args, false), Some(MinMaxCall::Python(_)))
                        && args.iter().all(weak)
                }
                _ => false,
            },
            _ => false,
        }
    }

    /// The key of a variable declared at `key` holding a Python number, unless an assignment made
    /// it a NumPy scalar ([`Checker::strong`]).
    pub(crate) fn py_decl(&self, key: Widening) -> Option<Widening> {
        (!self.strong.contains(&key)).then_some(key)
    }

    /// A variable declared at `key` (a Python number) is assigned the value `value`: when that is
    /// not a Python number, the variable is a NumPy scalar, and the function is checked again.
    pub(crate) fn assign_weak(&mut self, key: Option<Widening>, value: &Expr) {
        if let Some(key) = key {
            if self.weak_of(value).is_none() && self.strong.insert(key) {
                self.widen_requested = true;
            }
        }
    }
}

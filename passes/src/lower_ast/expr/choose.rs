//! NumPy's `choose(a, [c0, c1, ...], mode=)`: the entries of `a` made indices by the mode (checked
//! to lie in `[0, n)` for `"raise"`, clipped for `"clip"`, taken modulo `n` for `"wrap"`), then
//! a chain of selections `where(i == 0, c0, where(i == 1, c1, ..))`, broadcast and fused like any
//! elementwise operation.

use super::retyped;
use crate::lower_ast::{LResult, Lowerer};
use arrayc_dialect::ir::{BinFn, ComputeFn, OpKind, ReduceKind, ValueId};
use arrayc_grammar::ast::{DType, Expr, ExprKind, Ident};
use arrayc_grammar::builtin::{choose_mode, ChooseMode};
use arrayc_grammar::types::Ty;

impl Lowerer<'_> {
    /// `choose(a, choices, mode=)` of the checked result type `ty`: the choices are the items of
    /// the list or tuple `args[1]`, converted to `ty`'s dtype (a Python int that does not fit it
    /// is NumPy's OverflowError here).
    pub(super) fn choose(&mut self, args: &[Expr], kwargs: &[(Ident, Expr)], ty: &Ty, e: &Expr) -> LResult<ValueId> {
        let dt = ty.dtype().expect("checked: a value");
        let (ExprKind::List(items) | ExprKind::Tuple(items)) = &args[1].kind else {
            unreachable!("checked: a list of choices")
        };
        let mode = choose_mode(Self::kwarg(kwargs, "mode")).expect("checked: a mode");
        let a = self.expr(&args[0])?;
        let aty = retyped(self.ty_of(&args[0]), DType::I64);
        let a = self.as_dtype(a, &aty, DType::I64)?;
        let mut vals = vec![];
        for item in items {
            let v = self.expr(item)?;
            self.check_python_int(item, v, dt);
            vals.push(v);
        }
        let n = items.len() as i64;
        let idx = match mode {
            ChooseMode::Raise => {
                self.check_choice_range(a, n);
                a
            }
            ChooseMode::Clip => {
                let (zero, last) = (self.i64_const(0), self.i64_const(n - 1));
                let low = self.binary(BinFn::Maximum, a, zero, &aty)?;
                self.binary(BinFn::Minimum, low, last, &aty)?
            }
            // Python's `%` (the divisor's sign): in `[0, n)`.
            ChooseMode::Wrap => {
                let count = self.i64_const(n);
                self.binary(BinFn::Rem, a, count, &aty)?
            }
        };
        let mut all = vec![idx];
        all.extend(vals);
        let v = self.broadcast_operands(&all, ty);
        let bty = match self.f.ty(v[0]).is_array() {
            true => retyped(ty, DType::Bool),
            false => Ty::Scalar(DType::Bool),
        };
        let last = v.len() - 1;
        let mut r = v[last];
        for j in (0..last).rev() {
            let k = self.i64_const(j as i64);
            let is = self.binary(BinFn::Eq, v[0], k, &bty)?;
            let other = if last == 1 { v[1] } else { r };
            r = self.elementwise(ComputeFn::Where, vec![is, v[j + 1], other], ty, e)?;
        }
        Ok(r)
    }

    /// Asserts that every entry of the `i64` index `a` (an array or a scalar) lies in `[0, n)`:
    /// NumPy's ValueError "invalid entry in choice array" (`choose`'s `mode="raise"`).
    fn check_choice_range(&mut self, a: ValueId, n: i64) {
        let extreme = |l: &mut Self, kind: ReduceKind| {
            if !l.f.ty(a).is_array() {
                return a;
            }
            let r = l.new_array(DType::I64, vec![]);
            l.emit(OpKind::Compute { func: ComputeFn::Reduce(kind, None), out: r, ins: vec![a] });
            l.load_element(r)
        };
        let (lowest, highest) = (extreme(self, ReduceKind::Min), extreme(self, ReduceKind::Max));
        let (zero, count) = (self.i64_const(0), self.i64_const(n));
        let cond = self.scalar_binary(BinFn::Ge, lowest, zero, DType::I64);
        let msg = "invalid entry {lhs} in `choose`'s index array: below 0 (NumPy's ValueError)".to_string();
        self.emit(OpKind::Assert { cond, msg });
        let cond = self.scalar_binary(BinFn::Lt, highest, count, DType::I64);
        let msg = "invalid entry {lhs} in `choose`'s index array of {rhs} choices (NumPy's ValueError)".to_string();
        self.emit(OpKind::Assert { cond, msg });
    }
}

//! NumPy's `linalg.solve`, `linalg.inv` and `linalg.det` (their types: `grammar/src/check/linalg.rs`)
//! as the host operation `arr.linalg` (`arrayc_runtime::linalg`, an LU factorisation with partial
//! pivoting, LAPACK's `getrf` as NumPy calls it): the operands cast to the result's dtype where they
//! differ, a run-time check of the sizes the checker could not compare, and a new array for the
//! result. `inv(a)` is `solve(a, eye(n))`; `det(a)` reads its 0-d result on the host;
//! `matrix_power(a, k)` is repeated squaring with matrix products (`dot`), as NumPy's.

use super::{LResult, Lowerer};
use arrayc_dialect::ir::{BinFn, ComputeFn, LinAlgFn, OpKind, Type, ValueId};
use arrayc_grammar::ast::{DType, Expr};
use arrayc_grammar::builtin::Builtin;
use arrayc_grammar::check::literal_int;
use arrayc_grammar::types::Ty;

impl Lowerer<'_> {
    /// A call of `linalg.solve`, `linalg.inv` or `linalg.det` (`b`, checked: its type is `ty`):
    /// its value; `None` for the other builtins.
    pub(crate) fn linalg(&mut self, b: Builtin, args: &[Expr], ty: &Ty, e: &Expr) -> LResult<Option<ValueId>> {
        if !matches!(b, Builtin::Solve | Builtin::Inv | Builtin::Det | Builtin::MatrixPower) {
            return Ok(None);
        }
        let all_args = args;
        let args = if b == Builtin::MatrixPower { &args[..1] } else { args };
        let dt = ty.dtype().expect("checked: a float result");
        let mut vals = vec![];
        for a in args {
            let v = self.expr(a)?;
            let t = self.ty_of(a).clone();
            vals.push(self.as_dtype(v, &t, dt)?);
        }
        let a = vals[0];
        let (n, m) = (self.dim(a, 0), self.dim(a, 1));
        // The checked sizes: the run-time checks only where the checker could not compare them.
        let first = |l: &Self, e: &Expr| match l.ty_of(e) {
            Ty::Array(_, s) => s[0].clone(),
            _ => unreachable!("checked: an array"),
        };
        let a_shape = match self.ty_of(&args[0]) {
            Ty::Array(_, s) => s.clone(),
            _ => unreachable!("checked: an array"),
        };
        if a_shape[0] != a_shape[1] {
            self.assert_same_size(
                n,
                m,
                &format!("{}: LinAlgError: the last 2 dimensions of a must be square", b.name()),
            );
        }
        let v = match b {
            Builtin::Det => {
                let out = self.new_array(dt, vec![]);
                self.emit(OpKind::LinAlg { func: LinAlgFn::Det, out, a, b: None });
                self.load_element(out)
            }
            Builtin::Solve => {
                let rhs = vals[1];
                let Type::Array(_, rank) = self.f.ty(rhs) else { unreachable!("checked: an array") };
                let k = self.dim(rhs, 0);
                if first(self, &args[1]) != a_shape[0] {
                    self.assert_same_size(
                        n,
                        k,
                        "linalg.solve: b has {rhs} rows where a has {lhs} (NumPy's ValueError)",
                    );
                }
                let sizes = (0..rank).map(|axis| self.dim(rhs, axis)).collect();
                self.solve_into(a, rhs, sizes, ty)
            }
            Builtin::Inv => self.inverse(a, n, ty)?,
            _ => {
                let k = literal_int(&all_args[1]).expect("checked: an integer literal");
                self.matrix_power(a, n, k, &args[0], ty, e)?
            }
        };
        Ok(Some(v))
    }

    /// `inv(a)` of the `n x n` matrix `a` (of `ty`'s dtype): `solve(a, eye(n))`.
    fn inverse(&mut self, a: ValueId, n: ValueId, ty: &Ty) -> LResult<ValueId> {
        let eye = self.identity(n, ty)?;
        Ok(self.solve_into(a, eye, vec![n, n], ty))
    }

    /// The `n x n` identity of `ty` (its dtype and its two sizes as checked).
    fn identity(&mut self, n: ValueId, ty: &Ty) -> LResult<ValueId> {
        let Ty::Array(_, shape) = ty else { unreachable!("checked: a matrix") };
        let offsets = self.diagonal_offsets(n, n, shape.clone())?;
        let zero = self.i64_const(0);
        let on =
            self.array_op(ComputeFn::Binary(BinFn::Eq), vec![offsets, zero], &Ty::Array(DType::Bool, shape.clone()))?;
        self.array_op(ComputeFn::Copy, vec![on], ty)
    }

    /// `matrix_power(a, k)` of the `n x n` matrix `a` (`a_expr` its expression, for `dot`'s operand
    /// types), as NumPy's: the identity for `k = 0`, a copy of `a` for `k = 1`, else repeated
    /// squaring of `a` (of `inv(a)` for `k < 0`), the bits of `|k|` from the lowest, each product a
    /// matrix product ([`Lowerer::dot`]: the library's or the fused kernel).
    fn matrix_power(&mut self, a: ValueId, n: ValueId, k: i64, a_expr: &Expr, ty: &Ty, e: &Expr) -> LResult<ValueId> {
        if k == 0 {
            return self.identity(n, ty);
        }
        let mut p = if k < 0 { self.inverse(a, n, ty)? } else { a };
        if k == 1 {
            return self.array_op(ComputeFn::Copy, vec![p], ty);
        }
        let operands = [a_expr.clone(), a_expr.clone()];
        let mut result: Option<ValueId> = None;
        let mut bits = k.unsigned_abs();
        while bits > 0 {
            if bits & 1 == 1 {
                result = Some(match result {
                    None => p,
                    Some(r) => self.dot(r, p, &operands, ty, e)?,
                });
            }
            bits >>= 1;
            if bits > 0 {
                p = self.dot(p, p, &operands, ty, e)?;
            }
        }
        Ok(result.expect("|k| >= 2 has a bit set"))
    }

    /// `arr.linalg` `solve` of `a` and `rhs` (both of the result's dtype) into a new array of
    /// `sizes` (`rhs`'s), whose checked type is `ty`.
    fn solve_into(&mut self, a: ValueId, rhs: ValueId, sizes: Vec<ValueId>, ty: &Ty) -> ValueId {
        let dt = ty.dtype().expect("checked: a float result");
        let out = self.new_array(dt, sizes);
        if let Ty::Array(_, shape) = ty {
            self.shapes.insert(out, shape.clone());
        }
        self.emit(OpKind::LinAlg { func: LinAlgFn::Solve, out, a, b: Some(rhs) });
        out
    }
}

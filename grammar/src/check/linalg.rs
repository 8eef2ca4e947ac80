//! NumPy's `linalg.solve(a, b)`, `linalg.inv(a)`, `linalg.det(a)`, `linalg.matrix_power(a, k)`,
//! `linalg.cholesky(a)` and `linalg.eigvalsh(a)` of one square matrix, and `linalg.svd(a,
//! compute_uv=False)`, `linalg.matrix_rank(a)` and `linalg.cond(a)` of one matrix: the operands'
//! ranks, sizes and the result's type. The lowering (`passes/src/lower_ast/linalg.rs`)
//! emits the host operation `arr.linalg`.

use super::builtins::Call;
use crate::ast::DType;
use crate::builtin::Builtin;
use crate::check::Checker;
use crate::types::{Size, Ty};

impl Checker {
    /// `linalg.solve(a, b)` (`b`'s shape), `linalg.inv(a)` (`a`'s shape), `linalg.det(a)` (a
    /// scalar): `a` a 2-d numeric array, square where both sizes are known (NumPy's `LinAlgError`;
    /// sizes known only at run time are checked then), `b` 1-d or 2-d with `a`'s size first. The
    /// dtype is NumPy's: `f32` when every operand is `f32`, else `f64` (integers and bools become
    /// `f64`). A stack of matrices (rank above 2) or a rank below is E0503.
    ///
    /// `linalg.matrix_power(a, k)`: `k` an integer literal; `a`'s type for `k >= 0` (products of
    /// `a`), the float type of `inv(a)` for `k < 0`.
    ///
    /// `linalg.cholesky(a)` (`a`'s shape) and `linalg.eigvalsh(a)` (`(n,)`) of a square `a`;
    /// `linalg.svd(a, compute_uv=False)` (`(min(m, n),)`), `linalg.cond(a)` (a float scalar) and
    /// `linalg.matrix_rank(a)` (an `i64` scalar) of any `m x n` `a`; `svd` without
    /// `compute_uv=False` is E0503 (the factors `u`, `vh` are not here).
    ///
    /// `linalg.pinv(a)` (`(n, m)` of an `m x n` `a`): its cutoff `rcond` (the second positional
    /// argument or keyword) and `rtol` are numeric scalars or `None`; both given is E0503 (NumPy's
    /// ValueError), and so is `rtol=None` of a matrix that is not float (NumPy's `finfo` error).
    pub(super) fn linalg(&mut self, c: &Call) -> Ty {
        let name = c.b.name();
        let mut c_args = c.args;
        let mut power = None;
        if c.b == Builtin::Pinv {
            c_args = &c.args[..1];
            let rcond = c.args.get(1).or(c.kwarg("rcond"));
            let rtol = c.kwarg("rtol");
            for v in rcond.into_iter().chain(rtol) {
                if matches!(v.kind, crate::ast::ExprKind::NoneLit) {
                    continue;
                }
                match self.value(v) {
                    Ty::Scalar(d) if d != DType::Bool => {}
                    Ty::Error => return Ty::Error,
                    other => {
                        self.error(
                            "E0503",
                            format!("`linalg.pinv`'s cutoff must be a numeric scalar or None, found {other}"),
                            v.span.clone(),
                            "not a numeric scalar",
                        );
                        return Ty::Error;
                    }
                }
            }
            if let (Some(r), Some(_)) = (rcond, rtol) {
                if !matches!(r.kind, crate::ast::ExprKind::NoneLit) {
                    self.error(
                        "E0503",
                        "`linalg.pinv` with both `rcond` and `rtol`: NumPy's ValueError, give one of them",
                        c.e.span.clone(),
                        "both cutoffs",
                    );
                    return Ty::Error;
                }
            }
        }
        if c.b == Builtin::MatrixPower {
            self.expr(&c.args[1]);
            match super::builtins::literal_int(&c.args[1]) {
                Some(k) => power = Some(k),
                None => {
                    self.error(
                        "E0503",
                        "`linalg.matrix_power`'s exponent must be an integer literal in arrayc",
                        c.args[1].span.clone(),
                        "not an integer literal",
                    );
                    return Ty::Error;
                }
            }
            c_args = &c.args[..1];
        }
        let mut dtypes = vec![];
        let mut shapes = vec![];
        for (k, a) in c_args.iter().enumerate() {
            let ranks: &[usize] = if k == 0 { &[2] } else { &[1, 2] };
            match self.value(a) {
                Ty::Array(d, s) if ranks.contains(&s.len()) => {
                    dtypes.push(d);
                    shapes.push(s);
                }
                Ty::Error => return Ty::Error,
                other => {
                    let want = if k == 0 { "a 2-d array (one matrix)" } else { "a 1-d or 2-d array" };
                    self.error("E0503", format!("`{name}` takes {want}, found {other}"), a.span.clone(), "wrong rank");
                    return Ty::Error;
                }
            }
        }
        let sa = &shapes[0];
        let square = !matches!(c.b, Builtin::Svd | Builtin::MatrixRank | Builtin::Cond | Builtin::Pinv);
        if c.b == Builtin::Svd && c.kwarg("compute_uv").is_none_or(|v| crate::builtin::bool_literal(v) != Some(false)) {
            self.error(
                "E0503",
                "`linalg.svd` with the factors `u`, `vh` is not supported: write `linalg.svd(a, compute_uv=False)` \
                 for the singular values",
                c.e.span.clone(),
                "not supported",
            );
            return Ty::Error;
        }
        if let (Some(n), Some(m), true) = (sa[0].as_const(), sa[1].as_const(), square) {
            if n != m {
                self.error(
                    "E0503",
                    format!("`{name}` of a {n}x{m} matrix: NumPy's LinAlgError, the last 2 dimensions must be square"),
                    c.args[0].span.clone(),
                    "not square",
                );
                return Ty::Error;
            }
        }
        if let Some(sb) = shapes.get(1) {
            if let (Some(n), Some(k)) = (sa[0].as_const(), sb[0].as_const()) {
                if n != k {
                    self.error(
                        "E0503",
                        format!(
                            "`linalg.solve` of a {n}x{n} matrix and a right-hand side of {k} rows (NumPy's ValueError)"
                        ),
                        c.args[1].span.clone(),
                        "rows do not match",
                    );
                    return Ty::Error;
                }
            }
        }
        let rtol_none = c.kwarg("rtol").is_some_and(|v| matches!(v.kind, crate::ast::ExprKind::NoneLit));
        if c.b == Builtin::Pinv && rtol_none && !dtypes[0].is_float() {
            self.error(
                "E0503",
                format!(
                    "`linalg.pinv(a, rtol=None)` of a {} matrix: NumPy's ValueError (`max(m, n) * eps` needs a float \
                     dtype); convert `a` with `f64(a)`, or leave `rtol` out",
                    dtypes[0].name()
                ),
                c.e.span.clone(),
                "no eps of an integer dtype",
            );
            return Ty::Error;
        }
        let d = if dtypes.iter().all(|d| *d == DType::F32) { DType::F32 } else { DType::F64 };
        if let Some(k) = power {
            let d = if k >= 0 { dtypes[0] } else { d };
            return Ty::Array(d, vec![sa[0].clone(), sa[0].clone()]);
        }
        match c.b {
            Builtin::Det | Builtin::Cond => Ty::Scalar(d),
            Builtin::MatrixRank => Ty::Scalar(DType::I64),
            Builtin::Inv | Builtin::Cholesky => Ty::Array(d, vec![sa[0].clone(), sa[0].clone()]),
            Builtin::Pinv => Ty::Array(d, vec![sa[1].clone(), sa[0].clone()]),
            Builtin::Eigvalsh => Ty::Array(d, vec![sa[0].clone()]),
            Builtin::Svd => {
                let k = match (sa[0].as_const(), sa[1].as_const()) {
                    (Some(m), Some(n)) => Size::lit(m.min(n)),
                    _ if sa[0] == sa[1] => sa[0].clone(),
                    _ => self.fresh(),
                };
                Ty::Array(d, vec![k])
            }
            _ => Ty::Array(d, shapes[1].iter().map(Size::clone).collect()),
        }
    }
}

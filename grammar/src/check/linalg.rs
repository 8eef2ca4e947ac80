//! NumPy's `linalg.solve(a, b)`, `linalg.inv(a)`, `linalg.det(a)`, `linalg.matrix_power(a, k)`,
//! `linalg.cholesky(a)` and `linalg.eigvalsh(a)` of one square matrix, and `linalg.svd(a,
//! compute_uv=False)`, `linalg.matrix_rank(a)` and `linalg.cond(a)` of one matrix: the operands'
//! ranks, sizes and the result's type. The lowering (`passes/src/lower_ast/linalg.rs`)
//! emits the host operation `arr.linalg`.

use super::builtins::Call;
use crate::ast::DType;
use crate::builtin::Builtin;
use crate::check::Checker;
use crate::diag::Diagnostic;
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
        if c.b == Builtin::Lstsq {
            c_args = &c.args[..2];
        }
        if matches!(c.b, Builtin::Pinv | Builtin::Lstsq) {
            if c.b == Builtin::Pinv {
                c_args = &c.args[..1];
            }
            let cut_pos = if c.b == Builtin::Pinv { 1 } else { 2 };
            let rcond = c.args.get(cut_pos).or(c.kwarg("rcond"));
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
                            format!("`{name}`'s cutoff must be a numeric scalar or None, found {other}"),
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
                    self.err(
                        Diagnostic::error(
                            "E0503",
                            "`linalg.matrix_power`'s exponent must be an integer literal in arrayc",
                            c.args[1].span.clone(),
                            "not an integer literal",
                        )
                        .with_help(
                            "for a power known at run time write the loop: `m = np.eye(n); for _ in range(k) { m = m @ a; }`",
                        ),
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
        let square = !matches!(
            c.b,
            Builtin::Svd | Builtin::MatrixRank | Builtin::Cond | Builtin::Pinv | Builtin::Qr | Builtin::Lstsq
        );
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
                            "`{name}` of a matrix of {n} rows and a right-hand side of {k} rows (NumPy's ValueError)"
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
            Builtin::Svd | Builtin::Qr | Builtin::Eigh | Builtin::Lstsq => self.factors(c, d, sa, shapes.get(1)),
            Builtin::Slogdet => Ty::Tuple(vec![Ty::Scalar(d), Ty::Scalar(d)]),
            _ => Ty::Array(d, shapes[1].iter().map(Size::clone).collect()),
        }
    }
}

impl Checker {
    /// `min(m, n)` of the sizes `m`, `n`: a literal where both are, `m` where they are one size,
    /// else a size known only at run time.
    fn min_size(&mut self, m: &Size, n: &Size) -> Size {
        match (m.as_const(), n.as_const()) {
            (Some(m), Some(n)) => Size::lit(m.min(n)),
            _ if m == n => m.clone(),
            _ => self.fresh(),
        }
    }

    /// The results of the factorisations of the `m x n` matrix `sa` (dtype `d`): `svd`'s `(u, s,
    /// vh)` (its `s` alone with `compute_uv=False`; `full_matrices` a bool literal, default true),
    /// `eigh`'s `(w, v)`, `qr`'s `(q, r)` (`mode`: `reduced`, `complete` or `r`, which gives `r`
    /// alone), `lstsq`'s `(x, residuals, rank, s)` (`rank` NumPy's `int32`) with `sb` the shape of `b` (residuals of a size
    /// known at run time: `k` or 0). The `mode` and bool keywords are checked with the keywords.
    fn factors(&mut self, c: &Call, d: DType, sa: &[Size], sb: Option<&Vec<Size>>) -> Ty {
        let (m, n) = (sa[0].clone(), sa[1].clone());
        let k = self.min_size(&m, &n);
        let flag = |name: &str| c.kwarg(name).and_then(crate::builtin::bool_literal).unwrap_or(true);
        match c.b {
            Builtin::Svd if !flag("compute_uv") => Ty::Array(d, vec![k]),
            Builtin::Svd => {
                let (p, q) = if flag("full_matrices") { (m.clone(), n.clone()) } else { (k.clone(), k.clone()) };
                Ty::Tuple(vec![Ty::Array(d, vec![m, p]), Ty::Array(d, vec![k]), Ty::Array(d, vec![q, n])])
            }
            Builtin::Eigh => Ty::Tuple(vec![Ty::Array(d, vec![n.clone()]), Ty::Array(d, vec![n.clone(), n])]),
            Builtin::Qr => match crate::builtin::qr_mode(c.kwarg("mode")) {
                Some(crate::builtin::QrMode::R) => Ty::Array(d, vec![k, n]),
                Some(crate::builtin::QrMode::Complete) => {
                    Ty::Tuple(vec![Ty::Array(d, vec![m.clone(), m.clone()]), Ty::Array(d, vec![m, n])])
                }
                _ => Ty::Tuple(vec![Ty::Array(d, vec![m, k.clone()]), Ty::Array(d, vec![k, n])]),
            },
            _ => {
                let sb = sb.expect("checked: lstsq has b");
                let mut sx = vec![n];
                sx.extend(sb.get(1).cloned());
                let residuals = self.fresh();
                Ty::Tuple(vec![
                    Ty::Array(d, sx),
                    Ty::Array(d, vec![residuals]),
                    // LAPACK's rank, NumPy's `int32` (where `matrix_rank` is `int64`).
                    Ty::Scalar(DType::I32),
                    Ty::Array(d, vec![k]),
                ])
            }
        }
    }

    /// `polyfit(x, y, deg)`: `x` a 1-d array, `y` 1-d or 2-d with `x`'s size first, `deg` a
    /// non-negative integer literal; the `f64` coefficients, `(deg + 1,)` or `(deg + 1, k)` (NumPy's
    /// `vander` promotes an `f32` `x` to `f64`, so its `lstsq` is of `f64`).
    pub(super) fn polyfit(&mut self, c: &Call) -> Ty {
        let (tx, ty) = (self.value(&c.args[0]), self.value(&c.args[1]));
        self.expr(&c.args[2]);
        let deg = super::builtins::literal_int(&c.args[2]);
        let (Ty::Array(_, sx), Ty::Array(_, sy)) = (&tx, &ty) else {
            if tx != Ty::Error && ty != Ty::Error {
                self.error(
                    "E0503",
                    format!("`polyfit` takes a 1-d `x` and a 1-d or 2-d `y`, found {tx} and {ty}"),
                    c.e.span.clone(),
                    "not arrays",
                );
            }
            return Ty::Error;
        };
        if sx.len() != 1 || !(1..=2).contains(&sy.len()) {
            self.error(
                "E0503",
                format!("`polyfit` takes a 1-d `x` and a 1-d or 2-d `y`, found {tx} and {ty} (NumPy's TypeError)"),
                c.e.span.clone(),
                "wrong rank",
            );
            return Ty::Error;
        }
        if let (Some(a), Some(b)) = (sx[0].as_const(), sy[0].as_const()) {
            if a != b {
                self.error(
                    "E0503",
                    format!("`polyfit` of {a} points `x` and {b} values `y`: NumPy's TypeError, expected x and y to have the same length"),
                    c.args[1].span.clone(),
                    "sizes differ",
                );
                return Ty::Error;
            }
        }
        let Some(deg) = deg.filter(|&d| d >= 0) else {
            self.error(
                "E0503",
                "`polyfit`'s degree must be a non-negative integer literal in arrayc (NumPy's ValueError below 0)",
                c.args[2].span.clone(),
                "not a non-negative integer literal",
            );
            return Ty::Error;
        };
        let mut s = vec![Size::lit(deg + 1)];
        s.extend(sy.get(1).cloned());
        Ty::Array(DType::F64, s)
    }
}

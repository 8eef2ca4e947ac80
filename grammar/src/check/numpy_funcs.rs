//! NumPy's everyday functions that are compositions of arrayc's operations (`docs/language.md`,
//! "Builtin functions"): `diff`, `outer`, `eye` and `identity`, the views `swapaxes` and
//! `moveaxis`, `trace`, `isclose` and `allclose`, `ptp` and `average`, `flatnonzero`, `argwhere`
//! `unique`, `searchsorted`, `percentile` and `quantile`, and `nonzero` (a tuple of index arrays),
//! with NumPy's dtypes, shapes and errors. Their lowering composes
//! views, elementwise operations and reductions (`passes/src/lower_ast/numpy_funcs.rs`); the NaN
//! reductions and `linalg.norm` are checked as reductions (`builtins.rs`).

use super::builtins::{literal_int, Call};
use super::promote::promote;
use super::Checker;
use crate::ast::{DType, Expr, ExprKind, Ident};
use crate::builtin::{moveaxis_axes, moveaxis_perm, quantile_dtypes, Builtin};
use crate::diag::Diagnostic;
use crate::types::{Size, Ty};

/// `t`'s shape with dtype `i64`.
fn with_i64(t: Ty) -> Ty {
    match t {
        Ty::Array(_, s) => Ty::Array(DType::I64, s),
        _ => Ty::Scalar(DType::I64),
    }
}

impl Checker {
    /// Checks a call of one of NumPy's composed functions of this file (`diff`, `outer`, ...) and
    /// returns its type (`Ty::Error` after reporting an error).
    pub(super) fn numpy_func(&mut self, c: &Call) -> Ty {
        use Builtin as B;
        match c.b {
            B::Diff => self.diff(c),
            B::Outer => self.outer(c),
            B::Eye | B::Identity | B::Tri => self.eye(c),
            B::Tril | B::Triu => self.tri(c),
            B::NanToNum => {
                let t = self.value(&c.args[0]);
                if c.bad || t.dtype().is_none() {
                    return Ty::Error;
                }
                t
            }
            B::Swapaxes | B::Moveaxis => self.permute_axes(c),
            B::Isclose | B::Allclose => {
                let ta = self.value(&c.args[0]);
                let tb = self.value(&c.args[1]);
                if ta.dtype().is_none() || tb.dtype().is_none() {
                    return Ty::Error;
                }
                match self.broadcast_all(&[&ta, &tb], DType::Bool, c.e) {
                    Ty::Error => Ty::Error,
                    _ if c.b == B::Allclose => Ty::Scalar(DType::Bool),
                    t => t,
                }
            }
            B::Flatnonzero | B::Argwhere | B::Unique => {
                let t = self.array_arg(c, &c.args[0]);
                let Ty::Array(d, s) = t else { return Ty::Error };
                let n = self.fresh();
                match c.b {
                    B::Unique => {
                        // NumPy's tuple `(values, index, inverse, counts)` of the parts asked for.
                        let parts = crate::builtin::unique_parts(|k| c.kwarg(k));
                        if parts == [false; 3] {
                            return Ty::Array(d, vec![n]);
                        }
                        let mut tys = vec![Ty::Array(d, vec![n.clone()])];
                        if parts[0] {
                            tys.push(Ty::Array(DType::I64, vec![n.clone()]));
                        }
                        if parts[1] {
                            tys.push(Ty::Array(DType::I64, s.clone()));
                        }
                        if parts[2] {
                            tys.push(Ty::Array(DType::I64, vec![n]));
                        }
                        Ty::Tuple(tys)
                    }
                    B::Flatnonzero => Ty::Array(DType::I64, vec![n]),
                    // NumPy's `(k, ndim)` array of the index tuples of the nonzero elements.
                    _ => Ty::Array(DType::I64, vec![n, Size::lit(s.len() as i64)]),
                }
            }
            B::Searchsorted => {
                let ta = self.value(&c.args[0]);
                let tv = self.value(&c.args[1]);
                match (&ta, tv.dtype()) {
                    (Ty::Array(_, s), Some(_)) if s.len() == 1 => with_i64(tv),
                    (Ty::Error, _) | (_, None) => Ty::Error,
                    _ => {
                        self.err(
                            Diagnostic::error(
                                "E0503",
                                format!("`searchsorted` needs a sorted 1-d array first, found {ta}"),
                                c.args[0].span.clone(),
                                "not 1-d",
                            )
                            .with_help("search a 1-d line of it: `searchsorted(a[i, :], v)`"),
                        );
                        Ty::Error
                    }
                }
            }
            B::Ptp => {
                let t = self.reduction(c);
                if t.dtype() == Some(DType::Bool) {
                    self.err(
                        Diagnostic::error(
                            "E0503",
                            "`ptp` of a bool array: NumPy's `-` of bools is a TypeError",
                            c.args[0].span.clone(),
                            "a bool array",
                        )
                        .with_help("convert first: `ptp(i64(x))`, or `max(x) != min(x)` for whether they differ"),
                    );
                    return Ty::Error;
                }
                t
            }
            B::Trace => {
                let t = self.array_arg(c, &c.args[0]);
                match t {
                    Ty::Array(d, s) if s.len() == 2 => Ty::Scalar(d.sum_dtype()),
                    Ty::Error => Ty::Error,
                    other => {
                        self.err(
                            Diagnostic::error(
                                "E0503",
                                format!("`trace` needs a 2-d array, found {other}"),
                                c.args[0].span.clone(),
                                "not 2-d",
                            )
                            .with_help("NumPy's `trace` of a higher rank sums along the first two axes: write `sum(diagonal(x[:, :, k]))` per `k`"),
                        );
                        Ty::Error
                    }
                }
            }
            B::Percentile | B::Quantile | B::NanPercentile | B::NanQuantile => self.quantile(c),
            B::Nonzero => {
                let t = self.array_arg(c, &c.args[0]);
                let Ty::Array(_, s) = t else { return Ty::Error };
                if s.is_empty() {
                    self.err(
                        Diagnostic::error(
                            "E0503",
                            "`nonzero` of a 0-d array (NumPy's ValueError: calling nonzero on 0d arrays is not allowed)",
                            c.args[0].span.clone(),
                            "a 0-d array",
                        )
                        .with_help("`flatnonzero(x)` gives the flat positions of the nonzero elements"),
                    );
                    return Ty::Error;
                }
                // One count of nonzero elements, the size of every index array.
                let n = self.fresh();
                Ty::Tuple(vec![Ty::Array(DType::I64, vec![n]); s.len()])
            }
            other => unreachable!("`{}` is not one of NumPy's composed functions", other.name()),
        }
    }

    /// `average(x, axis=k, weights=w)`: `mean`'s type without weights; with them (of `x`'s
    /// shape), the reduced shape of the dtypes of `x` and `w` promoted (with `f64` for an integer
    /// or bool `x`).
    pub(super) fn average(&mut self, c: &Call, kwargs: &[(Ident, Expr)]) -> Ty {
        let t = self.average_value(c, kwargs);
        // NumPy's `returned=True`: the average and the sum of the weights, of its shape and dtype.
        match kwargs.iter().find(|(k, _)| k.name == "returned") {
            Some((_, v)) if matches!(v.kind, ExprKind::Bool(true)) && t != Ty::Error => Ty::Tuple(vec![t.clone(), t]),
            _ => t,
        }
    }

    /// The type of `average`'s value: `mean`'s without `weights=`, else of the dtypes promoted
    /// (at least `f64` for integers); `w` of `x`'s shape, or 1-d of `x.shape[k]` with `axis=k`.
    fn average_value(&mut self, c: &Call, kwargs: &[(Ident, Expr)]) -> Ty {
        let t = self.reduction(c);
        let Some((_, we)) = kwargs.iter().find(|(k, _)| k.name == "weights") else { return t };
        let tw = self.value(we);
        let tx = self.types.get(c.args[0].id.0 as usize).cloned().unwrap_or(Ty::Error);
        let (Ty::Array(dx, sx), Ty::Array(dw, sw)) = (&tx, &tw) else {
            if tw != Ty::Error && tx != Ty::Error {
                self.error(
                    "E0503",
                    format!("`weights=` of `average` must be an array of `x`'s shape, found {tw} for {tx}"),
                    we.span.clone(),
                    "not an array of x's shape",
                );
            }
            return Ty::Error;
        };
        // NumPy's 1-d weights along one axis `k`: of `x.shape[k]` (checked at run time where the
        // sizes are not known to be equal).
        let along = match (c.axis, sw.as_slice()) {
            (Some((a, _)), [n]) if sx.len() > 1 => {
                let k = if a < 0 { a + sx.len() as i64 } else { a };
                usize::try_from(k).ok().and_then(|k| sx.get(k)).is_some_and(|s| s.provably_eq(n) != Some(false))
            }
            _ => false,
        };
        if sx != sw && !along {
            self.err(
                Diagnostic::error(
                    "E0503",
                    format!("`weights=` of `average` must have `x`'s shape, found {tw} for {tx}"),
                    we.span.clone(),
                    "another shape",
                )
                .with_help("NumPy's weights: of `x`'s shape, or 1-d of `x.shape[k]` with one `axis=k`"),
            );
            return Ty::Error;
        }
        let mut d = promote(*dx, None, *dw, None);
        if !dx.is_float() {
            d = promote(d, None, DType::F64, None);
        }
        match t {
            Ty::Array(_, s) => Ty::Array(d, s),
            Ty::Scalar(_) => Ty::Scalar(d),
            other => other,
        }
    }

    /// `percentile(x, q, axis=k)` and `quantile(x, q, axis=k)`: `x`'s shape reduced as `median`'s
    /// (every axis, or axis `k`), after `len(q)` for a 1-d `q`, of the result dtype of
    /// [`quantile_dtypes`]; `x` an array of numbers, `q` a number or a 1-d array of numbers.
    fn quantile(&mut self, c: &Call) -> Ty {
        let name = c.b.name();
        let t = self.reduction(c);
        let tx = self.types.get(c.args[0].id.0 as usize).cloned().unwrap_or(Ty::Error);
        let tq = self.value(&c.args[1]);
        let xd = match &tx {
            Ty::Array(DType::Bool, _) => {
                self.err(
                    Diagnostic::error(
                        "E0503",
                        format!("`{name}` of a bool array: NumPy's `-` of bools is a TypeError"),
                        c.args[0].span.clone(),
                        "a bool array",
                    )
                    .with_help(format!("convert first: `{name}(i64(x), q)`")),
                );
                return Ty::Error;
            }
            Ty::Array(d, _) => *d,
            Ty::Error => return Ty::Error,
            other => {
                self.error(
                    "E0503",
                    format!("`{name}` needs an array, found {other}"),
                    c.args[0].span.clone(),
                    "not an array",
                );
                return Ty::Error;
            }
        };
        let (qd, len) = match &tq {
            Ty::Scalar(d) if *d != DType::Bool => (*d, None),
            Ty::Array(d, s) if *d != DType::Bool && s.len() == 1 => (*d, Some(s[0].clone())),
            Ty::Error => return Ty::Error,
            other => {
                let range = if crate::builtin::quantile_in_percent(c.b) { "[0, 100]" } else { "[0, 1]" };
                self.err(
                    Diagnostic::error(
                        "E0503",
                        format!("`q` of `{name}` must be a number or a 1-d array of numbers, found {other}"),
                        c.args[1].span.clone(),
                        "not a number or a 1-d array",
                    )
                    .with_note(format!("NumPy's `q`: a scalar or 1-d array of values in {range}")),
                );
                return Ty::Error;
            }
        };
        let method = c.kwarg("method").and_then(crate::builtin::quantile_method).unwrap_or("linear");
        let dtypes = quantile_dtypes(c.b, method, xd, qd, len.is_some());
        let mut shape: Vec<Size> = len.into_iter().collect();
        match t {
            Ty::Array(_, s) => shape.extend(s),
            Ty::Scalar(_) => {}
            _ => return Ty::Error,
        }
        if shape.is_empty() {
            Ty::Scalar(dtypes.result)
        } else {
            Ty::Array(dtypes.result, shape)
        }
    }

    /// `diff(x, n=1, axis=-1)`: `x`'s dtype, the size along the axis less `n` (at least 0).
    fn diff(&mut self, c: &Call) -> Ty {
        let t = self.array_arg(c, &c.args[0]);
        let n = match c.args.get(1) {
            Some(ne) => {
                self.expr(ne);
                match literal_int(ne) {
                    Some(n) if c.n.is_none() => {
                        self.retype_literal(ne, Ty::Scalar(DType::I64));
                        Some(n)
                    }
                    Some(_) => {
                        self.error("E0502", "`diff` got `n` twice", ne.span.clone(), "also given as `n=`");
                        return Ty::Error;
                    }
                    None => {
                        self.err(
                            Diagnostic::error(
                                "E0503",
                                "`n` of `diff` must be an integer literal",
                                ne.span.clone(),
                                "not an integer literal",
                            )
                            .with_note("the number of differences decides the program's operations"),
                        );
                        return Ty::Error;
                    }
                }
            }
            None => c.n,
        }
        .unwrap_or(1);
        if n < 0 {
            let at = c.args.get(1).map_or(c.e.span.clone(), |a| a.span.clone());
            self.error("E0503", format!("order must be non-negative but got {n} (`n` of `diff`)"), at, "negative");
            return Ty::Error;
        }
        let Ty::Array(d, mut s) = t else { return Ty::Error };
        if s.is_empty() {
            self.error(
                "E0503",
                "`diff` requires input that is at least one dimensional",
                c.args[0].span.clone(),
                "a 0-d array",
            );
            return Ty::Error;
        }
        let k = match c.axis {
            Some((a, ae)) => match self.axis_in_range(a, &s, &ae.span) {
                Some(k) => k,
                None => return Ty::Error,
            },
            None => s.len() - 1,
        };
        s[k] = match s[k].as_const() {
            Some(m) => Size::lit((m - n).max(0)),
            None => s[k].sub(&Size::lit(n)),
        };
        Ty::Array(d, s)
    }

    /// `outer(a, b)` of arrays or scalars: `(size(a), size(b))`, the dtypes promoted (two bools: a
    /// bool, NumPy's logical product).
    fn outer(&mut self, c: &Call) -> Ty {
        // A scalar is one element, as NumPy's 0-d array.
        let as_array = |t: Ty| match t {
            Ty::Scalar(d) => Ty::Array(d, vec![]),
            t => t,
        };
        let ta = as_array(self.value(&c.args[0]));
        let tb = as_array(self.value(&c.args[1]));
        for (t, a) in [(&ta, &c.args[0]), (&tb, &c.args[1])] {
            if !matches!(t, Ty::Array(..) | Ty::Error) {
                self.error(
                    "E0503",
                    format!("`outer` needs arrays or scalars, found {t}"),
                    a.span.clone(),
                    "not an array",
                );
                return Ty::Error;
            }
        }
        let (Ty::Array(da, sa), Ty::Array(db, sb)) = (&ta, &tb) else { return Ty::Error };
        let d = promote(*da, None, *db, None);
        let count = |me: &mut Self, s: &[Size]| match s {
            [one] => one.clone(),
            _ => s.iter().try_fold(Size::lit(1), |p, z| p.mul(z)).unwrap_or_else(|| me.fresh()),
        };
        let (n, m) = (count(self, sa), count(self, sb));
        Ty::Array(d, vec![n, m])
    }

    /// `eye(n, m=n, k=0, dtype=f64)` and `identity(n, dtype=f64)`: `d[n, m]`.
    fn eye(&mut self, c: &Call) -> Ty {
        let mut sizes = vec![];
        for (i, a) in c.args.iter().enumerate() {
            let what = ["the number of rows", "the number of columns", "the diagonal `k`"][i];
            let Ok(v) = self.int_operand(a, &format!("{what} of `{}`", c.b.name())) else { return Ty::Error };
            if i == 2 {
                continue;
            }
            if let Some(z) = v.as_ref().and_then(|v| v.as_const()).filter(|&z| z < 0) {
                self.error("E0503", format!("negative dimensions are not allowed ({z})"), a.span.clone(), "negative");
                return Ty::Error;
            }
            sizes.push(v.unwrap_or_else(|| self.fresh()));
        }
        if sizes.len() == 1 {
            let n = sizes[0].clone();
            sizes.push(n);
        }
        Ty::Array(c.dtype.unwrap_or(DType::F64), sizes)
    }

    /// `tril(x, k)` and `triu(x, k)`: `x`'s shape (of a 1-d `x` of size `n`, `(n, n)`), `k` an
    /// integer scalar (positional or `k=`, checked with the keywords).
    fn tri(&mut self, c: &Call) -> Ty {
        let t = self.array_arg(c, &c.args[0]);
        if let Some(k) = c.args.get(1) {
            if self.int_operand(k, &format!("the diagonal `k` of `{}`", c.b.name())).is_err() {
                return Ty::Error;
            }
            if let ExprKind::Call { kwargs, .. } = &c.e.kind {
                if let Some((kw, _)) = kwargs.iter().find(|(kw, _)| kw.name == "k") {
                    self.err(
                        Diagnostic::error(
                            "E0502",
                            format!("`{}` got `k` twice, positionally and as `k=`", c.b.name()),
                            kw.span.clone(),
                            "`k` given again",
                        )
                        .with_help("give `k` once: `tril(x, k)` or `tril(x, k=k)`"),
                    );
                    return Ty::Error;
                }
            }
        }
        if c.bad {
            return Ty::Error;
        }
        match t {
            Ty::Array(d, s) if s.len() == 1 => Ty::Array(d, vec![s[0].clone(), s[0].clone()]),
            t => t,
        }
    }

    /// `swapaxes(x, a, b)` and `moveaxis(x, source, destination)`: `x`'s shape permuted.
    fn permute_axes(&mut self, c: &Call) -> Ty {
        let t = self.array_arg(c, &c.args[0]);
        let mut lists = vec![];
        for a in &c.args[1..] {
            let given = if c.b == Builtin::Moveaxis { moveaxis_axes(a) } else { literal_int(a).map(|k| vec![k]) };
            match &a.kind {
                ExprKind::Tuple(items) => {
                    for it in items {
                        self.expr(it);
                    }
                    self.set_ty(a.id, Ty::Unit);
                }
                _ => {
                    self.expr(a);
                }
            }
            let Some(axes) = given else {
                let what =
                    if c.b == Builtin::Moveaxis { "integer literals or tuples of them" } else { "integer literals" };
                self.error(
                    "E0503",
                    format!("the axes of `{}` must be {what}", c.b.name()),
                    a.span.clone(),
                    "not an axis",
                );
                return Ty::Error;
            };
            match &a.kind {
                ExprKind::Tuple(items) => {
                    for it in items {
                        self.retype_literal(it, Ty::Scalar(DType::I64));
                    }
                }
                _ => self.retype_literal(a, Ty::Scalar(DType::I64)),
            }
            lists.push((axes, a));
        }
        let Ty::Array(d, s) = t else { return Ty::Error };
        let mut resolved = vec![];
        for (axes, a) in &lists {
            let mut ks = vec![];
            for &x in axes {
                let Some(k) = self.axis_in_range(x, &s, &a.span) else { return Ty::Error };
                if ks.contains(&k) {
                    self.error(
                        "E0503",
                        format!("repeated axis {x} in `{}`'s argument", c.b.name()),
                        a.span.clone(),
                        "axis given twice",
                    );
                    return Ty::Error;
                }
                ks.push(k);
            }
            resolved.push(ks);
        }
        let perm = match c.b {
            Builtin::Swapaxes => {
                let mut p: Vec<usize> = (0..s.len()).collect();
                p.swap(resolved[0][0], resolved[1][0]);
                p
            }
            _ => {
                if resolved[0].len() != resolved[1].len() {
                    self.error(
                        "E0503",
                        "`source` and `destination` arguments of `moveaxis` must have the same number of elements",
                        c.e.span.clone(),
                        format!("{} and {} axes", resolved[0].len(), resolved[1].len()),
                    );
                    return Ty::Error;
                }
                moveaxis_perm(s.len(), &resolved[0], &resolved[1])
            }
        };
        Ty::Array(d, perm.iter().map(|&a| s[a].clone()).collect())
    }
}

//! NumPy's everyday shape and indexing idioms (`docs/language.md`, "Builtin functions"; issue 31):
//! the views `fliplr`, `flipud`, `rot90` and `transpose(x, axes)`, with NumPy's shapes, dtypes and
//! errors. Their lowering composes views (`passes/src/lower_ast/numpy_shapes.rs`); the reading of
//! their arguments is [`crate::numpy_shapes`].

use super::builtins::{literal_int, Call};
use super::Checker;
use crate::ast::{DType, Expr, ExprKind};
use crate::builtin::{bool_literal, Builtin};
use crate::diag::Diagnostic;
use crate::numpy_shapes::{permutation, rot90_args, transpose_axes};
use crate::types::{Size, Ty};

/// The value of a number literal (optionally negated), else `None`.
fn literal_number(e: &Expr) -> Option<f64> {
    match &e.kind {
        ExprKind::Int(v) => Some(*v as f64),
        ExprKind::Float(v) => Some(*v),
        ExprKind::Unary(crate::ast::UnOp::Neg, a) => literal_number(a).map(|v| -v),
        _ => None,
    }
}

impl Checker {
    /// Checks a call of one of the idioms of this file and returns its type (`Ty::Error` after
    /// reporting an error).
    pub(super) fn numpy_shape(&mut self, c: &Call) -> Ty {
        use Builtin as B;
        match c.b {
            B::Fliplr | B::Flipud => {
                let t = self.array_arg(c, &c.args[0]);
                let least = if c.b == B::Fliplr { 2 } else { 1 };
                match t {
                    Ty::Array(_, ref s) if s.len() < least => {
                        self.err(
                            Diagnostic::error(
                                "E0503",
                                format!("`{}` needs an array of at least {least} dimensions, found {t}", c.b.name()),
                                c.args[0].span.clone(),
                                "too few dimensions",
                            )
                            .with_note("NumPy's ValueError: Input must be >= 2-d"),
                        );
                        Ty::Error
                    }
                    t => t,
                }
            }
            B::AtLeast1d | B::AtLeast2d | B::AtLeast3d => {
                // An array or a scalar (rank 0), with NumPy's axes of size 1 added.
                let (d, s) = match self.value(&c.args[0]) {
                    Ty::Array(d, s) => (d, s),
                    Ty::Scalar(d) => (d, vec![]),
                    _ => return Ty::Error,
                };
                match crate::builtin::join_unit_axes(c.b, s.len()) {
                    Some(axes) => Ty::Array(d, crate::builtin::with_unit_axes(axes, &s)),
                    None => Ty::Array(d, s),
                }
            }
            B::Rot90 => self.rot90(c),
            B::Transpose => self.transpose_with_axes(c),
            B::TriuIndices | B::TrilIndices => self.tri_indices(c),
            B::Digitize => {
                let tx = self.value(&c.args[0]);
                let tb = self.value(&c.args[1]);
                if let Some(r) = c.args.get(2) {
                    if bool_literal(r).is_some() {
                        self.set_ty(r.id, Ty::Scalar(DType::Bool));
                    } else {
                        self.expr(r);
                        self.error(
                            "E0503",
                            "`right` of `digitize` must be `true` or `false`",
                            r.span.clone(),
                            "not a bool literal",
                        );
                        return Ty::Error;
                    }
                }
                if !self.sorted_line(c, &tb, &c.args[1], "bins") || !self.numeric(c, &tx, &c.args[0]) {
                    return Ty::Error;
                }
                match tx {
                    Ty::Array(_, s) => Ty::Array(DType::I64, s),
                    _ => Ty::Scalar(DType::I64),
                }
            }
            B::Interp => {
                let tx = self.value(&c.args[0]);
                let txp = self.value(&c.args[1]);
                let tfp = self.value(&c.args[2]);
                if !self.sorted_line(c, &txp, &c.args[1], "sample points `xp`")
                    || !self.sorted_line(c, &tfp, &c.args[2], "values `fp`")
                    || !self.numeric(c, &tx, &c.args[0])
                {
                    return Ty::Error;
                }
                if let (Ty::Array(_, a), Ty::Array(_, b)) = (&txp, &tfp) {
                    if a[0].provably_eq(&b[0]) == Some(false) {
                        self.error(
                            "E0401",
                            format!("`interp`: fp and xp are not of the same length ({} and {})", b[0], a[0]),
                            c.args[2].span.clone(),
                            "another length",
                        );
                        return Ty::Error;
                    }
                }
                match tx {
                    Ty::Array(_, s) => Ty::Array(DType::F64, s),
                    _ => Ty::Scalar(DType::F64),
                }
            }
            B::Histogram | B::HistogramBinEdges => self.histogram(c),
            B::Ix => {
                let n = c.args.len();
                let mut out = vec![];
                for (k, a) in c.args.iter().enumerate() {
                    match self.value(a) {
                        Ty::Array(d, s) if s.len() == 1 && d.is_int() => {
                            let mut shape = vec![Size::lit(1); n];
                            shape[k] = s[0].clone();
                            out.push(Ty::Array(d, shape));
                        }
                        Ty::Error => return Ty::Error,
                        t => {
                            self.err(
                                Diagnostic::error(
                                    "E0503",
                                    format!("`ix_` needs 1-d integer index arrays, found {t}"),
                                    a.span.clone(),
                                    "not a 1-d integer array",
                                )
                                .with_help("pass positions: `ix_([0, 1], [2, 3])`; for a mask, `nonzero(m)[0]`"),
                            );
                            return Ty::Error;
                        }
                    }
                }
                Ty::Tuple(out)
            }
            other => unreachable!("`{}` is not an idiom of numpy_shapes", other.name()),
        }
    }

    /// Whether `t` (of argument `e` of `c`, its `what`) is a 1-d numeric array, as `digitize`'s
    /// bins and `interp`'s samples must be (else E0503).
    fn sorted_line(&mut self, c: &Call, t: &Ty, e: &Expr, what: &str) -> bool {
        match t {
            Ty::Array(d, s) if s.len() == 1 && *d != DType::Bool => true,
            Ty::Error => false,
            t => {
                self.error(
                    "E0503",
                    format!("the {what} of `{}` must be a 1-d numeric array, found {t}", c.b.name()),
                    e.span.clone(),
                    "not a 1-d numeric array",
                );
                false
            }
        }
    }

    /// Whether `t` (of argument `e` of `c`) is a numeric scalar or array (else E0503).
    fn numeric(&mut self, c: &Call, t: &Ty, e: &Expr) -> bool {
        match t.dtype() {
            Some(d) if d != DType::Bool => true,
            _ if *t == Ty::Error => false,
            _ => {
                self.error(
                    "E0503",
                    format!("`{}` needs numbers, found {t}", c.b.name()),
                    e.span.clone(),
                    "not numeric",
                );
                false
            }
        }
    }

    /// `triu_indices(n, k=0, m=n)` and `tril_indices`: two `i64` index arrays of the positions on
    /// and above (below) diagonal `k` of an `(n, m)` matrix, row-major; their length is known when
    /// `n`, `k` and `m` are literals.
    fn tri_indices(&mut self, c: &Call) -> Ty {
        let mut known = vec![];
        let what = ["the size `n`", "the diagonal `k`", "the size `m`"];
        for (i, a) in c.args.iter().enumerate() {
            if self.int_operand(a, &format!("{} of `{}`", what[i], c.b.name())).is_err() {
                return Ty::Error;
            }
            known.push(literal_int(a));
        }
        if c.bad {
            return Ty::Error;
        }
        let n = known[0];
        let k = if c.args.len() > 1 { known[1] } else { c.kwarg("k").map_or(Some(0), literal_int) };
        let m = if c.args.len() > 2 { known[2] } else { c.kwarg("m").map_or(n, literal_int) };
        let len = match (n, k, m) {
            (Some(n), Some(k), Some(m)) => {
                let count = (0..n.max(0))
                    .map(|i| {
                        (0..m.max(0))
                            .filter(|&j| if c.b == Builtin::TriuIndices { j - i >= k } else { j - i <= k })
                            .count()
                    })
                    .sum::<usize>();
                Size::lit(count as i64)
            }
            _ => self.fresh(),
        };
        Ty::Tuple(vec![Ty::Array(DType::I64, vec![len.clone()]), Ty::Array(DType::I64, vec![len])])
    }

    /// `histogram(x, bins=10, range=(lo, hi), weights=w, density=b)`: NumPy's `(hist, bin_edges)`;
    /// `histogram_bin_edges` the edges alone. `bins` an integer (positive when a literal: `f64[bins
    /// + 1]` edges, `f32` for `f32` data) or 1-d numeric edges (kept as given, of their dtype; `m`
    /// edges give `m - 1` bins, and `range=` is not read, as NumPy's); `range` two numbers;
    /// `weights` an array of `x`'s rank (its sizes checked at run time), not bool. The counts are
    /// `i64`, the weights' dtype with `weights=`, `f64` with `density=true`.
    fn histogram(&mut self, c: &Call) -> Ty {
        let name = c.b.name();
        let tx = self.value(&c.args[0]);
        let bin_expr = c.args.get(1).or(c.kwarg("bins"));
        // `Ok(count)` (a size when affine) or `Err(edges)`: the edges' type.
        let bins: Result<Option<Size>, Ty> = match bin_expr {
            None => Ok(Some(Size::lit(10))),
            Some(b) => match self.value(b) {
                t @ Ty::Array(..) => {
                    if !self.sorted_line(c, &t, b, "bins") {
                        return Ty::Error;
                    }
                    Err(t)
                }
                t => match self.int_typed(b, t, &format!("the bin count of `{name}`")) {
                    Ok(s) => Ok(s),
                    Err(()) => return Ty::Error,
                },
            },
        };
        if let Some(r) = c.kwarg("range") {
            let ExprKind::Tuple(items) = &r.kind else {
                self.expr(r);
                self.error(
                    "E0503",
                    format!("`range=` of `{name}` must be a pair `(lo, hi)`"),
                    r.span.clone(),
                    "not a pair",
                );
                return Ty::Error;
            };
            self.set_ty(r.id, Ty::Unit);
            for it in items {
                let t = self.value(it);
                if !matches!(t, Ty::Scalar(d) if d != DType::Bool) && t != Ty::Error {
                    self.error(
                        "E0503",
                        format!("a bound of `range=` must be a number, found {t}"),
                        it.span.clone(),
                        "not a number",
                    );
                    return Ty::Error;
                }
            }
            if items.len() != 2 {
                self.error(
                    "E0503",
                    format!("`range=` of `{name}` must be a pair `(lo, hi)`"),
                    r.span.clone(),
                    "not a pair",
                );
                return Ty::Error;
            }
            if let (Some(lo), Some(hi)) = (literal_number(&items[0]), literal_number(&items[1])) {
                if lo > hi {
                    self.error(
                        "E0503",
                        format!("max must be larger than min in `range=` of `{name}`"),
                        r.span.clone(),
                        "lo > hi",
                    );
                    return Ty::Error;
                }
                if !(lo.is_finite() && hi.is_finite()) {
                    self.error(
                        "E0503",
                        format!("supplied range of [{lo}, {hi}] is not finite"),
                        r.span.clone(),
                        "not finite",
                    );
                    return Ty::Error;
                }
            }
        }
        if let Some(b) = bin_expr.and_then(literal_int).filter(|&b| b < 1) {
            let at = bin_expr.expect("given").span.clone();
            self.error("E0503", format!("`bins` of `{name}` must be positive, found {b}"), at, "not positive");
            return Ty::Error;
        }
        let weights = match c.kwarg("weights") {
            None => None,
            Some(w) => match (self.value(w), &tx) {
                (Ty::Error, _) => return Ty::Error,
                (Ty::Array(d, s), Ty::Array(_, sx)) if d != DType::Bool && s.len() == sx.len() => Some(d),
                (t, _) => {
                    self.err(
                        Diagnostic::error(
                            "E0503",
                            format!("`weights=` of `{name}` must be a numeric array of the data's shape, found {t}"),
                            w.span.clone(),
                            "not weights",
                        )
                        .with_note("NumPy's ValueError: weights should have the same shape as a")
                        .with_help("of bool weights (NumPy's bool counts), pass `weights=i64(w)`"),
                    );
                    return Ty::Error;
                }
            },
        };
        let density = c.kwarg("density").and_then(bool_literal) == Some(true);
        if c.bad || !self.numeric(c, &tx, &c.args[0]) {
            return Ty::Error;
        }
        if !tx.is_array() {
            self.error("E0503", format!("`{name}` needs an array, found {tx}"), c.args[0].span.clone(), "not an array");
            return Ty::Error;
        }
        let (n, edges) = match bins {
            Ok(n) => {
                let n = n.unwrap_or_else(|| self.fresh());
                // NumPy's edges are of the data's float dtype (`f32` stays), else `f64`.
                let fd = if tx.dtype() == Some(DType::F32) { DType::F32 } else { DType::F64 };
                (n.clone(), Ty::Array(fd, vec![n.add(&Size::lit(1))]))
            }
            Err(t) => {
                let m = t.shape().expect("an array")[0].clone();
                (m.sub(&Size::lit(1)), t)
            }
        };
        if c.b == Builtin::HistogramBinEdges {
            return edges;
        }
        let hd = if density { DType::F64 } else { weights.unwrap_or(DType::I64) };
        Ty::Tuple(vec![Ty::Array(hd, vec![n]), edges])
    }

    /// Types the integer literals of axes argument `e` (one, or a tuple or list of them) as `i64`,
    /// the tuple itself as `()` (a form, not a value).
    fn literal_axes(&mut self, e: &Expr) {
        match &e.kind {
            ExprKind::Tuple(items) | ExprKind::List(items) => {
                for it in items {
                    self.expr(it);
                    self.retype_literal(it, Ty::Scalar(DType::I64));
                }
                self.set_ty(e.id, Ty::Unit);
            }
            _ => {
                self.expr(e);
                self.retype_literal(e, Ty::Scalar(DType::I64));
            }
        }
    }

    /// E0503 at `e`: the axes of `c`'s builtin must be integer literals.
    fn not_literal_axes(&mut self, c: &Call, e: &Expr, what: &str) {
        self.err(
            Diagnostic::error(
                "E0503",
                format!("the {what} of `{}` must be integer literals", c.b.name()),
                e.span.clone(),
                "not integer literals",
            )
            .with_help("write them in the program, e.g. `transpose(x, (2, 0, 1))`"),
        );
    }

    /// `transpose(x, axes)` with axes (a tuple, `axes=`, or the method's integers): `x`'s shape
    /// permuted, result axis `i` being `x`'s axis `axes[i]` (NumPy's); E0503 unless the axes are a
    /// permutation of `x`'s (NumPy's ValueError "axes don't match array").
    fn transpose_with_axes(&mut self, c: &Call) -> Ty {
        let t = self.array_arg(c, &c.args[0]);
        let kw = c.kwarg("axes");
        for e in c.args[1..].iter().chain(kw) {
            self.literal_axes(e);
        }
        let axes = match transpose_axes(&c.args[1..], kw) {
            Ok(axes) => axes,
            Err(e) => {
                self.not_literal_axes(c, e, "axes");
                return Ty::Error;
            }
        };
        let Ty::Array(d, s) = t else { return Ty::Error };
        let Some(axes) = axes else { return Ty::Array(d, s.into_iter().rev().collect()) };
        let Some(perm) = permutation(&axes, s.len()) else {
            let at = kw.map_or(c.e.span.clone(), |k| k.span.clone());
            let at = if kw.is_none() && c.args.len() > 1 {
                c.args[1].span.start..c.args[c.args.len() - 1].span.end
            } else {
                at
            };
            let shown: Vec<String> = axes.iter().map(|a| a.to_string()).collect();
            self.err(
                Diagnostic::error(
                    "E0503",
                    format!(
                        "axes ({}) don't match array: `transpose` of a rank-{} array needs a permutation of its {} axes",
                        shown.join(", "),
                        s.len(),
                        s.len()
                    ),
                    at,
                    "not a permutation",
                )
                .with_help(format!(
                    "name each axis once, from -{r} to {}, e.g. `({})`",
                    s.len() as i64 - 1,
                    (0..s.len()).rev().map(|a| a.to_string()).collect::<Vec<_>>().join(", "),
                    r = s.len()
                )),
            );
            return Ty::Error;
        };
        Ty::Array(d, perm.iter().map(|&a| s[a].clone()).collect())
    }

    /// `rot90(x, k=1, axes=(0, 1))`: `x`'s shape, axes `a` and `b` swapped for an odd `k`; `k` an
    /// integer literal, `axes` two distinct axes in range (NumPy's ValueErrors otherwise).
    fn rot90(&mut self, c: &Call) -> Ty {
        let t = self.array_arg(c, &c.args[0]);
        let kwargs = match &c.e.kind {
            ExprKind::Call { kwargs, .. } => kwargs.as_slice(),
            _ => &[],
        };
        let (k, axes) = rot90_args(c.args, kwargs);
        if let Some(k) = c.args.get(1) {
            self.literal_axes(k);
        }
        if let Some(a) = axes {
            self.literal_axes(a);
        }
        let k = match k {
            Some(e) => match literal_int(e) {
                Some(k) => k,
                None => {
                    self.not_literal_axes(c, e, "turns `k`");
                    return Ty::Error;
                }
            },
            None => 1,
        };
        let pair = match axes {
            None => Some(vec![0, 1]),
            Some(e) => match &e.kind {
                ExprKind::Tuple(items) | ExprKind::List(items) => items.iter().map(literal_int).collect(),
                _ => None,
            },
        };
        let Some(pair) = pair.filter(|p| p.len() == 2) else {
            let e = axes.expect("the default is a pair");
            self.error("E0503", "`axes` of `rot90` must be a pair of integer literals", e.span.clone(), "not a pair");
            return Ty::Error;
        };
        let Ty::Array(d, mut s) = t else { return Ty::Error };
        let span = axes.map_or(c.e.span.clone(), |e| e.span.clone());
        if s.len() < 2 {
            self.error(
                "E0503",
                format!("`rot90` needs an array of at least 2 dimensions, found rank {}", s.len()),
                c.args[0].span.clone(),
                "too few dimensions",
            );
            return Ty::Error;
        }
        let Some(a) = self.axis_in_range(pair[0], &s, &span) else { return Ty::Error };
        let Some(b) = self.axis_in_range(pair[1], &s, &span) else { return Ty::Error };
        if a == b {
            self.error("E0503", "the axes of `rot90` must be different", span, "the same axis twice");
            return Ty::Error;
        }
        if k.rem_euclid(2) == 1 {
            s.swap(a, b);
        }
        Ty::Array(d, s)
    }
}

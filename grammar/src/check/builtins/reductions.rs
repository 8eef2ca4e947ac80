//! Reductions (`sum`, `min`, ... over an axis, a tuple of axes or all; `keepdims`), the
//! arg-reductions and scans (`argmin`, `cumsum`, ...), and `dot`, a product reduced over one axis.

use super::Call;
use crate::ast::DType;
use crate::builtin::Builtin;
use crate::check::promote::{promote, weak_of};
use crate::check::shape::shape_str;
use crate::check::Checker;
use crate::diag::Diagnostic;
use crate::types::{Size, Ty};

impl Checker {
    /// NumPy's `keepdims=true`: reduction type `t` with a size-1 axis at each reduced position.
    pub(super) fn keep_dims(&self, c: &Call, t: Ty) -> Ty {
        let s = match self.types.get(c.args[0].id.0 as usize) {
            Some(Ty::Array(_, s)) => s.clone(),
            _ => return t,
        };
        let (Some(d), r) = (t.dtype(), s.len() as i64) else { return t };
        let reduced: Vec<i64> = match (&c.axes, c.axis) {
            (Some((ks, _)), _) => ks.clone(),
            (None, Some((k, _))) => vec![k],
            (None, None) => (0..r).collect(),
        };
        let reduced: Vec<i64> = reduced.iter().map(|&k| if k < 0 { k + r } else { k }).collect();
        let mut kept = match t {
            Ty::Array(_, ks) => ks.into_iter(),
            _ => vec![].into_iter(),
        };
        let q_array = matches!(c.args.get(1).and_then(|q| self.types.get(q.id.0 as usize)), Some(Ty::Array(..)));
        let mut shape: Vec<Size> = kept.by_ref().take(c.b.leading_axes(q_array)).collect();
        shape.extend(
            (0..r).map(|k| if reduced.contains(&k) { Size::lit(1) } else { kept.next().unwrap_or(Size::lit(1)) }),
        );
        Ty::Array(d, shape)
    }

    /// Python's builtin `min(a, b, ...)` / `max(a, b, ...)` ([`crate::builtin::python_min_max`];
    /// `b` is [`Builtin::Min`] or [`Builtin::Max`]): every argument a numeric or bool scalar (an
    /// array is E0318), no keyword (Python's `key=`/`default=` are E0502). The type is the scalars'
    /// promoted dtype (NumPy 2's rules with weak literals: `min(k, 3)` of an `i32` is `i32`; Python
    /// would keep each argument's own type, a static type cannot), and each literal takes it.
    pub(in crate::check) fn python_min_max(
        &mut self,
        b: Builtin,
        args: &[crate::ast::Expr],
        kwargs: &[(crate::ast::Ident, crate::ast::Expr)],
    ) -> Ty {
        let name = b.name();
        for (k, v) in kwargs {
            self.error(
                "E0502",
                format!("Python's `{name}` of several values takes no keyword `{}` in arrayc", k.name),
                k.span.clone(),
                "unknown keyword argument",
            );
            self.expr(v);
        }
        let mut acc: Option<(DType, Option<crate::check::promote::Weak>)> = None;
        let mut ok = kwargs.is_empty();
        for (k, a) in args.iter().enumerate() {
            // The caller checked the first argument.
            let t = if k == 0 { self.types[a.id.0 as usize].clone() } else { self.expr(a) };
            match t {
                Ty::Scalar(d) => {
                    let w = self.weak_of(a);
                    acc = Some(match acc {
                        None => (d, w),
                        Some((ad, aw)) => {
                            let p = promote(ad, aw, d, w);
                            (p, aw.and(w).map(|_| crate::check::promote::Weak::of_dtype(p)))
                        }
                    });
                }
                Ty::Error => ok = false,
                t => {
                    ok = false;
                    let elementwise = if b == Builtin::Min { "minimum" } else { "maximum" };
                    if matches!(&args[0].kind, crate::ast::ExprKind::Var(v) if v.name.starts_with(crate::comprehension::ACCUMULATOR))
                    {
                        // `max(e for ..)` of arrays ([`crate::comprehension`]'s `python_extreme`).
                        self.err(
                            Diagnostic::error(
                                "E0318",
                                format!("Python's `{name}` of a generator of arrays compares the arrays (each item a `{t}`)"),
                                a.span.clone(),
                                "an array",
                            )
                            .with_note(
                                "Python's ValueError for arrays of more than one element: \"the truth value of an array \
                                 with more than one element is ambiguous\"",
                            )
                            .with_help(format!(
                                "for the elementwise {elementwise} of the items write `np.{elementwise}.reduce([e for ..])` \
                                 or `np.{name}(np.array([e for ..]), axis=0)`"
                            )),
                        );
                        break;
                    }
                    self.err(
                        Diagnostic::error(
                            "E0318",
                            format!("Python's `{name}` of several values compares scalars, but this is a `{t}`"),
                            a.span.clone(),
                            "an array",
                        )
                        .with_help(format!(
                            "for the elementwise {elementwise} of arrays write `np.{elementwise}(a, b)`; for the \
                             {name} along an axis `np.{name}(x, axis=k)` (NumPy: \"the truth value of an array \
                             is ambiguous\")"
                        )),
                    );
                }
            }
        }
        let (Some((d, _)), true) = (acc, ok) else { return Ty::Error };
        for a in args.iter().filter(|a| weak_of(a).is_some()) {
            self.retype_literal(a, Ty::Scalar(d));
        }
        Ty::Scalar(d)
    }

    /// Reductions: `sum`, `prod`, `min`, `max`, `mean` (and those composed like them: `any`,
    /// `all`, `count_nonzero`, `var`, `std`, the `nan` reductions, `linalg.norm`, `median`), of every
    /// element or along `axis=`.
    pub(in crate::check) fn reduction(&mut self, c: &Call) -> Ty {
        let t = self.value(&c.args[0]);
        if let Some(mask) = c.kwarg("where") {
            // `sum(x, where=m)`: a bool `m` that broadcasts to `x`'s shape; `min`/`max` also need
            // `initial=` (NumPy's ValueError: the reduction has no identity to put where `m` is false).
            if matches!(c.b, Builtin::Min | Builtin::Max) && c.kwarg("initial").is_none() {
                self.err(
                    Diagnostic::error(
                        "E0503",
                        format!("`{}` with `where=` needs `initial=`", c.b.name()),
                        mask.span.clone(),
                        "no `initial=`",
                    )
                    .with_note("NumPy's ValueError: the reduction has no identity to use where the mask is false")
                    .with_help(format!(
                        "give the value of an empty selection: `{}(x, where=m, initial=v)`",
                        c.b.name()
                    )),
                );
                return Ty::Error;
            }
            let tm = self.value(mask);
            let fits = match (&t, &tm) {
                (Ty::Array(_, s), Ty::Array(DType::Bool, _) | Ty::Scalar(DType::Bool)) => {
                    matches!(self.broadcast_all(&[&t, &tm], DType::Bool, c.e), Ty::Array(_, b) if b == *s)
                }
                _ => false,
            };
            if !fits && t != Ty::Error && tm != Ty::Error {
                self.error(
                    "E0503",
                    format!("`{}`'s `where=` must be a bool array that broadcasts to {t}, found {tm}", c.b.name()),
                    mask.span.clone(),
                    "not a mask of `x`",
                );
                return Ty::Error;
            }
        }
        let Some(d) = t.dtype() else { return Ty::Error };
        if c.bad {
            return Ty::Error;
        }
        if c.ord {
            let ord = c.kwarg("ord").and_then(crate::builtin::norm_ord).expect("checked with the keywords");
            let vector = match (&t, c.axis, &c.axes) {
                (_, Some(_), _) => true,
                (Ty::Array(_, s), None, None) => s.len() == 1,
                _ => false,
            };
            let matrix = matches!((&t, c.axis, &c.axes), (Ty::Array(_, s), None, None) if s.len() == 2);
            if !(vector && ord.of_vectors() || matrix) {
                let why = if vector {
                    "NumPy's vector norms of this order are not supported (`1`, `2`, `inf`, `-inf` are)"
                } else {
                    "matrix norms take a 2-d array without `axis=`; vector norms a 1-d array or one `axis=k`"
                };
                self.err(
                    Diagnostic::error(
                        "E0503",
                        format!("`linalg.norm` of {t} with this `ord`: not supported"),
                        c.e.span.clone(),
                        "not supported",
                    )
                    .with_note(why),
                );
                return Ty::Error;
            }
        }
        if let (Some(want), Builtin::Sum | Builtin::Prod | Builtin::Mean) = (c.dtype, c.b) {
            // NumPy's `sum(x, dtype=d)`: `x` converted to `d`, accumulated and returned in `d`.
            let float = want.is_float();
            if want == DType::Bool || (c.b == Builtin::Mean && !float) {
                let what = if c.b == Builtin::Mean { "a float dtype (`f64`, `f32`)" } else { "a numeric dtype" };
                let d = c.kwarg("dtype").expect("given");
                self.error(
                    "E0503",
                    format!("`dtype=` of `{}` must be {what}", c.b.name()),
                    d.span.clone(),
                    "not supported",
                );
                return Ty::Error;
            }
        }
        let rd = match c.b {
            Builtin::Sum | Builtin::Prod | Builtin::Mean if c.dtype.is_some() => c.dtype.expect("given"),
            Builtin::Sum | Builtin::Prod | Builtin::NanSum => d.sum_dtype(),
            Builtin::Any | Builtin::All => DType::Bool,
            Builtin::CountNonzero => DType::I64,
            Builtin::Mean
            | Builtin::Var
            | Builtin::Std
            | Builtin::NanMean
            | Builtin::Norm
            | Builtin::Median
            | Builtin::Average => {
                if d == DType::F32 {
                    DType::F32
                } else {
                    DType::F64
                }
            }
            _ => d,
        };
        let (values, ae) = match (c.axis, &c.axes) {
            (Some((a, ae)), _) => (vec![a], ae),
            (None, Some((ks, ae))) => (ks.clone(), *ae),
            (None, None) => return Ty::Scalar(rd),
        };
        let shape = match &t {
            Ty::Array(_, s) => s.clone(),
            _ => Vec::new(),
        };
        let mut axes = vec![];
        for a in values {
            let Some(k) = self.axis_in_range(a, &shape, &ae.span) else { return Ty::Error };
            if axes.contains(&k) {
                self.error("E0503", format!("duplicate value {a} in `axis=`"), ae.span.clone(), "axis given twice");
                return Ty::Error;
            }
            axes.push(k);
        }
        let s: Vec<Size> = shape.into_iter().enumerate().filter(|(k, _)| !axes.contains(k)).map(|(_, s)| s).collect();
        if s.is_empty() {
            Ty::Scalar(rd)
        } else {
            Ty::Array(rd, s)
        }
    }

    /// Arg-reductions and scans along an axis: `argmin`, `argmax` (of every element, or along
    /// `axis=`), `cumsum`, `cumprod` (along `axis=`, which a 1-d array may leave out).
    pub(super) fn arg_reduction_or_scan(&mut self, c: &Call) -> Ty {
        let name = c.b.name();
        let t = self.value(&c.args[0]);
        if c.bad || t == Ty::Error {
            return Ty::Error;
        }
        let Ty::Array(d, shape) = t else {
            self.error("E0408", format!("`{name}` needs an array, found {t}"), c.args[0].span.clone(), "not an array");
            return Ty::Error;
        };
        let r = shape.len() as i64;
        let axis = match c.axis {
            None => None,
            Some((a, ae)) => match self.axis_in_range(a, &shape, &ae.span) {
                Some(k) => Some(k),
                None => return Ty::Error,
            },
        };
        let running = matches!(c.b, Builtin::MaximumAccumulate | Builtin::MinimumAccumulate);
        if matches!(c.b, Builtin::CumulativeSum | Builtin::CumulativeProd) {
            return self.cumulative(c, d, shape, axis);
        }
        let scan = running || matches!(c.b, Builtin::CumSum | Builtin::CumProd);
        if scan && axis.is_none() && r > 1 {
            // NumPy's scan without an axis: of the flattened array (row-major), 1-d.
            let n = shape.iter().try_fold(Size::lit(1), |p, s| p.mul(s)).unwrap_or_else(|| self.fresh());
            return Ty::Array(d.sum_dtype(), vec![n]);
        }
        match (scan, axis) {
            // NumPy: the flat (row-major) position of the first extreme element.
            (false, None) => Ty::Scalar(DType::I64),
            (false, Some(k)) => {
                let mut s = shape;
                s.remove(k);
                if s.is_empty() {
                    Ty::Scalar(DType::I64)
                } else {
                    Ty::Array(DType::I64, s)
                }
            }
            // A scan keeps the shape; it accumulates like `sum`/`prod`: a bool or integer array
            // gives i64.
            // A running maximum or minimum keeps the dtype.
            (true, _) if running => Ty::Array(d, shape),
            (true, _) => Ty::Array(d.sum_dtype(), shape),
        }
    }

    /// NumPy 2.1's `cumulative_sum(x, axis=k, include_initial=b)` (`cumulative_prod`) of the array
    /// `x` (dtype `d`, `shape`; `axis` checked): `cumsum`'s dtype and `x`'s shape, one longer
    /// along the axis with `include_initial=true`. Without `axis=`, an `x` of more than one
    /// dimension is E0503 (NumPy's ValueError).
    fn cumulative(&mut self, c: &Call, d: DType, mut shape: Vec<Size>, axis: Option<usize>) -> Ty {
        let name = c.b.name();
        let k = match axis {
            Some(k) => k,
            None if shape.len() == 1 => 0,
            None => {
                self.err(
                    Diagnostic::error(
                        "E0503",
                        format!("`{name}` of an array of more than one dimension needs `axis=`"),
                        c.args[0].span.clone(),
                        format!("{}-d, no axis", shape.len()),
                    )
                    .with_note("NumPy's ValueError: ``axis`` argument is required")
                    .with_help(format!("name the axis, `{name}(x, axis=0)`, or flatten first: `{name}(ravel(x))`")),
                );
                return Ty::Error;
            }
        };
        if c.kwarg("include_initial").and_then(crate::builtin::bool_literal) == Some(true) {
            shape[k] = shape[k].add(&Size::lit(1));
        }
        Ty::Array(d.sum_dtype(), shape)
    }

    /// `dot(a, b)` (`a @ b`) of 1-d and 2-d arrays, NumPy's `a @ b`; and of an n-d `a` and a 1-d
    /// `b`, where NumPy's `dot` and `matmul` both sum over `a`'s last axis (`rgb @ weights`).
    pub(super) fn dot(&mut self, c: &Call) -> Ty {
        let ta = self.value(&c.args[0]);
        let tb = self.value(&c.args[1]);
        if c.bad || ta == Ty::Error || tb == Ty::Error {
            return Ty::Error;
        }
        let (Ty::Array(da, sa), Ty::Array(db, sb)) = (&ta, &tb) else {
            let (which, t) = if ta.is_array() { (&c.args[1], &tb) } else { (&c.args[0], &ta) };
            self.err(
                Diagnostic::error(
                    "E0408",
                    format!("`dot` needs arrays, found {t}"),
                    which.span.clone(),
                    "not an array",
                )
                .with_help("multiply by a scalar with `*`"),
            );
            return Ty::Error;
        };
        if *da == DType::Bool || *db == DType::Bool {
            let which = if *da == DType::Bool { &c.args[0] } else { &c.args[1] };
            self.err(
                Diagnostic::error("E0301", "`dot` of bool arrays is not supported", which.span.clone(), "a bool array")
                    .with_help("convert with `i64(...)` or `f64(...)`"),
            );
            return Ty::Error;
        }
        let d = promote(*da, weak_of(&c.args[0]), *db, weak_of(&c.args[1]));
        if sa.len().max(sb.len()) > 2 && sa.len() >= 2 && sb.len() >= 2 && crate::builtin::is_matmul(c.e) {
            return self.batched_matmul(c, d, sa, sb);
        }
        let (inner_a, out): (&Size, Vec<Size>) = match (sa.len(), sb.len()) {
            (1, 1) => (&sa[0], vec![]),
            (ra, 1) if ra >= 2 => (&sa[ra - 1], sa[..ra - 1].to_vec()),
            (1, 2) => (&sa[0], vec![sb[1].clone()]),
            (2, 2) => (&sa[1], vec![sa[0].clone(), sb[1].clone()]),
            (ra, rb) => {
                self.err(
                    Diagnostic::error(
                        "E0403",
                        format!("`dot` of a {ra}-d and a {rb}-d array: only 1-d and 2-d operands are supported"),
                        c.e.span.clone(),
                        "operand ranks",
                    )
                    .with_help(
                        "`a @ b` (`matmul`) multiplies stacks of matrices of 2-d or more each; NumPy's n-d `dot` \
                         (a sum over `a`'s last axis and `b`'s second-to-last, every pair of stacks) is \
                         `einsum(..)` with the subscripts written out; an n-d `a` with a 1-d `b` is supported",
                    ),
                );
                return Ty::Error;
            }
        };
        if inner_a.sub(&sb[0]).as_const().is_some_and(|v| v != 0) {
            self.err(
                Diagnostic::error(
                    "E0401",
                    format!("`dot`: shapes {} and {} are not aligned", shape_str(sa), shape_str(sb)),
                    c.e.span.clone(),
                    format!("size {inner_a} vs {}", sb[0]),
                )
                .with_note("the last dimension of `a` must equal the first of `b` (no broadcasting)"),
            );
            return Ty::Error;
        }
        if out.is_empty() {
            Ty::Scalar(d)
        } else {
            Ty::Array(d, out)
        }
    }
}

impl Checker {
    /// NumPy's `a @ b` (`matmul`) of stacks of matrices, `a` of shape `(..., n, k)` and `b` of
    /// `(..., k, m)`, both at least 2-d and one more: the stacks' leading axes broadcast together, the
    /// result `(..., n, m)` of dtype `d`. A `k` known to differ is E0401.
    fn batched_matmul(&mut self, c: &Call, d: DType, sa: &[Size], sb: &[Size]) -> Ty {
        let (ra, rb) = (sa.len(), sb.len());
        if sa[ra - 1].sub(&sb[rb - 2]).as_const().is_some_and(|v| v != 0) {
            self.err(
                Diagnostic::error(
                    "E0401",
                    format!("`@`: shapes {} and {} are not aligned", shape_str(sa), shape_str(sb)),
                    c.e.span.clone(),
                    format!("size {} vs {}", sa[ra - 1], sb[rb - 2]),
                )
                .with_note("the last dimension of `a` must equal the second-to-last of `b`"),
            );
            return Ty::Error;
        }
        let stacks = [Ty::Array(d, sa[..ra - 2].to_vec()), Ty::Array(d, sb[..rb - 2].to_vec())];
        let Ty::Array(_, mut out) = self.broadcast_all(&[&stacks[0], &stacks[1]], d, c.e) else { return Ty::Error };
        out.extend([sa[ra - 2].clone(), sb[rb - 1].clone()]);
        Ty::Array(d, out)
    }
}

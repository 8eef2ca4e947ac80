//! The checks every builtin call shares, before its family's own: the keyword arguments (which
//! builtin takes which keyword, and each keyword's value) and the number of positional arguments.

use super::literal_int;
use super::Call;
use crate::ast::{DType, Expr, ExprKind, Ident};
use crate::check::Checker;
use crate::diag::Diagnostic;
use crate::types::Ty;

impl Checker {
    /// Checks the keyword arguments of a call against the builtin's (E0502) and records `dtype=`
    /// and `axis=` in `c`; a wrong one sets `c.bad`.
    pub(super) fn keywords<'a>(&mut self, c: &mut Call<'a>, kwargs: &'a [(Ident, Expr)]) {
        let row = c.b.row();
        for (k, v) in kwargs {
            let keepdims = k.name == "keepdims" && c.b.takes_keepdims();
            if !keepdims && !row.keywords.contains(&k.name.as_str()) {
                self.err(
                    Diagnostic::error(
                        "E0502",
                        format!("`{}` has no keyword argument `{}`", row.name, k.name),
                        k.span.clone(),
                        "unknown keyword argument",
                    )
                    .with_note(format!("usage: {}", row.usage_note())),
                );
                self.expr(v);
                c.bad = true;
                continue;
            }
            match k.name.as_str() {
                "keepdims" => match crate::builtin::bool_literal(v) {
                    Some(keep) => {
                        self.set_ty(v.id, Ty::Scalar(DType::Bool));
                        c.keepdims = keep;
                    }
                    None => {
                        self.expr(v);
                        self.error(
                            "E0503",
                            "`keepdims=` must be `true` or `false`",
                            v.span.clone(),
                            "not a bool literal",
                        );
                        c.bad = true;
                    }
                },
                "dtype" => match &v.kind {
                    ExprKind::DTypeName(d) => {
                        self.set_ty(v.id, Ty::Unit);
                        c.dtype = Some(*d);
                    }
                    // NumPy's `dtype=x.dtype`: the dtype of `x`.
                    // NumPy's `dtype=x.dtype`, `dtype=np.result_type(x, y)`: the dtype it names.
                    _ if crate::dtype_queries::is_dtype_expr(v) => match self.dtype_operand_of(v) {
                        Some(d) => c.dtype = Some(d),
                        None => c.bad = true,
                    },
                    _ => {
                        self.expr(v);
                        self.error(
                            "E0503",
                            "`dtype=` needs a type name (`f64`, `f32`, `i64`, `i32`, `i16`, `i8`, `u64`, `u32`, `u16`, `u8`, `bool`)",
                            v.span.clone(),
                            "not a type name",
                        );
                        c.bad = true;
                    }
                },
                "axis" if matches!(v.kind, ExprKind::Tuple(_)) => {
                    let ExprKind::Tuple(items) = &v.kind else { unreachable!("matched a tuple") };
                    for it in items {
                        self.expr(it);
                    }
                    self.set_ty(v.id, Ty::Unit);
                    let values: Option<Vec<i64>> = items.iter().map(literal_int).collect();
                    match values {
                        Some(ks) if c.b.reduces_axis_tuples() => {
                            for it in items {
                                self.retype_literal(it, Ty::Scalar(DType::I64));
                            }
                            c.axes = Some((ks, v));
                        }
                        _ => {
                            let what = if c.b.reduces_axis_tuples() {
                                "a tuple of integer literals"
                            } else {
                                "one integer literal"
                            };
                            self.error(
                                "E0503",
                                format!("`axis=` of `{}` must be {what}", row.name),
                                v.span.clone(),
                                "not allowed here",
                            );
                            c.bad = true;
                        }
                    }
                }
                "axis" | "decimals" | "n" => {
                    self.expr(v);
                    match literal_int(v) {
                        Some(a) => {
                            self.retype_literal(v, Ty::Scalar(DType::I64));
                            match k.name.as_str() {
                                "axis" => c.axis = Some((a, v)),
                                "n" => c.n = Some(a),
                                _ => c.decimals = Some(a),
                            }
                        }
                        // E0319, given by `expr`.
                        None if matches!(v.kind, ExprKind::NoneLit) => c.bad = true,
                        None => {
                            self.error(
                                "E0503",
                                format!("`{}=` must be an integer literal", k.name),
                                v.span.clone(),
                                "not an integer literal",
                            );
                            c.bad = true;
                        }
                    }
                }
                "constant_values" => {
                    let t = self.value(v);
                    if !matches!(t, Ty::Scalar(_) | Ty::Error) {
                        self.error(
                            "E0503",
                            format!("`constant_values=` must be a scalar, found {t}"),
                            v.span.clone(),
                            "not a scalar",
                        );
                        c.bad = true;
                    }
                }
                "ord" => match crate::builtin::norm_ord(v) {
                    Some(_) if matches!(v.kind, ExprKind::Var(_)) => {
                        // `'fro'`, `'nuc'`: NumPy's strings, words here, not variables.
                        self.set_ty(v.id, Ty::Unit);
                        c.ord = true;
                    }
                    Some(_) => {
                        self.expr(v);
                        c.ord = true;
                    }
                    None => {
                        self.expr(v);
                        self.err(
                            Diagnostic::error(
                                "E0503",
                                "`ord` of `linalg.norm` must be `1`, `2`, `inf` or `-inf` (vector norms), or \
                                 `'fro'`, `'nuc'`, `1`, `-1`, `2`, `-2`, `inf`, `-inf` (matrix norms)",
                                v.span.clone(),
                                "not supported",
                            )
                            .with_note("NumPy's other orders (`0`, `3`, ...) are not supported"),
                        );
                        c.bad = true;
                    }
                },
                "UPLO" => {
                    if matches!(&v.kind, ExprKind::Var(w) if w.name == "L" || w.name == "U") {
                        self.set_ty(v.id, Ty::Unit);
                    } else {
                        self.expr(v);
                        self.error("E0503", "`UPLO=` must be 'L' or 'U'", v.span.clone(), "not 'L' or 'U'");
                        c.bad = true;
                    }
                }
                "side" => {
                    if crate::builtin::searchsorted_right(v).is_some() {
                        self.set_ty(v.id, Ty::Unit);
                    } else {
                        self.error(
                            "E0503",
                            "`side=` must be `left` or `right` (NumPy's strings, written as names)",
                            v.span.clone(),
                            "not a side",
                        );
                        c.bad = true;
                    }
                }
                "method" => {
                    if crate::builtin::quantile_method(v).is_some() {
                        self.set_ty(v.id, Ty::Unit);
                    } else {
                        let help = "write one of NumPy's methods as a name: `method=linear` (the default), `lower`, \
                                    `higher`, `nearest`, `midpoint`, `inverted_cdf`, `averaged_inverted_cdf`, \
                                    `closest_observation`, `interpolated_inverted_cdf`, `hazen`, `weibull`, \
                                    `median_unbiased`, `normal_unbiased`";
                        self.err(
                            Diagnostic::error(
                                "E0503",
                                format!("`method=` of `{}` is not one of NumPy's methods", row.name),
                                v.span.clone(),
                                "not a method",
                            )
                            .with_help(help),
                        );
                        c.bad = true;
                    }
                }
                "indexing" => {
                    if crate::numpy_shapes::meshgrid_ij(v).is_some() {
                        self.set_ty(v.id, Ty::Unit);
                    } else {
                        self.expr(v);
                        self.error("E0503", "`indexing=` must be \"xy\" or \"ij\"", v.span.clone(), "not an indexing");
                        c.bad = true;
                    }
                }
                "mode" if c.b == crate::builtin::Builtin::Pad => {
                    if crate::numpy_shapes::pad_mode(v).is_some() {
                        self.set_ty(v.id, Ty::Unit);
                    } else {
                        self.expr(v);
                        self.error(
                            "E0503",
                            "`mode=` of `pad` must be \"constant\", \"edge\", \"wrap\", \"reflect\" or \"symmetric\"",
                            v.span.clone(),
                            "not a supported mode",
                        );
                        c.bad = true;
                    }
                }
                "mode" if c.b == crate::builtin::Builtin::Qr => {
                    if crate::builtin::qr_mode(Some(v)).is_some() {
                        self.set_ty(v.id, Ty::Unit);
                    } else {
                        self.error(
                            "E0503",
                            "`mode=` of `linalg.qr` must be 'reduced', 'complete' or 'r' ('raw' gives LAPACK's \
                             Householder reflectors, not in arrayc: use 'reduced' and `q`)",
                            v.span.clone(),
                            "not a supported mode",
                        );
                        c.bad = true;
                    }
                }
                "mode" if c.b == crate::builtin::Builtin::Choose => {
                    if crate::builtin::choose_mode(Some(v)).is_some() {
                        self.set_ty(v.id, Ty::Unit);
                    } else {
                        self.expr(v);
                        self.error(
                            "E0503",
                            "`mode=` of `choose` must be \"raise\", \"clip\" or \"wrap\"",
                            v.span.clone(),
                            "not a mode",
                        );
                        c.bad = true;
                    }
                }
                "mode" if c.b == crate::builtin::Builtin::Put => {
                    if matches!(&v.kind, crate::ast::ExprKind::Var(m) if m.name == "raise") {
                        self.set_ty(v.id, Ty::Unit);
                    } else {
                        self.err(
                            Diagnostic::error(
                                "E0321",
                                "arrayc's `put` takes only `mode=\"raise\"`",
                                v.span.clone(),
                                "another mode",
                            )
                            .with_help(
                                "wrap or clip the indices first: `put(a, ind % a.size, v)`, \
                                     `put(a, clip(ind, -a.size, a.size - 1), v)`",
                            ),
                        );
                        c.bad = true;
                    }
                }
                "mode" => {
                    if crate::builtin::convolve_mode(v).is_some() {
                        self.set_ty(v.id, Ty::Unit);
                    } else {
                        self.error(
                            "E0503",
                            "`mode=` must be `full`, `same` or `valid` (NumPy's strings, written as names)",
                            v.span.clone(),
                            "not a mode",
                        );
                        c.bad = true;
                    }
                }
                // `pinv`'s cutoffs may be `None` (`check/linalg.rs`).
                "rcond" => {}
                "rtol" if c.b == crate::builtin::Builtin::Pinv => {}
                // `right=` of `interp` is a number, of `digitize` a bool (below).
                "loc" | "scale" | "rtol" | "atol" | "nan" | "posinf" | "neginf" | "base" | "dx" | "initial"
                | "left" | "right"
                    if k.name != "right" || c.b != crate::builtin::Builtin::Digitize =>
                {
                    let t = self.value(v);
                    if !matches!(t, Ty::Scalar(d) if d.is_int() || d.is_float()) && t != Ty::Error {
                        self.error(
                            "E0503",
                            format!("`{}=` must be a numeric scalar, found {t}", k.name),
                            v.span.clone(),
                            "not a numeric scalar",
                        );
                        c.bad = true;
                    }
                }
                "endpoint" | "equal_nan" | "rowvar" | "right" | "return_index" | "return_inverse" | "return_counts"
                | "compute_uv" | "full_matrices" | "invert" | "increasing" | "density" | "include_initial" | "wrap"
                | "returned" => {
                    if matches!(v.kind, ExprKind::Bool(_)) {
                        self.set_ty(v.id, Ty::Scalar(DType::Bool));
                    } else {
                        self.expr(v);
                        self.error(
                            "E0503",
                            format!("`{}=` must be `true` or `false`", k.name),
                            v.span.clone(),
                            "not a bool literal",
                        );
                        c.bad = true;
                    }
                }
                // `average`'s and `trapezoid`'s, checked with them; `axes` and `range` of
                // `transpose`, `rot90` and `histogram` (`check/numpy_shapes.rs`), and `bins` of
                // `histogram` (a count or edges).
                "weights" | "x" | "where" | "axes" | "range" | "bins" => {}
                _ => {
                    // seed, minlength
                    if self.int_operand(v, &format!("`{}`", k.name)).is_err() {
                        c.bad = true;
                    }
                }
            }
        }
    }

    /// Whether the call has as many positional arguments as the builtin takes; if not, reports
    /// E0501 and checks the arguments.
    pub(super) fn arity(&mut self, c: &Call) -> bool {
        let row = c.b.row();
        let (lo, hi) = row.arity;
        let n = c.args.len();
        if (lo..=hi).contains(&n) {
            return true;
        }
        let want = if lo == hi {
            format!("{lo}")
        } else if hi == usize::MAX {
            format!("at least {lo}")
        } else {
            format!("{lo} to {hi}")
        };
        self.err(
            Diagnostic::error(
                "E0501",
                format!("`{}` takes {want} argument{} but {n} were given", row.name, if hi == 1 { "" } else { "s" }),
                c.e.span.clone(),
                "wrong number of arguments",
            )
            .with_note(format!("usage: {}", row.usage_note())),
        );
        for a in c.args {
            self.expr(a);
        }
        false
    }
}

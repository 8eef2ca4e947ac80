//! The builtin functions of `docs/language.md` and their signatures.

use super::promote::{promote, weak_of};
use super::shape::shape_str;
use super::Checker;
use crate::ast::{DType, Expr, ExprKind, Ident, UnOp};
use crate::diag::Diagnostic;
use crate::types::{Size, Ty};

/// Signature lines shown in arity notes.
fn usage(name: &str) -> &'static str {
    match name {
        "zeros" | "ones" | "empty" => "zeros(d0, d1, ..., dtype=f64)",
        "full" => "full(d0, ..., value, dtype=...)",
        "arange" => "arange(stop) | arange(start, stop) | arange(start, stop, step)",
        "linspace" => "linspace(start, stop, num)",
        "random" => "random(d0, ..., seed=0)",
        "copy" => "copy(x)",
        "transpose" | ".T" => "transpose(x) (or x.T)",
        "diagonal" => "diagonal(x)",
        "minimum" | "maximum" => "minimum(a, b) / maximum(a, b)",
        "where" => "where(cond, a, b)",
        "sum" | "prod" | "min" | "max" | "mean" => "sum(x) | sum(x, axis=k)",
        "argmin" | "argmax" => "argmin(x) | argmin(x, axis=k)",
        "add_at" => "add_at(x, idx, v) (x an array, idx an i64 array)",
        "compress" => "compress(mask, x) (x and mask 1-d, mask bool)",
        "bincount" => "bincount(idx, minlength=0) | bincount(idx, weights, minlength=0) (idx 1-d i64)",
        "cumsum" | "cumprod" => "cumsum(x) | cumsum(x, axis=k)",
        "take" => "take(x, idx) (x 1-d) | take(x, idx, axis=k) (idx an i64 array)",
        "dot" | "@" => "dot(a, b) or a @ b (a and b 1-d or 2-d)",
        "f64" | "f32" | "i64" | "bool" => "f64(x) (a cast)",
        _ => "abs(x) / sqrt(x) / exp(x) / log(x) / sin(x) / cos(x) / tanh(x)",
    }
}

fn dtype_of_name(n: &str) -> Option<DType> {
    Some(match n {
        "f64" => DType::F64,
        "f32" => DType::F32,
        "i64" => DType::I64,
        "bool" => DType::Bool,
        _ => return None,
    })
}

impl Checker {
    /// Checks a builtin call; `None` when `func` is not a builtin.
    pub fn builtin(&mut self, func: &Ident, args: &[Expr], kwargs: &[(Ident, Expr)], e: &Expr) -> Option<Ty> {
        let name = func.name.as_str();
        let allowed: &[&str] = match name {
            "zeros" | "ones" | "empty" | "full" => &["dtype"],
            "random" => &["seed"],
            "bincount" => &["minlength"],
            "sum" | "prod" | "min" | "max" | "mean" | "take" | "argmin" | "argmax" | "cumsum" | "cumprod" => &["axis"],
            "arange" | "linspace" | "copy" | "transpose" | ".T" | "diagonal" | "abs" | "sqrt" | "exp" | "log"
            | "sin" | "cos" | "tanh" | "minimum" | "maximum" | "where" | "f64" | "f32" | "i64" | "bool" | "dot"
            | "@" | "add_at" | "compress" => &[],
            _ => return None,
        };
        // Keyword arguments.
        let mut dtype_kw: Option<DType> = None;
        let mut axis_kw: Option<(i64, &Expr)> = None;
        let mut bad = false;
        for (k, v) in kwargs {
            if !allowed.contains(&k.name.as_str()) {
                self.err(
                    Diagnostic::error(
                        "E0502",
                        format!("`{name}` has no keyword argument `{}`", k.name),
                        k.span.clone(),
                        "unknown keyword argument",
                    )
                    .with_note(format!("usage: {}", usage(name))),
                );
                self.expr(v);
                bad = true;
                continue;
            }
            match k.name.as_str() {
                "dtype" => match &v.kind {
                    ExprKind::DTypeName(d) => {
                        self.set_ty(v.id, Ty::Unit);
                        dtype_kw = Some(*d);
                    }
                    _ => {
                        self.expr(v);
                        self.error(
                            "E0503",
                            "`dtype=` needs a type name (`f64`, `f32`, `i64`, `bool`)",
                            v.span.clone(),
                            "not a type name",
                        );
                        bad = true;
                    }
                },
                "axis" => {
                    self.expr(v);
                    match literal_int(v) {
                        Some(a) => {
                            self.retype_literal(v, Ty::Scalar(DType::I64));
                            axis_kw = Some((a, v));
                        }
                        None => {
                            self.error(
                                "E0503",
                                "`axis=` must be an integer literal",
                                v.span.clone(),
                                "not an integer literal",
                            );
                            bad = true;
                        }
                    }
                }
                _ => {
                    // seed, minlength
                    if self.int_operand(v, &format!("`{}`", k.name)).is_err() {
                        bad = true;
                    }
                }
            }
        }
        let arity = |c: &mut Checker, lo: usize, hi: usize| -> bool {
            if args.len() < lo || args.len() > hi {
                let want = if lo == hi {
                    format!("{lo}")
                } else if hi == usize::MAX {
                    format!("at least {lo}")
                } else {
                    format!("{lo} to {hi}")
                };
                c.err(
                    Diagnostic::error(
                        "E0501",
                        format!(
                            "`{name}` takes {want} argument{} but {} were given",
                            if hi == 1 { "" } else { "s" },
                            args.len()
                        ),
                        e.span.clone(),
                        "wrong number of arguments",
                    )
                    .with_note(format!("usage: {}", usage(name))),
                );
                for a in args {
                    c.expr(a);
                }
                false
            } else {
                true
            }
        };
        let t = match name {
            "zeros" | "ones" | "empty" | "random" => {
                let shape = self.dims(args);
                match shape {
                    Some(s) if !bad => {
                        Ty::Array(if name == "random" { DType::F64 } else { dtype_kw.unwrap_or(DType::F64) }, s)
                    }
                    _ => Ty::Error,
                }
            }
            "full" => {
                if !arity(self, 1, usize::MAX) {
                    return Some(Ty::Error);
                }
                let (dims, value) = args.split_at(args.len() - 1);
                let shape = self.dims(dims);
                let vt = self.value(&value[0]);
                let vd = match vt {
                    Ty::Scalar(d) => Some(d),
                    Ty::Error => None,
                    other => {
                        self.error(
                            "E0503",
                            format!("`full` needs a scalar fill value, found {other}"),
                            value[0].span.clone(),
                            "not a scalar",
                        );
                        None
                    }
                };
                match (shape, vd) {
                    (Some(s), Some(d)) if !bad => Ty::Array(dtype_kw.unwrap_or(d), s),
                    _ => Ty::Error,
                }
            }
            "arange" => {
                if !arity(self, 1, 3) {
                    return Some(Ty::Error);
                }
                let mut all_int = true;
                let mut ok = true;
                for a in args {
                    match self.value(a) {
                        Ty::Scalar(DType::I64) => {}
                        Ty::Scalar(DType::F64 | DType::F32) => all_int = false,
                        Ty::Error => ok = false,
                        other => {
                            self.error(
                                "E0503",
                                format!("`arange` needs numeric scalars, found {other}"),
                                a.span.clone(),
                                "not a numeric scalar",
                            );
                            ok = false;
                        }
                    }
                }
                if !ok {
                    return Some(Ty::Error);
                }
                if all_int {
                    let len = self.arange_len(args);
                    Ty::Array(DType::I64, vec![len])
                } else {
                    let f = self.fresh();
                    Ty::Array(DType::F64, vec![f])
                }
            }
            "linspace" => {
                if !arity(self, 3, 3) {
                    return Some(Ty::Error);
                }
                let mut ok = true;
                for a in &args[..2] {
                    match self.value(a) {
                        Ty::Scalar(DType::I64 | DType::F64 | DType::F32) => {}
                        Ty::Error => ok = false,
                        other => {
                            self.error(
                                "E0503",
                                format!("`linspace` needs numeric scalar bounds, found {other}"),
                                a.span.clone(),
                                "not a numeric scalar",
                            );
                            ok = false;
                        }
                    }
                }
                let n = match self.int_operand(&args[2], "`num`") {
                    Ok(v) => v.unwrap_or_else(|| self.fresh()),
                    Err(()) => return Some(Ty::Error),
                };
                if !ok {
                    return Some(Ty::Error);
                }
                Ty::Array(DType::F64, vec![n])
            }
            "copy" => {
                if !arity(self, 1, 1) {
                    return Some(Ty::Error);
                }
                self.value(&args[0])
            }
            "transpose" | ".T" => {
                if !arity(self, 1, 1) {
                    return Some(Ty::Error);
                }
                match self.value(&args[0]) {
                    Ty::Array(d, s) => Ty::Array(d, s.into_iter().rev().collect()),
                    Ty::Error => Ty::Error,
                    other => {
                        self.error(
                            "E0503",
                            format!("`transpose` needs an array, found {other}"),
                            args[0].span.clone(),
                            "not an array",
                        );
                        Ty::Error
                    }
                }
            }
            "diagonal" => {
                if !arity(self, 1, 1) {
                    return Some(Ty::Error);
                }
                match self.value(&args[0]) {
                    Ty::Array(d, s) if s.len() == 2 => {
                        let n = match (s[0].as_const(), s[1].as_const()) {
                            (Some(a), Some(b)) => Size::lit(a.min(b)),
                            _ if s[0].provably_eq(&s[1]) == Some(true) => s[0].clone(),
                            _ => self.fresh(),
                        };
                        Ty::Array(d, vec![n])
                    }
                    Ty::Error => Ty::Error,
                    other => {
                        self.error(
                            "E0503",
                            format!("`diagonal` needs a 2-d array, found {other}"),
                            args[0].span.clone(),
                            "not a 2-d array",
                        );
                        Ty::Error
                    }
                }
            }
            "abs" | "sqrt" | "exp" | "log" | "sin" | "cos" | "tanh" => {
                if !arity(self, 1, 1) {
                    return Some(Ty::Error);
                }
                let t = self.value(&args[0]);
                let d = match t.dtype() {
                    Some(d) => d,
                    None => return Some(Ty::Error),
                };
                let rd = if name == "abs" || d.is_float() { d } else { DType::F64 };
                with_dtype(&t, rd)
            }
            "minimum" | "maximum" => {
                if !arity(self, 2, 2) {
                    return Some(Ty::Error);
                }
                let ta = self.value(&args[0]);
                let tb = self.value(&args[1]);
                let (Some(da), Some(db)) = (ta.dtype(), tb.dtype()) else { return Some(Ty::Error) };
                let d = promote(da, weak_of(&args[0]), db, weak_of(&args[1]));
                self.broadcast_all(&[&ta, &tb], d, e)
            }
            "where" => {
                if !arity(self, 3, 3) {
                    return Some(Ty::Error);
                }
                let tc = self.value(&args[0]);
                let ta = self.value(&args[1]);
                let tb = self.value(&args[2]);
                if let Some(dc) = tc.dtype() {
                    if dc != DType::Bool {
                        self.error(
                            "E0503",
                            format!("`where` needs a bool condition, found {tc}"),
                            args[0].span.clone(),
                            "not bool",
                        );
                        return Some(Ty::Error);
                    }
                }
                let (Some(_), Some(da), Some(db)) = (tc.dtype(), ta.dtype(), tb.dtype()) else {
                    return Some(Ty::Error);
                };
                let d = promote(da, weak_of(&args[1]), db, weak_of(&args[2]));
                self.broadcast_all(&[&tc, &ta, &tb], d, e)
            }
            "dot" | "@" => {
                if !arity(self, 2, 2) {
                    return Some(Ty::Error);
                }
                let ta = self.value(&args[0]);
                let tb = self.value(&args[1]);
                if bad || ta == Ty::Error || tb == Ty::Error {
                    return Some(Ty::Error);
                }
                let (Ty::Array(da, sa), Ty::Array(db, sb)) = (&ta, &tb) else {
                    let (which, t) = if ta.is_array() { (&args[1], &tb) } else { (&args[0], &ta) };
                    self.err(
                        Diagnostic::error(
                            "E0408",
                            format!("`dot` needs arrays, found {t}"),
                            which.span.clone(),
                            "not an array",
                        )
                        .with_help("multiply by a scalar with `*`"),
                    );
                    return Some(Ty::Error);
                };
                if *da == DType::Bool || *db == DType::Bool {
                    let which = if *da == DType::Bool { &args[0] } else { &args[1] };
                    self.err(
                        Diagnostic::error(
                            "E0301",
                            "`dot` of bool arrays is not supported",
                            which.span.clone(),
                            "a bool array",
                        )
                        .with_help("convert with `i64(...)` or `f64(...)`"),
                    );
                    return Some(Ty::Error);
                }
                let d = promote(*da, weak_of(&args[0]), *db, weak_of(&args[1]));
                let (inner_a, out): (&Size, Vec<Size>) = match (sa.len(), sb.len()) {
                    (1, 1) => (&sa[0], vec![]),
                    (2, 1) => (&sa[1], vec![sa[0].clone()]),
                    (1, 2) => (&sa[0], vec![sb[1].clone()]),
                    (2, 2) => (&sa[1], vec![sa[0].clone(), sb[1].clone()]),
                    (ra, rb) => {
                        self.error(
                            "E0403",
                            format!("`dot` of a {ra}-d and a {rb}-d array: only 1-d and 2-d operands are supported"),
                            e.span.clone(),
                            "operand ranks",
                        );
                        return Some(Ty::Error);
                    }
                };
                if inner_a.sub(&sb[0]).as_const().is_some_and(|v| v != 0) {
                    self.err(
                        Diagnostic::error(
                            "E0401",
                            format!("`dot`: shapes {} and {} are not aligned", shape_str(sa), shape_str(sb)),
                            e.span.clone(),
                            format!("size {inner_a} vs {}", sb[0]),
                        )
                        .with_note("the last dimension of `a` must equal the first of `b` (no broadcasting)"),
                    );
                    return Some(Ty::Error);
                }
                if out.is_empty() {
                    Ty::Scalar(d)
                } else {
                    Ty::Array(d, out)
                }
            }
            "take" => {
                if !arity(self, 2, 2) {
                    return Some(Ty::Error);
                }
                let t = self.value(&args[0]);
                let ti = self.value(&args[1]);
                if bad || t == Ty::Error || ti == Ty::Error {
                    return Some(Ty::Error);
                }
                let Ty::Array(d, shape) = t else {
                    self.error(
                        "E0408",
                        format!("`take` needs an array, found {t}"),
                        args[0].span.clone(),
                        "not an array",
                    );
                    return Some(Ty::Error);
                };
                let Ty::Array(DType::I64, ishape) = ti else {
                    self.err(
                        Diagnostic::error(
                            "E0406",
                            format!("the indices of `take` must be an i64 array, found {ti}"),
                            args[1].span.clone(),
                            format!("has type {ti}"),
                        )
                        .with_help("index with a scalar as `x[i]`, or convert with `i64(...)`"),
                    );
                    return Some(Ty::Error);
                };
                let r = shape.len() as i64;
                let (a, ae) = match axis_kw {
                    Some((a, ae)) => (a, &ae.span),
                    None if r == 1 => (0, &e.span),
                    None => {
                        self.err(
                            Diagnostic::error(
                                "E0405",
                                format!("`take` of a rank-{r} array needs `axis=`"),
                                e.span.clone(),
                                "no axis",
                            )
                            .with_note("NumPy's `take` without an axis takes from the flattened array, which arrayc does not do"),
                        );
                        return Some(Ty::Error);
                    }
                };
                let Some(k) = self.axis_in_range(a, &shape, ae) else { return Some(Ty::Error) };
                let out = shape[..k].iter().chain(&ishape).chain(&shape[k + 1..]).cloned().collect();
                Ty::Array(d, out)
            }
            "bincount" => {
                // NumPy's `bincount`: counts (or sums of weights) per non-negative index, as many as
                // the largest index + 1 (at least `minlength`): a size known only at run time.
                if !arity(self, 1, 2) {
                    return Some(Ty::Error);
                }
                let ti = self.value(&args[0]);
                let tw = args.get(1).map(|w| self.value(w));
                if bad || ti == Ty::Error || tw.as_ref() == Some(&Ty::Error) {
                    return Some(Ty::Error);
                }
                let Ty::Array(DType::I64, ishape) = &ti else {
                    self.error(
                        "E0406",
                        format!("the indices of `bincount` must be a 1-d i64 array, found {ti}"),
                        args[0].span.clone(),
                        format!("has type {ti}"),
                    );
                    return Some(Ty::Error);
                };
                if ishape.len() != 1 {
                    self.error(
                        "E0409",
                        format!("`bincount` counts a 1-d array, found {ti}"),
                        args[0].span.clone(),
                        "not 1-d",
                    );
                    return Some(Ty::Error);
                }
                match &tw {
                    None => Ty::Array(DType::I64, vec![self.fresh()]),
                    Some(Ty::Array(d, ws)) if *d != DType::Bool && ws.len() == 1 => {
                        if ws[0].provably_eq(&ishape[0]) == Some(false) {
                            self.error(
                                "E0401",
                                format!("{} weights for {} indices", ws[0], ishape[0]),
                                args[1].span.clone(),
                                "one weight per index",
                            );
                            return Some(Ty::Error);
                        }
                        Ty::Array(DType::F64, vec![self.fresh()])
                    }
                    Some(t) => {
                        self.error(
                            "E0406",
                            format!("the weights of `bincount` must be a 1-d numeric array, found {t}"),
                            args[1].span.clone(),
                            format!("has type {t}"),
                        );
                        return Some(Ty::Error);
                    }
                }
            }
            "compress" => {
                // NumPy's `compress(mask, x)` of 1-d arrays: `x[mask]`, a filter.
                if !arity(self, 2, 2) {
                    return Some(Ty::Error);
                }
                let tm = self.value(&args[0]);
                let t = self.value(&args[1]);
                if bad || tm == Ty::Error || t == Ty::Error {
                    return Some(Ty::Error);
                }
                match (&tm, &t) {
                    (Ty::Array(DType::Bool, m), Ty::Array(d, s)) if m.len() == 1 && s.len() == 1 => {
                        if m[0].provably_eq(&s[0]) == Some(false) {
                            self.error(
                                "E0401",
                                format!("a boolean mask of size {} cannot filter an array of size {}", m[0], s[0]),
                                args[0].span.clone(),
                                "mask size differs",
                            );
                            return Some(Ty::Error);
                        }
                        Ty::Array(*d, vec![self.fresh()])
                    }
                    _ => {
                        self.error(
                            "E0409",
                            format!("`compress` takes a 1-d bool mask and a 1-d array, found {tm} and {t}"),
                            e.span.clone(),
                            "not a 1-d mask and array",
                        );
                        return Some(Ty::Error);
                    }
                }
            }
            "add_at" => {
                // NumPy's `np.add.at(x, idx, v)` or `np.add.at(x, (i, j), v)`: adds `v` at the
                // indices, every value (repeated indices accumulate); `v` broadcasts to
                // `B + x.shape[c:]`, `B` the broadcast shape of the c index arrays.
                if !arity(self, 3, 3) {
                    return Some(Ty::Error);
                }
                let t = self.value(&args[0]);
                // One index array, or a tuple of them, one per leading axis (`(i, j)`).
                let index = match &args[1].kind {
                    ExprKind::Tuple(items) => items.iter().collect::<Vec<_>>(),
                    _ => vec![&args[1]],
                };
                let tis: Vec<Ty> = index.iter().map(|e| self.value(e)).collect();
                let tv = self.value(&args[2]);
                if bad || tis.contains(&Ty::Error) || [&t, &tv].contains(&&Ty::Error) {
                    return Some(Ty::Error);
                }
                let Ty::Array(d, shape) = t else {
                    self.error(
                        "E0408",
                        format!("`add_at` needs an array, found {t}"),
                        args[0].span.clone(),
                        "not an array",
                    );
                    return Some(Ty::Error);
                };
                let mut shapes = vec![];
                for (e, ti) in index.iter().zip(&tis) {
                    let Ty::Array(DType::I64, ishape) = ti else {
                        // The index arrays before this one are checked first, in order.
                        if self.broadcast_index_arrays(std::mem::take(&mut shapes)).is_some() {
                            self.error(
                                "E0406",
                                format!("the indices of `add_at` must be i64 arrays, found {ti}"),
                                e.span.clone(),
                                format!("has type {ti}"),
                            );
                        }
                        return Some(Ty::Error);
                    };
                    shapes.push((e.span.clone(), ishape.as_slice()));
                }
                let Some(b) = self.broadcast_index_arrays(shapes) else { return Some(Ty::Error) };
                if index.len() > shape.len() {
                    self.error(
                        "E0403",
                        format!("too many index arrays: {} for an array of rank {}", index.len(), shape.len()),
                        args[1].span.clone(),
                        "one per leading axis at most",
                    );
                    return Some(Ty::Error);
                }
                // A tuple of index arrays is typed as their broadcast shape (the lowering's `B`).
                self.set_ty(args[1].id, Ty::Array(DType::I64, b.clone()));
                let target: Vec<Size> = b.iter().chain(&shape[index.len()..]).cloned().collect();
                let vs = match &tv {
                    Ty::Array(_, s) => s.clone(),
                    _ => vec![],
                };
                if let Err(be) = self.fits_into(&vs, &target) {
                    self.error(
                        "E0401",
                        format!(
                            "a value of shape {} cannot be broadcast to the indexed shape {}",
                            shape_str(&vs),
                            shape_str(&target)
                        ),
                        args[2].span.clone(),
                        format!("size {} vs {}", be.left, be.right),
                    );
                    return Some(Ty::Error);
                }
                let vd = tv.dtype().expect("a value with a dtype");
                let rd = promote(d, None, vd, weak_of(&args[2]));
                if !super::promote::same_kind(rd, d) {
                    self.error(
                        "E0304",
                        format!("cannot add {} values into `add_at`'s {} array", vd.name(), d.name()),
                        args[2].span.clone(),
                        format!("has dtype {}", vd.name()),
                    );
                    return Some(Ty::Error);
                }
                Ty::Unit
            }
            "argmin" | "argmax" | "cumsum" | "cumprod" => {
                if !arity(self, 1, 1) {
                    return Some(Ty::Error);
                }
                let t = self.value(&args[0]);
                if bad || t == Ty::Error {
                    return Some(Ty::Error);
                }
                let Ty::Array(d, shape) = t else {
                    self.error(
                        "E0408",
                        format!("`{name}` needs an array, found {t}"),
                        args[0].span.clone(),
                        "not an array",
                    );
                    return Some(Ty::Error);
                };
                let r = shape.len() as i64;
                let axis = match axis_kw {
                    None => None,
                    Some((a, ae)) => match self.axis_in_range(a, &shape, &ae.span) {
                        Some(k) => Some(k),
                        None => return Some(Ty::Error),
                    },
                };
                let scan = name.starts_with("cum");
                if scan && axis.is_none() && r > 1 {
                    self.err(
                        Diagnostic::error(
                            "E0405",
                            format!("`{name}` of a rank-{r} array needs `axis=`"),
                            e.span.clone(),
                            "no axis",
                        )
                        .with_note(format!(
                            "NumPy's `{name}` without an axis scans the flattened array, which arrayc does not do"
                        )),
                    );
                    return Some(Ty::Error);
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
                    // A scan keeps the shape; it accumulates like `sum`/`prod`: a bool or i64 array
                    // gives i64.
                    (true, _) => Ty::Array(if d == DType::Bool { DType::I64 } else { d }, shape),
                }
            }
            "sum" | "prod" | "min" | "max" | "mean" => {
                if !arity(self, 1, 1) {
                    return Some(Ty::Error);
                }
                let t = self.value(&args[0]);
                let Some(d) = t.dtype() else { return Some(Ty::Error) };
                if bad {
                    return Some(Ty::Error);
                }
                let rd = match name {
                    "sum" | "prod" => match d {
                        DType::Bool | DType::I64 => DType::I64,
                        f => f,
                    },
                    "mean" => {
                        if d == DType::F32 {
                            DType::F32
                        } else {
                            DType::F64
                        }
                    }
                    _ => d,
                };
                match axis_kw {
                    None => Ty::Scalar(rd),
                    Some((a, ae)) => {
                        let shape = match &t {
                            Ty::Array(_, s) => s.clone(),
                            _ => Vec::new(),
                        };
                        let Some(k) = self.axis_in_range(a, &shape, &ae.span) else { return Some(Ty::Error) };
                        let mut s = shape;
                        s.remove(k);
                        if s.is_empty() {
                            Ty::Scalar(rd)
                        } else {
                            Ty::Array(rd, s)
                        }
                    }
                }
            }
            _ => {
                // casts
                if !arity(self, 1, 1) {
                    return Some(Ty::Error);
                }
                let t = self.value(&args[0]);
                match dtype_of_name(name) {
                    Some(d) if t.dtype().is_some() => with_dtype(&t, d),
                    _ => Ty::Error,
                }
            }
        };
        Some(if bad { Ty::Error } else { t })
    }

    /// Axis `a` (negative counts from the end) of an array of shape `shape`, or E0405 at `span`
    /// (the `axis=` argument) when it is out of range.
    fn axis_in_range(&mut self, a: i64, shape: &[Size], span: &crate::ast::Span) -> Option<usize> {
        let r = shape.len() as i64;
        let k = if a < 0 { a.saturating_add(r) } else { a };
        if (0..r).contains(&k) {
            return Some(k as usize);
        }
        self.err(
            Diagnostic::error(
                "E0405",
                format!("axis {a} is out of range for an array of rank {r}"),
                span.clone(),
                "bad axis",
            )
            .with_note(format!(
                "the argument has shape {}; valid axes are -{r} ..= {}",
                shape_str(shape),
                r - 1
            )),
        );
        None
    }

    /// Checks dimension arguments (`i64` scalars) and returns their sizes.
    fn dims(&mut self, args: &[Expr]) -> Option<Vec<Size>> {
        let mut out = Vec::new();
        let mut ok = true;
        for a in args {
            if let ExprKind::Tuple(items) = &a.kind {
                // NumPy's `zeros((2, 3))`: here the sizes are separate arguments.
                for i in items {
                    self.expr(i);
                }
                self.err(
                    Diagnostic::error(
                        "E0503",
                        "array sizes are separate arguments, not a tuple",
                        a.span.clone(),
                        "a tuple",
                    )
                    .with_help("drop the parentheses: `zeros(2, 3)` is NumPy's `zeros((2, 3))`"),
                );
                ok = false;
                continue;
            }
            match self.int_operand(a, "an array size") {
                Ok(v) => {
                    if let Some(c) = v.as_ref().and_then(|v| v.as_const()) {
                        if c < 0 {
                            self.error("E0503", format!("negative array size {c}"), a.span.clone(), "negative size");
                            ok = false;
                        }
                    }
                    let s = v.unwrap_or_else(|| self.fresh());
                    out.push(s);
                }
                Err(()) => ok = false,
            }
        }
        ok.then_some(out)
    }

    fn arange_len(&mut self, args: &[Expr]) -> Size {
        let vals: Vec<Option<Size>> = args.iter().map(|a| self.affine(a)).collect();
        let (start, stop, step) = match vals.as_slice() {
            [b] => (Some(Size::lit(0)), b.clone(), Some(1)),
            [a, b] => (a.clone(), b.clone(), Some(1)),
            [a, b, c] => (a.clone(), b.clone(), c.as_ref().and_then(|c| c.as_const())),
            _ => (None, None, None),
        };
        let (Some(a), Some(b), Some(st)) = (start, stop, step) else { return self.fresh() };
        if st == 0 {
            return self.fresh();
        }
        let len = b.sub(&a);
        match len.as_const() {
            Some(l) => {
                let n = if st > 0 { (l + st - 1).div_euclid(st) } else { (l + st + 1).div_euclid(st) };
                Size::lit(n.max(0))
            }
            None if st == 1 => len,
            None => self.fresh(),
        }
    }

    /// Broadcasts several operand types to one result of dtype `d`.
    fn broadcast_all(&mut self, ts: &[&Ty], d: DType, e: &Expr) -> Ty {
        let mut shape: Option<Vec<Size>> = None;
        for t in ts {
            if let Ty::Array(_, s) = t {
                shape = Some(match shape {
                    None => s.clone(),
                    Some(prev) => match self.broadcast(&prev, s) {
                        Ok(r) => r,
                        Err(be) => {
                            self.err(
                                Diagnostic::error(
                                    "E0401",
                                    format!(
                                        "shapes {} and {} cannot be broadcast together",
                                        shape_str(&prev),
                                        shape_str(s)
                                    ),
                                    e.span.clone(),
                                    format!("size {} vs {}", be.left, be.right),
                                )
                                .with_note(
                                    "broadcasting needs equal sizes or a size of 1 in each right-aligned dimension",
                                ),
                            );
                            return Ty::Error;
                        }
                    },
                });
            }
        }
        match shape {
            Some(s) => Ty::Array(d, s),
            None => Ty::Scalar(d),
        }
    }
}

fn with_dtype(t: &Ty, d: DType) -> Ty {
    match t {
        Ty::Scalar(_) => Ty::Scalar(d),
        Ty::Array(_, s) => Ty::Array(d, s.clone()),
        _ => Ty::Error,
    }
}

/// The value of an integer literal, optionally negated.
fn literal_int(e: &Expr) -> Option<i64> {
    match &e.kind {
        ExprKind::Int(v) => Some(*v),
        ExprKind::Unary(UnOp::Neg, a) => literal_int(a).map(|v| v.wrapping_neg()),
        _ => None,
    }
}

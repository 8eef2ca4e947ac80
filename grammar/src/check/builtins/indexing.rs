//! Gathers, scatters and filters as builtins: `take`, `bincount`, `compress` and `add_at`-style
//! unbuffered scatters.

use super::Call;
use crate::ast::{DType, Expr, ExprKind};
use crate::builtin::Builtin;
use crate::check::promote::{promote, weak_of};
use crate::check::shape::shape_str;
use crate::check::Checker;
use crate::diag::Diagnostic;
use crate::types::{Size, Ty};

impl Checker {
    /// `take(x, idx, axis=k)`: a gather along axis `k` (which a 1-d `x` may leave out).
    pub(super) fn take(&mut self, c: &Call) -> Ty {
        let t = self.value(&c.args[0]);
        let ti = self.value(&c.args[1]);
        if c.bad || t == Ty::Error || ti == Ty::Error {
            return Ty::Error;
        }
        let Ty::Array(d, shape) = t else {
            self.error("E0408", format!("`take` needs an array, found {t}"), c.args[0].span.clone(), "not an array");
            return Ty::Error;
        };
        // Any integer dtype NumPy casts to `intp` safely (not `u64`), as an index array.
        let ishape = match ti {
            Ty::Array(di, s) if di.is_int() && di != DType::U64 => s,
            _ => {
                self.err(
                    Diagnostic::error(
                        "E0406",
                        format!("the indices of `take` must be an integer array (not u64), found {ti}"),
                        c.args[1].span.clone(),
                        format!("has type {ti}"),
                    )
                    .with_help("index with a scalar as `x[i]`, or convert with `i64(...)`"),
                );
                return Ty::Error;
            }
        };
        let r = shape.len() as i64;
        let (a, ae) = match c.axis {
            Some((a, ae)) => (a, &ae.span),
            None if r == 1 => (0, &c.e.span),
            None => {
                self.err(
                    Diagnostic::error(
                        "E0405",
                        format!("`take` of a rank-{r} array needs `axis=`"),
                        c.e.span.clone(),
                        "no axis",
                    )
                    .with_note(
                        "NumPy's `take` without an axis takes from the flattened array, which arrayc does not do",
                    ),
                );
                return Ty::Error;
            }
        };
        let Some(k) = self.axis_in_range(a, &shape, ae) else { return Ty::Error };
        let out = shape[..k].iter().chain(&ishape).chain(&shape[k + 1..]).cloned().collect();
        Ty::Array(d, out)
    }

    /// NumPy's `bincount(idx)`, `bincount(idx, weights)`: counts (or sums of weights) per
    /// non-negative index, as many as the largest index + 1 (at least `minlength`): a size known
    /// only at run time.
    pub(super) fn bincount(&mut self, c: &Call) -> Ty {
        let ti = self.value(&c.args[0]);
        let tw = c.args.get(1).map(|w| self.value(w));
        if c.bad || ti == Ty::Error || tw.as_ref() == Some(&Ty::Error) {
            return Ty::Error;
        }
        // NumPy casts the indices to `intp` by the 'safe' rule: every integer dtype but `u64`, and
        // `bool`, are counted as their `i64` values.
        let ishape = match &ti {
            Ty::Array(d, s) if (d.is_int() || *d == DType::Bool) && *d != DType::U64 => s,
            _ => {
                let help = if ti.dtype() == Some(DType::U64) {
                    "NumPy cannot cast u64 to i64 safely: convert first, `bincount(idx.astype(i64))`"
                } else {
                    "has an integer dtype other than u64, or bool"
                };
                self.error(
                    "E0406",
                    format!("the indices of `bincount` must be a 1-d integer (not u64) or bool array, found {ti}"),
                    c.args[0].span.clone(),
                    help,
                );
                return Ty::Error;
            }
        };
        if ishape.len() != 1 {
            self.error(
                "E0409",
                format!("`bincount` counts a 1-d array, found {ti}"),
                c.args[0].span.clone(),
                "not 1-d",
            );
            return Ty::Error;
        }
        match &tw {
            None => Ty::Array(DType::I64, vec![self.fresh()]),
            Some(Ty::Array(d, ws)) if *d != DType::Bool && ws.len() == 1 => {
                if ws[0].provably_eq(&ishape[0]) == Some(false) {
                    self.error(
                        "E0401",
                        format!("{} weights for {} indices", ws[0], ishape[0]),
                        c.args[1].span.clone(),
                        "one weight per index",
                    );
                    return Ty::Error;
                }
                Ty::Array(DType::F64, vec![self.fresh()])
            }
            Some(t) => {
                self.error(
                    "E0406",
                    format!("the weights of `bincount` must be a 1-d numeric array, found {t}"),
                    c.args[1].span.clone(),
                    format!("has type {t}"),
                );
                Ty::Error
            }
        }
    }

    /// NumPy's `compress(mask, x)` of 1-d arrays: `x[mask]`, a filter.
    pub(super) fn compress(&mut self, c: &Call) -> Ty {
        let tm = self.value(&c.args[0]);
        let t = self.value(&c.args[1]);
        if c.bad || tm == Ty::Error || t == Ty::Error {
            return Ty::Error;
        }
        match (&tm, &t) {
            (Ty::Array(DType::Bool, m), Ty::Array(d, s)) if m.len() == 1 && s.len() == 1 => {
                if m[0].provably_eq(&s[0]) == Some(false) {
                    self.error(
                        "E0401",
                        format!("a boolean mask of size {} cannot filter an array of size {}", m[0], s[0]),
                        c.args[0].span.clone(),
                        "mask size differs",
                    );
                    return Ty::Error;
                }
                Ty::Array(*d, vec![self.fresh()])
            }
            _ => {
                self.error(
                    "E0409",
                    format!("`compress` takes a 1-d bool mask and a 1-d array, found {tm} and {t}"),
                    c.e.span.clone(),
                    "not a 1-d mask and array",
                );
                Ty::Error
            }
        }
    }

    /// NumPy's `np.add.at(x, idx, v)` or `np.add.at(x, (i, j), v)`, a statement: adds `v` at the
    /// indices, every value (repeated indices accumulate); `v` broadcasts to `B + x.shape[c:]`,
    /// `B` the broadcast shape of the c index arrays.
    pub(super) fn add_at(&mut self, c: &Call) -> Ty {
        let t = self.value(&c.args[0]);
        // One index array, or a tuple of them, one per leading axis (`(i, j)`).
        let index = match &c.args[1].kind {
            ExprKind::Tuple(items) => items.iter().collect::<Vec<_>>(),
            _ => vec![&c.args[1]],
        };
        let tis: Vec<Ty> = index.iter().map(|ix| self.value(ix)).collect();
        let tv = self.value(&c.args[2]);
        if c.bad || tis.contains(&Ty::Error) || [&t, &tv].contains(&&Ty::Error) {
            return Ty::Error;
        }
        let Ty::Array(d, shape) = t else {
            self.error("E0408", format!("`add_at` needs an array, found {t}"), c.args[0].span.clone(), "not an array");
            return Ty::Error;
        };
        let mut shapes = vec![];
        for (ix, ti) in index.iter().zip(&tis) {
            let Ty::Array(DType::I64, ishape) = ti else {
                // The index arrays before this one are checked first, in order.
                if self.broadcast_index_arrays(std::mem::take(&mut shapes)).is_some() {
                    self.error(
                        "E0406",
                        format!("the indices of `add_at` must be i64 arrays, found {ti}"),
                        ix.span.clone(),
                        format!("has type {ti}"),
                    );
                }
                return Ty::Error;
            };
            shapes.push((ix.span.clone(), ishape.as_slice()));
        }
        let Some(b) = self.broadcast_index_arrays(shapes) else { return Ty::Error };
        if index.len() > shape.len() {
            self.error(
                "E0403",
                format!("too many index arrays: {} for an array of rank {}", index.len(), shape.len()),
                c.args[1].span.clone(),
                "one per leading axis at most",
            );
            return Ty::Error;
        }
        // A tuple of index arrays is typed as their broadcast shape (the lowering's `B`).
        self.set_ty(c.args[1].id, Ty::Array(DType::I64, b.clone()));
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
                c.args[2].span.clone(),
                format!("size {} vs {}", be.left, be.right),
            );
            return Ty::Error;
        }
        let Some(vd) = tv.dtype() else { return Ty::Error };
        let rd = promote(d, None, vd, weak_of(&c.args[2]));
        if !crate::check::promote::same_kind(rd, d) {
            self.error(
                "E0304",
                format!("cannot add {} values into `add_at`'s {} array", vd.name(), d.name()),
                c.args[2].span.clone(),
                format!("has dtype {}", vd.name()),
            );
            return Ty::Error;
        }
        Ty::Unit
    }
}

impl Checker {
    /// NumPy's statement `fill_diagonal(a, val)` (`wrap=False`; NumPy's `a.flat[:end:step] = val`):
    /// `a` an array of rank 2 or more (E0503 otherwise, NumPy's ValueError "array must be at least
    /// 2-d") whose sizes beyond 2-d are all equal (E0401 where two are known to differ, else the
    /// lowering's run-time check); `val` a scalar or an array of any shape and dtype, converted to
    /// `a`'s dtype as an assignment converts. The diagonal written (the scatter's target) is typed
    /// 1-d in `target_types` under `val`'s id: of `a`'s first size where the sizes are known equal
    /// and `val` is a scalar, else of a size known at run time (the smaller of a 2-d `a`'s sizes, 0
    /// for an empty `val`).
    pub(super) fn fill_diagonal(&mut self, c: &Call) -> Ty {
        let t = self.value(&c.args[0]);
        let tv = self.value(&c.args[1]);
        if c.bad || t == Ty::Error || tv == Ty::Error {
            return Ty::Error;
        }
        if let Some(w) = c.kwarg("wrap").filter(|w| crate::builtin::bool_literal(w) == Some(true)) {
            self.err(
                Diagnostic::error(
                    "E0503",
                    "`fill_diagonal(a, val, wrap=true)` (the diagonal continued below a tall matrix) is not supported",
                    w.span.clone(),
                    "wrap=true",
                )
                .with_help(
                    "write each block of rows: `fill_diagonal(a[j:j + m + 1, :], val)` for `j` in \
                     `range(0, n, m + 1)` (`a` of shape `(n, m)`)",
                ),
            );
            return Ty::Error;
        }
        let shape = match &t {
            Ty::Array(_, s) if s.len() >= 2 => s.clone(),
            _ => {
                self.err(
                    Diagnostic::error(
                        "E0503",
                        format!("`fill_diagonal` needs an array of at least 2 dimensions, found {t}"),
                        c.args[0].span.clone(),
                        "too few dimensions",
                    )
                    .with_note("NumPy's ValueError: array must be at least 2-d"),
                );
                return Ty::Error;
            }
        };
        let Some(d) = t.dtype() else { return Ty::Error };
        let equal = shape[1..].iter().all(|s| shape[0].provably_eq(s) == Some(true));
        if shape.len() > 2 && shape[1..].iter().any(|s| shape[0].provably_eq(s) == Some(false)) {
            self.err(
                Diagnostic::error(
                    "E0401",
                    format!(
                        "`fill_diagonal` of an array of more than 2 dimensions needs all its sizes equal, found shape {}",
                        shape_str(&shape)
                    ),
                    c.args[0].span.clone(),
                    "sizes differ",
                )
                .with_note("NumPy's ValueError: All dimensions of input must be of equal length"),
            );
            return Ty::Error;
        }
        // An array `val` may be empty, which writes nothing: its diagonal's size is known only then.
        let len = if equal && !tv.is_array() { shape[0].clone() } else { self.fresh() };
        self.target_types.insert(c.args[1].id, Ty::Array(d, vec![len]));
        Ty::Unit
    }

    /// NumPy's `take_along_axis(x, idx, axis=k)` (default axis `-1`) and the statement
    /// `put_along_axis(x, idx, v, axis=k)`: `idx` an integer array of `x`'s rank, which broadcasts
    /// against `x` on every axis but `k` (NumPy's `_make_along_axis_idx`). The gather's result (the
    /// scatter's target) has shape `broadcast(x.shape with 1 at k, idx.shape)`; `put_along_axis`'s
    /// `v` broadcasts to it and is converted to `x`'s dtype, as `x[idx] = v`. `take_along_axis(x,
    /// idx, axis=None)` arrives as `take_along_axis(ravel(x), idx)` (`syntax::none_arguments`), so
    /// `idx` is 1-d there as NumPy requires.
    pub(super) fn along_axis(&mut self, c: &Call) -> Ty {
        let put = c.b == Builtin::PutAlongAxis;
        let name = c.b.name();
        let t = self.value(&c.args[0]);
        let ti = self.value(&c.args[1]);
        let tv = if put { self.value(&c.args[2]) } else { Ty::Unit };
        if c.bad || [&t, &ti, &tv].contains(&&Ty::Error) {
            return Ty::Error;
        }
        let Ty::Array(d, shape) = t else {
            self.error("E0408", format!("`{name}` needs an array, found {t}"), c.args[0].span.clone(), "not an array");
            return Ty::Error;
        };
        let ishape = match ti {
            Ty::Array(id, s) if id.is_int() => s,
            _ => {
                self.err(
                    Diagnostic::error(
                        "E0406",
                        format!("the indices of `{name}` must be an integer array, found {ti}"),
                        c.args[1].span.clone(),
                        format!("has type {ti}"),
                    )
                    .with_note("NumPy's IndexError: `indices` must be an integer array"),
                );
                return Ty::Error;
            }
        };
        if ishape.len() != shape.len() {
            self.err(
                Diagnostic::error(
                    "E0409",
                    format!(
                        "the indices of `{name}` have rank {}, the array rank {}: they must have the same number of \
                         dimensions (NumPy's ValueError)",
                        ishape.len(),
                        shape.len()
                    ),
                    c.args[1].span.clone(),
                    format!("rank {}", ishape.len()),
                )
                .with_help(
                    "add size-1 axes with `idx[:, None]` or `expand_dims(idx, axis=k)` (`argmax(x, axis=k, \
                     keepdims=true)` keeps them); with `axis=None` the indices are 1-d",
                ),
            );
            return Ty::Error;
        }
        let (a, ae) = match c.axis {
            Some((a, ae)) => (a, &ae.span),
            None if !put => (-1, &c.e.span),
            None => {
                self.error("E0405", "`put_along_axis` needs `axis=`", c.e.span.clone(), "no axis");
                return Ty::Error;
            }
        };
        let Some(k) = self.axis_in_range(a, &shape, ae) else { return Ty::Error };
        let mut along = shape.clone();
        along[k] = Size::lit(1);
        let out = match self.broadcast(&along, &ishape) {
            Ok(out) => out,
            Err(be) => {
                self.error(
                    "E0401",
                    format!(
                        "the indices of shape {} do not broadcast against the array's shape {} off axis {k}",
                        shape_str(&ishape),
                        shape_str(&shape)
                    ),
                    c.args[1].span.clone(),
                    format!("size {} vs {}", be.left, be.right),
                );
                return Ty::Error;
            }
        };
        if !put {
            return Ty::Array(d, out);
        }
        let vs = match &tv {
            Ty::Array(_, s) => s.clone(),
            _ => vec![],
        };
        if let Err(be) = self.fits_into(&vs, &out) {
            self.error(
                "E0401",
                format!(
                    "a value of shape {} cannot be broadcast to the indexed shape {}",
                    shape_str(&vs),
                    shape_str(&out)
                ),
                c.args[2].span.clone(),
                format!("size {} vs {}", be.left, be.right),
            );
            return Ty::Error;
        }
        // The scatter's target type, for the lowering (the call itself is a statement).
        self.target_types.insert(c.args[2].id, Ty::Array(d, out));
        Ty::Unit
    }

    /// NumPy's `ravel_multi_index((i, j, ..), (d0, d1, ..))` (C order, `mode='raise'`): the flat
    /// `i64` index `i * d1 * .. + j * .. + ..`, of the index arrays' broadcast shape (a scalar
    /// for scalars); one integer index per size; an index outside `[0, d)` is a run-time error.
    pub(super) fn ravel_multi_index(&mut self, c: &Call) -> Ty {
        let index: Vec<&Expr> = match &c.args[0].kind {
            ExprKind::Tuple(items) => items.iter().collect(),
            _ => vec![&c.args[0]],
        };
        let tis: Vec<Ty> = index.iter().map(|ix| self.value(ix)).collect();
        let dims = self.dims(&c.args[1..2]);
        if c.bad || tis.contains(&Ty::Error) {
            return Ty::Error;
        }
        let Some(dims) = dims else { return Ty::Error };
        let mut shapes = vec![];
        for (ix, ti) in index.iter().zip(&tis) {
            match ti {
                Ty::Scalar(d) | Ty::Array(d, _) if d.is_int() => {}
                _ => {
                    self.error(
                        "E0406",
                        format!("the indices of `ravel_multi_index` must be integers, found {ti}"),
                        ix.span.clone(),
                        format!("has type {ti}"),
                    );
                    return Ty::Error;
                }
            }
            shapes.push((ix.span.clone(), ti.shape().unwrap_or(&[])));
        }
        if index.len() != dims.len() {
            self.err(
                Diagnostic::error(
                    "E0503",
                    format!(
                        "`ravel_multi_index` has {} index arrays for {} sizes: it needs one per size (NumPy's \
                         ValueError)",
                        index.len(),
                        dims.len()
                    ),
                    c.args[0].span.clone(),
                    format!("{} index arrays", index.len()),
                )
                .with_help("pass the indices as a tuple, `ravel_multi_index((i, j), (n, m))`"),
            );
            return Ty::Error;
        }
        let Some(b) = self.broadcast_index_arrays(shapes) else { return Ty::Error };
        let t = if b.is_empty() { Ty::Scalar(DType::I64) } else { Ty::Array(DType::I64, b) };
        if matches!(c.args[0].kind, ExprKind::Tuple(_)) {
            // A tuple of index arrays is typed as their broadcast (`add_at`'s are too).
            self.set_ty(c.args[0].id, t.clone());
        }
        t
    }
}

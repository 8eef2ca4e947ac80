//! NumPy 2's `delete(x, obj, axis=k)` and `insert(x, obj, values, axis=k)` (`docs/language.md`,
//! "Builtin functions"; issue 31): the kind of `obj` ([`crate::builtin::index_object`]), the
//! result's shape (`x`'s, or `x` flattened without `axis=`, with the size along the axis changed) and
//! dtype (`x`'s). Their lowering is `passes/src/lower_ast/insert_delete.rs`; what only the run time
//! knows (an index out of range, a mask's length, the values' broadcast) is checked there, naming
//! the line.

use super::builtins::Call;
use super::shape::{const_slice_len, shape_str};
use super::Checker;
use crate::ast::Expr;
use crate::builtin::{index_object, insert_at_one, slice_object, Builtin, IndexObject};
use crate::diag::Diagnostic;
use crate::types::{Size, Ty};

impl Checker {
    /// The type of a call of `delete` or `insert` (`Ty::Error` after reporting an error): a float
    /// `obj` is E0406, an array `obj` of another rank than 1 E0503, an axis out of range E0405,
    /// `values` of more axes than `x` or provably not broadcastable to the inserted block E0401.
    pub(super) fn insert_delete(&mut self, c: &Call) -> Ty {
        let t = self.array_arg(c, &c.args[0]);
        let obj = &c.args[1];
        let kind = self.index_object_kind(c, obj);
        let obj_ty = kind.as_ref().map_or(Ty::Error, |(_, t)| t.clone());
        let kind = kind.map(|(k, _)| k);
        let values = if c.b == Builtin::Insert { Some(self.value(&c.args[2])) } else { None };
        let (Ty::Array(d, s), Some(kind)) = (t, kind) else { return Ty::Error };
        // Without `axis=`, of `x` flattened (NumPy's `axis=None`).
        let (mut s, a) = match c.axis {
            Some((a, ae)) => match self.axis_in_range(a, &s, &ae.span) {
                Some(k) => (s, k),
                None => return Ty::Error,
            },
            None if s.len() == 1 => (s, 0),
            None => (vec![s.iter().try_fold(Size::lit(1), |p, z| p.mul(z)).unwrap_or_else(|| self.fresh())], 0),
        };
        let n = s[a].clone();
        let count = match kind {
            IndexObject::Slice => self.slice_object_size(obj, &n),
            IndexObject::Single => Size::lit(1),
            IndexObject::Indices | IndexObject::Mask => {
                let Some(m) = obj_ty.shape().map(|m| m[0].clone()) else { return Ty::Error };
                if kind == IndexObject::Mask && c.b == Builtin::Delete && m.provably_eq(&n) == Some(false) {
                    self.error(
                        "E0503",
                        format!(
                            "boolean array argument obj to delete must be one dimensional and match the axis \
                             length of {n}, found length {m}"
                        ),
                        obj.span.clone(),
                        "mask of another length",
                    );
                    return Ty::Error;
                }
                match kind {
                    IndexObject::Indices if c.b == Builtin::Insert => m,
                    _ => self.fresh(),
                }
            }
        };
        let Some(values) = values else {
            // `delete`: one fewer for an integer, a slice's count fewer where known; indices may
            // repeat.
            s[a] = match kind {
                IndexObject::Single => n.sub(&Size::lit(1)),
                IndexObject::Slice if count.as_const().is_some() => n.sub(&count),
                _ => self.fresh(),
            };
            return Ty::Array(d, s);
        };
        let Some(new) = self.inserted_block(c, &values, &s, a, insert_at_one(kind, &obj_ty), count) else {
            return Ty::Error;
        };
        s[a] = n.add(&new);
        Ty::Array(d, s)
    }

    /// The kind of `obj` and its type (E0406 for a float or `u64`, E0503 for an array of another
    /// rank than 1); a slice's parts are typed as integers, the slice itself as `Ty::Unit` (not a
    /// value).
    fn index_object_kind(&mut self, c: &Call, obj: &Expr) -> Option<(IndexObject, Ty)> {
        if let Some(parts) = slice_object(obj) {
            let mut ok = true;
            for p in parts.into_iter().flatten() {
                ok &= self.int_operand(p, "a bound of `slice`").is_ok();
            }
            self.set_ty(obj.id, Ty::Unit);
            if let Some(step) = parts[2].filter(|e| self.affine(e).and_then(|z| z.as_const()) == Some(0)) {
                self.error("E0407", "slice step cannot be zero", step.span.clone(), "zero step");
                return None;
            }
            return ok.then_some((IndexObject::Slice, Ty::Unit));
        }
        let t = self.value(obj);
        if let Some(k) = index_object(obj, &t) {
            return Some((k, t));
        }
        let name = c.b.name();
        let (code, msg, help) = match &t {
            Ty::Error => return None,
            Ty::Scalar(_) => (
                "E0406",
                format!("`{name}`'s `obj` must be an integer, found {t}"),
                "convert it: `i64(...)` (NumPy raises IndexError for a float)".to_string(),
            ),
            Ty::Array(dt, sh) if sh.len() == 1 => (
                "E0406",
                format!("`{name}`'s index array must have an integer (or, a mask, bool) dtype, found {}", dt.name()),
                "convert it: `i64(idx)`".to_string(),
            ),
            Ty::Array(..) => (
                "E0503",
                format!("`{name}`'s `obj` must be an integer, a slice, or a 1-d index array or mask, found {t}"),
                format!("flatten the indices: `{name}(x, ravel(idx), ...)`"),
            ),
            _ => (
                "E0503",
                format!("`{name}`'s `obj` must be an integer, a slice, or a 1-d index array or mask, found {t}"),
                "write `slice(a, b)`, a list `[i, j]` or an index array".to_string(),
            ),
        };
        self.err(Diagnostic::error(code, msg, obj.span.clone(), "not an index").with_help(help));
        None
    }

    /// The number of items `slice(..)` selects of an axis of size `n` (NumPy's `slice.indices`):
    /// exact where the size and the parts are known when checked, else a size of its own (a
    /// symbolic slice's length assumes bounds within the axis, which `slice(0, 100)` need not keep).
    fn slice_object_size(&mut self, obj: &Expr, n: &Size) -> Size {
        let [start, stop, step] = slice_object(obj).expect("checked: a slice");
        let known = |e: Option<&Expr>| e.map(|e| self.affine(e).and_then(|z| z.as_const()));
        let (start, stop, step) = (known(start), known(stop), known(step));
        match (n.as_const(), start, stop, step.unwrap_or(Some(1))) {
            (Some(n), Some(Some(_)) | None, Some(Some(_)) | None, Some(k)) if k != 0 => {
                Size::lit(const_slice_len(n, start.flatten(), stop.flatten(), k))
            }
            _ => self.fresh(),
        }
    }

    /// `insert`'s number of new items along axis `a` of `s` (`x`'s shape, or `x` flattened):
    /// `count` (one per index), or at one place (`one`, [`insert_at_one`]'s answer) the size of
    /// `values` (NumPy's `array(values, ndmin=r)`, its first axis moved to `a` for an integer `obj`)
    /// along `a`.
    /// `values` must broadcast to the block of new items (E0401, E0503 for more axes than `x`).
    fn inserted_block(
        &mut self,
        c: &Call,
        values: &Ty,
        s: &[Size],
        a: usize,
        one: Option<bool>,
        count: Size,
    ) -> Option<Size> {
        let vs: Vec<Size> = match values {
            Ty::Scalar(_) => vec![],
            Ty::Array(_, vs) => vs.clone(),
            _ => return None,
        };
        let r = s.len();
        if vs.len() > r {
            self.err(
                Diagnostic::error(
                    "E0503",
                    format!("`insert`'s values have {} axes, more than the array's {r}", vs.len()),
                    c.args[2].span.clone(),
                    "too many axes",
                )
                .with_help("give values of at most the array's rank (without `axis=`: 1-d or a scalar)"),
            );
            return None;
        }
        // NumPy's `ndmin=r`: size-1 axes in front.
        let mut padded = vec![Size::lit(1); r - vs.len()];
        padded.extend(vs);
        let new = match one {
            Some(moved) => {
                if moved {
                    let first = padded.remove(0);
                    padded.insert(a, first);
                }
                padded[a].clone()
            }
            None => count,
        };
        let mut block = s.to_vec();
        block[a] = new.clone();
        if let Err(be) = self.fits_into(&padded, &block) {
            self.err(
                Diagnostic::error(
                    "E0401",
                    format!(
                        "`insert`'s values of shape {} do not broadcast to the inserted block {} (size {} vs {})",
                        shape_str(&padded),
                        shape_str(&block),
                        be.left,
                        be.right
                    ),
                    c.args[2].span.clone(),
                    "values of another shape",
                )
                .with_help("give one value per inserted item along the axis, or a scalar"),
            );
            return None;
        }
        Some(new)
    }
}

//! Shape operations (`docs/language.md`, "Builtin functions"; their types:
//! `grammar/src/check/shape_ops.rs`). `flip`, `expand_dims` and `squeeze` are `arr.view`s of their
//! argument (NumPy gives views too), `split` and `array_split` one `arr.view` per section. `concatenate`, `stack`, `vstack`, `hstack`, `append`, `roll`,
//! `pad` and `meshgrid` allocate the result and copy each part into a view of it (`arr.copy`, `arr.fill`),
//! which the fusion pass fuses like any elementwise operation. Sizes the checker could not compare
//! are checked at run time (`cf.assert`, naming the line).

use super::{LResult, Lowerer};
use arrayc_dialect::ir::{
    BinFn, ComputeFn, IndexEntry, OpKind, ReduceKind, Scalar, ScatterKind, ScatterMode, Type, ValueId,
};
use arrayc_grammar::ast::{self, DType, Expr, ExprKind};
use arrayc_grammar::builtin::{
    cross_components, join_axis, join_of_items, join_unit_axes, pad_width_pairs, split_default_axis, splits_equally,
    Builtin,
};
use arrayc_grammar::numpy_shapes::{meshgrid_ij, pad_mode, tile_axes, PadMode};
use arrayc_grammar::types::Ty;
use std::collections::HashMap;

/// An entry that slices one axis: `start:stop` with the given parts present.
fn slice(start: bool, stop: bool) -> IndexEntry {
    IndexEntry::Slice { start, stop, step: false }
}

/// The value of an `axis=` that is an integer literal (a shape operation's, as checked), else
/// `None`.
fn literal_axis(a: &Expr) -> Option<i64> {
    match &a.kind {
        ExprKind::Int(v) => Some(*v),
        ExprKind::Unary(ast::UnOp::Neg, e) => literal_axis(e).map(|v| -v),
        _ => None,
    }
}

impl Lowerer<'_> {
    /// A call of builtin `b` (checked: its type is `ty`) when `b` is a shape operation: its
    /// values (one, or `meshgrid`'s); `None` for the other builtins.
    pub(crate) fn shape_op(
        &mut self,
        b: Builtin,
        args: &[Expr],
        kwargs: &[(ast::Ident, Expr)],
        ty: &Ty,
    ) -> LResult<Option<Vec<ValueId>>> {
        use Builtin as B;
        // (Every builtin passes here: `axis=` may be a tuple, of a reduction.)
        let axis = Self::kwarg(kwargs, "axis").and_then(literal_axis);
        let v = match b {
            B::Flip => {
                let x = self.expr(&args[0])?;
                let r = self.rank(x);
                let axes: Vec<usize> = match axis {
                    Some(a) => vec![a.rem_euclid(r as i64) as usize],
                    None => (0..r).collect(),
                };
                self.flip_axes(x, &axes)
            }
            B::ExpandDims => {
                let x = self.expr(&args[0])?;
                let r = self.rank(x);
                let k = axis.expect("checked: `axis=`").rem_euclid(r as i64 + 1) as usize;
                let mut entries = vec![IndexEntry::Full; r];
                entries.insert(k, IndexEntry::NewAxis);
                self.view_with(x, entries, vec![])
            }
            B::Squeeze => self.squeeze(&args[0], axis, ty)?,
            B::Concatenate | B::Stack | B::Vstack | B::Hstack | B::Dstack | B::ColumnStack => {
                let ExprKind::Tuple(items) = &args[0].kind else {
                    let x = self.expr(&args[0])?;
                    return Ok(Some(vec![self.join_of_array(b, x, axis)]));
                };
                let mut vals = vec![];
                for e in items {
                    vals.push(self.expr(e)?);
                }
                let max_rank = vals.iter().map(|&v| self.rank(v)).max().unwrap_or(0);
                let (k, new) = match b {
                    B::Stack => (axis.unwrap_or(0).rem_euclid(max_rank as i64 + 1) as usize, true),
                    B::Vstack | B::Dstack | B::ColumnStack => {
                        for v in &mut vals {
                            if let Some(axes) = join_unit_axes(b, self.rank(*v)) {
                                let entries =
                                    axes.iter().map(|&a| if a { IndexEntry::Full } else { IndexEntry::NewAxis });
                                *v = self.view_with(*v, entries.collect(), vec![]);
                            }
                        }
                        (join_axis(b), false)
                    }
                    B::Hstack => (usize::from(max_rank > 1), false),
                    _ => (axis.unwrap_or(0).rem_euclid(max_rank as i64) as usize, false),
                };
                self.join(b, &vals, k, new, ty)
            }
            B::Append => {
                let x = self.expr(&args[0])?;
                let v = self.expr(&args[1])?;
                self.join(b, &[x, v], 0, false, ty)
            }
            B::Roll => {
                let x = self.expr(&args[0])?;
                let shift = self.expr(&args[1])?;
                let shift = self.cast_scalar(shift, DType::I64);
                match axis {
                    Some(a) => {
                        let k = a.rem_euclid(self.rank(x) as i64) as usize;
                        self.roll(x, shift, k, ty)
                    }
                    None => {
                        // NumPy's `roll` without an axis: of `x` flattened, then `x`'s shape again.
                        let sizes: Vec<ValueId> = (0..self.rank(x)).map(|d| self.dim(x, d)).collect();
                        let flat = self.flat(x);
                        let rolled = self.roll(flat, shift, 0, ty);
                        if sizes.len() == 1 {
                            rolled
                        } else {
                            self.reshape_view(rolled, sizes)
                        }
                    }
                }
            }
            B::Pad => {
                let mode = Self::kwarg(kwargs, "mode").and_then(pad_mode).unwrap_or(PadMode::Constant);
                self.pad(&args[0], &args[1], Self::kwarg(kwargs, "constant_values"), mode, ty)?
            }
            B::Cross => self.cross(&args[0], &args[1], ty)?,
            B::Delete | B::Insert => self.insert_delete(b, args, axis, ty)?,
            B::Meshgrid => {
                let ij = Self::kwarg(kwargs, "indexing").and_then(meshgrid_ij).unwrap_or(false);
                return self.meshgrid(args, ij, ty).map(Some);
            }
            B::Split | B::ArraySplit | B::Vsplit | B::Hsplit => {
                let x = self.expr(&args[0])?;
                if let Some(points) = arrayc_grammar::builtin::split_points(&args[1]) {
                    // Section `i` is the view `x[p(i-1):p(i)]` along the axis (slice rules).
                    let a = axis.unwrap_or_else(|| split_default_axis(b, self.rank(x)));
                    let a = a.rem_euclid(self.rank(x) as i64) as usize;
                    let mut bounds = vec![None];
                    bounds.extend(points.iter().map(|&p| Some(self.i64_const(p))));
                    bounds.push(None);
                    return Ok(Some(bounds.windows(2).map(|w| self.slice_along(x, a, w[0], w[1])).collect()));
                }
                let a = axis.unwrap_or_else(|| split_default_axis(b, self.rank(x)));
                return Ok(Some(self.split(b, x, a, ty)));
            }
            B::Tile if matches!(args[1].kind, ExprKind::Tuple(_) | ExprKind::List(_)) => {
                self.tile_reps(&args[0], &args[1], ty)?
            }
            B::Repeat if self.ty_of(&args[1]).is_array() => {
                let x = self.expr(&args[0])?;
                let x = if axis.is_none() { self.flat(x) } else { x };
                let counts = self.expr(&args[1])?;
                let a = axis.unwrap_or(0).rem_euclid(self.rank(x) as i64) as usize;
                self.repeat_counts(x, counts, a, ty)
            }
            B::Tile | B::Repeat => {
                let x = self.expr(&args[0])?;
                // NumPy's `repeat` without an axis repeats `x` flattened.
                let x = if b == B::Repeat && axis.is_none() { self.flat(x) } else { x };
                let k = self.expr(&args[1])?;
                let k = self.cast_scalar(k, DType::I64);
                let r = self.rank(x);
                let a = if b == B::Tile { r - 1 } else { axis.unwrap_or(0).rem_euclid(r as i64) as usize };
                let negative = format!("{}: negative dimensions are not allowed", b.name());
                self.tile_or_repeat(b, x, k, a, ty, negative)
            }
            _ => return Ok(None),
        };
        Ok(Some(vec![v]))
    }

    /// NumPy's `split(x, k)` / `array_split(x, k)` along axis `a` (checked type `ty`, a tuple of `k`
    /// arrays): `k` views of `x`, section `i` being `[i * q + min(i, r), (i + 1) * q + min(i + 1, r))`
    /// with `q = n // k`, `r = n % k` ([`arrayc_grammar::builtin::array_split_start`], here at run time). `split` asserts
    /// `r == 0` at run time when the checker did not know `n` (NumPy's ValueError).
    fn split(&mut self, b: Builtin, x: ValueId, a: i64, ty: &Ty) -> Vec<ValueId> {
        let Ty::Tuple(parts) = ty else { unreachable!("checked: a tuple of sections") };
        let a = a.rem_euclid(self.rank(x) as i64) as usize;
        let k = parts.len() as i64;
        let n = self.dim(x, a);
        let kc = self.i64_const(k);
        let q = self.scalar_binary(BinFn::FloorDiv, n, kc, DType::I64);
        let r = self.scalar_binary(BinFn::Rem, n, kc, DType::I64);
        let known = matches!(&parts[0], Ty::Array(_, s) if s[a].as_const().is_some());
        if splits_equally(b) && !known {
            let zero = self.i64_const(0);
            let even = self.scalar_binary(BinFn::Eq, r, zero, DType::I64);
            let msg = "array split does not result in an equal division".to_string();
            self.emit(OpKind::Assert { cond: even, msg });
        }
        let bounds: Vec<ValueId> = (0..=k)
            .map(|i| {
                let i = self.i64_const(i);
                let whole = self.scalar_binary(BinFn::Mul, i, q, DType::I64);
                let extra = self.scalar_binary(BinFn::Minimum, i, r, DType::I64);
                self.scalar_binary(BinFn::Add, whole, extra, DType::I64)
            })
            .collect();
        bounds.windows(2).map(|w| self.slice_along(x, a, Some(w[0]), Some(w[1]))).collect()
    }

    /// NumPy's `cross(a, b)` of checked type `ty`: with `u`, `v` the components of `a` and `b` along
    /// their last axes (views), `u1 v2 - u2 v1`, `u2 v0 - u0 v2`, `u0 v1 - u1 v0` stacked along a
    /// new last axis (3 components), or `u0 v1 - u1 v0` alone (2), each computed over the broadcast
    /// leading axes. A scalar result (two 1-d 2-vectors) is read from its 0-d array.
    fn cross(&mut self, a: &Expr, b: &Expr, ty: &Ty) -> LResult<ValueId> {
        let Ty::Array(_, sa) = self.ty_of(a) else { unreachable!("checked: `cross` of arrays") };
        let k = cross_components(sa).expect("checked: 2 or 3 components");
        let (a, b) = (self.expr(a)?, self.expr(b)?);
        let components = |s: &mut Self, x: ValueId| -> Vec<ValueId> {
            let mut entries = vec![IndexEntry::Full; s.rank(x) - 1];
            entries.push(IndexEntry::At);
            (0..k as i64)
                .map(|j| {
                    let j = s.i64_const(j);
                    s.view_with(x, entries.clone(), vec![j])
                })
                .collect()
        };
        let (u, v) = (components(self, a), components(self, b));
        let part = match ty {
            Ty::Array(d, s) if k == 3 => Ty::Array(*d, s[..s.len() - 1].to_vec()),
            Ty::Array(..) => ty.clone(),
            Ty::Scalar(d) => Ty::Array(*d, vec![]),
            _ => unreachable!("checked: the type of `cross`"),
        };
        let z = |s: &mut Self, i: usize, j: usize| -> LResult<ValueId> {
            let p = s.array_op(ComputeFn::Binary(BinFn::Mul), vec![u[i], v[j]], &part)?;
            let q = s.array_op(ComputeFn::Binary(BinFn::Mul), vec![u[j], v[i]], &part)?;
            s.array_op(ComputeFn::Binary(BinFn::Sub), vec![p, q], &part)
        };
        if k == 2 {
            let r = z(self, 0, 1)?;
            return Ok(match ty {
                Ty::Scalar(_) => self.load_element(r),
                _ => r,
            });
        }
        let parts = [z(self, 1, 2)?, z(self, 2, 0)?, z(self, 0, 1)?];
        let last = self.rank(parts[0]);
        Ok(self.join(Builtin::Stack, &parts, last, true, ty))
    }

    /// The rank of array value `v`.
    pub(crate) fn rank(&self, v: ValueId) -> usize {
        match self.f.ty(v) {
            Type::Array(_, r) => r,
            Type::Scalar(_) => 0,
        }
    }

    /// `x` reversed along each of `axes`: a view with step -1 along them (NumPy's `flip`).
    pub(crate) fn flip_axes(&mut self, x: ValueId, axes: &[usize]) -> ValueId {
        let r = self.rank(x);
        let entries = (0..r)
            .map(|d| {
                if axes.contains(&d) {
                    IndexEntry::Slice { start: false, stop: false, step: true }
                } else {
                    IndexEntry::Full
                }
            })
            .collect();
        let minus_one = self.i64_const(-1);
        let operands = (0..r).filter(|d| axes.contains(d)).map(|_| minus_one).collect();
        self.view_with(x, entries, operands)
    }

    /// The 1-d arrays `cols` (of one size) as the columns of a new 2-d array of type `ty`.
    pub(crate) fn stack_columns(&mut self, cols: &[ValueId], ty: &Ty) -> ValueId {
        self.join(Builtin::Stack, cols, 1, true, ty)
    }

    /// An `arr.view` of `src` through `entries` with i64 `operands` (NumPy basic indexing).
    pub(crate) fn view_with(&mut self, src: ValueId, entries: Vec<IndexEntry>, operands: Vec<ValueId>) -> ValueId {
        let Type::Array(d, _) = self.f.ty(src) else { unreachable!("views of arrays") };
        let rank = entries.iter().filter(|e| !matches!(e, IndexEntry::At)).count();
        let res = self.value(Type::Array(d, rank), None);
        self.emit(OpKind::View { res, src, index: entries.clone(), operands: operands.clone() });
        let root = self.root(src);
        self.roots.insert(res, root);
        self.view_defs.insert(res, (src, entries, operands));
        res
    }

    /// A view of `v` (rank `r`) sliced along axis `k` to `[start, stop)` (`None`: that end open).
    pub(crate) fn slice_along(
        &mut self,
        v: ValueId,
        k: usize,
        start: Option<ValueId>,
        stop: Option<ValueId>,
    ) -> ValueId {
        let r = self.rank(v);
        let mut entries = vec![IndexEntry::Full; r];
        entries[k] = slice(start.is_some(), stop.is_some());
        self.view_with(v, entries, start.into_iter().chain(stop).collect())
    }

    /// A new array of the checked type `ty` (its sizes `sizes`).
    pub(crate) fn new_result(&mut self, ty: &Ty, sizes: Vec<ValueId>) -> ValueId {
        let Ty::Array(d, shape) = ty else { unreachable!("checked: an array result") };
        let out = self.new_array(*d, sizes);
        self.shapes.insert(out, shape.clone());
        out
    }

    /// Asserts at run time that `a == b` (i64 sizes), else the error `msg`.
    pub(crate) fn assert_equal_sizes(&mut self, a: ValueId, b: ValueId, msg: String) {
        if a != b {
            let same = self.scalar_binary(BinFn::Eq, a, b, DType::I64);
            self.emit(OpKind::Assert { cond: same, msg });
        }
    }

    /// `squeeze(x, axis=k)` or `squeeze(x)` (every axis of checked size 1): a view of `x` at index 0
    /// of each squeezed axis (checked at run time to have size 1); of every axis, the element.
    fn squeeze(&mut self, arg: &Expr, axis: Option<i64>, ty: &Ty) -> LResult<ValueId> {
        let Ty::Array(_, shape) = self.ty_of(arg).clone() else { unreachable!("checked: an array") };
        let x = self.expr(arg)?;
        let r = shape.len();
        let squeezed: Vec<bool> = match axis {
            Some(a) => (0..r).map(|d| d == a.rem_euclid(r as i64) as usize).collect(),
            None => shape.iter().map(|s| s.as_const() == Some(1)).collect(),
        };
        let zero = self.i64_const(0);
        let one = self.i64_const(1);
        let mut entries = vec![];
        let mut operands = vec![];
        for (d, &sq) in squeezed.iter().enumerate() {
            if !sq {
                entries.push(IndexEntry::Full);
                continue;
            }
            if shape[d].as_const() != Some(1) {
                let n = self.dim(x, d);
                let msg = format!("cannot select an axis to squeeze out which has size not equal to one (axis {d})");
                self.assert_equal_sizes(n, one, msg);
            }
            entries.push(IndexEntry::At);
            operands.push(zero);
        }
        let v = self.view_with(x, entries, operands);
        Ok(if ty.is_array() { v } else { self.load_element(v) })
    }

    /// `concatenate` (`new` false: along axis `k`) or `stack` (`new`: along a new axis `k`) of
    /// `vals` into a new array of type `ty`; a scalar in `vals` (`append`'s) is one element.
    /// The join `b` of the items of one array `x` along its axis 0 (as checked,
    /// [`join_of_items`]): each item given its unit axes (a view), the items' axis moved to the
    /// join axis `k` (a view), copied; for a join along an existing axis, that axis and the next
    /// then merged (a reshape of the copy: item `j`'s position `i` is `j * size + i`).
    fn join_of_array(&mut self, b: Builtin, x: ValueId, axis: Option<i64>) -> ValueId {
        let r = self.rank(x) - 1;
        let (units, k, new) = join_of_items(b, r, axis).expect("checked: a join NumPy makes");
        let x = match units {
            Some(u) => {
                let entries = std::iter::once(IndexEntry::Full).chain(u.iter().map(|&a| {
                    if a {
                        IndexEntry::Full
                    } else {
                        IndexEntry::NewAxis
                    }
                }));
                self.view_with(x, entries.collect(), vec![])
            }
            None => x,
        };
        let rank = self.rank(x) - 1;
        let k = k.rem_euclid(rank as i64 + i64::from(new)) as usize;
        let perm = (0..=rank)
            .map(|i| {
                if i < k {
                    i + 1
                } else if i == k {
                    0
                } else {
                    i
                }
            })
            .collect();
        let y = self.transpose(x, perm);
        let Type::Array(dt, _) = self.f.ty(y) else { unreachable!("an array") };
        let sizes: Vec<ValueId> = (0..=rank).map(|d| self.dim(y, d)).collect();
        let copy = self.compute_new(ComputeFn::Copy, vec![y], dt, sizes.clone(), None);
        if new {
            return copy;
        }
        let merged = self.scalar_binary(BinFn::Mul, sizes[k], sizes[k + 1], DType::I64);
        let mut out = sizes;
        out.splice(k..k + 2, [merged]);
        self.reshape_view(copy, out)
    }

    pub(crate) fn join(&mut self, b: Builtin, vals: &[ValueId], k: usize, new: bool, ty: &Ty) -> ValueId {
        let r = self.rank(vals[0]);
        let name = b.name();
        // The sizes of the first array, checked against every other's (but along `k` when joining
        // along an existing axis).
        let first: Vec<ValueId> = (0..r).map(|d| self.dim(vals[0], d)).collect();
        let mut along = vec![];
        for (i, &v) in vals.iter().enumerate() {
            if self.f.ty(v).is_array() {
                for (d, &f) in first.iter().enumerate() {
                    let n = self.dim(v, d);
                    if !new && d == k {
                        along.push(n);
                    } else {
                        let msg = format!(
                            "{name}: all the input array dimensions except for the concatenation axis must match \
                             exactly, but along dimension {d} the array at index {i} has another size than the \
                             array at index 0"
                        );
                        self.assert_equal_sizes(n, f, msg);
                    }
                }
            } else {
                along.push(self.i64_const(1));
            }
        }
        let mut sizes = first;
        if new {
            let count = self.i64_const(vals.len() as i64);
            sizes.insert(k, count);
        } else {
            sizes[k] =
                along.iter().copied().reduce(|a, n| self.scalar_binary(BinFn::Add, a, n, DType::I64)).expect("parts");
        }
        let out = self.new_result(ty, sizes);
        let mut offset = self.i64_const(0);
        for (i, &v) in vals.iter().enumerate() {
            let part = if new {
                let mut entries = vec![IndexEntry::Full; r + 1];
                entries[k] = IndexEntry::At;
                let at = self.i64_const(i as i64);
                self.view_with(out, entries, vec![at])
            } else {
                let end = self.scalar_binary(BinFn::Add, offset, along[i], DType::I64);
                let part = self.slice_along(out, k, Some(offset), Some(end));
                offset = end;
                part
            };
            let func = if self.f.ty(v).is_array() { ComputeFn::Copy } else { ComputeFn::Fill };
            self.emit(OpKind::Compute { func, out: part, ins: vec![v] });
        }
        out
    }

    /// `meshgrid(x1, x2, ...)`: array `i` is `xi` viewed along its axis of the result (axis 1 for
    /// `x1`, 0 for `x2`, `i` for the others: NumPy's `indexing='xy'`; axis `i` with `ij`) and size-1 axes elsewhere,
    /// copied into a new array of the result's shape (broadcast).
    fn meshgrid(&mut self, args: &[Expr], ij: bool, ty: &Ty) -> LResult<Vec<ValueId>> {
        let Ty::Tuple(tys) = ty else { unreachable!("checked: a tuple of arrays") };
        let mut xs = vec![];
        for e in args {
            xs.push(self.expr(e)?);
        }
        let r = xs.len();
        let axis_of = |i: usize| match i {
            0 if !ij => 1,
            1 if !ij => 0,
            i => i,
        };
        let sizes: Vec<ValueId> = (0..r).map(|a| self.dim(xs[axis_of(a)], 0)).collect();
        let mut out = vec![];
        for (i, (&x, t)) in xs.iter().zip(tys).enumerate() {
            let entries =
                (0..r).map(|a| if a == axis_of(i) { IndexEntry::Full } else { IndexEntry::NewAxis }).collect();
            let along = self.view_with(x, entries, vec![]);
            let Ty::Array(d, shape) = t else { unreachable!("checked: arrays") };
            out.push(self.compute_new(ComputeFn::Copy, vec![along], *d, sizes.clone(), Some(shape)));
        }
        Ok(out)
    }

    /// Python's `[..] * k` of list literal `x` ([`arrayc_grammar::Checked::list_repeats`]): `x`
    /// repeated `k` times along axis 0 (`tile` along that axis), `k` checked to be non-negative
    /// (Python's empty list for a negative `k` is refused at run time).
    pub(crate) fn list_repetition(&mut self, x: ValueId, k: ValueId, ty: &Ty) -> ValueId {
        let k = self.cast_scalar(k, DType::I64);
        let negative = "`[..] * k`: a negative count (Python's empty list; arrayc refuses it)".into();
        self.tile_or_repeat(Builtin::Tile, x, k, 0, ty, negative)
    }

    /// `tile` (`b`) or `repeat` of `x` `k` times along axis `a`: a gather through the positions
    /// `arange(n * k) % n` (`tile`) or `arange(n * k) // k` (`repeat`), `n` the size along `a`;
    /// `k` checked to be non-negative (else the run-time error `negative`).
    fn tile_or_repeat(&mut self, b: Builtin, x: ValueId, k: ValueId, a: usize, ty: &Ty, negative: String) -> ValueId {
        let Ty::Array(d, shape) = ty else { unreachable!("checked: an array") };
        let zero = self.i64_const(0);
        let ok = self.scalar_binary(BinFn::Ge, k, zero, DType::I64);
        self.emit(OpKind::Assert { cond: ok, msg: negative });
        let n = self.dim(x, a);
        let len = self.scalar_binary(BinFn::Mul, n, k, DType::I64);
        let one = self.i64_const(1);
        let at = self.compute_new(ComputeFn::Arange, vec![zero, one], DType::I64, vec![len], None);
        let (f, by) = if b == Builtin::Tile { (BinFn::Rem, n) } else { (BinFn::FloorDiv, k) };
        let idx = self.compute_new(ComputeFn::Binary(f), vec![at, by], DType::I64, vec![len], None);
        self.gather(x, &[idx], a, *d, &shape[a..a + 1], Some(shape))
    }

    /// NumPy's `repeat(x, counts, axis=a)` of a 1-d integer array `counts` (checked: one count per
    /// item of `x` along `a`, or one for all), of checked type `ty` (an existential size along `a`,
    /// `sum(counts)`): item `i` of `x` along `a` repeated `counts[i]` times, a gather along `a`
    /// through `idx[j] = #{i : cumsum(counts)[i] <= j}`, made in O(n + sum) work by scattering 1 to
    /// each end `cumsum(counts)[i]` inside the result (several at one place for zero counts) and
    /// scanning. Run-time errors, NumPy's ValueErrors: counts of another size than `x`'s along `a`
    /// (and not 1), a negative count.
    fn repeat_counts(&mut self, x: ValueId, counts: ValueId, a: usize, ty: &Ty) -> ValueId {
        let Ty::Array(d, shape) = ty else { unreachable!("checked: an array") };
        let counts = self.in_dtype(counts, DType::I64);
        let (n, m) = (self.dim(x, a), self.dim(counts, 0));
        let (zero, one) = (self.i64_const(0), self.i64_const(1));
        let same = self.scalar_binary(BinFn::Eq, m, n, DType::I64);
        let single = self.scalar_binary(BinFn::Eq, m, one, DType::I64);
        let fits = self.scalar_binary(BinFn::Or, same, single, DType::Bool);
        let msg = "repeat: operands could not be broadcast together (one count per item, or one for all)".to_string();
        self.emit(OpKind::Assert { cond: fits, msg });
        // One count for all: broadcast to `n` (a view with stride 0).
        let counts = self.broadcast_to_sizes(counts, &[n]);
        let reduced = |l: &mut Self, kind: ReduceKind| {
            let r = l.new_array(DType::I64, vec![]);
            l.emit(OpKind::Compute { func: ComputeFn::Reduce(kind, None), out: r, ins: vec![counts] });
            l.load_element(r)
        };
        let lowest = reduced(self, ReduceKind::Min);
        let ok = self.scalar_binary(BinFn::Ge, lowest, zero, DType::I64);
        self.emit(OpKind::Assert { cond: ok, msg: "repeat: repeats may not contain negative values".into() });
        let total = reduced(self, ReduceKind::Sum);
        let ends = self.compute_new(ComputeFn::Scan(ReduceKind::Sum, 0), vec![counts], DType::I64, vec![n], None);
        let marks = self.new_array(DType::I64, vec![total]);
        self.emit(OpKind::Compute { func: ComputeFn::Fill, out: marks, ins: vec![zero] });
        self.scatter(marks, &[ends], None, one, ScatterKind::Add, ScatterMode::Drop);
        let idx = self.compute_new(ComputeFn::Scan(ReduceKind::Sum, 0), vec![marks], DType::I64, vec![total], None);
        self.gather(x, &[idx], a, *d, &shape[a..a + 1], Some(shape))
    }

    /// NumPy's `tile(x, (r0, r1, ...))` of checked type `ty`: `x` with 1s prepended to its
    /// shape or to the repetitions (`numpy_shapes::tile_axes`), viewed with a new axis before each
    /// of its axes, `(1, n0, 1, n1, ...)`, and copied broadcast to `(r0, n0, r1, n1, ...)` (one
    /// fused kernel writing a new array), which is then read as `(r0 * n0, r1 * n1, ...)`: a
    /// reshape of contiguous data, as `kron`'s. Each repetition is checked to be non-negative at
    /// run time (NumPy's ValueError).
    fn tile_reps(&mut self, x: &Expr, reps: &Expr, ty: &Ty) -> LResult<ValueId> {
        let (ExprKind::Tuple(items) | ExprKind::List(items)) = &reps.kind else { unreachable!("a tuple of reps") };
        let Ty::Array(d, shape) = ty else { unreachable!("checked: an array") };
        let x = self.expr(x)?;
        let mut ks = vec![];
        for item in items {
            let k = self.expr(item)?;
            ks.push(self.cast_scalar(k, DType::I64));
        }
        let zero = self.i64_const(0);
        for &k in &ks {
            let ok = self.scalar_binary(BinFn::Ge, k, zero, DType::I64);
            self.emit(OpKind::Assert { cond: ok, msg: "tile: negative dimensions are not allowed".into() });
        }
        let r = self.rank(x);
        let one = self.i64_const(1);
        let ns: Vec<ValueId> = (0..r).map(|a| self.dim(x, a)).collect();
        let (ns, ks) = tile_axes(ns, ks, one, one);
        let mut entries = vec![IndexEntry::NewAxis; 2 * (ns.len() - r)];
        entries.extend((0..r).flat_map(|_| [IndexEntry::NewAxis, IndexEntry::Full]));
        let x = self.expand(x, entries);
        let pairs: Vec<ValueId> = ks.iter().zip(&ns).flat_map(|(&k, &n)| [k, n]).collect();
        let copy = self.compute_new(ComputeFn::Copy, vec![x], *d, pairs, None);
        let sizes = ks.iter().zip(&ns).map(|(&k, &n)| self.scalar_binary(BinFn::Mul, k, n, DType::I64)).collect();
        let out = self.reshape_view(copy, sizes);
        self.shapes.insert(out, shape.clone());
        Ok(out)
    }

    /// `roll(x, shift, axis=k)`: `s = shift mod n` (`n` the size along `k`; 0 when `n` is 0), then
    /// `out[s:] = x[:n - s]` and `out[:s] = x[n - s:]` along `k`.
    fn roll(&mut self, x: ValueId, shift: ValueId, k: usize, ty: &Ty) -> ValueId {
        let r = self.rank(x);
        let sizes: Vec<ValueId> = (0..r).map(|d| self.dim(x, d)).collect();
        let n = sizes[k];
        // NumPy's remainder, in `[0, n)`; by `max(n, 1)`, so 0 when `n` is 0.
        let one = self.i64_const(1);
        let divisor = self.scalar_binary(BinFn::Maximum, n, one, DType::I64);
        let s = self.numpy_rem(shift, divisor, DType::I64);
        let rest = self.scalar_binary(BinFn::Sub, n, s, DType::I64);
        // (Of `x` flattened the checked type is the unflattened result's: no shape to record.)
        let out = if ty.shape().is_some_and(|s| s.len() == r) {
            self.new_result(ty, sizes)
        } else {
            self.new_array(ty.dtype().expect("checked: an array"), sizes)
        };
        let (dst, src) = (self.slice_along(out, k, Some(s), None), self.slice_along(x, k, None, Some(rest)));
        self.emit(OpKind::Compute { func: ComputeFn::Copy, out: dst, ins: vec![src] });
        let (dst, src) = (self.slice_along(out, k, None, Some(s)), self.slice_along(x, k, Some(rest), None));
        self.emit(OpKind::Compute { func: ComputeFn::Copy, out: dst, ins: vec![src] });
        out
    }

    /// `pad(x, widths, constant_values=c)`: a new array filled with `c` (default 0, cast to `x`'s
    /// dtype), then `x` copied into its interior; every width checked to be non-negative. The other
    /// modes (`edge`, `wrap`, `reflect`, `symmetric`) are gathers ([`Lowerer::pad_by_gathers`]).
    fn pad(&mut self, arg: &Expr, widths: &Expr, value: Option<&Expr>, mode: PadMode, ty: &Ty) -> LResult<ValueId> {
        let x = self.expr(arg)?;
        let r = self.rank(x);
        let pairs = pad_width_pairs(widths, r).expect("checked: pad widths");
        // Each width expression evaluated once, however many axes it serves.
        let mut done: HashMap<ast::ExprId, ValueId> = HashMap::new();
        let zero = self.i64_const(0);
        let mut width = |l: &mut Self, e: &Expr| -> LResult<ValueId> {
            if let Some(&v) = done.get(&e.id) {
                return Ok(v);
            }
            let v = l.expr(e)?;
            let v = l.cast_scalar(v, DType::I64);
            let ok = l.scalar_binary(BinFn::Ge, v, zero, DType::I64);
            l.emit(OpKind::Assert { cond: ok, msg: "pad: index can't contain negative values".into() });
            done.insert(e.id, v);
            Ok(v)
        };
        let mut before = vec![];
        let mut sizes = vec![];
        for (d, (b, a)) in pairs.into_iter().enumerate() {
            let (b, a) = (width(self, b)?, width(self, a)?);
            let n = self.dim(x, d);
            let n_b = self.scalar_binary(BinFn::Add, n, b, DType::I64);
            sizes.push(self.scalar_binary(BinFn::Add, n_b, a, DType::I64));
            before.push((b, n_b));
        }
        if mode != PadMode::Constant {
            let widths: Vec<ValueId> = before.iter().map(|&(b, _)| b).collect();
            return Ok(self.pad_by_gathers(x, &widths, &sizes, mode, ty));
        }
        let d = ty.dtype().expect("checked: an array");
        let c = match value {
            Some(e) => self.expr(e)?,
            None => self.constant(Scalar::I64(0)),
        };
        let c = self.cast_scalar(c, d);
        let out = self.new_result(ty, sizes);
        self.emit(OpKind::Compute { func: ComputeFn::Fill, out, ins: vec![c] });
        let entries = vec![slice(true, true); r];
        let operands = before.into_iter().flat_map(|(b, e)| [b, e]).collect();
        let inner = self.view_with(out, entries, operands);
        self.emit(OpKind::Compute { func: ComputeFn::Copy, out: inner, ins: vec![x] });
        Ok(out)
    }
}

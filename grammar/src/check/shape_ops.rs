//! Shape operations (`docs/language.md`, "Builtin functions"): the views `flip`, `expand_dims` and
//! `squeeze` (and the tuples of views `split`, `array_split`), and the new arrays `concatenate`, `stack`, `vstack`, `hstack`, `append`, `roll`,
//! `pad`, `tile`, `repeat` and `meshgrid`, with NumPy's shapes and dtypes. Sizes the checker cannot compare (symbols) are checked
//! at run time by the lowering (`passes/src/lower_ast/shape_ops.rs`), naming the line.

use super::builtins::{literal_int, Call};
use super::promote::promote;
use super::Checker;
use crate::ast::{DType, Expr, ExprKind};
use crate::builtin::{
    array_split_start, cross_components, join_axis, join_of_items, join_unit_axes, pad_width_pairs, split_default_axis,
    split_points, splits_equally, with_unit_axes, Builtin,
};
use crate::check::shape::const_slice_len;
use crate::diag::Diagnostic;
use crate::numpy_shapes::meshgrid_ij;
use crate::types::{Size, Ty};

impl Checker {
    /// Checks a shape operation and returns its type (`Ty::Error` after reporting an error).
    pub(super) fn shape_op(&mut self, c: &Call) -> Ty {
        use Builtin as B;
        match c.b {
            B::Flip | B::Roll => {
                let t = self.array_arg(c, &c.args[0]);
                if c.b == B::Roll && self.int_operand(&c.args[1], "the shift of `roll`").is_err() {
                    return Ty::Error;
                }
                let Ty::Array(_, s) = &t else { return Ty::Error };
                // Without `axis=`, `roll` rolls `x` flattened (NumPy's), keeping its shape.
                match c.axis {
                    Some((a, ae)) if self.axis_in_range(a, s, &ae.span).is_none() => Ty::Error,
                    _ => t,
                }
            }
            B::ExpandDims => self.expand_dims(c),
            B::Squeeze => self.squeeze(c),
            B::Concatenate | B::Stack | B::Vstack | B::Hstack | B::Dstack | B::ColumnStack => self.join(c),
            B::Append => self.append(c),
            B::Meshgrid => self.meshgrid(c),
            B::Split | B::ArraySplit | B::Vsplit | B::Hsplit => self.split(c),
            B::Tile | B::Repeat => self.tile_or_repeat(c),
            B::Pad => self.pad(c),
            B::Cross => self.cross(c),
            other => unreachable!("`{}` is not a shape operation", other.name()),
        }
    }

    /// The type of argument `e` of call `c`, which must be an array (else E0503).
    pub(super) fn array_arg(&mut self, c: &Call, e: &Expr) -> Ty {
        let t = self.value(e);
        match t {
            Ty::Array(..) | Ty::Error => t,
            other => {
                self.error(
                    "E0503",
                    format!("`{}` needs an array, found {other}", c.b.name()),
                    e.span.clone(),
                    "not an array",
                );
                Ty::Error
            }
        }
    }

    /// `expand_dims(x, axis=k)`: `x`'s shape with a size 1 inserted at `k` in `-(r+1) ..= r`.
    fn expand_dims(&mut self, c: &Call) -> Ty {
        let t = self.array_arg(c, &c.args[0]);
        let Ty::Array(d, mut s) = t else { return Ty::Error };
        let Some((a, ae)) = c.axis else {
            self.error("E0405", "`expand_dims` needs `axis=`", c.e.span.clone(), "no axis");
            return Ty::Error;
        };
        let mut longer = s.clone();
        longer.push(Size::lit(1));
        let Some(k) = self.axis_in_range(a, &longer, &ae.span) else { return Ty::Error };
        s.insert(k, Size::lit(1));
        Ty::Array(d, s)
    }

    /// `squeeze(x, axis=k)` (axis `k` must have size 1: an error here when its size is another
    /// constant) or `squeeze(x)` (every axis of constant size 1; every size must be constant).
    fn squeeze(&mut self, c: &Call) -> Ty {
        let t = self.array_arg(c, &c.args[0]);
        let Ty::Array(d, s) = t else { return Ty::Error };
        let keep: Vec<Size> = match c.axis {
            Some((a, ae)) => {
                let Some(k) = self.axis_in_range(a, &s, &ae.span) else { return Ty::Error };
                if let Some(n) = s[k].as_const().filter(|&n| n != 1) {
                    self.error(
                        "E0405",
                        format!("cannot squeeze axis {a}: its size is {n}, not 1"),
                        ae.span.clone(),
                        "size is not 1",
                    );
                    return Ty::Error;
                }
                s.iter().enumerate().filter(|&(i, _)| i != k).map(|(_, z)| z.clone()).collect()
            }
            None => {
                if s.iter().any(|z| z.as_const().is_none()) {
                    self.err(
                        Diagnostic::error(
                            "E0405",
                            "`squeeze` without `axis=` needs every size known at compile time",
                            c.e.span.clone(),
                            "sizes known only at run time",
                        )
                        .with_help("name the axis: `squeeze(x, axis=k)`"),
                    );
                    return Ty::Error;
                }
                s.into_iter().filter(|z| z.as_const() != Some(1)).collect()
            }
        };
        if keep.is_empty() {
            Ty::Scalar(d)
        } else {
            Ty::Array(d, keep)
        }
    }

    /// The arrays of the tuple argument of `concatenate`, `stack`, `vstack` or `hstack` (E0503 for
    /// anything else), with their types; `None` after an error.
    fn tuple_of_arrays(&mut self, c: &Call) -> Option<Vec<(DType, Vec<Size>)>> {
        let ExprKind::Tuple(items) = &c.args[0].kind else {
            let f = c.b.name();
            let help = format!("write the arrays in parentheses: `{f}((a, b))`, or give one array, whose items along axis 0 are joined");
            self.err(
                Diagnostic::error(
                    "E0503",
                    format!("`{f}` needs a tuple of arrays"),
                    c.args[0].span.clone(),
                    "not a tuple",
                )
                .with_help(help),
            );
            return None;
        };
        self.set_ty(c.args[0].id, Ty::Unit);
        let mut out = vec![];
        for e in items {
            match self.array_arg(c, e) {
                Ty::Array(d, s) => out.push((d, s)),
                _ => return None,
            }
        }
        Some(out)
    }

    /// `concatenate`, `stack`, `vstack` and `hstack` of a tuple of arrays, or of one array
    /// ([`Checker::join_of_array`]).
    fn join(&mut self, c: &Call) -> Ty {
        if !matches!(c.args[0].kind, ExprKind::Tuple(_)) {
            if let Ty::Array(d, shape) = self.value(&c.args[0]) {
                return self.join_of_array(c, d, &shape);
            }
        }
        let Some(arrays) = self.tuple_of_arrays(c) else { return Ty::Error };
        let d = arrays.iter().map(|(d, _)| *d).reduce(|a, b| promote(a, None, b, None)).expect("a tuple has items");
        let ranks: Vec<usize> = arrays.iter().map(|(_, s)| s.len()).collect();
        let (min_rank, max_rank) = (*ranks.iter().min().unwrap(), *ranks.iter().max().unwrap());
        // Each array's shape as joined, and the axis of the join: `new` for a new axis (`stack`).
        let (shapes, axis, new): (Vec<Vec<Size>>, i64, bool) = match c.b {
            Builtin::Stack => (arrays.iter().map(|(_, s)| s.clone()).collect(), c.axis.map_or(0, |a| a.0), true),
            Builtin::Vstack | Builtin::Dstack | Builtin::ColumnStack => {
                let joined = arrays.iter().map(|(_, s)| match join_unit_axes(c.b, s.len()) {
                    Some(axes) => with_unit_axes(axes, s),
                    None => s.clone(),
                });
                (joined.collect(), join_axis(c.b) as i64, false)
            }
            Builtin::Hstack if max_rank == 1 => (arrays.iter().map(|(_, s)| s.clone()).collect(), 0, false),
            Builtin::Hstack => (arrays.iter().map(|(_, s)| s.clone()).collect(), 1, false),
            _ => (arrays.iter().map(|(_, s)| s.clone()).collect(), c.axis.map_or(0, |a| a.0), false),
        };
        let r = shapes[0].len();
        if shapes.iter().any(|s| s.len() != r) || (min_rank == 0) {
            self.error(
                "E0401",
                format!(
                    "`{}` needs arrays of one rank (at least 1), found ranks {}",
                    c.b.name(),
                    ranks.iter().map(|r| r.to_string()).collect::<Vec<_>>().join(", ")
                ),
                c.args[0].span.clone(),
                "ranks differ",
            );
            return Ty::Error;
        }
        let span = c.axis.map_or(c.e.span.clone(), |(_, ae)| ae.span.clone());
        let mut out_shape = shapes[0].clone();
        if new {
            out_shape.push(Size::lit(0));
        }
        let Some(k) = self.axis_in_range(axis, &out_shape, &span) else { return Ty::Error };
        for s in &shapes[1..] {
            for (i, (a, b)) in shapes[0].iter().zip(s).enumerate() {
                if (new || i != k) && a.provably_eq(b) == Some(false) {
                    self.error(
                        "E0401",
                        format!("`{}` needs equal sizes along axis {i}, found {a} and {b}", c.b.name()),
                        c.args[0].span.clone(),
                        "sizes differ",
                    );
                    return Ty::Error;
                }
            }
        }
        if new {
            out_shape = shapes[0].clone();
            out_shape.insert(k, Size::lit(shapes.len() as i64));
        } else {
            out_shape[k] = shapes[1..].iter().fold(shapes[0][k].clone(), |acc, s| acc.add(&s[k]));
        }
        Ty::Array(d, out_shape)
    }

    /// A join of one array `x` of dtype `d` and `shape`: of its items `x[0], x[1], ..` along axis 0,
    /// as NumPy iterates an array ([`join_of_items`]): `stack(x)` is a copy of `x`, `vstack(x)` of
    /// a 3-d `x` is `(n * a, b)`, `hstack(x)` of a 2-d `x` is `(n * m,)`.
    fn join_of_array(&mut self, c: &Call, d: DType, shape: &[Size]) -> Ty {
        let Some((n, item)) = shape.split_first() else {
            self.error(
                "E0503",
                format!("`{}` of a 0-d array (NumPy's TypeError: not a sequence)", c.b.name()),
                c.args[0].span.clone(),
                "a 0-d array",
            );
            return Ty::Error;
        };
        let Some((units, axis, new)) = join_of_items(c.b, item.len(), c.axis.map(|a| a.0)) else {
            self.error(
                "E0401",
                "`concatenate` of the items of a 1-d array, which are scalars (NumPy's ValueError: \
                zero-dimensional arrays cannot be concatenated)",
                c.args[0].span.clone(),
                "a 1-d array",
            );
            return Ty::Error;
        };
        let mut out = units.map_or_else(|| item.to_vec(), |u| with_unit_axes(u, item));
        if new {
            out.push(Size::lit(0));
        }
        let span = c.axis.map_or(c.e.span.clone(), |(_, ae)| ae.span.clone());
        let Some(k) = self.axis_in_range(axis, &out, &span) else { return Ty::Error };
        if new {
            out.pop();
            out.insert(k, n.clone());
        } else {
            out[k] = match n.mul(&out[k]) {
                Some(s) => s,
                None => self.fresh(),
            };
        }
        Ty::Array(d, out)
    }

    /// `cross(a, b)`: vectors of [`cross_components`] components along the last axis of each, the
    /// leading axes broadcast.
    fn cross(&mut self, c: &Call) -> Ty {
        let ta = self.array_arg(c, &c.args[0]);
        let tb = self.array_arg(c, &c.args[1]);
        let (Ty::Array(da, sa), Ty::Array(db, sb)) = (&ta, &tb) else { return Ty::Error };
        if *da == DType::Bool || *db == DType::Bool {
            let bad = if *da == DType::Bool { &c.args[0] } else { &c.args[1] };
            self.error("E0503", "`cross` of bool vectors (NumPy's TypeError)", bad.span.clone(), "a bool array");
            return Ty::Error;
        }
        let k = match (cross_components(sa), cross_components(sb)) {
            (Some(k), Some(l)) if k == l => k,
            _ => {
                self.err(
                    Diagnostic::error(
                        "E0503",
                        format!(
                            "`cross` needs vectors of 2 or 3 components each along the last axis, found {ta} and {tb}"
                        ),
                        c.e.span.clone(),
                        "component counts",
                    )
                    .with_help(
                        "the last axes' sizes must be known and equal: `a[..., :3]`, or pad a 2-d vector with a 0",
                    ),
                );
                return Ty::Error;
            }
        };
        let d = promote(*da, None, *db, None);
        let lead = |s: &[Size]| Ty::Array(d, s[..s.len() - 1].to_vec());
        match self.broadcast_all(&[&lead(sa), &lead(sb)], d, c.e) {
            Ty::Array(d, mut s) if k == 3 => {
                s.push(Size::lit(3));
                Ty::Array(d, s)
            }
            Ty::Array(d, s) if s.is_empty() => Ty::Scalar(d),
            t => t,
        }
    }

    /// `append(x, values)`: `x` 1-d, `values` a scalar or 1-d.
    fn append(&mut self, c: &Call) -> Ty {
        let tx = self.value(&c.args[0]);
        let tv = self.value(&c.args[1]);
        let (Some(dx), Some(dv)) = (tx.dtype(), tv.dtype()) else { return Ty::Error };
        let size_of = |t: &Ty| match t {
            Ty::Array(_, s) if s.len() == 1 => Some(s[0].clone()),
            Ty::Scalar(_) => Some(Size::lit(1)),
            _ => None,
        };
        let (Some(n), Some(m), Ty::Array(..)) = (size_of(&tx), size_of(&tv), &tx) else {
            let bad = if matches!(&tx, Ty::Array(_, s) if s.len() == 1) { &c.args[1] } else { &c.args[0] };
            self.err(
                Diagnostic::error(
                    "E0503",
                    format!("`append` needs a 1-d array and a scalar or 1-d array, found {tx} and {tv}"),
                    bad.span.clone(),
                    "not 1-d",
                )
                .with_note("NumPy's `append` flattens arrays of other ranks, which arrayc does not do"),
            );
            return Ty::Error;
        };
        Ty::Array(promote(dx, None, dv, None), vec![n.add(&m)])
    }

    /// `tile(x, reps)` (along the last axis) and `repeat(x, k, axis=a)` (without `axis=`, of `x`
    /// flattened): `x`'s shape with the size along that axis multiplied by the integer.
    fn tile_or_repeat(&mut self, c: &Call) -> Ty {
        if let (Builtin::Tile, ExprKind::Tuple(items) | ExprKind::List(items)) = (c.b, &c.args[1].kind) {
            return self.tile_reps(c, items);
        }
        let t = self.array_arg(c, &c.args[0]);
        let kt = self.expr(&c.args[1]);
        let counts = c.b == Builtin::Repeat && matches!(kt, Ty::Array(..));
        let what = if c.b == Builtin::Tile { "the repetitions of `tile`" } else { "the repetitions of `repeat`" };
        let k = if counts { Ok(None) } else { self.int_typed(&c.args[1], kt.clone(), what) };
        let Ok(k) = k else { return Ty::Error };
        let Ty::Array(d, mut s) = t else { return Ty::Error };
        let a = match (c.b, c.axis) {
            (Builtin::Tile, _) => s.len() - 1,
            (_, Some((a, ae))) => match self.axis_in_range(a, &s, &ae.span) {
                Some(a) => a,
                None => return Ty::Error,
            },
            (_, None) if s.len() == 1 => 0,
            (_, None) => {
                // NumPy's `repeat` without an axis: of `x` flattened, 1-d.
                let n = s.iter().try_fold(Size::lit(1), |p, z| p.mul(z)).unwrap_or_else(|| self.fresh());
                s = vec![n];
                0
            }
        };
        if counts && self.repeat_counts(&c.args[1], &kt, &s[a]).is_err() {
            return Ty::Error;
        }
        s[a] = k.and_then(|k| s[a].mul(&k)).unwrap_or_else(|| self.fresh());
        Ty::Array(d, s)
    }

    /// `repeat(x, counts, axis=a)` with an array of counts (NumPy's `repeats` array, cast to
    /// integers by the `safe` rule): `counts` must be 1-d, of integers or bools, and of `x`'s size
    /// `n` along `a` or of size 1 (broadcast to `n`); the result's size along `a`, `sum(counts)`,
    /// is known only at run time. Errors: E0406 (another rank, a float dtype: NumPy's TypeError),
    /// E0401 (a size provably neither `n` nor 1: NumPy's ValueError). Negative counts are a
    /// run-time error (the lowering's).
    fn repeat_counts(&mut self, e: &Expr, kt: &Ty, n: &Size) -> Result<(), ()> {
        let Ty::Array(kd, ks) = kt else { unreachable!("an array of counts") };
        if ks.len() != 1 || !(kd.is_int() || *kd == DType::Bool) || *kd == DType::U64 {
            self.error(
                "E0406",
                format!("the repetitions of `repeat` must be an integer scalar or a 1-d integer array, found {kt}"),
                e.span.clone(),
                "not integer counts",
            );
            return Err(());
        }
        let m = &ks[0];
        if m.provably_eq(n) == Some(false) && m.provably_eq(&Size::lit(1)) == Some(false) {
            self.err(
                Diagnostic::error(
                    "E0401",
                    format!("`repeat` has {m} counts for an axis of {n} items"),
                    e.span.clone(),
                    "one count per item, or one for all",
                )
                .with_note("NumPy: operands could not be broadcast together"),
            );
            return Err(());
        }
        Ok(())
    }

    /// `tile(x, (r0, r1, ...))`, NumPy's: `x`'s shape and the repetitions (integers), the shorter
    /// of the two with 1s prepended ([`crate::numpy_shapes::tile_axes`]), multiplied axis by axis.
    fn tile_reps(&mut self, c: &Call, items: &[Expr]) -> Ty {
        let t = self.array_arg(c, &c.args[0]);
        self.set_ty(c.args[1].id, Ty::Unit);
        let mut reps = vec![];
        for item in items {
            let Ok(k) = self.int_operand(item, "a repetition of `tile`") else { return Ty::Error };
            reps.push(k);
        }
        let Ty::Array(d, s) = t else { return Ty::Error };
        let (s, reps) = crate::numpy_shapes::tile_axes(s, reps, Size::lit(1), Some(Size::lit(1)));
        let shape =
            s.iter().zip(reps).map(|(n, k)| k.and_then(|k| n.mul(&k)).unwrap_or_else(|| self.fresh())).collect();
        Ty::Array(d, shape)
    }

    /// `split(x, [p0, p1, ..])` / `array_split(x, [p0, ..], axis=a)` (both alike, as NumPy's): a
    /// tuple of one more section than points, section `i` of the size of `x[p(i-1):p(i)]` along
    /// axis `a` (Python's slice rules: negative points count from the end, points beyond it give
    /// empty sections); a size known only at run time when the axis' size is a symbol.
    fn split_at_points(&mut self, c: &Call, t: Ty, points: &[i64]) -> Ty {
        let Ty::Array(d, s) = t else { return Ty::Error };
        let Some(a) = self.split_axis(c, &s) else { return Ty::Error };
        // Type the list's items (as integers), not the list: it is not an array value.
        for item in match &c.args[1].kind {
            ExprKind::List(items) | ExprKind::Tuple(items) => items.as_slice(),
            _ => &[],
        } {
            self.expr(item);
        }
        self.set_ty(c.args[1].id, Ty::Unit);
        let bounds: Vec<Option<i64>> =
            std::iter::once(None).chain(points.iter().map(|&p| Some(p))).chain([None]).collect();
        let parts = bounds
            .windows(2)
            .map(|w| {
                let mut shape = s.clone();
                shape[a] = match s[a].as_const() {
                    Some(n) => Size::lit(const_slice_len(n, w[0], w[1], 1)),
                    None => self.fresh(),
                };
                Ty::Array(d, shape)
            })
            .collect();
        Ty::Tuple(parts)
    }

    /// The axis a `split`-family call `c` of an array of shape `s` cuts along, in range (E0405
    /// otherwise), [`split_default_axis`] without `axis=`; `vsplit` of fewer than 2 dimensions is
    /// NumPy's ValueError (E0405).
    fn split_axis(&mut self, c: &Call, s: &[Size]) -> Option<usize> {
        if c.b == Builtin::Vsplit && s.len() < 2 {
            self.err(
                Diagnostic::error(
                    "E0405",
                    format!("`vsplit` needs an array of 2 or more dimensions, found {}", s.len()),
                    c.args[0].span.clone(),
                    "fewer than 2 dimensions",
                )
                .with_help("split a 1-d array with `split(x, k)`"),
            );
            return None;
        }
        let (a, span) = match c.axis {
            Some((a, ae)) => (a, ae.span.clone()),
            None => (split_default_axis(c.b, s.len()), c.args[0].span.clone()),
        };
        self.axis_in_range(a, s, &span)
    }

    /// `split(x, k)` / `array_split(x, k, axis=a)`: a tuple of `k` arrays of `x`'s shape, each with
    /// its section's size along axis `a` ([`array_split_start`]); `k` must be a positive integer
    /// literal (E0503), and for `split` a known size must divide evenly (E0503, NumPy's ValueError).
    fn split(&mut self, c: &Call) -> Ty {
        let t = self.array_arg(c, &c.args[0]);
        if let Some(points) = split_points(&c.args[1]) {
            return self.split_at_points(c, t, &points);
        }
        let Some(k) = literal_int(&c.args[1]).filter(|&k| k >= 1) else {
            self.expr(&c.args[1]);
            self.err(
                Diagnostic::error(
                    "E0503",
                    format!("`{}` needs the number of sections as a positive integer literal", c.b.name()),
                    c.args[1].span.clone(),
                    "not a positive integer literal",
                )
                .with_help("write the count, e.g. `split(x, 2)`, or the split points as a list of integer literals, `split(x, [2, 5])`"),
            );
            return Ty::Error;
        };
        let Ty::Array(d, s) = t else { return Ty::Error };
        let Some(a) = self.split_axis(c, &s) else { return Ty::Error };
        let sizes: Vec<Size> = match s[a].as_const() {
            Some(n) if splits_equally(c.b) && n % k != 0 => {
                self.err(
                    Diagnostic::error(
                        "E0503",
                        format!("array split does not result in an equal division: {n} elements into {k} sections"),
                        c.e.span.clone(),
                        "unequal sections",
                    )
                    .with_help("`array_split` allows sections of unequal size"),
                );
                return Ty::Error;
            }
            Some(n) => (0..k).map(|i| Size::lit(array_split_start(n, k, i + 1) - array_split_start(n, k, i))).collect(),
            None => (0..k).map(|_| self.fresh()).collect(),
        };
        Ty::Tuple(
            sizes
                .into_iter()
                .map(|n| {
                    let mut shape = s.clone();
                    shape[a] = n;
                    Ty::Array(d, shape)
                })
                .collect(),
        )
    }

    /// `meshgrid(x1, x2, ...)` of 1-d arrays: one array per input, each of its dtype and of shape
    /// `(n2, n1, n3, ...)` (NumPy's default `indexing='xy'`), or `(n1, n2, n3, ...)` with
    /// `indexing="ij"`.
    fn meshgrid(&mut self, c: &Call) -> Ty {
        let mut inputs = vec![];
        for e in c.args {
            match self.value(e) {
                Ty::Array(d, s) if s.len() == 1 => inputs.push((d, s[0].clone())),
                Ty::Error => return Ty::Error,
                other => {
                    self.error(
                        "E0503",
                        format!("`meshgrid` needs 1-d arrays, found {other}"),
                        e.span.clone(),
                        "not 1-d",
                    );
                    return Ty::Error;
                }
            }
        }
        let mut shape: Vec<Size> = inputs.iter().map(|(_, n)| n.clone()).collect();
        if !c.kwarg("indexing").and_then(meshgrid_ij).unwrap_or(false) {
            shape.swap(0, 1);
        }
        Ty::Tuple(inputs.iter().map(|(d, _)| Ty::Array(*d, shape.clone())).collect())
    }

    /// `pad(x, widths, constant_values=c)`: widths an integer, a pair `(before, after)` or one pair
    /// per axis.
    fn pad(&mut self, c: &Call) -> Ty {
        let t = self.array_arg(c, &c.args[0]);
        let Ty::Array(d, s) = t else {
            self.expr(&c.args[1]);
            return Ty::Error;
        };
        let Some(widths) = self.pad_widths(&c.args[1], s.len()) else { return Ty::Error };
        let mode = c.kwarg("mode").and_then(crate::numpy_shapes::pad_mode);
        if let (Some(m), Some(v)) =
            (mode.filter(|&m| m != crate::numpy_shapes::PadMode::Constant), c.kwarg("constant_values"))
        {
            let name = format!("{m:?}").to_lowercase();
            self.err(
                Diagnostic::error(
                    "E0502",
                    format!("`constant_values` of `pad` with `mode={name}` (NumPy's ValueError: unsupported keyword arguments)"),
                    v.span.clone(),
                    "only with mode=\"constant\"",
                )
                .with_help("leave `constant_values=` out, or pad with `mode=\"constant\"`"),
            );
            return Ty::Error;
        }
        let shape = s
            .iter()
            .zip(&widths)
            .map(|(n, (b, a))| match (b, a) {
                (Some(b), Some(a)) => n.add(b).add(a),
                _ => self.fresh(),
            })
            .collect();
        Ty::Array(d, shape)
    }

    /// The `(before, after)` widths of each of `r` axes that `pad`'s argument `w` gives
    /// ([`pad_width_pairs`]), each a size when the checker knows it; `None` after an error (E0503:
    /// a negative literal, a tuple of another form).
    fn pad_widths(&mut self, w: &Expr, r: usize) -> Option<Vec<(Option<Size>, Option<Size>)>> {
        let Some(pairs) = pad_width_pairs(w, r) else {
            if let ExprKind::Tuple(items) = &w.kind {
                for i in items {
                    self.expr(i);
                }
            }
            self.err(
                Diagnostic::error(
                    "E0503",
                    format!(
                        "`pad` widths must be an integer, a pair `(before, after)` or {r} such pairs, one per axis"
                    ),
                    w.span.clone(),
                    "not pad widths",
                )
                .with_help("e.g. `pad(x, 1)`, `pad(x, (1, 2))` or `pad(x, ((1, 2), (0, 1)))` for a 2-d `x`"),
            );
            return None;
        };
        mark_tuples(self, w);
        // A width used for several axes is checked once.
        let mut seen: Vec<(crate::ast::ExprId, Option<Size>)> = vec![];
        let mut out = vec![];
        for (b, a) in pairs {
            let mut one = |ck: &mut Self, e: &Expr| -> Option<Option<Size>> {
                if let Some((_, s)) = seen.iter().find(|(id, _)| *id == e.id) {
                    return Some(s.clone());
                }
                let s = ck.pad_width(e)?;
                seen.push((e.id, s.clone()));
                Some(s)
            };
            let b = one(self, b)?;
            out.push((b, one(self, a)?));
        }
        Some(out)
    }

    /// One pad width: a non-negative integer scalar (its size when known; `Some(None)` when not).
    fn pad_width(&mut self, e: &Expr) -> Option<Option<Size>> {
        let v = self.int_operand(e, "a pad width").ok()?;
        if let Some(n) = literal_int(e).filter(|&n| n < 0) {
            self.error("E0503", format!("negative pad width {n}"), e.span.clone(), "negative");
            return None;
        }
        Some(v)
    }
}

/// Types the tuples of a `pad` width argument as `()` (they are forms, not values).
fn mark_tuples(ck: &mut Checker, w: &Expr) {
    if let ExprKind::Tuple(items) = &w.kind {
        ck.set_ty(w.id, Ty::Unit);
        for i in items {
            mark_tuples(ck, i);
        }
    }
}

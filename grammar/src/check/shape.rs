//! Symbolic shapes: broadcasting, slice sizes, subscripts (views).

use super::Checker;
use crate::ast::{DType, Expr, Index, Span};
use crate::diag::Diagnostic;
use crate::types::{Size, Ty, MAX_SIZE_WEIGHT};

/// Broadcasting failure: the right-aligned dimension pair that provably differs.
#[derive(Clone, Debug)]
pub struct BroadcastError {
    pub left: Size,
    pub right: Size,
}

/// Outcome of broadcasting one pair of sizes.
enum Pair {
    Take(Size),
    Undecided,
    Incompatible,
}

fn pair(a: &Size, b: &Size) -> Pair {
    if a.as_const() == Some(1) {
        return Pair::Take(b.clone());
    }
    if b.as_const() == Some(1) {
        return Pair::Take(a.clone());
    }
    match a.provably_eq(b) {
        Some(true) => Pair::Take(a.clone()),
        Some(false) => Pair::Incompatible,
        None => Pair::Undecided,
    }
}

/// Formats a shape as `[a, b]`.
pub fn shape_str(s: &[Size]) -> String {
    let v: Vec<String> = s.iter().map(|x| x.to_string()).collect();
    format!("[{}]", v.join(", "))
}

impl Checker {
    /// NumPy broadcasting of two shapes (right-aligned). Undecidable pairs get their broadcast set
    /// ([`Size::broadcast`], checked at run time by the lowering's `arr.broadcast`); provably
    /// different pairs (neither a literal 1) are an error.
    pub fn broadcast(&mut self, a: &[Size], b: &[Size]) -> Result<Vec<Size>, BroadcastError> {
        let n = a.len().max(b.len());
        let mut out = Vec::with_capacity(n);
        for i in 0..n {
            let x = (i + a.len()).checked_sub(n).map(|k| a[k].clone());
            let y = (i + b.len()).checked_sub(n).map(|k| b[k].clone());
            let s = match (x, y) {
                (Some(x), Some(y)) => match pair(&x, &y) {
                    Pair::Take(s) => s,
                    Pair::Undecided => {
                        let s = Size::broadcast(&x, &y);
                        if s.weight() > MAX_SIZE_WEIGHT {
                            self.fresh()
                        } else {
                            s
                        }
                    }
                    Pair::Incompatible => return Err(BroadcastError { left: x, right: y }),
                },
                (Some(x), None) | (None, Some(x)) => x,
                (None, None) => Size::lit(1),
            };
            out.push(s);
        }
        Ok(out)
    }

    /// Checks that a value of shape `value` can be written into a view of shape `target`
    /// (broadcast to exactly `target`). Returns the offending pair when provably not.
    pub fn fits_into(&self, value: &[Size], target: &[Size]) -> Result<(), BroadcastError> {
        let extra = value.len().saturating_sub(target.len());
        for v in &value[..extra] {
            if v.provably_eq(&Size::lit(1)) == Some(false) {
                return Err(BroadcastError { left: v.clone(), right: Size::lit(1) });
            }
        }
        for (i, v) in value[extra..].iter().enumerate() {
            let t = &target[target.len() - (value.len() - extra) + i];
            if v.as_const() == Some(1) {
                continue;
            }
            if v.provably_eq(t) == Some(false) {
                return Err(BroadcastError { left: v.clone(), right: t.clone() });
            }
        }
        Ok(())
    }

    /// Size of `x[start:stop:step]` on a dimension of size `dim` (NumPy semantics).
    /// Exact for constant bounds on a constant dimension; for affine bounds and a constant step it
    /// is [`arrayc_core::shape::symbolic_slice`]'s length (`ceil((stop - start) / step)`, negative
    /// constant bounds counting from the end), assuming the bounds lie within the dimension, as the
    /// fusion pass's views do; anything else is a fresh unknown.
    pub fn slice_size(
        &mut self,
        dim: &Size,
        start: Option<Option<Size>>,
        stop: Option<Option<Size>>,
        step: Option<Option<i64>>,
    ) -> Size {
        // Outer Option: bound present; inner Option: its affine value if known.
        let step = match step {
            None => 1,
            Some(Some(s)) => s,
            Some(None) => return self.fresh(),
        };
        let known = |b: &Option<Option<Size>>| !matches!(b, Some(None));
        if !known(&start) || !known(&stop) || step == 0 {
            return self.fresh();
        }
        let start = start.flatten();
        let stop = stop.flatten();
        if let Some(d) = dim.as_const() {
            let sc = start.as_ref().map(|s| s.as_const());
            let ec = stop.as_ref().map(|s| s.as_const());
            if sc != Some(None) && ec != Some(None) {
                return Size::lit(const_slice_len(d, sc.flatten(), ec.flatten(), step));
            }
        }
        match arrayc_core::shape::symbolic_slice(dim, start, stop, step) {
            Some((_, len)) if len.weight() <= MAX_SIZE_WEIGHT => len,
            _ => self.fresh(),
        }
    }

    /// Type of the view `base[index]`. Reports too many indices, bad index types, provably
    /// out-of-range integer indices. All integers on all dimensions give a scalar. `i64` index
    /// arrays, with integers and slices beside them, are a gather (NumPy's advanced indexing): the
    /// index arrays' broadcast shape `B` takes the place of the run of index arrays and integers
    /// when that run is one (`x[:, i, 0]`: `x.shape[:1] + B`), else comes first (`x[i, :, 0]`:
    /// `B + x.shape[1:2]`); a copy, not a view; as an assignment target, the shape a scatter's value
    /// must broadcast to. `newaxis` or `...` beside index arrays is E0409. A `bool` mask of rank k
    /// (the only index) is a filter along the k leading axes: `[?] + base.shape[k:]`.
    pub fn index_ty(&mut self, base: &Ty, index: &[Index], span: &Span) -> Ty {
        // Check the index expressions first so they all get types.
        let mut parts = Vec::with_capacity(index.len());
        for ix in index {
            parts.push(self.index_part(ix));
        }
        let (dtype, shape) = match base {
            Ty::Array(d, s) => (*d, s.clone()),
            Ty::Error => return Ty::Error,
            Ty::Scalar(_) => {
                self.error("E0408", format!("cannot subscript a scalar of type {base}"), span.clone(), "not an array");
                return Ty::Error;
            }
            other => {
                self.error("E0408", format!("cannot subscript a value of type {other}"), span.clone(), "not an array");
                return Ty::Error;
            }
        };
        // A 1-d mask beside other entries (`x[:, mask]`, `x[0, mask]`) is, as in NumPy, the index
        // array of its `true` positions, `nonzero(mask)[0]` (of a size known at run time), at its
        // axis: a gather. Its size must be the axis's (NumPy's IndexError; checked at run time
        // where not known here).
        if index.len() > 1 {
            for (k, ix) in index.iter().enumerate() {
                let (Index::At(e), Some(Part::Mask(m))) = (ix, parts.get(k)) else { continue };
                if m.len() != 1 {
                    continue;
                }
                if let Some(xs) = shape.get(k) {
                    if m[0].provably_eq(xs) == Some(false) {
                        self.error(
                            "E0401",
                            format!(
                                "a boolean index of size {} along axis {k} cannot index an array of size {xs} there",
                                m[0]
                            ),
                            e.span.clone(),
                            "mask size differs",
                        );
                        return Ty::Error;
                    }
                }
                parts[k] = Part::Gather(vec![self.fresh()]);
            }
        }
        if let Some(k) = parts.iter().position(|p| matches!(p, Part::Mask(_))) {
            let Index::At(e) = &index[k] else { unreachable!("a mask part comes from an `At` entry") };
            let Some(Part::Mask(m)) = parts.get(k) else { unreachable!("checked above") };
            // A mask of rank k selects along x's k leading axes (elements, for k = rank).
            if index.len() != 1 || m.is_empty() || m.len() > shape.len() {
                self.err(
                    Diagnostic::error(
                        "E0409",
                        "a boolean mask must be the only index (of rank 1 up to the array's rank), or 1-d beside integers and slices",
                        e.span.clone(),
                        "a boolean mask",
                    )
                    .with_note(format!("the array has shape {}, the mask {}", shape_str(&shape), shape_str(m)))
                    .with_help("filter with a mask of the shape of the array's leading axes (NumPy's `x[mask]`)"),
                );
                return Ty::Error;
            }
            for (a, (ms, xs)) in m.iter().zip(&shape).enumerate() {
                if ms.provably_eq(xs) == Some(false) {
                    self.error(
                        "E0401",
                        format!("a boolean mask of size {ms} along axis {a} cannot filter an array of size {xs} there"),
                        e.span.clone(),
                        "mask size differs",
                    );
                    return Ty::Error;
                }
            }
            // A filter: as many elements (rows) as the mask has `true`s, known only at run time.
            let rest = shape[m.len()..].iter().cloned();
            return Ty::Array(dtype, std::iter::once(self.fresh()).chain(rest).collect());
        }
        if let Some(k) = parts.iter().position(|p| matches!(p, Part::Gather(_))) {
            let Index::At(e) = &index[k] else { unreachable!("a gather part comes from an `At` entry") };
            // NumPy's advanced indexing: index arrays, integers and slices, one per axis.
            let basic = |p: &Part| matches!(p, Part::Gather(_) | Part::At(_) | Part::Slice(..));
            if !parts.iter().all(basic) || index.len() > shape.len() {
                self.err(
                    Diagnostic::error(
                        "E0409",
                        "index arrays take only integers and slices beside them, at most one index per axis",
                        e.span.clone(),
                        "an index array",
                    )
                    .with_note(format!("the array has shape {}", shape_str(&shape)))
                    .with_help("gather with index arrays, integers and slices (`x[idx]`, `x[i, j]`, `x[1:, idx]`, `x[0, :, idx]`), then index the result"),
                );
                return Ty::Error;
            }
            let Some(b) = self.index_arrays_shape(&parts, index) else { return Ty::Error };
            for (d, (p, ix)) in parts.iter().zip(index).enumerate() {
                if let (Part::At(Some(v)), Index::At(e)) = (p, ix) {
                    self.check_in_range(v, &shape[d], e);
                }
            }
            // NumPy places the broadcast index axes where the run of index entries (arrays and
            // integers) is when it is one run, else first; the sliced axes keep their order.
            let run = advanced_run(index);
            let mut out = if run.is_some() { vec![] } else { b.clone() };
            for (d, p) in parts.iter().enumerate() {
                match p {
                    Part::Slice(s, t, u) => out.push(self.slice_size(&shape[d], s.clone(), t.clone(), *u)),
                    _ if run.as_ref().is_some_and(|r| r.start == d) => out.extend(b.iter().cloned()),
                    _ => {}
                }
            }
            out.extend(shape[index.len()..].iter().cloned());
            return Ty::Array(dtype, out);
        }
        let consuming = index.iter().filter(|i| matches!(i, Index::At(_) | Index::Slice { .. })).count();
        let ellipses: Vec<&Index> = index.iter().filter(|i| matches!(i, Index::Ellipsis(_))).collect();
        if ellipses.len() > 1 {
            if let Some(Index::Ellipsis(s)) = ellipses.get(1) {
                self.error("E0403", "an index can only have a single ellipsis (`...`)", s.clone(), "second ellipsis");
            }
            return Ty::Error;
        }
        if consuming > shape.len() {
            self.err(
                Diagnostic::error(
                    "E0403",
                    format!("too many indices: {consuming} for an array of rank {}", shape.len()),
                    span.clone(),
                    format!("array has shape {}", shape_str(&shape)),
                )
                .with_help("use at most one index or slice per dimension"),
            );
            return Ty::Error;
        }
        let mut out = Vec::new();
        let mut dim = 0usize;
        let mut any_error = false;
        let mut all_ints = true;
        for (ix, part) in index.iter().zip(parts) {
            match (ix, part) {
                (Index::NewAxis(_), _) => {
                    out.push(Size::lit(1));
                    all_ints = false;
                }
                (Index::Ellipsis(_), _) => {
                    let n = shape.len() - consuming;
                    out.extend(shape[dim..dim + n].iter().cloned());
                    dim += n;
                    all_ints = false;
                }
                (Index::At(e), Part::At(v)) => {
                    if let Some(v) = v {
                        self.check_in_range(&v, &shape[dim], e);
                    }
                    dim += 1;
                }
                (Index::Slice { .. }, Part::Slice(a, b, c)) => {
                    let s = self.slice_size(&shape[dim], a, b, c);
                    out.push(s);
                    dim += 1;
                    all_ints = false;
                }
                (_, Part::Bad) => {
                    any_error = true;
                    dim += 1;
                }
                _ => {}
            }
        }
        out.extend(shape[dim.min(shape.len())..].iter().cloned());
        if any_error {
            return Ty::Error;
        }
        if all_ints && out.is_empty() && !index.is_empty() {
            Ty::Scalar(dtype)
        } else {
            Ty::Array(dtype, out)
        }
    }

    /// The broadcast shape of the index arrays among `parts` (E0401 when they do not broadcast).
    fn index_arrays_shape(&mut self, parts: &[Part], index: &[Index]) -> Option<Vec<Size>> {
        let arrays = parts.iter().zip(index).filter_map(|(p, ix)| match (p, ix) {
            (Part::Gather(g), Index::At(e)) => Some((e.span.clone(), g.as_slice())),
            _ => None,
        });
        self.broadcast_index_arrays(arrays)
    }

    /// The broadcast shape of index arrays given as (span, shape), as NumPy broadcasts the index
    /// arrays of a gather, scatter or `add_at`; E0401 at the first that does not broadcast.
    pub fn broadcast_index_arrays<'s>(
        &mut self,
        arrays: impl IntoIterator<Item = (Span, &'s [Size])>,
    ) -> Option<Vec<Size>> {
        let mut b: Vec<Size> = vec![];
        for (span, g) in arrays {
            match self.broadcast(&b, g) {
                Ok(s) => b = s,
                Err(be) => {
                    self.error(
                        "E0401",
                        format!(
                            "index arrays of shapes {} and {} do not broadcast together",
                            shape_str(&b),
                            shape_str(g)
                        ),
                        span,
                        format!("size {} vs {}", be.left, be.right),
                    );
                    return None;
                }
            }
        }
        Some(b)
    }

    fn check_in_range(&mut self, idx: &Size, dim: &Size, e: &Expr) {
        let out = match idx.as_const() {
            Some(k) if k < 0 => dim.add(idx).as_const().is_some_and(|v| v < 0),
            _ => idx.sub(dim).as_const().is_some_and(|v| v >= 0),
        };
        if out {
            self.err(
                Diagnostic::error(
                    "E0404",
                    format!("index {idx} is out of range for a dimension of size {dim}"),
                    e.span.clone(),
                    "out of range",
                )
                .with_note(format!("valid indices are -{dim} ..= {dim}-1")),
            );
        }
    }

    /// Checks one index entry; returns the affine values of its parts.
    fn index_part(&mut self, ix: &Index) -> Part {
        match ix {
            Index::At(e) => {
                let t = self.expr(e);
                match t {
                    // NumPy takes index arrays of any integer dtype; the lowering converts to i64.
                    Ty::Array(DType::U64, _) => {
                        self.refuse_u64("E0406", e, "an index array");
                        return Part::Bad;
                    }
                    Ty::Array(d, g) if d.is_int() => return Part::Gather(g),
                    Ty::Array(DType::Bool, m) => return Part::Mask(m),
                    _ => {}
                }
                match self.int_typed(e, t, "an index") {
                    Ok(v) => Part::At(v),
                    Err(()) => Part::Bad,
                }
            }
            Index::Slice { start, stop, step, .. } => {
                let mut bad = false;
                let mut bound = |c: &mut Checker, b: &Option<Expr>| -> Option<Option<Size>> {
                    let e = b.as_ref()?;
                    match c.int_operand(e, "a slice bound") {
                        Ok(v) => Some(v),
                        Err(()) => {
                            bad = true;
                            Some(None)
                        }
                    }
                };
                let a = bound(self, start);
                let b = bound(self, stop);
                let c = bound(self, step);
                if let (Some(Some(s)), Some(e)) = (&c, step) {
                    if s.as_const() == Some(0) {
                        self.error("E0407", "slice step cannot be zero", e.span.clone(), "zero step");
                        bad = true;
                    }
                }
                if bad {
                    return Part::Bad;
                }
                let c = c.map(|s| s.and_then(|s| s.as_const()));
                Part::Slice(a, b, c)
            }
            Index::NewAxis(_) | Index::Ellipsis(_) => Part::Other,
        }
    }

    /// Checks that `e` is an integer scalar (`i64`, or another integer dtype that the lowering
    /// converts to `i64`); returns its affine value if known.
    pub fn int_operand(&mut self, e: &Expr, what: &str) -> Result<Option<Size>, ()> {
        let t = self.expr(e);
        self.int_typed(e, t, what)
    }

    /// Error `code` for a `u64` scalar used as `what` (an index, a bound, a size), where arrayc
    /// computes in `i64`: a value of 2^63 or more would wrap to a negative one, where NumPy raises
    /// (OverflowError, or gives `float64` for `arange`); the fix is an explicit conversion.
    pub(super) fn refuse_u64(&mut self, code: &'static str, e: &Expr, what: &str) {
        self.err(
            Diagnostic::error(code, format!("{what} must not be u64"), e.span.clone(), "has type u64")
                .with_note("arrayc computes it in i64, where a u64 of 2^63 or more does not fit (NumPy raises)")
                .with_help("convert it: `i64(...)` (or `u8(...)` for small values)"),
        );
    }

    /// [`Checker::int_operand`] for an expression already checked, of type `t`.
    pub(super) fn int_typed(&mut self, e: &Expr, t: Ty, what: &str) -> Result<Option<Size>, ()> {
        match t {
            Ty::Scalar(DType::I64) => Ok(self.affine(e)),
            Ty::Scalar(DType::U64) => {
                self.refuse_u64("E0406", e, what);
                Err(())
            }
            // NumPy takes any integer here; the lowering converts it to i64 (no affine value).
            Ty::Scalar(d) if d.is_int() => Ok(None),
            Ty::Error => Err(()),
            // A call's several results (`x[nonzero(x)]`): E0309.
            Ty::Tuple(_) => {
                self.require_value_of(t, e);
                Err(())
            }
            other => {
                let mut d = Diagnostic::error(
                    "E0406",
                    format!("{what} must be an integer scalar, found {other}"),
                    e.span.clone(),
                    format!("has type {other}"),
                );
                if what == "an index" {
                    d = d.with_help(match other {
                        Ty::Array(..) => "an index array must have an integer dtype, a boolean mask bool",
                        _ => "convert the index with `i64(...)`",
                    });
                }
                self.err(d);
                Err(())
            }
        }
    }
}

/// The checked parts of one index entry.
enum Part {
    At(Option<Size>),
    /// An index array (of any integer dtype) of this shape (a gather).
    Gather(Vec<Size>),
    /// A `bool` array of this shape (a boolean mask: a filter).
    Mask(Vec<Size>),
    Slice(Option<Option<Size>>, Option<Option<Size>>, Option<Option<i64>>),
    Other,
    Bad,
}

/// The entries of an index with index arrays that NumPy's advanced indexing treats as advanced
/// (index arrays and integers: the `At` entries), when they are one run of adjacent entries: then
/// the broadcast index axes take the run's place, else they come first (NumPy, "Combining
/// advanced and basic indexing"). The checker types subscripts with it and the lowering places
/// the gathered axes with it.
pub fn advanced_run(index: &[Index]) -> Option<std::ops::Range<usize>> {
    let advanced = |ix: &Index| matches!(ix, Index::At(_));
    let first = index.iter().position(advanced)?;
    let len = index[first..].iter().take_while(|ix| advanced(ix)).count();
    (!index[first + len..].iter().any(advanced)).then_some(first..first + len)
}

/// NumPy `PySlice_AdjustIndices` length for constant bounds.
pub fn const_slice_len(d: i64, start: Option<i64>, stop: Option<i64>, step: i64) -> i64 {
    if step > 0 {
        let clip = |v: i64| if v < 0 { (v.saturating_add(d)).max(0) } else { v.min(d) };
        let a = start.map(clip).unwrap_or(0);
        let b = stop.map(clip).unwrap_or(d);
        if b > a {
            (b - a - 1) / step + 1
        } else {
            0
        }
    } else {
        let clip = |v: i64| if v < 0 { (v.saturating_add(d)).max(-1) } else { v.min(d.saturating_sub(1)) };
        let a = start.map(clip).unwrap_or(d.saturating_sub(1));
        let b = stop.map(clip).unwrap_or(-1);
        if b < a {
            (a - b - 1) / step.saturating_neg().max(1) + 1
        } else {
            0
        }
    }
}

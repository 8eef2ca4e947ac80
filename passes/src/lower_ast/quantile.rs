//! `percentile(x, q)` and `quantile(x, q)` with NumPy's thirteen methods (`method=`, NumPy 2's
//! `_quantile` and `_QuantileMethods`): a sorted copy of `x` along the axis (as `median`'s), a
//! virtual index per quantile, then either the element at an integer index (the methods that take
//! one, [`quantile_method_takes`]) or NumPy's `_lerp` between two neighbours. The index
//! arithmetic is elementwise over `q` (a scalar or a 1-d array) and fuses.

use super::expr::retyped;
use super::{LResult, Lowerer};
use arrayc_dialect::ir::{BinFn, ComputeFn, IndexEntry, OpKind, ReduceKind, Scalar, Type, UnFn, ValueId};
use arrayc_grammar::ast::{self, DType, Expr};
use arrayc_grammar::builtin::{quantile_dtypes, quantile_in_percent, quantile_method, quantile_method_takes, Builtin};
use arrayc_grammar::types::{Size, Ty};

/// `alpha` and `beta` of NumPy's `_compute_virtual_index(n, q, alpha, beta)` for the continuous
/// methods that use it (Hyndman and Fan's 4, 5, 6, 8 and 9).
fn alpha_beta(method: &str) -> Option<(f64, f64)> {
    Some(match method {
        "interpolated_inverted_cdf" => (0.0, 1.0),
        "hazen" => (0.5, 0.5),
        "weibull" => (0.0, 0.0),
        "median_unbiased" => (1.0 / 3.0, 1.0 / 3.0),
        "normal_unbiased" => (3.0 / 8.0, 3.0 / 8.0),
        _ => return None,
    })
}

impl Lowerer<'_> {
    /// `percentile(x, q)` and `quantile(x, q)` (`b`), of every element or along `axis=k`, NumPy 2's
    /// `_quantile` with `method=` (default `linear`), in the dtypes of [`quantile_dtypes`]: the
    /// quantiles `q` (`q / 100` for `percentile`) checked to lie in `[0, 1]` (NumPy's ValueError),
    /// `x` sorted along the axis ([`Lowerer::sorted_along`]; an empty axis is NumPy's IndexError),
    /// then NumPy's virtual index `v` of the method in `q`'s dtype ([`Lowerer::quantile_index`]).
    /// A method that takes an element gathers it (of `x`'s dtype); the others take the neighbours
    /// `floor(v)` and `floor(v) + 1` (both `n - 1` where `v >= n - 1`, both `0` where `v < 0`), the
    /// fraction `t = v - previous` (with NumPy's `-1` and `0` there; `averaged_inverted_cdf`: `0.5`
    /// where it is 0, else 1; `midpoint`: 0 where `v` is whole, else `0.5`), then NumPy's `_lerp`:
    /// `a + (b - a) * t`, or `b - (b - a) * (1 - t)` where `t >= 0.5`, `b - a` in `x`'s dtype. NaN
    /// where the line holds a NaN. An integer `q` of `quantile` with `linear` is an integer index:
    /// the element itself. A 1-d `q` gathers along the axis moved first, so its axis leads.
    pub(super) fn quantile(
        &mut self,
        b: Builtin,
        args: &[Expr],
        kwargs: &[(ast::Ident, Expr)],
        ty: &Ty,
        e: &Expr,
    ) -> LResult<ValueId> {
        let method = Self::kwarg(kwargs, "method").and_then(quantile_method).unwrap_or("linear");
        let x = self.expr(&args[0])?;
        let axis = self.axis_kwarg(kwargs, x)?;
        let xd = self.f.ty(x).dtype();
        let tq = self.ty_of(&args[1]).clone();
        let q_len = match &tq {
            Ty::Array(_, s) => Some(s[0].clone()),
            _ => None,
        };
        let dtypes = quantile_dtypes(b, method, xd, tq.dtype().expect("checked: a number"), q_len.is_some());
        let (qd, rd) = (dtypes.q, dtypes.result);
        let qty = retyped(&tq, qd);
        let q = self.expr(&args[1])?;
        let mut q = self.as_dtype(q, &tq, qd)?;
        if quantile_in_percent(b) {
            let hundred = self.constant(Scalar::F64(100.0).cast(qd));
            q = self.binary(BinFn::Div, q, hundred, &qty)?;
        }
        // NumPy's `_quantile_is_valid`: `0 <= q <= 1` (false for NaN).
        let bty = retyped(&qty, DType::Bool);
        let (zero, one) = (self.constant(Scalar::I64(0).cast(qd)), self.constant(Scalar::I64(1).cast(qd)));
        let ge = self.binary(BinFn::Ge, q, zero, &bty)?;
        let le = self.binary(BinFn::Le, q, one, &bty)?;
        let mut ok = self.binary(BinFn::And, ge, le, &bty)?;
        if q_len.is_some() {
            let no = self.constant(Scalar::Bool(false));
            let bad = self.binary(BinFn::Eq, ok, no, &bty)?;
            let count = self.reduction(false, ReduceKind::Sum, bad, None, &Ty::Scalar(DType::I64), e)?;
            let none = self.i64_const(0);
            ok = self.scalar_binary(BinFn::Eq, count, none, DType::I64);
        }
        let msg = match quantile_in_percent(b) {
            true => format!("{}: Percentiles must be in the range [0, 100] (NumPy's ValueError)", b.name()),
            false => format!("{}: Quantiles must be in the range [0, 1] (NumPy's ValueError)", b.name()),
        };
        self.emit(OpKind::Assert { cond: ok, msg });
        let (sorted, k, n) = self.sorted_along(x, axis);
        let zero = self.i64_const(0);
        let nonempty = self.scalar_binary(BinFn::Gt, n, zero, DType::I64);
        let msg = format!(
            "{}: of an empty array or axis (NumPy's IndexError: index -1 is out of bounds for axis 0 with size 0)",
            b.name()
        );
        self.emit(OpKind::Assert { cond: nonempty, msg });
        let one = self.i64_const(1);
        let Type::Array(_, r) = self.f.ty(sorted) else { unreachable!("an array") };
        // `nanpercentile` and `nanquantile` of floats: the lines' counts `c` of numbers (sorted
        // first) stand for `n`, an array of the lines' shape when there are several lines.
        let nan = matches!(b, Builtin::NanPercentile | Builtin::NanQuantile) && xd.is_float();
        let per_line = nan && r > 1;
        let lines: Vec<Size> = match ty {
            Ty::Array(_, s) => s[usize::from(q_len.is_some())..].to_vec(),
            _ => vec![],
        };
        let nty = if per_line { Ty::Array(DType::I64, lines.clone()) } else { Ty::Scalar(DType::I64) };
        let count = if nan {
            let sizes = (0..r).map(|a| self.dim(sorted, a)).collect();
            let isnan = self.compute_new(ComputeFn::Binary(BinFn::Ne), vec![sorted, sorted], DType::Bool, sizes, None);
            let nans = self.reduction(false, ReduceKind::Sum, isnan, Some(&[k]), &nty, e)?;
            self.binary(BinFn::Sub, n, nans, &nty)?
        } else {
            n
        };
        let last = self.binary(BinFn::Sub, count, one, &nty)?;
        // The index arithmetic's type: `q`'s, or with a count per line the result's (`q` leading).
        let jty = if per_line { retyped(ty, qd) } else { qty.clone() };
        let bty = retyped(&jty, DType::Bool);
        // `q` itself: with a count per line, a 1-d `q` as `(len(q), 1, ..., 1)`.
        let (q, q_ty) = match (&q_len, per_line) {
            (Some(len), true) if !lines.is_empty() => {
                let mut entries = vec![IndexEntry::Full];
                entries.extend(vec![IndexEntry::NewAxis; lines.len()]);
                let mut s = vec![len.clone()];
                s.extend(vec![Size::lit(1); lines.len()]);
                (self.view_with(q, entries, vec![]), Ty::Array(qd, s))
            }
            _ => (q, qty.clone()),
        };
        // The elements at positions `i` (an `i64` scalar, or an array of `jty`'s shape): a view or
        // element of the other axes, or a gather along the axis moved first (with `arange`s of
        // the other axes for a count per line).
        let xty = retyped(ty, xd);
        let shape = ty.shape().map(|s| s.to_vec());
        let moved = match (&q_len, per_line) {
            (None, false) => None,
            _ => {
                let mut perm = vec![k];
                perm.extend((0..r).filter(|&a| a != k));
                Some(self.transpose(sorted, perm))
            }
        };
        let iotas = match (moved, per_line) {
            (Some(m), true) => self.line_positions(m, ty.rank().unwrap_or(0)),
            _ => vec![],
        };
        let at = |l: &mut Self, i: ValueId| -> ValueId {
            match (moved, &q_len, per_line) {
                (Some(m), _, true) => {
                    let s = shape.as_deref().expect("an array result");
                    let mut ins = vec![i];
                    ins.extend(iotas.iter().copied());
                    l.gather(m, &ins, 0, xd, s, Some(s))
                }
                (Some(m), Some(len), false) => l.gather(m, &[i], 0, xd, std::slice::from_ref(len), shape.as_deref()),
                _ => l.along(sorted, k, i, r == 1),
            }
        };
        let ity = retyped(&jty, DType::I64);
        let zero = self.i64_const(0);
        let taken = if qd == DType::I64 {
            // `quantile` of integers (0 or 1) with `linear`: the element at `(n - 1) * q`.
            Some(self.binary(BinFn::Mul, q, last, &ity)?)
        } else if quantile_method_takes(method) {
            Some(self.quantile_taken(method, q, (count, &nty), &jty, e)?)
        } else {
            None
        };
        let none_left = |l: &mut Self, v: ValueId| -> LResult<ValueId> {
            if !nan {
                return l.nan_where_nan(sorted, k, n, v, ty, e);
            }
            // A line of NaNs only: NaN (NumPy warns "All-NaN slice encountered").
            let empty = l.binary(BinFn::Eq, count, zero, &retyped(&nty, DType::Bool))?;
            let nan_value = l.constant(Scalar::F64(f64::NAN).cast(rd));
            l.elementwise(ComputeFn::Where, vec![empty, nan_value, v], ty, e)
        };
        if let Some(i) = taken {
            let i = if nan { self.binary(BinFn::Maximum, i, zero, &ity)? } else { i };
            let mut v = at(self, i);
            if ty.is_array() && q_len.is_none() && !per_line {
                v = self.array_op(ComputeFn::Copy, vec![v], ty)?;
            }
            debug_assert_eq!(ty.dtype(), Some(rd));
            return none_left(self, v);
        }
        let vi = self.quantile_index(method, (q, &q_ty), (count, &nty), &jty, e)?;
        let lastq = self.as_dtype(last, &nty, qd)?;
        let above = self.binary(BinFn::Ge, vi, lastq, &bty)?;
        let qzero = self.constant(Scalar::F64(0.0).cast(qd));
        let below = self.binary(BinFn::Lt, vi, qzero, &bty)?;
        let floor = self.elementwise(ComputeFn::Unary(UnFn::Floor), vec![vi], &jty, e)?;
        let prev = self.as_dtype(floor, &jty, DType::I64)?;
        let next = self.binary(BinFn::Add, prev, one, &ity)?;
        let clamp = |l: &mut Self, i: ValueId| -> LResult<ValueId> {
            let i = l.elementwise(ComputeFn::Where, vec![below, zero, i], &ity, e)?;
            let i = l.elementwise(ComputeFn::Where, vec![above, last, i], &ity, e)?;
            // A line of NaNs only (its last position `-1`) reads its first element.
            if nan {
                return l.binary(BinFn::Maximum, i, zero, &ity);
            }
            Ok(i)
        };
        let (prev, next) = (clamp(self, prev)?, clamp(self, next)?);
        // NumPy's `v - previous_indexes`, the latter `-1` above the last index and `0` below the
        // first: in `f64`, then NumPy's `fix_gamma` of the method, then `qd`.
        let fty = retyped(&jty, DType::F64);
        let (minus_one, fzero) = (self.constant(Scalar::F64(-1.0)), self.constant(Scalar::F64(0.0)));
        let base = self.elementwise(ComputeFn::Where, vec![below, fzero, floor], &fty, e)?;
        let base = self.elementwise(ComputeFn::Where, vec![above, minus_one, base], &fty, e)?;
        let vf = self.as_dtype(vi, &jty, DType::F64)?;
        let mut t = self.binary(BinFn::Sub, vf, base, &fty)?;
        let half = self.constant(Scalar::F64(0.5));
        match method {
            "averaged_inverted_cdf" => {
                let at_zero = self.binary(BinFn::Eq, t, fzero, &bty)?;
                let fone = self.constant(Scalar::F64(1.0));
                t = self.elementwise(ComputeFn::Where, vec![at_zero, half, fone], &fty, e)?;
            }
            "midpoint" => {
                let whole = self.binary(BinFn::Eq, floor, vi, &bty)?;
                t = self.elementwise(ComputeFn::Where, vec![whole, fzero, half], &fty, e)?;
            }
            _ => {}
        }
        let t = self.as_dtype(t, &fty, qd)?;
        let qone = self.constant(Scalar::F64(1.0).cast(qd));
        let rest = self.binary(BinFn::Sub, qone, t, &jty)?;
        let half = self.constant(Scalar::F64(0.5).cast(qd));
        let upper = self.binary(BinFn::Ge, t, half, &bty)?;
        // A 1-d `q` leads the result: its fractions as `(len(q), 1, ..., 1)`.
        let (t, rest, upper) = match (&q_len, ty) {
            (Some(_), Ty::Array(_, s)) if s.len() > 1 && !per_line => {
                let mut entries = vec![IndexEntry::Full];
                entries.extend(vec![IndexEntry::NewAxis; s.len() - 1]);
                let lead = |l: &mut Self, v: ValueId| l.view_with(v, entries.clone(), vec![]);
                (lead(self, t), lead(self, rest), lead(self, upper))
            }
            _ => (t, rest, upper),
        };
        let (a, bv) = (at(self, prev), at(self, next));
        let diff = self.binary(BinFn::Sub, bv, a, &xty)?;
        let up = self.binary(BinFn::Mul, diff, t, ty)?;
        let lo = self.binary(BinFn::Add, a, up, ty)?;
        let down = self.binary(BinFn::Mul, diff, rest, ty)?;
        let hi = self.binary(BinFn::Sub, bv, down, ty)?;
        let r = self.elementwise(ComputeFn::Where, vec![upper, hi, lo], ty, e)?;
        debug_assert_eq!(ty.dtype(), Some(rd));
        none_left(self, r)
    }

    /// For a gather from `m` (of rank `r`) through an index array along axis 0 into a result of
    /// rank `rank` whose last `r - 1` axes are `m`'s others: `arange(m.shape[d])` for each axis `d`
    /// after the first, as an array of rank `rank` (size 1 but along its own axis), as
    /// `take_along_axis` builds them.
    fn line_positions(&mut self, m: ValueId, rank: usize) -> Vec<ValueId> {
        let r = self.rank(m);
        (1..r)
            .map(|d| {
                let n = self.dim(m, d);
                let (zero, one) = (self.i64_const(0), self.i64_const(1));
                let iota = self.new_array(DType::I64, vec![n]);
                self.emit(OpKind::Compute { func: ComputeFn::Arange, out: iota, ins: vec![zero, one] });
                let at = rank - r + d;
                let entries = (0..rank).map(|a| if a == at { IndexEntry::Full } else { IndexEntry::NewAxis }).collect();
                self.expand(iota, entries)
            })
            .collect()
    }

    /// NumPy's virtual index of an interpolating `method` for quantiles `q` (of type `q.1`, a float
    /// dtype) of lines of `n` elements, in `q`'s dtype (the result of type `qty`): `(n - 1) * q` (`linear`), `n * q - 1`
    /// (`averaged_inverted_cdf`), `0.5 * (floor(l) + ceil(l))` of `l = (n - 1) * q` (`midpoint`),
    /// else `_compute_virtual_index`'s `n * q + (alpha + q * (1 - alpha - beta)) - 1`.
    fn quantile_index(
        &mut self,
        method: &str,
        (q, q_ty): (ValueId, &Ty),
        n: (ValueId, &Ty),
        qty: &Ty,
        e: &Expr,
    ) -> LResult<ValueId> {
        let qd = qty.dtype().expect("checked: a float");
        let c = |l: &mut Self, v: f64| l.constant(Scalar::F64(v).cast(qd));
        let (nq, lastq) = self.counts_as(n, qd)?;
        Ok(match method {
            "averaged_inverted_cdf" => {
                let nqq = self.binary(BinFn::Mul, nq, q, qty)?;
                let one = c(self, 1.0);
                self.binary(BinFn::Sub, nqq, one, qty)?
            }
            "midpoint" => {
                let l = self.binary(BinFn::Mul, lastq, q, qty)?;
                let fl = self.elementwise(ComputeFn::Unary(UnFn::Floor), vec![l], qty, e)?;
                let ce = self.elementwise(ComputeFn::Unary(UnFn::Ceil), vec![l], qty, e)?;
                let s = self.binary(BinFn::Add, fl, ce, qty)?;
                let half = c(self, 0.5);
                self.binary(BinFn::Mul, half, s, qty)?
            }
            m => match alpha_beta(m) {
                Some((alpha, beta)) => {
                    let nqq = self.binary(BinFn::Mul, nq, q, qty)?;
                    let slope = c(self, 1.0 - alpha - beta);
                    let qs = self.binary(BinFn::Mul, q, slope, q_ty)?;
                    let alpha = c(self, alpha);
                    let m = self.binary(BinFn::Add, alpha, qs, q_ty)?;
                    let s = self.binary(BinFn::Add, nqq, m, qty)?;
                    let one = c(self, 1.0);
                    self.binary(BinFn::Sub, s, one, qty)?
                }
                None => self.binary(BinFn::Mul, lastq, q, qty)?,
            },
        })
    }

    /// NumPy's integer index of a `method` that takes an element ([`quantile_method_takes`]), for
    /// quantiles `q` (of type `qty`, a float dtype) of lines of `n` elements, as `i64`:
    /// `floor`, `ceil` or `rint` (half to even) of `(n - 1) * q` (`lower`, `higher`, `nearest`);
    /// for `inverted_cdf` of `i = n * q - 1` and `closest_observation` of `i = n * q - 1 - 0.5`,
    /// `floor(i)` where `i` is whole (for the latter also odd), else `floor(i) + 1`, at least 0.
    fn quantile_taken(&mut self, method: &str, q: ValueId, n: (ValueId, &Ty), qty: &Ty, e: &Expr) -> LResult<ValueId> {
        let qd = qty.dtype().expect("checked: a float");
        let ity = retyped(qty, DType::I64);
        let bty = retyped(qty, DType::Bool);
        let c = |l: &mut Self, v: f64| l.constant(Scalar::F64(v).cast(qd));
        let one = self.i64_const(1);
        let (nq, lastq) = self.counts_as(n, qd)?;
        let rounded = |l: &mut Self, f: UnFn| -> LResult<ValueId> {
            let v = l.binary(BinFn::Mul, lastq, q, qty)?;
            let r = l.elementwise(ComputeFn::Unary(f), vec![v], qty, e)?;
            l.as_dtype(r, qty, DType::I64)
        };
        match method {
            "lower" => return rounded(self, UnFn::Floor),
            "higher" => return rounded(self, UnFn::Ceil),
            "nearest" => return rounded(self, UnFn::Rint),
            _ => {}
        }
        let nqq = self.binary(BinFn::Mul, nq, q, qty)?;
        let fone = c(self, 1.0);
        let mut i = self.binary(BinFn::Sub, nqq, fone, qty)?;
        if method == "closest_observation" {
            let half = c(self, 0.5);
            i = self.binary(BinFn::Sub, i, half, qty)?;
        }
        let floor = self.elementwise(ComputeFn::Unary(UnFn::Floor), vec![i], qty, e)?;
        let gamma = self.binary(BinFn::Sub, i, floor, qty)?;
        let fzero = c(self, 0.0);
        let mut keep = self.binary(BinFn::Eq, gamma, fzero, &bty)?;
        let prev = self.as_dtype(floor, qty, DType::I64)?;
        if method == "closest_observation" {
            let two = self.i64_const(2);
            let parity = self.binary(BinFn::Rem, prev, two, &ity)?;
            let odd = self.binary(BinFn::Eq, parity, one, &bty)?;
            keep = self.binary(BinFn::And, keep, odd, &bty)?;
        }
        let next = self.binary(BinFn::Add, prev, one, &ity)?;
        let idx = self.elementwise(ComputeFn::Where, vec![keep, prev, next], &ity, e)?;
        let zero = self.i64_const(0);
        self.binary(BinFn::Maximum, idx, zero, &ity)
    }

    /// The lines' sizes `n` (an `i64` scalar or array, of type `n.1`) and `n - 1` in dtype `qd`.
    fn counts_as(&mut self, (n, nty): (ValueId, &Ty), qd: DType) -> LResult<(ValueId, ValueId)> {
        let one = self.i64_const(1);
        let last = self.binary(BinFn::Sub, n, one, nty)?;
        Ok((self.as_dtype(n, nty, qd)?, self.as_dtype(last, nty, qd)?))
    }
}

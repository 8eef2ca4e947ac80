//! Array creation: `zeros`/`ones`/`empty`, the `*_like` forms, `full`, `arange` (its length as a
//! symbolic size), `linspace`, `broadcast_to`, and `copy` and the views that keep a shape.

use super::Call;
use crate::ast::{DType, Expr};
use crate::builtin::Builtin;
use crate::check::shape::shape_str;
use crate::check::Checker;
use crate::diag::Diagnostic;
use crate::types::{Size, Ty};

impl Checker {
    /// Constructors: `zeros`, `ones`, `empty`, `random`, `full`, `arange`, `linspace`.
    pub(super) fn constructor(&mut self, c: &Call) -> Ty {
        match c.b {
            Builtin::Full => self.full(c),
            Builtin::Arange => self.arange(c),
            Builtin::Linspace | Builtin::Logspace | Builtin::Geomspace => self.linspace(c),
            _ => match self.dims(c.args) {
                Some(s) if !c.bad => {
                    Ty::Array(if c.b == Builtin::Random { DType::F64 } else { c.dtype.unwrap_or(DType::F64) }, s)
                }
                _ => Ty::Error,
            },
        }
    }

    /// `zeros_like(x)`, `ones_like(x)`, `empty_like(x)`, `full_like(x, value)`: a new array of the
    /// array `x`'s shape, of its dtype or `dtype=`; `value` a scalar.
    pub(super) fn like(&mut self, c: &Call) -> Ty {
        let t = self.value(&c.args[0]);
        let vt = c.args.get(1).map(|v| self.value(v));
        let Ty::Array(d, shape) = t else {
            if t != Ty::Error {
                let what = format!("`{}` needs an array, found {t}", c.b.name());
                self.error("E0503", what, c.args[0].span.clone(), "not an array");
            }
            return Ty::Error;
        };
        match vt {
            None | Some(Ty::Scalar(_)) if !c.bad => Ty::Array(c.dtype.unwrap_or(d), shape),
            None | Some(Ty::Scalar(_) | Ty::Error) => Ty::Error,
            Some(t) => {
                let what = format!("`full_like` needs a scalar fill value, found {t}");
                self.error("E0503", what, c.args[1].span.clone(), "not a scalar");
                Ty::Error
            }
        }
    }

    /// `broadcast_to(x, shape)`: `x` (an array or a scalar) broadcast to `shape` ([`Self::dims`] of
    /// the second argument): NumPy's rule, each of `x`'s axes (right-aligned) the target's size or 1,
    /// and no more axes than the target (E0401 where sizes are known).
    pub(super) fn broadcast_to(&mut self, c: &Call) -> Ty {
        let t = self.value(&c.args[0]);
        let shape = self.dims(&c.args[1..]);
        let (Some(shape), Some(d)) = (shape, t.dtype()) else { return Ty::Error };
        let xs = t.shape().unwrap_or(&[]).to_vec();
        let fits = match xs.len() > shape.len() {
            true => Err(format!("{} axes into {}", xs.len(), shape.len())),
            false => self.fits_into(&xs, &shape).map_err(|be| format!("size {} vs {}", be.left, be.right)),
        };
        if let Err(label) = fits {
            self.err(
                Diagnostic::error(
                    "E0401",
                    format!("cannot broadcast an array of shape {} to shape {}", shape_str(&xs), shape_str(&shape)),
                    c.args[0].span.clone(),
                    label,
                )
                .with_note("NumPy's broadcast_to: each axis of `x` (right-aligned) is the target's size or 1"),
            );
            return Ty::Error;
        }
        if c.bad {
            return Ty::Error;
        }
        Ty::Array(d, shape)
    }

    /// `full(d0, ..., value)`: the sizes, then a scalar fill value.
    pub(super) fn full(&mut self, c: &Call) -> Ty {
        let (dims, value) = c.args.split_at(c.args.len() - 1);
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
            (Some(s), Some(d)) if !c.bad => Ty::Array(c.dtype.unwrap_or(d), s),
            _ => Ty::Error,
        }
    }

    /// `arange(stop)`, `arange(start, stop)`, `arange(start, stop, step)`: `i64` when every
    /// argument is an integer (NumPy gives `int64` for `int32` arguments too), else `f64`.
    pub(super) fn arange(&mut self, c: &Call) -> Ty {
        let mut all_int = true;
        let mut ok = true;
        for a in c.args {
            match self.value(a) {
                // NumPy's `arange` of a uint64 is float64.
                Ty::Scalar(DType::U64) => {
                    self.refuse_u64("E0503", a, "an argument of `arange`");
                    ok = false;
                }
                Ty::Scalar(d) if d.is_int() => {}
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
        if c.dtype == Some(DType::Bool) {
            let span = c.e.span.clone();
            self.error("E0503", "`arange` with `dtype=bool` (NumPy's works for lengths up to 2)", span, "bool");
            return Ty::Error;
        }
        if !ok {
            return Ty::Error;
        }
        if all_int {
            let len = self.arange_len(c.args);
            Ty::Array(c.dtype.unwrap_or(DType::I64), vec![len])
        } else {
            let f = self.fresh();
            Ty::Array(c.dtype.unwrap_or(DType::F64), vec![f])
        }
    }

    /// `linspace(start, stop, num)` and `logspace(start, stop, num=50)`: `f64[num]`.
    pub(super) fn linspace(&mut self, c: &Call) -> Ty {
        let mut ok = true;
        // The broadcast shape of array bounds (`linspace`'s: NumPy's samples along a new axis 0).
        let mut bounds: Vec<Size> = vec![];
        for a in &c.args[..2] {
            match self.value(a) {
                Ty::Scalar(d) if d.is_int() || d.is_float() => {}
                Ty::Array(d, s) if c.b == Builtin::Linspace && (d.is_int() || d.is_float()) && !s.is_empty() => {
                    match self.broadcast(&bounds, &s) {
                        Ok(b) => bounds = b,
                        Err(_) => {
                            self.error(
                                "E0401",
                                format!(
                                    "`linspace`'s bounds do not broadcast together: {} and {}",
                                    shape_str(&bounds),
                                    shape_str(&s)
                                ),
                                a.span.clone(),
                                "this bound",
                            );
                            ok = false;
                        }
                    }
                }
                Ty::Error => ok = false,
                other => {
                    self.error(
                        "E0503",
                        format!("`{}` needs numeric scalar bounds, found {other}", c.b.name()),
                        a.span.clone(),
                        "not a numeric scalar",
                    );
                    ok = false;
                }
            }
        }
        let n = match c.args.get(2).map(|num| self.int_operand(num, "`num`")) {
            Some(Ok(v)) => v.unwrap_or_else(|| self.fresh()),
            Some(Err(())) => return Ty::Error,
            // `logspace`'s default.
            None => Size::lit(50),
        };
        if !ok {
            return Ty::Error;
        }
        let dtype = if c.b == Builtin::Linspace { self.linspace_dtype(&c.args[0], &c.args[1]) } else { DType::F64 };
        let mut shape = vec![n];
        shape.extend(bounds);
        // `axis=k`: NumPy's samples moved from axis 0 to axis `k` of the result.
        if let Some((a, ae)) = c.axis {
            let Some(k) = self.axis_in_range(a, &shape, &ae.span) else { return Ty::Error };
            let n = shape.remove(0);
            shape.insert(k, n);
        }
        Ty::Array(dtype, shape)
    }

    /// NumPy's dtype of `linspace(start, stop, ..)`: `result_type(start, stop, float(num))`, the
    /// bounds' promotion with a Python float (weak), so `float32` bounds give `float32` (and an
    /// integer or `float64` one `float64`). Of checked numeric scalars.
    fn linspace_dtype(&self, start: &Expr, stop: &Expr) -> DType {
        use crate::check::promote::{promote, Weak};
        let dtype = |e: &Expr| self.types[e.id.0 as usize].dtype().unwrap_or(DType::F64);
        let (wa, wb) = (self.weak_of(start), self.weak_of(stop));
        let bounds = promote(dtype(start), wa, dtype(stop), wb);
        let weak = wa.and(wb).map(|_| Weak::of_dtype(bounds));
        promote(bounds, weak, DType::F64, Some(Weak::Float))
    }

    /// Copies and views: `copy(x)`, `transpose(x)` (`x.T`), `diagonal(x)`.
    pub(super) fn copy_or_view(&mut self, c: &Call) -> Ty {
        let t = self.value(&c.args[0]);
        match (c.b, t) {
            (Builtin::Copy, t) => t,
            (_, Ty::Error) => Ty::Error,
            (Builtin::Transpose, Ty::Array(d, s)) => Ty::Array(d, s.into_iter().rev().collect()),
            (Builtin::Diagonal, Ty::Array(d, s)) if s.len() == 2 => {
                let n = match (s[0].as_const(), s[1].as_const()) {
                    (Some(a), Some(b)) => Size::lit(a.min(b)),
                    _ if s[0].provably_eq(&s[1]) == Some(true) => s[0].clone(),
                    _ => self.fresh(),
                };
                Ty::Array(d, vec![n])
            }
            (b, other) => {
                let (what, label) = if b == Builtin::Diagonal {
                    ("a 2-d array", "not a 2-d array")
                } else {
                    ("an array", "not an array")
                };
                self.error(
                    "E0503",
                    format!("`{}` needs {what}, found {other}", b.name()),
                    c.args[0].span.clone(),
                    label,
                );
                Ty::Error
            }
        }
    }

    pub(super) fn arange_len(&mut self, args: &[Expr]) -> Size {
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
}

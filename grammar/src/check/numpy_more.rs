//! More of NumPy's composed functions (`docs/language.md`, "Builtin functions"): the products
//! `inner`, `vdot` and `kron`, `diag`, `trapezoid` (the trapezoidal rule), and the statistics
//! `cov` and `corrcoef`, `gradient`, and `unravel_index` (a tuple, as `nonzero`'s), with NumPy's
//! dtypes, shapes and errors. Their lowering composes views, elementwise products and sums
//! (`passes/src/lower_ast/numpy_more.rs`); `logspace` is checked with `linspace`
//! (`builtins/creation.rs`).

use super::builtins::{literal_int, Call};
use super::promote::{promote, weak_of, Weak};
use super::shape::shape_str;
use super::Checker;
use crate::ast::{DType, Expr};
use crate::builtin::Builtin;
use crate::diag::Diagnostic;
use crate::types::{Size, Ty};

impl Checker {
    /// Checks a call of one of the functions of this file and returns its type (`Ty::Error`
    /// after reporting an error).
    pub(super) fn numpy_more(&mut self, c: &Call) -> Ty {
        match c.b {
            Builtin::Inner | Builtin::Vdot => self.inner_product(c),
            Builtin::Kron => self.kron(c),
            Builtin::Diag => self.diag(c),
            Builtin::Trapezoid => self.trapezoid(c),
            Builtin::Cov | Builtin::Corrcoef => self.cov(c),
            Builtin::UnravelIndex => self.unravel_index(c),
            Builtin::Gradient => self.gradient(c),
            _ => unreachable!("numpy_more is called for its builtins"),
        }
    }

    /// The two operands of a product (`inner`, `vdot`, `kron`): arrays (a scalar is E0503, which
    /// names NumPy's `s * x`), not bool (E0301, as `dot`'s); their dtypes and shapes.
    fn product_operands(&mut self, c: &Call) -> Option<[(DType, Vec<Size>); 2]> {
        let ta = self.value(&c.args[0]);
        let tb = self.value(&c.args[1]);
        if c.bad || ta == Ty::Error || tb == Ty::Error {
            return None;
        }
        let mut out = vec![];
        for (t, a) in [(ta, &c.args[0]), (tb, &c.args[1])] {
            let name = c.b.name();
            match t {
                Ty::Array(DType::Bool, _) if c.b != Builtin::Kron => {
                    self.err(
                        Diagnostic::error(
                            "E0301",
                            format!("`{name}` of bool arrays is not supported"),
                            a.span.clone(),
                            "a bool array",
                        )
                        .with_help("convert with `i64(...)` or `f64(...)`"),
                    );
                    return None;
                }
                Ty::Array(d, s) => out.push((d, s)),
                t => {
                    self.err(
                        Diagnostic::error(
                            "E0503",
                            format!("`{name}` needs arrays, found {t}"),
                            a.span.clone(),
                            "not an array",
                        )
                        .with_help(format!("NumPy's `{name}(s, x)` of a scalar `s` is `s * x`: write that")),
                    );
                    return None;
                }
            }
        }
        let b = out.pop()?;
        Some([out.pop()?, b])
    }

    /// `inner(a, b)` (1-d or 2-d operands, equal last sizes): `a.shape[:-1] + b.shape[:-1]`, a
    /// scalar for two vectors; `vdot(a, b)`: a scalar. Dtypes promoted as NumPy's arrays.
    fn inner_product(&mut self, c: &Call) -> Ty {
        let Some([(da, sa), (db, sb)]) = self.product_operands(c) else { return Ty::Error };
        let d = promote(da, None, db, None);
        if c.b == Builtin::Vdot {
            return Ty::Scalar(d);
        }
        if !(1..=2).contains(&sa.len()) || !(1..=2).contains(&sb.len()) {
            self.error(
                "E0403",
                format!(
                    "`inner` of a {}-d and a {}-d array: only 1-d and 2-d operands are supported",
                    sa.len(),
                    sb.len()
                ),
                c.e.span.clone(),
                "operand ranks",
            );
            return Ty::Error;
        }
        let (ka, kb) = (&sa[sa.len() - 1], &sb[sb.len() - 1]);
        if ka.sub(kb).as_const().is_some_and(|v| v != 0) {
            self.err(
                Diagnostic::error(
                    "E0401",
                    format!("`inner`: shapes {} and {} are not aligned", shape_str(&sa), shape_str(&sb)),
                    c.e.span.clone(),
                    format!("size {ka} vs {kb}"),
                )
                .with_note("the last dimensions of `a` and `b` must be equal (no broadcasting)"),
            );
            return Ty::Error;
        }
        let out: Vec<Size> = sa[..sa.len() - 1].iter().chain(&sb[..sb.len() - 1]).cloned().collect();
        if out.is_empty() {
            Ty::Scalar(d)
        } else {
            Ty::Array(d, out)
        }
    }

    /// `kron(a, b)` of two 1-d (`(n * m,)`) or two 2-d (`(n * p, m * q)`) arrays; other ranks are
    /// E0503, which names the way for a 1-d and a 2-d operand.
    fn kron(&mut self, c: &Call) -> Ty {
        let Some([(da, sa), (db, sb)]) = self.product_operands(c) else { return Ty::Error };
        if sa.len() != sb.len() || !(1..=2).contains(&sa.len()) {
            self.err(
                Diagnostic::error(
                    "E0503",
                    format!(
                        "`kron` of a {}-d and a {}-d array: arrayc's `kron` takes two 1-d or two 2-d arrays",
                        sa.len(),
                        sb.len()
                    ),
                    c.e.span.clone(),
                    "operand ranks",
                )
                .with_help("give a 1-d operand a unit axis first, as NumPy does: `kron(a[newaxis, :], b)`"),
            );
            return Ty::Error;
        }
        let d = promote(da, None, db, None);
        let shape = sa.iter().zip(&sb).map(|(n, p)| n.mul(p).unwrap_or_else(|| self.fresh())).collect();
        Ty::Array(d, shape)
    }

    /// `diag(v, k=0)`: of a 1-d `v` of size `n`, `(n + |k|, n + |k|)`; of a 2-d `v`, its
    /// diagonal `k`'s length (a fresh size unless both sizes are known). `k` an integer literal.
    fn diag(&mut self, c: &Call) -> Ty {
        let t = self.array_arg(c, &c.args[0]);
        // A `k=` was checked with the keywords (an integer); a positional `k` is checked here.
        let positional = c.args.get(1);
        let k = match positional.or_else(|| c.kwarg("k")) {
            None => 0,
            Some(e) => match literal_int(e) {
                Some(k) => {
                    self.set_ty(e.id, Ty::Scalar(DType::I64));
                    k
                }
                None => {
                    if let Some(p) = positional {
                        self.expr(p);
                    }
                    self.error(
                        "E0503",
                        "`diag`'s `k` must be an integer literal",
                        e.span.clone(),
                        "not an integer literal",
                    );
                    return Ty::Error;
                }
            },
        };
        let Ty::Array(d, s) = t else { return Ty::Error };
        match s.as_slice() {
            [n] => {
                let size = n.add(&Size::lit(k.abs()));
                Ty::Array(d, vec![size.clone(), size])
            }
            [n, m] => {
                let len = match (n.as_const(), m.as_const()) {
                    (Some(n), Some(m)) => Size::lit((n - (-k).max(0)).min(m - k.max(0)).max(0)),
                    _ => self.fresh(),
                };
                Ty::Array(d, vec![len])
            }
            _ => {
                self.error(
                    "E0503",
                    format!("`diag` needs a 1-d or 2-d array, found a {}-d one", s.len()),
                    c.args[0].span.clone(),
                    "not 1-d or 2-d",
                );
                Ty::Error
            }
        }
    }

    /// `trapezoid(y, x=None, dx=1.0, axis=-1)`: `y`'s shape without `axis` (a scalar for a 1-d
    /// `y`), a float: the promotion of `y`'s dtype with `x`'s (or `dx`'s, a weak float by
    /// default), `f64` where that is not a float. `x` is 1-d, of `y`'s size along `axis`.
    fn trapezoid(&mut self, c: &Call) -> Ty {
        let t = self.array_arg(c, &c.args[0]);
        // `x` is checked here, positional or `x=`; a `dx=` was checked with the keywords.
        let x = c.args.get(1).or_else(|| c.kwarg("x"));
        let tx = x.map(|x| self.value(x));
        let dx = match c.args.get(2) {
            Some(dx) => Some((dx, self.value(dx))),
            None => c.kwarg("dx").map(|dx| (dx, self.types.get(dx.id.0 as usize).cloned().unwrap_or(Ty::Error))),
        };
        let Ty::Array(dy, s) = t else { return Ty::Error };
        let axis = match c.axis {
            Some((a, e)) => match self.axis_in_range(a, &s, &e.span) {
                Some(a) => a,
                None => return Ty::Error,
            },
            None => s.len() - 1,
        };
        let d = match (&tx, dx) {
            (Some(Ty::Array(dt, xs)), _) => {
                if xs.len() != 1 || xs[0].sub(&s[axis]).as_const().is_some_and(|v| v != 0) {
                    self.err(
                        Diagnostic::error(
                            "E0503",
                            format!(
                                "`trapezoid`'s `x` must be 1-d of `y`'s size along the axis ({}), found shape {}",
                                s[axis],
                                shape_str(xs)
                            ),
                            x.map_or(c.e.span.clone(), |x| x.span.clone()),
                            "not the sample points of the axis",
                        )
                        .with_help("NumPy also takes an `x` of `y`'s shape: pass its row along the axis, `x[0]`"),
                    );
                    return Ty::Error;
                }
                promote(dy, None, *dt, None)
            }
            (Some(Ty::Error), _) => return Ty::Error,
            (Some(other), _) => {
                self.error(
                    "E0503",
                    format!("`trapezoid`'s `x` must be an array of sample points, found {other}"),
                    x.map_or(c.e.span.clone(), |x| x.span.clone()),
                    "not an array",
                );
                return Ty::Error;
            }
            (None, Some((dx, tdx))) => match tdx {
                Ty::Scalar(dd) if dd != DType::Bool => promote(dy, None, dd, weak_of(dx)),
                Ty::Error => return Ty::Error,
                other => {
                    self.error(
                        "E0503",
                        format!("`trapezoid`'s `dx` must be a numeric scalar, found {other}"),
                        dx.span.clone(),
                        "not a numeric scalar",
                    );
                    return Ty::Error;
                }
            },
            (None, None) => promote(dy, None, DType::F64, Some(Weak::Float)),
        };
        let d = if d.is_float() { d } else { DType::F64 };
        let mut rest = s;
        rest.remove(axis);
        if rest.is_empty() {
            Ty::Scalar(d)
        } else {
            Ty::Array(d, rest)
        }
    }

    /// `cov(m)` and `corrcoef(m)`: an `f64` `(v, v)` matrix of the `v` variables of a 2-d `m`
    /// (its rows, or with `rowvar=false` its columns), a scalar for a 1-d `m`; other ranks E0503.
    fn cov(&mut self, c: &Call) -> Ty {
        let t = self.array_arg(c, &c.args[0]);
        let Ty::Array(_, s) = t else { return Ty::Error };
        if c.bad {
            return Ty::Error;
        }
        let rowvar = !matches!(c.kwarg("rowvar").map(|v| &v.kind), Some(crate::ast::ExprKind::Bool(false)));
        match s.as_slice() {
            [_] => Ty::Scalar(DType::F64),
            [rows, cols] => {
                let v = if rowvar { rows } else { cols };
                Ty::Array(DType::F64, vec![v.clone(), v.clone()])
            }
            _ => {
                self.error(
                    "E0503",
                    format!("`{}` needs a 1-d or 2-d array, found a {}-d one", c.b.name(), s.len()),
                    c.args[0].span.clone(),
                    "not 1-d or 2-d",
                );
                Ty::Error
            }
        }
    }

    /// `unravel_index(i, dims)`: a tuple of one `i64` coordinate per size of `dims` (one tuple or
    /// one integer, as `zeros`'s), each of `i`'s shape; `i` an integer scalar or array.
    fn unravel_index(&mut self, c: &Call) -> Ty {
        let t = self.value(&c.args[0]);
        let dims = self.dims(&c.args[1..2]);
        let at = match &t {
            Ty::Scalar(d) if d.is_int() => Ty::Scalar(DType::I64),
            Ty::Array(d, s) if d.is_int() => Ty::Array(DType::I64, s.clone()),
            Ty::Error => return Ty::Error,
            other => {
                self.error(
                    "E0503",
                    format!("`unravel_index` needs integer indices, found {other}"),
                    c.args[0].span.clone(),
                    "not integers",
                );
                return Ty::Error;
            }
        };
        match dims {
            Some(dims) if !dims.is_empty() => Ty::Tuple(vec![at; dims.len()]),
            Some(_) => {
                self.error("E0503", "`unravel_index` needs at least one size", c.args[1].span.clone(), "no sizes");
                Ty::Error
            }
            None => Ty::Error,
        }
    }

    /// `gradient(f, *spacings, axis=k, edge_order=e)`: `f`'s shape in `f`'s float dtype (`f64`
    /// for integers), along axis `k` (a 1-d `f` needs none); an n-d `f` without `axis=` gives
    /// NumPy's gradients along every axis, a tuple (`np.gradient(m)[1]`). A spacing is a number or
    /// 1-d coordinates, one for all the axes or one per axis; at least 2 elements (3 with
    /// `edge_order=2`) along each axis.
    fn gradient(&mut self, c: &Call) -> Ty {
        let t = self.array_arg(c, &c.args[0]);
        let Ty::Array(d, s) = t else { return Ty::Error };
        if c.bad {
            return Ty::Error;
        }
        if d == DType::Bool {
            self.error(
                "E0301",
                "`gradient` of a bool array is not supported (NumPy's TypeError)",
                c.args[0].span.clone(),
                "a bool array",
            );
            return Ty::Error;
        }
        let axes: Vec<usize> = match c.axis {
            Some((a, e)) => match self.axis_in_range(a, &s, &e.span) {
                Some(a) => vec![a],
                None => return Ty::Error,
            },
            None => (0..s.len()).collect(),
        };
        let spacings = &c.args[1..];
        if !spacings.is_empty() && spacings.len() != 1 && spacings.len() != axes.len() {
            self.err(
                Diagnostic::error(
                    "E0501",
                    format!("`gradient` takes one spacing or one per axis ({}), found {}", axes.len(), spacings.len()),
                    spacings[0].span.start..spacings[spacings.len() - 1].span.end,
                    "wrong number of spacings",
                )
                .with_note("NumPy's TypeError: invalid number of arguments"),
            );
            for h in spacings {
                self.expr(h);
            }
            return Ty::Error;
        }
        let least = match c.kwarg("edge_order").map(|v| (v, literal_int(v))) {
            None | Some((_, Some(1))) => 2,
            Some((_, Some(2))) => 3,
            Some((v, _)) => {
                self.error("E0503", "`edge_order=` of `gradient` must be 1 or 2", v.span.clone(), "not 1 or 2");
                return Ty::Error;
            }
        };
        let mut ok = true;
        for (j, &axis) in axes.iter().enumerate() {
            if s[axis].as_const().is_some_and(|n| n < least) {
                self.error(
                    "E0503",
                    format!("`gradient` needs at least {least} elements along axis {axis}, found {}", s[axis]),
                    c.args[0].span.clone(),
                    "too few elements",
                );
                return Ty::Error;
            }
            // One spacing for all the axes is checked once, against the first.
            match spacings.get(if spacings.len() == 1 { 0 } else { j }) {
                Some(h) if spacings.len() > 1 || j == 0 => {
                    ok &= self.gradient_spacing(h, &s, axis, spacings.len() == 1 && axes.len() > 1)
                }
                _ => {}
            }
        }
        if !ok {
            return Ty::Error;
        }
        let one = Ty::Array(if d.is_float() { d } else { DType::F64 }, s);
        if axes.len() == 1 && (c.axis.is_some() || one.rank() == Some(1)) {
            one
        } else {
            Ty::Tuple(vec![one; axes.len()])
        }
    }

    /// `gradient`'s spacing `h` along `axis` of a `f` of shape `s`: a number, or 1-d coordinates
    /// with one value per point of the axis, unless `shared` by several axes (NumPy's TypeError).
    fn gradient_spacing(&mut self, h: &Expr, s: &[Size], axis: usize, shared: bool) -> bool {
        match self.value(h) {
            Ty::Scalar(hd) if hd != DType::Bool => true,
            Ty::Array(hd, hs) if hs.len() == 1 && hd != DType::Bool && !shared => {
                if let (Some(m), Some(n)) = (hs[0].as_const(), s[axis].as_const()) {
                    if m != n {
                        self.error(
                            "E0503",
                            format!("`gradient`'s coordinates have {m} values, axis {axis} {n} points"),
                            h.span.clone(),
                            "not one per point",
                        );
                        return false;
                    }
                }
                true
            }
            Ty::Error => false,
            t => {
                self.err(Diagnostic::error(
                    "E0503",
                    format!("`gradient`'s spacing must be a number or 1-d coordinates, found {t}"),
                    h.span.clone(),
                    "not a spacing",
                ));
                false
            }
        }
    }
}

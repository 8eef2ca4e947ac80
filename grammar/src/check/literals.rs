//! Array literals and reshapes (`docs/language.md`, "Array literals" and "Builtin functions"):
//! `[a, b, ..]` and `array(..)`/`asarray(..)` with NumPy's `np.array` dtype and shape rules, and
//! `reshape`, `ravel` and `flatten` with NumPy's size rules. The lowering is
//! `passes/src/lower_ast/literals.rs`.

use super::builtins::{literal_int, Call};
use super::Checker;
use crate::ast::{BinOp, DType, Expr, ExprKind};
use crate::builtin::{reshape_dims, Builtin};
use crate::diag::Diagnostic;
use crate::types::{Size, Ty};

/// A shape as NumPy prints it: `(2,)`, `(5,2)`, `()`.
fn numpy_shape(s: &[String]) -> String {
    match s {
        [one] => format!("({one},)"),
        _ => format!("({})", s.join(",")),
    }
}

impl Checker {
    /// Python's `[..] * k` (or `k * [..]`) of a list literal and an integer or bool scalar `k`:
    /// the list repeated `k` times, the literal's shape with axis 0 times `k` (recorded in
    /// [`crate::Checked::list_repeats`]); `None` for any other product (NumPy's elementwise one).
    pub(super) fn list_repetition(&mut self, op: BinOp, a: (&Expr, &Ty), b: (&Expr, &Ty), e: &Expr) -> Option<Ty> {
        let ((_, tl), (k, tk)) = match (&a.0.kind, &b.0.kind) {
            _ if op != BinOp::Mul => return None,
            (ExprKind::List(_), ExprKind::List(_)) => return None,
            (ExprKind::List(_), _) => (a, b),
            (_, ExprKind::List(_)) => (b, a),
            _ => return None,
        };
        let (Ty::Scalar(d), Ty::Array(dl, s)) = (tk, tl) else { return None };
        if !d.is_int() && *d != DType::Bool {
            return None;
        }
        let count = if *d == DType::I64 { self.affine(k) } else { None };
        let mut s = s.clone();
        s[0] = count.and_then(|c| s[0].mul(&c)).unwrap_or_else(|| self.fresh());
        self.list_repeats.insert(e.id);
        Some(Ty::Array(*dl, s))
    }

    /// The type of the array literal `e` (`[a, b, ..]`, nested to any depth): an array of the
    /// nesting's shape whose dtype is `dtype` when given, else the promotion of its items' dtypes
    /// as NumPy's `np.array` promotes them (literals are not weak here: `[x_f32, 1]` is `f64`, as
    /// `np.array([np.float32(1), 1])`; no item at all gives `f64`). Its items are scalars, or
    /// arrays of one shape: NumPy's `np.array([a, b])` of same-shape arrays is `stack((a, b))`,
    /// the arrays' shape after the nesting's (sizes not provably equal are checked at run time).
    /// Ragged nesting (items of different shapes) is E0411; the expression and every nested
    /// literal get the type.
    pub(super) fn list_literal(&mut self, e: &Expr, dtype: Option<DType>) -> Ty {
        let mut leaves = Some(vec![]);
        let Some(shape) = self.literal_shape(e, &mut leaves) else { return Ty::Error };
        let Some(leaves) = leaves else { return Ty::Error };
        let d = dtype.unwrap_or_else(|| leaves.into_iter().reduce(DType::promote).unwrap_or(DType::F64));
        let t = Ty::Array(d, shape);
        self.set_literal_types(e, &t);
        t
    }

    /// Gives every nested literal of `e` (an array literal of type `t`) its part of `t` (an item
    /// that is no literal keeps its own type).
    fn set_literal_types(&mut self, e: &Expr, t: &Ty) {
        self.set_ty(e.id, t.clone());
        if let (ExprKind::List(items), Ty::Array(d, s)) = (&e.kind, t) {
            let inner = if s.len() > 1 { Ty::Array(*d, s[1..].to_vec()) } else { return };
            for it in items.iter().filter(|it| matches!(it.kind, ExprKind::List(_))) {
                self.set_literal_types(it, &inner);
            }
        }
    }

    /// The shape of the array literal or item `e`, checking its items (their dtypes go to
    /// `leaves`, which becomes `None` after an item that has no value); `None` after an error.
    fn literal_shape(&mut self, e: &Expr, leaves: &mut Option<Vec<DType>>) -> Option<Vec<Size>> {
        let ExprKind::List(items) = &e.kind else {
            return match self.value(e) {
                Ty::Scalar(d) => {
                    leaves.iter_mut().for_each(|l| l.push(d));
                    Some(vec![])
                }
                Ty::Array(d, s) => {
                    leaves.iter_mut().for_each(|l| l.push(d));
                    Some(s)
                }
                Ty::Error => {
                    *leaves = None;
                    Some(vec![])
                }
                other => {
                    self.err(
                        Diagnostic::error(
                            "E0411",
                            format!("an item of an array literal must be a scalar or an array, found {other}"),
                            e.span.clone(),
                            "no array",
                        )
                        .with_help("join arrays with `stack((a, b))` or `concatenate((a, b))`"),
                    );
                    None
                }
            };
        };
        let mut first: Option<Vec<Size>> = None;
        let mut ok = true;
        for (i, it) in items.iter().enumerate() {
            let Some(s) = self.literal_shape(it, leaves) else {
                ok = false;
                continue;
            };
            match &first {
                None => first = Some(s),
                Some(f)
                    if ok && (f.len() != s.len() || f.iter().zip(&s).any(|(a, b)| a.provably_eq(b) == Some(false))) =>
                {
                    let shown = |s: &[Size]| numpy_shape(&s.iter().map(|n| n.to_string()).collect::<Vec<_>>());
                    self.err(
                        Diagnostic::error(
                            "E0411",
                            format!(
                                "inhomogeneous array literal: item {i} has shape {}, item 0 has shape {}",
                                shown(&s),
                                shown(f)
                            ),
                            it.span.clone(),
                            format!("shape {}", shown(&s)),
                        )
                        .with_note(
                            "every item of an array literal must have the same shape (NumPy: \"setting an array \
                             element with a sequence. The requested array has an inhomogeneous shape\"); a list \
                             of arrays is NumPy's `np.stack`, of arrays of one shape",
                        )
                        .with_help("join arrays of different sizes with `concatenate((a, b))`"),
                    );
                    ok = false;
                }
                Some(_) => {}
            }
        }
        if !ok {
            return None;
        }
        let mut shape = vec![Size::lit(items.len() as i64)];
        shape.extend(first.unwrap_or_default());
        Some(shape)
    }

    /// `array(x, dtype=d)` (NumPy's `np.array`: a new array) and `asarray(x, dtype=d)` (the array
    /// itself when it has the dtype): of an array literal, its type with `dtype=`; of an array or
    /// a scalar (a 0-d array), its shape in dtype `d` (else its own).
    pub(super) fn array_call(&mut self, c: &Call) -> Ty {
        let arg = &c.args[0];
        if let ExprKind::List(_) = arg.kind {
            return self.list_literal(arg, c.dtype);
        }
        match self.value(arg) {
            Ty::Scalar(d) => Ty::Array(c.dtype.unwrap_or(d), vec![]),
            Ty::Array(d, s) => Ty::Array(c.dtype.unwrap_or(d), s),
            _ => Ty::Error,
        }
    }

    /// NumPy's `x.reshape(y.shape)` (`reshape(x, y.shape)`): `x`'s elements (of dtype `d`, `count`
    /// of them) in `y`'s shape, whose element count must be `x`'s: E0412 where both are known here,
    /// else checked at run time (the lowering's `reshape_call`).
    fn reshape_like(&mut self, c: &Call, d: DType, count: Option<Size>, shape: &Expr, y: &Expr) -> Ty {
        self.set_ty(shape.id, Ty::Unit);
        let ys = match self.value(y) {
            Ty::Array(_, ys) => ys,
            Ty::Error => return Ty::Error,
            t => {
                let what = format!("`x.shape` needs an array `x`, found {t}");
                self.error("E0503", what, y.span.clone(), "not an array");
                return Ty::Error;
            }
        };
        let want = ys.iter().try_fold(Size::lit(1), |p, z| p.mul(z));
        if let (Some(n), Some(p)) = (count.as_ref().and_then(Size::as_const), want.as_ref().and_then(Size::as_const)) {
            if n != p {
                let what = format!("cannot reshape array of size {n} into another array's shape of {p} elements");
                self.error("E0412", what, c.e.span.clone(), format!("{p} elements"));
                return Ty::Error;
            }
        }
        Ty::Array(d, ys)
    }

    /// `reshape(x, (d0, d1, ..))`, `reshape(x, d)` and the method's `x.reshape(d0, d1, ..)`, and
    /// `ravel(x)`, `flatten(x)`: `x`'s elements in a shape of as many elements. Each size is an
    /// `i64`; one may be the literal `-1`, inferred from the others. Sizes known here that cannot
    /// hold `x`'s elements are E0412 (NumPy's "cannot reshape array of size 12 into shape (5,2)");
    /// the lowering checks the others at run time.
    pub(super) fn reshape(&mut self, c: &Call) -> Ty {
        let t = self.value(&c.args[0]);
        let (d, s) = match t {
            Ty::Array(d, s) => (d, s),
            Ty::Scalar(d) => (d, vec![]),
            _ => {
                for a in &c.args[1..] {
                    self.expr(a);
                }
                return Ty::Error;
            }
        };
        let count = s.iter().try_fold(Size::lit(1), |p, z| p.mul(z));
        if c.b != Builtin::Reshape {
            return Ty::Array(d, vec![count.unwrap_or_else(|| self.fresh())]);
        }
        if let [_, shape] = c.args {
            if let Some(y) = crate::syntax::shape_base(shape) {
                return self.reshape_like(c, d, count, shape, y);
            }
        }
        let Some(dims) = reshape_dims(&c.args[1..]) else {
            let a = &c.args[1];
            self.expr(a);
            self.error("E0503", "`reshape` needs its sizes as integers or one tuple of integers", a.span.clone(), "");
            return Ty::Error;
        };
        if let ExprKind::Tuple(_) = c.args[1].kind {
            self.set_ty(c.args[1].id, Ty::Unit);
        }
        let mut sizes: Vec<Option<Size>> = vec![];
        let mut inferred: Option<usize> = None;
        let mut ok = true;
        for (k, a) in dims.iter().enumerate() {
            let v = match self.int_operand(a, "a size of `reshape`") {
                Ok(v) => v,
                Err(()) => {
                    ok = false;
                    sizes.push(None);
                    continue;
                }
            };
            match (literal_int(a), inferred) {
                (Some(-1), None) => inferred = Some(k),
                (Some(-1), Some(_)) => {
                    self.error("E0412", "can only specify one unknown dimension", a.span.clone(), "a second -1");
                    ok = false;
                }
                (Some(n), _) if n < 0 => {
                    self.error("E0412", format!("negative size {n} in `reshape`"), a.span.clone(), "negative size");
                    ok = false;
                }
                _ => {}
            }
            sizes.push(v);
        }
        if !ok {
            return Ty::Error;
        }
        // The product of the sizes given (all but the inferred one), when known here.
        let known: Option<i64> = sizes
            .iter()
            .enumerate()
            .filter(|&(k, _)| Some(k) != inferred)
            .try_fold(1i64, |p, (_, z)| z.as_ref()?.as_const().and_then(|n| p.checked_mul(n)));
        let total = count.as_ref().and_then(Size::as_const);
        if let (Some(n), Some(p)) = (total, known) {
            let fits = match inferred {
                None => n == p,
                Some(_) => p != 0 && n % p == 0,
            };
            if !fits {
                let shown: Vec<String> = sizes
                    .iter()
                    .enumerate()
                    .map(|(k, z)| match (Some(k) == inferred, z.as_ref().and_then(Size::as_const)) {
                        (true, _) => "-1".to_string(),
                        (false, Some(v)) => v.to_string(),
                        (false, None) => "?".to_string(),
                    })
                    .collect();
                self.err(Diagnostic::error(
                    "E0412",
                    format!("cannot reshape array of size {n} into shape {}", numpy_shape(&shown)),
                    c.e.span.clone(),
                    match inferred {
                        None => format!("{p} elements"),
                        Some(_) => format!("{n} is not a multiple of {p}"),
                    },
                ));
                return Ty::Error;
            }
            if let Some(k) = inferred {
                sizes[k] = Some(Size::lit(n / p));
            }
        } else if let Some(k) = inferred {
            // `reshape(x, -1)` of any shape: the element count, where it is affine.
            sizes[k] = if sizes.len() == 1 { count.clone() } else { None };
        }
        let shape = sizes.into_iter().map(|z| z.unwrap_or_else(|| self.fresh())).collect();
        Ty::Array(d, shape)
    }
}

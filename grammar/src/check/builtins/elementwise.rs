//! Elementwise builtins: the math functions and NumPy's unary and binary ufuncs (their result
//! dtypes), `clip`, `where`/`maximum`-style selection, and the casts.

use super::with_dtype;
use super::Call;
use crate::ast::{BinOp, DType, ExprKind};
use crate::builtin::Builtin;
use crate::check::promote::{promote, weak_of, Weak};
use crate::check::Checker;
use crate::diag::Diagnostic;
use crate::types::Ty;

impl Checker {
    /// Elementwise math of one argument: `abs`, `sqrt`, `exp`, `log`, `sin`, `cos`, `tanh`; all
    /// but `abs` give a float, NumPy's for the dtype ([`DType::ufunc_float`]: `f32` of `i16`).
    pub(super) fn math(&mut self, c: &Call) -> Ty {
        let t = self.value(&c.args[0]);
        let Some(d) = t.dtype() else { return Ty::Error };
        let keeps = matches!(c.b, Builtin::Abs | Builtin::Floor | Builtin::Ceil | Builtin::Trunc);
        let rd = match c.b {
            _ if keeps => d,
            // NumPy's `sinc` is no ufunc: `pi * x` of an integer is `f64` (`f32` only of `f32`).
            Builtin::Sinc if !d.is_float() => DType::F64,
            _ => d.ufunc_float(),
        };
        with_dtype(&t, rd)
    }

    /// NumPy's ufuncs of one value that are compositions in the lowering: `sign` (not of a bool,
    /// as NumPy), `square` (as `x * x`), `reciprocal` (of a float only: NumPy's integer reciprocal
    /// is integer division), `round` (`rint`, integers kept; `decimals=` of a float, or a
    /// non-negative one of an integer), `logical_not` (a bool).
    pub(super) fn ufunc1(&mut self, c: &Call) -> Ty {
        let arg = &c.args[0];
        let t = self.value(arg);
        let Some(d) = t.dtype() else { return Ty::Error };
        let refused = match c.b {
            Builtin::Sign if d == DType::Bool => {
                Some(("`sign` of a bool is not defined (NumPy raises too)", "convert first: `sign(i64(x))`"))
            }
            Builtin::Reciprocal if !d.is_float() => Some((
                "`reciprocal` of an integer or bool is NumPy's integer division `1 // x`, which arrayc refuses",
                "for a float reciprocal write `1.0 / x` (or `reciprocal(f64(x))`)",
            )),
            Builtin::Round if d == DType::Bool && c.decimals.is_some_and(|k| k != 0) => Some((
                "`round` of a bool with `decimals=` is not defined (NumPy raises too)",
                "convert first: `f64(x)`",
            )),
            Builtin::Positive if d == DType::Bool => {
                Some(("`positive` of a bool is not defined (NumPy raises too)", "convert first: `positive(i64(x))`"))
            }
            Builtin::Round if d.is_int() && c.decimals.is_some_and(|k| k < 0) => Some((
                "`round` of an integer with negative `decimals=` is not supported (NumPy rounds it in f64 and \
                 casts back, wrapping near the ends of the i64 range)",
                "round in f64 and convert: `i64(round(f64(x), decimals=-2))`",
            )),
            _ => None,
        };
        if let Some((msg, help)) = refused {
            self.err(
                Diagnostic::error("E0503", format!("{msg}; found {t}"), arg.span.clone(), "not defined on this dtype")
                    .with_help(help),
            );
            return Ty::Error;
        }
        match c.b {
            // NumPy's `square` of a bool is an integer (int8; `i64` here), unlike its `*` (`&`).
            Builtin::Square if d == DType::Bool => with_dtype(&t, DType::I64),
            Builtin::Square => self.binary(BinOp::Mul, (&t, weak_of(arg)), (&t, weak_of(arg)), &c.e.span),
            Builtin::LogicalNot | Builtin::Signbit => with_dtype(&t, DType::Bool),
            Builtin::Round if !d.is_float() && d != DType::Bool => t,
            Builtin::Round => with_dtype(&t, if d.is_float() { d } else { DType::F64 }),
            _ => t,
        }
    }

    /// NumPy's ufuncs of two values that are compositions in the lowering, broadcast: `power`
    /// (`**`) and `fmod` (promoted as `%`), `hypot` (a float), `logical_and`, `logical_or`,
    /// `logical_xor` (a bool, of any dtypes).
    pub(super) fn ufunc2(&mut self, c: &Call) -> Ty {
        let (a, b) = (&c.args[0], &c.args[1]);
        let op = match c.b {
            Builtin::Power => BinOp::Pow,
            Builtin::Fmod => BinOp::Rem,
            Builtin::Divmod => BinOp::FloorDiv,
            Builtin::Hypot => return self.float_binary(c),
            _ => {
                let ta = self.value(a);
                let tb = self.value(b);
                if ta.dtype().is_none() || tb.dtype().is_none() {
                    return Ty::Error;
                }
                return self.broadcast_all(&[&ta, &tb], DType::Bool, c.e);
            }
        };
        let ta = self.value(a);
        let tb = self.value(b);
        if let (Some(da), Some(db)) = (ta.dtype(), tb.dtype()) {
            self.check_int_literals(&[a, b], promote(da, self.weak_of(a), db, self.weak_of(b)));
        }
        let (wa, wb) = (self.weak_of(a), self.weak_of(b));
        self.binary(op, (&ta, wa), (&tb, wb), &c.e.span)
    }

    /// `gcd(a, b)`, `lcm(a, b)`: integers, broadcast and promoted as `a & b` (whose errors a
    /// float operand or `u64` with a signed integer gets, E0301 as NumPy's TypeError); bools,
    /// which `&` takes, are E0301 too.
    pub(super) fn gcd_lcm(&mut self, c: &Call) -> Ty {
        let (a, b) = (&c.args[0], &c.args[1]);
        let (ta, tb) = (self.value(a), self.value(b));
        let (wa, wb) = (self.weak_of(a), self.weak_of(b));
        let t = self.binary(BinOp::And, (&ta, wa), (&tb, wb), &c.e.span);
        if t.dtype() == Some(DType::Bool) {
            self.err(
                Diagnostic::error("E0301", format!("`{}` of bools", c.b.name()), c.e.span.clone(), "bool operands")
                    .with_note("NumPy's gcd and lcm take integers only (TypeError)")
                    .with_help("convert them: `np.gcd(i64(a), i64(b))`"),
            );
            return Ty::Error;
        }
        t
    }

    /// `array_equal(a, b)`, `array_equiv(a, b)`: a bool scalar. `array_equal` is `false` for
    /// shapes that differ, so their sizes must be known equal or known different here (E0503
    /// otherwise, naming the way: compare `a.shape` first); `array_equiv` needs shapes that
    /// broadcast (as `a == b`).
    pub(super) fn array_equal(&mut self, c: &Call) -> Ty {
        let ta = self.value(&c.args[0]);
        let tb = self.value(&c.args[1]);
        if ta.dtype().is_none() || tb.dtype().is_none() {
            return Ty::Error;
        }
        if c.b == Builtin::ArrayEquiv {
            return match self.broadcast_all(&[&ta, &tb], DType::Bool, c.e) {
                Ty::Error => Ty::Error,
                _ => Ty::Scalar(DType::Bool),
            };
        }
        if crate::builtin::shapes_differ(&ta, &tb).is_none() {
            self.err(
                Diagnostic::error(
                    "E0503",
                    format!("`array_equal` of {ta} and {tb}: whether their shapes are equal is not known here"),
                    c.e.span.clone(),
                    "shapes not known equal or different",
                )
                .with_help("give both arrays the same size names, or compare `a.shape` first"),
            );
            return Ty::Error;
        }
        Ty::Scalar(DType::Bool)
    }

    /// `clip(x, lo, hi)`: NumPy's `minimum(maximum(x, lo), hi)`, the three broadcast and promoted
    /// together.
    pub(super) fn clip(&mut self, c: &Call) -> Ty {
        let ts: Vec<Ty> = c.args.iter().map(|a| self.value(a)).collect();
        let (Some(dx), Some(dl), Some(dh)) = (ts[0].dtype(), ts[1].dtype(), ts[2].dtype()) else {
            return Ty::Error;
        };
        let [wx, wl, wh] = [0, 1, 2].map(|k| self.weak_of(&c.args[k]));
        let d1 = promote(dx, wx, dl, wl);
        // Two literals promote to a literal of their kind: a float if either is.
        let w1 = match (wx, wl) {
            (Some(_), Some(_)) => Some(Weak::of_dtype(d1)),
            _ => None,
        };
        let d = promote(d1, w1, dh, wh);
        self.check_int_literals(&[&c.args[0], &c.args[1], &c.args[2]], d);
        self.broadcast_all(&[&ts[0], &ts[1], &ts[2]], d, c.e)
    }

    /// Elementwise float functions of two values, broadcast and promoted (Python numbers weak),
    /// then computed in a float
    /// (`f64` for integers and bools): `arctan2(y, x)`, `copysign(x, y)`.
    pub(super) fn float_binary(&mut self, c: &Call) -> Ty {
        let ta = self.value(&c.args[0]);
        let tb = self.value(&c.args[1]);
        let (Some(da), Some(db)) = (ta.dtype(), tb.dtype()) else { return Ty::Error };
        let d = promote(da, self.weak_of(&c.args[0]), db, self.weak_of(&c.args[1]));
        self.broadcast_all(&[&ta, &tb], d.ufunc_float(), c.e)
    }

    /// Elementwise selections, broadcast and promoted (Python numbers weak, NEP 50: the lowering
    /// checks that a Python int fits `minimum`'s and `maximum`'s dtype, while NumPy's `where`
    /// casts it unsafely): `minimum(a, b)`, `maximum(a, b)`, `where(cond, a, b)`.
    pub(super) fn selection(&mut self, c: &Call) -> Ty {
        if c.b != Builtin::Where {
            let ta = self.value(&c.args[0]);
            let tb = self.value(&c.args[1]);
            let (Some(da), Some(db)) = (ta.dtype(), tb.dtype()) else { return Ty::Error };
            let d = promote(da, self.weak_of(&c.args[0]), db, self.weak_of(&c.args[1]));
            self.check_int_literals(&[&c.args[0], &c.args[1]], d);
            return self.broadcast_all(&[&ta, &tb], d, c.e);
        }
        let tc = self.value(&c.args[0]);
        let ta = self.value(&c.args[1]);
        let tb = self.value(&c.args[2]);
        if let Some(dc) = tc.dtype() {
            if dc != DType::Bool {
                self.error(
                    "E0503",
                    format!("`where` needs a bool condition, found {tc}"),
                    c.args[0].span.clone(),
                    "not bool",
                );
                return Ty::Error;
            }
        }
        let (Some(_), Some(da), Some(db)) = (tc.dtype(), ta.dtype(), tb.dtype()) else {
            return Ty::Error;
        };
        let d = promote(da, self.weak_of(&c.args[1]), db, self.weak_of(&c.args[2]));
        self.check_int_literals(&[&c.args[1], &c.args[2]], d);
        self.broadcast_all(&[&tc, &ta, &tb], d, c.e)
    }

    /// `ldexp(x, i)`: `x` and integer exponents `i` broadcast, in `x`'s float dtype (`f32` stays,
    /// others `f64`); float exponents are E0301 (NumPy's TypeError).
    pub(super) fn ldexp(&mut self, c: &Call) -> Ty {
        let (tx, ti) = (self.value(&c.args[0]), self.value(&c.args[1]));
        let (Some(dx), Some(di)) = (tx.dtype(), ti.dtype()) else { return Ty::Error };
        if di.is_float() {
            self.err(
                Diagnostic::error(
                    "E0301",
                    format!("`ldexp`'s exponents must be integers, found {}", di.name()),
                    c.args[1].span.clone(),
                    "not integers",
                )
                .with_note("NumPy's ldexp takes integer exponents only (TypeError)")
                .with_help("convert them: `np.ldexp(x, i64(i))`, or write `x * 2.0 ** i`"),
            );
            return Ty::Error;
        }
        self.broadcast_all(&[&tx, &ti], dx.ufunc_float(), c.e)
    }

    /// `choose(a, [c0, c1, ...])`: `a` of integers (or bools) and the choices, a list or tuple
    /// written out, broadcast together; the choices promoted together (Python numbers weak, as
    /// NumPy's `choose` converts them).
    pub(super) fn choose(&mut self, c: &Call) -> Ty {
        let ta = self.value(&c.args[0]);
        let (ExprKind::List(items) | ExprKind::Tuple(items)) = &c.args[1].kind else {
            self.expr(&c.args[1]);
            self.err(
                Diagnostic::error(
                    "E0503",
                    "`choose`'s choices must be a list or tuple written out",
                    c.args[1].span.clone(),
                    "not a list of choices",
                )
                .with_help(
                    "write them out: `np.choose(a, [c0, c1, c2])` (of an array `cs` of choices: `cs[0], cs[1], ..`)",
                ),
            );
            return Ty::Error;
        };
        self.set_ty(c.args[1].id, Ty::Unit);
        let ts: Vec<Ty> = items.iter().map(|i| self.value(i)).collect();
        if let Some(da) = ta.dtype().filter(|d| d.is_float()) {
            self.error(
                "E0301",
                format!("`choose`'s `a` must hold integers, found {}", da.name()),
                c.args[0].span.clone(),
                "not integers",
            );
            return Ty::Error;
        }
        let mut acc: Option<(DType, Option<Weak>)> = None;
        for (t, item) in ts.iter().zip(items) {
            let Some(d) = t.dtype() else { return Ty::Error };
            let w = self.weak_of(item);
            acc = Some(match acc {
                None => (d, w),
                Some((ad, aw)) => {
                    let p = promote(ad, aw, d, w);
                    (p, aw.and(w).map(|_| Weak::of_dtype(p)))
                }
            });
        }
        let (Some((d, _)), Some(_)) = (acc, ta.dtype()) else {
            if items.is_empty() {
                self.error("E0503", "`choose` needs at least one choice", c.args[1].span.clone(), "no choices");
            }
            return Ty::Error;
        };
        self.check_int_literals(&items.iter().collect::<Vec<_>>(), d);
        let mut all = vec![&ta];
        all.extend(ts.iter());
        self.broadcast_all(&all, d, c.e)
    }

    /// Casts: `f64(x)`, `f32(x)`, `i64(x)`, `bool(x)`.
    pub(super) fn cast(&mut self, c: &Call) -> Ty {
        let t = self.value(&c.args[0]);
        match c.b.conversion_dtype() {
            Some(d) if t.dtype().is_some() => with_dtype(&t, d),
            _ => Ty::Error,
        }
    }
}

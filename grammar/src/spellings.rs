//! NumPy and Python spellings that are other calls of builtins, rewritten as the program is
//! parsed: `np.finfo(T).eps` and `np.iinfo(T).max` (constants), Python's `math` module on
//! scalars (`math.sqrt(s)` is `np.sqrt(s)`, `math.pi` is `pi`, `math.floor(s)` Python's `int`),
//! `float('inf')`, `np.correlate(a, v, mode)` (`convolve(a, v[::-1], mode)`, of real arrays),
//! `np.select(conds, choices, default)` (nested `where`s, the first true condition's choice),
//! `np.corrcoef(x, y)` and `np.cov(x, y)` (of `vstack((x, y))`), `np.gradient(f, h)` of a literal
//! spacing (`gradient(f) / h`), a dtype given by position (`np.zeros(5, int)`,
//! `np.array(x, np.float32)`) and `convolve`'s mode by position; NumPy's compositions of builtins
//! (issue 31): `nanprod`, `nancumsum`, `nancumprod` (NaN read as the identity), `isposinf`,
//! `isneginf`, `diagflat(v, k)` (`diag(ravel(v), k)`), `ediff1d(x)` (`diff(ravel(x))`),
//! `triu_indices_from(a, k)`, `tril_indices_from(a, k)`, `extract(c, x)` (`ravel(x)[bool(ravel(c))]`),
//! NumPy 2's `astype(x, dtype)` (`array(x, dtype=dtype)`), `matrix_transpose(x)`
//! (`swapaxes(x, -2, -1)`), `dsplit(x, k)` (`split(x, k, axis=2)`), `rollaxis(x, k, start)` of
//! nonnegative literals (`moveaxis`), `np.diagonal(x, k)` of a literal offset
//! (`diagonal(x[:, k:])`), `linspace(.., dtype=d)` (`d(floor(linspace(..)))` for an integer `d`) and
//! `diff(x, prepend=p, append=q)` (`diff(concatenate((p, x, q), axis=-1))`).

use crate::ast::{BinOp, Expr, ExprKind, Ident, Index, Span};
use crate::builtin::qualified;
use crate::syntax::mk;
use arrayc_core::dtype::DType;
use std::cell::Cell;

/// Python's `math` module: its functions and constants that arrayc has, on scalars.
pub const MATH: &str = "math";

/// The dtype a type argument names: a type name (`np.float32`, `f32`) or Python's `int`,
/// `float`, `bool` ([`crate::syntax::python_type_as_dtype`]).
fn dtype_named(e: &Expr) -> Option<DType> {
    match crate::syntax::python_type_as_dtype(e.clone()).kind {
        ExprKind::DTypeName(d) => Some(d),
        _ => None,
    }
}

/// `base.name` where `base` is `np.finfo(T)` or `np.iinfo(T)` (NumPy's machine limits), or the
/// module `math` (its constants): the value; `None` for any other attribute. `finfo`'s values are
/// NumPy scalars of `T` (strong in promotion: `x_f32 * np.finfo(np.float64).eps` is `float64`),
/// so the cast `T(literal)`; `iinfo`'s and `math`'s are Python numbers, literals.
pub fn limit_or_constant(ids: &Cell<u32>, base: &Expr, name: &Ident, span: &Span) -> Option<Expr> {
    let kind = match &base.kind {
        ExprKind::Var(m) if m.name == MATH => match name.name.as_str() {
            "pi" => ExprKind::Float(std::f64::consts::PI),
            "e" => ExprKind::Float(std::f64::consts::E),
            "tau" => ExprKind::Float(std::f64::consts::TAU),
            "inf" => ExprKind::Float(f64::INFINITY),
            "nan" => ExprKind::Float(f64::NAN),
            _ => return None,
        },
        ExprKind::Call { func, args, kwargs } if kwargs.is_empty() && args.len() == 1 => {
            let d = dtype_named(&args[0])?;
            let kind = match (func.name.strip_prefix("np.")?, d, name.name.as_str()) {
                ("finfo", d, attr) => ExprKind::Float(crate::dtype_queries::finfo(d, attr)?),
                ("iinfo", d, "max" | "min") if d.is_int() => {
                    let (lo, hi) = d.int_range()?;
                    // `np.iinfo(np.uint64).max` is beyond arrayc's integer literals (`i64`).
                    ExprKind::Int(i64::try_from(if name.name == "max" { hi } else { lo }).ok()?)
                }
                _ => return None,
            };
            if let ExprKind::Float(_) = kind {
                // `np.finfo(T).eps` is a NumPy scalar of `T`: the cast `T(literal)`.
                let value = mk(ids, kind, span.clone());
                let func = Ident { name: d.name().to_string(), span: span.clone() };
                return Some(Expr {
                    id: base.id,
                    kind: ExprKind::Call { func, args: vec![value], kwargs: vec![] },
                    span: span.clone(),
                });
            }
            kind
        }
        _ => return None,
    };
    Some(Expr { id: base.id, kind, span: span.clone() })
}

/// `math.f(args)`: the builtin of NumPy's name for `f` (`math.asin` is `arcsin`), on scalars,
/// with Python's conversions: `math`'s float functions take each argument as Python's `float`
/// (so an array is refused, as Python's TypeError, and a `float32` or integer scalar is read as
/// `float64`) and give a Python `float` (weak in NumPy 2's promotion: `math.sqrt(2.0) * x_f32` is
/// `float32`), so `math.sqrt(s)` is `float(np.sqrt(float(s)))`; the predicates `isnan`, `isinf`,
/// `isfinite` take `float`s too; `math.floor`, `math.ceil` and `math.trunc` give Python's `int`,
/// so they are `int(np.floor(s))` and so on; `math.log(x, b)` is `log(x) / log(b)`;
/// `math.gcd(a, b)` is `int(np.gcd(a, b))` and `math.factorial(n)` Python's value of `n` from 0
/// to 20 ([`crate::math_more`]). `None` for a function `math` has that arrayc does not.
pub fn math_call(ids: &Cell<u32>, name: &Ident, mut args: Vec<Expr>, span: &Span) -> Option<ExprKind> {
    let call = |ids: &Cell<u32>, f: &str, args: Vec<Expr>| {
        mk(
            ids,
            ExprKind::Call { func: Ident { name: qualified(f), span: name.span.clone() }, args, kwargs: vec![] },
            span.clone(),
        )
    };
    let python = |ids: &Cell<u32>, ty: &str, e: Expr| {
        mk(
            ids,
            ExprKind::Call {
                func: Ident { name: ty.to_string(), span: name.span.clone() },
                args: vec![e],
                kwargs: vec![],
            },
            span.clone(),
        )
    };
    let floats =
        |ids: &Cell<u32>, args: Vec<Expr>| args.into_iter().map(|a| python(ids, "float", a)).collect::<Vec<_>>();
    let numpy = match name.name.as_str() {
        "sqrt" | "exp" | "log2" | "log10" | "sin" | "cos" | "tan" | "sinh" | "cosh" | "tanh" | "hypot" | "fabs"
        | "copysign" | "expm1" | "log1p" | "degrees" | "radians" | "fmod" => name.name.as_str(),
        "isnan" | "isinf" | "isfinite" => return Some(call(ids, &name.name, floats(ids, args)).kind),
        "prod" => return Some(call(ids, "prod", args).kind),
        "asin" => "arcsin",
        "acos" => "arccos",
        "atan" => "arctan",
        "atan2" => "arctan2",
        "asinh" => "arcsinh",
        "acosh" => "arccosh",
        "atanh" => "arctanh",
        "pow" => "power",
        "log" if args.len() == 2 => {
            let base = args.pop()?;
            let num = call(ids, "log", floats(ids, args));
            let den = call(ids, "log", floats(ids, vec![base]));
            let q = mk(ids, ExprKind::Binary(BinOp::Div, Box::new(num), Box::new(den)), span.clone());
            return Some(python(ids, "float", q).kind);
        }
        "log" => "log",
        "floor" | "ceil" | "trunc" => {
            let rounded = call(ids, &name.name, args);
            return Some(python(ids, "int", rounded).kind);
        }
        other => return crate::math_more::math_call(ids, other, args, &name.span, span),
    };
    let value = call(ids, numpy, floats(ids, args));
    Some(python(ids, "float", value).kind)
}

/// The call `np.f(args)` under a fresh id, at `at`.
/// The `order` of a call of `ravel`/`flatten`, `'C'` or `'F'` (a string, which the parser reads
/// as a name), by keyword or as the second argument, if it is one of these.
fn order_given(args: &[Expr], kwargs: &[(Ident, Expr)]) -> Option<char> {
    let by_name = kwargs.iter().find(|(k, _)| k.name == "order").map(|(_, v)| v);
    let v = match (by_name, args) {
        (Some(v), [_]) => v,
        (None, [_, v]) => v,
        _ => return None,
    };
    match &v.kind {
        ExprKind::Str(o) | ExprKind::Var(Ident { name: o, .. }) if o == "C" || o == "F" => o.chars().next(),
        _ => None,
    }
}

fn call(ids: &Cell<u32>, f: &str, args: Vec<Expr>, at: &Span) -> Expr {
    let func = Ident { name: qualified(f), span: at.clone() };
    mk(ids, ExprKind::Call { func, args, kwargs: vec![] }, at.clone())
}

/// NumPy's `linspace(start, stop, num, .., retstep=True)` (`e`): the tuple of the samples and
/// the step, `(stop - start) / div` with `div` NumPy's `num - 1` (`num` where `endpoint=False`),
/// NaN where `div` is 0. `retstep=False` is the keyword left out; a `retstep` that is not a
/// literal stays, for the checker's error.
fn retstep(ids: &Cell<u32>, e: &mut Expr) {
    let span = e.span.clone();
    let ExprKind::Call { args, kwargs, .. } = &mut e.kind else { return };
    let Some(k) = kwargs.iter().position(|(n, _)| n.name == "retstep") else { return };
    let ExprKind::Bool(on) = kwargs[k].1.kind else { return };
    kwargs.remove(k);
    let [start, stop, num] = args.as_slice() else {
        rewrite_call(ids, "linspace", e);
        return;
    };
    let copy = |x: &Expr| crate::syntax::fresh_copy(ids, x);
    let bin = |op: BinOp, a: Expr, b: Expr| mk(ids, ExprKind::Binary(op, Box::new(a), Box::new(b)), span.clone());
    let one = mk(ids, ExprKind::Int(1), span.clone());
    let endpoint = kwargs.iter().find(|(n, _)| n.name == "endpoint").map(|(_, v)| copy(v));
    let div = match endpoint {
        None | Some(Expr { kind: ExprKind::Bool(true), .. }) => bin(BinOp::Sub, copy(num), one),
        Some(Expr { kind: ExprKind::Bool(false), .. }) => copy(num),
        Some(v) => {
            let parts = [v, bin(BinOp::Sub, copy(num), one), copy(num)];
            mk(ids, ExprKind::IfElse(Box::new(parts)), span.clone())
        }
    };
    let delta = bin(BinOp::Sub, copy(stop), copy(start));
    let positive = bin(BinOp::Gt, copy(&div), mk(ids, ExprKind::Int(0), span.clone()));
    let nan = mk(ids, ExprKind::Float(f64::NAN), span.clone());
    let step = mk(ids, ExprKind::IfElse(Box::new([positive, bin(BinOp::Div, delta, div), nan])), span.clone());
    rewrite_call(ids, "linspace", e);
    if on {
        let samples = std::mem::replace(e, mk(ids, ExprKind::Int(0), span.clone()));
        *e = mk(ids, ExprKind::Tuple(vec![samples, step]), span);
    }
}

/// The rewrites of a call of the builtin `name` (without `np.`) listed in the module docs, in
/// place; `args`/`kwargs` as written.
pub fn rewrite_call(ids: &Cell<u32>, name: &str, e: &mut Expr) {
    let span = e.span.clone();
    // NumPy's functions of dtypes (`np.issubdtype`, `np.can_cast`, ...).
    crate::dtype_queries::rewrite_call(ids, name, e);
    let ExprKind::Call { func, args, kwargs } = &mut e.kind else { return };
    let kw = |k: &str, at: &Span| Ident { name: k.to_string(), span: at.clone() };
    // A dtype by position: after the sizes (`zeros`, `ones`, `empty`, `*_like`, `array`,
    // `asarray`) or the fill value (`full`, `full_like`).
    let dtype_at = match name {
        "zeros" | "ones" | "empty" | "zeros_like" | "ones_like" | "empty_like" | "array" | "asarray" => Some(1),
        "full" | "full_like" => Some(2),
        _ => None,
    };
    if let Some(k) = dtype_at {
        let dtype = |a: &Expr| dtype_named(a).is_some() || crate::dtype_queries::is_dtype_expr(a);
        if args.len() == k + 1 && dtype(&args[k]) && !kwargs.iter().any(|(n, _)| n.name == "dtype") {
            let d = args.pop().unwrap_or_else(|| unreachable!("k + 1 arguments"));
            let d = crate::syntax::python_type_as_dtype(d);
            kwargs.push((kw("dtype", &d.span), d));
        }
    }
    if name == "cov" {
        // NumPy's `cov(.., bias=True)` divides by `n` (`ddof=0`); `bias=False` is the default,
        // `n - 1`. A `ddof=` given wins over `bias`, as in NumPy.
        if let Some(at) = kwargs.iter().position(|(k, _)| k.name == "bias") {
            let (key, bias) = kwargs.remove(at);
            let ddof = kwargs.iter().any(|(k, _)| k.name == "ddof");
            match bias.kind {
                ExprKind::Bool(_) if ddof => {}
                ExprKind::Bool(true) => {
                    kwargs.push((kw("ddof", &key.span), mk(ids, ExprKind::Int(0), key.span.clone())))
                }
                ExprKind::Bool(false) => {}
                _ => kwargs.push((key, bias)),
            }
        }
    }
    match name {
        // `mode` by position, a string (`np.convolve(a, v, 'same')`).
        "convolve" | "correlate" if args.len() == 3 && matches!(args[2].kind, ExprKind::Str(_)) => {
            let m = args.pop().unwrap_or_else(|| unreachable!("3 arguments"));
            let key = kw("mode", &m.span);
            let m = crate::syntax::keyword_value(&key, m);
            kwargs.push((key, m));
        }
        _ => {}
    }
    match name {
        "histogram" | "histogram_bin_edges" if args.len() == 3 && !kwargs.iter().any(|(n, _)| n.name == "range") => {
            // NumPy's `histogram(a, bins, range)`: the range by position.
            let r = args.pop().unwrap_or_else(|| unreachable!("3 arguments"));
            kwargs.push((kw("range", &r.span), r));
        }
        "arange" if args.len() == 1 && kwargs.iter().any(|(n, _)| n.name == "step") => {
            // NumPy's `arange(stop, step=s)`: the one positional argument is the stop, so the
            // start is 0 ([`crate::numpy_keywords`] moved the other keyword spellings).
            let at = kwargs.iter().position(|(n, _)| n.name == "step").unwrap_or_else(|| unreachable!("matched"));
            let step = kwargs.remove(at).1;
            args.insert(0, mk(ids, ExprKind::Int(0), args[0].span.clone()));
            args.push(step);
        }
        "correlate" if args.len() == 2 => {
            // NumPy's `correlate(a, v, mode='valid')` of real arrays: `convolve(a, v[::-1], mode)`.
            let v = args.pop().unwrap_or_else(|| unreachable!("2 arguments"));
            let at = v.span.clone();
            let minus_one = mk(ids, ExprKind::Int(-1), at.clone());
            let slice = Index::Slice { start: None, stop: None, step: Some(minus_one), span: at.clone() };
            args.push(mk(ids, ExprKind::Subscript { base: Box::new(v), index: vec![slice] }, at.clone()));
            if !kwargs.iter().any(|(n, _)| n.name == "mode") {
                let key = kw("mode", &at);
                let valid = crate::syntax::keyword_value(&key, mk(ids, ExprKind::Str("valid".to_string()), at));
                kwargs.push((key, valid));
            }
            *func = Ident { name: qualified("convolve"), span: func.span.clone() };
        }
        "corrcoef" | "cov" if args.len() == 2 => {
            // `corrcoef(x, y)`: `y`'s rows (a 1-d `y`: one row) after `x`'s, NumPy's `vstack`.
            let y = args.pop().unwrap_or_else(|| unreachable!("2 arguments"));
            let x = args.pop().unwrap_or_else(|| unreachable!("2 arguments"));
            let at = x.span.start..y.span.end;
            let pair = mk(ids, ExprKind::Tuple(vec![x, y]), at.clone());
            let stacked = ExprKind::Call { func: kw(&qualified("vstack"), &at), args: vec![pair], kwargs: vec![] };
            args.push(mk(ids, stacked, at));
        }
        "select" if (2..=3).contains(&args.len()) && kwargs.iter().all(|(n, _)| n.name == "default") => {
            // `select([c0, c1], [a0, a1], d)`: `where(c0, a0, where(c1, a1, d))`.
            let (ExprKind::List(_), ExprKind::List(_)) = (&args[0].kind, &args[1].kind) else { return };
            let default = match (args.len(), kwargs.pop()) {
                (3, _) => args.pop().unwrap_or_else(|| unreachable!("3 arguments")),
                (_, Some((_, d))) => d,
                _ => mk(ids, ExprKind::Int(0), span.clone()),
            };
            let (ExprKind::List(choices), ExprKind::List(conds)) = (
                args.pop().map(|a| a.kind).unwrap_or(ExprKind::Int(0)),
                args.pop().map(|a| a.kind).unwrap_or(ExprKind::Int(0)),
            ) else {
                unreachable!("matched lists")
            };
            if conds.len() != choices.len() || conds.is_empty() {
                return;
            }
            let mut out = default;
            for (c, a) in conds.into_iter().zip(choices).rev() {
                let w = ExprKind::Call { func: kw(&qualified("where"), &span), args: vec![c, a, out], kwargs: vec![] };
                out = mk(ids, w, span.clone());
            }
            e.kind = out.kind;
        }
        "diagonal" => {
            // `diagonal(x, k)`, `diagonal(x, offset=k)`, `x.diagonal(k)` with an integer literal `k`:
            // the main diagonal of the view `x[:, k:]` (`x[-k:]` for `k < 0`), NumPy's `offset`.
            if let Some(at) = kwargs.iter().position(|(n, _)| n.name == "offset") {
                if args.len() == 1 {
                    args.push(kwargs.remove(at).1);
                }
            }
            let Some(k) =
                args.get(1).filter(|_| args.len() == 2 && kwargs.is_empty()).and_then(crate::check::literal_int)
            else {
                return;
            };
            let off = args.pop().unwrap_or_else(|| unreachable!("2 arguments"));
            if k == 0 {
                return;
            }
            let x = args.pop().unwrap_or_else(|| unreachable!("2 arguments"));
            let at = off.span.clone();
            let from = Some(mk(ids, ExprKind::Int(k.abs()), at.clone()));
            let all = Index::Slice { start: None, stop: None, step: None, span: at.clone() };
            let cut = Index::Slice { start: from, stop: None, step: None, span: at.clone() };
            let index = if k > 0 { vec![all, cut] } else { vec![cut] };
            args.push(mk(ids, ExprKind::Subscript { base: Box::new(x), index }, at));
        }
        "cumsum" | "cumprod" if kwargs.iter().any(|(k, _)| k.name == "dtype") && !args.is_empty() => {
            // NumPy's scan with `dtype=d`, accumulated in `d`: `asarray(scan(asarray(x, dtype=d)),
            // dtype=d)`. The scan of a `d` narrower than its default accumulator (`u8` into `u64`)
            // wraps back to the same values: sums and products modulo 2^k do not depend on where
            // they wrap, and a bool scan (NumPy's running `or`/`and`) is the integer one's `!= 0`.
            let at = kwargs.iter().position(|(k, _)| k.name == "dtype").unwrap_or_else(|| unreachable!("found"));
            let dtype = kwargs.remove(at);
            let cast = |x: Expr, dtype: (Ident, Expr)| {
                let span = x.span.clone();
                mk(
                    ids,
                    ExprKind::Call { func: kw(&qualified("asarray"), &span), args: vec![x], kwargs: vec![dtype] },
                    span,
                )
            };
            let x = args.remove(0);
            let again = (dtype.0.clone(), crate::syntax::fresh_copy(ids, &dtype.1));
            args.insert(0, cast(x, dtype));
            let scan = mk(ids, std::mem::replace(&mut e.kind, ExprKind::NoneLit), span.clone());
            e.kind = cast(scan, again).kind;
        }
        "ravel" | "flatten" if order_given(args, kwargs).is_some() => {
            // NumPy's `order='C'` (row-major, the default) and `order='F'` (column-major: the
            // row-major order of the transpose, all axes reversed), by keyword or position;
            // other orders stay E0502.
            let fortran = order_given(args, kwargs) == Some('F');
            kwargs.retain(|(k, _)| k.name != "order");
            args.truncate(1);
            if fortran && !args.is_empty() {
                let x = args.remove(0);
                let span = x.span.clone();
                args.insert(0, call(ids, "transpose", vec![x], &span));
            }
        }
        "fromfunction" => crate::fromfunction::rewrite(ids, e),
        "piecewise" => crate::piecewise::rewrite(ids, e),
        "nanprod" | "nancumsum" | "nancumprod" if (1..=2).contains(&args.len()) => {
            // NumPy's NaN-ignoring product and scans: NaN read as the identity, `prod(where(isnan(x),
            // 1, x))` (of an integer or bool `x`, `x` itself: `prod`'s and `cumsum`'s dtypes); an
            // axis by position is then `axis=`.
            let x = args.remove(0);
            let at = x.span.clone();
            let identity = if name == "nancumsum" { 0 } else { 1 };
            let test = call(ids, "isnan", vec![crate::syntax::fresh_copy(ids, &x)], &at);
            let identity = mk(ids, ExprKind::Int(identity), at.clone());
            args.insert(0, call(ids, "where", vec![test, identity, x], &at));
            let plain = match name {
                "nanprod" => "prod",
                "nancumsum" => "cumsum",
                _ => "cumprod",
            };
            *func = Ident { name: qualified(plain), span: func.span.clone() };
            crate::syntax::positional_axis(func, args, kwargs);
        }
        "isposinf" | "isneginf" if args.len() == 1 && kwargs.is_empty() => {
            // NumPy's `isinf(x) & ~signbit(x)`: `isinf(x) & (x > 0)` (`x < 0`), of any real dtype.
            let x = args.pop().unwrap_or_else(|| unreachable!("1 argument"));
            let at = x.span.clone();
            let inf = call(ids, "isinf", vec![crate::syntax::fresh_copy(ids, &x)], &at);
            let zero = mk(ids, ExprKind::Int(0), at.clone());
            let op = if name == "isposinf" { BinOp::Gt } else { BinOp::Lt };
            let side = mk(ids, ExprKind::Binary(op, Box::new(x), Box::new(zero)), at);
            e.kind = ExprKind::Binary(BinOp::And, Box::new(inf), Box::new(side));
        }
        "diagflat" if (1..=2).contains(&args.len()) => {
            // NumPy's `diag(ravel(v), k)`: `v` flattened on the diagonal `k` of a square array.
            let v = args.remove(0);
            let at = v.span.clone();
            args.insert(0, call(ids, "ravel", vec![v], &at));
            *func = Ident { name: qualified("diag"), span: func.span.clone() };
        }
        "ediff1d" if args.len() == 1 && kwargs.is_empty() => {
            // NumPy's `ediff1d(x)` (no `to_begin=`, `to_end=`): `diff(ravel(x))`.
            let x = args.pop().unwrap_or_else(|| unreachable!("1 argument"));
            let at = x.span.clone();
            args.push(call(ids, "ravel", vec![x], &at));
            *func = Ident { name: qualified("diff"), span: func.span.clone() };
        }
        "triu_indices_from" | "tril_indices_from" if (1..=2).contains(&args.len()) => {
            // NumPy's `tril_indices(a.shape[0], k, a.shape[1])` of a 2-d `a`.
            let a = args.remove(0);
            let at = a.span.clone();
            let size = |ids: &Cell<u32>, a: Expr, k: i64| {
                let axis = mk(ids, ExprKind::Int(k), at.clone());
                let kw = vec![(Ident { name: "axis".to_string(), span: at.clone() }, axis)];
                let kind = ExprKind::Call {
                    func: Ident { name: qualified("size"), span: at.clone() },
                    args: vec![a],
                    kwargs: kw,
                };
                mk(ids, kind, at.clone())
            };
            let cols = size(ids, crate::syntax::fresh_copy(ids, &a), 1);
            args.insert(0, size(ids, a, 0));
            kwargs.push((kw("m", &at), cols));
            let plain = if name == "triu_indices_from" { "triu_indices" } else { "tril_indices" };
            *func = Ident { name: qualified(plain), span: func.span.clone() };
        }
        "matrix_transpose" if args.len() == 1 && kwargs.is_empty() => {
            // NumPy 2's `matrix_transpose(x)`: `swapaxes(x, -2, -1)`, a view (E0405 below 2-d, as
            // NumPy's ValueError).
            let at = args[0].span.clone();
            let neg = |ids: &Cell<u32>, k: i64| {
                let k = mk(ids, ExprKind::Int(k), at.clone());
                mk(ids, ExprKind::Unary(crate::ast::UnOp::Neg, Box::new(k)), at.clone())
            };
            args.push(neg(ids, 2));
            args.push(neg(ids, 1));
            *func = Ident { name: qualified("swapaxes"), span: func.span.clone() };
        }
        "dsplit" if args.len() == 2 && kwargs.is_empty() => {
            // NumPy's `dsplit(x, k)`: `split(x, k, axis=2)` (E0405 below 3-d, as NumPy's ValueError).
            let at = args[1].span.clone();
            kwargs.push((kw("axis", &at), mk(ids, ExprKind::Int(2), at.clone())));
            *func = Ident { name: qualified("split"), span: func.span.clone() };
        }
        "rollaxis"
            if (2..=3).contains(&args.len())
                && kwargs.is_empty()
                && args[1..].iter().all(|a| matches!(a.kind, ExprKind::Int(_))) =>
        {
            // NumPy's `rollaxis(x, k, start)` of nonnegative literals (`start` 0 unless given):
            // `moveaxis(x, k, start - 1)` where `k < start`, else `moveaxis(x, k, start)`.
            let at = args[1].span.clone();
            let int = |a: &Expr| if let ExprKind::Int(v) = a.kind { v } else { unreachable!("matched: literals") };
            let k = int(&args[1]);
            let start = args.get(2).map_or(0, int);
            let to = if k < start { start - 1 } else { start };
            args.truncate(2);
            args.push(mk(ids, ExprKind::Int(to), at));
            *func = Ident { name: qualified("moveaxis"), span: func.span.clone() };
        }
        "extract" if args.len() == 2 && kwargs.is_empty() => {
            // NumPy's `take(ravel(arr), nonzero(ravel(condition))[0])`: `ravel(arr)[bool(ravel(condition))]`.
            let arr = args.pop().unwrap_or_else(|| unreachable!("2 arguments"));
            let cond = args.pop().unwrap_or_else(|| unreachable!("2 arguments"));
            let at = span.clone();
            let flat = call(ids, "ravel", vec![arr], &at);
            let mask = call(ids, "ravel", vec![cond], &at);
            let mask = mk(ids, ExprKind::Call { func: kw("bool", &at), args: vec![mask], kwargs: vec![] }, at);
            e.kind = ExprKind::Subscript { base: Box::new(flat), index: vec![Index::At(mask)] };
        }
        "astype" if args.len() == 2 && kwargs.is_empty() => {
            // NumPy 2's `astype(x, dtype)`: a copy in `dtype`, `array(x, dtype=dtype)`.
            let d = args.pop().unwrap_or_else(|| unreachable!("2 arguments"));
            let key = kw("dtype", &d.span);
            let d = crate::syntax::keyword_value(&key, d);
            kwargs.push((key, d));
            *func = Ident { name: qualified("array"), span: func.span.clone() };
        }
        "linspace" if kwargs.iter().any(|(n, _)| n.name == "retstep") => retstep(ids, e),
        "concatenate"
            if matches!(args.first().map(|a| &a.kind), Some(ExprKind::Tuple(_)))
                && kwargs.iter().any(|(n, v)| n.name == "axis" && matches!(v.kind, ExprKind::NoneLit)) =>
        {
            // NumPy's `concatenate(arrays, axis=None)` ravels each array first.
            kwargs.retain(|(n, _)| n.name != "axis");
            let ExprKind::Tuple(items) = &mut args[0].kind else { unreachable!("matched: a tuple") };
            for it in items {
                let at = it.span.clone();
                let x = std::mem::replace(it, mk(ids, ExprKind::Int(0), at.clone()));
                *it = call(ids, "ravel", vec![x], &at);
            }
        }
        "linspace" => {
            // `linspace(.., dtype=d)`: NumPy 2 computes in `f64`, then floors for an integer `d`
            // (toward -inf) and casts: `d(floor(linspace(..)))`, `d(linspace(..))` for a float.
            let Some(at) = kwargs.iter().position(|(n, _)| n.name == "dtype") else { return };
            let ExprKind::DTypeName(d) = kwargs[at].1.kind else { return };
            kwargs.remove(at);
            let inner = std::mem::replace(&mut e.kind, ExprKind::Int(0));
            let mut v = mk(ids, inner, span.clone());
            if d.is_int() {
                v = call(ids, "floor", vec![v], &span);
            }
            e.kind = ExprKind::Call { func: kw(d.name(), &span), args: vec![v], kwargs: vec![] };
        }
        "diff" if kwargs.iter().any(|(n, _)| matches!(n.name.as_str(), "prepend" | "append")) => {
            // `diff(x, prepend=p, append=q)`: NumPy's `diff` of `concatenate((p, x, q), axis=axis)`
            // (axis -1 by default), a scalar `p` a one-element array.
            let axis = kwargs.iter().find(|(n, _)| n.name == "axis").map(|(_, a)| crate::syntax::fresh_copy(ids, a));
            let mut part = |k: &str| {
                let at = kwargs.iter().position(|(n, _)| n.name == k)?;
                let (_, p) = kwargs.remove(at);
                let at = p.span.clone();
                // A scalar is one element (NumPy broadcasts it along the other axes; arrayc's
                // `concatenate` then needs an `x` of one dimension).
                Some(call(ids, "atleast_1d", vec![p], &at))
            };
            let (pre, app) = (part("prepend"), part("append"));
            let Some(x) = (!args.is_empty()).then(|| args.remove(0)) else { return };
            let at = x.span.clone();
            let items: Vec<Expr> = pre.into_iter().chain([x]).chain(app).collect();
            let tuple = mk(ids, ExprKind::Tuple(items), at.clone());
            let axis = axis.unwrap_or_else(|| mk(ids, ExprKind::Int(-1), at.clone()));
            let func = kw(&qualified("concatenate"), &at);
            let joined = ExprKind::Call { func, args: vec![tuple], kwargs: vec![(kw("axis", &at), axis)] };
            args.insert(0, mk(ids, joined, at));
        }
        "float" if args.len() == 1 && kwargs.is_empty() => {
            // Python's `float('inf')`, `float('-inf')`, `float('nan')`.
            let ExprKind::Str(s) = &args[0].kind else { return };
            let v = match s.trim().to_ascii_lowercase().as_str() {
                "inf" | "+inf" | "infinity" | "+infinity" => f64::INFINITY,
                "-inf" | "-infinity" => f64::NEG_INFINITY,
                "nan" | "+nan" | "-nan" => f64::NAN,
                _ => return,
            };
            e.kind = ExprKind::Float(v);
        }
        "real" | "imag" | "conj" | "conjugate" if args.len() == 1 && kwargs.is_empty() => {
            // The parts of a real array (arrayc has no complex dtypes): `real(x)` is `x`, `imag(x)`
            // zeros, `conj(x)` a copy (NumPy's ufunc).
            let x = args.pop().unwrap_or_else(|| unreachable!("one argument"));
            e.kind = match name {
                "real" => x.kind,
                "imag" => call(ids, "zeros_like", vec![x], &span).kind,
                _ => call(ids, "copy", vec![x], &span).kind,
            };
        }
        "searchsorted" if args.len() == 2 && kwargs.iter().any(|(k, _)| k.name == "sorter") => {
            // NumPy's `searchsorted(a, v, sorter=s)`: the positions in `a[s]`, sorted.
            let at = kwargs.iter().position(|(k, _)| k.name == "sorter").unwrap_or_else(|| unreachable!("found"));
            let (_, sorter) = kwargs.remove(at);
            let a = args.remove(0);
            let at = a.span.clone();
            args.insert(0, mk(ids, ExprKind::Subscript { base: Box::new(a), index: vec![Index::At(sorter)] }, at));
        }
        "roll" | "reshape" | "trace" | "block" | "linalg.multi_dot" => {
            crate::axis_compositions::rewrite(ids, name, e);
        }
        _ => crate::compositions::rewrite(ids, name, e),
    }
}

//! NumPy functions that are compositions of builtins, rewritten as the program is parsed (issue
//! 31, from [`crate::spellings::rewrite_call`]): the window functions `hanning(M)`, `hamming(M)`,
//! `blackman(M)`, `bartlett(M)` (NumPy's formulas on `n = arange(1 - M, M, 2)`, `M` a literal or
//! a run-time integer), `kaiser(M, beta)` (see [`kaiser`]), and `nanvar(x)`, `nanstd(x)` with `axis=`, `ddof=`, `keepdims=` (NumPy's
//! algorithm: the mean of the numbers, the squared deviations of the numbers summed, divided by
//! their count less `ddof`, NaN where that is not positive), `nanmedian(x, axis)` (see
//! [`nan_median`]), `diag_indices(n, ndim)` (the tuple
//! `(arange(n),) * ndim`, an index as `x[np.diag_indices(n)]` or bound by `let (i, j) = ..`) and
//! `indices((d0, d1, ..))` of a tuple literal of sizes (the grids of `arange(dk)` stacked), and
//! `sliding_window_view(x, w)` (NumPy's `np.lib.stride_tricks`: the windows gathered, see
//! [`sliding_window_view`]), `lexsort((k0, k1, ..))` of 1-d keys (stable `argsort`s, see
//! [`lexsort`]), and `trim_zeros(x, trim)` of a 1-d `x` (a slice of it, a view, its bounds found
//! by `argmax`), and `histogram2d(x, y, bins, range)` (NumPy's `histogramdd` algorithm, see
//! [`histogram2d`]), `resize(x, shape)` ([`resize`]) and `unwrap(p)` ([`unwrap`]).

use crate::ast::{BinOp, DType, Expr, ExprKind, Ident, Index, Span, UnOp};
use crate::builtin::qualified;
use crate::check::literal_int;
use crate::syntax::{fresh_copy, mk};
use std::cell::Cell;

/// The builder of rewritten expressions: fresh ids, one span (also [`crate::writes`]'s).
pub(crate) struct Build<'a> {
    pub ids: &'a Cell<u32>,
    pub at: Span,
}

impl Build<'_> {
    pub fn e(&self, kind: ExprKind) -> Expr {
        mk(self.ids, kind, self.at.clone())
    }

    pub fn int(&self, v: i64) -> Expr {
        self.e(ExprKind::Int(v))
    }

    pub fn float(&self, v: f64) -> Expr {
        self.e(ExprKind::Float(v))
    }

    pub fn bin(&self, op: BinOp, a: Expr, b: Expr) -> Expr {
        self.e(ExprKind::Binary(op, Box::new(a), Box::new(b)))
    }

    pub fn kw(&self, k: &str) -> Ident {
        Ident { name: k.to_string(), span: self.at.clone() }
    }

    /// `np.f(args, kwargs)`.
    pub fn call(&self, f: &str, args: Vec<Expr>, kwargs: Vec<(Ident, Expr)>) -> Expr {
        self.e(ExprKind::Call { func: self.kw(&qualified(f)), args, kwargs })
    }

    pub fn copy(&self, e: &Expr) -> Expr {
        fresh_copy(self.ids, e)
    }
}

/// The rewrite of a call of `name` (without `np.`) in place, where `name` is one of this module's
/// functions called with arguments it takes; any other call stays as it is (for the checker's
/// errors).
pub fn rewrite(ids: &Cell<u32>, name: &str, e: &mut Expr) {
    let ExprKind::Call { args, kwargs, .. } = &e.kind else { return };
    let b = Build { ids, at: e.span.clone() };
    let new = match name {
        "hanning" | "hamming" | "blackman" | "bartlett" if args.len() == 1 && kwargs.is_empty() => {
            window(&b, name, &args[0])
        }
        "diag_indices" => {
            let Some(v) = diag_indices(&b, args, kwargs) else { return };
            v
        }
        "indices" if args.len() == 1 && kwargs.is_empty() => {
            let Some(v) = indices(&b, &args[0]) else { return };
            v
        }
        "lexsort" if args.len() == 1 && kwargs.is_empty() => {
            let Some(v) = lexsort(&b, &args[0]) else { return };
            v
        }
        "sliding_window_view" => {
            let Some(v) = sliding_window_view(&b, args, kwargs) else { return };
            v
        }
        "trim_zeros" => {
            let Some(v) = trim_zeros(&b, args, kwargs) else { return };
            v
        }
        "histogram2d" => {
            let Some(v) = histogram2d(&b, args, kwargs) else { return };
            v
        }
        "apply_along_axis" if args.len() == 3 && kwargs.is_empty() => {
            let Some(v) = apply_along_axis(&b, args) else { return };
            v
        }
        "nanvar" | "nanstd" => {
            let Some(v) = nan_moment(&b, name == "nanstd", args, kwargs) else { return };
            v
        }
        "nanmedian" => {
            let Some(v) = nan_median(&b, args, kwargs) else { return };
            v
        }
        "kaiser" if args.len() == 2 && kwargs.is_empty() => kaiser(&b, &args[0], &args[1]),
        "resize" if args.len() == 2 && kwargs.is_empty() => resize(&b, &args[0], &args[1]),
        "unwrap" if args.len() == 1 && kwargs.is_empty() => unwrap(&b, &args[0]),
        "polyder" | "polyint" => {
            let Some(v) = poly_calculus(&b, name == "polyder", args, kwargs) else { return };
            v
        }
        "vecdot" => {
            let Some(v) = vecdot(&b, args, kwargs) else { return };
            v
        }
        _ => return,
    };
    e.kind = new.kind;
}

/// NumPy's window of `M` points (`numpy/lib/_function_base_impl.py`): with `n = arange(1 - M, M,
/// 2)` and `t = pi * n / (M - 1)`, `hanning` is `0.5 + 0.5 cos(t)`, `hamming` `0.54 + 0.46 cos(t)`,
/// `blackman` `0.42 + 0.5 cos(t) + 0.08 cos(2 t)` and `bartlett` `1 - |n| / (M - 1)`; one point
/// (`M == 1`) is `[1.0]`, and `M < 1` no points (the `arange` is empty).
fn window(b: &Build, name: &str, m: &Expr) -> Expr {
    let n = || {
        let start = b.bin(BinOp::Sub, b.int(1), b.copy(m));
        b.call("arange", vec![start, b.copy(m), b.int(2)], vec![])
    };
    // `M - 1` as a float, so that one point's `0 / 0` is NaN (replaced below), not an error.
    let denom = || b.bin(BinOp::Sub, b.copy(m), b.float(1.0));
    // `pi * n / (M - 1)` times `k` (`2.0 * pi * n / (M - 1)`), NumPy's order of operations.
    let angle = |k: Option<f64>| {
        let pi = b.float(std::f64::consts::PI);
        let pi = match k {
            Some(k) => b.bin(BinOp::Mul, b.float(k), pi),
            None => pi,
        };
        let t = b.bin(BinOp::Div, b.bin(BinOp::Mul, pi, n()), denom());
        b.call("cos", vec![t], vec![])
    };
    let term = |c: f64, k: Option<f64>| b.bin(BinOp::Mul, b.float(c), angle(k));
    let body = match name {
        "hanning" => b.bin(BinOp::Add, b.float(0.5), term(0.5, None)),
        "hamming" => b.bin(BinOp::Add, b.float(0.54), term(0.46, None)),
        "blackman" => {
            let two = b.bin(BinOp::Add, b.float(0.42), term(0.5, None));
            b.bin(BinOp::Add, two, term(0.08, Some(2.0)))
        }
        _ => {
            // `where(n <= 0, 1 + n / (M - 1), 1 - n / (M - 1))`.
            let le = b.bin(BinOp::Le, n(), b.int(0));
            let rise = b.bin(BinOp::Add, b.int(1), b.bin(BinOp::Div, n(), denom()));
            let fall = b.bin(BinOp::Sub, b.int(1), b.bin(BinOp::Div, n(), denom()));
            b.call("where", vec![le, rise, fall], vec![])
        }
    };
    let one_point = b.bin(BinOp::Eq, b.copy(m), b.int(1));
    b.call("where", vec![one_point, b.float(1.0), body], vec![])
}

/// NumPy's `kaiser(M, beta)` (`numpy/lib/_function_base_impl.py`): with `n = arange(0, M)` and
/// `alpha = (M - 1) / 2`, `i0(beta * sqrt(1 - ((n - alpha) / alpha) ** 2)) / i0(f64(beta))`; one
/// point (`alpha == 0`) is `[1.0]`, `M < 1` no points.
fn kaiser(b: &Build, m: &Expr, beta: &Expr) -> Expr {
    let n = b.call("arange", vec![b.int(0), b.copy(m)], vec![]);
    let alpha = || b.bin(BinOp::Div, b.bin(BinOp::Sub, b.copy(m), b.int(1)), b.float(2.0));
    let r = b.bin(BinOp::Div, b.bin(BinOp::Sub, n, alpha()), alpha());
    let root = b.call("sqrt", vec![b.bin(BinOp::Sub, b.int(1), b.bin(BinOp::Pow, r, b.float(2.0)))], vec![]);
    let top = b.call("i0", vec![b.bin(BinOp::Mul, b.copy(beta), root)], vec![]);
    let bottom = b.call("i0", vec![b.call("f64", vec![b.copy(beta)], vec![])], vec![]);
    let body = b.bin(BinOp::Div, top, bottom);
    let one_point = b.bin(BinOp::Eq, alpha(), b.float(0.0));
    b.call("where", vec![one_point, b.float(1.0), body], vec![])
}

/// NumPy's `nanvar(x, axis, ddof=0, keepdims)` (`nanstd`: its square root), as NumPy computes it
/// (`numpy/lib/_nanfunctions_impl.py`): `m = nanmean(x, axis, keepdims=True)`, the squares
/// `where(isnan(x), 0, (x - m) ** 2)` summed along `axis` (an infinity's `inf - inf` is NaN, as
/// NumPy's), divided by `c - ddof` where `c` counts the numbers (in `x`'s dtype, so that an `f32`
/// `x` gives `f32`), NaN where `c - ddof <= 0`. An axis by position is `axis=`; `None` for
/// arguments NumPy does not take here (`out=`, `dtype=`, `where=`, `mean=`), left for E0202.
fn nan_moment(b: &Build, std: bool, args: &[Expr], kwargs: &[(Ident, Expr)]) -> Option<Expr> {
    let (x, axis_pos) = match args {
        [x] => (x, None),
        [x, a] => (x, Some(a)),
        _ => return None,
    };
    let mut axis = axis_pos.cloned();
    let (mut ddof, mut keepdims) = (None, None);
    for (k, v) in kwargs {
        match k.name.as_str() {
            "axis" if axis.is_none() => axis = Some(v.clone()),
            "ddof" => ddof = Some(v.clone()),
            "keepdims" => keepdims = Some(v.clone()),
            _ => return None,
        }
    }
    let axis = axis.filter(|a| !matches!(a.kind, ExprKind::NoneLit));
    let reduce = |f: &str, v: Expr, keep: Option<Expr>| {
        let mut kw = vec![];
        if let Some(a) = &axis {
            kw.push((b.kw("axis"), b.copy(a)));
        }
        if let Some(k) = keep {
            kw.push((b.kw("keepdims"), k));
        }
        b.call(f, vec![v], kw)
    };
    let nan_at = || b.call("isnan", vec![b.copy(x)], vec![]);
    let mean = reduce("nanmean", b.copy(x), Some(b.e(ExprKind::Bool(true))));
    let dev = b.bin(BinOp::Sub, b.copy(x), mean);
    let sq = b.bin(BinOp::Pow, dev, b.int(2));
    let sq = b.call("where", vec![nan_at(), b.int(0), sq], vec![]);
    let keep = || keepdims.as_ref().map(|k| b.copy(k));
    let total = reduce("sum", sq, keep());
    let ones = b.call("ones_like", vec![b.copy(x)], vec![]);
    let count = reduce("sum", b.call("where", vec![nan_at(), b.int(0), ones], vec![]), keep());
    let dof = match ddof {
        Some(d) => b.bin(BinOp::Sub, count, d),
        None => count,
    };
    let bad = b.bin(BinOp::Le, b.copy(&dof), b.int(0));
    let var = b.call("where", vec![bad, b.float(f64::NAN), b.bin(BinOp::Div, total, dof)], vec![]);
    Some(if std { b.call("sqrt", vec![var], vec![]) } else { var })
}

/// NumPy's `nanmedian(x, axis=k, keepdims=False)` (`k` an integer literal, by position or keyword,
/// or `None`: the flattened `x`), the median of the numbers of each line along the axis, NaN for a
/// line without numbers (NumPy warns): the line sorted (NaN last), `c` its numbers, the mean of its
/// elements at `(c - 1) // 2` and `c // 2` (one gather of both), as NumPy's `median` computes it.
/// `None` for what arrayc does not take here (a tuple of axes, `keepdims=True` without an axis,
/// `out=`, `overwrite_input=`), left for E0202's help.
fn nan_median(b: &Build, args: &[Expr], kwargs: &[(Ident, Expr)]) -> Option<Expr> {
    let (x, axis_pos) = match args {
        [x] => (x, None),
        [x, a] => (x, Some(a)),
        _ => return None,
    };
    let mut axis = axis_pos.cloned();
    let mut keepdims = false;
    for (k, v) in kwargs {
        match (k.name.as_str(), &v.kind) {
            ("axis", _) if axis.is_none() => axis = Some(v.clone()),
            ("keepdims", ExprKind::Bool(on)) => keepdims = *on,
            _ => return None,
        }
    }
    let k = match axis.filter(|a| !matches!(a.kind, ExprKind::NoneLit)) {
        Some(a) => Some(literal_int(&a)?),
        None if keepdims => return None,
        None => None,
    };
    let (line, ax) = match k {
        Some(k) => (b.copy(x), k),
        None => (b.call("ravel", vec![b.copy(x)], vec![]), 0),
    };
    let along = || vec![(b.kw("axis"), b.int(ax))];
    let kept = || vec![(b.kw("axis"), b.int(ax)), (b.kw("keepdims"), b.e(ExprKind::Bool(true)))];
    let sorted = b.call("sort", vec![b.copy(&line)], along());
    let number = b.call("where", vec![b.call("isnan", vec![line], vec![]), b.int(0), b.int(1)], vec![]);
    let count = b.call("sum", vec![number], kept());
    let at = |c: Expr| b.call("maximum", vec![c, b.int(0)], vec![]);
    let lo = at(b.bin(BinOp::FloorDiv, b.bin(BinOp::Sub, b.copy(&count), b.int(1)), b.int(2)));
    let hi = at(b.bin(BinOp::FloorDiv, b.copy(&count), b.int(2)));
    let both = b.call("concatenate", vec![b.e(ExprKind::Tuple(vec![lo, hi]))], along());
    let pair = b.call("take_along_axis", vec![sorted, both], along());
    let mid = b.call("mean", vec![pair], kept());
    let none = b.bin(BinOp::Eq, count, b.int(0));
    let r = b.call("where", vec![none, b.float(f64::NAN), mid], vec![]);
    Some(if keepdims { r } else { b.call("squeeze", vec![r], along()) })
}

/// NumPy 2's `vecdot(x1, x2, axis=-1)` (also `linalg.vecdot`) of real arrays: the products summed
/// along axis `axis` (an integer literal) of each, the other axes broadcast, `x1`'s and `x2`'s
/// dtypes promoted: `einsum("...i,...i->...", x1, x2)` of the axis moved last.
fn vecdot(b: &Build, args: &[Expr], kwargs: &[(Ident, Expr)]) -> Option<Expr> {
    let [x1, x2] = args else { return None };
    let axis = match kwargs {
        [] => -1,
        [(k, v)] if k.name == "axis" => literal_int(v)?,
        _ => return None,
    };
    let last = |x: &Expr| match axis {
        -1 => b.copy(x),
        k => {
            let minus_one = b.e(ExprKind::Unary(UnOp::Neg, Box::new(b.int(1))));
            let k = if k < 0 { b.e(ExprKind::Unary(UnOp::Neg, Box::new(b.int(-k)))) } else { b.int(k) };
            b.call("moveaxis", vec![b.copy(x), k, minus_one], vec![])
        }
    };
    let subscripts = b.e(ExprKind::Str("...i,...i->...".to_string()));
    Some(b.call("einsum", vec![subscripts, last(x1), last(x2)], vec![]))
}

/// Python's `math.isclose(a, b, rel_tol=1e-09, abs_tol=0.0)` of two numbers (its keywords by
/// name), as CPython computes it: `a == b`, or, where neither is infinite, `d <= |rel_tol * b|`,
/// `d <= |rel_tol * a|` or `d <= abs_tol` of `d = |b - a|`, in `float`s (NaN is close to nothing).
/// `None` for other arguments.
pub(crate) fn math_isclose(b: &Build, args: &[Expr], kwargs: &[(Ident, Expr)]) -> Option<Expr> {
    let [x, y] = args else { return None };
    let (mut rel, mut abs_tol) = (b.float(1e-09), b.float(0.0));
    for (k, v) in kwargs {
        match k.name.as_str() {
            "rel_tol" => rel = b.copy(v),
            "abs_tol" => abs_tol = b.copy(v),
            _ => return None,
        }
    }
    let float = |v: &Expr| b.e(ExprKind::Call { func: b.kw("float"), args: vec![b.copy(v)], kwargs: vec![] });
    let (fx, fy) = (|| float(x), || float(y));
    let d = || b.call("abs", vec![b.bin(BinOp::Sub, fy(), fx())], vec![]);
    let scaled = |v: Expr| b.call("abs", vec![b.bin(BinOp::Mul, b.copy(&rel), v)], vec![]);
    let or = |p: Expr, q: Expr| b.call("logical_or", vec![p, q], vec![]);
    let near = or(
        or(b.bin(BinOp::Le, d(), scaled(fy())), b.bin(BinOp::Le, d(), scaled(fx()))),
        b.bin(BinOp::Le, d(), abs_tol),
    );
    let infinite = or(b.call("isinf", vec![fx()], vec![]), b.call("isinf", vec![fy()], vec![]));
    let finite_near = b.call("logical_and", vec![b.call("logical_not", vec![infinite], vec![]), near], vec![]);
    Some(or(b.bin(BinOp::Eq, fx(), fy()), finite_near))
}

/// NumPy's `diag_indices(n, ndim=2)` (`ndim` an integer literal, by position or keyword): the
/// tuple `(arange(n), arange(n), ..)` of `ndim` copies.
fn diag_indices(b: &Build, args: &[Expr], kwargs: &[(Ident, Expr)]) -> Option<Expr> {
    let ndim = match (args, kwargs) {
        ([_], []) => 2,
        ([_, k], []) => literal_int(k)?,
        ([_], [(k, v)]) if k.name == "ndim" => literal_int(v)?,
        _ => return None,
    };
    if !(1..=32).contains(&ndim) {
        return None;
    }
    let items = (0..ndim).map(|_| b.call("arange", vec![b.copy(&args[0])], vec![])).collect();
    Some(b.e(ExprKind::Tuple(items)))
}

/// NumPy's `indices((d0, d1, ..))` of a tuple (or list) literal of sizes: an `i64` array of shape
/// `(k, d0, d1, ..)` whose `j`-th slice holds each element's index along axis `j`, here
/// `stack((broadcast_to(reshape(arange(dj), (1, .., -1, .., 1)), (d0, d1, ..)), ..))`.
fn indices(b: &Build, dims: &Expr) -> Option<Expr> {
    let (ExprKind::Tuple(ds) | ExprKind::List(ds)) = &dims.kind else { return None };
    if ds.is_empty() {
        return None;
    }
    let shape = || b.e(ExprKind::Tuple(ds.iter().map(|d| b.copy(d)).collect()));
    let grids = (0..ds.len())
        .map(|j| {
            let minus_one = || b.e(ExprKind::Unary(UnOp::Neg, Box::new(b.int(1))));
            let along = (0..ds.len()).map(|k| if k == j { minus_one() } else { b.int(1) }).collect();
            let row = b.call("arange", vec![b.copy(&ds[j])], vec![]);
            let row = b.call("reshape", vec![row, b.e(ExprKind::Tuple(along))], vec![]);
            b.call("broadcast_to", vec![row, shape()], vec![])
        })
        .collect();
    Some(b.call("stack", vec![b.e(ExprKind::Tuple(grids))], vec![]))
}

/// NumPy's `sliding_window_view(x, w)` (`np.lib.stride_tricks`), a read-only view in NumPy, here
/// the windows gathered into a new array of the same values: of a 1-d `x` and an integer `w`
/// (or `(w,)`), the `(n - w + 1, w)` array whose row `i` is `x[i:i + w]`; with `axis=k` (an
/// integer literal) the windows along axis `k` of an n-d `x`, the window axis last; of a 2-d `x`
/// and `(w0, w1)`, the `(n0 - w0 + 1, n1 - w1 + 1, w0, w1)` array of 2-d windows. Each is
/// `take(x, idx, axis=k)` with `idx = arange(max(n - w + 1, 1))[:, newaxis] + (cumsum(ones(w,
/// i64)) - 1)`, then the window axis moved last: a window larger than the axis reads past its
/// end, a run-time IndexError naming the line, and a negative `w` is the run-time error of
/// `ones` (NumPy raises ValueErrors for both). Without `axis=`, an integer `w` of an n-d `x` is
/// `take`'s E0405 (NumPy needs a window size per axis there).
fn sliding_window_view(b: &Build, args: &[Expr], kwargs: &[(Ident, Expr)]) -> Option<Expr> {
    let [x, w] = args else { return None };
    let axis = match kwargs {
        [] => None,
        [(k, a)] if k.name == "axis" => Some(literal_int(a)?),
        _ => return None,
    };
    let sizes: Vec<&Expr> = match &w.kind {
        ExprKind::Tuple(ws) | ExprKind::List(ws) if axis.is_none() => ws.iter().collect(),
        _ => vec![w],
    };
    match (sizes.as_slice(), axis) {
        ([w], None) => Some(windows(b, b.copy(x), w, None)),
        ([w], Some(k)) => {
            let taken = windows(b, b.copy(x), w, Some(k));
            // `take` put the window axis after axis `k` (counted from the front), or at `k` (from
            // the back); NumPy's is last.
            let at = if k >= 0 { k + 1 } else { k };
            Some(b.call("moveaxis", vec![taken, b.int(at), b.int(-1)], vec![]))
        }
        ([w0, w1], None) => {
            let rows = windows(b, b.copy(x), w0, Some(0));
            let both = windows(b, rows, w1, Some(2));
            Some(b.call("moveaxis", vec![both, b.int(1), b.int(2)], vec![]))
        }
        _ => None,
    }
}

/// `take(x, arange(max(n - w + 1, 1))[:, newaxis] + (cumsum(ones(w, i64)) - 1), axis=k)`, `n` the
/// size of `x` along axis `k` (of a 1-d `x` without `k`): [`sliding_window_view`]'s gather of the
/// windows of `w` elements.
fn windows(b: &Build, x: Expr, w: &Expr, k: Option<i64>) -> Expr {
    let n = b.call("size", vec![b.copy(&x)], vec![(b.kw("axis"), b.int(k.unwrap_or(0)))]);
    let count = b.bin(BinOp::Add, b.bin(BinOp::Sub, n, b.copy(w)), b.int(1));
    let starts = b.call("arange", vec![b.call("maximum", vec![count, b.int(1)], vec![])], vec![]);
    let all = Index::Slice { start: None, stop: None, step: None, span: b.at.clone() };
    let column = b.e(ExprKind::Subscript { base: Box::new(starts), index: vec![all, Index::NewAxis(b.at.clone())] });
    let ones = b.call("ones", vec![b.copy(w)], vec![(b.kw("dtype"), b.e(ExprKind::DTypeName(DType::I64)))]);
    let offsets = b.bin(BinOp::Sub, b.call("cumsum", vec![ones], vec![]), b.int(1));
    let idx = b.bin(BinOp::Add, column, offsets);
    let axis = k.map(|k| (b.kw("axis"), b.int(k))).into_iter().collect();
    b.call("take", vec![x, idx], axis)
}

/// The most keys [`lexsort`] takes: each key doubles the sorts of the first one.
const LEXSORT_MAX_KEYS: usize = 4;

/// NumPy's `lexsort((k0, k1, .., kl))` (or a list) of 1-d keys of one length: the `i64` positions
/// that sort by the last key, ties by the one before, and so on, remaining ties in their order.
/// `argsort` is stable (NumPy's `kind='stable'`, NaN last, as `lexsort`'s), so it is
/// `p = argsort(k0)`, then for each later key `p = p[argsort(kj[p])]`; the expression repeats `p`,
/// so at most [`LEXSORT_MAX_KEYS`] keys (more stay the checker's unknown `lexsort`). Keys of
/// different lengths are a run-time IndexError or a gather's size error, naming the line. A 2-d
/// array of keys (rows) is not rewritten: E0202.
fn lexsort(b: &Build, keys: &Expr) -> Option<Expr> {
    let (ExprKind::Tuple(ks) | ExprKind::List(ks)) = &keys.kind else { return None };
    if ks.is_empty() || ks.len() > LEXSORT_MAX_KEYS {
        return None;
    }
    let mut order = b.call("argsort", vec![b.copy(&ks[0])], vec![]);
    for k in &ks[1..] {
        let gathered = b.e(ExprKind::Subscript { base: Box::new(b.copy(k)), index: vec![Index::At(b.copy(&order))] });
        let by_key = b.call("argsort", vec![gathered], vec![]);
        order = b.e(ExprKind::Subscript { base: Box::new(order), index: vec![Index::At(by_key)] });
    }
    Some(order)
}

/// NumPy's `trim_zeros(x, trim="fb")` of a 1-d `x` (`trim` `"f"`, `"b"` or `"fb"`, by position or
/// keyword): the slice `x[start:stop]`, a view as NumPy's, where with `nz = x != 0` (NaN is
/// nonzero, as NumPy's truth) and `n = len(x)`, `start` (front) is the first nonzero position
/// `argmax(concatenate((nz, [true])), axis=0)` (`n` where there is none), else 0, and `stop`
/// (back) `n` less the first nonzero position of `nz[::-1]` (0 where there is none), else `n`;
/// nothing nonzero gives an empty slice. The `axis=0` reductions make an `x` of another rank an
/// error (E0401 of the `concatenate`) rather than NumPy's n-d trim. `None` for any other
/// `trim`.
fn trim_zeros(b: &Build, args: &[Expr], kwargs: &[(Ident, Expr)]) -> Option<Expr> {
    let trim = match (args, kwargs) {
        ([_], []) => "fb".to_string(),
        ([_, t], []) => trim_word(t)?,
        ([_], [(k, t)]) if k.name == "trim" => trim_word(t)?,
        _ => return None,
    };
    let (front, back) = match trim.to_ascii_lowercase().as_str() {
        "fb" | "bf" => (true, true),
        "f" => (true, false),
        "b" => (false, true),
        _ => return None,
    };
    let x = &args[0];
    // The first nonzero position of `e`, `len(e)` where there is none (also of an empty `e`).
    let first = |e: Expr| {
        let nz = b.bin(BinOp::Ne, e, b.int(0));
        let end = b.e(ExprKind::List(vec![b.e(ExprKind::Bool(true))]));
        let nz = b.call("concatenate", vec![b.e(ExprKind::Tuple(vec![nz, end]))], vec![]);
        b.call("argmax", vec![nz], vec![(b.kw("axis"), b.int(0))])
    };
    let start = front.then(|| first(b.copy(x)));
    let stop = back.then(|| {
        let minus_one = b.e(ExprKind::Unary(UnOp::Neg, Box::new(b.int(1))));
        let reversed = Index::Slice { start: None, stop: None, step: Some(minus_one), span: b.at.clone() };
        let reversed = b.e(ExprKind::Subscript { base: Box::new(b.copy(x)), index: vec![reversed] });
        b.bin(BinOp::Sub, b.call("len", vec![b.copy(x)], vec![]), first(reversed))
    });
    let slice = Index::Slice { start, stop, step: None, span: b.at.clone() };
    Some(b.e(ExprKind::Subscript { base: Box::new(b.copy(x)), index: vec![slice] }))
}

/// The text of a `trim=` argument: a string literal, or the name a keyword's string became.
fn trim_word(t: &Expr) -> Option<String> {
    match &t.kind {
        ExprKind::Str(s) => Some(s.clone()),
        ExprKind::Var(v) => Some(v.name.clone()),
        _ => None,
    }
}

/// NumPy's `histogram2d(x, y, bins=10, range=None)` of 1-d `x` and `y`, the tuple `(H, xedges,
/// yedges)`, as NumPy's `histogramdd` computes it: each axis' edges are `histogram_bin_edges` of
/// its values in `f64` (NumPy stacks the samples into one `float64` array) with its `bins` (an
/// integer or edges; one for both axes, or a pair) and `range` (a pair of pairs); each value's bin
/// counts from the outlier bin 0, `searchsorted(edges, v, side=right)`, less one where `v` is the
/// last edge (which the last bin includes); `H` is `bincount` of the flat positions `cx * (ny + 2)
/// + cy`, with `minlength` of all `(nx + 2) * (ny + 2)` bins, reshaped, without the outlier rows
/// and columns (`[1:-1, 1:-1]`), as `f64`. `weights=` and `density=` are left for the E0202.
fn histogram2d(b: &Build, args: &[Expr], kwargs: &[(Ident, Expr)]) -> Option<Expr> {
    let [x, y, rest @ ..] = args else { return None };
    let (mut bins, mut range) = (rest.first(), None);
    if rest.len() > 1 {
        return None;
    }
    for (k, v) in kwargs {
        match k.name.as_str() {
            "bins" if bins.is_none() => bins = Some(v),
            "range" => range = Some(v),
            _ => return None,
        }
    }
    let pair = |e: &Expr| match &e.kind {
        ExprKind::Tuple(v) | ExprKind::List(v) if v.len() == 2 => Some((b.copy(&v[0]), b.copy(&v[1]))),
        _ => None,
    };
    let (bx, by) = match bins {
        None => (b.int(10), b.int(10)),
        Some(e) => pair(e).unwrap_or_else(|| (b.copy(e), b.copy(e))),
    };
    let (rx, ry) = match range {
        None => (None, None),
        Some(e) => {
            let (rx, ry) = pair(e)?;
            (Some(rx), Some(ry))
        }
    };
    let f64_of = |v: &Expr| b.e(ExprKind::Call { func: b.kw("f64"), args: vec![b.copy(v)], kwargs: vec![] });
    let edges = |v: &Expr, bins: &Expr, range: &Option<Expr>| {
        let mut kw = vec![(b.kw("bins"), b.copy(bins))];
        kw.extend(range.as_ref().map(|r| (b.kw("range"), b.copy(r))));
        b.call("histogram_bin_edges", vec![f64_of(v)], kw)
    };
    // The bin of each value, counting the outlier bin below the first edge as 0.
    let bin = |v: &Expr, bins: &Expr, range: &Option<Expr>| {
        let right = b.e(ExprKind::Var(b.kw("right")));
        let found = b.call("searchsorted", vec![edges(v, bins, range), f64_of(v)], vec![(b.kw("side"), right)]);
        let last = b.e(ExprKind::Subscript {
            base: Box::new(edges(v, bins, range)),
            index: vec![Index::At(b.e(ExprKind::Unary(UnOp::Neg, Box::new(b.int(1)))))],
        });
        let on_edge = b.bin(BinOp::Eq, f64_of(v), last);
        let on_edge = b.e(ExprKind::Call { func: b.kw("i64"), args: vec![on_edge], kwargs: vec![] });
        b.bin(BinOp::Sub, found, on_edge)
    };
    // `size(edges) + 1`: the bins and the two outlier bins.
    let all = |v: &Expr, bins: &Expr, range: &Option<Expr>| {
        b.bin(BinOp::Add, b.call("size", vec![edges(v, bins, range)], vec![]), b.int(1))
    };
    let flat = b.bin(BinOp::Add, b.bin(BinOp::Mul, bin(x, &bx, &rx), all(y, &by, &ry)), bin(y, &by, &ry));
    let count = b.bin(BinOp::Mul, all(x, &bx, &rx), all(y, &by, &ry));
    let counts = b.call("bincount", vec![flat], vec![(b.kw("minlength"), count)]);
    let shape = b.e(ExprKind::Tuple(vec![all(x, &bx, &rx), all(y, &by, &ry)]));
    let grid = b.call("reshape", vec![counts, shape], vec![]);
    let inner = || Index::Slice {
        start: Some(b.int(1)),
        stop: Some(b.e(ExprKind::Unary(UnOp::Neg, Box::new(b.int(1))))),
        step: None,
        span: b.at.clone(),
    };
    let core = b.e(ExprKind::Subscript { base: Box::new(grid), index: vec![inner(), inner()] });
    let h = b.e(ExprKind::Call { func: b.kw("f64"), args: vec![core], kwargs: vec![] });
    Some(b.e(ExprKind::Tuple(vec![h, edges(x, &bx, &rx), edges(y, &by, &ry)])))
}

/// NumPy's `resize(x, shape)`: `x` flattened, repeated cyclically to fill `shape` (an integer or
/// a tuple of sizes): `reshape(ravel(x)[arange(N) % size(x)], shape)`, `N` the product of the
/// sizes. An empty `x` (NumPy's zeros) is the gather's run-time out-of-range error.
fn resize(b: &Build, x: &Expr, shape: &Expr) -> Expr {
    let sizes = match &shape.kind {
        ExprKind::Tuple(items) | ExprKind::List(items) => items.iter().map(|i| b.copy(i)).collect(),
        _ => vec![b.copy(shape)],
    };
    let count = sizes.into_iter().reduce(|p, s| b.bin(BinOp::Mul, p, s)).unwrap_or_else(|| b.int(1));
    let flat = b.call("ravel", vec![b.copy(x)], vec![]);
    let size = b.call("size", vec![b.copy(x)], vec![]);
    let positions = b.bin(BinOp::Rem, b.call("arange", vec![count], vec![]), size);
    let items = b.e(ExprKind::Subscript { base: Box::new(flat), index: vec![Index::At(positions)] });
    b.call("reshape", vec![items, b.copy(shape)], vec![])
}

/// NumPy's `unwrap(p)` along the last axis (period `2 pi`, `discont` `pi`), its algorithm: with
/// `dd = diff(p)`, `ddmod = (dd + pi) % (2 pi) - pi`, set to `pi` where it is `-pi` and `dd > 0`,
/// the correction `ddmod - dd` (0 where `|dd| < pi`) is summed along the axis and added to
/// `p[..., 1:]`; `p[..., :1]` stays.
fn unwrap(b: &Build, p: &Expr) -> Expr {
    let pi = || b.float(std::f64::consts::PI);
    let all = || Index::Ellipsis(b.at.clone());
    let from = |k: Option<i64>, to: Option<i64>| Index::Slice {
        start: k.map(|k| b.int(k)),
        stop: to.map(|k| b.int(k)),
        step: None,
        span: b.at.clone(),
    };
    let dd = || b.call("diff", vec![b.copy(p)], vec![(b.kw("axis"), b.int(-1))]);
    let ddmod =
        b.bin(BinOp::Sub, b.bin(BinOp::Rem, b.bin(BinOp::Add, dd(), pi()), b.float(2.0 * std::f64::consts::PI)), pi());
    let at_minus_pi = b.bin(
        BinOp::And,
        b.bin(BinOp::Eq, b.copy(&ddmod), b.e(ExprKind::Unary(UnOp::Neg, Box::new(pi())))),
        b.bin(BinOp::Gt, dd(), b.int(0)),
    );
    let ddmod = b.call("where", vec![at_minus_pi, pi(), ddmod], vec![]);
    let small = b.bin(BinOp::Lt, b.call("abs", vec![dd()], vec![]), pi());
    let correct = b.call("where", vec![small, b.float(0.0), b.bin(BinOp::Sub, ddmod, dd())], vec![]);
    let summed = b.call("cumsum", vec![correct], vec![(b.kw("axis"), b.int(-1))]);
    let part = |k: Option<i64>, to: Option<i64>| {
        b.e(ExprKind::Subscript { base: Box::new(b.copy(p)), index: vec![all(), from(k, to)] })
    };
    let rest = b.bin(BinOp::Add, part(Some(1), None), summed);
    let pair = b.e(ExprKind::Tuple(vec![part(None, Some(1)), rest]));
    b.call("concatenate", vec![pair], vec![(b.kw("axis"), b.int(-1))])
}

/// NumPy's `polyder(p, m)` and `polyint(p, m)` of a 1-d coefficient array `p` (highest power
/// first) and an integer literal `m` (default 1, by position or `m=`), applied `m` times: the
/// derivative `p[:-1] * arange(n - 1, 0, -1)` (`n = len(p)`; of one coefficient, empty, as
/// NumPy's), the antiderivative `concatenate((p / arange(n, 0, -1), [0.0]))` (a float, the
/// constant 0). `None` for other calls (a run-time `m`, `k=`: the checker's error).
fn poly_calculus(b: &Build, derivative: bool, args: &[Expr], kwargs: &[(Ident, Expr)]) -> Option<Expr> {
    let m = match (args, kwargs) {
        ([_], []) => 1,
        ([_, m], []) => literal_int(m)?,
        ([_], [(k, m)]) if k.name == "m" => literal_int(m)?,
        _ => return None,
    };
    if !(0..=crate::unroll::MAX_ITEMS as i64).contains(&m) {
        return None;
    }
    let mut p = b.copy(&args[0]);
    for _ in 0..m {
        let n = || b.call("len", vec![b.copy(&p)], vec![]);
        let minus_one = || b.e(ExprKind::Unary(UnOp::Neg, Box::new(b.int(1))));
        p = if derivative {
            let head = Index::Slice { start: None, stop: Some(minus_one()), step: None, span: b.at.clone() };
            let head = b.e(ExprKind::Subscript { base: Box::new(b.copy(&p)), index: vec![head] });
            let powers = b.call("arange", vec![b.bin(BinOp::Sub, n(), b.int(1)), b.int(0), minus_one()], vec![]);
            b.bin(BinOp::Mul, head, powers)
        } else {
            let powers = b.call("arange", vec![n(), b.int(0), minus_one()], vec![]);
            let divided = b.bin(BinOp::Div, b.copy(&p), powers);
            let zero = b.e(ExprKind::List(vec![b.float(0.0)]));
            b.call("concatenate", vec![b.e(ExprKind::Tuple(vec![divided, zero]))], vec![])
        };
    }
    Some(p)
}

/// NumPy's functions that act along one axis given by `axis=`, as `apply_along_axis` calls them:
/// `apply_along_axis(f, k, x)` of one of them is `f(x, axis=k)` (the same values, dtype and
/// shape: the function's result along axis `k` in place of it).
const ALONG_AXIS: &[&str] = &[
    "sum",
    "prod",
    "mean",
    "std",
    "var",
    "max",
    "min",
    "amax",
    "amin",
    "median",
    "argmax",
    "argmin",
    "sort",
    "argsort",
    "cumsum",
    "cumprod",
    "diff",
    "ptp",
    "any",
    "all",
    "count_nonzero",
    "nansum",
    "nanmean",
    "nanmax",
    "nanmin",
    "nanstd",
    "nanvar",
    "nanmedian",
];

/// Whether `name` (maybe `np.`-qualified) is one of NumPy's functions of [`ALONG_AXIS`].
pub(crate) fn along_axis(name: &str) -> bool {
    ALONG_AXIS.contains(&name.strip_prefix(crate::builtin::QUALIFIED).unwrap_or(name))
}

/// `apply_along_axis(f, k, x)` where `f` names one of NumPy's functions of [`ALONG_AXIS`]
/// (`np.sum`): `f(x, axis=k)`. `None` for other functions (a lambda, a program's function: the
/// checker's error, which names the arrayc way).
fn apply_along_axis(b: &Build, args: &[Expr]) -> Option<Expr> {
    let ExprKind::Var(f) = &args[0].kind else { return None };
    let name = f.name.strip_prefix(crate::builtin::QUALIFIED).unwrap_or(&f.name);
    ALONG_AXIS.contains(&name).then(|| b.call(name, vec![b.copy(&args[2])], vec![(b.kw("axis"), b.copy(&args[1]))]))
}

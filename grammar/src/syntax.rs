//! Small helpers used by the generated parser.

use crate::ast::{BinOp, Block, BoolOp, Expr, ExprId, ExprKind, Function, Ident, Index, Program, Span, Stmt, UnOp};
use crate::builtin::{may_name_a_function, qualified, QUALIFIED};
use crate::lexer::LexError;
use crate::membership::Cmp;
use std::cell::Cell;
use std::collections::HashSet;

/// Builds an expression with the next dense [`ExprId`] from the counter `ids`.
pub fn mk(ids: &Cell<u32>, kind: ExprKind, span: Span) -> Expr {
    let id = ids.get();
    ids.set(id + 1);
    Expr { id: ExprId(id), kind, span }
}

/// `a ** b`; of two integer literals with a negative exponent (`2 ** -1`), Python's `int` power,
/// the float `float(a) ** float(b)` (`0.5`), where NumPy's integers raise (a base `0`, Python's
/// ZeroDivisionError, stays the power, a run-time error).
pub fn power(ids: &Cell<u32>, a: Expr, b: Expr, span: Span) -> Expr {
    if let (ExprKind::Int(x), ExprKind::Unary(UnOp::Neg, k)) = (&a.kind, &b.kind) {
        if let (ExprKind::Int(k), true) = (&k.kind, *x != 0) {
            return mk(ids, ExprKind::Float((*x as f64).powf(-(*k as f64))), span);
        }
    }
    mk(ids, ExprKind::Binary(BinOp::Pow, Box::new(a), Box::new(b)), span)
}

/// `a and b`, `a or b` (`b` given) or `not a` (`b` none) as [`ExprKind::BoolOp`]: the conditional
/// expression each means, whose `true`/`false` literals are spanned at the operator's expression.
pub fn bool_op(ids: &Cell<u32>, op: BoolOp, a: Expr, b: Option<Expr>, span: Span) -> Expr {
    let lit = |v: bool| mk(ids, ExprKind::Bool(v), span.clone());
    let parts = match (op, b) {
        (BoolOp::And, Some(b)) => [a, b, lit(false)],
        (BoolOp::Or, Some(b)) => [a, lit(true), b],
        (_, _) => [a, lit(false), lit(true)],
    };
    mk(ids, ExprKind::BoolOp(op, Box::new(parts)), span)
}

/// Python's chained comparison `a op1 b op2 c ...`: `a op1 b and b op2 c and ...`, each middle
/// operand written twice (the second copy under fresh ids; arrayc's expressions have no effects, so
/// computing it twice gives Python's value). Of arrays it is NumPy's error, as `and` of arrays is
/// (E0318's rule for `and`).
pub fn chained_comparison(ids: &Cell<u32>, a: Expr, op: Cmp, b: Expr, rest: Vec<(Cmp, Expr)>, span: Span) -> Expr {
    let pair = |ids: &Cell<u32>, l: Expr, op: Cmp, r: Expr| {
        let s = l.span.start..r.span.end;
        match op {
            Cmp::Op(op) => mk(ids, ExprKind::Binary(op, Box::new(l), Box::new(r)), s),
            _ => crate::membership::compare(ids, l, op, r, s),
        }
    };
    let mut left = b;
    let mut out = pair(ids, a, op, fresh_copy(ids, &left));
    let last = rest.len() - 1;
    for (k, (op, right)) in rest.into_iter().enumerate() {
        let next_left = (k < last).then(|| fresh_copy(ids, &right));
        let cmp = pair(ids, left, op, right);
        out = bool_op(ids, BoolOp::And, out, Some(cmp), span.clone());
        match next_left {
            Some(l) => left = l,
            None => break,
        }
    }
    out
}

/// `a op b`, a comparison; where `op` is `==` or `!=` and an operand is `x.shape`, Python's
/// comparison of tuples: a call of the builtin `shape==` (which no program can name) of both
/// operands, each `x.shape` or a tuple of integers (`x.shape == (n, m)`, `x.shape != y.shape`),
/// negated for `!=`; where an operand is `x.dtype`, likewise of `dtype==` (`x.dtype == f32`).
/// Two tuples written out (`(a, b) != (0, 0)`) compare as Python's: `==` is `a == 0 and b == 0`,
/// `!=` is `a != 0 or b != 0` (of tuples of different lengths, `false` and `true`).
pub fn comparison(ids: &Cell<u32>, a: Expr, op: BinOp, b: Expr, span: Span) -> Expr {
    if let (ExprKind::Tuple(_), ExprKind::Tuple(_), BinOp::Eq | BinOp::Ne) = (&a.kind, &b.kind, op) {
        let (ExprKind::Tuple(xs), ExprKind::Tuple(ys)) = (a.kind, b.kind) else { unreachable!("matched") };
        if xs.len() != ys.len() || xs.is_empty() {
            return mk(ids, ExprKind::Bool((op == BinOp::Ne) ^ (xs.len() == ys.len())), span);
        }
        let joint = if op == BinOp::Eq { BoolOp::And } else { BoolOp::Or };
        let mut pairs = xs.into_iter().zip(ys).map(|(x, y)| comparison(ids, x, op, y, span.clone()));
        let first = pairs.next().unwrap_or_else(|| unreachable!("not empty"));
        return pairs.fold(first, |acc, c| bool_op(ids, joint, acc, Some(c), span.clone()));
    }
    let (a, b) = match crate::dtype_queries::kind_comparison(ids, a, op, b, &span) {
        Ok(test) => return test,
        Err(operands) => *operands,
    };
    let is_dtype = crate::dtype_queries::is_dtype_expr;
    let builtin = match () {
        _ if shape_base(&a).is_some() || shape_base(&b).is_some() => Some("shape=="),
        _ if is_dtype(&a) || is_dtype(&b) => Some("dtype=="),
        _ => None,
    };
    if let (Some(name), BinOp::Eq | BinOp::Ne) = (builtin, op) {
        let func = Ident { name: name.to_string(), span: span.clone() };
        let eq = mk(ids, ExprKind::Call { func, args: vec![a, b], kwargs: vec![] }, span.clone());
        return match op {
            BinOp::Ne => bool_op(ids, BoolOp::Not, eq, None, span),
            _ => eq,
        };
    }
    mk(ids, ExprKind::Binary(op, Box::new(a), Box::new(b)), span)
}

/// A keyword argument's value: a string literal is the word it spells, NumPy's spelling of
/// arrayc's names (`mode="same"` is `mode=same`, `method="linear"` is `method=linear`), or a
/// dtype's name (`dtype="float32"` and `dtype="f32"` are `dtype=f32`); it keeps the literal's id. The
/// value of `dtype=` may also be Python's type ([`python_type_as_dtype`]: `dtype=int`). Any other
/// value is itself.
pub fn keyword_value(keyword: &Ident, e: Expr) -> Expr {
    let e = if keyword.name == "dtype" { python_type_as_dtype(e) } else { e };
    let ExprKind::Str(text) = &e.kind else { return e };
    let word = text.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && text.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    use arrayc_core::dtype::DType;
    // `dtype=` as `np.dtype` reads it first (`dtype="u8"` is NumPy's `uint64`, `"f32"` arrayc's
    // name); another keyword's word only as a dtype's name (`UPLO="L"` is no dtype code).
    let is_dtype = keyword.name == "dtype";
    let dtype = if is_dtype { DType::from_numpy_string(text) } else { DType::from_numpy_name(text) };
    let kind = match dtype.or_else(|| DType::from_name(text)) {
        Some(d) => ExprKind::DTypeName(d),
        // `dtype="int16"`, `dtype="<i2"`: a name no program can bind (`np.` is NumPy's), which the
        // checker's E0216 explains.
        None if is_dtype && DType::numpy_lacks(text) => {
            ExprKind::Var(Ident { name: format!("{}{text}", crate::builtin::QUALIFIED), span: e.span.clone() })
        }
        None if word => ExprKind::Var(Ident { name: text.clone(), span: e.span.clone() }),
        None => return e,
    };
    Expr { kind, ..e }
}

/// Python's types where NumPy takes a dtype (`dtype=int`, `x.astype(float)`), as NumPy reads them on
/// Linux: `int` is `i64`, `float` `f64`, `bool` `bool`; any other expression is itself. (Called as
/// functions, `int(s)` and `float(s)` stay Python's conversions.)
pub fn python_type_as_dtype(e: Expr) -> Expr {
    use arrayc_core::dtype::DType;
    let d = match &e.kind {
        ExprKind::Var(v) if v.name == "int" => DType::I64,
        ExprKind::Var(v) if v.name == "float" => DType::F64,
        ExprKind::Var(v) if v.name == "bool" => DType::Bool,
        _ => return e,
    };
    Expr { kind: ExprKind::DTypeName(d), ..e }
}

/// The values of `return e;`: the items of a tuple `e` (`return (a, b);`), else `e` alone. The
/// tuple itself leaves the tree, so its [`ExprId`] is given back to `ids` to keep the ids dense: it
/// is always the last one taken, since the tuple is the last expression before the `;`.
pub fn return_values(ids: &Cell<u32>, e: Expr) -> Vec<Expr> {
    match e.kind {
        ExprKind::Tuple(items) => {
            if e.id.0 + 1 == ids.get() {
                ids.set(e.id.0);
            }
            items
        }
        _ => vec![e],
    }
}

/// A call's arguments as written (`None` key: positional), split into the positional and the
/// keyword ones.
pub fn split_args(all: Vec<(Option<Ident>, Expr)>) -> (Vec<Expr>, Vec<(Ident, Expr)>) {
    let mut args = Vec::new();
    let mut kwargs = Vec::new();
    for (k, e) in all {
        match k {
            Some(k) => kwargs.push((k, e)),
            None => args.push(e),
        }
    }
    (args, kwargs)
}

/// An index written as an expression: `None` (and `newaxis`, [`ExprKind::NoneLit`]) is a new axis,
/// NumPy's `x[:, None]`; Python's slice object written there, `slice(stop)`, `slice(start, stop)`,
/// `slice(start, stop, step)` (`None` a bound left out), is the slice `start:stop:step`; any other
/// expression is itself.
pub fn index_at(e: Expr) -> Index {
    match e.kind {
        ExprKind::NoneLit => Index::NewAxis(e.span),
        ExprKind::Call { func, args, kwargs }
            if func.name == "slice" && kwargs.is_empty() && (1..=3).contains(&args.len()) =>
        {
            let one = args.len() == 1;
            let mut parts = args.into_iter();
            let start = if one { None } else { parts.next() };
            let (stop, step) = (parts.next(), parts.next());
            Index::Slice {
                start: absent_if_none(start),
                stop: absent_if_none(stop),
                step: absent_if_none(step),
                span: e.span,
            }
        }
        kind => Index::At(Expr { id: e.id, kind, span: e.span }),
    }
}

/// A slice bound as written: `None` is the bound left out (Python's `x[None:3]` is `x[:3]`).
pub fn absent_if_none(e: Option<Expr>) -> Option<Expr> {
    e.filter(|e| !matches!(e.kind, ExprKind::NoneLit))
}

/// The builtins whose `axis` is not `None` by default, so that `axis=None` is not the argument
/// left out: NumPy's `sort`/`argsort`/`partition`/`argpartition`/`take_along_axis` flatten first (arrayc: `sort(ravel(x))`,
/// [`none_arguments`]);
/// for the others `None` is NumPy's error, and arrayc's E0319.
const AXIS_NOT_NONE_BY_DEFAULT: [&str; 14] = [
    "sort",
    "argsort",
    "partition",
    "argpartition",
    "concatenate",
    "stack",
    "diff",
    "cross",
    "trapezoid",
    "expand_dims",
    "take_along_axis",
    "put_along_axis",
    "split",
    "array_split",
];

/// Python's `None` as an argument of builtin `name` ([`ExprKind::NoneLit`]), where it is NumPy's
/// default: a keyword `k=None` (`axis=None`, `dtype=None`, `out=None`, `ord=None`, `weights=None`)
/// is the keyword left out, except `axis` of the [`AXIS_NOT_NONE_BY_DEFAULT`] builtins: of `sort`,
/// `argsort` and `take_along_axis` it takes the flattened array (`sort(ravel(x))`, under the `None`'s id: ids stay
/// dense), of the others it stays, for the checker's E0319; `rtol=None` of `linalg.pinv` stays too
/// (NumPy 2.4's `max(m, n) * eps`, where leaving it out is `1e-15`). `clip(x, None, hi)` is
/// `minimum(x, hi)`, `clip(x, lo, None)` `maximum(x, lo)` and `clip(x, None, None)` `copy(x)`, as
/// NumPy 2 computes them (same promotion and broadcasting), and so are the calls that leave a bound
/// out (`clip(x, lo)`, `x.clip(min=lo)`, `clip(x, max=hi)`, `clip(x)`). Any other `None` stays,
/// for E0319.
/// Returns whether an `axis=None` was left out (a ufunc's `reduce` then reduces every axis).
fn none_arguments(func: &mut Ident, name: &str, args: &mut Vec<Expr>, kwargs: &mut Vec<(Ident, Expr)>) -> bool {
    let is_none = |e: &Expr| matches!(e.kind, ExprKind::NoneLit);
    let mut axis_none = false;
    let mut k = 0;
    while k < kwargs.len() {
        let (key, value) = &kwargs[k];
        let keeps_axis = key.name == "axis" && AXIS_NOT_NONE_BY_DEFAULT.contains(&name);
        let not_default = key.name == "rtol" && name.ends_with("linalg.pinv");
        if !is_none(value)
            || keeps_axis && !matches!(name, "sort" | "argsort" | "partition" | "argpartition" | "take_along_axis")
            || not_default
        {
            k += 1;
            continue;
        }
        let (key, none) = kwargs.remove(k);
        axis_none |= key.name == "axis";
        if keeps_axis && !args.is_empty() {
            let x = args.remove(0);
            let ravel = ExprKind::Call {
                func: Ident { name: qualified("ravel"), span: none.span.clone() },
                args: vec![x],
                kwargs: vec![],
            };
            args.insert(0, Expr { id: none.id, kind: ravel, span: none.span });
        }
    }
    if name == "clip" && args.len() == 3 && kwargs.is_empty() && (is_none(&args[1]) || is_none(&args[2])) {
        let (lo, hi) = (is_none(&args[1]), is_none(&args[2]));
        let keep = match (lo, hi) {
            (true, true) => {
                args.truncate(1);
                "copy"
            }
            (true, false) => {
                args.remove(1);
                "minimum"
            }
            _ => {
                args.truncate(2);
                "maximum"
            }
        };
        func.name = qualified(keep);
    } else if name == "clip" && (1..=2).contains(&args.len()) {
        // A bound left out is `None` (NumPy 2's `clip(x, lo)`, `x.clip(min=lo)`, `clip(x, max=hi)`).
        let hi = kwargs.iter().position(|(k, _)| matches!(k.name.as_str(), "a_max" | "max"));
        let keep = match (args.len(), hi) {
            (1, Some(at)) if kwargs.len() == 1 => {
                args.push(kwargs.remove(at).1);
                Some("minimum")
            }
            (1, None) if kwargs.is_empty() => Some("copy"),
            (2, None) if kwargs.is_empty() => Some("maximum"),
            _ => None,
        };
        if let Some(keep) = keep {
            func.name = qualified(keep);
        }
    }
    axis_none
}

/// The array `x` of `x.shape`, NumPy's tuple of sizes (the call `.shape` of [`attribute`]): arrayc
/// has it indexed (`x.shape[k]`, [`subscript`]) and destructured (`let (n, m) = x.shape;`, `n, m =
/// x.shape;`: one `i64` per axis, checked against `x`'s rank).
pub fn shape_base(e: &Expr) -> Option<&Expr> {
    match &e.kind {
        ExprKind::Call { func, args, kwargs } if func.name == ".shape" && args.len() == 1 && kwargs.is_empty() => {
            Some(&args[0])
        }
        _ => None,
    }
}

/// How many index arrays NumPy's call `e` gives when it is written as a whole index,
/// `x[np.triu_indices(n)]`, `x[np.ix_(i, j)]`: 2 for `np.triu_indices` and `np.tril_indices`, one
/// per argument for `np.ix_`; `None` for any other expression.
fn index_tuple_len(e: &Expr) -> Option<usize> {
    let ExprKind::Call { func, args, .. } = &e.kind else { return None };
    match func.name.strip_prefix(QUALIFIED)? {
        "triu_indices" | "tril_indices" => Some(2),
        "ix_" => Some(args.len()),
        _ => None,
    }
}

/// Whether `e` is NumPy's `nonzero(m)` of one array as a call that always means it: `np.nonzero(m)`,
/// `np.where(m)` (of one argument, NumPy's alias) or the method `m.nonzero()`.
fn nonzero_of_one(e: &Expr) -> bool {
    let ExprKind::Call { func, args, kwargs } = &e.kind else { return false };
    let name = func.name.strip_prefix(QUALIFIED).or_else(|| func.name.strip_prefix('.'));
    matches!(name, Some("nonzero" | "where")) && args.len() == 1 && kwargs.is_empty()
}

/// A copy of `e` under fresh ids from `ids`.
pub fn fresh_copy(ids: &Cell<u32>, e: &Expr) -> Expr {
    let mut c = e.clone();
    c.for_each_mut(&mut |x| {
        x.id = crate::ast::ExprId(ids.get());
        ids.set(ids.get() + 1);
    });
    c
}

/// An index as written: NumPy's tuple of index arrays written as the whole index,
/// `x[np.triu_indices(n)]` or `x[np.ix_(i, j)]` ([`index_tuple_len`]), is `x[t[0], t[1], ...]`
/// with the call `t` repeated (each copy under fresh ids): a gather (or, assigned to, a scatter)
/// through the index arrays; a tuple literal `x[(i, j)]` is `x[i, j]`. Any other index is itself.
pub fn index_tuple(ids: &Cell<u32>, mut index: Vec<Index>) -> Vec<Index> {
    let [Index::At(t)] = index.as_slice() else { return index };
    if nonzero_of_one(t) {
        // `x[np.nonzero(m)]`, `x[np.where(m)]`, `x[m.nonzero()]`: the index arrays of `m`'s
        // nonzero elements along `x`'s leading axes, which is the mask `x[bool(m)]` (NumPy's
        // boolean indexing is defined as that tuple): a filter, or as a target a masked write.
        let Some(Index::At(Expr { id, kind: ExprKind::Call { func, mut args, .. }, span })) = index.pop() else {
            unreachable!("matched above")
        };
        let func = Ident { name: "bool".to_string(), span: func.span };
        let kind = ExprKind::Call { func, args: vec![args.remove(0)], kwargs: vec![] };
        return vec![Index::At(Expr { id, kind, span })];
    }
    if let ExprKind::Tuple(items) = &t.kind {
        // `x[(i, j)]`, Python's tuple written as the whole index (`x[np.diag_indices(n)]`), is
        // `x[i, j]`.
        return items.iter().cloned().map(Index::At).collect();
    }
    let Some(n) = index_tuple_len(t) else { return index };
    (0..n)
        .map(|k| {
            let call = if k == 0 { t.clone() } else { fresh_copy(ids, t) };
            let at = mk(ids, ExprKind::Int(k as i64), t.span.clone());
            let kind = ExprKind::Subscript { base: Box::new(call), index: vec![Index::At(at)] };
            Index::At(mk(ids, kind, t.span.clone()))
        })
        .collect()
}

/// `base[index]` ([`index_tuple`]); `x.shape[k]` (the call `.shape` of [`attribute`] with one
/// integer entry) is `size(x, axis=k)`, which takes over the id of the `.shape` call (ids stay
/// dense).
pub fn subscript(ids: &Cell<u32>, base: Expr, index: Vec<Index>, span: Span) -> Expr {
    let mut index = index_tuple(ids, index);
    if let ExprKind::Var(name) = &base.kind {
        if let Some(e) = index_trick(ids, &name.name, &mut index, &span) {
            return e;
        }
    }
    if let (Some(_), [Index::At(_)]) = (shape_base(&base), index.as_slice()) {
        let (Some(Index::At(k)), ExprKind::Call { func, mut args, .. }) = (index.pop(), base.kind) else {
            unreachable!("matched above")
        };
        let axis = Ident { name: "axis".to_string(), span: k.span.clone() };
        let kind = ExprKind::Call {
            func: Ident { name: qualified("size"), span: func.span },
            args: vec![args.remove(0)],
            kwargs: vec![(axis, k)],
        };
        return Expr { id: base.id, kind, span };
    }
    tuple_item(mk(ids, ExprKind::Subscript { base: Box::new(base), index }, span))
}

/// Python's item of a tuple, `(a, b, c)[k]` with an integer literal `k` in range (negative from
/// the end): the item itself (so `np.histogram2d(x, y)[0]`, a tuple of expressions once written
/// as its composition, is its first array); any other expression as it is.
pub fn tuple_item(e: Expr) -> Expr {
    let ExprKind::Subscript { base, index } = &e.kind else { return e };
    let (ExprKind::Tuple(items), [Index::At(k)]) = (&base.kind, index.as_slice()) else { return e };
    let Some(k) = crate::check::literal_int(k) else { return e };
    let n = items.len() as i64;
    let k = if k < 0 { k + n } else { k };
    if !(0..n).contains(&k) {
        return e;
    }
    let ExprKind::Subscript { base, .. } = e.kind else { unreachable!("matched above") };
    let ExprKind::Tuple(mut items) = base.kind else { unreachable!("matched above") };
    items.swap_remove(k as usize)
}

/// NumPy's index tricks, `np.r_[..]`, `np.c_[..]`, `np.mgrid[..]` and `np.ogrid[..]` (the base
/// `name`, with `index` its items), as the calls they stand for; `None` (and `index` untouched)
/// for any other base or a form arrayc does not have (a string directive, a slice without a stop, a
/// complex step). A slice `a:b:c` is `arange(a, b, c)` (`a` 0 when left out).
/// - `r_[a, b, ..]`: `concatenate((a, b, ..))`, a number literal as the 1-element array `[k]`, any
///   other item through `atleast_1d` (a scalar variable is one element);
/// - `c_[a, b, ..]`: `column_stack((a, b, ..))`;
/// - `mgrid[s0, s1, ..]`: `meshgrid(arange.., indexing="ij")`, one grid per slice (destructured,
///   `x, y = np.mgrid[0:3, 0:4]`), the aranges `f64` where any part is a float literal (NumPy's
///   common dtype); one slice is its `arange`;
/// - `ogrid[s0, s1, ..]`: the tuple of aranges, each along its own axis (`arange(..)[:, None]`).
fn index_trick(ids: &Cell<u32>, name: &str, index: &mut Vec<Index>, span: &Span) -> Option<Expr> {
    if !matches!(name, "r_" | "c_" | "mgrid" | "ogrid") {
        return None;
    }
    let float = |e: &Option<Expr>| {
        e.as_ref().is_some_and(|e| match &e.kind {
            ExprKind::Float(_) => true,
            ExprKind::Unary(_, a) => matches!(a.kind, ExprKind::Float(_)),
            _ => false,
        })
    };
    let any_float = index
        .iter()
        .any(|i| matches!(i, Index::Slice { start, stop, step, .. } if float(start) || float(stop) || float(step)));
    let grids = matches!(name, "mgrid" | "ogrid");
    let usable = |i: &Index| match i {
        Index::Slice { stop, step, .. } => {
            stop.is_some() && !step.as_ref().is_some_and(|e| matches!(e.kind, ExprKind::Str(_)))
        }
        Index::At(e) => !grids && !matches!(e.kind, ExprKind::Str(_)),
        _ => false,
    };
    if index.is_empty() || !index.iter().all(usable) {
        return None;
    }
    let call = |func: &str, args: Vec<Expr>, kwargs: Vec<(Ident, Expr)>| {
        let func = Ident { name: qualified(func), span: span.clone() };
        mk(ids, ExprKind::Call { func, args, kwargs }, span.clone())
    };
    let mut items: Vec<Expr> = std::mem::take(index)
        .into_iter()
        .map(|i| match i {
            Index::Slice { start, stop, step, span: at } => {
                let start = start.unwrap_or_else(|| mk(ids, ExprKind::Int(0), at.clone()));
                let mut args = vec![start];
                args.extend(stop);
                args.extend(step);
                let dtype = (grids && any_float).then(|| {
                    let key = Ident { name: "dtype".to_string(), span: at.clone() };
                    (key, mk(ids, ExprKind::DTypeName(crate::ast::DType::F64), at.clone()))
                });
                call("arange", args, dtype.into_iter().collect())
            }
            Index::At(e) if name == "r_" && is_literal(&e) => {
                let at = e.span.clone();
                mk(ids, ExprKind::List(vec![e]), at)
            }
            Index::At(e) if name == "r_" && !matches!(e.kind, ExprKind::List(_)) => {
                // A scalar is one element (`np.r_[v, s]`); an array stays itself.
                call("atleast_1d", vec![e], vec![])
            }
            Index::At(e) => e,
            _ => unreachable!("checked usable"),
        })
        .collect();
    Some(match name {
        "r_" => {
            let t = mk(ids, ExprKind::Tuple(items), span.clone());
            call("concatenate", vec![t], vec![])
        }
        "c_" => {
            let t = mk(ids, ExprKind::Tuple(items), span.clone());
            call("column_stack", vec![t], vec![])
        }
        _ if items.len() == 1 => items.remove(0),
        "mgrid" => {
            let key = Ident { name: "indexing".to_string(), span: span.clone() };
            let ij = mk(ids, ExprKind::Var(Ident { name: "ij".to_string(), span: span.clone() }), span.clone());
            call("meshgrid", items, vec![(key, ij)])
        }
        _ => {
            let rank = items.len();
            let axes = items
                .into_iter()
                .enumerate()
                .map(|(d, a)| {
                    let index = (0..rank)
                        .map(|k| {
                            if k == d {
                                Index::Slice { start: None, stop: None, step: None, span: span.clone() }
                            } else {
                                Index::NewAxis(span.clone())
                            }
                        })
                        .collect();
                    mk(ids, ExprKind::Subscript { base: Box::new(a), index }, span.clone())
                })
                .collect();
            mk(ids, ExprKind::Tuple(axes), span.clone())
        }
    })
}

/// NumPy's keywords that change nothing arrayc computes, left out: `kind=` and `stable=` of
/// `sort`, `argsort`, `partition` and `argpartition` (arrayc's sorts are stable, so every kind gives NumPy's values; a stable
/// `argsort` is one of the orders NumPy's default may give for ties), and `copy=True` of `array`,
/// `asarray` and `astype` (they give a new array; `copy=False`, whose aliasing differs, stays, for
/// the checker's E0502).
fn ignored_keywords(name: &str, kwargs: &mut Vec<(Ident, Expr)>) {
    kwargs.retain(|(k, v)| match (name, k.name.as_str()) {
        ("sort" | "argsort", "kind" | "stable") | ("partition" | "argpartition", "kind") => false,
        ("array" | "asarray" | "astype", "copy") => !matches!(v.kind, ExprKind::Bool(true)),
        _ => true,
    });
}

/// The builtins whose first argument is a sequence of arrays, a tuple `(a, b)` in arrayc.
const SEQUENCE_FUNCS: [&str; 8] =
    ["concatenate", "concat", "stack", "vstack", "row_stack", "hstack", "dstack", "column_stack"];

/// NumPy's list of arrays, `concatenate([a, b])`, `stack([a, b], axis=1)`: the first argument of
/// a [`SEQUENCE_FUNCS`] builtin written as a list is the tuple `(a, b)` (an array literal's items
/// must be scalars, and these take a sequence of arrays), under the list's id.
fn sequence_of_arrays(name: &str, args: &mut [Expr]) {
    if let (true, Some(first)) = (SEQUENCE_FUNCS.contains(&name), args.first_mut()) {
        if let ExprKind::List(items) = &mut first.kind {
            first.kind = ExprKind::Tuple(std::mem::take(items));
        }
    }
}

/// NumPy's positional `axis`: a call of a builtin that takes `axis=` with one positional argument
/// more than it takes otherwise (`sum(x, -1)`, `x.sum(0)`, `concatenate((a, b), 1)`,
/// `take(x, idx, 0)`) passes that last argument as `axis=` (`func` is the builtin's name, or a
/// method's `.name`). Any other call is left as it is, for the checker's arity error.
pub fn positional_axis(func: &mut Ident, args: &mut Vec<Expr>, kwargs: &mut Vec<(Ident, Expr)>) -> bool {
    let name = func.name.strip_prefix('.').or_else(|| func.name.strip_prefix(QUALIFIED)).unwrap_or(&func.name);
    let name = name.to_string();
    ignored_keywords(&name, kwargs);
    crate::numpy_keywords::keyword_positional(&name, args, kwargs);
    sequence_of_arrays(&name, args);
    move_positional_axis(&name, args, kwargs);
    none_arguments(func, &name, args, kwargs)
}

/// The move of [`positional_axis`]: a last positional argument one more than builtin `name` takes
/// otherwise, an axis literal (or `None`), becomes `axis=`.
fn move_positional_axis(name: &str, args: &mut Vec<Expr>, kwargs: &mut Vec<(Ident, Expr)>) {
    let Some(row) = crate::builtin::Builtin::from_name(name).map(|b| b.row()) else { return };
    let takes_axis = row.keywords.contains(&"axis") && !kwargs.iter().any(|(k, _)| k.name == "axis");
    // arrayc's axes are integer literals (or `None`); anything else stays an argument, for the
    // arity error.
    let literal = args.last().is_some_and(|a| literal_axis(a) || matches!(a.kind, ExprKind::NoneLit));
    if takes_axis && literal && row.arity.1 != usize::MAX && args.len() == row.arity.1 + 1 {
        let axis = args.pop().unwrap_or_else(|| unreachable!("one argument more than the most"));
        kwargs.push((Ident { name: "axis".to_string(), span: axis.span.clone() }, axis));
    }
}

/// Whether `e` can be an axis given by position: arrayc's axes are integer literals (`1`, `-1`)
/// or tuples of them.
pub fn literal_axis(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Int(_) => true,
        ExprKind::Unary(crate::ast::UnOp::Neg, x) => matches!(x.kind, ExprKind::Int(_)),
        ExprKind::Tuple(items) => items.iter().all(literal_axis),
        _ => false,
    }
}

/// NumPy's ufuncs that are Python's operators, called as functions: `np.add(a, b)` is `a + b`,
/// `np.negative(x)` is `-x`, and so on (same dtypes, broadcasting and errors as the operator). The
/// call's kind when `name` (without `np.`) is one of them, with its operands and no keyword.
pub(crate) fn operator_ufunc(name: &str, args: &mut Vec<Expr>, kwargs: &[(Ident, Expr)]) -> Option<ExprKind> {
    use crate::ast::UnOp;
    let binary = match name {
        "add" => Some(BinOp::Add),
        "subtract" => Some(BinOp::Sub),
        "multiply" => Some(BinOp::Mul),
        "divide" | "true_divide" => Some(BinOp::Div),
        "floor_divide" => Some(BinOp::FloorDiv),
        "mod" | "remainder" => Some(BinOp::Rem),
        "equal" => Some(BinOp::Eq),
        "not_equal" => Some(BinOp::Ne),
        "less" => Some(BinOp::Lt),
        "less_equal" => Some(BinOp::Le),
        "greater" => Some(BinOp::Gt),
        "greater_equal" => Some(BinOp::Ge),
        "bitwise_and" => Some(BinOp::And),
        "bitwise_or" => Some(BinOp::Or),
        "bitwise_xor" => Some(BinOp::Xor),
        "left_shift" | "bitwise_left_shift" => Some(BinOp::Shl),
        "right_shift" | "bitwise_right_shift" => Some(BinOp::Shr),
        _ => None,
    };
    let unary = match name {
        "negative" => Some(UnOp::Neg),
        "invert" | "bitwise_not" | "bitwise_invert" => Some(UnOp::Not),
        _ => None,
    };
    if !kwargs.is_empty() {
        return None;
    }
    match (binary, unary, args.len()) {
        (Some(op), _, 2) => {
            let b = args.pop()?;
            let a = args.pop()?;
            Some(ExprKind::Binary(op, Box::new(a), Box::new(b)))
        }
        (_, Some(op), 1) => Some(ExprKind::Unary(op, Box::new(args.pop()?))),
        _ => None,
    }
}

/// NumPy's positional spellings ([`positional_axis`]) in the calls of plain names, once the whole
/// program is parsed: a call of a function of the program keeps its arguments as written (the
/// function shadows the builtin of its name, [`crate::builtin`]), any other is a builtin's. (The
/// qualified spellings, `np.sum(x, 0)` and `x.sum(0)`, were rewritten as they were parsed.)
pub fn bare_calls(program: &mut Program) {
    let functions: std::collections::HashSet<String> = program.functions.iter().map(|f| f.name.name.clone()).collect();
    let ids = Cell::new(program.num_exprs);
    for f in &mut program.functions {
        f.for_each_expr_mut(&mut |e| {
            if let ExprKind::Call { func, args, kwargs } = &mut e.kind {
                if may_name_a_function(&func.name) && !functions.contains(&func.name) {
                    // A bare `min`/`max` of several arguments is decided by the checker, which
                    // knows whether the first is an array ([`crate::builtin::python_min_max`]).
                    if !matches!(func.name.as_str(), "min" | "max") || args.len() < 2 {
                        positional_axis(func, args, kwargs);
                    }
                    let name = func.name.clone();
                    if let Some(kind) = operator_ufunc(&func.name, args, kwargs) {
                        e.kind = kind;
                    } else {
                        crate::spellings::rewrite_call(&ids, &name, e);
                    }
                }
            }
        });
        // The item of a tuple a composition wrote (`histogram2d(x, y)[0]`), inner ones first.
        f.for_each_expr_mut(&mut |e| {
            e.walk_mut(&mut |x| {
                if matches!(&x.kind, ExprKind::Subscript { base, .. } if matches!(base.kind, ExprKind::Tuple(_))) {
                    let taken = std::mem::replace(&mut x.kind, ExprKind::NoneLit);
                    *x = tuple_item(Expr { kind: taken, ..x.clone() });
                }
            })
        });
    }
    program.num_exprs = ids.get();
}

/// `base.name`, an attribute ([`crate::methods`]): `x.ndim`, `x.size`, `x.itemsize` and `x.nbytes`
/// are calls of the builtins of these names, `x.T` of `transpose` (`.T`), `x.shape` a call of `.shape` (which only
/// [`subscript`] makes something of), `x.dtype` a call of `.dtype` (which only a `dtype=` argument takes:
/// `zeros(n, dtype=x.dtype)`); any other name is an error.
pub fn attribute(ids: &Cell<u32>, base: Expr, name: Ident, span: Span) -> Result<Expr, LexError> {
    if let Some(literal) = crate::spellings::limit_or_constant(ids, &base, &name, &span) {
        return Ok(literal);
    }
    let base = match crate::dtype_queries::attribute(ids, base, &name, &span) {
        Ok(query) => return Ok(query),
        Err(base) => base,
    };
    if is_numpy(&base) {
        return numpy_attribute(base, name, span);
    }
    if matches!(&base.kind, ExprKind::Var(v) if v.name == NP_LIB) && name.name == "stride_tricks" {
        let module = Ident { name: NP_STRIDE_TRICKS.to_string(), span: base.span.start..name.span.end };
        return Ok(Expr { id: base.id, kind: ExprKind::Var(module), span });
    }
    let func = match name.name.as_str() {
        // NumPy's real and imaginary parts of a real array (arrayc has no complex dtypes): the
        // array itself (a view, which writes through) and zeros.
        "real" => return Ok(base),
        "imag" => Ident { name: qualified("zeros_like"), span: name.span },
        "ndim" | "size" | "itemsize" | "nbytes" => Ident { name: qualified(&name.name), span: name.span },
        // NumPy's `x.flat` read (`x.flat[k]`, `for t in x.flat`): `ravel(x)`, `crate::py_lists`.
        "flat" => Ident { name: qualified("ravel"), span: name.span },
        "shape" | "T" | "dtype" => Ident { name: format!(".{}", name.name), span: name.span },
        _ => return Err(LexError::Attribute { name: name.name, span: name.span }),
    };
    Ok(mk(ids, ExprKind::Call { func, args: vec![base], kwargs: vec![] }, span))
}

/// NumPy's module names, `np` and `numpy`: `np.sum(x)` is `sum(x)`, `np.pi` is `pi`
/// ([`numpy_attribute`], [`method_call`]). So a program cannot name a variable `np`.
pub const NUMPY_MODULES: [&str; 2] = ["np", "numpy"];

/// NumPy's submodule `linalg`, whose functions arrayc has are the builtins `linalg.name`
/// (`linalg.norm`): `np.linalg.norm(x)` and `linalg.norm(x)` call them ([`method_call`]).
pub const LINALG: &str = "linalg";

/// NumPy's `np.lib` and `np.lib.stride_tricks` as names no program can write: the functions of
/// the second are called as `np.f` ([`method_call`]; `sliding_window_view`).
const NP_LIB: &str = "np.lib";
const NP_STRIDE_TRICKS: &str = "np.lib.stride_tricks";

/// Whether `e` is the name of NumPy's module ([`NUMPY_MODULES`]), or of its submodule
/// `np.lib.stride_tricks`, whose functions are builtins too.
fn is_numpy(e: &Expr) -> bool {
    matches!(&e.kind, ExprKind::Var(v) if NUMPY_MODULES.contains(&v.name.as_str()) || v.name == NP_STRIDE_TRICKS)
}

/// `np.name`, a name of NumPy's module: a dtype (`np.float64`, `np.int32`, `np.bool_`: the type
/// name), or any other name as it is (`np.pi` is `pi`, `np.add` the name `add` of `np.add.at`);
/// what the name means is then checked as if written without `np.`. The expression keeps the id
/// of `np` (ids stay dense).
fn numpy_attribute(np: Expr, name: Ident, span: Span) -> Result<Expr, LexError> {
    let kind = match arrayc_core::dtype::DType::from_numpy_name(&name.name) {
        Some(d) => ExprKind::DTypeName(d),
        // `np.random`, NumPy's random module: the name `np.random`, whose methods
        // `np.random.rand(..)` are the calls `np.random.rand` ([`method_call`], [`crate::random_api`]).
        None if name.name == "random" => {
            ExprKind::Var(Ident { name: crate::random_api::NP_RANDOM.to_string(), span: name.span })
        }
        None if name.name == "lib" => ExprKind::Var(Ident { name: NP_LIB.to_string(), span: name.span }),
        None => ExprKind::Var(name),
    };
    Ok(Expr { id: np.id, kind, span })
}

/// NumPy's ufunc methods that arrayc has, `(ufunc, method, builtin)`: `add.reduce(x, axis)` is
/// `sum(x, axis=axis)`, and so on.
const UFUNC_METHODS: &[(&str, &str, &str)] = &[
    ("add", "reduce", "sum"),
    ("multiply", "reduce", "prod"),
    ("maximum", "reduce", "max"),
    ("minimum", "reduce", "min"),
    ("logical_and", "reduce", "all"),
    ("logical_or", "reduce", "any"),
    ("add", "accumulate", "cumsum"),
    ("multiply", "accumulate", "cumprod"),
    ("maximum", "accumulate", "maximum.accumulate"),
    ("minimum", "accumulate", "minimum.accumulate"),
    ("add", "at", "add_at"),
];

/// The methods of NumPy's ufuncs (`add.reduce`), which no array has.
const UFUNC_METHOD_NAMES: &[&str] = &["reduce", "accumulate", "reduceat", "outer", "at"];

/// `ufunc.method(args)`, NumPy's ufunc methods ([`UFUNC_METHODS`]), as a call of the builtin with
/// NumPy's default axis, 0 (unlike `sum`'s, all axes): `add.reduce(x)` of a 2-d `x` is
/// `sum(x, axis=0)`; `add.reduce(x, 1)` and `add.accumulate(x, axis=1)` pass the axis.
/// `add.at(x, idx, v)` is `add_at(x, idx, v)`. `method` is one of [`UFUNC_METHOD_NAMES`], and
/// the name `ufunc` is NumPy's ufunc whatever variables are in scope (an array has no such
/// method). `ufunc.outer(a, b)` is [`ufunc_outer`]. A ufunc method that arrayc does not have
/// (`subtract.reduce`, `add.reduceat`) is an error.
fn ufunc_method(
    ids: &Cell<u32>,
    ufunc: &Ident,
    method: &Ident,
    mut args: Vec<Expr>,
    mut kwargs: Vec<(Ident, Expr)>,
    span: Span,
) -> Result<Expr, LexError> {
    if method.name == "outer" {
        if args.len() == 2 && kwargs.is_empty() {
            return Ok(ufunc_outer(ids, ufunc, args, span));
        }
        // Other arguments: the checker's arity or keyword error (E0501, E0502) for `ufunc.outer`.
        let func = Ident { name: qualified(OUTER_OPERAND), span: ufunc.span.start..method.span.end };
        return Ok(mk(ids, ExprKind::Call { func, args, kwargs }, span));
    }
    let Some(&(_, _, builtin)) = UFUNC_METHODS.iter().find(|(u, m, _)| *u == ufunc.name && *m == method.name) else {
        return Err(LexError::UfuncMethod { ufunc: ufunc.name.clone(), method: method.name.clone(), span });
    };
    let mut func = Ident { name: qualified(builtin), span: ufunc.span.start..method.span.end };
    if method.name != "at" {
        // NumPy's ufunc methods reduce axis 0 by default; `axis=None` reduces every axis.
        let axis_none = positional_axis(&mut func, &mut args, &mut kwargs);
        if !axis_none && !kwargs.iter().any(|(k, _)| k.name == "axis") {
            let zero = mk(ids, ExprKind::Int(0), method.span.clone());
            kwargs.push((Ident { name: "axis".to_string(), span: method.span.clone() }, zero));
        }
    }
    Ok(mk(ids, ExprKind::Call { func, args, kwargs }, span))
}

/// The builtin that puts `b`'s axes after `a`'s: `ufunc.outer(a, b)` (`a` of shape `a.shape +
/// (1,) * b.ndim`, a view), the left operand of [`ufunc_outer`]'s broadcast.
pub const OUTER_OPERAND: &str = "ufunc.outer";

/// `ufunc.outer(a, b)`, NumPy's outer method of a binary ufunc (`subtract.outer(a, b)`): the ufunc
/// of `a` with `b`'s axes appended (the builtin [`OUTER_OPERAND`]) and `b`, broadcast, so of
/// shape `a.shape + b.shape`: `np.ufunc(ufunc.outer(a, b), b)`, an operator for the operator
/// ufuncs ([`operator_ufunc`]). `ufunc.outer`'s second argument is a copy of `b` with fresh ids,
/// which the checker reads for its rank only and the lowering never computes.
fn ufunc_outer(ids: &Cell<u32>, ufunc: &Ident, mut args: Vec<Expr>, span: Span) -> Expr {
    let b = args.pop().expect("two arguments");
    let a = args.pop().expect("two arguments");
    let mut rank_of = b.clone();
    rank_of.walk_mut(&mut |e| {
        e.id = ExprId(ids.get());
        ids.set(ids.get() + 1);
    });
    let func = Ident { name: qualified(OUTER_OPERAND), span: ufunc.span.clone() };
    let left = mk(ids, ExprKind::Call { func, args: vec![a, rank_of], kwargs: vec![] }, span.clone());
    let mut args = vec![left, b];
    let kind = match operator_ufunc(&ufunc.name, &mut args, &[]) {
        Some(kind) => kind,
        None => ExprKind::Call {
            func: Ident { name: qualified(&ufunc.name), span: ufunc.span.clone() },
            args,
            kwargs: vec![],
        },
    };
    mk(ids, kind, span)
}

/// `base.name(args)`, a method call ([`crate::methods`]): the call of `.name` with `base` first,
/// which resolves to the builtin `name`; `x.astype(d)` is the cast `d(x)`, under the id of the
/// type name `d` (the last expression parsed, so ids stay dense); `np.f(args)` is `f(args)`
/// ([`NUMPY_MODULES`]); `linalg.f(args)` is the builtin `linalg.f` ([`LINALG`]); `ufunc.reduce(x)` and NumPy's other ufunc methods are calls of builtins
/// ([`ufunc_method`]).
pub fn method_call(
    ids: &Cell<u32>,
    base: Expr,
    name: Ident,
    all: Vec<(Option<Ident>, Expr)>,
    span: Span,
) -> Result<Expr, LexError> {
    // `x.reshape(*s)`: built once the star is written out (`crate::star_args`).
    if crate::star_args::has_star(&all) {
        return Ok(crate::star_args::defer_method(ids, base, name, all, span));
    }
    let (mut args, mut kwargs) = split_args(all);
    if is_numpy(&base) {
        // `np.f(args)` is the call `np.f(args)` of the builtin `f` ([`QUALIFIED`]), under the id
        // of `np` (ids stay dense).
        // `np.float64(x)`, NumPy's scalar types as functions: the cast `f64(x)`.
        let cast = arrayc_core::dtype::DType::from_numpy_name(&name.name).map(|d| d.name());
        let mut func = Ident { name: qualified(cast.unwrap_or(&name.name)), span: name.span };
        positional_axis(&mut func, &mut args, &mut kwargs);
        let kind = match operator_ufunc(&name.name, &mut args, &kwargs) {
            Some(kind) => kind,
            None => ExprKind::Call { func, args, kwargs },
        };
        let mut e = Expr { id: base.id, kind, span };
        crate::spellings::rewrite_call(ids, &name.name, &mut e);
        return Ok(e);
    }
    if let ExprKind::Var(m) = &base.kind {
        if m.name == crate::spellings::MATH {
            // Python's `math.f(s)` on scalars ([`crate::spellings::math_call`]), by position;
            // `math.isclose(a, b, rel_tol=.., abs_tol=..)` ([`crate::compositions::math_isclose`]).
            if name.name == "isclose" {
                let b = crate::compositions::Build { ids, at: span.clone() };
                if let Some(e) = crate::compositions::math_isclose(&b, &args, &kwargs) {
                    return Ok(Expr { id: base.id, kind: e.kind, span });
                }
            }
            if let Some((k, _)) = kwargs.first() {
                let func = format!("math.{}", name.name);
                return Err(LexError::MathKeyword { func, keyword: k.name.clone(), span: k.span.clone() });
            }
            let Some(kind) = crate::spellings::math_call(ids, &name, args, &span) else {
                return Err(LexError::MathMissing { name: name.name, span: name.span });
            };
            return Ok(Expr { id: base.id, kind, span });
        }
    }
    if let ExprKind::Var(m) = &base.kind {
        if m.name == crate::random_api::NP_RANDOM {
            // `np.random.rand(n)`: the call `np.random.rand`, which `crate::random_api` rewrites.
            let func = Ident { name: format!("{}.{}", m.name, name.name), span: m.span.start..name.span.end };
            return Ok(Expr { id: base.id, kind: ExprKind::Call { func, args, kwargs }, span });
        }
        if m.name == LINALG {
            // `np.linalg.norm(x)` (`np.linalg` is the name `linalg`) or `linalg.norm(x)`: the
            // builtin `linalg.norm`, under the id of `linalg` (ids stay dense). No positional
            // axis: NumPy's second argument of `norm` is `ord`, passed as `ord=` (a string, `'fro'`,
            // the word it spells, as `keyword_value` makes it).
            if name.name == "norm" && args.len() == 2 && !kwargs.iter().any(|(k, _)| k.name == "ord") {
                let ord = Ident { name: "ord".to_string(), span: args[1].span.clone() };
                let v = keyword_value(&ord, args.remove(1));
                kwargs.push((ord, v));
            }
            let mut func = Ident { name: format!("{LINALG}.{}", name.name), span: m.span.start..name.span.end };
            let linalg_name = func.name.clone();
            crate::numpy_keywords::keyword_positional(&linalg_name, &mut args, &mut kwargs);
            none_arguments(&mut func, &linalg_name, &mut args, &mut kwargs);
            let mut e = Expr { id: base.id, kind: ExprKind::Call { func, args, kwargs }, span };
            if name.name == "vecdot" {
                crate::compositions::rewrite(ids, "vecdot", &mut e);
            } else if name.name == "multi_dot" {
                crate::axis_compositions::rewrite(ids, &linalg_name, &mut e);
            }
            return Ok(e);
        }
    }
    if let ExprKind::Var(ufunc) = &base.kind {
        if UFUNC_METHOD_NAMES.contains(&name.name.as_str()) {
            return ufunc_method(ids, ufunc, &name, args, kwargs, span);
        }
    }
    if name.name == "astype" && args.is_empty() {
        // `x.astype(dtype=np.float32)`: NumPy's name of the one parameter.
        if let Some(at) = kwargs.iter().position(|(k, _)| k.name == "dtype") {
            args.push(kwargs.remove(at).1);
        }
    }
    if let ("astype", [arg], true) = (name.name.as_str(), args.as_slice(), kwargs.is_empty()) {
        // `y.dtype`, `np.result_type(a, b)`, ... (`crate::dtype_queries`).
        if crate::dtype_queries::is_dtype_expr(arg) {
            // `x.astype(y.dtype)`: NumPy's copy in `y`'s dtype, `np.array(x, dtype=y.dtype)`.
            let dtype = Ident { name: "dtype".to_string(), span: args[0].span.clone() };
            let kwargs = vec![(dtype, args.remove(0))];
            let func = Ident { name: qualified("array"), span: name.span };
            return Ok(mk(ids, ExprKind::Call { func, args: vec![base], kwargs }, span));
        }
    }
    if name.name == "astype" {
        ignored_keywords("astype", &mut kwargs);
    }
    if name.name == "astype" && args.len() == 1 {
        // `x.astype("float32")`, `x.astype(int)`: the string or Python's type spells the dtype, as
        // `dtype=`'s value does.
        let arg = args.remove(0);
        args.push(keyword_value(&Ident { name: "dtype".to_string(), span: arg.span.clone() }, arg));
    }
    if let ("astype", [Expr { kind: ExprKind::DTypeName(d), .. }], true) =
        (name.name.as_str(), args.as_slice(), kwargs.is_empty())
    {
        let (id, d) = (args[0].id, *d);
        let func = Ident { name: d.name().to_string(), span: name.span };
        return Ok(Expr { id, kind: ExprKind::Call { func, args: vec![base], kwargs }, span });
    }
    if name.name == "item" && args.is_empty() && kwargs.is_empty() {
        return Ok(crate::py_lists::item(ids, base, span));
    }
    if name.name == "item" && kwargs.is_empty() {
        // NumPy's `x.item(k)`: element `k` of `x` flattened; `x.item(i, j)`: `x[i, j]`.
        let base = match args.len() {
            1 => mk(
                ids,
                ExprKind::Call {
                    func: Ident { name: qualified("ravel"), span: span.clone() },
                    args: vec![base],
                    kwargs: vec![],
                },
                span.clone(),
            ),
            _ => base,
        };
        let index = args.into_iter().map(Index::At).collect();
        return Ok(mk(ids, ExprKind::Subscript { base: Box::new(base), index }, span));
    }
    if matches!(name.name.as_str(), "conj" | "conjugate") && args.is_empty() && kwargs.is_empty() {
        // The complex conjugate of a real array: a copy (arrayc has no complex dtypes).
        let func = Ident { name: qualified("copy"), span: name.span };
        return Ok(mk(ids, ExprKind::Call { func, args: vec![base], kwargs }, span));
    }
    args.insert(0, base);
    let mut func = Ident { name: format!(".{}", name.name), span: name.span };
    positional_axis(&mut func, &mut args, &mut kwargs);
    let mut e = mk(ids, ExprKind::Call { func, args, kwargs }, span);
    if matches!(name.name.as_str(), "diagonal" | "ravel" | "flatten" | "cumsum" | "cumprod" | "reshape" | "trace") {
        crate::spellings::rewrite_call(ids, &name.name, &mut e);
    }
    Ok(e)
}

/// The statement `base.name(args);`: NumPy's in-place `x.fill(v)` is `x[...] = v;` (it returns
/// None), any other the method call [`method_call`] for its effect.
pub fn method_stmt(
    ids: &Cell<u32>,
    base: Ident,
    name: Ident,
    mut all: Vec<(Option<Ident>, Expr)>,
    span: Span,
) -> Result<Stmt, LexError> {
    if name.name == "fill" && all.len() == 1 && all[0].0.is_none() && !NUMPY_MODULES.contains(&base.name.as_str()) {
        let (_, value) = all.remove(0);
        let index = vec![Index::Ellipsis(name.span)];
        return Ok(Stmt::SetItem { target: base, index, value, span });
    }
    let at = base.span.clone();
    if name.name == "sort" && !NUMPY_MODULES.contains(&base.name.as_str()) {
        // NumPy's `x.sort(axis=k)` sorts in place: `x[...] = np.sort(x, axis=k);`.
        let (mut args, mut kwargs) = split_args(all);
        args.insert(0, mk(ids, ExprKind::Var(base.clone()), at.clone()));
        let mut func = Ident { name: qualified("sort"), span: name.span.clone() };
        positional_axis(&mut func, &mut args, &mut kwargs);
        let value = mk(ids, ExprKind::Call { func, args, kwargs }, span.clone());
        return Ok(Stmt::SetItem { target: base, index: vec![Index::Ellipsis(name.span)], value, span });
    }
    let base = mk(ids, ExprKind::Var(base), at);
    method_call(ids, base, name, all, span).map(Stmt::Expr)
}

/// The number of expressions of `functions` after renumbering their ids densely from 0, in the
/// order they had: the desugarings that drop an expression of the source (a chained assignment's
/// target `b` in `a = b = e;`, `add` in `add.reduce(x)`) leave its id unused, and the ids must be
/// dense ([`crate::ast::ExprId`]). Renumbers nothing where they are dense already.
pub fn dense_ids(functions: &mut [Function], num_exprs: u32) -> u32 {
    let mut used = vec![false; num_exprs as usize];
    for f in functions.iter_mut() {
        f.for_each_expr_mut(&mut |e| used[e.id.0 as usize] = true);
    }
    let mut next = 0;
    let new_id: Vec<u32> = used
        .iter()
        .map(|&u| {
            next += u32::from(u);
            next - 1
        })
        .collect();
    if next < num_exprs {
        for f in functions.iter_mut() {
            f.for_each_expr_mut(&mut |e| e.id = ExprId(new_id[e.id.0 as usize]));
        }
    }
    next
}

/// `for var in range(args) body`: Python's `range(stop)`, `range(start, stop)` or
/// `range(start, stop, step)` as a [`Stmt::For`]. The `range` call leaves the tree: its id goes to
/// the `0` of `range(stop)`, or back to `ids` (it is the last one taken, see [`return_values`]).
/// Over anything else, an array (`for v in x`, `for k in [0, 2, 4]`), Python iterates axis 0:
/// `let iter.OFFSET = x; for index.OFFSET in 0..len(iter.OFFSET) { let v = iter.OFFSET[index.OFFSET]; body }`
/// ([`is_synthesized`] names): `x` is evaluated once, and `v` is a scalar of a 1-d array, a view
/// (a row) of an n-d one, so writing into it writes into `x`, as in NumPy.
/// Python's `reversed(range(..))` and `reversed(x)` are [`reversed_range`] and `x[::-1]`.
pub fn for_in(ids: &Cell<u32>, var: Ident, range: Expr, body: Block, span: Span) -> Result<Vec<Stmt>, LexError> {
    let range = iterable(ids, range)?;
    match &range.kind {
        ExprKind::Call { func, .. } if func.name == "range" => Ok(vec![range_for(ids, var, range, body, span)?]),
        _ => Ok(array_for(ids, var, range, body, span)),
    }
}

/// The iterable of a `for` loop or a comprehension's clause as arrayc iterates it: Python's
/// `reversed(range(..))` is [`reversed_range`], `reversed(x)` is `x[::-1]`, and a tuple of number
/// literals is the list of them; any other stays.
pub(crate) fn iterable(ids: &Cell<u32>, range: Expr) -> Result<Expr, LexError> {
    Ok(match range.kind {
        ExprKind::Call { func, mut args, kwargs }
            if func.name == "reversed" && args.len() == 1 && kwargs.is_empty() =>
        {
            let inner = args.pop().unwrap_or_else(|| unreachable!("one argument"));
            match &inner.kind {
                ExprKind::Call { func, .. } if func.name == "range" => reversed_range(ids, inner)?,
                _ => {
                    let step = mk(ids, ExprKind::Int(-1), range.span.clone());
                    let slice = Index::Slice { start: None, stop: None, step: Some(step), span: range.span.clone() };
                    mk(ids, ExprKind::Subscript { base: Box::new(inner), index: vec![slice] }, range.span)
                }
            }
        }
        // `for a in (-1, 0, 1)`: a tuple of number literals is the list of them.
        ExprKind::Tuple(items) if items.iter().all(is_literal) => Expr { kind: ExprKind::List(items), ..range },
        kind => Expr { kind, ..range },
    })
}

/// Python's `reversed(range(start, stop, step))` as a `range` (`range(stop)` starts at 0, `step`
/// is 1 when left out): the same values, last first. With `s = step` an integer literal (else
/// [`LexError::NotARange`]), the last value of the range is `start + (stop - start - 1) // s * s`
/// for `s > 0` and `start - (start - stop - 1) // -s * -s` for `s < 0`, and the reversed range
/// runs from it by `-s` to `start - s` (exclusive); empty where the range is empty (the last value
/// then lies at or beyond `start - s`). `start` and `stop` are written twice (the copies under
/// fresh ids), which computes them twice; arrayc's expressions have no effects.
fn reversed_range(ids: &Cell<u32>, range: Expr) -> Result<Expr, LexError> {
    let at = range.span.clone();
    let ExprKind::Call { func, mut args, kwargs } = range.kind else { unreachable!("a call of range") };
    if !kwargs.is_empty() || !(1..=3).contains(&args.len()) {
        return Err(LexError::NotARange { span: at });
    }
    let step = match args.get(2).map(|e| &e.kind) {
        None => 1,
        Some(ExprKind::Int(s)) if *s != 0 => *s,
        Some(ExprKind::Unary(crate::ast::UnOp::Neg, a)) if matches!(a.kind, ExprKind::Int(s) if s != 0) => {
            let ExprKind::Int(s) = a.kind else { unreachable!("matched") };
            -s
        }
        Some(_) => return Err(LexError::NotARange { span: args[2].span.clone() }),
    };
    args.truncate(2);
    if args.len() == 1 {
        args.insert(0, mk(ids, ExprKind::Int(0), at.clone()));
    }
    let stop = args.pop().unwrap_or_else(|| unreachable!("two bounds"));
    let start = args.pop().unwrap_or_else(|| unreachable!("two bounds"));
    let int = |ids: &Cell<u32>, v: i64| mk(ids, ExprKind::Int(v), at.clone());
    let bin = |ids: &Cell<u32>, op: BinOp, a: Expr, b: Expr| {
        mk(ids, ExprKind::Binary(op, Box::new(a), Box::new(b)), at.clone())
    };
    // `(a - b - 1) // |s| * |s|`, with (a, b) = (stop, start) for s > 0 and (start, stop) for s < 0.
    let (a, b) = if step > 0 { (stop, fresh_copy(ids, &start)) } else { (fresh_copy(ids, &start), stop) };
    let diff = bin(ids, BinOp::Sub, bin(ids, BinOp::Sub, a, b), int(ids, 1));
    let span_of = bin(ids, BinOp::Mul, bin(ids, BinOp::FloorDiv, diff, int(ids, step.abs())), int(ids, step.abs()));
    let last = bin(ids, if step > 0 { BinOp::Add } else { BinOp::Sub }, fresh_copy(ids, &start), span_of);
    let end = bin(ids, BinOp::Sub, start, int(ids, step));
    let kind = ExprKind::Call { func, args: vec![last, end, int(ids, -step)], kwargs: vec![] };
    Ok(mk(ids, kind, at))
}

/// A target of a `for` over several names: a name, or a parenthesised tuple of targets
/// (`for k, (lo, hi) in enumerate(zip(a, b))`).
#[derive(Clone, Debug)]
pub enum ForTarget {
    Name(Ident),
    Tuple(Vec<ForTarget>, Span),
}

/// `for k, v in enumerate(x)` and `for a, b in zip(x, y)` (also parenthesised, `for (k, v) in ..`),
/// Python's two iterations that give several names, over axis 0 as [`array_for`] does:
/// `enumerate(x)` (or `enumerate(x, start)`) binds the position (plus `start`) and the item,
/// `zip(x, y, ..)` one item of each, as many steps as the shortest has (Python's `zip`). A target
/// may itself be a parenthesised tuple of the item of a nested `enumerate` or `zip`, to any depth
/// (`for k, (lo, hi) in enumerate(zip(e[:-1], e[1:]))`). Each array is evaluated once, into
/// `iter.OFFSET.K`; the loop counts `index.OFFSET` ([`is_synthesized`] names), and the user's
/// names are `let`s at the top of the body. Anything else with several names, or as many names
/// as `zip` has not arrays, is [`LexError::ForTargets`].
pub fn for_in_tuple(
    ids: &Cell<u32>,
    first: ForTarget,
    rest: Vec<ForTarget>,
    it: Expr,
    mut body: Block,
    span: Span,
) -> Result<Vec<Stmt>, LexError> {
    let mut vars = rest;
    vars.insert(0, first);
    let at = it.span.clone();
    let index = Ident { name: format!("index.{}", span.start), span: at.clone() };
    let mut tuple = TupleFor { ids, index: index.clone(), offset: span.start, arrays: vec![], lets: vec![] };
    tuple.bind(ForTarget::Tuple(vars, at.clone()), it)?;
    let TupleFor { arrays, lets, .. } = tuple;
    let var = |name: &Ident| mk(ids, ExprKind::Var(name.clone()), at.clone());
    let call = |f: &str, args: Vec<Expr>| {
        let func = Ident { name: f.to_string(), span: at.clone() };
        mk(ids, ExprKind::Call { func, args, kwargs: vec![] }, at.clone())
    };
    let mut out: Vec<Stmt> = Vec::new();
    let mut end = None;
    for (a, value) in arrays {
        let len = call("len", vec![var(&a)]);
        end = Some(match end {
            None => len,
            Some(e) => call("minimum", vec![e, len]),
        });
        out.push(Stmt::Let { names: vec![a], value, span: at.clone() });
    }
    let end = end.unwrap_or_else(|| unreachable!("a tuple target binds at least one array"));
    body.stmts.splice(0..0, lets);
    let start = mk(ids, ExprKind::Int(0), at.clone());
    out.push(Stmt::For { var: index, start, end, step: None, body, span });
    Ok(out)
}

/// The state of [`for_in_tuple`]'s matching of targets to `enumerate`s and `zip`s.
struct TupleFor<'a> {
    ids: &'a Cell<u32>,
    /// The loop's counter.
    index: Ident,
    /// The loop's offset in the source, which names its arrays.
    offset: usize,
    /// The arrays iterated, each with its value.
    arrays: Vec<(Ident, Expr)>,
    /// The `let`s of the user's names, at the top of the body.
    lets: Vec<Stmt>,
}

impl TupleFor<'_> {
    /// Binds `target` to the items of the iterable `it`.
    fn bind(&mut self, target: ForTarget, it: Expr) -> Result<(), LexError> {
        let at = it.span.clone();
        let vars = match target {
            ForTarget::Name(name) => {
                let a = Ident { name: format!("iter.{}.{}", self.offset, self.arrays.len()), span: at.clone() };
                self.arrays.push((a.clone(), iterable(self.ids, it)?));
                let base = Box::new(mk(self.ids, ExprKind::Var(a), at.clone()));
                let i = mk(self.ids, ExprKind::Var(self.index.clone()), at.clone());
                let item = mk(self.ids, ExprKind::Subscript { base, index: vec![Index::At(i)] }, at);
                self.lets.push(Stmt::Let { span: name.span.clone(), names: vec![name], value: item });
                return Ok(());
            }
            ForTarget::Tuple(vars, _) => vars,
        };
        let bad = LexError::ForTargets { names: vars.len(), span: at.clone() };
        let mut it = it;
        if let ExprKind::Call { func, args, kwargs } = &mut it.kind {
            // `enumerate(x, start=1)`: Python's name of the second parameter.
            if func.name == "enumerate" && args.len() == 1 && kwargs.len() == 1 && kwargs[0].0.name == "start" {
                args.push(kwargs.remove(0).1);
            }
        }
        let ExprKind::Call { func, args, kwargs } = &it.kind else { return Err(bad) };
        let enumerate = func.name == "enumerate" && vars.len() == 2 && (1..=2).contains(&args.len());
        let zip = func.name == "zip" && vars.len() == args.len();
        if !kwargs.is_empty() || !(enumerate || zip) {
            return Err(bad);
        }
        let ExprKind::Call { args, .. } = it.kind else { unreachable!("matched above") };
        let mut args = args.into_iter();
        let mut vars = vars.into_iter();
        if enumerate {
            let Some(ForTarget::Name(k)) = vars.next() else { return Err(bad) };
            let x = args.next().unwrap_or_else(|| unreachable!("one or two arguments"));
            let i = mk(self.ids, ExprKind::Var(self.index.clone()), at.clone());
            let position = match args.next() {
                Some(start) => mk(self.ids, ExprKind::Binary(BinOp::Add, Box::new(i), Box::new(start)), at),
                None => i,
            };
            self.lets.push(Stmt::Let { span: k.span.clone(), names: vec![k], value: position });
            let t = vars.next().unwrap_or_else(|| unreachable!("two targets"));
            return self.bind(t, x);
        }
        for (t, a) in vars.zip(args) {
            self.bind(t, a)?;
        }
        Ok(())
    }
}

/// `for var in x body` over the axis 0 of the array `x` (see [`for_in`]).
fn array_for(ids: &Cell<u32>, var: Ident, x: Expr, mut body: Block, span: Span) -> Vec<Stmt> {
    let at = x.span.clone();
    let iter = Ident { name: format!("iter.{}", span.start), span: at.clone() };
    let index = Ident { name: format!("index.{}", span.start), span: var.span.clone() };
    let var_of = |ids: &Cell<u32>, name: &Ident| mk(ids, ExprKind::Var(name.clone()), at.clone());
    let start = mk(ids, ExprKind::Int(0), at.clone());
    let len = Ident { name: qualified("len"), span: at.clone() };
    let args = vec![var_of(ids, &iter)];
    let end = mk(ids, ExprKind::Call { func: len, args, kwargs: vec![] }, at.clone());
    let item = ExprKind::Subscript { base: Box::new(var_of(ids, &iter)), index: vec![Index::At(var_of(ids, &index))] };
    let item = mk(ids, item, at.clone());
    body.stmts.insert(0, Stmt::Let { span: var.span.clone(), names: vec![var], value: item });
    let declare = Stmt::Let { names: vec![iter], value: x, span: at };
    vec![declare, Stmt::For { var: index, start, end, step: None, body, span }]
}

fn range_for(ids: &Cell<u32>, var: Ident, range: Expr, body: Block, span: Span) -> Result<Stmt, LexError> {
    let ExprKind::Call { func, args, kwargs } = range.kind else { unreachable!("for_in passes calls of range") };
    if !kwargs.is_empty() || !(1..=3).contains(&args.len()) {
        return Err(LexError::NotARange { span: range.span });
    }
    let mut args = args.into_iter();
    let (start, end) = match args.len() {
        1 => {
            let zero = Expr { id: range.id, kind: ExprKind::Int(0), span: func.span };
            (zero, args.next())
        }
        _ => {
            if range.id.0 + 1 == ids.get() {
                ids.set(range.id.0);
            }
            (args.next().unwrap_or_else(|| unreachable!("2 or 3 arguments")), args.next())
        }
    };
    let end = end.unwrap_or_else(|| unreachable!("at least 1 argument"));
    Ok(Stmt::For { var, start, end, step: args.next().map(Box::new), body, span })
}

/// `target[i][j] = value;` (`op`: `target[i][j] op= value;`), a chain of two or more subscripts
/// as an assignment's target, with Python's semantics: everything but the last subscript is read
/// first, `t = target[i]`, then the last one assigned, `t[j] = value`. So it writes into `target`
/// where `target[i]` is a view (integers and slices: NumPy's basic indexing), and into a copy that
/// is then dropped where `target[i]` is a gather (an index array or mask), as NumPy does. `t` is
/// named `chain.OFFSET`, which no program can write ([`is_synthesized`]).
pub fn chained_assign(
    ids: &Cell<u32>,
    target: Ident,
    mut subs: Vec<(Vec<Index>, Span)>,
    op: Option<BinOp>,
    value: Expr,
    span: Span,
) -> Vec<Stmt> {
    let (index, last_span) = subs.pop().unwrap_or_else(|| unreachable!("the grammar gives two or more"));
    let temp = Ident { name: format!("chain.{}", span.start), span: target.span.start..last_span.start };
    let mut base = mk(ids, ExprKind::Var(target), temp.span.clone());
    for (index, sub_span) in subs {
        base = subscript(ids, base, index, temp.span.start..sub_span.end);
    }
    let read = Stmt::Let { names: vec![temp.clone()], value: base, span: temp.span.clone() };
    let write = match op {
        None => Stmt::SetItem { target: temp, index, value, span },
        Some(op) => Stmt::AugAssign { target: temp, index, op, value, span },
    };
    vec![read, write]
}

/// Whether `name` is one the parser made up (a tuple assignment's temporary, [`tuple_assign`], or
/// a chained subscript's view, [`chained_assign`]),
/// which no program can write and tools do not show.
pub fn is_synthesized(name: &str) -> bool {
    name.contains('.')
}

/// Python's assignment that declares: `x = e;` where no `x` is in scope (a parameter, a `let`, a
/// `for` variable, an earlier such assignment, in this block or one around it) is `let x = e;`, as
/// Python binds a name at its first assignment (`y = v * 2.0`, `a, b = np.meshgrid(u, v)`). Later
/// assignments to `x` rebind it. arrayc's scopes are blocks, so a name first assigned inside an
/// `if` branch or a loop body lives in that block (Python's live in the whole function): using it
/// after the block is E0201, whose help says to assign it before. Runs on the parsed program
/// before anything resolves names ([`crate::constants`] included), so every later phase sees a
/// `let`.
pub fn python_assignments(program: &mut Program) {
    let ids = Cell::new(program.num_exprs);
    for f in &mut program.functions {
        let params = f.params.iter().map(|p| p.name.name.clone()).collect();
        declare_first_assignments(&ids, &mut f.body, &mut vec![params]);
    }
    program.num_exprs = ids.get();
}

/// [`python_assignments`] in `b`, the names in scope around it in `scopes` (innermost last).
fn declare_first_assignments(ids: &Cell<u32>, b: &mut Block, scopes: &mut Vec<std::collections::HashSet<String>>) {
    scopes.push(Default::default());
    let mut k = 0;
    while k < b.stmts.len() {
        let declared =
            |scopes: &Vec<std::collections::HashSet<String>>, n: &str| scopes.iter().any(|sc| sc.contains(n));
        let s = &mut b.stmts[k];
        match s {
            Stmt::Let { names, .. } => {
                scopes.last_mut().expect("pushed above").extend(names.iter().map(|n| n.name.clone()))
            }
            Stmt::Assign { name, value, span } if !declared(scopes, &name.name) => {
                scopes.last_mut().expect("pushed above").insert(name.name.clone());
                let value = std::mem::replace(value, Expr { kind: ExprKind::Bool(false), span: 0..0, id: ExprId(0) });
                *s = Stmt::Let { names: vec![name.clone()], value, span: span.clone() };
            }
            Stmt::For { var, body, .. } => {
                scopes.push([var.name.clone()].into());
                declare_first_assignments(ids, body, scopes);
                scopes.pop();
            }
            Stmt::While { body, .. } => declare_first_assignments(ids, body, scopes),
            Stmt::If { then_block, else_block, .. } => {
                declare_first_assignments(ids, then_block, scopes);
                if let Some(e) = else_block {
                    declare_first_assignments(ids, e, scopes);
                }
                if let Some(lets) = branch_declarations(ids, s, scopes) {
                    let names = lets.iter().filter_map(|l| match l {
                        Stmt::Let { names, .. } if !is_branch_flag(l) => Some(names[0].name.clone()),
                        _ => None,
                    });
                    scopes.last_mut().expect("pushed above").extend(names);
                    let n = lets.len();
                    b.stmts.splice(k..=k, lets);
                    k += n;
                    continue;
                }
            }
            Stmt::Assign { .. }
            | Stmt::SetItem { .. }
            | Stmt::AugAssign { .. }
            | Stmt::Return { .. }
            | Stmt::Print { .. }
            | Stmt::Assert { .. }
            | Stmt::Break { .. }
            | Stmt::Continue { .. }
            | Stmt::Expr(_) => {}
        }
        k += 1;
    }
    scopes.pop();
}

/// The prefix of the name of an `if`'s condition in [`branch_declarations`] (`if.K`).
const BRANCH_FLAG: &str = "if.";

/// Whether `s` is the `let` of an `if`'s condition made by [`branch_declarations`].
fn is_branch_flag(s: &Stmt) -> bool {
    matches!(s, Stmt::Let { names, .. } if names.len() == 1 && names[0].name.starts_with(BRANCH_FLAG))
}

/// Python's names first assigned in both branches of an `if`/`else`, used after it:
/// `if c { y = a; z = b; } else { y = p; z = q; }`, where every statement of each branch is the
/// declaration of one new name ([`declare_first_assignments`] made them `let`s) and both branches
/// declare the same names in the same order (an `elif` chain is one such `if` in the `else` block,
/// already rewritten). It becomes `let if.K = c; let y = a if if.K else p; let z = b if if.K else
/// q;` (`if.K`, `K` the statement's offset, a name no program can write): the condition is
/// evaluated once, each value only in its branch, and a later value may read an earlier name, whose
/// value is its branch's. Of branches of different types the conditional expression gives E0316.
/// Any other `if` stays, and a name it declares is local to its branch (E0201 after it); so does an
/// `if` whose branches declare a name of the scopes around it (`scopes`: arrayc's `let` in a block
/// shadows it there).
fn branch_declarations(
    ids: &Cell<u32>,
    s: &mut Stmt,
    scopes: &[std::collections::HashSet<String>],
) -> Option<Vec<Stmt>> {
    let Stmt::If { cond, then_block, else_block: Some(else_block), span } = s else { return None };
    let single_lets = |b: &Block| -> Option<Vec<String>> {
        b.stmts
            .iter()
            .filter(|s| !is_branch_flag(s))
            .map(|s| match s {
                Stmt::Let { names, .. } if names.len() == 1 => Some(names[0].name.clone()),
                _ => None,
            })
            .collect()
    };
    let names = single_lets(then_block)?;
    let shadows = names.iter().any(|n| scopes.iter().any(|sc| sc.contains(n)));
    if names.is_empty() || shadows || single_lets(else_block)? != names {
        return None;
    }
    let flag = Ident { name: format!("{BRANCH_FLAG}{}", span.start), span: cond.span.clone() };
    let cond = std::mem::replace(cond, Expr { kind: ExprKind::Bool(false), span: 0..0, id: ExprId(0) });
    // A question about dtypes is decided at compile time in each value (`crate::dtype_queries`),
    // so each value reads a copy of it, not a flag.
    let question = crate::dtype_queries::asks_about_dtypes(&cond).then(|| cond.clone());
    let mut out = vec![Stmt::Let { names: vec![flag.clone()], value: cond, span: span.clone() }];
    if question.is_some() {
        out.clear();
    }
    // A branch that was itself such an `if` (an `elif`) starts with its flag: its condition is
    // written into each value instead, so that it is evaluated only where Python evaluates it.
    let values = |b: &mut Block| -> Vec<(Ident, Expr, Span)> {
        let mut flags: Vec<(String, Expr)> = vec![];
        let mut out = vec![];
        for s in std::mem::take(&mut b.stmts) {
            let Stmt::Let { mut names, mut value, span } = s else { continue };
            let name = names.remove(0);
            if name.name.starts_with(BRANCH_FLAG) {
                flags.push((name.name, value));
                continue;
            }
            value.for_each_mut(&mut |x| {
                if let ExprKind::Var(v) = &x.kind {
                    if let Some((_, c)) = flags.iter().find(|(f, _)| *f == v.name) {
                        *x = fresh_copy(ids, c);
                    }
                }
            });
            out.push((name, value, span));
        }
        out
    };
    for ((name, a, at), (_, b, _)) in values(then_block).into_iter().zip(values(else_block)) {
        let c = match &question {
            Some(q) => fresh_copy(ids, q),
            None => mk(ids, ExprKind::Var(flag.clone()), flag.span.clone()),
        };
        let value_span = a.span.start.min(b.span.start)..a.span.end.max(b.span.end);
        let value = mk(ids, ExprKind::IfElse(Box::new([c, a, b])), value_span);
        out.push(Stmt::Let { names: vec![name], value, span: at });
    }
    Some(out)
}

/// A target of a tuple assignment: a variable, with the subscript and its span when it is `x[...]`.
pub type Target = (Ident, Option<(Vec<Index>, Span)>);

/// A tuple assignment as the statements it stands for, with Python's semantics: every value of
/// the right side is evaluated first, into temporaries (named `tuple.OFFSET.K`, which no program
/// can write, and a valid MLIR value name), then assigned to the targets left to right:
/// `(a, b) = (b, a);` swaps, `a[i], a[j] = a[j], a[i];` swaps two elements (as in NumPy, a value
/// that is a view is assigned as it is when its turn comes). `value` is a tuple of as many values
/// as there are targets, or a call with that many results (a tuple of another length is E0106);
/// for one target, a call with one result or a tuple of one (`let (idx,) = nonzero(x);`, Python's
/// `idx, = np.nonzero(x)`), which the checker takes from the temporary `tuple.OFFSET.0`.
/// `declare`: `let (a, b) = ...;`, which declares the targets (the old form, a call's results, is
/// then one `let`).
/// NumPy's list of one gradient per axis unpacked, `gy, gx = np.gradient(f)` (one name per axis
/// of `f`; `np.` or `numpy.`, as a bare `gradient` may be a function of the program): the tuple `(gradient(f, axis=0), gradient(f, axis=1), ..)` of `names` gradients, `f`
/// written again for each (no effects). The rank of `f` is checked as `gradient`'s axis (E0405).
/// Any other value as it is.
pub fn gradient_per_axis(ids: &Cell<u32>, value: Expr, names: usize) -> Expr {
    let ExprKind::Call { func, args, kwargs } = &value.kind else { return value };
    // NumPy's qualified spelling only: a bare `gradient` may be a function of the program.
    if func.name != qualified("gradient") || args.len() != 1 || !kwargs.is_empty() || names < 2 {
        return value;
    }
    let at = value.span.clone();
    let items = (0..names)
        .map(|k| {
            let f = if k == 0 { args[0].clone() } else { fresh_copy(ids, &args[0]) };
            let axis =
                (Ident { name: "axis".to_string(), span: at.clone() }, mk(ids, ExprKind::Int(k as i64), at.clone()));
            let kind = ExprKind::Call { func: func.clone(), args: vec![f], kwargs: vec![axis] };
            if k == 0 {
                Expr { id: value.id, kind, span: at.clone() }
            } else {
                mk(ids, kind, at.clone())
            }
        })
        .collect();
    mk(ids, ExprKind::Tuple(items), at)
}

pub fn tuple_assign(
    ids: &Cell<u32>,
    targets: Vec<Target>,
    value: Expr,
    declare: bool,
    span: Span,
) -> Result<Vec<Stmt>, LexError> {
    if targets.iter().any(|(t, _)| crate::starred_targets::is_starred(&t.name)) {
        return crate::starred_targets::tuple_assign(ids, targets, value, declare, span);
    }
    let is_tuple = match &value.kind {
        ExprKind::Tuple(items) if items.len() == targets.len() => true,
        ExprKind::Tuple(items) => {
            return Err(LexError::TupleLength { targets: targets.len(), values: items.len(), span: value.span });
        }
        _ => false,
    };
    // `let (a, b) = f(x);` declares from the call's results; `let (a,) = f(x);` goes through a
    // temporary, as `a, = f(x);` does, which the checker reads as a tuple of one result.
    if declare && !is_tuple && targets.len() > 1 {
        let names = targets.into_iter().map(|(n, _)| n).collect();
        return Ok(vec![Stmt::Let { names, value, span }]);
    }
    let temps: Vec<Ident> = (0..targets.len())
        .map(|k| Ident { name: format!("tuple.{}.{k}", span.start), span: targets[k].0.span.clone() })
        .collect();
    let mut out = Vec::new();
    match value.kind {
        ExprKind::Tuple(items) if is_tuple => {
            // The tuple leaves the tree; it is the last expression parsed (see `return_values`).
            if value.id.0 + 1 == ids.get() {
                ids.set(value.id.0);
            }
            for (t, e) in temps.iter().zip(items) {
                let span = e.span.clone();
                out.push(Stmt::Let { names: vec![t.clone()], value: e, span });
            }
        }
        _ => out.push(Stmt::Let { names: temps.clone(), value, span }),
    }
    for (target, t) in targets.into_iter().zip(temps) {
        let value = mk(ids, ExprKind::Var(t), target.0.span.clone());
        out.push(assign_to(target, value, declare));
    }
    Ok(out)
}

/// The statement that assigns `value` to `target`: `x[i] = value;`, `let x = value;` (`declare`) or
/// `x = value;`.
pub(crate) fn assign_to((name, index): Target, value: Expr, declare: bool) -> Stmt {
    match index {
        Some((index, span)) => Stmt::SetItem { target: name, index, value, span },
        None if declare => Stmt::Let { span: name.span.clone(), names: vec![name], value },
        None => Stmt::Assign { span: name.span.clone(), name, value },
    }
}

/// Whether `e` is a literal (`0.0`, `-1`, `true`): cheap and without effects, so that
/// [`chain_assign`] gives each target the literal itself (a weak scalar, as Python's, which takes
/// each target's dtype).
fn is_literal(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Int(_) | ExprKind::Float(_) | ExprKind::Bool(_) => true,
        ExprKind::Unary(_, a) => is_literal(a),
        _ => false,
    }
}

/// A copy of the literal `e` ([`is_literal`]) under fresh ids.
fn literal_copy(ids: &Cell<u32>, e: &Expr) -> Expr {
    let kind = match &e.kind {
        ExprKind::Unary(op, a) => ExprKind::Unary(*op, Box::new(literal_copy(ids, a))),
        kind => kind.clone(),
    };
    mk(ids, kind, e.span.clone())
}

/// Python's chained assignment `a = b = e;` (also `x[i] = y[j] = e;`, and `let a = b = e;`,
/// `declare`, which declares every target): `e` is evaluated once, into a temporary named
/// `assign.OFFSET` ([`is_synthesized`]), then assigned to the targets left to right. An array is
/// not copied: every name refers to the same array, as in Python. A literal `e` is written into
/// each assignment instead (it is evaluated no differently, and stays weak: `x = n = 0` with `x`
/// an `f64` and `n` an `i64` is valid, as in Python). `first` is the leftmost target; `mids` the
/// others, parsed as expressions: each must be a name, or (without `let`) a name's subscript.
pub fn chain_assign(
    ids: &Cell<u32>,
    first: Target,
    (mids, value): (Vec<Expr>, Expr),
    declare: bool,
    span: Span,
) -> Result<Vec<Stmt>, LexError> {
    let mut targets = vec![first];
    for e in mids {
        targets.push(match e.kind {
            ExprKind::Var(name) => (name, None),
            ExprKind::Subscript { base, index } if !declare && matches!(base.kind, ExprKind::Var(_)) => {
                let ExprKind::Var(name) = base.kind else { unreachable!("matched above") };
                (name, Some((index, e.span)))
            }
            _ => return Err(LexError::NotATarget { declare, span: e.span }),
        });
    }
    if is_literal(&value) {
        let copies: Vec<Expr> = (1..targets.len()).map(|_| literal_copy(ids, &value)).collect();
        let values = std::iter::once(value).chain(copies);
        return Ok(targets.into_iter().zip(values).map(|(t, v)| assign_to(t, v, declare)).collect());
    }
    let temp = Ident { name: format!("assign.{}", span.start), span: value.span.clone() };
    let mut out = vec![Stmt::Let { names: vec![temp.clone()], span: value.span.clone(), value }];
    for target in targets {
        let value = mk(ids, ExprKind::Var(temp.clone()), target.0.span.clone());
        out.push(assign_to(target, value, declare));
    }
    Ok(out)
}

/// A statement of a name alone, `name;`: Python's `pass`, a statement that does nothing (none is
/// made: `if c { pass; } else { .. }` has an empty first block). `pass` is no keyword, so a
/// variable may still be called `pass`. Any other name alone is [`LexError::BareName`]: Python
/// evaluates the name and drops it, which does nothing either, but a port that writes it meant
/// something else (`x;` for `return x;`).
pub fn bare_name(name: Ident) -> Result<Vec<Stmt>, LexError> {
    match name.name.as_str() {
        "pass" => Ok(vec![]),
        _ => Err(LexError::BareName { name: name.name, span: name.span }),
    }
}

/// One item of a source file as the parser reads it: a function, or one of the module-level
/// statements of a Python script that [`module`] takes.
pub enum TopItem {
    Function(Function),
    /// `NAME = value;`, a module-level constant (Python's global), with the statement's span.
    Global(Ident, Expr, Span),
    /// `import numpy as np;` and the like: the words after the first (`import`), which must be
    /// [`IMPORTS`]' (checked by [`module`]).
    Import(Ident, Vec<Ident>, Span),
    /// A string statement: a module's docstring, which does nothing.
    Doc,
}

/// The imports a ported script may keep, as the words after `import`: NumPy's module under its
/// usual names, and `math` (arrayc knows both without them: `np.` and `math.` name its builtins).
pub const IMPORTS: [&[&str]; 4] = [&["numpy", "as", "np"], &["numpy"], &["math"], &["numpy", "as", "numpy"]];

/// The program of a source file's items ([`TopItem`]). Imports are checked ([`IMPORTS`]) and
/// dropped; docstrings dropped. A module-level constant `NAME = value;` is Python's global, read
/// by the functions that do not assign `NAME` themselves (Python's rule: a name a function
/// assigns anywhere in its body is its own local variable): a literal value (`EPS = 1e-9`,
/// `SCALE = 2`, `-1`, `True`) replaces each use of `NAME` in such a function, parameter defaults
/// included, so it stays weak as Python's number is (`x_f32 * EPS` is `f32`); any other value
/// (`W = np.array([0.25, 0.5, 0.25])`, `H = N // 2`) is a `let NAME = value;` at the top of the
/// function (with the constants it reads, in the file's order), evaluated at each call where
/// Python evaluates it once on import: the same value, since arrayc's expressions have no
/// effects. Python's module-level arrays are shared, mutable state; arrayc's are constants, so a
/// function that writes into one (`W[0] = 1.0`, `W += 1`) is [`LexError::Module`], as is a
/// constant that reads a name the function has as its own (which the `let` would shadow). The
/// constants go into the functions later, [`module_globals`].
pub fn module(ids: &Cell<u32>, items: Vec<TopItem>) -> Result<Program, LexError> {
    let mut functions = Vec::new();
    let mut globals: Vec<(Ident, Expr, Span)> = Vec::new();
    for item in items {
        match item {
            TopItem::Function(f) => functions.push(f),
            TopItem::Global(name, value, span) => globals.push((name, value, span)),
            TopItem::Import(first, words, span) => {
                let words: Vec<&str> = words.iter().map(|w| w.name.as_str()).collect();
                if first.name != "import" || !IMPORTS.contains(&words.as_slice()) {
                    return Err(LexError::Module {
                        message: format!(
                            "`{} {}` is not a module-level statement of arrayc",
                            first.name,
                            words.join(" ")
                        ),
                        help: "a module may hold functions, constants `NAME = value;`, docstrings and \
                               `import numpy as np;` or `import math;` (arrayc knows `np.` and `math.` without them)"
                            .to_string(),
                        span,
                    });
                }
            }
            TopItem::Doc => {}
        }
    }
    Ok(Program { functions, globals, num_exprs: ids.get() })
}

/// Moves the program's module-level constants into the functions that read them ([`module`]), and
/// empties [`Program::globals`]. Runs after the nesting check (E0104), since its walks recurse.
pub fn module_globals(program: &mut Program) -> Result<(), LexError> {
    let globals = std::mem::take(&mut program.globals);
    if globals.is_empty() {
        return Ok(());
    }
    let ids = Cell::new(program.num_exprs);
    for f in &mut program.functions {
        module_constants(&ids, f, &globals)?;
    }
    program.num_exprs = ids.get();
    Ok(())
}

/// The names `b` reads (variables), assigns (`let`, `=`, `for` variables) and writes into
/// (`x[i] = ..`, `x op= ..`), nested blocks included.
pub(crate) fn block_names(
    b: &Block,
    read: &mut HashSet<String>,
    assigned: &mut HashSet<String>,
    written: &mut HashSet<String>,
) {
    for s in &b.stmts {
        let mut s = s.clone();
        for e in s.own_exprs_mut() {
            expr_names(e, read);
        }
        match &s {
            Stmt::Let { names, .. } => assigned.extend(names.iter().map(|n| n.name.clone())),
            Stmt::Assign { name, .. } => {
                assigned.insert(name.name.clone());
            }
            Stmt::SetItem { target, .. } | Stmt::AugAssign { target, .. } => {
                written.insert(target.name.clone());
                read.insert(target.name.clone());
            }
            Stmt::For { var, body, .. } => {
                assigned.insert(var.name.clone());
                block_names(body, read, assigned, written);
            }
            Stmt::While { body, .. } => block_names(body, read, assigned, written),
            Stmt::If { then_block, else_block, .. } => {
                block_names(then_block, read, assigned, written);
                if let Some(e) = else_block {
                    block_names(e, read, assigned, written);
                }
            }
            _ => {}
        }
    }
}

/// The variables `e` reads.
fn expr_names(e: &mut Expr, read: &mut HashSet<String>) {
    e.walk_mut(&mut |x| {
        if let ExprKind::Var(v) = &x.kind {
            read.insert(v.name.clone());
        }
    });
}

/// [`module`]'s constants in the function `f`.
fn module_constants(ids: &Cell<u32>, f: &mut Function, globals: &[(Ident, Expr, Span)]) -> Result<(), LexError> {
    let (mut read, mut assigned, mut written) = (HashSet::new(), HashSet::new(), HashSet::new());
    block_names(&f.body, &mut read, &mut assigned, &mut written);
    for p in &f.params {
        if let Some(d) = &p.default {
            expr_names(&mut d.clone(), &mut read);
        }
        let mut symbols = std::collections::BTreeSet::new();
        for d in p.ty.dims.iter().flatten() {
            crate::check::sig::dim_symbols(d, &mut symbols);
        }
        assigned.extend(symbols);
        assigned.insert(p.name.name.clone());
    }
    // The constants the function reads, and those their values read (later ones first).
    let mut needed: HashSet<String> = HashSet::new();
    let mut by_value: HashSet<String> = HashSet::new();
    for (name, value, _) in globals.iter().rev() {
        let direct = read.contains(&name.name) && !assigned.contains(&name.name);
        let through = by_value.contains(&name.name);
        if !(direct || through) {
            continue;
        }
        if assigned.contains(&name.name) {
            return Err(LexError::Module {
                message: format!(
                    "a module-level constant reads `{}`, which function `{}` has as a name of its own",
                    name.name, f.name.name
                ),
                help: format!("rename one of them: arrayc gives each function the constants it reads, and its `{}` would hide the module's", name.name),
                span: name.span.clone(),
            });
        }
        needed.insert(name.name.clone());
        expr_names(&mut value.clone(), &mut by_value);
    }
    if let Some(w) = written.iter().find(|w| needed.contains(*w)) {
        return Err(LexError::Module {
            message: format!(
                "function `{}` writes into the module-level `{w}`: arrayc's module-level names are constants",
                f.name.name
            ),
            help: format!("pass the array as a parameter, or write into a copy: `{w}_ = {w}.copy()`"),
            span: f.name.span.clone(),
        });
    }
    // A constant defined once by a literal replaces its uses; the others are `let`s, every
    // definition in the file's order (`N = 8; H = N // 2; N = 16;` gives `H` 4, as Python).
    let once_literal = |name: &str| {
        let mut defs = globals.iter().filter(|(n, _, _)| n.name == name);
        match (defs.next(), defs.next()) {
            (Some((_, v, _)), None) if is_literal(v) => Some(v.clone()),
            _ => None,
        }
    };
    let subst: std::collections::HashMap<String, Expr> =
        needed.iter().filter_map(|n| Some((n.clone(), once_literal(n)?))).collect();
    let lets: Vec<Stmt> = globals
        .iter()
        .filter(|(n, _, _)| needed.contains(&n.name) && !subst.contains_key(&n.name))
        .map(|(n, v, span)| Stmt::Let { names: vec![n.clone()], value: fresh_copy(ids, v), span: span.clone() })
        .collect();
    f.body.stmts.splice(0..0, lets);
    f.for_each_expr_mut(&mut |e| {
        if let ExprKind::Var(v) = &e.kind {
            if let Some(value) = subst.get(&v.name) {
                let span = e.span.clone();
                *e = literal_copy(ids, value);
                e.for_each_mut(&mut |x| x.span = span.clone());
            }
        }
    });
    Ok(())
}

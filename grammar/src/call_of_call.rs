//! Python's call of a call, `f(a)(b)` (issue 31), rewritten as it is parsed: the callee is one of
//! NumPy's function factories, called at once (`docs/language.md`, "Calls of calls").
//!
//! - `np.vectorize(f)(a, b, ..)` (also `otypes=[T]`): NumPy calls `f` on each element of the
//!   arguments broadcast together. Where `f` is a `lambda` written in the call whose body is only
//!   operators on its parameters and literals (each parameter read), that is `f` applied to the
//!   arrays (elementwise). Otherwise (a body with a conditional expression or calls, a lambda bound
//!   to a name, a function of the program: a scalar function may branch) it is a loop over the
//!   elements, `np.array([f(e) for e in np.ravel(a)]).reshape(a.shape)`, the arguments broadcast
//!   first (`np.where(m, a, a)` with `m` a bool array of the broadcast shape). `otypes=[T]` gives
//!   the dtype (NumPy's unsafe cast, `np.array(.., dtype=T)`). A Python number as an argument is a
//!   NumPy scalar of its default dtype (NumPy converts the arguments with `asanyarray`), not weak.
//! - `np.poly1d(c)(x)` is `np.polyval(c, x)` (NumPy's `poly1d.__call__`); `np.poly1d(c).deriv(m)(x)`
//!   `np.polyval(np.polyder(c, m), x)`, `.integ(m)(x)` with `np.polyint`.
//! - `(lambda v: ..)(x)`: the lambda called where it is written ([`crate::lambda`] inlines it as a
//!   lambda bound to a name).
//!
//! The call is written as a call of [`CALL`] whose first argument is the callee; [`crate::lambda`]
//! inlines those whose callee is a lambda. Any other callee is E0215 (at parse time), naming the
//! arrayc way.

use crate::ast::{Block, DType, Expr, ExprKind, Ident, Program, Span, Stmt};
use crate::compositions::Build;
use crate::diag::Diagnostic;
use crate::lambda::LAMBDA;
use crate::lexer::LexError;
use crate::syntax::{split_args, ForTarget};
use std::cell::Cell;
use std::collections::HashMap;

/// The name of the call the parser writes for `callee(args)` where the callee is not a name:
/// the callee, then the arguments (no program can write the name).
pub const CALL: &str = "call()";

/// `callee(all)`, parsed at `span` (see the module's docs).
pub fn call(ids: &Cell<u32>, callee: Expr, all: Vec<(Option<Ident>, Expr)>, span: Span) -> Result<Expr, LexError> {
    if crate::star_args::has_star(&all) {
        return Err(refused(
            &span,
            "a star argument in a call of a call",
            "write the arguments out, `f(a)(t[0], t[1])`",
        ));
    }
    let (args, kwargs) = split_args(all);
    let b = Build { ids, at: span.clone() };
    let ExprKind::Call { func, args: inner, kwargs: inner_kw } = &callee.kind else {
        return Err(not_callable(&span));
    };
    let name = func.name.strip_prefix(crate::builtin::QUALIFIED).unwrap_or(&func.name);
    match name {
        LAMBDA => Ok(b.e(ExprKind::Call { func: b.kw(CALL), args: [vec![callee], args].concat(), kwargs })),
        "vectorize" => vectorize(&b, inner, inner_kw, args, kwargs),
        "poly1d" => poly1d(&b, &callee, None, args, kwargs),
        ".deriv" | ".integ" => match inner.first().map(|p| &p.kind) {
            Some(ExprKind::Call { func: p, .. })
                if p.name.trim_start_matches(crate::builtin::QUALIFIED) == "poly1d" =>
            {
                let calculus = if name == ".deriv" { "polyder" } else { "polyint" };
                let m = inner.get(1).map(|m| b.copy(m));
                if inner.len() > 2 || !inner_kw.iter().all(|(k, _)| k.name == "m") {
                    return Err(refused(&span, "this `poly1d` method", "`p.deriv(m)(x)`, `p.integ(m)(x)`"));
                }
                let m = m.or_else(|| inner_kw.first().map(|(_, m)| b.copy(m)));
                poly1d(&b, &inner[0], Some((calculus, m)), args, kwargs)
            }
            // `p.deriv()(x)` of a name: [`bound`]'s, where `p = np.poly1d(c)`.
            Some(ExprKind::Var(_)) => {
                Ok(b.e(ExprKind::Call { func: b.kw(CALL), args: [vec![b.copy(&callee)], args].concat(), kwargs }))
            }
            _ => Err(not_callable(&span)),
        },
        _ => Err(not_callable(&span)),
    }
}

/// E0215, the refusal of a call of a call: `what`, and the arrayc way.
fn refused(span: &Span, what: &str, help: &str) -> LexError {
    LexError::CallOfCall { message: format!("arrayc cannot call {what}"), help: help.to_string(), span: span.clone() }
}

/// E0215 for a callee that is none of this module's.
fn not_callable(span: &Span) -> LexError {
    refused(
        span,
        "the result of this call",
        "arrayc calls the result of `np.vectorize(f)`, `np.poly1d(c)` (`.deriv()`, `.integ()`) and a `lambda` \
         written in place; call a function of the program or a lambda bound to a name, `f(x)`",
    )
}

/// `np.poly1d(c)(x)`, with `calculus` the method in between (`polyder`/`polyint` and its order).
fn poly1d(
    b: &Build,
    p: &Expr,
    calculus: Option<(&str, Option<Expr>)>,
    args: Vec<Expr>,
    kwargs: Vec<(Ident, Expr)>,
) -> Result<Expr, LexError> {
    let ExprKind::Call { args: c, kwargs: c_kw, .. } = &p.kind else { return Err(not_callable(&b.at)) };
    let ([c], true, [x], true) = (c.as_slice(), c_kw.is_empty(), args.as_slice(), kwargs.is_empty()) else {
        return Err(refused(
            &b.at,
            "`np.poly1d` with these arguments",
            "`np.poly1d(c)(x)` of the coefficients `c` (highest power first) and one argument: it is `np.polyval(c, x)`",
        ));
    };
    let mut c = b.copy(c);
    if let Some((f, m)) = calculus {
        c = b.call(f, [vec![c], m.into_iter().collect()].concat(), vec![]);
        crate::spellings::rewrite_call(b.ids, f, &mut c);
    }
    Ok(b.call("polyval", vec![c, b.copy(x)], vec![]))
}

/// `np.vectorize(f, otypes=..)(args)` (see the module's docs).
fn vectorize(
    b: &Build,
    inner: &[Expr],
    inner_kw: &[(Ident, Expr)],
    args: Vec<Expr>,
    kwargs: Vec<(Ident, Expr)>,
) -> Result<Expr, LexError> {
    let mut f = inner.first();
    let mut otypes = None;
    for (k, v) in inner_kw {
        match k.name.as_str() {
            "pyfunc" if f.is_none() => f = Some(v),
            "otypes" => otypes = Some(otype(v)?),
            _ => {
                return Err(refused(
                    &b.at,
                    &format!("`np.vectorize` with `{}=`", k.name),
                    "arrayc's `np.vectorize(f, otypes=[T])` calls `f` on each element; for `signature=` or \
                     `excluded=` write the loop",
                ))
            }
        }
    }
    let (Some(f), true, false, true) = (f, inner.len() <= 1, args.is_empty(), kwargs.is_empty()) else {
        return Err(refused(
            &b.at,
            "`np.vectorize` with these arguments",
            "`np.vectorize(f)(a, b)`: one function, its arguments by position",
        ));
    };
    let fresh = b.ids.get();
    let params: Vec<Ident> = (0..args.len()).map(|k| b.kw(&format!("vectorize.{fresh}.a{k}"))).collect();
    let var = |p: &Ident| b.e(ExprKind::Var(p.clone()));
    let lambda = match &f.kind {
        ExprKind::Call { func, args: parts, .. } if func.name == LAMBDA => {
            let (body, ps) = parts.split_last().unwrap_or_else(|| unreachable!("a lambda has a body"));
            let ps: Vec<String> = ps
                .iter()
                .filter_map(|p| match &p.kind {
                    ExprKind::Var(v) => Some(v.name.clone()),
                    _ => None,
                })
                .collect();
            if ps.len() != args.len() {
                return Err(refused(
                    &b.at,
                    &format!("a lambda of {} parameters with {} arguments", ps.len(), args.len()),
                    "give one argument per parameter (NumPy's TypeError)",
                ));
            }
            let mut body = body.clone();
            if otypes.is_none() {
                mixed_branches(b.ids, &mut body);
            }
            Some((ps, body))
        }
        ExprKind::Var(_) => None,
        _ => {
            return Err(refused(
                &b.at,
                "`np.vectorize` of this function",
                "`np.vectorize(f)` of a lambda, the name of a lambda or a function of the program",
            ))
        }
    };
    // The function on the elements named `elems`.
    let apply = |elems: &[Expr]| match &lambda {
        Some((ps, body)) => {
            let values: HashMap<String, Expr> = ps.iter().cloned().zip(elems.iter().cloned()).collect();
            let mut body = b.copy(body);
            crate::lambda::substitute(&mut body, &values);
            body
        }
        None => {
            let ExprKind::Var(name) = &f.kind else { unreachable!("a name") };
            b.e(ExprKind::Call { func: name.clone(), args: elems.to_vec(), kwargs: vec![] })
        }
    };
    let body = match &lambda {
        Some((ps, body)) if otypes.is_none() && elementwise(body, ps, true) => {
            apply(&params.iter().map(var).collect::<Vec<_>>())
        }
        _ => {
            // The arguments broadcast together: `where(m, a, a)` with `m` a bool array of the
            // broadcast shape (`a == a` of each, joined by `|`).
            let mask = params
                .iter()
                .map(|p| b.bin(crate::ast::BinOp::Eq, var(p), var(p)))
                .reduce(|m, e| b.bin(crate::ast::BinOp::Or, m, e))
                .unwrap_or_else(|| unreachable!("an argument"));
            let spread: Vec<Expr> = match params.len() {
                1 => vec![var(&params[0])],
                _ => params.iter().map(|p| b.call("where", vec![b.copy(&mask), var(p), var(p)], vec![])).collect(),
            };
            let elems: Vec<Ident> = (0..params.len()).map(|k| b.kw(&format!("vectorize.{fresh}.e{k}"))).collect();
            let flat: Vec<Expr> = spread.into_iter().map(|a| b.call("ravel", vec![a], vec![])).collect();
            let (target, it) = match elems.len() {
                1 => (ForTarget::Name(elems[0].clone()), flat.into_iter().next().unwrap_or_else(|| unreachable!())),
                _ => (
                    ForTarget::Tuple(elems.iter().cloned().map(ForTarget::Name).collect(), b.at.clone()),
                    b.e(ExprKind::Call { func: b.kw("zip"), args: flat, kwargs: vec![] }),
                ),
            };
            let elt = apply(&elems.iter().map(var).collect::<Vec<_>>());
            let list = crate::comprehension::comprehension(b.ids, None, elt, vec![(target, it, None)], b.at.clone())?;
            let dtype = otypes.map(|d| (b.kw("dtype"), b.e(ExprKind::DTypeName(d))));
            let values = b.call("array", vec![list], dtype.into_iter().collect());
            let shaped = match params.len() {
                1 => var(&params[0]),
                _ => mask,
            };
            let shape = crate::syntax::attribute(b.ids, shaped, b.kw("shape"), b.at.clone())?;
            crate::syntax::method_call(b.ids, values, b.kw("reshape"), vec![(None, shape)], b.at.clone())?
        }
    };
    let lambda = crate::lambda::lambda(b.ids, params, body, b.at.clone());
    let args = args.into_iter().map(|a| numpy_scalar(b, a)).collect::<Vec<_>>();
    Ok(b.e(ExprKind::Call { func: b.kw(CALL), args: [vec![lambda], args].concat(), kwargs: vec![] }))
}

/// A Python number as an argument of a vectorized function: the NumPy scalar `asanyarray` makes
/// of it (`i64`, `f64`, `bool`), not a weak literal.
fn numpy_scalar(b: &Build, a: Expr) -> Expr {
    let literal = |e: &Expr| match &e.kind {
        ExprKind::Int(_) => Some(DType::I64),
        ExprKind::Float(_) => Some(DType::F64),
        ExprKind::Bool(_) => Some(DType::Bool),
        _ => None,
    };
    let d = match &a.kind {
        ExprKind::Unary(crate::ast::UnOp::Neg, v) => literal(v),
        _ => literal(&a),
    };
    match d {
        Some(d) => b.e(ExprKind::Call { func: b.kw(d.name()), args: vec![a], kwargs: vec![] }),
        None => a,
    }
}

/// `otypes=[T]` (or `(T,)`, `[float]`, `"d"`): the dtype `T`.
fn otype(v: &Expr) -> Result<DType, LexError> {
    let one = match &v.kind {
        ExprKind::List(items) | ExprKind::Tuple(items) if items.len() == 1 => Some(&items[0]),
        _ => None,
    };
    // Each item read as `dtype=`'s value is (Python's types, `np.dtype`'s strings).
    let dtype = Ident { name: "dtype".to_string(), span: v.span.clone() };
    let d = one.and_then(|e| match crate::syntax::keyword_value(&dtype, e.clone()).kind {
        ExprKind::DTypeName(d) => Some(d),
        _ => None,
    });
    d.ok_or_else(|| {
        refused(
            &v.span,
            "`np.vectorize` with these `otypes=`",
            "one output type, `otypes=[np.float64]` (or `[float]`, `[int]`)",
        )
    })
}

/// Whether `body` is only operators and NumPy's elementwise math functions (`np.sqrt`, `abs`, ..)
/// on the parameters `ps` and literals, each parameter read where `all_read`: the lambda applied to
/// the arrays is its application to each element.
pub(crate) fn elementwise(body: &Expr, ps: &[String], all_read: bool) -> bool {
    let mut ok = true;
    let mut read = vec![false; ps.len()];
    body.clone().walk_mut(&mut |e| match &e.kind {
        ExprKind::Var(v) => match ps.iter().position(|p| *p == v.name) {
            Some(k) => read[k] = true,
            None => ok = false,
        },
        ExprKind::Int(_) | ExprKind::Float(_) | ExprKind::Bool(_) | ExprKind::Binary(..) | ExprKind::Unary(..) => {}
        ExprKind::Call { func, kwargs, .. } if kwargs.is_empty() && math(&func.name) => {}
        _ => ok = false,
    });
    ok && (!all_read || read.iter().all(|r| *r))
}

/// Whether `name` is NumPy's elementwise math function (`np.sqrt`; Python's `abs`).
fn math(name: &str) -> bool {
    let numpy = name.starts_with(crate::builtin::QUALIFIED) || name == "abs";
    numpy && matches!(crate::builtin::Builtin::from_name(name), Some(crate::builtin::elementwise_math!()))
}

/// The conditional expressions of the lambda `body` that give a number literal in one branch and
/// something else in the other, wrapped in `vectorize.branches(..)`: NumPy's `vectorize` takes its
/// dtype from the first element's result, so the checker refuses them where the branches' dtypes
/// differ (`check/vectorize.rs`: `1 if v > 0 else v * 0.5` is `int64` where the first element is
/// positive).
fn mixed_branches(ids: &Cell<u32>, body: &mut Expr) {
    let literal = |e: &Expr| match &e.kind {
        ExprKind::Unary(crate::ast::UnOp::Neg, v) => matches!(v.kind, ExprKind::Int(_) | ExprKind::Float(_)),
        ExprKind::Int(_) | ExprKind::Float(_) | ExprKind::Bool(_) => true,
        _ => false,
    };
    let mut mixed = std::collections::HashSet::new();
    body.clone().walk_mut(&mut |e| {
        if let ExprKind::IfElse(parts) = &e.kind {
            if literal(&parts[1]) != literal(&parts[2]) {
                mixed.insert(e.id);
            }
        }
    });
    body.walk_mut(&mut |e| {
        if matches!(e.kind, ExprKind::IfElse(_)) && mixed.remove(&e.id) {
            {
                let inner = e.clone();
                let func = Ident { name: "vectorize.branches".into(), span: e.span.clone() };
                let id = ids.get();
                ids.set(id + 1);
                *e = Expr {
                    id: crate::ast::ExprId(id),
                    kind: ExprKind::Call { func, args: vec![inner], kwargs: vec![] },
                    span: e.span.clone(),
                };
            }
        }
    });
}

/// Whether `value` makes a function that [`call`] calls: `np.vectorize(..)`, `np.poly1d(..)`.
fn factory(value: &Expr) -> Option<&'static str> {
    let ExprKind::Call { func, .. } = &value.kind else { return None };
    match func.name.strip_prefix(crate::builtin::QUALIFIED).unwrap_or(&func.name) {
        "vectorize" => Some("vectorize"),
        "poly1d" => Some("poly1d"),
        _ => None,
    }
}

/// The name the coefficients of `p = np.poly1d(c)` are bound to (no program can write it).
fn coefficients(p: &str) -> String {
    format!("{p}.poly1d")
}

/// E0215 as a diagnostic (also the parser's, `crate::parse`).
pub fn diagnostic(message: String, help: String, span: Span) -> Diagnostic {
    Diagnostic::error("E0215", message, span, "called here").with_help(help)
}

/// A name bound once to `np.vectorize(f)` or `np.poly1d(c)` and called, `g = np.vectorize(f); g(x)`,
/// `p = np.poly1d(c); p(x)`, `p.deriv()(x)`: each call is the call of the bound value ([`call`]).
/// `np.vectorize(f)` is put in place at each call (its binding dropped); `np.poly1d(c)` keeps its
/// coefficients, `asarray(c)` (an alias, as NumPy's), bound to a name no program can write. Any
/// other use of the name, and a call of a call left (`q.deriv()(x)` of another `q`), is E0215.
/// Runs before [`crate::lambda::lambdas`].
pub fn bound(program: &mut Program) -> Vec<Diagnostic> {
    let ids = Cell::new(program.num_exprs);
    let mut diags = Vec::new();
    for f in &mut program.functions {
        let count = crate::py_lists::local_binding_counts(f);
        let mut found = HashMap::new();
        bindings(&ids, &mut f.body, &count, &mut found);
        f.body.for_each_expr_mut(&mut |e| {
            diags.extend(use_of(&ids, e, &found));
        });
    }
    program.num_exprs = ids.get();
    diags
}

/// Records the names of `b` bound once to a factory (in `found`, with the value) and rewrites their
/// bindings (see [`bound`]).
fn bindings(ids: &Cell<u32>, b: &mut Block, count: &HashMap<String, usize>, found: &mut HashMap<String, Expr>) {
    let mut out = Vec::with_capacity(b.stmts.len());
    for mut s in std::mem::take(&mut b.stmts) {
        for inner in s.blocks_mut() {
            bindings(ids, inner, count, found);
        }
        let name = match &mut s {
            Stmt::Let { names, value, .. } if names.len() == 1 => Some((&mut names[0], value)),
            Stmt::Assign { name, value, .. } => Some((name, value)),
            _ => None,
        };
        if let Some((name, value)) = name.filter(|(n, v)| count.get(&n.name) == Some(&1) && factory(v).is_some()) {
            found.insert(name.name.clone(), value.clone());
            if factory(value) == Some("vectorize") {
                continue;
            }
            let ExprKind::Call { args, kwargs, .. } = &mut value.kind else { unreachable!("a call") };
            if let ([c], true) = (args.as_slice(), kwargs.is_empty()) {
                let b = Build { ids, at: value.span.clone() };
                *value = b.call("asarray", vec![c.clone()], vec![]);
                name.name = coefficients(&name.name);
            }
        }
        out.push(s);
    }
    b.stmts = out;
}

/// The rewrite of `e` where it uses a name of `found` (see [`bound`]).
fn use_of(ids: &Cell<u32>, e: &mut Expr, found: &HashMap<String, Expr>) -> Option<Diagnostic> {
    let to_diag = |error: LexError| match error {
        LexError::CallOfCall { message, help, span } => diagnostic(message, help, span),
        other => Diagnostic::error("E0215", other.to_string(), other.span(), "here"),
    };
    let b = Build { ids, at: e.span.clone() };
    // The callee of a bound name: `vectorize(f)` as bound, `poly1d(p.poly1d)`.
    let callee = |n: &str| {
        let value = found.get(n)?;
        Some(match factory(value) {
            Some("vectorize") => b.copy(value),
            _ => b.call("poly1d", vec![b.e(ExprKind::Var(b.kw(&coefficients(n))))], vec![]),
        })
    };
    match &mut e.kind {
        ExprKind::Call { func, args, kwargs } if found.contains_key(&func.name) => {
            let f = callee(&func.name)?;
            let all = args.drain(..).map(|a| (None, a)).chain(kwargs.drain(..).map(|(k, v)| (Some(k), v))).collect();
            match call(ids, f, all, e.span.clone()) {
                Ok(new) => *e = new,
                Err(error) => return Some(to_diag(error)),
            }
        }
        ExprKind::Call { func, args, kwargs } if func.name == CALL => {
            if let Some(ExprKind::Call { func: m, args: base, .. }) = args.first_mut().map(|c| &mut c.kind) {
                if let (".deriv" | ".integ", Some(ExprKind::Var(p))) = (m.name.as_str(), base.first().map(|p| &p.kind))
                {
                    if let Some(f) = callee(&p.name) {
                        base[0] = f;
                        let callee = args.remove(0);
                        let all = args
                            .drain(..)
                            .map(|a| (None, a))
                            .chain(kwargs.drain(..).map(|(k, v)| (Some(k), v)))
                            .collect();
                        match call(ids, callee, all, e.span.clone()) {
                            Ok(new) => *e = new,
                            Err(error) => return Some(to_diag(error)),
                        }
                        return None;
                    }
                }
            }
            if !matches!(args.first().map(|c| &c.kind), Some(ExprKind::Call { func, .. }) if func.name == LAMBDA) {
                return Some(to_diag(not_callable(&e.span)));
            }
        }
        ExprKind::Var(v) if found.contains_key(&v.name) => {
            return Some(diagnostic(
                format!("arrayc cannot use `{}` other than by calling it", v.name),
                format!(
                    "`{}` is NumPy's `{}(..)`, which arrayc only calls, `{}(x)`; for its coefficients or its \
                     function, bind those to a name",
                    v.name,
                    factory(&found[&v.name]).unwrap_or("vectorize"),
                    v.name
                ),
                e.span.clone(),
            ));
        }
        _ => {}
    }
    None
}

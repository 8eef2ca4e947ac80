//! Python's starred assignment targets, `a, *rest = t`, `first, *mid, last = t`, `*init, z = t`
//! (`docs/language.md`, "Starred targets").
//!
//! The parser marks the starred name (`*rest`, [`starred`]); [`tuple_assign`] binds every value
//! to a temporary first, as Python's tuple assignment does, the starred one named `*tuple.OFFSET.K`
//! in one `let` of all of them, then assigns the targets. [`crate::tuple_names`] takes that `let`
//! apart ([`unpack`]) once it knows what the value is:
//!
//! - a tuple of `k` values the front end knows (written out, bound to a name, a call with `k`
//!   results, `x.shape`): the targets before and after the star take theirs, the starred one the
//!   tuple of the rest (Python's list: `len(rest)`, `rest[0]`, `for v in rest` as a tuple name's);
//!   fewer than the other targets is E0106 (Python's ValueError);
//! - anything else is an array, which NumPy iterates along axis 0: the targets take the rows
//!   `a[i]` (views, as Python's items are), the starred one Python's list of the rows between,
//!   arrayc's view `a[s:-t]`; fewer rows than the other targets is a run-time error naming the
//!   line. Where that list and the view differ (`rest * 2` repeats a list, `sum(rest)` adds rows
//!   from `0`), the use is E0327 ([`list_uses`]): `len(rest)`, `rest[i]`, `for r in rest`,
//!   `np.array(rest)` and `np.stack(rest)` are the same for both.

use crate::ast::{BinOp, Block, Expr, ExprKind, Ident, Index, Span, Stmt};
use crate::diag::Diagnostic;
use crate::lexer::LexError;
use crate::syntax::{mk, Target};
use std::cell::Cell;
use std::collections::HashSet;

/// The mark of a starred name (`*rest`).
const STAR: char = '*';

/// The starred target `*name` at `span`.
pub fn starred(name: Ident, span: Span) -> Ident {
    Ident { name: format!("{STAR}{}", name.name), span }
}

/// Whether `name` is a starred target's ([`starred`]).
pub fn is_starred(name: &str) -> bool {
    name.starts_with(STAR)
}

/// The tuple assignment `targets = value` with one starred target (see the module's docs).
pub fn tuple_assign(
    ids: &Cell<u32>,
    targets: Vec<Target>,
    value: Expr,
    declare: bool,
    span: Span,
) -> Result<Vec<Stmt>, LexError> {
    let stars: Vec<&Target> = targets.iter().filter(|(t, _)| is_starred(&t.name)).collect();
    if stars.len() > 1 {
        return Err(LexError::Starred {
            message: "two starred targets in one assignment".into(),
            help: "Python allows one `*name` per assignment (SyntaxError): `a, *rest = t`".into(),
            span: stars[1].0.span.clone(),
        });
    }
    let temps: Vec<Ident> = targets
        .iter()
        .enumerate()
        .map(|(k, (t, _))| {
            let star = if is_starred(&t.name) { "*" } else { "" };
            Ident { name: format!("{star}tuple.{}.{k}", span.start), span: t.span.clone() }
        })
        .collect();
    let mut out = vec![Stmt::Let { names: temps.clone(), value, span }];
    for ((name, index), t) in targets.into_iter().zip(temps) {
        let name = Ident { name: name.name.trim_start_matches(STAR).to_string(), span: name.span };
        let t = Ident { name: t.name.trim_start_matches(STAR).to_string(), span: t.span };
        let value = mk(ids, ExprKind::Var(t), name.span.clone());
        out.push(crate::syntax::assign_to((name, index), value, declare));
    }
    Ok(out)
}

/// The statements that bind `names` (one starred) from `value`: `elements` where the value is a
/// tuple of known elements (the starred name's `let` of a tuple, which the caller takes apart as
/// a tuple name), else the rows of an array (see the module's docs). `rows` gets the names bound
/// to a list of rows. `None`: fewer values than targets (E0106, in `errors`).
pub fn unpack(
    ids: &Cell<u32>,
    names: &[Ident],
    value: Expr,
    elements: Option<Vec<Expr>>,
    span: &Span,
    rows: &mut HashSet<String>,
    errors: &mut Vec<Diagnostic>,
) -> Vec<Stmt> {
    let s = names.iter().position(|n| is_starred(&n.name)).unwrap_or(0);
    let after = names.len() - 1 - s;
    let plain = |n: &Ident| Ident { name: n.name.trim_start_matches(STAR).to_string(), span: n.span.clone() };
    let at = |i: i64| Index::At(mk(ids, ExprKind::Int(i), span.clone()));
    let mut out = Vec::new();
    let let_ = |n: Ident, value: Expr| Stmt::Let { names: vec![n], value, span: span.clone() };
    if let Some(mut items) = elements {
        let k = items.len();
        if k < names.len() - 1 {
            errors.push(
                Diagnostic::error(
                    "E0106",
                    format!(
                        "not enough values to unpack: {} targets besides the starred one, {k} values",
                        names.len() - 1
                    ),
                    value.span.clone(),
                    format!("{k} values"),
                )
                .with_note("Python raises ValueError: a starred assignment needs at least one value per other target"),
            );
            return out;
        }
        let tail = items.split_off(k - after);
        let middle = items.split_off(s);
        for (n, e) in names[..s].iter().zip(items) {
            out.push(let_(n.clone(), e));
        }
        out.push(let_(plain(&names[s]), mk(ids, ExprKind::Tuple(middle), span.clone())));
        for (n, e) in names[s + 1..].iter().zip(tail) {
            out.push(let_(n.clone(), e));
        }
        return out;
    }
    // An array: its rows, after a check of their number.
    let a = Ident { name: format!("star.{}", span.start), span: span.clone() };
    let var = || mk(ids, ExprKind::Var(a.clone()), span.clone());
    out.push(let_(a.clone(), value));
    let len = mk(
        ids,
        ExprKind::Call { func: Ident { name: "len".into(), span: span.clone() }, args: vec![var()], kwargs: vec![] },
        span.clone(),
    );
    let least = mk(ids, ExprKind::Int(names.len() as i64 - 1), span.clone());
    out.push(Stmt::Assert {
        cond: mk(ids, ExprKind::Binary(BinOp::Ge, Box::new(len), Box::new(least)), span.clone()),
        msg: Some(format!("ValueError: not enough values to unpack (expected at least {})", names.len() - 1)),
        span: span.clone(),
    });
    let sub = |index: Index| mk(ids, ExprKind::Subscript { base: Box::new(var()), index: vec![index] }, span.clone());
    for (i, n) in names[..s].iter().enumerate() {
        out.push(let_(n.clone(), sub(at(i as i64))));
    }
    let stop = (after > 0).then(|| mk(ids, ExprKind::Int(-(after as i64)), span.clone()));
    let start = Some(mk(ids, ExprKind::Int(s as i64), span.clone()));
    let middle = plain(&names[s]);
    rows.insert(middle.name.clone());
    out.push(let_(middle, sub(Index::Slice { start, stop, step: None, span: span.clone() })));
    for (j, n) in names[s + 1..].iter().enumerate() {
        out.push(let_(n.clone(), sub(at(j as i64 - after as i64))));
    }
    out
}

/// E0327 at each use of a name in `rows` (Python's list of an array's rows, arrayc's view of
/// them) other than those where the two agree: `len(r)`, `r[i]`, `for v in r`, `np.array(r)`,
/// `np.stack(r)`, or binding another name to it (which joins `rows`).
pub fn list_uses(body: &mut Block, rows: &mut HashSet<String>) -> Vec<Diagnostic> {
    if rows.is_empty() {
        return vec![];
    }
    // Names bound to such a name join it (`rest = tuple.OFFSET.1`).
    aliases(body, rows);
    let is_row_list = |e: &Expr| matches!(&e.kind, ExprKind::Var(x) if rows.contains(&x.name));
    let mut fine = HashSet::new();
    let mut errors = Vec::new();
    body.for_each_expr_mut(&mut |e| match &e.kind {
        ExprKind::Call { func, args, kwargs } if kwargs.is_empty() && args.len() == 1 && is_row_list(&args[0]) => {
            let name = func.name.strip_prefix(crate::builtin::QUALIFIED).unwrap_or(&func.name);
            if matches!(name, "len" | "array" | "stack") {
                fine.insert(args[0].id);
            }
            // NumPy's stack of the rows is the array of them.
            if func.name == crate::builtin::qualified("stack") {
                if let ExprKind::Call { func, .. } = &mut e.kind {
                    func.name = crate::builtin::qualified("array");
                }
            }
        }
        ExprKind::Subscript { base, index } if is_row_list(base) => {
            if let [Index::At(_)] = index.as_slice() {
                fine.insert(base.id);
            }
        }
        _ => {}
    });
    for_each_use(body, &mut |e, bound_to| {
        let ExprKind::Var(x) = &e.kind else { return };
        if !rows.contains(&x.name) || fine.contains(&e.id) || bound_to.is_some_and(|n| rows.contains(n)) {
            return;
        }
        let name = x.name.clone();
        errors.push(
            Diagnostic::error(
                "E0327",
                format!("`{name}` is Python's list of an array's rows here"),
                e.span.clone(),
                "used as a list",
            )
            .with_note(
                "arrayc has the starred target of an array as the view of the rows, which is Python's list only \
                 for `len(r)`, `r[i]`, `for v in r`, `np.array(r)` and `np.stack(r)`",
            )
            .with_help(format!(
                "make it an array first, `rows = np.array({name})` (Python's `sum({name})` of float rows is \
                 `np.array({name}).sum(axis=0)`), or slice the array: `a, rest = x[0], x[1:]`"
            )),
        );
    });
    errors
}

/// Adds to `rows` every name a `let` binds to one of them.
fn aliases(b: &Block, rows: &mut HashSet<String>) {
    for s in &b.stmts {
        match s {
            Stmt::Let { names, value: Expr { kind: ExprKind::Var(x), .. }, .. } if rows.contains(&x.name) => {
                rows.extend(names.iter().map(|n| n.name.clone()));
            }
            Stmt::For { body, .. } | Stmt::While { body, .. } => aliases(body, rows),
            Stmt::If { then_block, else_block, .. } => {
                aliases(then_block, rows);
                if let Some(e) = else_block {
                    aliases(e, rows);
                }
            }
            _ => {}
        }
    }
}

/// Calls `visit` on every expression of `b`, with the name a one-name `let` binds to it when it
/// is that `let`'s whole value (`let r = v;`, `for v in r`'s `let iter.N = r;`).
fn for_each_use(b: &mut Block, visit: &mut impl FnMut(&Expr, Option<&str>)) {
    for s in &mut b.stmts {
        let bound = match s {
            Stmt::Let { names, value, .. } if names.len() == 1 => Some((names[0].name.clone(), value.id)),
            _ => None,
        };
        for e in s.own_exprs_mut() {
            e.walk_mut(&mut |x| visit(x, bound.as_ref().filter(|(_, id)| *id == x.id).map(|(n, _)| n.as_str())));
        }
        match s {
            Stmt::For { body, .. } | Stmt::While { body, .. } => for_each_use(body, visit),
            Stmt::If { then_block, else_block, .. } => {
                for_each_use(then_block, visit);
                if let Some(e) = else_block {
                    for_each_use(e, visit);
                }
            }
            _ => {}
        }
    }
}

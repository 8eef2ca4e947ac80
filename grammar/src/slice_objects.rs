//! Python's slice objects as values (issue 31), put in place in the subscripts that use them,
//! after parsing (`docs/language.md`, "Subscripts"): a name bound once in a function to
//! `slice(a, b, c)`, to a tuple of slices, integers and `None` (`idx = (slice(None), 0)`), or to
//! NumPy's `np.s_[..]` / `np.index_exp[..]`, each part an integer literal or `None`, and used only
//! as an index (`x[sl]`, `m[idx]`, `m[r, c]`, `z[sl] = v`); and `np.s_[..]`, `np.index_exp[..]`
//! written in a subscript (`x[np.s_[1:3]]`). Each use is the index written out, as Python
//! evaluates it: `x[sl]` is `x[1:-1]`. A tuple is the whole index (`m[idx]`), as Python's. Any
//! other use of such a name (`len(sl)`, `f(sl)`, `x[idx, 0]` of a tuple) is E0329.

use crate::ast::{Block, Expr, ExprKind, Index, Program, Stmt, UnOp};
use crate::diag::Diagnostic;
use crate::syntax::fresh_copy;
use std::cell::Cell;
use std::collections::HashMap;

/// NumPy's index builders, `np.s_[..]` and `np.index_exp[..]` (the same for arrayc's subscripts).
const BUILDERS: &[&str] = &["s_", "index_exp"];

/// The index entries `e` spells where it is `np.s_[..]` or `np.index_exp[..]`.
fn builder(e: &Expr) -> Option<&Vec<Index>> {
    let ExprKind::Subscript { base, index } = &e.kind else { return None };
    let ExprKind::Var(v) = &base.kind else { return None };
    BUILDERS.contains(&v.name.strip_prefix(crate::builtin::QUALIFIED).unwrap_or(&v.name)).then_some(index)
}

/// Whether `e` is an integer literal (negative too).
fn literal(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Int(_) => true,
        ExprKind::Unary(UnOp::Neg, v) => matches!(v.kind, ExprKind::Int(_)),
        _ => false,
    }
}

/// The index entries of a slice object's value `e` whose parts are integer literals or `None`
/// (a slice, a tuple of integers and `None` with a slice among them, `np.s_[..]`), or `None` for
/// anything else.
fn entries(e: &Expr) -> Option<Vec<Index>> {
    if let Some([start, stop, step]) = crate::builtin::slice_object(e) {
        let parts = [start, stop, step];
        if !parts.iter().flatten().all(|p| literal(p)) {
            return None;
        }
        let [start, stop, step] = parts.map(|p| p.cloned());
        return Some(vec![Index::Slice { start, stop, step, span: e.span.clone() }]);
    }
    if let Some(index) = builder(e) {
        let plain = index.iter().all(|ix| match ix {
            Index::At(v) => literal(v),
            Index::Slice { start, stop, step, .. } => {
                [start, stop, step].iter().all(|p| p.as_ref().is_none_or(literal))
            }
            Index::NewAxis(_) | Index::Ellipsis(_) => true,
        });
        return plain.then(|| index.clone());
    }
    let ExprKind::Tuple(items) = &e.kind else { return None };
    let mut out = Vec::new();
    for item in items {
        match &item.kind {
            ExprKind::NoneLit => out.push(Index::NewAxis(item.span.clone())),
            _ if literal(item) => out.push(Index::At(item.clone())),
            _ => out.extend(entries(item).filter(|v| v.len() == 1 && matches!(v[0], Index::Slice { .. }))?),
        }
    }
    // A tuple of numbers alone (`shape = (2, 3)`) is no slice object.
    out.iter().any(|ix| matches!(ix, Index::Slice { .. })).then_some(out)
}

/// Puts the slice objects of every function of `program` in place (see the module's docs); the
/// errors (E0329). Runs right after parsing, before [`crate::lambda::lambdas`].
pub fn slice_objects(program: &mut Program) -> Vec<Diagnostic> {
    let ids = Cell::new(program.num_exprs);
    let mut diags = Vec::new();
    for f in &mut program.functions {
        let count = crate::py_lists::local_binding_counts(f);
        let mut bound = HashMap::new();
        bindings(&mut f.body, &count, &mut bound);
        set_items(&ids, &bound, &mut f.body, &mut diags);
        f.body.for_each_expr_mut(&mut |e| match &mut e.kind {
            ExprKind::Subscript { index, .. } => expand(&ids, &bound, index, &mut diags),
            ExprKind::Var(v) if bound.contains_key(&v.name) => diags.push(misused(&v.name, &e.span)),
            _ => {}
        });
    }
    program.num_exprs = ids.get();
    diags
}

/// Records (in `bound`) and drops the bindings of names bound once to a slice object.
fn bindings(b: &mut Block, count: &HashMap<String, usize>, bound: &mut HashMap<String, Vec<Index>>) {
    b.stmts.retain_mut(|s| {
        for inner in s.blocks_mut() {
            bindings(inner, count, bound);
        }
        let (name, value) = match s {
            Stmt::Let { names, value, .. } if names.len() == 1 => (&names[0], &*value),
            Stmt::Assign { name, value, .. } => (&*name, &*value),
            _ => return true,
        };
        match (count.get(&name.name), entries(value)) {
            (Some(1), Some(index)) => {
                bound.insert(name.name.clone(), index);
                false
            }
            _ => true,
        }
    });
}

/// The subscripts of the write statements of `b` (and the blocks inside it) written out ([`expand`]).
fn set_items(ids: &Cell<u32>, bound: &HashMap<String, Vec<Index>>, b: &mut Block, diags: &mut Vec<Diagnostic>) {
    for s in &mut b.stmts {
        if let Stmt::SetItem { index, .. } | Stmt::AugAssign { index, .. } = s {
            expand(ids, bound, index, diags);
        }
        for inner in s.blocks_mut() {
            set_items(ids, bound, inner, diags);
        }
    }
}

/// `index` with each use of a bound name, and each `np.s_[..]`, written out.
fn expand(ids: &Cell<u32>, bound: &HashMap<String, Vec<Index>>, index: &mut Vec<Index>, diags: &mut Vec<Diagnostic>) {
    let sole = index.len() == 1;
    let mut out = Vec::with_capacity(index.len());
    for ix in std::mem::take(index) {
        let entries = match &ix {
            Index::At(Expr { kind: ExprKind::Var(v), .. }) => bound.get(&v.name),
            Index::At(e) => builder(e),
            _ => None,
        };
        match entries {
            Some(es) if sole || (es.len() == 1 && matches!(es[0], Index::Slice { .. })) => {
                out.extend(es.iter().map(|e| {
                    let mut e = e.clone();
                    for x in e.exprs_mut() {
                        *x = fresh_copy(ids, x);
                    }
                    e
                }));
            }
            Some(_) => {
                if let Index::At(e) = &ix {
                    diags.push(misused("a tuple of indices", &e.span));
                }
                out.push(ix);
            }
            None => out.push(ix),
        }
    }
    *index = out;
}

/// E0329: a slice object used other than as an index.
fn misused(what: &str, span: &crate::ast::Span) -> Diagnostic {
    Diagnostic::error(
        "E0329",
        format!("arrayc puts `{what}`, a slice object, in the subscripts that use it: it is not a value here"),
        span.clone(),
        "used here",
    )
    .with_help(
        "use it as the whole index, `x[sl]`, `m[idx]` (a slice also among other entries, `m[sl, 0]`), or write the \
         slice in the subscript, `x[1:-1]`",
    )
}

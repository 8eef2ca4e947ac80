//! Several names in a comprehension's clause, as Python writes them: `sum(a * b for a, b in
//! zip(x, y))`, `[i * v for i, v in enumerate(x)]`, `max(abs(p - q) for p, (q, r) in zip(a,
//! zip(b, c)))`. Such a clause iterates `enumerate(x)` (two names; `enumerate(x, start)` and
//! `start=`) or `zip(x, y, ..)` (a name per array), as the statement `for` does
//! ([`crate::syntax::for_in_tuple`]); a target may itself be a parenthesised tuple of a nested
//! `enumerate` or `zip`. [`index_clause`] makes it a clause of one counter over `range(n)`, `n`
//! the shortest array's length (Python's `zip`), and each name in the element, the clause's
//! condition and the later clauses the counter's item: `x[k]` of its array, the position `k`
//! (plus `start`) of an `enumerate`. So every comprehension [`crate::comprehension`] lowers has
//! one name per clause. Each array is the expression as written at each use (arrayc's
//! expressions have no effects).

use crate::ast::{BinOp, Expr, ExprKind, Ident, Index, Span};
use crate::builtin::qualified;
use crate::lexer::LexError;
use crate::syntax::{fresh_copy, mk, ForTarget};
use std::cell::Cell;

/// One clause as parsed: its target, its iterable and its condition.
pub type ParsedClause = (ForTarget, Expr, Option<Expr>);

/// The clauses of a comprehension whose element is `elt`, each with one name: a clause with a
/// tuple target over `enumerate`/`zip` becomes `for comp.K in range(n)`, its names replaced by
/// their items in `elt` and in the condition and the clauses after it. A tuple target over
/// anything else, or with as many names as `zip` has not arrays, is [`LexError::ForTargets`].
pub fn index_clauses(
    ids: &Cell<u32>,
    elt: &mut Expr,
    clauses: Vec<ParsedClause>,
) -> Result<Vec<(Ident, Expr, Option<Expr>)>, LexError> {
    let mut parsed: Vec<ParsedClause> = clauses;
    let mut out = Vec::with_capacity(parsed.len());
    for k in 0..parsed.len() {
        let (target, it, cond) = std::mem::replace(
            &mut parsed[k],
            (ForTarget::Tuple(vec![], 0..0), mk(ids, ExprKind::Bool(true), 0..0), None),
        );
        let vars = match target {
            ForTarget::Name(v) => {
                out.push((v, it, cond));
                continue;
            }
            ForTarget::Tuple(vars, _) => vars,
        };
        let at = it.span.clone();
        let counter = Ident { name: format!("comp.{}.{k}", at.start), span: at.clone() };
        let mut bound = Bound { ids, counter: counter.clone(), names: vec![], arrays: vec![] };
        bound.bind(ForTarget::Tuple(vars, at.clone()), it)?;
        let Bound { names, arrays, .. } = bound;
        let mut n = None;
        for a in arrays {
            let len = call(ids, "len", vec![a], &at);
            n = Some(match n {
                None => len,
                Some(m) => call(ids, "minimum", vec![m, len], &at),
            });
        }
        let n = n.unwrap_or_else(|| unreachable!("a tuple target binds at least one array"));
        let range = mk(
            ids,
            ExprKind::Call {
                func: Ident { name: "range".to_string(), span: at.clone() },
                args: vec![n],
                kwargs: vec![],
            },
            at.clone(),
        );
        let mut cond = cond;
        let replace = |e: &mut Expr| substitute(ids, e, &names);
        replace(elt);
        if let Some(c) = &mut cond {
            replace(c);
        }
        for (_, later_it, later_cond) in parsed.iter_mut().skip(k + 1) {
            replace(later_it);
            if let Some(c) = later_cond {
                replace(c);
            }
        }
        out.push((counter, range, cond));
    }
    Ok(out)
}

/// The call `np.f(args)` at `at`.
fn call(ids: &Cell<u32>, f: &str, args: Vec<Expr>, at: &Span) -> Expr {
    mk(ids, ExprKind::Call { func: Ident { name: qualified(f), span: at.clone() }, args, kwargs: vec![] }, at.clone())
}

/// Each name of `names` in `e` (outside a nested comprehension's own clause names: Python's
/// scopes are not followed further) replaced by a fresh copy of its item.
fn substitute(ids: &Cell<u32>, e: &mut Expr, names: &[(String, Expr)]) {
    e.walk_mut(&mut |x| {
        if let ExprKind::Var(v) = &x.kind {
            if let Some((_, item)) = names.iter().find(|(n, _)| *n == v.name) {
                let copy = fresh_copy(ids, item);
                x.kind = copy.kind;
            }
        }
    });
}

/// The names a tuple target binds, each with its item at the counter, and the arrays iterated.
struct Bound<'a> {
    ids: &'a Cell<u32>,
    counter: Ident,
    names: Vec<(String, Expr)>,
    arrays: Vec<Expr>,
}

impl Bound<'_> {
    /// Binds `target` to the items of `it` at the counter.
    fn bind(&mut self, target: ForTarget, it: Expr) -> Result<(), LexError> {
        let at = it.span.clone();
        let vars = match target {
            ForTarget::Name(name) => {
                let it = crate::syntax::iterable(self.ids, it)?;
                let k = mk(self.ids, ExprKind::Var(self.counter.clone()), at.clone());
                let item = ExprKind::Subscript { base: Box::new(fresh_copy(self.ids, &it)), index: vec![Index::At(k)] };
                self.names.push((name.name, mk(self.ids, item, at)));
                self.arrays.push(it);
                return Ok(());
            }
            ForTarget::Tuple(vars, _) => vars,
        };
        let bad = LexError::ForTargets { names: vars.len(), span: at.clone() };
        let ExprKind::Call { func, mut args, mut kwargs } = it.kind else { return Err(bad) };
        if func.name == "enumerate" && args.len() == 1 && kwargs.len() == 1 && kwargs[0].0.name == "start" {
            args.push(kwargs.remove(0).1);
        }
        let enumerate = func.name == "enumerate" && vars.len() == 2 && (1..=2).contains(&args.len());
        let zip = func.name == "zip" && vars.len() == args.len();
        if !kwargs.is_empty() || !(enumerate || zip) {
            return Err(bad);
        }
        let mut args = args.into_iter();
        let mut vars = vars.into_iter();
        if enumerate {
            let Some(ForTarget::Name(k)) = vars.next() else { return Err(bad) };
            let x = args.next().unwrap_or_else(|| unreachable!("one or two arguments"));
            let i = mk(self.ids, ExprKind::Var(self.counter.clone()), at.clone());
            let position = match args.next() {
                Some(start) => mk(self.ids, ExprKind::Binary(BinOp::Add, Box::new(i), Box::new(start)), at),
                None => i,
            };
            self.names.push((k.name, position));
            let t = vars.next().unwrap_or_else(|| unreachable!("two targets"));
            return self.bind(t, x);
        }
        for (t, a) in vars.zip(args) {
            self.bind(t, a)?;
        }
        Ok(())
    }
}

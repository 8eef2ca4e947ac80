//! Python lists grown by `append` in loops that do other work (`docs/language.md`, "Methods and
//! attributes"), rewritten after parsing into an array that doubles its capacity:
//!
//! ```text
//! losses = [];                          let list.K.buf = list.buffer(K);  let list.K.n = 0;
//! for it in range(steps) {              for it in range(steps) {
//!     w -= lr * grad(w);                    w -= lr * grad(w);
//!     losses.append(loss(w));               let list.K.v = list.item(loss(w), K);
//! }                                         if list.K.n == 0 { list.K.buf = [list.K.v for _ in range(8)]; }
//!                                           else if list.K.n == len(list.K.buf) {
//!                                               list.K.buf = concatenate((list.K.buf, list.K.buf)); }
//!                                           list.K.buf[list.K.n] = list.K.v;  list.K.n += 1;
//!                                       }
//! return np.array(losses);              return np.array(list.K.buf[:list.K.n]);
//! ```
//!
//! A list literal with items, `fib = [0, 1];`, starts the list with them (appended in order).
//! Every read of the list is the view `list.K.buf[:list.K.n]` of its items, so `len(l)`, `l[-1]`,
//! `np.mean(l)`, `for t in l` and `np.array(l)` read what Python's list holds at that point;
//! Python's `sum(l)` adds the items (`sum(.., axis=0)`). Appends may sit anywhere after the
//! `l = [];` of the same block: in any loop (`for`, `while`, nested), in branches, after `break`.
//! The items' dtype and shape are the checker's (`check/learnt.rs`: `list.item` records the type of
//! each appended value, `list.buffer` is an array of that item type, promoted as NumPy's
//! `np.array` of the list promotes; items of different ranks are E0207, NumPy's "inhomogeneous
//! shape"). A list with no append is left alone (NumPy's `np.array([])`), and so is one used
//! otherwise than by appends and reads (another method, `l[i] = v`, `l + [..]`, a rebinding inside a
//! nested block): its `append` stays E0207. A list grown by a loop that only appends is
//! `crate::py_lists`'s comprehension instead (preallocated, and run before this).

use crate::ast::{BinOp, Block, Expr, ExprKind, Ident, Index, Program, Span, Stmt};
use crate::builtin::qualified;
use crate::py_lists::append_of;
use crate::syntax::mk;
use std::cell::Cell;

/// The name of the internal builtin that makes a list's empty buffer: `list.buffer(K)`, `K` the
/// list's number in the program, from 0 (`crate::function_scope`'s keys in the checker's table
/// are negative).
pub const BUFFER: &str = "list.buffer";
/// The name of the internal builtin that gives an appended item the list's item type:
/// `list.item(e, K)`.
pub const ITEM: &str = "list.item";
/// The buffer's capacity at its first item (it doubles when full).
const FIRST_CAPACITY: i64 = 8;

/// Rewrites the lists grown by `append` in every function (see the module's docs). Runs after
/// `crate::py_lists::appended_lists` and before `crate::comprehension::comprehensions`.
pub fn grown_lists(program: &mut Program) {
    let own_sum = program.functions.iter().any(|f| f.name.name == "sum");
    let ids = Cell::new(program.num_exprs);
    let mut next = 0;
    for f in &mut program.functions {
        grown_block(&ids, &mut next, &mut f.body, own_sum);
    }
    program.num_exprs = ids.get();
}

/// [`grown_lists`] in `b` and the blocks inside it; `next` numbers the lists of the program.
fn grown_block(ids: &Cell<u32>, next: &mut i64, b: &mut Block, own_sum: bool) {
    let mut i = 0;
    while i < b.stmts.len() {
        if let Some((out, span, first)) = list_literal(&b.stmts[i]) {
            let end = (i + 1..b.stmts.len()).find(|&j| binds(&b.stmts[j], &out.name)).unwrap_or(b.stmts.len());
            let region = &mut b.stmts[i + 1..end];
            let appended = region.iter_mut().any(|s| has_append(s, &out.name));
            let uses_ok = region.iter_mut().all(|s| only_appends_and_reads(s, &out.name, true))
                && b.stmts.get_mut(end).is_none_or(|s| s.own_exprs_mut().into_iter().all(|e| only_reads(e, &out.name)));
            if appended && uses_ok {
                let k = *next;
                *next += 1;
                let list = GrownList { ids, k, out: out.name.clone(), own_sum, span: span.clone() };
                let mut decl = list.declaration();
                for item in first {
                    decl.extend(list.append(item, &span));
                }
                list.rewrite_stmts(&mut b.stmts, i + 1..end);
                if let Some(s) = b.stmts.get_mut(end) {
                    for e in s.own_exprs_mut() {
                        list.reads(e);
                    }
                    // `l = np.array(l)`: the name is declared here now.
                    if let Stmt::Assign { name, value, span } = s {
                        *s = Stmt::Let { names: vec![name.clone()], value: value.clone(), span: span.clone() };
                    }
                }
                b.stmts.splice(i..i + 1, decl);
                continue;
            }
        }
        for inner in b.stmts[i].blocks_mut() {
            grown_block(ids, next, inner, own_sum);
        }
        i += 1;
    }
}

/// `l`, the statement's span and the list's first items when `s` is `let l = [a, b, ..];` or `l =
/// [a, b, ..];` (often `l = [];`).
fn list_literal(s: &Stmt) -> Option<(Ident, Span, Vec<Expr>)> {
    match s {
        Stmt::Let { names, value: Expr { kind: ExprKind::List(items), .. }, span } if names.len() == 1 => {
            Some((names[0].clone(), span.clone(), items.clone()))
        }
        Stmt::Assign { name, value: Expr { kind: ExprKind::List(items), .. }, span } => {
            Some((name.clone(), span.clone(), items.clone()))
        }
        _ => None,
    }
}

/// Whether `s` binds `name` anew (`let name = ..`, `name = ..`, a `for name in ..`).
fn binds(s: &Stmt, name: &str) -> bool {
    match s {
        Stmt::Let { names, .. } => names.iter().any(|n| n.name == name),
        Stmt::Assign { name: n, .. } | Stmt::For { var: n, .. } => n.name == name,
        _ => false,
    }
}

/// Whether `s` or a statement inside it is `out.append(e);`.
fn has_append(s: &mut Stmt, out: &str) -> bool {
    append_of(s, out).is_some() || s.blocks_mut().into_iter().any(|b| b.stmts.iter_mut().any(|s| has_append(s, out)))
}

/// Whether `s` uses `out` only by `out.append(e);` statements and reads ([`only_reads`]), and
/// binds it nowhere (`top`: `s` is in the list's own block, where [`grown_block`] ends the
/// region at a rebinding before looking at it).
fn only_appends_and_reads(s: &mut Stmt, out: &str, top: bool) -> bool {
    if let Some(e) = append_of(s, out) {
        return only_reads(&mut e.clone(), out);
    }
    let target_ok = match s {
        Stmt::SetItem { target, .. } | Stmt::AugAssign { target, .. } => target.name != out,
        _ => top || !binds(s, out),
    };
    target_ok
        && s.own_exprs_mut().into_iter().all(|e| only_reads(e, out))
        && s.blocks_mut().into_iter().all(|b| b.stmts.iter_mut().all(|s| only_appends_and_reads(s, out, false)))
}

/// Whether `e` reads `out` only where Python's list and its array of items agree: not as an
/// operand (`l + [x]`, `l * 2`, `l == m` are list operations) and not as the object of a method
/// call.
fn only_reads(e: &mut Expr, out: &str) -> bool {
    let is_out = |e: &Expr| matches!(&e.kind, ExprKind::Var(v) if v.name == out);
    let mut ok = true;
    e.for_each_mut(&mut |e| match &e.kind {
        ExprKind::Binary(_, a, b) if is_out(a) || is_out(b) => ok = false,
        ExprKind::Unary(_, a) if is_out(a) => ok = false,
        ExprKind::Call { func, args, .. } if func.name.starts_with('.') && args.first().is_some_and(is_out) => {
            ok = false
        }
        _ => {}
    });
    ok
}

/// One list being rewritten: its number `k`, its name and where it was made.
struct GrownList<'a> {
    ids: &'a Cell<u32>,
    k: i64,
    out: String,
    own_sum: bool,
    span: Span,
}

impl GrownList<'_> {
    fn name(&self, part: &str) -> Ident {
        Ident { name: format!("list.{}.{part}", self.k), span: self.span.clone() }
    }

    fn var(&self, part: &str) -> Expr {
        mk(self.ids, ExprKind::Var(self.name(part)), self.span.clone())
    }

    fn int(&self, v: i64) -> Expr {
        mk(self.ids, ExprKind::Int(v), self.span.clone())
    }

    fn call(&self, func: &str, args: Vec<Expr>) -> Expr {
        let func = Ident { name: func.to_string(), span: self.span.clone() };
        mk(self.ids, ExprKind::Call { func, args, kwargs: vec![] }, self.span.clone())
    }

    fn binary(&self, op: BinOp, a: Expr, b: Expr) -> Expr {
        mk(self.ids, ExprKind::Binary(op, Box::new(a), Box::new(b)), self.span.clone())
    }

    fn block(&self, stmts: Vec<Stmt>) -> Block {
        Block { stmts, span: self.span.clone() }
    }

    /// `let list.K.buf = list.buffer(K); let list.K.n = 0;`
    fn declaration(&self) -> Vec<Stmt> {
        let span = self.span.clone();
        let buffer = self.call(BUFFER, vec![self.int(self.k)]);
        vec![
            Stmt::Let { names: vec![self.name("buf")], value: buffer, span: span.clone() },
            Stmt::Let { names: vec![self.name("n")], value: self.int(0), span },
        ]
    }

    /// The view of the list's items, `list.K.buf[:list.K.n]`.
    fn items(&self, span: &Span) -> Expr {
        let stop = Some(self.var("n"));
        let index = vec![Index::Slice { start: None, stop, step: None, span: span.clone() }];
        mk(self.ids, ExprKind::Subscript { base: Box::new(self.var("buf")), index }, span.clone())
    }

    /// Replaces the reads of the list in `e` by its items; Python's `sum(l)` adds the items.
    fn reads(&self, e: &mut Expr) {
        e.for_each_mut(&mut |e| {
            if let ExprKind::Call { func, args, kwargs } = &mut e.kind {
                let python_sum = !self.own_sum && func.name == "sum" && kwargs.is_empty();
                if python_sum && matches!(args.as_slice(), [Expr { kind: ExprKind::Var(v), .. }] if v.name == self.out)
                {
                    let span = args[0].span.clone();
                    kwargs.push((
                        Ident { name: "axis".into(), span: span.clone() },
                        mk(self.ids, ExprKind::Int(0), span),
                    ));
                }
            }
            if matches!(&e.kind, ExprKind::Var(v) if v.name == self.out) {
                *e = self.items(&e.span);
            }
        });
    }

    /// [`GrownList::reads`] in `stmts[range]` and the statements inside them, each `out.append(e);`
    /// replaced by the statements that write `e` at the end of the buffer.
    fn rewrite_stmts(&self, stmts: &mut Vec<Stmt>, range: std::ops::Range<usize>) {
        let mut end = range.end;
        let mut i = range.start;
        while i < end {
            if let Some(e) = append_of(&stmts[i], &self.out) {
                let mut e = e.clone();
                let span = stmts[i].span().clone();
                self.reads(&mut e);
                let new = self.append(e, &span);
                let len = new.len();
                stmts.splice(i..i + 1, new);
                end += len - 1;
                i += len;
                continue;
            }
            for e in stmts[i].own_exprs_mut() {
                self.reads(e);
            }
            for b in stmts[i].blocks_mut() {
                let n = b.stmts.len();
                self.rewrite_stmts(&mut b.stmts, 0..n);
            }
            i += 1;
        }
    }

    /// The statements of one `out.append(e);` (see the module's docs).
    fn append(&self, e: Expr, span: &Span) -> Vec<Stmt> {
        let item = self.name(&format!("v{}", e.id.0));
        let item_var = || mk(self.ids, ExprKind::Var(item.clone()), span.clone());
        let value = self.call(ITEM, vec![e, self.int(self.k)]);
        let n_is = |v: Expr| self.binary(BinOp::Eq, self.var("n"), v);
        let j = Ident { name: format!("list.{}.j", self.k), span: span.clone() };
        let range = self.call("range", vec![self.int(FIRST_CAPACITY)]);
        let clause = (crate::syntax::ForTarget::Name(j), range, None);
        let first = crate::comprehension::comprehension(self.ids, None, item_var(), vec![clause], span.clone())
            .expect("one clause of one name");
        let twice = mk(self.ids, ExprKind::Tuple(vec![self.var("buf"), self.var("buf")]), span.clone());
        let doubled = self.call(&qualified("concatenate"), vec![twice]);
        let full = n_is(self.call(&qualified("len"), vec![self.var("buf")]));
        let grow = Stmt::If {
            cond: n_is(self.int(0)),
            then_block: self.block(vec![Stmt::Assign { name: self.name("buf"), value: first, span: span.clone() }]),
            else_block: Some(self.block(vec![Stmt::If {
                cond: full,
                then_block: self.block(vec![Stmt::Assign {
                    name: self.name("buf"),
                    value: doubled,
                    span: span.clone(),
                }]),
                else_block: None,
                span: span.clone(),
            }])),
            span: span.clone(),
        };
        vec![
            Stmt::Let { names: vec![item.clone()], value, span: span.clone() },
            grow,
            Stmt::SetItem {
                target: self.name("buf"),
                index: vec![Index::At(self.var("n"))],
                value: item_var(),
                span: span.clone(),
            },
            Stmt::AugAssign {
                target: self.name("n"),
                index: vec![],
                op: BinOp::Add,
                value: self.int(1),
                span: span.clone(),
            },
        ]
    }
}

//! NumPy's in-place write functions as assignments (issue 31), rewritten once the program is
//! parsed: the statements `copyto(dst, src)`, `copyto(dst, src, where=m)`, `putmask(a, mask,
//! values)`, `place(arr, mask, vals)` and `put(a, ind, v)` (also spelled `np.f(..)`). Each call stays
//! where it was, for the checker's casting rules (`check/builtins/writes.rs`; lowered to nothing),
//! and is followed by its writes, on fresh copies of its arguments, each evaluated once
//! (`NAME.OFFSET.PART`, [`crate::syntax::is_synthesized`] names):
//!
//! - `copyto`: `d[...] = src;`, with `where=`: `d[...] = where(m, array(src, dtype=d.dtype), d);`
//!   (`src` converted first, as NumPy casts it, then selected), `d` being `dst` (a view of it
//!   bound to a name, which writes through).
//! - `putmask`: with `m = mask != 0` and `v = reshape(atleast_1d(values), -1)`, after a check that
//!   `m` has `a`'s size, `if size(v) > 0 { a[m] = v[flatnonzero(m) % size(v)]; }`: the value at
//!   flat position `k` of `a` is `v[k % size(v)]`, NumPy's cycling by the position in `a`.
//! - `place`: as `putmask` but `a[m] = v[arange(sum(m)) % size(v)]`, cycled by the count of true
//!   elements so far; an empty `v` with a true element is NumPy's ValueError.
//! - `put` (a 1-d `a`, checked): with `i = reshape(atleast_1d(ind), -1)`, `if size(v) > 0 { a[i] =
//!   v[arange(size(i)) % size(v)]; }` (a scatter: of repeated indices the last wins, as NumPy's).

use crate::ast::{BinOp, Block, Expr, ExprKind, Index, Program, Stmt};
use crate::builtin::{qualified, QUALIFIED};
use crate::compositions::Build;
use std::cell::Cell;
use std::collections::HashSet;

/// Rewrites every write statement of `program` (see the module's documentation). A bare call of a
/// function of the program named like one (`put(..)`) is the program's and stays.
pub fn writes(program: &mut Program) {
    let functions: HashSet<String> = program.functions.iter().map(|f| f.name.name.clone()).collect();
    let ids = Cell::new(program.num_exprs);
    for f in &mut program.functions {
        block(&ids, &functions, &mut f.body);
    }
    program.num_exprs = ids.get();
}

fn block(ids: &Cell<u32>, functions: &HashSet<String>, b: &mut Block) {
    for s in std::mem::take(&mut b.stmts) {
        stmt(ids, functions, s, &mut b.stmts);
    }
}

fn stmt(ids: &Cell<u32>, functions: &HashSet<String>, mut s: Stmt, out: &mut Vec<Stmt>) {
    for inner in s.blocks_mut() {
        block(ids, functions, inner);
    }
    let written = match &s {
        Stmt::Expr(e @ Expr { kind: ExprKind::Call { func, args, kwargs }, .. }) => {
            let name = match func.name.strip_prefix(QUALIFIED) {
                Some(n) => Some(n),
                None if !functions.contains(&func.name) => Some(func.name.as_str()),
                None => None,
            };
            let b = Build { ids, at: e.span.clone() };
            let where_ = kwargs.iter().find(|(k, _)| k.name == "where").map(|(_, v)| v);
            let only = |allowed: &[&str]| kwargs.iter().all(|(k, _)| allowed.contains(&k.name.as_str()));
            match (name, args.as_slice()) {
                (Some("copyto"), [dst, src]) if only(&["where"]) => Some(b.copyto(dst, src, where_)),
                (Some(n @ ("putmask" | "place")), [a, mask, v]) if kwargs.is_empty() => Some(b.masked(n, a, mask, v)),
                (Some("put"), [a, ind, v]) if only(&["mode"]) => Some(b.put(a, ind, v)),
                _ => None,
            }
        }
        _ => None,
    };
    out.push(s);
    out.extend(written.into_iter().flatten());
}

/// [`crate::compositions::Build`]'s helpers for the write statements: fresh ids, the statement's
/// span.
impl Build<'_> {
    fn var(&self, name: &str) -> Expr {
        self.e(ExprKind::Var(self.kw(name)))
    }

    fn size(&self, name: &str) -> Expr {
        self.call("size", vec![self.var(name)], vec![])
    }

    /// The synthesized name of part `part` of this statement.
    fn name(&self, what: &str, part: &str) -> String {
        format!("{what}.{}.{part}", self.at.start)
    }

    /// `let name = e;`
    fn bind(&self, name: &str, e: Expr) -> Stmt {
        Stmt::Let { names: vec![self.kw(name)], value: e, span: self.at.clone() }
    }

    /// The target `a` as a name: itself where it is a name, else a view of it bound to a name
    /// (its statement pushed to `out`).
    fn target(&self, what: &str, a: &Expr, out: &mut Vec<Stmt>) -> String {
        if let ExprKind::Var(v) = &a.kind {
            return v.name.clone();
        }
        let name = self.name(what, "a");
        out.push(self.bind(&name, self.copy(a)));
        name
    }

    /// `reshape(atleast_1d(e), -1)`, bound to `name` (`e`'s elements, flat).
    fn flat(&self, name: &str, e: &Expr) -> Stmt {
        let one_d = self.call("atleast_1d", vec![self.copy(e)], vec![]);
        let minus_one = self.e(ExprKind::Unary(crate::ast::UnOp::Neg, Box::new(self.int(1))));
        self.bind(name, self.call("reshape", vec![one_d, minus_one], vec![]))
    }

    fn set(&self, target: &str, index: Index, value: Expr) -> Stmt {
        Stmt::SetItem { target: self.kw(target), index: vec![index], value, span: self.at.clone() }
    }

    fn assert(&self, cond: Expr, msg: &str) -> Stmt {
        Stmt::Assert { cond, msg: Some(msg.to_string()), span: self.at.clone() }
    }

    fn block(&self, stmts: Vec<Stmt>) -> Block {
        Block { stmts, span: self.at.clone() }
    }

    /// `if size(v) > 0 { write } else { otherwise }`.
    fn if_values(&self, v: &str, write: Stmt, otherwise: Option<Stmt>) -> Stmt {
        let cond = self.bin(BinOp::Gt, self.size(v), self.int(0));
        let else_block = otherwise.map(|s| self.block(vec![s]));
        Stmt::If { cond, then_block: self.block(vec![write]), else_block, span: self.at.clone() }
    }

    /// `copyto(dst, src)`, `copyto(dst, src, where=m)`.
    fn copyto(&self, dst: &Expr, src: &Expr, where_: Option<&Expr>) -> Vec<Stmt> {
        let mut out = vec![];
        let d = self.target("copyto", dst, &mut out);
        let src = self.copy(src);
        let value = match where_ {
            None => src,
            Some(m) => {
                let dtype =
                    self.e(ExprKind::Call { func: self.kw(".dtype"), args: vec![self.var(&d)], kwargs: vec![] });
                let converted = self.e(ExprKind::Call {
                    func: self.kw(&qualified("array")),
                    args: vec![src],
                    kwargs: vec![(self.kw("dtype"), dtype)],
                });
                self.call("where", vec![self.copy(m), converted, self.var(&d)], vec![])
            }
        };
        out.push(self.set(&d, Index::Ellipsis(self.at.clone()), value));
        out
    }

    /// `putmask(a, mask, values)` or `place(a, mask, values)` (`what`).
    fn masked(&self, what: &str, a: &Expr, mask: &Expr, values: &Expr) -> Vec<Stmt> {
        let mut out = vec![];
        let a = self.target(what, a, &mut out);
        let (m, v) = (self.name(what, "m"), self.name(what, "v"));
        out.push(self.bind(&m, self.bin(BinOp::Ne, self.copy(mask), self.int(0))));
        out.push(self.flat(&v, values));
        let same_size = self.bin(BinOp::Eq, self.size(&m), self.size(&a));
        out.push(self.assert(same_size, &format!("{what}: mask and data must be the same size")));
        let (positions, otherwise) = if what == "putmask" {
            (self.call("flatnonzero", vec![self.var(&m)], vec![]), None)
        } else {
            let count = self.call("sum", vec![self.var(&m)], vec![]);
            let none = self.bin(BinOp::Eq, self.call("sum", vec![self.var(&m)], vec![]), self.int(0));
            (self.call("arange", vec![count], vec![]), Some(self.assert(none, "Cannot insert from an empty array!")))
        };
        let cyclic = self.bin(BinOp::Rem, positions, self.size(&v));
        let value = self.e(ExprKind::Subscript { base: Box::new(self.var(&v)), index: vec![Index::At(cyclic)] });
        out.push(self.if_values(&v, self.set(&a, Index::At(self.var(&m)), value), otherwise));
        out
    }

    /// `put(a, ind, v)`.
    fn put(&self, a: &Expr, ind: &Expr, values: &Expr) -> Vec<Stmt> {
        let mut out = vec![];
        let a = self.target("put", a, &mut out);
        let (i, v) = (self.name("put", "i"), self.name("put", "v"));
        out.push(self.flat(&i, ind));
        out.push(self.flat(&v, values));
        let cyclic = self.bin(BinOp::Rem, self.call("arange", vec![self.size(&i)], vec![]), self.size(&v));
        let value = self.e(ExprKind::Subscript { base: Box::new(self.var(&v)), index: vec![Index::At(cyclic)] });
        out.push(self.if_values(&v, self.set(&a, Index::At(self.var(&i)), value), None));
        out
    }
}

//! `break` and `continue` (Python's), lowered to structured control flow with flags.
//!
//! `scf` has no jumps, so a loop whose body has a `break` or `continue` for it carries flags:
//!
//! * `skip`, a `bool` variable of each iteration, false at its start, set by `break` and
//!   `continue`: the statements after one that may have set it run under `if !skip` (an `scf.if`
//!   whose results are the variables they rebind), and the statements after a `break` or
//!   `continue` in the same block never run, so they are not lowered.
//! * `brk`, a `bool` carried by the loop, set by `break`: a `while` loop runs while
//!   `not brk and cond` (the condition is not evaluated after a `break`, as in Python), and a `for`
//!   loop with a `break` becomes a `while` over its iteration count (`k < n and not brk`, the loop
//!   variable computed from `k` as in [`Lowerer::lower_for`]). A `for` loop with `continue` only
//!   stays an `scf.for`.
//!
//! A loop without `break` or `continue` is lowered as before, with no flag. The flags are
//! variables of the lowering like the program's own (named `break.N` and `skip.N`, which no
//! program can write), so the `if`s and loops around a `break` carry them as they carry any
//! rebound variable; after the loop every variable has the value it had when the loop ended,
//! at a `break` too.

use super::{LResult, Lowerer};
use arrayc_dialect::ir::{BinFn, OpKind, Scalar, Type, ValueId};
use arrayc_grammar::ast::{self, DType, Span, Stmt};
use std::collections::{BTreeSet, HashMap};

/// The flags of a loop that has a `break` or `continue` for it (names of lowering variables).
#[derive(Clone, Debug)]
pub(crate) struct LoopJumps {
    /// "A `break` ran", carried by the loop; `None` for a loop without `break`.
    pub(crate) brk: Option<String>,
    /// "Skip the rest of this iteration", false at each iteration's start.
    pub(crate) skip: String,
}

/// Whether `stmts` have a `break` (first) and a `continue` (second) for the loop they are the body
/// of, in nested `if`s too but not in nested loops (those are the nested loops' own).
pub(crate) fn jumps_in(stmts: &[Stmt]) -> (bool, bool) {
    let (mut brk, mut cont) = (false, false);
    for s in stmts {
        match s {
            Stmt::Break { .. } => brk = true,
            Stmt::Continue { .. } => cont = true,
            Stmt::If { then_block, else_block, .. } => {
                for b in std::iter::once(then_block).chain(else_block) {
                    let (b2, c2) = jumps_in(&b.stmts);
                    brk |= b2;
                    cont |= c2;
                }
            }
            _ => {}
        }
    }
    (brk, cont)
}

/// Whether `s` may run a `break` or `continue` of the loop it is in.
fn may_jump(s: &Stmt) -> bool {
    let (b, c) = jumps_in(std::slice::from_ref(s));
    b || c
}

impl Lowerer<'_> {
    /// Lowers `stmts` in the current scope: the statements after a `break` or `continue` are not
    /// lowered (they never run), those after a statement that may have run one run under
    /// `if !skip`.
    pub(crate) fn stmts_with_jumps(&mut self, stmts: &[Stmt]) -> LResult<()> {
        for (i, s) in stmts.iter().enumerate() {
            self.stmt(s)?;
            if matches!(s, Stmt::Break { .. } | Stmt::Continue { .. }) {
                return Ok(());
            }
            let rest = &stmts[i + 1..];
            if !rest.is_empty() && may_jump(s) {
                return self.unless_skipped(rest);
            }
        }
        Ok(())
    }

    /// The flags of the innermost loop, where it has `break` or `continue`.
    fn loop_jumps(&self) -> Option<&LoopJumps> {
        self.jumps.last().and_then(Option::as_ref)
    }

    /// The flags that `break` (`true`) or `continue` sets in the innermost loop (for
    /// [`Self::assigned_outer`]).
    pub(crate) fn jump_flags(&self, is_break: bool) -> Vec<String> {
        let Some(j) = self.loop_jumps() else { return vec![] };
        let brk = if is_break { j.brk.clone() } else { None };
        brk.into_iter().chain([j.skip.clone()]).collect()
    }

    /// `break;` (`is_break`) or `continue;`: sets the innermost loop's flags.
    pub(crate) fn lower_jump(&mut self, is_break: bool, span: &Span) -> LResult<()> {
        let word = if is_break { "break" } else { "continue" };
        let flags = self.jump_flags(is_break);
        if flags.len() != 1 + usize::from(is_break) {
            // The checker rejects a `break` outside a loop; the lowering does not rely on it.
            return Err(self.error(
                "E0109",
                span,
                &format!("`{word}` outside a loop"),
                "put it in the body of a `for` or `while` loop",
            ));
        }
        let t = self.constant(Scalar::Bool(true));
        for f in flags {
            self.rebind(&f, t);
        }
        Ok(())
    }

    /// `rest` (statements after one that may have set `skip`) under `if skip {} else { rest }`,
    /// whose results are the variables `rest` rebinds.
    fn unless_skipped(&mut self, rest: &[Stmt]) -> LResult<()> {
        let skip = self.loop_jumps().and_then(|j| self.lookup(&j.skip));
        let Some(skip) = skip else {
            let span = rest.first().map(|s| s.span().start..s.span().start).unwrap_or_default();
            return Err(self.error("E0109", &span, "`break` or `continue` outside a loop", ""));
        };
        let mut names = vec![];
        self.assigned_outer(rest, &BTreeSet::new(), &mut names, true);
        let before = self.current(&names);
        let (then_body, then_yields) = self.in_body(|l| Ok(l.current(&names)))?;
        let (else_body, else_yields) = self.in_body(|l| {
            l.scopes.push(HashMap::new());
            let r = l.stmts_with_jumps(rest);
            l.scopes.pop();
            r?;
            Ok(l.current(&names))
        })?;
        self.bind_all(&names, &before);
        let results = self.results_like(&before, &names);
        self.emit(OpKind::If { cond: skip, then_body, then_yields, else_body, else_yields, results: results.clone() });
        self.bind_all(&names, &results);
        Ok(())
    }

    /// Lowers a loop body (`body` in the current body) with `jumps` as the innermost loop's flags:
    /// declares `skip` false (where the loop has flags) and the loop variable `var` = `value`, and
    /// returns the values of `names` at the body's end.
    pub(crate) fn loop_body(
        &mut self,
        jumps: Option<LoopJumps>,
        var: Option<(&str, ValueId)>,
        body: &ast::Block,
        names: &[String],
    ) -> LResult<Vec<ValueId>> {
        self.scopes.push(HashMap::new());
        if let Some((name, v)) = var {
            self.declare(name, v);
        }
        if let Some(j) = &jumps {
            let f = self.constant(Scalar::Bool(false));
            self.declare(&j.skip, f);
        }
        self.jumps.push(jumps);
        let r = self.block_stmts(&body.stmts);
        self.jumps.pop();
        self.scopes.pop();
        r?;
        Ok(self.current(names))
    }

    /// `while cond { body }` where `body` has a `break` (`has_break`) or a `continue` for it: a
    /// `while` that also carries `brk` and tests it first.
    pub(crate) fn lower_while_jumps(
        &mut self,
        cond: &ast::Expr,
        body: &ast::Block,
        has_break: bool,
        span: &Span,
    ) -> LResult<()> {
        let mut names = vec![];
        self.assigned_outer(&body.stmts, &BTreeSet::new(), &mut names, false);
        self.scopes.push(HashMap::new());
        let jumps = self.declare_flags(has_break, span, &mut names);
        let r = self.while_with_flags(
            &names,
            &jumps,
            |l| {
                let c = l.expr(cond)?;
                Ok(l.cast_scalar(c, DType::Bool))
            },
            |l| l.loop_body(Some(jumps.clone()), None, body, &names),
        );
        self.end_flags_scope(&names, r)
    }

    /// Binds `names` to the loop's results `r` and leaves the scope of the loop's flags.
    fn end_flags_scope(&mut self, names: &[String], r: LResult<Vec<ValueId>>) -> LResult<()> {
        if let Ok(results) = &r {
            self.bind_all(names, results);
        }
        self.scopes.pop();
        r.map(|_| ())
    }

    /// `for var in range(..)` with a `break` in `body`: `k` from `lo` while `k < hi and not brk`,
    /// the variable `k` (no `range`) or `start + k * step` (`range`: `(start, step)`).
    pub(crate) fn lower_for_break(
        &mut self,
        var: &ast::Ident,
        (lo, hi): (ValueId, ValueId),
        range: Option<(ValueId, ValueId)>,
        body: &ast::Block,
        span: &Span,
    ) -> LResult<()> {
        let mut names = vec![];
        let shadowed = BTreeSet::from([var.name.clone()]);
        self.assigned_outer(&body.stmts, &shadowed, &mut names, false);
        self.scopes.push(HashMap::new());
        let k_name = format!("iteration.{}", span.start);
        self.declare(&k_name, lo);
        let jumps = self.declare_flags(true, span, &mut names);
        names.push(k_name.clone());
        let r = self.while_with_flags(
            &names,
            &jumps,
            |l| {
                let k = l.lookup(&k_name).unwrap_or_else(|| unreachable!("declared above"));
                Ok(l.scalar_binary(BinFn::Lt, k, hi, DType::I64))
            },
            |l| {
                let k = l.lookup(&k_name).unwrap_or_else(|| unreachable!("declared above"));
                let i = match range {
                    Some((start, s)) => {
                        let ks = l.scalar_binary(BinFn::Mul, k, s, DType::I64);
                        l.scalar_binary(BinFn::Add, start, ks, DType::I64)
                    }
                    None => k,
                };
                let one = l.i64_const(1);
                let next = l.scalar_binary(BinFn::Add, k, one, DType::I64);
                l.rebind(&k_name, next);
                l.loop_body(Some(jumps.clone()), Some((&var.name, i)), body, &names)
            },
        );
        self.end_flags_scope(&names, r)
    }

    /// Declares the flags of a loop at `span` (`brk` false, where `has_break`; `skip` is declared
    /// per iteration by [`Self::loop_body`]) and adds `brk` to the carried `names`.
    fn declare_flags(&mut self, has_break: bool, span: &Span, names: &mut Vec<String>) -> LoopJumps {
        let brk = has_break.then(|| format!("break.{}", span.start));
        if let Some(b) = &brk {
            let f = self.constant(Scalar::Bool(false));
            self.declare(b, f);
            names.push(b.clone());
        }
        LoopJumps { brk, skip: format!("skip.{}", span.start) }
    }

    /// An `scf.while` carrying `names`, whose condition is `not brk and cond(..)` (`cond` not
    /// evaluated once `brk` is set) and whose body `body` returns the values of `names`; returns
    /// the loop's results (not yet bound to `names`).
    fn while_with_flags(
        &mut self,
        names: &[String],
        jumps: &LoopJumps,
        cond: impl FnOnce(&mut Self) -> LResult<ValueId>,
        body: impl FnOnce(&mut Self) -> LResult<Vec<ValueId>>,
    ) -> LResult<Vec<ValueId>> {
        self.while_loop(
            names,
            |l| {
                let Some(brk) = jumps.brk.as_ref().and_then(|b| l.lookup(b)) else { return cond(l) };
                let (then_body, then_yields) = l.in_body(|l| Ok(vec![l.constant(Scalar::Bool(false))]))?;
                let (else_body, else_yields) = l.in_body(cond)?;
                let go = l.value(Type::Scalar(DType::Bool), Some("go"));
                let results = vec![go];
                l.emit(OpKind::If {
                    cond: brk,
                    then_body,
                    then_yields,
                    else_body,
                    else_yields: vec![else_yields],
                    results,
                });
                Ok(go)
            },
            body,
        )
    }
}

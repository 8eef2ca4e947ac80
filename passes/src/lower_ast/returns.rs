//! `return` inside `if` statements (Python's early return), lowered to structured control flow.
//!
//! `scf` has no jumps, so a function whose `return`s are not all at the end of its body is first
//! put in *tail form* ([`tail_form`]): where an `if` has a `return` in one branch, the statements
//! after the `if` move into the branch that does not always return (a missing `else` becomes
//! one), so that every `return` ends a block and every such `if` ends its block too:
//!
//! ```text
//! if x < 0.0 { return 0.0; }          if x < 0.0 { return 0.0; }
//! let y = sqrt(x);               =>   else { let y = sqrt(x); return y * 2.0; }
//! return y * 2.0;
//! ```
//!
//! Then [`Lowerer::tail_block`] lowers a block in tail form to the values it returns: an `if` at
//! the end of a block is an `scf.if` whose branches yield the values each returns, and the
//! function returns that `if`'s results. Statements after a block's `return` (or after an `if`
//! both of whose branches return) never run and are not lowered, as Python never runs them.
//!
//! Not in tail form, so still E0905: a `return` inside a loop, and an `if` neither of whose
//! branches always returns although one has a `return` (the statements after it would have to
//! run in both branches).

use super::{LResult, Lowerer};
use arrayc_dialect::ir::{OpKind, ValueId};
use arrayc_grammar::ast::{always_returns, Block, DType, Span, Stmt};
use std::collections::BTreeSet;

/// Whether `stmts` have a `return`, in nested `if`s and loops too.
fn has_return(stmts: &[Stmt]) -> bool {
    first_return(stmts).is_some()
}

/// The first `return` of `stmts` (in source order), for errors.
fn first_return(stmts: &[Stmt]) -> Option<Span> {
    stmts.iter().find_map(|s| match s {
        Stmt::Return { span, .. } => Some(span.clone()),
        Stmt::If { then_block, else_block, .. } => {
            first_return(&then_block.stmts).or_else(|| else_block.as_ref().and_then(|b| first_return(&b.stmts)))
        }
        Stmt::For { body, .. } | Stmt::While { body, .. } => first_return(&body.stmts),
        _ => None,
    })
}

/// Why a body has no tail form: the `return` that cannot be lowered, and whether it is in a loop.
pub(crate) struct NotTail {
    pub(crate) span: Span,
    pub(crate) in_loop: bool,
}

/// `stmts` in tail form (see the module's docs), or `None` when they need none (no `return`
/// before the end). `implicit_return` is the `return;` that ends a function without results,
/// appended where the body falls through.
pub(crate) fn tail_form(stmts: &[Stmt], implicit_return: Option<&Stmt>) -> Result<Option<Vec<Stmt>>, NotTail> {
    let early = stmts.iter().enumerate().any(|(i, s)| {
        let last = i + 1 == stmts.len();
        !(last && matches!(s, Stmt::Return { .. })) && has_return(std::slice::from_ref(s))
    });
    if !early {
        return Ok(None);
    }
    let mut stmts = stmts.to_vec();
    if let Some(r) = implicit_return {
        if !matches!(stmts.last(), Some(Stmt::Return { .. })) {
            stmts.push(r.clone());
        }
    }
    rewrite(stmts).map(Some)
}

/// The tail form of `stmts` (a block that ends by returning on every path).
fn rewrite(mut stmts: Vec<Stmt>) -> Result<Vec<Stmt>, NotTail> {
    let Some(i) = stmts.iter().position(|s| has_return(std::slice::from_ref(s))) else {
        return Ok(stmts);
    };
    let rest = stmts.split_off(i + 1);
    let s = stmts.pop().unwrap_or_else(|| unreachable!("position {i} is in the block"));
    match s {
        Stmt::Return { .. } => stmts.push(s),
        Stmt::If { cond, then_block, else_block, span } => {
            let else_block = else_block.unwrap_or(Block { stmts: vec![], span: span.end..span.end });
            let (mut then_stmts, mut else_stmts) = (rewrite(then_block.stmts)?, rewrite(else_block.stmts)?);
            match (always_returns(&then_stmts), always_returns(&else_stmts)) {
                (true, true) => {}
                (true, false) => else_stmts = rewrite([else_stmts, rest].concat())?,
                (false, true) => then_stmts = rewrite([then_stmts, rest].concat())?,
                (false, false) => {
                    let span = first_return(&then_stmts).or_else(|| first_return(&else_stmts)).unwrap_or(span);
                    return Err(NotTail { span, in_loop: false });
                }
            }
            let then_block = Block { stmts: then_stmts, span: then_block.span };
            let else_block = Some(Block { stmts: else_stmts, span: else_block.span });
            stmts.push(Stmt::If { cond, then_block, else_block, span });
        }
        other => {
            let span = first_return(std::slice::from_ref(&other)).unwrap_or_else(|| other.span().clone());
            return Err(NotTail { span, in_loop: true });
        }
    }
    Ok(stmts)
}

impl Lowerer<'_> {
    /// Lowers `stmts`, a block in tail form ([`tail_form`]), in a scope of its own, to the values it
    /// returns: those of its last `return`, or the results of the `scf.if` that ends it, whose
    /// branches yield what each returns (E0913 where they return arrays of different ranks).
    pub(crate) fn tail_block(&mut self, stmts: &[Stmt]) -> LResult<Vec<ValueId>> {
        self.scopes.push(Default::default());
        let r = self.tail_stmts(stmts);
        self.scopes.pop();
        r
    }

    fn tail_stmts(&mut self, stmts: &[Stmt]) -> LResult<Vec<ValueId>> {
        let Some((last, init)) = stmts.split_last() else { unreachable!("a block in tail form returns") };
        self.stmts_with_jumps(init)?;
        self.set_loc(last.span());
        match last {
            Stmt::Return { values, span } => self.return_values(values, span),
            Stmt::If { cond, then_block, else_block: Some(else_block), .. } if self.static_truth(cond).is_some() => {
                // A question about dtypes decides the branch at compile time (`dtype_queries`).
                let taken = if self.static_truth(cond) == Some(true) { then_block } else { else_block };
                self.tail_block(&taken.stmts)
            }
            Stmt::If { cond, then_block, else_block: Some(else_block), span } => {
                let c = self.expr(cond)?;
                let c = self.cast_scalar(c, DType::Bool);
                let mut names = vec![];
                self.assigned_outer(&then_block.stmts, &BTreeSet::new(), &mut names, true);
                self.assigned_outer(&else_block.stmts, &BTreeSet::new(), &mut names, true);
                let before = self.current(&names);
                let (then_body, then_yields) = self.in_body(|l| l.tail_block(&then_block.stmts))?;
                self.bind_all(&names, &before);
                let (else_body, else_yields) = self.in_body(|l| l.tail_block(&else_block.stmts))?;
                self.bind_all(&names, &before);
                let then_types = then_yields.iter().map(|v| self.f.ty(*v));
                if !then_types.eq(else_yields.iter().map(|v| self.f.ty(*v))) {
                    return Err(self.error(
                        "E0913",
                        span,
                        "the branches of this `if` return arrays of different ranks or dtypes",
                        "return the same type from every `return` of the function",
                    ));
                }
                let names: Vec<String> = (0..then_yields.len()).map(|k| format!("return.{k}")).collect();
                let results = self.results_like(&then_yields, &names);
                self.emit(OpKind::If {
                    cond: c,
                    then_body,
                    then_yields,
                    else_body,
                    else_yields,
                    results: results.clone(),
                });
                Ok(results)
            }
            _ => unreachable!("a block in tail form ends with `return` or an `if` that returns"),
        }
    }
}

//! Pass `distribute`: makes the communication of a distributed run (`arrayc run --distributed`,
//! docs/distributed.md) explicit in the `arr` module, before `wsp-fusion` (issue 30; DESIGN.md:
//! "distribution as a pass plus a launcher").
//!
//! The model is owner computes over blocks of rows along axis 0 (DistNumPy, Ramba): each rank runs
//! a computation over the rows of its iteration space that it owns. The pass inserts
//! * `arr.exchange %v` before a computation for each input view `%v` that it may read on a rank
//!   where another rank owns it: every view not provably read on the rows it is computed on (the
//!   same rows, by [`row_margin`], of a base array with as many rows as the output's; a stencil's
//!   `grid[:-2, 1:-1]` beside `grid[1:-1, 1:-1]`, or any view whose sizes are not constants), a
//!   reversed, transposed or broadcast axis 0, an operand of lower rank than the iteration space
//!   (broadcast across rows), and a gather's gathered array (read anywhere);
//! * `arr.allreduce %out {kind}` right after a reduction and after a scatter-add (`add_at`,
//!   `bincount`): each rank computes a partial result from its own rows, and the ranks combine them
//!   in rank order (where the launch left none, a reduction along another axis than 0, it does
//!   nothing).
//!
//! Both join the WSP partition's blocks as `arr.del` and `arr.sync` do (`wsp::region::OpKind::
//! Communication`; an exchange runs before its block's kernel, an all-reduce after it), so the
//! partition, and with it every rank's kernels, is the single process's. The only fuse-preventing
//! edges they add are ones the single process already has: an exchange is fusible with every op
//! (what a block's kernel writes and reads of one base is one view, Def. 12, computed on the rows
//! it is read on, so an exchange announced for it moves nothing), and an all-reduce never shares a
//! block with a later read or write of its partial results (a reduction's output is
//! fuse-preventing for its readers, a scatter's target for any other use).
//!
//! Views are compared by where their rows lie in their base arrays ([`row_margin`]), with their
//! sizes as constants where the partition is specialised to the entry's arguments (`arrayc run`),
//! against the computation's output (or its first input, for a reduction or a scatter). An
//! exchange is an announcement: the launcher (`arrayc-dist`) moves at the launch only the
//! elements it reads from other ranks' blocks under the run-time distribution (none where that
//! lines up: heat's 100-row temporary takes the rows of the 102-row grid's interior; none for a
//! replicated array), all of a launch's exchanges in one message per pair of ranks. Elements a
//! launch reads from other ranks without an announced exchange are still fetched and counted
//! (`ARRAYC_DIST_STRICT=1` makes them an error: the tests run so).
//!
//! Runs after `sink-loads` and before `insert-del-sync` (so an array's `arr.del` follows its
//! all-reduce), only for distributed runs.

use crate::roots::base_arrays;
use crate::wsp::View;
use crate::wsp_fusion::{called_functions, function_symbols, region::Symbols, FusionOptions};
use arrayc_dialect::ir::{Body, ComputeFn, Func, Module, Op, OpKind, ReduceKind, ScatterKind, Type, ValueId};
use std::collections::HashMap;

/// The pass's name: its `arrayc-opt --pass` flag.
pub const NAME: &str = "distribute";

/// Inserts the exchanges and all-reduces of every host function of `m`. `opts.specialize` gives
/// the known argument shapes (as in `wsp-fusion`), which make the rows of views constants.
pub fn run(m: &mut Module, opts: &FusionOptions) {
    let called = called_functions(m);
    for f in m.funcs.iter_mut().filter(|f| !f.kernel) {
        let bases = base_arrays(f);
        let mut syms = function_symbols(f, &bases, opts, &called);
        let mut body = std::mem::take(&mut f.body);
        distribute_body(&mut body, f, &bases, &mut syms);
        f.body = body;
    }
}

fn distribute_body(body: &mut Body, f: &Func, bases: &HashMap<ValueId, ValueId>, syms: &mut Symbols) {
    let old = std::mem::take(body);
    for mut op in old {
        syms.learn(f, &op.kind);
        for b in op.kind.bodies_mut() {
            distribute_body(b, f, bases, syms);
        }
        let OpKind::Compute { func, out, ins } = &op.kind else {
            body.push(op);
            continue;
        };
        let (func, out) = (*func, *out);
        for view in exchanged(func, out, ins, f, bases, syms) {
            body.push(Op { kind: OpKind::Exchange { view }, loc: op.loc, block: None });
        }
        let loc = op.loc;
        body.push(op);
        if let Some(kind) = all_reduced(func, out, f) {
            body.push(Op { kind: OpKind::AllReduce { view: out, kind }, loc, block: None });
        }
    }
}

fn rank(f: &Func, v: ValueId) -> usize {
    match f.ty(v) {
        Type::Array(_, r) => r,
        _ => 0,
    }
}

/// How the ranks' partial results of computation `func` writing `out` combine: reductions (over
/// everything or along axis 0 they leave partial results; along another axis none, and the
/// all-reduce does nothing), and scatter-adds (whose target each rank adds its rows' values to).
fn all_reduced(func: ComputeFn, out: ValueId, f: &Func) -> Option<ReduceKind> {
    match func {
        // Along any axis: `outline-kernels` may run a reduction along the last axis of transposed
        // views as one along axis 0 (`sum(x.T, axis=1)`), whose rows then split across ranks.
        ComputeFn::Reduce(kind, _) => Some(kind),
        ComputeFn::Scatter(ScatterKind::Add, _) if rank(f, out) >= 1 => Some(ReduceKind::Sum),
        _ => None,
    }
}

/// [`arrayc_core::shape::row_margin`] of view `w` (of a base array whose whole view is `base`),
/// with the base's row count. `None` where the offsets, strides or sizes are not constants, or
/// axis 0 does not step forward over whole rows of the base.
fn row_margin(w: &View, base: &View) -> Option<(i64, i64)> {
    let rows = base.shape.first()?.as_const()?;
    let offset = w.offset.as_const()? - base.offset.as_const()?;
    let (s0, n) = (w.strides.first()?.as_const()?, w.shape.first()?.as_const()?);
    let margin = arrayc_core::shape::row_margin(offset, s0, n, base.strides.first()?.as_const()?, rows)?;
    Some((margin, rows))
}

/// The input views of computation `func` (writing `out`, reading `ins`) that need an exchange
/// before it (see the module docs), each once, in operand order. `bases` maps each array value
/// to its base array's value ([`base_arrays`]).
fn exchanged(
    func: ComputeFn,
    out: ValueId,
    ins: &[ValueId],
    f: &Func,
    bases: &HashMap<ValueId, ValueId>,
    syms: &mut Symbols,
) -> Vec<ValueId> {
    let arrays: Vec<ValueId> = ins.iter().copied().filter(|&v| rank(f, v) >= 1).collect();
    let Some(&first) = arrays.first() else { return vec![] };
    let space_rank = match func {
        ComputeFn::Reduce(..) | ComputeFn::Scatter(..) => rank(f, first),
        _ => rank(f, out),
    };
    let gathered = matches!(func, ComputeFn::Gather(_)).then_some(first);
    let mut margin = |v: ValueId| {
        let w = syms.view(f, v);
        let base = syms.view(f, bases.get(&v).copied().unwrap_or(v));
        (row_margin(&w, &base), w)
    };
    // The rows the computation runs over: its output's (not a scatter's target, written
    // anywhere), else its first input's (a reduction's reduced array, a scatter's indices).
    let anchor =
        if rank(f, out) >= 1 && !matches!(func, ComputeFn::Scatter(..)) { margin(out).0 } else { margin(first).0 };
    let mut need = vec![];
    for &v in &arrays {
        let (m, w) = margin(v);
        let s0 = w.strides.first().and_then(|s| s.as_const());
        let s1 = w.strides.get(1).and_then(|s| s.as_const());
        let odd_axis0 = s0.is_some_and(|s| s <= 0) || matches!((s0, s1), (Some(a), Some(c)) if a < c);
        // Provably read on the rows it is computed on: the same rows of bases of as many rows.
        let aligned = m.is_some() && m == anchor;
        if (Some(v) == gathered || rank(f, v) < space_rank || odd_axis0 || !aligned) && !need.contains(&v) {
            need.push(v);
        }
    }
    need
}

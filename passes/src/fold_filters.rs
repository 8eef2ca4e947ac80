//! Pass `fold-filters`: a filter whose result is only reduced over everything is folded into the
//! reduction, so the size-changing operation never materialises (Robinson et al. 2014, Sec. 3:
//! normalize2's `sum(xs[xs > 0])` in one loop with `sum(xs)`, Fig. 1).
//!
//! `lower-ast` lowers `x[mask]` (1-d) as the count `sum(mask)`, read by the host to allocate the
//! result, and a scatter of each selected element to its position (`cumsum(mask) - 1`, unselected
//! elements past the end, dropped): see `lower_ast::Lower::filter`. When the only other use of the
//! result is a `sum` or `prod` over everything, the selected elements' order and count do not
//! matter: the reduction reads `where(mask, x, identity)` instead, over the mask's space, and the
//! scatter goes. What only the scatter needed then goes too (its positions and, unless a `mean`
//! still divides by it, the count and the host's read of it), so the host no longer waits between
//! the reduction and what precedes it, and `sink-loads` and `wsp-fusion` can put it in one kernel
//! with the other reductions of the region. The result is NumPy's up to the grouping of the
//! additions (an unselected element adds the identity, exactly).
//!
//! Runs right after `lower-ast`, before `arr.del` and `arr.sync` exist.

/// The pass's name: its `arrayc-opt --pass` flag.
pub const NAME: &str = "fold-filters";

use crate::roots::{base_arrays, base_of};
use arrayc_core::semantics::reduce_identity;
use arrayc_dialect::ir::{
    Body, ComputeFn, Func, Module, Op, OpKind, ReduceKind, ScatterKind, ScatterMode, Type, ValueId,
};
use std::collections::HashMap;

/// Runs the pass on every host function.
pub fn run(m: &mut Module) {
    for f in m.funcs.iter_mut().filter(|f| !f.kernel) {
        while let Some(fold) = find_fold(f) {
            apply(f, fold);
        }
    }
}

/// A reduction of a filter's result that can read the filter's input instead.
struct Fold {
    /// The filter's result (`arr.new` of the count's size, written by one scatter).
    result: ValueId,
    /// The reduction's kind.
    kind: ReduceKind,
    /// The positions the scatter wrote to, the mask, its space's sizes and the filtered values (of
    /// the mask's shape).
    positions: ValueId,
    mask: ValueId,
    sizes: Vec<ValueId>,
    values: ValueId,
}

/// Per value: `(reads, writes)`, the operations that have it as an operand (see [`uses`]).
type Uses<'f> = HashMap<ValueId, (Vec<&'f OpKind>, Vec<&'f OpKind>)>;

/// Every use of each value in `f`, nested bodies included: `(reads, writes)` of the operations
/// that have it as an operand, writes being a computation's output that it does not also read.
fn uses(f: &Func) -> Uses<'_> {
    fn walk<'f>(body: &'f Body, acc: &mut Uses<'f>) {
        for op in body {
            let (out, ins) = match &op.kind {
                OpKind::Compute { out, ins, .. } => (Some(*out), ins.clone()),
                k => (None, k.operands()),
            };
            if let Some(o) = out.filter(|o| !ins.contains(o)) {
                acc.entry(o).or_default().1.push(&op.kind);
            }
            for v in ins {
                acc.entry(v).or_default().0.push(&op.kind);
            }
            for b in op.kind.bodies() {
                walk(b, acc);
            }
        }
    }
    let mut acc = HashMap::new();
    walk(&f.body, &mut acc);
    acc
}

/// The first reduction of a filter's result in `f` that [`apply`] can fold, if any.
fn find_fold(f: &Func) -> Option<Fold> {
    let uses = uses(f);
    let defs = definitions(&f.body);
    let only = |v: ValueId| uses.get(&v).map_or((&[][..], &[][..]), |(r, w)| (&r[..], &w[..]));
    for (v, (reads, writes)) in &uses {
        // One reduction over everything reads it, one dropping scatter writes it.
        let ([OpKind::Compute { func: ComputeFn::Reduce(kind @ (ReduceKind::Sum | ReduceKind::Prod), _), .. }], [w]) =
            (&reads[..], &writes[..])
        else {
            continue;
        };
        let OpKind::Compute { func: ComputeFn::Scatter(ScatterKind::Set, ScatterMode::Drop), ins, .. } = w else {
            continue;
        };
        let ([idx, values], Some(OpKind::New { .. })) = (&ins[..], defs.get(v)) else { continue };
        if !matches!(f.ty(*v), Type::Array(_, 1)) {
            continue;
        }
        // The positions: `where(mask, position, count)`, an array of the mask's space that only
        // the scatter reads.
        let (idx_reads, idx_writes) = only(*idx);
        let [OpKind::Compute { func: ComputeFn::Where, ins: w_ins, .. }] = idx_writes else { continue };
        let Some(OpKind::New { sizes, .. }) = defs.get(idx) else { continue };
        if idx_reads.len() != 1
            || w_ins.len() != 3
            || !unchanging(w_ins[0], f, &uses, &defs)
            || !unchanging(*values, f, &uses, &defs)
        {
            continue;
        }
        return Some(Fold {
            result: *v,
            kind: *kind,
            positions: *idx,
            mask: w_ins[0],
            sizes: sizes.clone(),
            values: *values,
        });
    }
    None
}

/// Whether the array `v` keeps its values from its computation on, so that the reduction may read
/// it later instead of the filter's result. An `arr.new` array (or a broadcast of one) that one
/// computation writes and that only computations read (directly, through `arr.dim` or through
/// broadcasts of it): no view that could be written, no call that could write it. A parameter of
/// a function that writes no array from outside its own allocations and passes no array to a call
/// (so neither it nor an alias of it can change).
fn unchanging(v: ValueId, f: &Func, uses: &Uses, defs: &HashMap<ValueId, &OpKind>) -> bool {
    if let Some(OpKind::Broadcast { src, .. }) = defs.get(&v) {
        return unchanging(*src, f, uses, defs);
    }
    fn only_read(v: ValueId, uses: &Uses) -> bool {
        let Some((reads, _)) = uses.get(&v) else { return true };
        reads.iter().all(|k| match k {
            OpKind::Compute { out, .. } => *out != v,
            OpKind::Dim { .. } => true,
            OpKind::Broadcast { res, .. } => uses.get(res).is_none_or(|(_, w)| w.is_empty()) && only_read(*res, uses),
            _ => false,
        })
    }
    if f.params.contains(&v) {
        let bases = base_arrays(f);
        let outside = |a: ValueId| {
            let b = base_of(&bases, a);
            !matches!(defs.get(&b), Some(OpKind::New { .. }))
        };
        return uses.values().flat_map(|(r, w)| r.iter().chain(w)).all(|k| match k {
            OpKind::Compute { out, .. } => !outside(*out),
            OpKind::Call { args, .. } => args.iter().all(|&a| !f.ty(a).is_array()),
            _ => true,
        });
    }
    matches!(defs.get(&v), Some(OpKind::New { .. }))
        && uses.get(&v).is_some_and(|(_, w)| w.len() == 1)
        && only_read(v, uses)
}

/// The operation that defines each value of `body` (nested bodies included).
fn definitions(body: &Body) -> HashMap<ValueId, &OpKind> {
    let mut defs = HashMap::new();
    for op in body {
        for r in op.kind.results() {
            defs.insert(r, &op.kind);
        }
        for b in op.kind.bodies() {
            defs.extend(definitions(b));
        }
    }
    defs
}

/// Rewrites the reduction of `fold.result` to read `where(mask, values, identity)`, removes the
/// scatter, then what only it needed.
fn apply(f: &mut Func, fold: Fold) {
    let (Type::Array(d, _), Type::Array(_, rank)) = (f.ty(fold.result), f.ty(fold.positions)) else { return };
    let ident = f.new_value(Type::Scalar(d), None);
    let selected = f.new_value(Type::Array(d, rank), None);
    let mut body = std::mem::take(&mut f.body);
    rewrite(&mut body, &fold, ident, selected, d);
    f.body = body;
    remove_dead(f, vec![fold.result, fold.positions, fold.values]);
}

/// [`apply`]'s rewrite in `body` (and its nested bodies): the scatter into `fold.result` goes, and
/// the reduction of it reads `selected` (computed just before it) instead.
fn rewrite(body: &mut Body, fold: &Fold, ident: ValueId, selected: ValueId, d: arrayc_core::DType) {
    let mut out = Vec::with_capacity(body.len() + 3);
    for mut op in std::mem::take(body) {
        for b in op.kind.bodies_mut() {
            rewrite(b, fold, ident, selected, d);
        }
        match &mut op.kind {
            OpKind::Compute { func: ComputeFn::Scatter(..), out: o, .. } if *o == fold.result => continue,
            OpKind::Compute { func: func @ ComputeFn::Reduce(..), ins, .. } if ins[0] == fold.result => {
                // Over everything of the mask's space (of any rank).
                *func = ComputeFn::Reduce(fold.kind, None);
                ins[0] = selected;
                let at = |kind| Op { kind, loc: op.loc, block: None };
                out.push(at(OpKind::Const { res: ident, value: reduce_identity(fold.kind, d) }));
                out.push(at(OpKind::New { res: selected, sizes: fold.sizes.clone() }));
                out.push(at(OpKind::Compute {
                    func: ComputeFn::Where,
                    out: selected,
                    ins: vec![fold.mask, fold.values, ident],
                }));
            }
            _ => {}
        }
        out.push(op);
    }
    *body = out;
}

/// Removes, starting from `candidates`, the operations whose results nothing reads any more: an
/// `arr.new` array only written (with the fault-free computations writing it), an unread view or
/// host read (`arr.load`), and, through their operands, what only they read. Never an operation
/// that can raise (`cf.assert`, a kernel fault, scalar arithmetic).
fn remove_dead(f: &mut Func, mut candidates: Vec<ValueId>) {
    while let Some(v) = candidates.pop() {
        let defs = definitions(&f.body);
        let uses = uses(f);
        let (reads, writes) = uses.get(&v).map_or((&[][..], &[][..]), |(r, w)| (&r[..], &w[..]));
        let dead = reads.is_empty()
            && match defs.get(&v) {
                Some(OpKind::New { .. }) => writes.iter().all(|w| match w {
                    OpKind::Compute { func, out, ins } => {
                        crate::kernel_layout::fault_of(*func, f.ty(*out).dtype(), ins.len()).is_none()
                    }
                    _ => false,
                }),
                Some(OpKind::Load { .. } | OpKind::View { .. } | OpKind::Broadcast { .. }) => writes.is_empty(),
                _ => false,
            };
        if !dead {
            continue;
        }
        let mut removed = vec![];
        let mut body = std::mem::take(&mut f.body);
        remove_ops(&mut body, v, &mut removed);
        f.body = body;
        for k in removed {
            candidates.extend(k.operands().into_iter().filter(|&o| o != v));
        }
    }
}

/// Removes from `body` (and its nested bodies) the definition of `v` and the computations that
/// write it, appending them to `removed`.
fn remove_ops(body: &mut Body, v: ValueId, removed: &mut Vec<OpKind>) {
    body.retain_mut(|op| {
        for b in op.kind.bodies_mut() {
            remove_ops(b, v, removed);
        }
        let goes = op.kind.results().contains(&v) || matches!(&op.kind, OpKind::Compute { out, .. } if *out == v);
        if goes {
            removed.push(op.kind.clone());
        }
        !goes
    });
}

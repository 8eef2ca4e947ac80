//! Reductions along the last axis of transposed arrays: `sum(x.T, axis=1)`.
//!
//! A kernel's loop nest reducing along the last axis of its iteration space walks that axis
//! innermost (`arrayc_codegen`'s loops: one accumulator per output element). When the views it
//! reads are contiguous along the axis before it instead (transposes of row-major arrays), that
//! inner loop strides through memory: `sum(x.T, axis=1)` of a 2000 x 2000 f64 array ran 7 times
//! slower than NumPy's, and 7 times slower than the same sum written `sum(x, axis=0)`. Swapping the
//! last two axes of every view the kernel reads and writes at full rank, and reducing along the
//! axis before the last instead, gives the loop nest of a reduction along an axis that is not the
//! last: the axis loop outside, the contiguous axis innermost, each output element accumulated in
//! place (Kristensen et al. 2016, Sec. IV-A: one loop nest per block, here in a better order).
//!
//! Values do not change: each output element still combines its inputs in axis order
//! (`arrayc_codegen`'s loops document both orders), and only operations that do not depend on an
//! element's position qualify (no `arange`, `random`, gather, scatter or scan).

use super::State;
use crate::wsp_fusion::region::Symbols;
use arrayc_core::abi::acc_dtype;
use arrayc_dialect::ir::{Body, ComputeFn, Func, Loc, Op, OpKind, Type, ValueId};

/// When kernel `k` (called with host values `args`) only computes elementwise and reduces along the
/// last axis of a rank `r >= 2` space, accumulating in the output's dtype, and every argument of
/// rank `r` is known to be contiguous along axis `r - 2` (stride 1 element), rewrites the call:
/// each such argument becomes its transpose with the last two axes swapped (an `arr.transpose`
/// appended to `out`, a view: no data moves), and the reductions reduce along axis `r - 2`. The
/// output arrays (rank `r - 1`) and 0-d arguments are unchanged. Returns the kernel's inner
/// strides ([`Func::inner_strides`]) for the rewritten arguments (1 for each transposed one), or
/// `None` when nothing changed.
pub(super) fn reduce_along_contiguous_axis(
    k: &mut Func,
    args: &mut [ValueId],
    host: &Func,
    syms: &mut Symbols,
    st: &mut State,
    loc: Option<Loc>,
    out: &mut Body,
) -> Option<Vec<Option<i64>>> {
    let r = last_axis_reduction_rank(k)?;
    let transposed: Vec<bool> = k.params.iter().map(|&p| matches!(k.ty(p), Type::Array(_, pr) if pr == r)).collect();
    // No argument of the space's rank (every full-rank array contracted, `sum(ones(n, m), axis=1)`):
    // the shape parameter added later (`add_shape_param`) has the untransposed sizes, so the
    // reduction must stay along the last axis.
    if !transposed.contains(&true) {
        return None;
    }
    for (&a, &t) in args.iter().zip(&transposed) {
        if t && syms.view(host, a).strides[r - 2].as_const() != Some(1) {
            return None;
        }
    }
    for op in &mut k.body {
        if let OpKind::Compute { func: ComputeFn::Reduce(_, axis), .. } = &mut op.kind {
            *axis = Some(r - 2);
        }
    }
    let mut perm: Vec<usize> = (0..r).collect();
    perm.swap(r - 2, r - 1);
    // The other arguments keep the strides the fusion symbols know; each transposed one has 1.
    let mut strides = super::inner_strides(args, host, syms);
    strides.resize(args.len(), None);
    for ((a, t), s) in args.iter_mut().zip(transposed).zip(&mut strides) {
        if t {
            let res = st.host_value(host, host.ty(*a));
            out.push(Op { kind: OpKind::Transpose { res, src: *a, perm: perm.clone() }, loc, block: None });
            *a = res;
            *s = Some(1);
        }
    }
    Some(strides)
}

/// The rank `r >= 2` of the space of kernel `k` when its body is elementwise operations that do
/// not depend on an element's position, then at least one reduction, every one along axis `r - 1`
/// and accumulating in its output's dtype; else `None`.
fn last_axis_reduction_rank(k: &Func) -> Option<usize> {
    let mut rank = None;
    for op in &k.body {
        let OpKind::Compute { func, out, ins } = &op.kind else { return None };
        match func {
            ComputeFn::Fill | ComputeFn::Copy | ComputeFn::Where | ComputeFn::Binary(_) | ComputeFn::Unary(_) => {}
            ComputeFn::Reduce(kind, Some(axis)) => {
                let Type::Array(_, r) = k.ty(ins[0]) else { return None };
                let od = k.ty(*out).dtype();
                if r < 2
                    || *axis != r - 1
                    || acc_dtype(*kind, od) != od
                    || kind.is_arg()
                    || rank.is_some_and(|q| q != r)
                {
                    return None;
                }
                rank = Some(r);
            }
            _ => return None,
        }
    }
    rank
}

//! The CPU target: lowers target-neutral kernels (an `scf.parallel` over the whole iteration space)
//! to the chunk calling convention of `arrayc_runtime::launch`: each kernel function gets the
//! arguments its [`KernelAbi`] for [`Target::Cpu`](arrayc_core::abi::Target::Cpu) adds to the
//! target-neutral ones, two more arguments `%lo, %hi: index`, and every `scf.parallel` marked with `arrayc.chunk` runs its marked
//! dimension over `[%lo, %hi)` instead of its full extent (in elements of that dimension); an
//! `scf.for` over dimension 0 takes its bounds from placeholders marked `arrayc.chunk_bound`
//! ([`ChunkBound`]), which become `%lo` and `%hi`. A kernel with a reduction split along its axis
//! ([`KernelLayout::axis_split`](arrayc_core::abi::KernelLayout::axis_split)) gets two more,
//! `%axis_lo, %axis_hi: index`, the range of its axis loop, whose placeholders become them. The launcher splits
//! one of the two ranges into chunks of about 64K elements and passes the other whole, and runs the
//! chunks on rayon's pool; a reduction over everything, or one split along its axis, then yields
//! partial outputs per chunk, which the launcher combines in chunk order. The MLIR pipeline lowers
//! the parallel loops to sequential loops per chunk (`convert-scf-to-cf`), whose innermost loop LLVM
//! vectorises. A loop with a long body that carries accumulators gets its vector width fixed to the
//! host's 64-bit lanes ([`HEAVY_LOOP_ANNOTATIONS`]).

use super::abi::{arg_type, function_type};
use super::builder::{
    ChunkBound, CHUNK_ATTR, CHUNK_BOUND_ATTR, HEAVY_LOOP_ANNOTATION, HEAVY_LOOP_ANNOTATIONS, LOOP_ANNOTATION,
};
use arrayc_core::abi::{KernelAbi, KernelArg};
use melior::{
    ir::{
        attribute::{Attribute, IntegerAttribute, TypeAttribute},
        block::BlockLike,
        operation::{OperationLike, OperationMutLike, OperationRefMut, WalkOrder, WalkResult},
        Location, Module, RegionLike,
    },
    Context,
};

/// Lowers every kernel function of `module` (built by `super::kernels_module`; `abis`: each one's
/// [`KernelAbi`] for the CPU, in order) to the chunk calling convention (see the module docs), and
/// gives every loop annotated with
/// [`HEAVY_LOOP_ANNOTATION`] the vector width of `lanes` 64-bit lanes (2, 4 or 8: the host's vector
/// register in bits over 64; another number leaves the width to LLVM).
pub fn lower_to_chunks(context: &Context, module: &Module, abis: &[KernelAbi], lanes: u32) {
    let location = Location::unknown(context);
    let parse = |a: &str| Attribute::parse(context, a).expect("a valid loop annotation");
    let heavy = parse(HEAVY_LOOP_ANNOTATION);
    let widened = HEAVY_LOOP_ANNOTATIONS.iter().find(|(l, _)| *l == lanes).map(|(_, a)| parse(a));
    let mut func = module.body().first_operation();
    for abi in abis {
        let Some(f) = func else { break };
        func = f.next_in_block();
        // Collected first: the walk does not allow changing the operations it visits.
        let mut marked = vec![];
        let mut bounds = vec![];
        let mut heavy_loops = vec![];
        f.walk(WalkOrder::PreOrder, |op| {
            if op.attribute(LOOP_ANNOTATION).is_ok_and(|a| a == heavy) {
                heavy_loops.push(op.to_raw());
            }
            if let Ok(dim) = op.attribute(CHUNK_ATTR) {
                let dim = IntegerAttribute::try_from(dim).expect("an index attribute").value() as usize;
                marked.push((op.to_raw(), dim));
            }
            if let Ok(b) = op.attribute(CHUNK_BOUND_ATTR) {
                bounds.push((op.to_raw(), IntegerAttribute::try_from(b).expect("an index attribute").value()));
            }
            WalkResult::Advance
        });
        let entry = f.region(0).expect("a function body").first_block().expect("an entry block");
        // The arguments the CPU adds to the target-neutral ones, in the ABI's order.
        let mut added = vec![];
        for a in abi.args().iter().skip(entry.argument_count()) {
            added.push((a.arg, entry.add_argument(arg_type(context, a.ty), location)));
        }
        // SAFETY: `f` is an operation of `module`, alive for this call; nothing else refers to it.
        let mut fm = unsafe { OperationRefMut::from_raw(f.to_raw()) };
        fm.set_attribute("function_type", TypeAttribute::new(function_type(context, abi.args()).into()).into());
        let at = |arg: KernelArg| added.iter().find(|(a, _)| *a == arg).map(|&(_, v)| v);
        let (Some(lo), Some(hi)) = (at(KernelArg::ChunkLo), at(KernelArg::ChunkHi)) else { continue };
        let axis_bounds = at(KernelArg::AxisLo).zip(at(KernelArg::AxisHi));
        for (raw, dim) in marked {
            // SAFETY: collected from the walk of `f` just above; no operation was removed since.
            let mut op = unsafe { OperationRefMut::from_raw(raw) };
            // `scf.parallel`: `n` lower bounds, `n` upper bounds, `n` steps.
            let n = op.region(0).expect("a loop body").first_block().expect("a loop block").argument_count();
            op.set_operand(dim, lo);
            op.set_operand(n + dim, hi);
            op.remove_attribute(CHUNK_ATTR).expect("the chunk marker");
        }
        for (raw, b) in bounds {
            let bound = match b {
                b if b == ChunkBound::Lo as i64 => Some(lo),
                b if b == ChunkBound::Hi as i64 => Some(hi),
                b if b == ChunkBound::AxisLo as i64 => axis_bounds.map(|(l, _)| l),
                _ => axis_bounds.map(|(_, h)| h),
            };
            // SAFETY: as above.
            let mut op = unsafe { OperationRefMut::from_raw(raw) };
            // The placeholder `arith.addi %full_bound, %c0`: its first operand becomes the chunk's.
            if let Some(v) = bound {
                op.set_operand(0, v);
            }
            op.remove_attribute(CHUNK_BOUND_ATTR).expect("the chunk bound marker");
        }
        if let Some(w) = widened {
            for raw in heavy_loops {
                // SAFETY: as above.
                let mut op = unsafe { OperationRefMut::from_raw(raw) };
                op.set_attribute(LOOP_ANNOTATION, w);
            }
        }
    }
}

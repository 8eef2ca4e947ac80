//! The CPU target: lowers target-neutral kernels (an `scf.parallel` over the whole iteration space)
//! to the chunk calling convention of `arrayc_runtime::launch`: each kernel function gets two more
//! arguments `%lo, %hi: index`, and every `scf.parallel` marked with `arrayc.chunk` runs its marked
//! dimension over `[%lo, %hi)` instead of its full extent (in elements of that dimension). The
//! launcher splits dimension 0 of the chunked space into chunks of about 64K elements and runs them
//! on rayon's pool; a reduction over everything then yields one partial per chunk, which the launcher
//! combines in chunk order. The MLIR pipeline lowers the parallel loops to sequential loops per chunk
//! (`convert-scf-to-cf`), whose innermost loop LLVM vectorises.

use super::builder::CHUNK_ATTR;
use melior::{
    ir::{
        attribute::{IntegerAttribute, TypeAttribute},
        block::BlockLike,
        operation::{OperationLike, OperationMutLike, OperationRefMut, WalkOrder, WalkResult},
        r#type::FunctionType,
        Location, Module, RegionLike, Type, ValueLike,
    },
    Context,
};

/// Lowers every kernel function of `module` (built by `super::kernels_module`) to the chunk
/// calling convention (see the module docs).
pub fn lower_to_chunks(context: &Context, module: &Module) {
    let location = Location::unknown(context);
    let index = Type::index(context);
    let mut func = module.body().first_operation();
    while let Some(f) = func {
        func = f.next_in_block();
        let entry = f.region(0).expect("a function body").first_block().expect("an entry block");
        let lo = entry.add_argument(index, location);
        let hi = entry.add_argument(index, location);
        let inputs: Vec<Type> =
            (0..entry.argument_count()).map(|i| entry.argument(i).expect("an argument").r#type()).collect();
        let chunked_ty = FunctionType::new(context, &inputs, &[]);
        // Collected first: the walk does not allow changing the operations it visits.
        let mut marked = vec![];
        f.walk(WalkOrder::PreOrder, |op| {
            if let Ok(dim) = op.attribute(CHUNK_ATTR) {
                let dim = IntegerAttribute::try_from(dim).expect("an index attribute").value() as usize;
                marked.push((op.to_raw(), dim));
            }
            WalkResult::Advance
        });
        // SAFETY: `f` is an operation of `module`, alive for this call; nothing else refers to it.
        let mut fm = unsafe { OperationRefMut::from_raw(f.to_raw()) };
        fm.set_attribute("function_type", TypeAttribute::new(chunked_ty.into()).into());
        for (raw, dim) in marked {
            // SAFETY: collected from the walk of `f` just above; no operation was removed since.
            let mut op = unsafe { OperationRefMut::from_raw(raw) };
            // Operands: `n` lower bounds, `n` upper bounds, `n` steps, then the reductions' inits.
            let n = op.region(0).expect("a loop body").first_block().expect("a loop block").argument_count();
            op.set_operand(dim, lo);
            op.set_operand(n + dim, hi);
            op.remove_attribute(CHUNK_ATTR).expect("the chunk marker");
        }
    }
}

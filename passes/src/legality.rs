//! What a kernel may contain: the back end's one description of a compilable block, used by the
//! outline pass to decide whether a fused block fits one kernel (Kristensen et al. 2016, Sec. IV-A:
//! a block becomes one loop nest) and by the code generator, which builds only legal kernels.
//!
//! A kernel is legal when its block has one of the forms of [`kernel_layout`] (elementwise ops over
//! one iteration space, then optionally reductions along one axis; contracted temporaries written
//! before they are read; ranks that fit the space) and each elementwise op is one this back end can
//! compute: the right number of inputs, a view as output, no `~` of a float, `arange` only over a
//! 1-d space.

use crate::kernel_layout::{kernel_layout, KernelLayout, UnsupportedKernel};
use arrayc_dialect::ir::{self, ComputeFn, Type, UnFn, ValueId};

/// The number of inputs of elementwise function `func` (`None` for a reduction, which
/// [`kernel_layout`] checks, and for a gather, which takes one index array per gathered axis).
fn arity(func: ComputeFn) -> Option<usize> {
    Some(match func {
        ComputeFn::Fill | ComputeFn::Copy | ComputeFn::Random | ComputeFn::Unary(_) | ComputeFn::Scan(..) => 1,
        ComputeFn::Arange | ComputeFn::Binary(_) => 2,
        // One index array per gathered (scattered) axis, and the gathered array (the value).
        ComputeFn::Gather(_) | ComputeFn::Scatter(..) => return None,
        ComputeFn::Where => 3,
        ComputeFn::Reduce(..) => return None,
    })
}

/// Whether elementwise op `func(ins) -> out` of kernel `f` can be computed in an iteration space of
/// rank `rank`; `Err` with the reason.
fn op_legality(
    f: &ir::Func,
    rank: usize,
    func: ComputeFn,
    out: ValueId,
    ins: &[ValueId],
) -> Result<(), UnsupportedKernel> {
    if let Some(n) = arity(func) {
        if ins.len() != n {
            return Err(format!("`{}` takes {n} inputs, got {}", func.name(), ins.len()).into());
        }
    }
    let Type::Array(od, _) = f.ty(out) else {
        return Err(format!("output %v{out} of `{}` is not a view", func.name()).into());
    };
    match func {
        ComputeFn::Unary(UnFn::Not) if od.is_float() => Err("`~` of a float".into()),
        ComputeFn::Arange if rank != 1 => Err("arange over a non-1-d iteration space".into()),
        // The gathered array is read at indices the iteration does not determine: it must be
        // materialised (a parameter), never a contracted temporary of the block.
        ComputeFn::Gather(_) if !f.params.contains(&ins[0]) => {
            Err(format!("the gathered array %v{} of `gather` is not a kernel parameter", ins[0]).into())
        }
        ComputeFn::Scatter(..) => {
            let count = ins.len() - 1;
            let fits = matches!(f.ty(out), Type::Array(_, r) if count >= 1 && r >= count && rank + count >= r)
                && ins[..count].iter().all(|&i| matches!(f.ty(i), Type::Array(_, ri) if ri == rank));
            if fits {
                Ok(())
            } else {
                Err("`scatter` operands do not fit the iteration space".into())
            }
        }
        ComputeFn::Gather(axis) => {
            let count = ins.len() - 1;
            let fits = matches!(f.ty(ins[0]), Type::Array(_, r) if count >= 1 && axis + count <= r && rank + count >= r)
                && ins[1..].iter().all(|&i| matches!(f.ty(i), Type::Array(_, ri) if ri == rank));
            if fits {
                Ok(())
            } else {
                Err("`gather` operands do not fit the iteration space".into())
            }
        }
        _ => Ok(()),
    }
}

/// The layout of kernel `f` if this back end can compile it as one fused loop nest; `Err` with the
/// reason otherwise (not a kernel, a block form [`kernel_layout`] rejects, or an op it cannot
/// compute, see the module docs).
pub fn kernel_legality(f: &ir::Func) -> Result<KernelLayout, UnsupportedKernel> {
    if !f.kernel {
        return Err("not a kernel function".into());
    }
    let layout = kernel_layout(f)?;
    for (func, out, ins) in &layout.ops {
        op_legality(f, layout.rank, *func, *out, ins)?;
    }
    Ok(layout)
}

/// Whether this back end can compile kernel `f` as one fused loop nest ([`kernel_legality`]). The
/// outline pass asks before committing to a fused block and falls back to singleton blocks when it
/// is `false`, so an unsupported block never reaches the code generator.
pub fn fusible_block(f: &ir::Func) -> bool {
    kernel_legality(f).is_ok()
}

//! The kernels' calling convention, defined once: what code generation (`arrayc_codegen::
//! kernel_codegen`) builds and what every launcher (`arrayc_runtime::launch` on the CPU,
//! `arrayc_runtime::gpu`, `arrayc_codegen::gpu_emulation`) passes.
//!
//! A kernel is compiled from a fused block whose structure is its [`KernelLayout`] (computed once,
//! at compile time, by `arrayc_passes::kernel_layout`, and shipped to the runtime in a
//! [`LaunchPlan`]). Its arguments are, in this order ([`KernelAbi::of`]):
//!
//! 1. its parameters ([`KernelArg::Param`]): a scalar by value, a view as a strided memref;
//! 2. when it can fault ([`KernelLayout::faults`]), the *fault cell* ([`KernelArg::FaultCell`]): a
//!    0-d `i64` memref holding [`NO_FAULT`] until an iteration that faults lowers it atomically to
//!    its fault's index (`memref.atomic_rmw mins`), so that the launch fails with the fault of the
//!    smallest index, whatever the order of the iterations;
//! 3. for a [`KernelLayout::chunked_scan`], its carries ([`KernelArg::ScanCarries`]) and the pass
//!    ([`KernelArg::ScanPass`]);
//! 4. per target: on the CPU ([`Target::Cpu`]) the chunk bounds `lo, hi` ([`KernelArg::ChunkLo`],
//!    [`KernelArg::ChunkHi`]), then, for a [`KernelLayout::axis_split`], the bounds along the
//!    reduced axis ([`KernelArg::AxisLo`], [`KernelArg::AxisHi`]); on the GPU ([`Target::Gpu`]),
//!    for a reduction over everything, the partial results ([`KernelArg::Partials`]); in the GPU's
//!    emulation ([`Target::GpuEmulated`]), the GPU's arguments, then the grid coordinates
//!    ([`KernelArg::Grid`]).
//!
//! At the machine level (the CPU's packed entry `_mlir_<name>(void **args)`, a PTX kernel's
//! parameters) each argument is one or more 64-bit *words*, in order ([`ArgType::words`]): a scalar
//! or an index one word (its bits in the low bytes: an `f32` in 4, a bool in 1; [`scalar_word`]), a
//! memref of rank `r` the `3 + 2r` words of its descriptor: allocated pointer, aligned pointer,
//! offset, `r` sizes, `r` strides (offset, sizes and strides in elements; [`view_descriptor`]).
//! [`KernelAbi::slot`] gives each argument's words in the packed call.

use crate::{ComputeFn, DType, ReduceKind, Scalar, ScatterKind, Type, ValueId};
use std::ops::Range;

/// A run-time error an elementwise op of a kernel can detect where NumPy raises instead of
/// computing a value (today: an integer `**` with a negative exponent,
/// [`NEGATIVE_INT_POWER`](crate::semantics::NEGATIVE_INT_POWER)). The launch fails with it
/// (`arrayc_runtime::launch::LaunchError::Fault`), naming the source position of the op.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct KernelFault {
    /// The faulting op: an index into [`KernelLayout::ops`].
    pub op: usize,
    /// The error message for the user.
    pub message: String,
    /// The op's source line and column (1-based; 0 when unknown).
    pub line: u32,
    pub col: u32,
}

/// The fault cell's value while no iteration has faulted (see the module docs).
pub const NO_FAULT: i64 = i64::MAX;

/// A reduction that ends a kernel's block: `out = reduce(kind, axis)(input)`.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Reduction {
    pub kind: ReduceKind,
    pub axis: Option<usize>,
    /// Always a parameter (a 0-d view for a reduction over everything).
    pub out: ValueId,
    /// A parameter, or a contracted temporary computed by the block's elementwise ops.
    pub input: ValueId,
}

/// The dtype a reduction accumulates in: the out dtype, except that a bool sum/product accumulates
/// in i64 (NumPy: `sum` of bools counts them).
pub fn acc_dtype(kind: ReduceKind, out: DType) -> DType {
    match (kind, out) {
        (ReduceKind::Sum | ReduceKind::Prod, DType::Bool) => DType::I64,
        _ => out,
    }
}

/// The structure of a kernel's block, shared by the code generator
/// (`arrayc_codegen::kernel_codegen`) and the launchers (`arrayc_runtime::launch`,
/// `arrayc_runtime::gpu`) so that all agree on the iteration space.
///
/// A kernel body is a fused block (Kristensen et al. 2016, Sec. IV-A, Fig. 1): `Compute` ops in
/// execution order, every operand either a parameter (a view or a scalar) or a *contracted
/// temporary* — a non-parameter array value that an earlier op of the block writes (possibly
/// several times, in place) and later ops read. Array contraction (Sec. IV-A) turns each contracted
/// temporary into one scalar per iteration: it is never allocated, loaded or stored.
///
/// Supported forms:
/// * any number of elementwise ops (no `Reduce`; `Scan`s count as elementwise ops here, all
///   along one axis, see [`scan_axis`](Self::scan_axis)), optionally followed by
/// * one or more `Reduce` ops as the block's last ops (several only along one common axis, over
///   inputs of one rank), each output a parameter that no other op of the block uses, each input a
///   parameter or a contracted temporary.
///
/// Iteration space: the reduction input's shape when there is a reduction, else the shape of the
/// elementwise views; when no operand gives it (every array of the block is contracted), the shape
/// of a *shape parameter*, a view parameter of the iteration-space rank that no op uses. Its rank
/// is the reduction input's rank, or the largest rank of an elementwise operand (parameter or
/// contracted). Every contracted temporary has that rank (and, by construction upstream, that
/// shape); every elementwise view parameter has that rank, except 0-d views that are only read
/// (broadcast). The shape comes from [`KernelLayout::space`].
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct KernelLayout {
    /// The elementwise ops `(func, out, ins)`, in execution order.
    pub ops: Vec<(ComputeFn, ValueId, Vec<ValueId>)>,
    /// The block's final reduction, if any.
    pub reduce: Option<Reduction>,
    /// Further reductions after it, of inputs of the same shape, all over everything (0-d outputs)
    /// or all along the same axis of a space of rank 2 or more; the generated loop nest computes
    /// them together, one accumulator each.
    pub extra: Vec<Reduction>,
    /// Rank of the iteration space.
    pub rank: usize,
    /// The parameter whose shape is the iteration space: the reduction's input if it is a
    /// parameter, else the first view parameter (in parameter order) of rank [`rank`](Self::rank)
    /// that is an elementwise operand, else a shape parameter of that rank. `None` only for an
    /// elementwise block without view parameters, which does nothing (there is no shape to iterate
    /// over).
    pub space: Option<ValueId>,
    /// Contracted temporaries, in order of first write.
    pub contracted: Vec<ValueId>,
    /// The ops that can fault, in op order; when there are any, the kernel takes the fault cell
    /// after its parameters ([`KernelArg::FaultCell`]).
    pub faults: Vec<KernelFault>,
    /// Whether the reduction (if any) combines everything into a 0-d output (`axis = None`, or an
    /// axis of a 1-d input into a 0-d output).
    pub reduces_all: bool,
    /// Whether the block ends in reductions along an axis whose outputs have the reductions'
    /// accumulator dtypes, so that partial outputs combine like the inputs: the kernel then takes a
    /// second chunk range `axis_lo, axis_hi` over the axis, and the CPU launcher chunks either the
    /// outputs or the axis (see `arrayc_runtime::launch::SPLIT_MAX_OUT`). Along a non-last axis the
    /// loop nest then accumulates in the outputs, row by row (`arrayc_codegen::kernel_codegen`).
    pub axis_split: bool,
    /// Whether every scatter of the block is an [`atomic_scatter_add`], so that its iterations may
    /// run in any order where scatter-adds are atomic (the GPU:
    /// [`in_order_on_gpu`](Self::in_order_on_gpu)). `false` for a block without scatters.
    #[serde(default)]
    pub atomic_scatters: bool,
    /// Whether the block's scans run as a *chunked scan* (the reduce-then-scan of Blelloch, "Prefix
    /// Sums and Their Applications", 1990, Sec. 1.4): a 1-d iteration space, every scan along it
    /// accumulating in `i64` (so that any grouping of the combinations gives the sequential result
    /// exactly), no scan's input computed from a scan's output, and no op that
    /// [`runs_in_order`](ComputeFn::runs_in_order). The space is then split into chunks that run in
    /// parallel, twice: a *totals* pass gives each chunk's combination of each scan's inputs (and
    /// writes nothing else), the launcher turns them into each chunk's carry-in
    /// (`arrayc_runtime::launch::scan_carries`), and the final pass runs every scan of a chunk from
    /// its carry-in. The kernel takes the carries and the pass after its parameters and fault cell
    /// ([`KernelArg::ScanCarries`], [`KernelArg::ScanPass`]).
    #[serde(default)]
    pub chunked_scan: bool,
}

/// Whether op `func`, whose output has dtype `out`, is a scatter-add that a GPU kernel performs
/// with an atomic add (`memref.atomic_rmw addf`/`addi`, PTX `atom.add` of 32- and 64-bit floats
/// and 32- and 64-bit integers): a [`ScatterKind::Add`] into a dtype of 32 or 64 bits (not `bool`
/// or `u8`: PTX has no 8-bit atomics, so those scatters run in order). Each add is the one
/// NumPy's `add.at` does (the same rounding); only their order is unspecified, so with repeated
/// indices a float sum may differ in its last bits from NumPy's sequential one, as a float
/// reduction may. Integer sums are exact in any order.
pub fn atomic_scatter_add(func: ComputeFn, out: DType) -> bool {
    matches!(func, ComputeFn::Scatter(ScatterKind::Add, _)) && out.bits() >= 32
}

impl KernelLayout {
    /// The axis of the block's scans (`ComputeFn::Scan`), if it has any: the loop nest then runs
    /// that axis of the iteration space in order, innermost, carrying one accumulator per scan, and
    /// the other axes in parallel (see [`chunk_dim`](Self::chunk_dim)). A block with a scan has no
    /// reduction.
    pub fn scan_axis(&self) -> Option<usize> {
        self.ops.iter().find_map(|(func, ..)| match func {
            ComputeFn::Scan(_, a) => Some(*a),
            _ => None,
        })
    }

    /// The kinds of the block's scans, in op order.
    pub fn scan_kinds(&self) -> Vec<ReduceKind> {
        self.ops
            .iter()
            .filter_map(|(func, ..)| match func {
                ComputeFn::Scan(kind, _) => Some(*kind),
                _ => None,
            })
            .collect()
    }

    /// Whether the launch must run the iteration space in row-major order, chunk after chunk: the
    /// block has an op that [`ComputeFn::runs_in_order`] (a scatter).
    pub fn in_order(&self) -> bool {
        self.ops.iter().any(|(func, ..)| func.runs_in_order())
    }

    /// Whether a GPU launch must run the iteration space in row-major order, on one thread: the
    /// block [`in_order`](Self::in_order) and not every scatter of it is an [`atomic_scatter_add`]
    /// (a scatter that sets: the last of repeated indices wins, as in NumPy). A block whose
    /// scatters all add runs on the whole grid (`arrayc_runtime::gpu::launch_geometry`).
    pub fn in_order_on_gpu(&self) -> bool {
        self.in_order() && !self.atomic_scatters
    }

    /// The reductions whose partial results a GPU launch combines in a second kernel
    /// (`<name>_combine`; the kernel then takes one [`KernelArg::Partials`] each, in this order):
    /// the block's reductions when they reduce everything and the block has an iteration space;
    /// else none.
    pub fn partials_reductions(&self) -> Vec<Reduction> {
        if self.reduces_all && self.space.is_some() {
            self.reduce.iter().chain(&self.extra).copied().collect()
        } else {
            vec![]
        }
    }

    /// For a block without reductions: the dimension of the iteration space that the CPU launcher
    /// splits into chunks (the kernel's `lo, hi`), `None` when it runs as one chunk. Dimension 0,
    /// except for scans along axis 0, which must run whole: then dimension 1, or `None` for a 1-d
    /// space (the kernel's chunked loop is then one iteration, `[0, 1)`), unless it is a
    /// [`chunked_scan`](Self::chunked_scan).
    pub fn chunk_dim(&self) -> Option<usize> {
        match self.scan_axis() {
            Some(0) if !self.chunked_scan => (self.rank >= 2).then_some(1),
            _ => Some(0),
        }
    }
}

/// Everything the launcher needs to know about one compiled kernel, computed once when it is
/// compiled (`arrayc_passes::kernel_layout::launch_plan`): its name, its parameters and their
/// types, and the structure of its block. The runtime never sees the kernel's IR.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct LaunchPlan {
    /// The kernel's name, for messages.
    pub name: String,
    /// The kernel's parameters (value ids of its function), in order.
    pub params: Vec<ValueId>,
    /// The type of each parameter: scalars are passed by value, arrays as strided views.
    pub param_types: Vec<Type>,
    /// The block's structure.
    pub layout: KernelLayout,
    /// Per parameter, the stride (elements) of the last dimension that the compiled CPU code
    /// assumes for its view (`0` or `1`; `arr.inner_strides`, known to the fusion symbols), else
    /// `None`; empty when it assumes none. `arrayc_runtime::launch::validate` rejects a launch
    /// whose view differs where that dimension has more than one element and the view is not empty.
    #[serde(default)]
    pub inner_strides: Vec<Option<i64>>,
}

/// The suffix of the name of a GPU kernel's second kernel, `<name>_combine`, which a launch runs on
/// one thread after a kernel that takes [`KernelArg::Partials`], with the same arguments, to
/// combine the partials in order into the reduction's output
/// ([`KernelLayout::partials_reduction`]).
pub const COMBINE_SUFFIX: &str = "_combine";

/// Where a kernel runs, which decides its arguments after the fault cell and the carries (see the
/// module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// A CPU kernel, run in chunks by `arrayc_runtime::launch`.
    Cpu,
    /// A `gpu.func`, launched on a grid by `arrayc_runtime::gpu`.
    Gpu,
    /// The GPU kernel built as a CPU function whose grid coordinates are arguments, called once per
    /// thread by `arrayc_codegen::gpu_emulation`.
    GpuEmulated,
}

/// A grid coordinate of an emulated GPU kernel ([`KernelArg::Grid`]); [`GRID_COORDS`] gives their
/// order. Each is an `index`: a thread or block number, or a count of them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GridCoord {
    /// `gpu.block_id x`.
    BlockX,
    /// `gpu.block_id y`.
    BlockY,
    /// `gpu.thread_id x`.
    Thread,
    /// `gpu.grid_dim x`: blocks along x.
    GridX,
    /// `gpu.grid_dim y`: blocks along y.
    GridY,
    /// `gpu.block_dim x`: threads per block.
    BlockDim,
}

/// The grid coordinates an emulated kernel takes last, in order.
pub const GRID_COORDS: [GridCoord; 6] =
    [GridCoord::BlockX, GridCoord::BlockY, GridCoord::Thread, GridCoord::GridX, GridCoord::GridY, GridCoord::BlockDim];

/// One argument of a kernel function (see the module docs for their order).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KernelArg {
    /// Parameter `i` of the kernel (an index into [`LaunchPlan::params`]).
    Param(usize),
    /// The fault cell: a 0-d `i64` view holding [`NO_FAULT`] or the index of the first fault.
    FaultCell,
    /// A chunked scan's carries: a 1-d `i64` view of one element per scan of the block (in op
    /// order) and chunk (or GPU thread), whose offset (elements) the launcher sets to the chunk's
    /// first carry ([`KernelAbi::set_scan_pass`]).
    ScanCarries,
    /// A chunked scan's pass, an `i64`: 1 for the totals pass (each scan's combination of its
    /// chunk's inputs is stored in its carry; no other output is written), 0 for the final pass
    /// (each scan starts from its carry).
    ScanPass,
    /// The first row (an `index`) of the chunked dimension that a CPU chunk runs.
    ChunkLo,
    /// One past the last row (an `index`) of the chunked dimension that a CPU chunk runs.
    ChunkHi,
    /// The first index of the reduced axis that a CPU chunk of a [`KernelLayout::axis_split`]
    /// kernel runs.
    AxisLo,
    /// One past the last index of the reduced axis that a CPU chunk runs.
    AxisHi,
    /// The partial results of the `k`-th reduction of a GPU block that reduces everything (the
    /// block's [`KernelLayout::reduce`], then its [`KernelLayout::extra`] in order): a contiguous
    /// 1-d array in the accumulator dtype ([`acc_dtype`]), one element per thread block (per
    /// thread when emulated).
    Partials(usize),
    /// A grid coordinate of an emulated GPU kernel.
    Grid(GridCoord),
}

impl KernelArg {
    /// Whether every target's kernel takes this argument where the layout calls for it (the
    /// parameters, the fault cell, the carries and the pass: the target-neutral signature).
    pub fn is_neutral(self) -> bool {
        matches!(self, KernelArg::Param(_) | KernelArg::FaultCell | KernelArg::ScanCarries | KernelArg::ScanPass)
    }
}

/// The type of a kernel argument.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArgType {
    /// A scalar of this dtype, by value.
    Scalar(DType),
    /// A strided view `(dtype, rank)`: a memref with dynamic sizes, strides and offset.
    View(DType, usize),
    /// A contiguous 1-d array of this dtype: a memref `?xT` with the identity layout.
    Vector(DType),
    /// An `index` (a 64-bit integer).
    Index,
}

impl ArgType {
    /// The number of 64-bit words the argument takes in a packed call: 1 for a scalar or an index,
    /// [`descriptor_len`] of its rank for a memref.
    pub fn words(self) -> usize {
        match self {
            ArgType::Scalar(_) | ArgType::Index => 1,
            ArgType::View(_, rank) => descriptor_len(rank),
            ArgType::Vector(_) => descriptor_len(1),
        }
    }
}

impl From<Type> for ArgType {
    /// A parameter's argument type: a scalar by value, an array as a strided view.
    fn from(t: Type) -> Self {
        match t {
            Type::Scalar(d) => ArgType::Scalar(d),
            Type::Array(d, r) => ArgType::View(d, r),
        }
    }
}

/// One argument of a [`KernelAbi`]: what it is, its type, and the index of its first word in the
/// packed call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AbiArg {
    pub arg: KernelArg,
    pub ty: ArgType,
    pub first_word: usize,
}

/// The arguments of one kernel on one target, in order (see the module docs): the one definition
/// that code generation builds signatures from and launchers pack words by.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KernelAbi {
    args: Vec<AbiArg>,
}

impl KernelAbi {
    /// The arguments of the kernel with parameters `params` of types `param_types` (in order) and
    /// block layout `layout` on `target`. A layout whose reduction output is not a parameter
    /// (`kernel_layout` builds none) takes no [`KernelArg::Partials`].
    pub fn of(params: &[ValueId], param_types: &[Type], layout: &KernelLayout, target: Target) -> KernelAbi {
        let mut args: Vec<(KernelArg, ArgType)> =
            param_types.iter().enumerate().map(|(i, &t)| (KernelArg::Param(i), t.into())).collect();
        if !layout.faults.is_empty() {
            args.push((KernelArg::FaultCell, ArgType::View(DType::I64, 0)));
        }
        if layout.chunked_scan {
            args.push((KernelArg::ScanCarries, ArgType::View(DType::I64, 1)));
            args.push((KernelArg::ScanPass, ArgType::Scalar(DType::I64)));
        }
        match target {
            Target::Cpu => {
                args.push((KernelArg::ChunkLo, ArgType::Index));
                args.push((KernelArg::ChunkHi, ArgType::Index));
                if layout.axis_split {
                    args.push((KernelArg::AxisLo, ArgType::Index));
                    args.push((KernelArg::AxisHi, ArgType::Index));
                }
            }
            Target::Gpu | Target::GpuEmulated => {
                let out_dtype = |r: Reduction| {
                    let p = params.iter().position(|&v| v == r.out)?;
                    Some(acc_dtype(r.kind, param_types.get(p)?.dtype()))
                };
                for (k, r) in layout.partials_reductions().into_iter().enumerate() {
                    if let Some(d) = out_dtype(r) {
                        args.push((KernelArg::Partials(k), ArgType::Vector(d)));
                    }
                }
                if target == Target::GpuEmulated {
                    args.extend(GRID_COORDS.map(|c| (KernelArg::Grid(c), ArgType::Index)));
                }
            }
        }
        let mut first_word = 0;
        let args = args
            .into_iter()
            .map(|(arg, ty)| {
                let a = AbiArg { arg, ty, first_word };
                first_word += ty.words();
                a
            })
            .collect();
        KernelAbi { args }
    }

    /// The arguments, in order.
    pub fn args(&self) -> &[AbiArg] {
        &self.args
    }

    /// The position of argument `arg` among the kernel function's arguments, `None` when the
    /// kernel does not take it.
    pub fn position(&self, arg: KernelArg) -> Option<usize> {
        self.args.iter().position(|a| a.arg == arg)
    }

    /// The words (indices into the packed call's words) of argument `arg`, `None` when the kernel
    /// does not take it.
    pub fn slot(&self, arg: KernelArg) -> Option<Range<usize>> {
        let a = self.args.iter().find(|a| a.arg == arg)?;
        Some(a.first_word..a.first_word + a.ty.words())
    }

    /// Writes `value` into the words of argument `arg` in the packed call `words` (word by word, as
    /// many as both have: `value` is meant to be the argument's [`ArgType::words`] long); does
    /// nothing when the kernel does not take `arg`.
    pub fn put(&self, words: &mut [u64], arg: KernelArg, value: &[u64]) {
        if let Some(s) = self.slot(arg) {
            for (w, &x) in words.iter_mut().skip(s.start).take(s.len()).zip(value) {
                *w = x;
            }
        }
    }

    /// The number of 64-bit words of a packed call.
    pub fn word_count(&self) -> usize {
        self.args.last().map_or(0, |a| a.first_word + a.ty.words())
    }

    /// Sets, in the packed call `words` of a [`KernelLayout::chunked_scan`] kernel, the offset
    /// (elements) of its carries ([`KernelArg::ScanCarries`]) and its pass
    /// ([`KernelArg::ScanPass`]: `totals`, the totals pass, else the final pass). Does nothing for
    /// a kernel without them.
    pub fn set_scan_pass(&self, words: &mut [u64], offset: u64, totals: bool) {
        if let (Some(carries), Some(pass)) = (self.slot(KernelArg::ScanCarries), self.slot(KernelArg::ScanPass)) {
            if let Some(w) = words.get_mut(carries.start + DESC_OFFSET) {
                *w = offset;
            }
            if let Some(w) = words.get_mut(pass.start) {
                *w = u64::from(totals);
            }
        }
    }
}

impl LaunchPlan {
    /// The arguments of this plan's kernel on `target` ([`KernelAbi::of`]).
    pub fn abi(&self, target: Target) -> KernelAbi {
        KernelAbi::of(&self.params, &self.param_types, &self.layout, target)
    }
}

/// The number of words of the descriptor of a memref of rank `rank`: allocated pointer, aligned
/// pointer, offset, `rank` sizes, `rank` strides.
pub const fn descriptor_len(rank: usize) -> usize {
    3 + 2 * rank
}

/// The index of the offset (elements) in a memref descriptor.
pub const DESC_OFFSET: usize = 2;

/// The descriptor words of a view at address `ptr` (allocated and aligned pointer alike) with
/// offset `offset`, sizes `sizes` and strides `strides` (elements; as many strides as sizes):
/// [`descriptor_len`]`(sizes.len())` words.
pub fn view_descriptor(ptr: u64, offset: i64, sizes: &[i64], strides: &[i64]) -> Vec<u64> {
    let mut words = vec![0; descriptor_len(sizes.len())];
    write_view_descriptor(&mut words, ptr, offset, sizes, strides);
    words
}

/// [`view_descriptor`] written into `out`, which must be [`descriptor_len`]`(sizes.len())` words
/// long (a kernel launch fills its packed call in place, without a vector per view).
pub fn write_view_descriptor(out: &mut [u64], ptr: u64, offset: i64, sizes: &[i64], strides: &[i64]) {
    let r = sizes.len();
    out[0] = ptr;
    out[1] = ptr;
    out[2] = offset as u64;
    for (k, (&s, &t)) in sizes.iter().zip(strides).enumerate() {
        out[3 + k] = s as u64;
        out[3 + r + k] = t as u64;
    }
}

/// The descriptor words of a contiguous 1-d array of `len` elements at `ptr` (offset 0, stride 1):
/// the carries of a chunked scan, the partials of a GPU reduction.
pub fn vector_descriptor(ptr: u64, len: usize) -> [u64; descriptor_len(1)] {
    [ptr, ptr, 0, len as u64, 1]
}

/// The descriptor words of the fault cell at `cell` (the address of one `i64`; a 0-d view).
pub fn fault_cell_descriptor(cell: u64) -> [u64; descriptor_len(0)] {
    [cell, cell, 0]
}

/// The word of a scalar argument: `s` cast to dtype `d`, its bits in the low bytes (an `f32` in 4,
/// a bool in 1).
pub fn scalar_word(s: Scalar, d: DType) -> u64 {
    s.cast(d).to_bits()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `GridCoord as usize` indexes [`GRID_COORDS`] (the code generator relies on it).
    #[test]
    fn grid_coords_are_numbered_in_order() {
        for (i, &c) in GRID_COORDS.iter().enumerate() {
            assert_eq!(c as usize, i);
        }
    }

    /// Descriptors as MLIR's memref lowering lays them out (allocated, aligned, offset, sizes,
    /// strides), and scalars in the low bytes of their word.
    #[test]
    fn descriptors_and_scalar_words() {
        let v = view_descriptor(0x1000, 3, &[4, 5], &[5, -1]);
        assert_eq!(v, vec![0x1000, 0x1000, 3, 4, 5, 5, u64::MAX]);
        assert_eq!(v.len(), descriptor_len(2));
        assert_eq!(fault_cell_descriptor(8).to_vec(), view_descriptor(8, 0, &[], &[]));
        assert_eq!(vector_descriptor(16, 7).to_vec(), view_descriptor(16, 0, &[7], &[1]));
        assert_eq!(scalar_word(Scalar::F64(1.5), DType::F32), u64::from(1.5f32.to_bits()));
        assert_eq!(scalar_word(Scalar::I64(-1), DType::I64), u64::MAX);
        assert_eq!(scalar_word(Scalar::Bool(true), DType::Bool), 1);
        assert_eq!(scalar_word(Scalar::I64(2), DType::F64), 2.0f64.to_bits());
    }

    /// A CPU kernel with a view and a scalar parameter that can fault and runs a chunked scan: its
    /// arguments, their words, and the words `put` and `set_scan_pass` write.
    #[test]
    fn slots_of_a_faulting_chunked_scan() {
        let fault = KernelFault { op: 0, message: "m".into(), line: 1, col: 1 };
        let layout = KernelLayout {
            ops: vec![],
            reduce: None,
            extra: vec![],
            rank: 1,
            space: None,
            contracted: vec![],
            faults: vec![fault],
            reduces_all: false,
            axis_split: false,
            atomic_scatters: false,
            chunked_scan: true,
        };
        let abi = KernelAbi::of(&[0, 1], &[Type::Array(DType::I64, 1), Type::Scalar(DType::F32)], &layout, Target::Cpu);
        let slots: Vec<(KernelArg, Range<usize>)> =
            abi.args().iter().map(|a| (a.arg, abi.slot(a.arg).unwrap_or_default())).collect();
        use KernelArg::*;
        let want = [(Param(0), 0..5), (Param(1), 5..6), (FaultCell, 6..9), (ScanCarries, 9..14), (ScanPass, 14..15)];
        let want = want.into_iter().chain([(ChunkLo, 15..16), (ChunkHi, 16..17)]);
        assert_eq!(slots, want.collect::<Vec<_>>());
        assert_eq!(abi.word_count(), 17);
        assert_eq!((abi.position(ScanPass), abi.position(AxisLo), abi.position(Partials(0))), (Some(4), None, None));
        let mut words = vec![0; abi.word_count()];
        abi.put(&mut words, ScanCarries, &vector_descriptor(64, 2));
        abi.put(&mut words, AxisLo, &[9]);
        abi.set_scan_pass(&mut words, 3, true);
        assert_eq!(words[9..15], [64, 64, 3, 2, 1, 1]);
        abi.set_scan_pass(&mut words, 0, false);
        assert_eq!(words[9..15], [64, 64, 0, 2, 1, 0]);
        assert_eq!(words.iter().filter(|&&w| w != 0).count(), 4, "AxisLo is not an argument: nothing written");
    }
}
